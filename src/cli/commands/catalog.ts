/** The commands as `sitemapkit --help` lists them (name, description, operands), known without loading any of them. */

export const COMMANDS = {
  build: {
    name: 'build',
    description: 'write a sitemap set (sitemap.xml, or numbered sitemaps and an index) from a list of URLs or records',
    arguments: [],
  },
  parse: {
    name: 'parse',
    description: 'read a sitemap, index, RSS/Atom feed, text list or robots.txt and print what it lists (one URL a line by default)',
    arguments: [{ syntax: '<source>', description: 'a file, an http(s) URL, or - for standard input (gzip is detected)' }],
  },
  validate: {
    name: 'validate',
    description: 'check a sitemap or index against every protocol rule that can be checked on a file; exit 1 when invalid',
    arguments: [{ syntax: '<source>', description: 'a file, an http(s) URL, or - for standard input (gzip is detected)' }],
  },
  discover: {
    name: 'discover',
    description:
      "find a site's sitemaps (robots.txt, the usual paths, every index) and show them as a tree, or print every page URL; exit 1 when none is found, one cannot be read or one has errors",
    arguments: [{ syntax: '<site-url>', description: 'the site, e.g. https://example.com (https:// is assumed when no scheme is given)' }],
  },
  changes: {
    name: 'changes',
    description: 'list the URLs added, changed and removed by the last build with --state (or since a time), each with its time',
    arguments: [],
  },
} as const satisfies Record<string, { name: string; description: string; arguments: readonly { syntax: string; description: string }[] }>;

export type CommandName = keyof typeof COMMANDS;

/**
 * Reading robots.txt with robots-parser: its `Sitemap:` lines (R27), and which URLs a user agent may
 * fetch, matched as Google documents it (the longest matching path wins, `allow` on a tie; `*` and a
 * closing `$`; an agent follows its own group, else `*`). Writing one, with the `Sitemap:` lines a
 * build adds, belongs in this folder too, beside this reader.
 */
import robotsParserModule from 'robots-parser';

// robots-parser is CommonJS; under Node's ESM interop its default import is the function itself.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export interface RobotsTxt {
  /** The `Sitemap:` values, as written, in file order. */
  sitemaps: string[];
  /**
   * Whether `agent` (a product token such as `Googlebot`, or a whole `Name/1.0` user agent; any case)
   * may fetch `url`. Undefined when `url` is not on robots.txt's own origin, which the file says nothing about.
   */
  isAllowed(url: string, agent: string): boolean | undefined;
  /** The line of the rule that decides `isAllowed`; -1 when no rule matches (so the URL is allowed), undefined for another origin. */
  matchingLine(url: string, agent: string): number | undefined;
  /** The `Crawl-delay` of the agent's group (else of `*`), in seconds. */
  crawlDelay(agent: string): number | undefined;
}

/** Reads the robots.txt `text` served at `url`. */
export function readRobots(text: string, url: string): RobotsTxt {
  const robots = robotsParser(url, text);
  return {
    sitemaps: robots.getSitemaps(),
    isAllowed: (target, agent) => robots.isAllowed(target, agent),
    matchingLine: (target, agent) => (robots.isAllowed(target, agent) === undefined ? undefined : robots.getMatchingLineNumber(target, agent)),
    crawlDelay: (agent) => robots.getCrawlDelay(agent),
  };
}

/** The `Sitemap:` URLs of a robots.txt served at `url`, in file order. */
export function sitemapsInRobotsTxt(url: string, text: string): string[] {
  return robotsParser(url, text).getSitemaps();
}

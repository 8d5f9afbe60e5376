/** The oldest Node.js sitemapkit runs on: package.json's `engines` (a test keeps them equal). */
export const MIN_NODE_VERSION = '22.19.0';

/**
 * Why the Node.js of `version` (as `process.versions.node` gives it) cannot run sitemapkit, or
 * undefined when it can. Older ones fail deep inside (the HTTP client, `node:sqlite`) with a stack
 * trace, and only for some commands; this says it once, for all of them, before anything runs.
 */
export function unsupportedNode(version: string): string | undefined {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  const [minMajor = 0, minMinor = 0, minPatch = 0] = MIN_NODE_VERSION.split('.').map(Number);
  const older = major !== minMajor ? major < minMajor : minor !== minMinor ? minor < minMinor : patch < minPatch;
  return older ? `needs Node.js ${MIN_NODE_VERSION} or later; this is Node.js ${version}` : undefined;
}

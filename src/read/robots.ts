/** robots.txt `Sitemap:` lines (R27), read by robots-parser. */
import robotsParserModule from 'robots-parser';

// robots-parser is CommonJS; under Node's ESM interop its default import is the function itself.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The `Sitemap:` URLs of a robots.txt served at `url`, in file order. */
export function sitemapsInRobotsTxt(url: string, text: string): string[] {
  return robotsParser(url, text).getSitemaps();
}

/** robots.txt `Sitemap:` lines (R27), read by robots-parser. */
import robotsParserModule from 'robots-parser';

// robots-parser is CommonJS; under Node's ESM interop its default import is the function itself.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The `Sitemap:` URLs of a robots.txt served at `url`, in file order. */
export function sitemapsInRobotsTxt(url: string, text: string): string[] {
  return robotsParser(url, text).getSitemaps();
}

/** `text` up to its last line end: what a robots.txt cut off part way (at the size cap, or by a failure) holds whole, without the line the cut broke. */
export function wholeLines(text: string): string {
  return text.slice(0, Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
}

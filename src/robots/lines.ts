/** Where things stand in a robots.txt's text, read line by line as robots-parser reads it: whole lines, and each `Sitemap:` value's place. */

/** `text` up to its last line end: what a robots.txt cut off part way (at the size cap, or by a failure) holds whole, without the line the cut broke. */
export function wholeLines(text: string): string {
  return text.slice(0, Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
}

/** Where each `Sitemap:` value stands (line, and the column its value starts at), each time it stands, as robots-parser reads the lines: any line end, the field name in any case. */
export function sitemapPlaces(text: string): Map<string, { line: number; column: number }[]> {
  const places = new Map<string, { line: number; column: number }[]>();
  const lines = text.split(/\r\n|\r|\n/);
  for (const [i, line] of lines.entries()) {
    const field = /^\s*sitemap\s*:\s*/i.exec(line);
    if (field === null) continue;
    const value = line.slice(field[0].length).replace(/\s*#.*$/, '').trim();
    const place = { line: i + 1, column: field[0].length + 1 };
    const seen = places.get(value);
    if (seen === undefined) places.set(value, [place]);
    else seen.push(place);
  }
  return places;
}

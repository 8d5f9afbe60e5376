/** Places of entries and findings (trackPositions): line ends of every kind, cuts anywhere, entries taken whole. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSitemap, validateSitemap, type ParsedEntry } from '../../src/index.ts';
import { byteByByte, parseChunks, placed, randomSplits, sameHoweverCut } from '../helpers/parse.ts';

describe('positions (trackPositions)', () => {
  it('an entry is placed only by the parse that read it with trackPositions; its place adds no key, and what is no entry has none', async () => {
    const bytes = new TextEncoder().encode('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/1</loc><lastmod>2026-11-01</lastmod></url>\n</urlset>\n');
    const tracked = parseSitemap([bytes], { trackPositions: true });
    const entries: ParsedEntry[] = [];
    for await (const entry of tracked) entries.push(entry);
    const [entry] = entries;
    assert.ok(entry !== undefined);
    assert.deepEqual([tracked.positionOf(entry), tracked.positionOf(entry, 'lastmod')], [{ line: 2, column: 1 }, { line: 2, column: 36 }]);
    // The place is no property anyone sees: the entry is its fields alone.
    assert.deepEqual(Reflect.ownKeys(entry), ['loc', 'lastmod']);
    assert.deepEqual(entry, { loc: 'https://a.example/1', lastmod: '2026-11-01' });
    // Another parse, with or without positions, does not place what it did not read.
    const other = parseSitemap([bytes], { trackPositions: true });
    for await (const mine of other) assert.deepEqual(other.positionOf(mine), { line: 2, column: 1 });
    assert.equal(other.positionOf(entry), undefined);
    const untracked = parseSitemap([bytes]);
    for await (const mine of untracked) assert.equal(untracked.positionOf(mine), undefined);
    assert.equal(untracked.positionOf(entry), undefined);
    // What is no entry (a caller's mistake in plain JavaScript) has no place, rather than a TypeError.
    for (const notAnEntry of [undefined, null, 'https://a.example/1', 7, {}]) assert.equal(tracked.positionOf(notAnEntry as unknown as ParsedEntry), undefined);
  });
});

describe('line ends', () => {
  // Pretty-printed, with line ends between and inside entries, in a tag and in a text; the padding puts the cuts past the sniffed first KiB.
  const entry = (n: number): string[] => ['  <url>', `    <loc>https://a.example/${n}?a=1&amp;b=2</loc>`, `    <lastmod>2026-11-0${n}</lastmod>`, '    <xhtml:link', `      rel="alternate" hreflang="de" href="https://a.example/de/${n}"/>`, '  </url>'];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    `<!--${'x'.repeat(1100)}-->`,
    ...[1, 2, 3, 1, 4].flatMap(entry),
    ...['  <url>', '    <loc>', '      https://a.example/5', '    </loc>', '    <lastmod>yesterday</lastmod>', '  </url>', '</urlset>', ''],
  ];
  const read = async (chunks: Uint8Array[]): Promise<unknown> => {
    const parsed = parseSitemap(chunks, { trackPositions: true });
    const seen: string[] = [];
    for await (const entry of parsed) seen.push(`${(entry as { loc: string }).loc} ${parsed.positionOf(entry)?.line}:${parsed.positionOf(entry)?.column}`);
    const validated = await validateSitemap(chunks);
    return { seen, diagnostics: validated.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`) };
  };
  const expected = {
    seen: ['1?a=1&b=2 4:3', '2?a=1&b=2 10:3', '3?a=1&b=2 16:3', '1?a=1&b=2 22:3', '4?a=1&b=2 28:3', '5 34:3'].map((s) => `https://a.example/${s}`),
    // Findings about a field are placed at its element: the repeated <loc>, the bad <lastmod>, the padded <loc>.
    diagnostics: ['R38 4:3', 'R38 10:3', 'R38 16:3', 'R38 22:3', 'R25 23:5', 'R38 28:3', 'R8 35:5', 'R11 38:5'],
  };
  for (const [name, lineEnd] of [['LF', '\n'], ['CRLF', '\r\n'], ['lone CR', '\r']] as const) {
    it(`${name}: the same entries, positions and findings, whole, byte by byte and cut anywhere`, async () => {
      const bytes = new TextEncoder().encode(lines.join(lineEnd));
      assert.deepEqual(await read([bytes]), expected);
      assert.deepEqual(await read([...byteByByte(bytes)]), expected);
      for (let cut = 1200; cut < bytes.length; cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at ${cut}`);
    });
  }

  it('a file that ends in a text: its line ends are counted once when saxes takes over, with any line end and any cut', async () => {
    for (const lineEnd of ['\n', '\r\n', '\r']) {
      const text = [`<!--${'x'.repeat(1100)}-->`, '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', '<url>', '<loc>a', '', 'b'].join(lineEnd);
      const bytes = new TextEncoder().encode(text);
      const findings = async (chunks: Uint8Array[]): Promise<string[]> => (await parseChunks(chunks)).diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`);
      // saxes says "unclosed tag" for each of the three elements left open, at the end: said once.
      const expected = ['R2 6:2'];
      assert.deepEqual(await findings([bytes]), expected);
      assert.deepEqual(await findings([...byteByByte(bytes)]), expected);
      for (let cut = 1150; cut < bytes.length; cut++) assert.deepEqual(await findings([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at ${cut}`);
    }
  });
});

describe('regressions', () => {
  it('entries taken whole (one shape, learnt) keep their own start positions, wherever the input is cut', async () => {
    const lines = [1, 2, 3, 4, 1, 5].map((n) => `<url><loc>https://a.example/${n}</loc><lastmod>2026-11-0${n}</lastmod></url>`);
    const bytes = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${lines.join('\n')}\n</urlset>\n`);
    for (const chunks of [[bytes], [...randomSplits(bytes, 7)], [...randomSplits(bytes, 8)]]) {
      const parsed = parseSitemap(chunks, { trackPositions: true });
      const positions: string[] = [];
      for await (const entry of parsed) positions.push(`${parsed.positionOf(entry)?.line}:${parsed.positionOf(entry)?.column}`);
      assert.deepEqual(positions, ['2:1', '3:1', '4:1', '5:1', '6:1', '7:1']);
    }
    const validated = await validateSitemap(bytes);
    // The repeat is placed at its <loc>.
    assert.deepEqual(validated.diagnostics.filter((d) => d.rule === 'R25').map((d) => `${d.line}:${d.column}`), ['6:6']);
  });
  it('a cut anywhere gives the same entries, positions and findings, even where the next `>` ends no token', async () => {
    // The sniffing reads the first KiB whole: the padding puts the cuts after it.
    const entries = [
      '<url><loc>https://a.example/1?x=1&amp;y=2</loc><lastmod>2026-11-01</lastmod></url>',
      '<!-- a comment with > inside -->',
      '<url><loc>https://a.example/2</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/de?a=1&amp;b=>"/></url>',
      '<url><loc>https://a.example/3</loc><lastmod>a > b</lastmod></url>',
      '<url><loc>https://a.example/1?x=1&amp;y=2</loc><lastmod>2026-11-01</lastmod></url>',
      '<url><loc> https://a.example/4</loc><priority>2</priority></url>',
      '<?pi with > inside?><url><loc>https://a.example/5</loc><lastmod>2026-11-05</lastmod></url>',
    ];
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n<!--${'x'.repeat(1100)}-->\n${entries.join('\n')}\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const read = async (chunks: Uint8Array[]): Promise<unknown> => {
      const parsed = parseSitemap(chunks, { trackPositions: true });
      const seen: unknown[] = [];
      for await (const entry of parsed) seen.push([entry, parsed.positionOf(entry)]);
      return { seen, diagnostics: parsed.diagnostics };
    };
    const whole = await read([bytes]);
    for (let cut = 1200; cut < bytes.length; cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
    const validated = await validateSitemap(bytes);
    assert.deepEqual(validated.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`), ['R38 5:1', 'R10 5:36', 'R11 6:36', 'R25 7:6', 'R8 8:6', 'R14 8:37']);
  });
  it('text outside the root is placed at the text\'s start, after a comment too, whichever path reads it and however it was cut', async () => {
    const padding = `<!--${'p'.repeat(1100)}-->`;
    const root = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>';
    for (const prolog of ['', '<!DOCTYPE urlset []>']) {
      const text = `<?xml version="1.0"?>${prolog}${padding}\n${root}\n<!-- after -->\nXY\n`;
      const bytes = new TextEncoder().encode(text);
      const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
      const whole = await read([bytes]);
      assert.deepEqual(whole, [
        'https://a.example/ 2:61',
        ...(prolog === '' ? [] : ['R2 1:42 DOCTYPE ignored: a sitemap has none, and its entity declarations are never expanded (no external entities, no entity expansion)']),
        'R2 3:15 not well-formed XML: text data outside of root node.',
      ]);
      await sameHoweverCut(bytes, read, whole, 1150);
    }
  });
  it('a file cut off inside its last entry: the same positions at every two-piece cut', async () => {
    // A finding before the cut makes the tokenizer count lines in that chunk; the rest of the entry is kept aside, then joined at the end.
    const text = `<?xml version="1.0"?>\n<!--${'p'.repeat(1100)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/1</loc><bar/></url>\n<url><loc>https://a.example/2</loc>\n<foo/>\n`;
    const bytes = new TextEncoder().encode(text);
    const findings = async (chunks: Uint8Array[]): Promise<string[]> => (await parseChunks(chunks)).diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`);
    const whole = await findings([bytes]);
    assert.deepEqual(whole, ['R6 4:36', 'R6 6:1', 'R2 7:1']);
    for (let cut = 1150; cut < bytes.length; cut++) assert.deepEqual(await findings([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
  });
});

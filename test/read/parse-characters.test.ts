/** Bare &, "]]>" and characters XML forbids: each reported once, at the character itself, however the input is cut. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byteByByte, locs, parseChunks, placed, randomSplits, sameHoweverCut } from '../helpers/parse.ts';

describe('regressions', () => {
  it('a bare & in an attribute is one finding, wherever a chunk cut falls in its tag', async () => {
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"><!--${'x'.repeat(1100)}-->\n<url><loc>https://a.example/</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/?a=1&b=2"/></url></urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const whole = await parseChunks([bytes]);
    // At the `&` itself, not the tag's start (2:35).
    assert.deepEqual(whole.diagnostics.filter((d) => d.rule === 'R2').map((d) => `${d.line}:${d.column}`), ['2:105']);
    for (let cut = 1200; cut < bytes.length; cut++) assert.deepEqual(await parseChunks([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
    assert.deepEqual(await parseChunks(byteByByte(bytes)), whole);
  });
  it('a bare & is placed at the & itself, past references, line ends and chunk cuts, on the fast path and where saxes reads', async () => {
    const body = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      // Entries of one shape, learnt and then taken whole: the next of that shape is matched, and declined at its bare &.
      ...[1, 2, 3].map((n) => `<url><loc>https://a.example/?a=${n}&amp;b=2</loc></url>`),
      '<url><loc>https://a.example/?a=1&amp;b=2&c=3</loc></url>',
      '<url><loc>https://a.example/2?x=&#38;&amp;\r\n&y&z</loc></url>',
      '<url><loc>https://a.example/3?&lt;&#x1F600;&w</loc><lastmod>2026-11-01</lastmod></url>',
      '<url><loc>https://a.example/4</loc></url>',
      '</urlset>',
      '',
    ];
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    // Past the first 8 KiB, which are read whole to tell the format (FORMAT_LOOK_BYTES): cuts before it never reach the reader.
    const padding = `<!--${'p'.repeat(8200)}-->`;
    const fastText = `<?xml version="1.0"?>\n${padding}\n${body.join('\n')}`;
    const fastBytes = new TextEncoder().encode(fastText);
    const fast = await read([fastBytes]);
    assert.deepEqual(fast.slice(7), [
      'R2 7:41 not well-formed XML: "&" that starts no entity reference ("example/?a=1&amp;b=2&c=3"); read literally, write &amp;',
      'R2 9:1 not well-formed XML: "&" that starts no entity reference ("mple/2?x=&#38;&amp;\\n&y&z"); read literally, write &amp;',
      'R2 9:3 not well-formed XML: "&" that starts no entity reference ("le/2?x=&#38;&amp;\\n&y&z"); read literally, write &amp;',
      'R2 10:44 not well-formed XML: "&" that starts no entity reference ("mple/3?&lt;&#x1F600;&w"); read literally, write &amp;',
    ]);
    await sameHoweverCut(fastBytes, read, fast, 8192);
    // Where saxes reads (after a DOCTYPE with an internal subset), one line down; excerpts aside, as saxes hands on texts decoded.
    const excerptless = (lines: string[]): string[] => lines.map((line) => line.replace(/ \(".*"\);/, ';'));
    const saxesBytes = new TextEncoder().encode(`<?xml version="1.0"?>\n<!DOCTYPE urlset []>\n${padding}\n${body.join('\n')}`);
    const saxes = await read([saxesBytes]);
    const oneLineDown = fast.map((line) => line.replace(/ (\d+):(\d+)( |$)/, (_, l: string, c: string, after: string) => ` ${Number(l) + 1}:${c}${after}`));
    assert.deepEqual(excerptless(saxes.filter((line) => !line.includes('DOCTYPE'))), excerptless(oneLineDown));
    await sameHoweverCut(saxesBytes, read, saxes, 8192);
  });
  it('a bare & in an attribute value is placed at the & itself, past a CRLF and references in the value, at every cut', async () => {
    const text = [
      '<?xml version="1.0"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"',
      '  data-note="one\r\ntwo &amp; &b" data-more=\'a&b&c\'>',
      '<url><loc>https://a.example/</loc><xhtml:link rel="alternate" hreflang="en" href="https://a.example/?x=1&amp;y&#38;&z"/></url>',
      // A quote of the other kind in a value is no end of it: the next attribute's & is its own.
      '<url><loc>https://a.example/2</loc><xhtml:link rel="alternate" hreflang="fr" href="https://a.example/s&\'&t" data-x="p&q"/></url>',
      '</urlset>',
      '',
    ].join('\n');
    const bytes = new TextEncoder().encode(text);
    const whole = await placed([bytes]);
    assert.deepEqual(whole, [
      'https://a.example/ 5:1',
      'https://a.example/2 6:1',
      // The value as written, its CRLF made a space (§3.3.3); the line count goes by the document.
      'R2 4:11 not well-formed XML: "&" that starts no entity reference in an attribute ("one two &amp; &b"); read literally, write &amp;',
      'R2 4:27 not well-formed XML: "&" that starts no entity reference in an attribute ("a&b&c"); read literally, write &amp;',
      'R2 4:29 not well-formed XML: "&" that starts no entity reference in an attribute ("a&b&c"); read literally, write &amp;',
      'R2 5:116 not well-formed XML: "&" that starts no entity reference in an attribute ("mple/?x=1&amp;y&#38;&z"); read literally, write &amp;',
      'R2 6:103 not well-formed XML: "&" that starts no entity reference in an attribute ("https://a.example/s&\'&t"); read literally, write &amp;',
      'R2 6:105 not well-formed XML: "&" that starts no entity reference in an attribute ("ttps://a.example/s&\'&t"); read literally, write &amp;',
      'R2 6:118 not well-formed XML: "&" that starts no entity reference in an attribute ("p&q"); read literally, write &amp;',
    ]);
    await sameHoweverCut(bytes, placed, whole);
    // Where saxes reads (after a DOCTYPE), one line down; excerpts aside, as saxes hands on values decoded.
    const excerptless = (lines: string[]): string[] => lines.map((line) => line.replace(/ \(".*"\);/, ';'));
    const saxesBytes = new TextEncoder().encode(text.replace('\n', '\n<!DOCTYPE urlset []>\n'));
    const saxes = await placed([saxesBytes]);
    const oneLineDown = whole.map((line) => line.replace(/ (\d+):(\d+)( |$)/, (_, l: string, c: string, after: string) => ` ${Number(l) + 1}:${c}${after}`));
    assert.deepEqual(excerptless(saxes.filter((line) => !line.includes('DOCTYPE'))), excerptless(oneLineDown));
    await sameHoweverCut(saxesBytes, placed, saxes);
  });
  it('a ] in a text of an entry shaped as those taken whole: a lone one is text, "]]>" is reported where it stands, at every cut', async () => {
    const entry = (path: string): string => `<url><loc>https://a.example/${path}</loc><lastmod>2026-11-01</lastmod></url>`;
    const text = ['<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...[1, 2, 3, 4].map(String).map(entry), entry('a]b'), entry('c]]>d'), entry('z'), '</urlset>', ''].join('\n');
    const bytes = new TextEncoder().encode(text);
    const whole = await placed([bytes]);
    assert.deepEqual(whole.slice(4), [
      'https://a.example/a]b 6:1',
      'https://a.example/c]]>d 7:1',
      'https://a.example/z 8:1',
      'R2 7:33 not well-formed XML: the string "]]>" is disallowed in char data.',
    ]);
    await sameHoweverCut(bytes, placed, whole);
  });
  it('a bare & and a "]]>" in one text: each reported once, at every cut', async () => {
    const bytes = new TextEncoder().encode('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/?a&b]]></loc></url>\n</urlset>');
    const whole = await placed([bytes]);
    assert.deepEqual(whole, [
      'https://a.example/?a&b]]> 2:1',
      // As saxes reads it: the "]]>" as it comes, the `&` when the text ends.
      'R2 2:36 not well-formed XML: the string "]]>" is disallowed in char data.',
      'R2 2:31 not well-formed XML: "&" that starts no entity reference ("https://a.example/?a&b]]>"); read literally, write &amp;',
    ]);
    await sameHoweverCut(bytes, placed, whole);
  });
  it('a character XML forbids is read as U+FFFD and reported where it stands; a bare & before it reads the same at every cut', async () => {
    // Handed to saxes, `&b</loc>` reads as an entity name running on to the next `;`, and every entry after it is lost.
    const text = `<?xml version="1.0"?>\n<!--${'p'.repeat(1100)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/?a&b</loc></url>\n<url><loc>https://a.example/2</loc></url>\r\n<url><loc>https://a.example/\u0001</loc></url>\n<url><loc>https://a.example/4?x&y</loc><lastmod>\u0008\u000B2026-11-01</lastmod></url>\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const whole = await placed([bytes]);
    assert.deepEqual(whole, [
      'https://a.example/?a&b 4:1',
      'https://a.example/2 5:1',
      'https://a.example/\uFFFD 6:1',
      'https://a.example/4?x&y 7:1',
      'R2 4:31 not well-formed XML: "&" that starts no entity reference ("https://a.example/?a&b"); read literally, write &amp;',
      'R2 6:29 not well-formed XML: character U+0001 is not allowed in XML; read as U+FFFD',
      // In document order: the entry holding the characters is read up to them before they are reported.
      'R2 7:32 not well-formed XML: "&" that starts no entity reference ("ttps://a.example/4?x&y"); read literally, write &amp;',
      'R2 7:49 not well-formed XML: character U+0008 is not allowed in XML; read as U+FFFD',
      'R2 7:50 not well-formed XML: character U+000B is not allowed in XML; read as U+FFFD',
    ]);
    await sameHoweverCut(bytes, placed, whole, 1150);
  });
  it('a forbidden character or bytes that are not UTF-8 in an entry come after the findings before them, also past an entry too long to wait for, at every cut', async () => {
    const start = (padding: number): string =>
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
      '<url><loc>https://a.example/0</loc></url>\n' +
      // Longer than an entry is awaited (64 KiB): it goes tag by tag, and how the next one is read then depends on where chunks were cut.
      `<url><loc>https://a.example/${'p'.repeat(padding)}</loc></url>\n` +
      '<url><loc>https://a.example/3</loc><xhtml:link rel="alternate" hreflang="en" href="https://a.example/&x"/><lastmod>2026-11-01';
    const end = '</lastmod></url>\n</urlset>\n';
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    const expected = (bad: string): string[] => [
      'https://a.example/0 2:1',
      'https://a.example/pp 3:1',
      'https://a.example/3 4:1',
      'R2 4:102 not well-formed XML: "&" that starts no entity reference in an attribute ("https://a.example/&x"); read literally, write &amp;',
      'R7 4:107 <lastmod> comes after an extension element; the schema wants loc, lastmod, changefreq, priority first',
      bad,
    ];
    const forbidden = 'R2 4:126 not well-formed XML: character U+FFFE is not allowed in XML; read as U+FFFD';
    const notUtf8 = 'R1 4:126 bytes that are not valid UTF-8 (replaced with U+FFFD)';
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => entry.loc.slice(0, 20));
    for (const padding of [10, 65_560]) {
      const head = encode(start(padding));
      for (const [bytes, bad] of [
        [encode(`${start(padding)}\uFFFE${end}`), forbidden],
        [new Uint8Array([...head, 0xff, ...encode(end)]), notUtf8],
      ] as const) {
        const whole = await read([bytes]);
        assert.deepEqual(whole, expected(bad), `padding ${padding}`);
        // Every cut from before the last entry's start (the cuts before it all read that entry the same way).
        await sameHoweverCut(bytes, read, whole, head.length - 160);
      }
    }
  });
  it('a control character before the first < leaves the file XML: its entries read, the character reported', async () => {
    for (const [before, code, declaration] of [['\u0001', '0001', '1:8'], ['\u0000\n', '0000', '2:7'], ['\uFEFF\u0001', '0001', '1:8']] as const) {
      const text = `${before}<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`;
      const parsed = await parseChunks([new TextEncoder().encode(text)]);
      assert.equal(parsed.kind, 'urlset', JSON.stringify(before));
      assert.deepEqual(locs(parsed), ['https://a.example/']);
      // The character, then what it makes of the rest: text before the root, and a declaration not at the start.
      assert.deepEqual(parsed.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`), [
        `R2 1:1 not well-formed XML: character U+${code} is not allowed in XML; read as U+FFFD`,
        'R2 1:1 not well-formed XML: text data outside of root node.',
        `R2 ${declaration} not well-formed XML: an XML declaration must be at the start of the document.`,
      ], JSON.stringify(parsed.diagnostics));
    }
    // Followed by more whitespace than the first look takes in, in small pieces: still XML.
    const spaced = new TextEncoder().encode(`\u0001${' '.repeat(3000)}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`);
    const inPieces = await parseChunks(Array.from({ length: Math.ceil(spaced.length / 16) }, (_, i) => spaced.subarray(i * 16, (i + 1) * 16)));
    assert.equal(inPieces.kind, 'urlset');
    assert.deepEqual(inPieces, await parseChunks([spaced]));
    const onlyControls = await parseChunks([new TextEncoder().encode('\u0001 \u001F\n')]);
    assert.deepEqual(onlyControls.diagnostics.map((d) => `${d.rule} ${d.message}`), ['R2 not well-formed XML: the file holds only whitespace and control characters (no root element)']);
  });
  it('forbidden characters in a long open comment are placed across LF, CRLF and lone CR line ends, however the comment was cut', async () => {
    // Past 64 KiB the comment waits for its `-->` with input kept aside: each report counts on from the last.
    const text = `<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><!--${'c'.repeat(70_000)}\n\u0001\r\n\u0002\r\u0003\r\r\nx\u0004 -->\n<url><loc>https://a.example/</loc></url>\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    const whole = await read([bytes]);
    const found = (line: number, column: number, code: string): string => `R2 ${line}:${column} not well-formed XML: character U+${code} is not allowed in XML; read as U+FFFD`;
    assert.deepEqual(whole, ['https://a.example/ 8:1', found(3, 1, '0001'), found(4, 1, '0002'), found(5, 1, '0003'), found(7, 2, '0004')]);
    assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
    for (const seed of [1, 2, 3]) assert.deepEqual(await read(randomSplits(bytes, seed)), whole, `random splits, seed ${seed}`);
    // Every cut among the line ends and the characters.
    const first = text.indexOf('\n\u0001');
    for (let cut = first - 1; cut <= text.indexOf('-->'); cut++) {
      assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
    }
  });
});

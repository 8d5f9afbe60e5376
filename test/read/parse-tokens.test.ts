/** Long tokens (comments, CDATA, PIs, tags) that wait over many chunks read as they do whole. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findings, locs, parseChunks, placed, randomSplits, rules } from '../helpers/parse.ts';

describe('regressions', () => {
  it('long tokens (comment, CDATA, PI, tag with a long value) over small chunks read as whole, their ends cut anywhere', async () => {
    // Past 64 KiB, a token still open waits for what can end it.
    const long = (c: string): string => c.repeat(70_000);
    const text = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      `<!--${long('c')}-->`,
      `<url><loc><![CDATA[https://a.example/${long('d')}?a=1&b]]></loc></url>`,
      `<?pi ${long('p')} ?>`,
      `<url><loc>https://a.example/2</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/${long('a')}>b"/></url>`,
      `<url><loc>https://a.example/3</loc><!-- ${long('x')}-x- --></url>`,
      '</urlset>',
    ].join('\n');
    const bytes = new TextEncoder().encode(text);
    const whole = await parseChunks([bytes]);
    assert.deepEqual(locs(whole).map((loc) => loc.length), [18 + 70_000 + 6, 19, 19]);
    assert.deepEqual(rules(whole), []);
    for (const size of [7, 4096]) {
      const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
      assert.deepEqual(await parseChunks(chunks), whole, `chunks of ${size}`);
    }
    assert.deepEqual(await parseChunks(randomSplits(bytes, 100)), whole);
    // Cut off inside each: the same finding however it was cut, at the end, for the element left open.
    for (const [end, open, place] of [
      [text.indexOf('-->') + 1, 'urlset', '2:70006'],
      [text.indexOf(']]>') + 1, 'loc', '3:70045'],
      [text.indexOf(' ?>') + 2, 'urlset', '4:70008'],
      [text.indexOf('b"/>') + 2, 'url', '5:70105'],
    ] as const) {
      const cutOff = bytes.subarray(0, end);
      const once = await parseChunks([cutOff]);
      const ended = [`R2 ${place} not well-formed XML: unclosed tag: ${open}`, `R2 ${place} not well-formed XML: unexpected end.`];
      assert.deepEqual(once.diagnostics.slice(0, 2).map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`), ended, `cut off at ${end}`);
      // Only these: inside the CDATA section its & is no bare one (valid in CDATA), and its content is no text.
      assert.equal(once.diagnostics.length, 2, `cut off at ${end}`);
      assert.deepEqual(await parseChunks(Array.from({ length: Math.ceil(cutOff.length / 64) }, (_, i) => cutOff.subarray(i * 64, (i + 1) * 64))), once, `cut off at ${end}, chunks of 64`);
    }
  });
  it('a long tag that goes bad while it waits (a stray quote) gives its findings in the same order as read whole', async () => {
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/1</loc></url>\n<url${' '.repeat(5000)}"\u0001"><loc>https://a.example/2</loc></url>\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    const whole = await read([bytes]);
    assert.deepEqual(whole, [
      'https://a.example/1 2:1',
      'https://a.example/2 3:1',
      'R2 3:5006 not well-formed XML: disallowed character in attribute name.',
      'R2 3:5006 not well-formed XML: character U+0001 is not allowed in XML; read as U+FFFD',
      'R2 3:5008 not well-formed XML: disallowed character in attribute name.',
      'R2 3:5009 not well-formed XML: attribute without value.',
    ]);
    assert.deepEqual(await read(Array.from({ length: Math.ceil(bytes.length / 16) }, (_, i) => bytes.subarray(i * 16, (i + 1) * 16))), whole, 'pieces of 16');
    const quote = text.indexOf('"\u0001');
    for (let cut = quote - 2; cut <= quote + 3; cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
  });
  it('a tag with many attributes: a duplicate among them is found, distinct ones are all kept', async () => {
    const attributes = Array.from({ length: 20 }, (_, n) => `data-a${n}="${n}"`);
    const tag = (extra: string): string => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc><x:y xmlns:x="urn:x" ${attributes.join(' ')}${extra}/></url></urlset>`;
    assert.deepEqual(rules(await parseChunks([new TextEncoder().encode(tag(''))]), 'error'), []);
    // Two prefixes bound to one namespace name the same attribute.
    for (const [duplicate, found] of [
      [' data-a15="again"', 'R2 error 1:394 not well-formed XML: duplicate attribute: data-a15.'],
      [' xmlns:p="urn:p" xmlns:q="urn:p" p:b="1" q:b="2"', 'R2 error 1:425 not well-formed XML: duplicate attribute: {urn:p}b.'],
    ] as const) {
      const parsed = await parseChunks([new TextEncoder().encode(tag(duplicate))]);
      assert.deepEqual(findings(parsed), [found, 'R33 warn 1:95 elements in the unknown namespace urn:x ignored']);
    }
  });
  it('a long tag waits for a > outside its quotes: values holding > and the other quote, cut anywhere', async () => {
    // Entries past 64 KiB go tag by tag: the tag is what waits.
    const value = (quote: string, other: string): string => `https://a.example/${`a>b${other}c`.repeat(14_000)}`.replaceAll(quote, '');
    const text = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      `<url><loc>https://a.example/1</loc><xhtml:link rel="alternate" hreflang="de" href="${value('"', "'")}" title='${value("'", '"')}'/></url>`,
      `<url><loc>https://a.example/2</loc><xhtml:link rel='alternate' hreflang='fr' href='${value("'", '"')}'/></url>`,
      '<url><loc>https://a.example/3</loc></url>',
      '</urlset>',
    ].join('\n');
    const bytes = new TextEncoder().encode(text);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => `${entry.loc} ${JSON.stringify(entry).length}`);
    const whole = await read([bytes]);
    assert.deepEqual(whole, ['https://a.example/1 70090 2:1', 'https://a.example/2 84090 3:1', 'https://a.example/3 29 4:1']);
    assert.deepEqual(await read(randomSplits(bytes, 5)), whole, 'random splits');
    for (const size of [16, 4099]) {
      assert.deepEqual(await read(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))), whole, `chunks of ${size}`);
    }
  });
});

/** Byte-order marks, UTF-16 and bytes that are not UTF-8 (R1), placed where they are however the input is cut. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateSitemap } from '../../src/index.ts';
import { byteByByte, locs, parseChunks, parseEveryWay, placed, randomSplits, readFixture, rules, sameHoweverCut } from '../helpers/parse.ts';

describe('encodings', () => {
  const cafe = ['https://www.example.com/café'];
  it('UTF-8 with a BOM is fine', async () => {
    const result = await parseChunks([readFixture('utf8-bom.xml')]);
    assert.deepEqual(locs(result), cafe);
    assert.deepEqual(result.diagnostics, []);
  });
  it('UTF-8 with a BOM: a U+FFFD the file spells out is its own, and a bad byte is placed where it is, however the input is cut', async () => {
    const encode = (text: string): number[] => [...new TextEncoder().encode(text)];
    const head = `<?xml version="1.0"?><!--${'p'.repeat(9000)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/\uFFFD`;
    const tail = '</loc></url>\n</urlset>\n';
    const spelt = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(head), ...encode(tail)]);
    const bad = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(head), 0xff, ...encode(tail)]);
    const r1 = async (chunks: Iterable<Uint8Array>): Promise<string[]> =>
      (await parseChunks(chunks)).diagnostics.filter((d) => d.rule === 'R1').map((d) => `${d.line}:${d.column}`);
    for (const [bytes, want] of [[spelt, []], [bad, ['3:30']]] as const) {
      for (const chunks of [[bytes], [bytes.subarray(0, 8192), bytes.subarray(8192)], [bytes.subarray(0, 9100), bytes.subarray(9100)], randomSplits(bytes, 5)]) {
        assert.deepEqual(await r1(chunks), want);
      }
    }
  });
  for (const name of ['utf16le-bom.xml', 'utf16be-bom.xml', 'latin1.xml']) {
    it(`${name} is decoded correctly and flagged R1`, async () => {
      const result = await parseChunks([readFixture(name)]);
      assert.deepEqual(locs(result), cafe);
      assert.deepEqual(rules(result), ['R1']);
    });
  }
  it('bytes that are not UTF-8 are replaced and flagged R1', async () => {
    const result = await parseChunks([readFixture('invalid-utf8.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/caf\uFFFD']);
    assert.deepEqual(rules(result), ['R1']);
  });
  it('R1 is placed at the first bytes that are not UTF-8, after a literal U+FFFD and an emoji, in order among the findings, at every cut', async () => {
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    const head = encode(`<?xml version="1.0"?><!--${'p'.repeat(1100)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/\uFFFD\u{1F600}?a&b</loc></url>\n<url><loc>https://a.example/`);
    const tail = encode('x</loc></url>\n<url><loc>https://a.example/\uFFFD</loc></url>\n</urlset>\n');
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    // A lone continuation byte, a character cut short (E2 82 before ASCII), and an invalid lead byte: the first one is reported.
    for (const bad of [[0x80], [0xe2, 0x82], [0xff, 0xfe]]) {
      const bytes = new Uint8Array([...head, ...bad, ...tail]);
      const whole = await read([bytes]);
      assert.deepEqual(whole.slice(-2), [
        'R2 3:34 not well-formed XML: "&" that starts no entity reference ("ps://a.example/\uFFFD\u{1F600}?a&b"); read literally, write &amp;',
        'R1 4:29 bytes that are not valid UTF-8 (replaced with U+FFFD)',
      ]);
      await sameHoweverCut(bytes, read, whole, 1150);
    }
    // Cut short at the very end.
    const truncated = new Uint8Array([...head, 0xf0, 0x9f]);
    const cutShort = await read([truncated]);
    assert.deepEqual(cutShort, [
      'https://a.example/\uFFFD\u{1F600}?a&b 3:1',
      'R2 3:34 not well-formed XML: "&" that starts no entity reference ("ps://a.example/\uFFFD\u{1F600}?a&b"); read literally, write &amp;',
      'R1 4:29 bytes that are not valid UTF-8 (replaced with U+FFFD)',
      'R2 4:30 not well-formed XML: unclosed tag: loc',
    ]);
    await sameHoweverCut(truncated, read, cutShort, 1150);
  });
  it('a byte-order mark cut over the first chunks: the bytes that are not UTF-8 are still told from a literal U+FFFD, at every cut', async () => {
    // Small on purpose: every way of cutting reaches the decoder, the first bytes included.
    const text = '\uFEFF<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/\uFFFD</loc></url><url><loc>https://a.example/';
    const bytes = new Uint8Array([...new TextEncoder().encode(text), 0xff, ...new TextEncoder().encode('x</loc></url></urlset>')]);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    const whole = await read([bytes]);
    assert.deepEqual(whole, ['https://a.example/\uFFFD 1:61', 'https://a.example/\uFFFDx 1:102', 'R1 1:130 bytes that are not valid UTF-8 (replaced with U+FFFD)']);
    await sameHoweverCut(bytes, read, whole);
  });
  it('an unpaired surrogate in UTF-16 is R1 at its place, after a literal U+FFFD and an emoji, however the bytes were cut', async () => {
    const text = `<?xml version="1.0" encoding="UTF-16"?><!--${'p'.repeat(600)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/\uFFFD\u{1F600}</loc></url>\n<url><loc>https://a.example/\uD800A</loc></url>\n</urlset>\n`;
    for (const littleEndian of [true, false]) {
      const bytes = new Uint8Array(2 + 2 * text.length);
      const view = new DataView(bytes.buffer);
      view.setUint16(0, 0xfeff, littleEndian);
      for (let i = 0; i < text.length; i++) view.setUint16(2 + 2 * i, text.charCodeAt(i), littleEndian);
      const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
      const whole = await read([bytes]);
      assert.deepEqual(whole.slice(0, 2), ['https://a.example/\uFFFD\u{1F600} 3:1', 'https://a.example/\uFFFDA 4:1']);
      assert.deepEqual(whole.filter((line) => line.startsWith('R1')).map((line) => line.split(' ').slice(0, 2).join(' ')), ['R1 1:1', 'R1 4:29']);
      assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
      assert.deepEqual(await read(randomSplits(bytes, 3)), whole, 'random splits');
    }
  });
  it('a UTF-16 file without a byte-order mark: told by its first characters; its own U+FFFD is not taken for an unpaired surrogate', async () => {
    // Bytes counted from the file's start, not from after a mark it does not have.
    const declaration = new Uint8Array(Buffer.from('<?xml version="1.0" encoding="UTF-16"?>   ', 'utf16le'));
    const parsed = await parseChunks([new Uint8Array([...declaration, 0xfd, 0xff, 0x41, 0x00])]);
    assert.deepEqual(parsed.diagnostics.filter((d) => d.rule === 'R1').map((d) => d.message), ['the file is encoded in UTF-16 (little-endian, without a byte-order mark), not UTF-8; decoded as utf-16le']);
    const bigEndian = Buffer.from(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/é</loc></url></urlset>`, 'utf16le').swap16();
    const read = await parseChunks([new Uint8Array(bigEndian)]);
    assert.deepEqual([read.kind, locs(read), rules(read)], ['urlset', ['https://a.example/é'], ['R1']]);
  });
  it('a declaration the bytes belie: UTF-8 declared as UTF-16 (the .NET StringWriter mislabel), or after a UTF-8 byte-order mark, is read as UTF-8 with R1', async () => {
    const urlset = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/é</loc></url></urlset>';
    for (const [prefix, label] of [['', 'utf-16'], ['\uFEFF', 'ISO-8859-1']] as const) {
      const result = await parseEveryWay(new TextEncoder().encode(`${prefix}<?xml version="1.0" encoding="${label}"?>\n${urlset}`));
      for (const other of result.others) assert.deepEqual(other, result.whole);
      assert.deepEqual([result.whole.kind, locs(result.whole), result.whole.diagnostics.map((d) => `${d.rule} ${d.message}`)], [
        'urlset',
        ['https://a.example/é'],
        [prefix === '' ? `R1 the file declares "${label.toLowerCase()}", but its bytes are one byte a character, not UTF-16; read as UTF-8` : `R1 the file declares "${label.toLowerCase()}" but starts with a UTF-8 byte-order mark; read as UTF-8`],
      ]);
    }
  });
  it('bytes that are not UTF-8 after the well-formedness errors listed are reported (reading no longer stops there), however the input was cut', async () => {
    const head = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<url><loc>https://a.example/&x</loc></url>\n'.repeat(120)}<url><loc>https://a.example/`);
    const bytes = new Uint8Array([...head, 0xff, ...new TextEncoder().encode('</loc></url></urlset>')]);
    const counts = async (chunks: Iterable<Uint8Array>): Promise<unknown> => (await validateSitemap(chunks)).counts;
    const whole = await counts([bytes]);
    // Before, reading stopped at the 100th well-formedness error, and the bad byte was never read.
    assert.deepEqual(whole, { 'R2:error': 120, 'R1:error': 1, 'R25:warn': 119, 'R10:warn': 1 });
    assert.deepEqual(await counts(byteByByte(bytes)), whole);
    assert.deepEqual(await counts(randomSplits(bytes, 1)), whole);
  });
});

describe('regressions', () => {
  it('a literal U+FFFD cut between chunks is not mistaken for invalid UTF-8', async () => {
    const bytes = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><!--${'x'.repeat(1200)}--><url><loc>https://a.example/\uFFFD</loc></url></urlset>`);
    const cut = bytes.indexOf(0xef) + 1;
    const result = await parseChunks([bytes.subarray(0, cut), bytes.subarray(cut)]);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(locs(result), ['https://a.example/\uFFFD']);
  });
  it('bytes that are not UTF-8 past where reading stopped are not reported (they were never read)', async () => {
    const head = new TextEncoder().encode(`<!DOCTYPE urlset []><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<a>'.repeat(1100)}x`);
    const bytes = new Uint8Array([...head, 0xff, ...new TextEncoder().encode(`${'</a>'.repeat(1100)}</urlset>`)]);
    for (const chunks of [[bytes], byteByByte(bytes)]) {
      const result = await parseChunks(chunks);
      // Before, an R1 was placed where reading had stopped, well before the byte.
      assert.deepEqual(result.diagnostics.map((d) => d.rule), ['R2', 'R6', 'R2', 'R2']);
      assert.equal(result.diagnostics.at(-1)?.message, 'not well-formed XML: elements nested deeper than 1024 levels; reading stops here');
    }
  });
});

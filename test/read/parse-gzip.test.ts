/** Gzip found by its magic bytes: members, bytes after the data, damage (R4) and what is kept while inflating. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { parseSitemap } from '../../src/index.ts';
import { findings, locs, parseChunks, parseEveryWay, randomSplits, readFixture, rules } from '../helpers/parse.ts';

/** GUNZIP_RETAINED_BYTES in parse.ts: a compressed file up to this size is kept while it is inflated. */
const GUNZIP_KEPT = 8 * 1024 * 1024;

/** A urlset that gzips large: a comment of `padding` random characters, then `count` entries with random paths, seeded. */
function paddedUrlset(seed: number, padding: number, count: number): string {
  const random = (): string => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed.toString(36));
  const noise: string[] = [];
  for (let length = 0; length < padding; length += noise[noise.length - 1]?.length ?? 0) noise.push(random());
  const entries = Array.from({ length: count }, () => `<url><loc>https://a.example/${random()}${random()}${random()}</loc></url>\n`).join('');
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<!-- ${noise.join('')} -->\n${entries}</urlset>\n`;
}


describe('gzip is found by its magic bytes', () => {
  for (const [name, compressed, extra] of [
    ['gzipped.xml.gz', true, []],
    ['not-really-gzipped.xml.gz', false, []],
    ['double-gzipped.xml.gz', true, ['R4']],
  ] as const) {
    it(name, async () => {
      const result = await parseChunks([readFixture(name)]);
      assert.equal(result.compressed, compressed);
      assert.deepEqual(locs(result), ['https://www.example.com/gz']);
      assert.deepEqual(rules(result), [...extra]);
    });
  }
  it('bytes after the gzip data (a newline, a server comment) are ignored with a warning; every member is read', async () => {
    const result = await parseChunks([readFixture('gzip-trailing-garbage.xml.gz')]);
    assert.deepEqual(locs(result), ['https://www.example.com/first-member', 'https://www.example.com/second-member']);
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`),
      ['R4 warn 26 bytes after the gzip data are not gzip; ignored'],
    );
    const xml = gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>');
    const ignored = async (tail: Uint8Array, chunks: (bytes: Uint8Array) => Iterable<Uint8Array> | AsyncIterable<Uint8Array> = (bytes) => [bytes]) => {
      const parsed = parseSitemap(chunks(Buffer.concat([xml, tail])));
      const seen: string[] = [];
      for await (const entry of parsed) seen.push(entry.loc);
      return [seen, parsed.diagnostics.map((d) => d.message)];
    };
    assert.deepEqual(await ignored(Buffer.from('\n')), [['https://a.example/'], ['1 byte after the gzip data is not gzip; ignored']]);
    // zlib stops at a zero byte without a word: what follows it is reported all the same.
    assert.deepEqual(await ignored(Buffer.from('\0garbage')), [['https://a.example/'], ['8 bytes after the gzip data are not gzip; ignored']]);
    assert.deepEqual(await ignored(Buffer.alloc(100)), [['https://a.example/'], []]);
    // The count is the same however slowly the bytes come, and says so when the bytes go on past what is kept.
    const slowly = async function* (bytes: Uint8Array): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += 50_000) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        yield bytes.subarray(at, at + 50_000);
      }
    };
    const garbage = new Uint8Array(300_000).fill(0x41);
    assert.deepEqual(await ignored(garbage), [['https://a.example/'], ['300000 bytes after the gzip data are not gzip; ignored']]);
    assert.deepEqual(await ignored(garbage, slowly), [['https://a.example/'], ['300000 bytes after the gzip data are not gzip; ignored']]);
    const [, endless] = await ignored(new Uint8Array(GUNZIP_KEPT + 1_000_000).fill(0x41));
    assert.match(endless?.join() ?? '', /^more than \d+ bytes after the gzip data are not gzip; ignored$/);
  });
  it('bytes after gzip data that ends near what is kept: the same entries and the same finding however fast the bytes come', async () => {
    const gz = gzipSync(paddedUrlset(11, 12_650_000, 20_000));
    assert.ok(gz.length > GUNZIP_KEPT - 300_000 && gz.length < GUNZIP_KEPT, `${gz.length} bytes`);
    const bytes = Buffer.concat([gz, new Uint8Array(200_000).fill(0x41)]);
    const read = async (source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) => {
      const parsed = parseSitemap(source);
      const locs: string[] = [];
      for await (const entry of parsed) locs.push(entry.loc);
      return [locs.length, parsed.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`)];
    };
    const whole = await read([bytes]);
    // The padding comment is past MAX_TOKEN_CHARS: read that far (R3).
    const longComment = 'R3 error a comment of 12650008 characters, longer than any sitemap field holds (a URL at most 2,048): its first 8388608 are read, the rest is skipped unchecked';
    assert.deepEqual(whole, [20_000, [longComment, `R4 warn more than ${GUNZIP_KEPT - gz.length} bytes after the gzip data are not gzip; ignored`]]);
    const slowly = async function* (): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += 500_000) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        yield bytes.subarray(at, at + 500_000);
      }
    };
    assert.deepEqual(await read(slowly()), whole);
    assert.deepEqual(await read(randomSplits(bytes, 3)), whole);
  });
  it('bytes after the gzip data with the cap in the output gunzip lost: the cap is reported, not damage', async () => {
    const entries = Array.from({ length: 3_000 }, (_, n) => `<url><loc>https://a.example/${n}</loc></url>`).join('');
    const gz = gzipSync(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`);
    const result = await parseChunks([Buffer.concat([gz, Buffer.from('junk')])], { maxBytes: 50_000 });
    assert.deepEqual(rules(result, 'error'), ['INPUT', 'R2']);
    assert.match(result.diagnostics.find((d) => d.rule === 'INPUT')?.message ?? '', /^stopped reading at 50000 bytes/);
    // The entries whole in the first 50,000 bytes: 60 of <urlset>, 41 bytes each for 0-9, 42 for 10-99, 43 for 100-999, then 160 of 44.
    assert.equal(result.entries.length, 1160);
    assert.deepEqual(findings(result), [
      'INPUT error stopped reading at 50000 bytes (decompressed), the limit set by maxBytes (--max-bytes); the rest of the file is not read or checked',
      'R2 error 1:50001 not well-formed XML: unclosed tag: loc',
    ]);
  });
  it('a member whose header checksum is wrong is damage (R4), as for gzip -d', async () => {
    const plain = gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>');
    const header = Buffer.from(plain.subarray(0, 10));
    header[3] = 0x02;
    const result = await parseChunks([Buffer.concat([header, Buffer.from([0xde, 0xad]), plain.subarray(10)])]);
    // Nothing of the member is inflated: the file is empty.
    assert.deepEqual(findings(result), ['R4 error the gzip data is damaged (header crc mismatch); read up to the damage', 'R2 error not well-formed XML: the file is empty (no root element)']);
  });
  it('a gzip member after good ones that is damaged: the good ones are read, the damage reported', async () => {
    const first = gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url>');
    const second = gzipSync('<url><loc>https://a.example/2</loc></url></urlset>');
    second[12] = 0xff;
    const result = await parseChunks([Buffer.concat([first, second])]);
    assert.deepEqual(locs(result), ['https://a.example/']);
    assert.deepEqual(rules(result, 'error'), ['R2', 'R4']);
    assert.match(result.diagnostics.find((d) => d.rule === 'R4')?.message ?? '', /^the gzip data is damaged \(.+\); read up to the damage$/);
  });
  it('bytes after the gzip data of a file too large to keep while inflating: all but the last piece read, and the loss reported', async () => {
    const gz = gzipSync(paddedUrlset(7, 13_400_000, 90_000));
    assert.ok(gz.length > GUNZIP_KEPT, `${gz.length} bytes`);
    const result = await parseChunks([Buffer.concat([gz, Buffer.from('junk')])]);
    assert.ok(result.entries.length > 80_000 && result.entries.length < 90_000, `${result.entries.length} entries`);
    // How many entries the pieces before the last hold depends on how zlib compressed them: the findings do not.
    assert.deepEqual(findings(result).map((line) => line.replace(/ \d+:\d+ /, ' ')), [
      // The padding comment is past MAX_TOKEN_CHARS: read that far.
      'R3 error a comment of 13400009 characters, longer than any sitemap field holds (a URL at most 2,048): its first 8388608 are read, the rest is skipped unchecked',
      'R4 error the gzip data is damaged (incorrect header check); read up to the damage',
      'R2 error not well-formed XML: unclosed tag: url',
      'R2 error not well-formed XML: unexpected end.',
    ]);
    // At the last entry read, cut short: entries start on line 3.
    assert.deepEqual(result.diagnostics.slice(2).map((d) => d.line), [result.entries.length + 2, result.entries.length + 2]);
  });
  it('damaged gzip: the URLs before the damage are kept, and it is reported', async () => {
    const result = await parseChunks([readFixture('damaged.xml.gz')]);
    assert.deepEqual(locs(result), Array.from({ length: 952 }, (_, n) => `https://www.example.com/page-${n}`));
    assert.deepEqual(findings(result), ['R4 error the gzip data is damaged (unexpected end of file); read up to the damage', 'R2 error 955:43 not well-formed XML: unclosed tag: loc']);
  });
});

const inputFixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../fixtures/input/${name}`, import.meta.url)));
const plainLocs = ['https://www.example.com/', 'https://www.example.com/search?q=a&page=2', 'https://www.example.com/caf%C3%A9?x=1&y=2', 'https://www.example.com/padded'];

describe('Brotli is read when the caller says so, other binary formats are named (R5)', () => {
  it('a .br file with compression: \'br\' reads as the file it holds, however it is cut', async () => {
    const { whole, others } = await parseEveryWay(readFixture('urlset-basic.xml.br'), { compression: 'br' });
    assert.deepEqual([whole.kind, whole.compressed, locs(whole), findings(whole)], ['urlset', true, plainLocs, ['R8 warn 17:5 whitespace around the URL in <loc> (trimmed)']]);
    for (const other of others) assert.deepEqual(other, whole);
  });
  it('Brotli is never guessed from the content: without the hint it is bytes that are not UTF-8', async () => {
    const result = await parseChunks([readFixture('urlset-basic.xml.br')]);
    assert.deepEqual([result.kind, result.compressed, result.entries.length], ['text', false, 0]);
    assert.equal(rules(result)[0], 'R1');
  });
  it('damaged or cut Brotli: the output before the damage is read, the damage reported (R4); bytes that are no Brotli at all are one R4', async () => {
    const br = readFixture('urlset-basic.xml.br');
    const cut = await parseChunks([br.subarray(0, br.length - 1)], { compression: 'br' });
    assert.equal(cut.kind, 'urlset');
    assert.equal(cut.diagnostics[0]?.message, 'the Brotli data is damaged (unexpected end of file); read up to the damage');
    const plain = await parseChunks([readFixture('urlset-basic.xml')], { compression: 'br' });
    assert.deepEqual([plain.kind, findings(plain)], ['unknown', ['R4 error the file is not Brotli data, as its name or Content-Encoding says (Decompression failed); it is not read']]);
  });
  it('the decompressed-size cap holds for Brotli as for gzip, said of the decompressed bytes; of plain input, of its bytes', async () => {
    const bomb = brotliCompressSync(new Uint8Array(16 * 1024 * 1024).fill(0x20), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } });
    assert.ok(bomb.length < 1000, `${bomb.length} bytes`);
    const capped = await parseChunks([bomb], { compression: 'br', maxBytes: 4 * 1024 * 1024 });
    assert.deepEqual(findings(capped), [
      'INPUT error stopped reading at 4194304 bytes (decompressed), the limit set by maxBytes (--max-bytes); the rest of the file is not read or checked',
      'R2 error not well-formed XML: the file holds only whitespace (no root element)',
    ]);
    const plain = await parseChunks([new Uint8Array(2 * 1024 * 1024).fill(0x20)], { maxBytes: 1024 * 1024 });
    assert.deepEqual(findings(plain), [
      'INPUT error stopped reading at 1048576 bytes, the limit set by maxBytes (--max-bytes); the rest of the file is not read or checked',
      'R2 error not well-formed XML: the file holds only whitespace (no root element)',
    ]);
  });
  it('a PNG, a zip, and a PNG in gzip: one R5 naming the format, nothing read as text', async () => {
    for (const [bytes, what] of [
      [inputFixture('logo.png'), 'the file is a PNG image'],
      [inputFixture('export.zip'), 'the file is a zip archive'],
      [gzipSync(inputFixture('logo.png')), 'the decompressed data is a PNG image'],
    ] as const) {
      const { whole, others } = await parseEveryWay(bytes, {}, 3);
      assert.deepEqual([whole.kind, whole.entries.length, findings(whole)], ['unknown', 0, [`R5 error ${what}, not a sitemap; it is not read`]]);
      for (const other of others) assert.deepEqual(other, whole);
    }
  });
});

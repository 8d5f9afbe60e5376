/** Gzip found by its magic bytes: members, bytes after the data, damage (R4) and what is kept while inflating. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseSitemap } from '../../src/index.ts';
import { findings, locs, parseChunks, randomSplits, readFixture, rules } from '../helpers/parse.ts';

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
    assert.deepEqual(whole, [20_000, [`R4 warn more than ${GUNZIP_KEPT - gz.length} bytes after the gzip data are not gzip; ignored`]]);
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
      'R4 error the gzip data is damaged (incorrect header check); read up to the damage',
      'R2 error not well-formed XML: unclosed tag: url',
      'R2 error not well-formed XML: unexpected end.',
    ]);
    // At the last entry read, cut short: entries start on line 3.
    assert.deepEqual(result.diagnostics.slice(1).map((d) => d.line), [result.entries.length + 2, result.entries.length + 2]);
  });
  it('damaged gzip: the URLs before the damage are kept, and it is reported', async () => {
    const result = await parseChunks([readFixture('damaged.xml.gz')]);
    assert.deepEqual(locs(result), Array.from({ length: 952 }, (_, n) => `https://www.example.com/page-${n}`));
    assert.deepEqual(findings(result), ['R4 error the gzip data is damaged (unexpected end of file); read up to the damage', 'R2 error 955:43 not well-formed XML: unclosed tag: loc']);
  });
});

/** The reader gives the same entries, findings and places however its input is cut into chunks. */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSitemap } from '../../src/index.ts';
import { findings, parseChunks, parseEveryWay, placed, randomSplits, readFixture } from '../helpers/parse.ts';

describe('every fixture parses the same whole, byte by byte and at random splits', () => {
  for (const name of readdirSync(new URL('../fixtures/read/', import.meta.url))) {
    it(name, async () => {
      const { whole, others } = await parseEveryWay(readFixture(name), { base: 'https://www.example.com/sitemap.xml' });
      // Positions are compared too: they must not depend on where chunks were cut.
      for (const other of others) assert.deepEqual(other, whole);
    });
  }
});

describe('chunks of text', () => {
  it('entries cut by chunk ends and waited for, in a large file: the same entries, findings and places at any chunk size', async () => {
    // Every 97th entry has a finding (an unknown child): its place after each seam is checked too.
    const entries = Array.from({ length: 4000 }, (_, i) =>
      i % 97 === 5
        ? `<url><loc>https://a.example/${i}</loc><extra>x</extra></url>`
        : `<url><loc>https://a.example/p/${i}?a=1&amp;b=2</loc><lastmod>2026-01-01</lastmod><changefreq>daily</changefreq><priority>0.${i % 10}</priority></url>`,
    );
    const bytes = new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`);
    const inPiecesOf = (size: number): Uint8Array[] => Array.from({ length: Math.ceil(bytes.length / size) }, (_, k) => bytes.subarray(k * size, (k + 1) * size));
    const whole = await placed([bytes]);
    assert.equal(whole.filter((line) => line.startsWith('https://')).length, 4000);
    // The unknown children, each at its <extra>: after `<url><loc>https://a.example/${i}</loc>`.
    const extras = Array.from({ length: 42 }, (_, k) => 5 + 97 * k);
    assert.deepEqual(
      whole.slice(4000),
      extras.map((i) => `R6 ${3 + i}:${35 + String(i).length} <extra> does not belong in <url> (only loc, lastmod, changefreq, priority and extensions); ignored`),
    );
    for (const size of [65536, 20000, 9000, 5000, 3000]) assert.deepEqual(await placed(inPiecesOf(size)), whole, `in pieces of ${size}`);
  });
});

describe('regressions', () => {
  it('an entry awaited over many small chunks: a control character or the end of input after it loses nothing', async () => {
    const entries = Array.from({ length: 8 }, (_, n) => `<url><loc>https://a.example/${n}</loc><lastmod>2026-11-0${1 + n}</lastmod></url>\n`).join('');
    const start = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<!--${'x'.repeat(1100)}-->\n${entries}`;
    const last = { loc: 'https://a.example/last', lastmod: '2026-11-30' };
    for (const [text, entry, found] of [
      // A character XML forbids deep in an entry: saxes takes over there, and must get all of the entry.
      [
        `${start}<url><loc>https://a.example/last</loc><lastmod>2026-11-30</lastmod><changefreq>daily\u0001</changefreq></url>\n</urlset>\n`,
        { ...last, changefreq: 'daily\uFFFD' },
        'R2 error 11:85 not well-formed XML: character U+0001 is not allowed in XML; read as U+FFFD',
      ],
      // The input ends inside an entry: what there is of it is read as it would be whole.
      [`${start}<url><loc>https://a.example/last</loc><lastmod>2026-11-30</lastmod><changefreq>da`, last, 'R2 error 11:82 not well-formed XML: unclosed tag: changefreq'],
    ] as const) {
      const bytes = new TextEncoder().encode(text);
      const whole = await parseChunks([bytes]);
      assert.deepEqual(whole.entries, [...Array.from({ length: 8 }, (_, n) => ({ loc: `https://a.example/${n}`, lastmod: `2026-11-0${1 + n}` })), entry]);
      assert.deepEqual(findings(whole), [found]);
      for (const size of [1, 3, 7]) {
        const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
        assert.deepEqual(await parseChunks(chunks), whole, `chunks of ${size}`);
      }
    }
  });
  it('entries asked for without waiting for the one before all come, in order', async () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: 40 }, (_, n) => `<url><loc>https://a.example/${n}</loc></url>`).join('\n')}</urlset>`;
    // Small chunks make many batches, so calls land while a batch is being read.
    const iterator = parseSitemap([...randomSplits(new TextEncoder().encode(xml), 3)])[Symbol.asyncIterator]();
    const results = await Promise.all(Array.from({ length: 42 }, () => iterator.next()));
    assert.deepEqual(
      results.map((r) => (r.done === true ? 'done' : r.value.loc)),
      [...Array.from({ length: 40 }, (_, n) => `https://a.example/${n}`), 'done', 'done'],
    );
  });
});

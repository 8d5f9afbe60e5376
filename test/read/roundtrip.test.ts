/** What the writer produces parses back to the same records and validates clean. */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseSitemap, validateSitemap, writeSitemaps, type SitemapRecordInput } from '../../src/index.ts';
import { FULL_RECORD } from '../helpers/full-record.ts';
import { randomSplits } from '../helpers/parse.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('roundtrip');
const BASE = 'https://example.com/';
const NOW = Date.parse('2026-11-22T12:00:00Z');

async function readSet(dir: string): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for (const name of (await readdir(dir)).filter((n) => !n.startsWith('.')).sort()) files.set(name, new Uint8Array(await readFile(join(dir, name))));
  return files;
}

/** Reads a published set back through its entry point, as a crawler would: index first, then each child. */
async function readBack(files: Map<string, Uint8Array>, entryPoint: string): Promise<SitemapRecordInput[]> {
  const parsed = parseSitemap(randomSplits(files.get(entryPoint) as Uint8Array, 7), { base: BASE + entryPoint });
  const entries = [];
  for await (const entry of parsed) entries.push(entry);
  if (parsed.kind === 'urlset') return entries as SitemapRecordInput[];
  assert.equal(parsed.kind, 'sitemapindex');
  const records: SitemapRecordInput[] = [];
  for (const { loc } of entries) records.push(...(await readBack(files, loc.slice(BASE.length))));
  return records;
}

function* pages(count: number): Generator<SitemapRecordInput> {
  for (let i = 0; i < count; i++) {
    yield { loc: `https://example.com/p/${i}?a=${i % 7}&b=ü`, lastmod: `2026-11-${String(1 + (i % 20)).padStart(2, '0')}`, changefreq: 'weekly', priority: (i % 11) / 10 };
  }
}

describe('round trip: write → parse → write gives byte-identical files', () => {
  for (const [name, records, gzip] of [
    ['every extension, every field', [FULL_RECORD, { loc: 'https://example.com/plain' }], false],
    ['an index over 120,001 records, gzipped', [...pages(120_001)], true],
  ] as const) {
    it(name, async () => {
      const first = await tempDir();
      const second = await tempDir();
      const options = { baseUrl: BASE, gzip, now: () => NOW };
      await writeSitemaps(records, { ...options, outDir: first });
      const written = await readSet(first);
      // --gzip compresses the URL files; the entry point stays sitemap.xml.
      const entryPoint = 'sitemap.xml';
      const parsedBack = await readBack(written, entryPoint);
      assert.equal(parsedBack.length, records.length);
      await writeSitemaps(parsedBack, { ...options, outDir: second });
      assert.deepEqual(await readSet(second), written);
    });
  }
});

describe('everything the writer produces validates clean', () => {
  it('files with every extension: no errors (only the deprecation warnings the fields ask for)', async () => {
    const dir = await tempDir();
    await writeSitemaps([FULL_RECORD], { baseUrl: BASE, outDir: dir, now: () => NOW });
    const result = await validateSitemap(await readFile(join(dir, 'sitemap.xml')), { base: `${BASE}sitemap.xml`, now: () => NOW });
    assert.equal(result.valid, true, JSON.stringify(result.diagnostics));
    const deprecated = (field: string): string => `${field} is deprecated and ignored by Google since 2022`;
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`), [
      ...['caption', 'geo_location', 'title', 'license'].map((field) => `R34 warn ${deprecated(`images[2].${field}`)}`),
      ...['category', 'gallery_loc', 'prices'].map((field) => `R36 warn ${deprecated(`videos[1].${field}`)}`),
      ...['access', 'genres', 'keywords', 'stock_tickers'].map((field) => `R37 warn ${deprecated(`news.${field}`)}`),
    ]);
  });
  it('an index and its gzipped children: no findings at all', async () => {
    const dir = await tempDir();
    await writeSitemaps(pages(60_000), { baseUrl: BASE, outDir: dir, gzip: true, now: () => NOW });
    for (const name of ['sitemap.xml', 'sitemap-1.xml.gz', 'sitemap-2.xml.gz']) {
      const result = await validateSitemap(await readFile(join(dir, name)), { base: BASE + name, now: () => NOW });
      assert.deepEqual(result.diagnostics, [], name);
      assert.equal(result.valid, true);
    }
  });
});

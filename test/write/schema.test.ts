import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { tempDirs } from '../helpers/temp-dir.ts';
import { writeSitemaps, type SitemapRecordInput } from '../../src/index.ts';
import { schemaErrors } from '../helpers/xsd.ts';
import { FULL_RECORD } from '../helpers/full-record.ts';

const tempDir = tempDirs('schema');

async function readSet(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await readdir(dir)).filter((n) => !n.startsWith('.')).sort()) {
    const bytes = await readFile(join(dir, name));
    files.set(name, (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  }
  return files;
}


describe('every written file validates against the official schemas', () => {
  test('a sitemap using all four extensions, every field, gzipped', async () => {
    const dir = await tempDir();
    const summary = await writeSitemaps([FULL_RECORD, { loc: 'https://example.com/plain' }], { outDir: dir, baseUrl: 'https://example.com/', gzip: true, now: () => Date.parse('2026-11-22T00:00:00Z') });
    assert.equal(summary.urls, 2);
    const files = await readSet(dir);
    // gzip keeps the entry point sitemap.xml: an index over the one gzipped file.
    assert.deepEqual([...files.keys()], ['sitemap-1.xml.gz', 'sitemap.xml']);
    const xml = files.get('sitemap-1.xml.gz') ?? '';
    for (const prefix of ['image', 'video', 'news', 'xhtml']) assert.match(xml, new RegExp(`xmlns:${prefix}=`));
    for (const tag of ['image:license', 'video:price', 'video:uploader', 'video:platform', 'news:stock_tickers', 'xhtml:link']) assert.match(xml, new RegExp(`<${tag}[ >]`));
    assert.deepEqual(await schemaErrors(xml), []);
    assert.deepEqual(await schemaErrors(files.get('sitemap.xml') ?? ''), []);
  });

  test('an index over 120,000 records and its three sitemaps', async () => {
    const dir = await tempDir();
    function* records(): Generator<SitemapRecordInput> {
      for (let i = 0; i < 120_001; i++) {
        yield { loc: `https://example.com/p/${i}?q=${i % 7}&r=ü`, lastmod: `2026-0${1 + (i % 9)}-1${i % 10}`, changefreq: 'weekly', priority: (i % 11) / 10 };
      }
    }
    const summary = await writeSitemaps(records(), { outDir: dir, baseUrl: 'https://example.com/' });
    assert.deepEqual(summary.files.map((f) => [f.name, f.entries]), [['sitemap-1.xml', 50_000], ['sitemap-2.xml', 50_000], ['sitemap-3.xml', 20_001], ['sitemap.xml', 3]]);
    const files = await readSet(dir);
    assert.deepEqual([...files.keys()], ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);
    for (const [name, xml] of files) assert.deepEqual(await schemaErrors(xml), [], name);
  });

  test('the schema check itself catches a broken file', async () => {
    const errors = await schemaErrors('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc><priority>2</priority></url></urlset>');
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', /priority/);
  });
});

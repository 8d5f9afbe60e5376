import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { tempDirs } from '../helpers/temp-dir.ts';
import { writeSitemaps, type SitemapRecordInput } from '../../src/index.ts';
import { schemaErrors } from '../helpers/xsd.ts';

const tempDir = tempDirs('schema');

async function readSet(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await readdir(dir)).filter((n) => !n.startsWith('.')).sort()) {
    const bytes = await readFile(join(dir, name));
    files.set(name, (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  }
  return files;
}

/** Every field of every extension, deprecated ones included, with values that need escaping and encoding. */
const FULL_RECORD: SitemapRecordInput = {
  loc: 'https://example.com/watch?v=1&list=2',
  lastmod: '2026-11-21T08:15+01:00',
  changefreq: 'hourly',
  priority: '0.9',
  images: [
    { loc: 'https://cdn.example.com/ä.jpg' },
    { loc: 'https://cdn.example.com/b.jpg', caption: 'A "quoted" <caption> & more', geo_location: 'Zürich', title: "It's", license: 'https://example.com/license' },
  ],
  videos: [
    {
      thumbnail_loc: 'https://cdn.example.com/t.jpg',
      title: 'Grilling steaks for summer',
      description: 'Alkis shows you how to get perfectly done steaks every time — & fast.',
      content_loc: 'https://cdn.example.com/video.mp4',
      player_loc: 'https://example.com/player?video=123',
      duration: 600,
      expiration_date: '2026-12-31T23:59:59+00:00',
      rating: '4.2',
      view_count: 12345,
      publication_date: new Date('2026-11-01T10:00:00Z'),
      tags: ['steak', 'meat'],
      category: 'Grilling',
      family_friendly: 'yes',
      restriction: { relationship: 'allow', countries: ['IE', 'GB', 'US', 'CA'] },
      gallery_loc: 'https://example.com/gallery',
      prices: [{ value: '1.99', currency: 'EUR', type: 'rent', resolution: 'hd' }, { value: 5, currency: 'USD' }],
      requires_subscription: false,
      uploader: { name: 'GrillyMcGrillerson', info: 'https://example.com/users/grilly' },
      platform: { relationship: 'allow', platforms: ['web', 'tv'] },
      live: 'no',
    },
  ],
  news: {
    publication: { name: 'The Example Times', language: 'zh-cn' },
    publication_date: '2026-11-21',
    title: 'Companies A, B in merger talks',
    access: 'Subscription',
    genres: 'PressRelease, Blog',
    keywords: 'business, merger',
    stock_tickers: 'NASDAQ:A, NASDAQ:B',
  },
  alternates: [
    { hreflang: 'en', href: 'https://example.com/watch?v=1&list=2' },
    { hreflang: 'de-CH', href: 'https://example.com/de/schauen?v=1' },
    { hreflang: 'x-default', href: 'https://example.com/watch?v=1&list=2' },
  ],
};

describe('every written file validates against the official schemas', () => {
  test('a sitemap using all four extensions, every field, gzipped', async () => {
    const dir = await tempDir();
    const summary = await writeSitemaps([FULL_RECORD, { loc: 'https://example.com/plain' }], { outDir: dir, baseUrl: 'https://example.com/', gzip: true, now: () => Date.parse('2026-11-22T00:00:00Z') });
    assert.equal(summary.urls, 2);
    const files = await readSet(dir);
    const xml = files.get('sitemap.xml.gz') ?? '';
    for (const prefix of ['image', 'video', 'news', 'xhtml']) assert.match(xml, new RegExp(`xmlns:${prefix}=`));
    for (const tag of ['image:license', 'video:price', 'video:uploader', 'video:platform', 'news:stock_tickers', 'xhtml:link']) assert.match(xml, new RegExp(`<${tag}[ >]`));
    assert.deepEqual(await schemaErrors(xml), []);
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

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FileSet } from '../../src/write/file-set.ts';
import { GreedyPlanner, NO_FILE, type FilePlanner, type OpenFiles, type SerializedEntry } from '../../src/write/plan.ts';
import { serializeEntry } from '../../src/write/serialize.ts';
import { memorySink } from '../helpers/memory-sink.ts';

const BASE = new URL('https://example.com/');

function entry(loc: string, lastmod?: { text: string; epoch: number }): SerializedEntry {
  const into: SerializedEntry = { loc: '', xml: '', bytes: 0, nsBits: 0, hasNews: false, lastmod: undefined, lastmodEpoch: undefined };
  return serializeEntry(lastmod === undefined ? { loc } : { loc, lastmod: lastmod.text }, lastmod?.epoch, into);
}

function fileSet(maxUrls: number, maxBytes = 50_000) {
  const sink = memorySink();
  const files = new FileSet(sink, { base: BASE, stem: 'sitemap', gzip: false, gzipIndex: false, stylesheet: undefined, limits: { maxUrls, maxBytes, maxNews: 1000 } });
  return { sink, files };
}

const locs = (xml: string | undefined): string[] => [...(xml ?? '').matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');

describe('GreedyPlanner', () => {
  test('fills one file at a time in input order; a promise only when a file closed', async () => {
    const { sink, files } = fileSet(2);
    const planner = new GreedyPlanner();
    const results: (number | string)[] = [];
    for (let i = 0; i < 5; i++) {
      const slot = planner.place(entry(`https://example.com/${i}`), files);
      results.push(typeof slot === 'number' ? slot : `then ${await slot}`);
    }
    assert.deepEqual(results, [0, 0, 'then 1', 1, 'then 2']);
    const written = await files.finish();
    await sink.commit(written.map((f) => f.name));
    assert.deepEqual(written.map((f) => [f.name, f.kind, f.entries]), [['sitemap-1.xml', 'urlset', 2], ['sitemap-2.xml', 'urlset', 2], ['sitemap-3.xml', 'urlset', 1], ['sitemap.xml', 'index', 3]]);
    assert.deepEqual(locs(sink.files.get('sitemap-2.xml')), ['https://example.com/2', 'https://example.com/3']);
  });

  test('an entry larger than a whole file goes in no file, and the open one stays open', async () => {
    const { sink, files } = fileSet(10, 200);
    const planner = new GreedyPlanner();
    assert.equal(planner.place(entry('https://example.com/a'), files), 0);
    assert.equal(planner.place(entry(`https://example.com/${'x'.repeat(200)}`), files), NO_FILE);
    assert.equal(planner.place(entry('https://example.com/b'), files), 0);
    const written = await files.finish();
    await sink.commit(written.map((f) => f.name));
    assert.deepEqual([...sink.files.keys()], ['sitemap.xml']);
    assert.deepEqual(locs(sink.files.get('sitemap.xml')), ['https://example.com/a', 'https://example.com/b']);
  });
});

/** A planner that keeps each URL in a stable file by its first path segment, as a state store would. */
class BySection implements FilePlanner {
  readonly #slots = new Map<string, number>([['news', 0], ['blog', 1], ['shop', 2]]);
  readonly #open = new Set<number>();

  place(item: SerializedEntry, files: OpenFiles): number {
    const slot = this.#slots.get(new URL(item.loc).pathname.split('/')[1] ?? '') ?? NO_FILE;
    if (slot === NO_FILE) return NO_FILE;
    if (!this.#open.has(slot)) {
      files.open(slot);
      this.#open.add(slot);
    }
    return files.tryAdd(slot, item) ? slot : NO_FILE;
  }
}

describe('FileSet, filled by another planner', () => {
  test('files are named by slot and listed in the index in slot order, whatever order they close in', async () => {
    const { sink, files } = fileSet(100);
    const planner = new BySection();
    const day = (d: number) => ({ text: `2026-01-0${d}`, epoch: Date.UTC(2026, 0, d) });
    for (const [loc, lastmod] of [['https://example.com/shop/1', day(3)], ['https://example.com/news/1', day(1)], ['https://example.com/shop/2', day(5)], ['https://example.com/blog/1', day(2)], ['https://example.com/news/2', day(4)]] as const) {
      assert.notEqual(planner.place(entry(loc, lastmod), files), NO_FILE);
    }
    await files.close(2); // the shop closes first
    const written = await files.finish();
    await sink.commit(written.map((f) => f.name));
    assert.deepEqual(written.map((f) => [f.name, f.entries]), [['sitemap-1.xml', 2], ['sitemap-2.xml', 1], ['sitemap-3.xml', 2], ['sitemap.xml', 3]]);
    assert.deepEqual(locs(sink.files.get('sitemap-1.xml')), ['https://example.com/news/1', 'https://example.com/news/2']);
    assert.deepEqual(locs(sink.files.get('sitemap-3.xml')), ['https://example.com/shop/1', 'https://example.com/shop/2']);
    assert.equal(sink.files.get('sitemap.xml'), '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      '<sitemap><loc>https://example.com/sitemap-1.xml</loc><lastmod>2026-01-04</lastmod></sitemap>\n' +
      '<sitemap><loc>https://example.com/sitemap-2.xml</loc><lastmod>2026-01-02</lastmod></sitemap>\n' +
      '<sitemap><loc>https://example.com/sitemap-3.xml</loc><lastmod>2026-01-05</lastmod></sitemap>\n</sitemapindex>\n');
  });

  test('a file closed empty is dropped, and the other files keep their slot numbers', async () => {
    const { sink, files } = fileSet(100);
    const planner = new BySection();
    files.open(1);
    planner.place(entry('https://example.com/news/1'), files);
    planner.place(entry('https://example.com/shop/1'), files);
    await files.close(1);
    const written = await files.finish();
    await sink.commit(written.map((f) => f.name));
    assert.deepEqual(written.map((f) => f.name), ['sitemap-1.xml', 'sitemap-3.xml', 'sitemap.xml']);
    assert.equal(files.urls, 2);
  });

  test('the only file is the entry point, whatever its slot', async () => {
    const { sink, files } = fileSet(100);
    new BySection().place(entry('https://example.com/blog/1'), files);
    const written = await files.finish();
    await sink.commit(written.map((f) => f.name));
    assert.deepEqual(written.map((f) => [f.name, f.kind, f.entries]), [['sitemap.xml', 'urlset', 1]]);
    assert.deepEqual(locs(sink.files.get('sitemap.xml')), ['https://example.com/blog/1']);
  });

  test('a slot is opened once, and only an open slot takes entries or closes', async () => {
    const { files } = fileSet(100);
    files.open(0);
    assert.throws(() => files.open(0), { name: 'RangeError', message: 'file slot 0 cannot be opened: slots are whole numbers from 0, each used once' });
    assert.throws(() => files.open(-1), { name: 'RangeError' });
    assert.throws(() => files.tryAdd(1, entry('https://example.com/x')), { name: 'RangeError', message: 'file slot 1 is not open' });
    assert.equal(files.tryAdd(0, entry('https://example.com/x')), true);
    await files.close(0);
    assert.throws(() => files.open(0), { name: 'RangeError' });
    await assert.rejects(files.close(0), { name: 'RangeError', message: 'file slot 0 is not open' });
  });
});

import assert from 'node:assert/strict';
import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openDirectorySink } from '../../src/publish/directory.ts';
import { writeSitemaps, type SitemapSink } from '../../src/index.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('keep');
const BASE = 'https://example.com/';
const urls = (n: number, tag = 'a') => Array.from({ length: n }, (_, i) => `https://example.com/${tag}/${i}`);
const encoder = new TextEncoder();
const manifest = async (dir: string): Promise<unknown> => JSON.parse(await readFile(join(dir, '.sitemapkit-sitemap.json'), 'utf8'));

/** Stages `name` holding `text` through the sink, as the builder does; returns the name the sink publishes it under. */
async function stage(sink: SitemapSink, name: string, text: string): Promise<string> {
  const writer = sink.create();
  await writer.write(encoder.encode(text));
  return (await writer.finish(name, new Uint8Array(0), new Uint8Array(0))).name ?? name;
}

/** A published set of three files and their index, with sitemap-2.xml last changed long ago. */
async function published(gzip = false): Promise<{ dir: string; old: string; oldBytes: Buffer; oldMtime: number }> {
  const dir = await tempDir();
  await writeSitemaps(urls(25), { outDir: dir, baseUrl: BASE, maxUrlsPerFile: 10, gzip });
  const old = gzip ? 'sitemap-2.xml.gz' : 'sitemap-2.xml';
  const longAgo = new Date('2020-01-02T03:04:05Z');
  await utimes(join(dir, old), longAgo, longAgo);
  return { dir, old, oldBytes: await readFile(join(dir, old)), oldMtime: (await stat(join(dir, old))).mtimeMs };
}

describe('a directory sink keeping a published file', () => {
  test('a kept file keeps its bytes and mtime across the commit and stays in the manifest; the changed others take their other names', async () => {
    const { dir, old, oldBytes, oldMtime } = await published();
    assert.equal(oldMtime, Date.parse('2020-01-02T03:04:05Z'));
    const sink = openDirectorySink(dir, { gzip: false, filename: 'sitemap' });
    // The live index lists sitemap-1.xml and sitemap-3.xml: their new bytes may not replace them before it is replaced.
    assert.equal(await stage(sink, 'sitemap-1.xml', 'one, new'), 'sitemap-1b.xml');
    await sink.keep(old);
    assert.equal(await stage(sink, 'sitemap-3.xml', 'three, new'), 'sitemap-3b.xml');
    assert.equal(await stage(sink, 'sitemap.xml', 'index, new'), 'sitemap.xml');
    await sink.commit(['sitemap-1b.xml', old, 'sitemap-3b.xml', 'sitemap.xml']);

    assert.deepEqual(await readFile(join(dir, old)), oldBytes);
    assert.equal((await stat(join(dir, old))).mtimeMs, oldMtime);
    assert.deepEqual(await manifest(dir), { stem: 'sitemap', files: ['sitemap-1b.xml', 'sitemap-2.xml', 'sitemap-3b.xml', 'sitemap.xml'] });
    assert.equal(await readFile(join(dir, 'sitemap-1b.xml'), 'utf8'), 'one, new');
    assert.equal(await readFile(join(dir, 'sitemap.xml'), 'utf8'), 'index, new');
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1b.xml', 'sitemap-2.xml', 'sitemap-3b.xml', 'sitemap.xml']);
  });

  test('a kept file the commit does not name is still in the new set: not removed, listed in the manifest', async () => {
    const { dir, old, oldBytes, oldMtime } = await published(true);
    const sink = openDirectorySink(dir, { gzip: true, filename: 'sitemap' });
    await sink.keep(old);
    await stage(sink, 'sitemap.xml.gz', 'index, new');
    await sink.commit(['sitemap.xml.gz']);

    assert.deepEqual(await readFile(join(dir, old)), oldBytes);
    assert.equal((await stat(join(dir, old))).mtimeMs, oldMtime);
    assert.deepEqual(await manifest(dir), { stem: 'sitemap', files: ['sitemap.xml.gz', 'sitemap-2.xml.gz'] });
    // sitemap-1 and sitemap-3 were in the previous set and are in neither list: they go.
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-2.xml.gz', 'sitemap.xml.gz']);
  });

  test('keeping a name the published set does not have is a clear SitemapError, and the abort leaves the set as it was', async () => {
    const { dir } = await published();
    await writeFile(join(dir, 'sitemap-2024.xml'), 'hand-made archive sitemap');
    const before = (await readdir(dir)).sort();
    const sink = openDirectorySink(dir, { gzip: false, filename: 'sitemap' });
    await stage(sink, 'sitemap.xml', 'index, new');
    for (const name of ['sitemap-9.xml', 'sitemap-2024.xml', '../sitemap-1.xml']) {
      await assert.rejects(sink.keep(name), {
        name: 'SitemapError',
        code: 'SM_OUTPUT_CONFLICT',
        message: `cannot keep "${name}": the "sitemap" set published in "${dir}" has no such file`,
      });
    }
    await sink.abort();
    assert.deepEqual((await readdir(dir)).sort(), before);
    assert.deepEqual(await manifest(dir), { stem: 'sitemap', files: ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml'] });
  });

  test('a file listed by the manifest but gone from the folder cannot be kept', async () => {
    const { dir } = await published();
    await writeFile(join(dir, '.sitemapkit-sitemap.json'), JSON.stringify({ stem: 'sitemap', files: ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap-4.xml', 'sitemap.xml'] }));
    const sink = openDirectorySink(dir, { gzip: false, filename: 'sitemap' });
    await assert.rejects(sink.keep('sitemap-4.xml'), { code: 'SM_OUTPUT_CONFLICT', message: /^cannot keep "sitemap-4\.xml": the "sitemap" set published in ".*" has no such file$/ });
    await sink.abort();
  });

  test('in a folder with no published set, nothing can be kept, and the folder made for it is removed again', async () => {
    const dir = join(await tempDir(), 'new');
    const sink = openDirectorySink(dir, { gzip: false, filename: 'sitemap' });
    await assert.rejects(sink.keep('sitemap.xml'), { code: 'SM_OUTPUT_CONFLICT', message: `cannot keep "sitemap.xml": the "sitemap" set published in "${dir}" has no such file` });
    await sink.abort();
    await assert.rejects(readdir(dir), { code: 'ENOENT' });
  });

  test('a name is kept or written, not both, whichever comes first', async () => {
    const { dir, old } = await published();
    const message = `"${old}" is both kept as published and written again; a file of the set is one or the other`;
    const keptFirst = openDirectorySink(dir, { gzip: false, filename: 'sitemap' });
    await keptFirst.keep(old);
    await assert.rejects(stage(keptFirst, old, 'two, new'), { code: 'SM_OUTPUT_CONFLICT', message });
    await keptFirst.abort();

    const writtenFirst = openDirectorySink(dir, { gzip: false, filename: 'sitemap' });
    await stage(writtenFirst, old, 'two, new');
    await assert.rejects(writtenFirst.keep(old), { code: 'SM_OUTPUT_CONFLICT', message });
    await writtenFirst.abort();
  });
});

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { tempDirs } from '../helpers/temp-dir.ts';
import { writeSitemaps, type SitemapRecordInput } from '../../src/index.ts';

const tempDir = tempDirs('publish');

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = (await readFile(join(dir, name))).toString('base64');
  return out;
}

const urls = (n: number, tag = 'a') => Array.from({ length: n }, (_, i) => `https://example.com/${tag}/${i}`);

describe('publishing into a folder', () => {
  test('gzip round trip: the .gz files hold exactly the uncompressed output', async () => {
    const plain = await tempDir();
    const zipped = await tempDir();
    await writeSitemaps(urls(25), { outDir: plain, baseUrl: 'https://example.com/', maxUrlsPerFile: 10 });
    const summary = await writeSitemaps(urls(25), { outDir: zipped, baseUrl: 'https://example.com/', maxUrlsPerFile: 10, gzip: true });
    // The entry point stays sitemap.xml, uncompressed, naming the .gz children (gzipIndex compresses it too, below).
    assert.deepEqual((await readdir(zipped)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap-3.xml.gz', 'sitemap.xml']);
    for (const name of (await readdir(plain)).filter((n) => n.endsWith('.xml'))) {
      const original = await readFile(join(plain, name), 'utf8');
      if (name === 'sitemap.xml') assert.equal(await readFile(join(zipped, name), 'utf8'), original.replaceAll('.xml<', '.xml.gz<'));
      else assert.equal(gunzipSync(await readFile(join(zipped, `${name}.gz`))).toString('utf8'), original, name);
    }
    const indexZipped = await tempDir();
    await writeSitemaps(urls(25), { outDir: indexZipped, baseUrl: 'https://example.com/', maxUrlsPerFile: 10, gzipIndex: true });
    assert.deepEqual((await readdir(indexZipped)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap-3.xml.gz', 'sitemap.xml.gz']);
    assert.equal(gunzipSync(await readFile(join(indexZipped, 'sitemap.xml.gz'))).toString('utf8'), await readFile(join(zipped, 'sitemap.xml'), 'utf8'));
    for (const name of ['sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap-3.xml.gz']) assert.deepEqual(await readFile(join(indexZipped, name)), await readFile(join(zipped, name)), name);
    const gz = summary.files.find((f) => f.name === 'sitemap-1.xml.gz');
    assert.ok(gz?.compressedBytes !== undefined && gz.compressedBytes > 0 && gz.compressedBytes < gz.bytes);
  });

  test('gzip output is deterministic too', async () => {
    const a = await tempDir();
    const b = await tempDir();
    await writeSitemaps(urls(30), { outDir: a, baseUrl: 'https://example.com/', gzip: true, maxUrlsPerFile: 7 });
    await writeSitemaps(urls(30), { outDir: b, baseUrl: 'https://example.com/', gzip: true, maxUrlsPerFile: 7 });
    assert.deepEqual(await snapshot(a), await snapshot(b));
  });

  test('a run that fails midway leaves the previous set untouched and no stray files', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'index.html'), '<h1>the site</h1>');
    await writeSitemaps(urls(30), { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 10 });
    const before = await snapshot(dir);
    async function* failing(): AsyncGenerator<SitemapRecordInput> {
      for (const url of urls(25, 'b')) yield { loc: url };
      throw new Error('database connection lost');
    }
    await assert.rejects(writeSitemaps(failing(), { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 10 }), /database connection lost/);
    assert.deepEqual(await snapshot(dir), before);
  });

  test('a strict run with findings publishes nothing', async () => {
    const dir = await tempDir();
    await writeSitemaps(urls(3), { outDir: dir, baseUrl: 'https://example.com/' });
    const before = await snapshot(dir);
    await assert.rejects(writeSitemaps([...urls(3, 'c'), 'mailto:team@example.com'], { outDir: dir, baseUrl: 'https://example.com/', strict: true }), { code: 'SM_STRICT_FAILED' });
    assert.deepEqual(await snapshot(dir), before);
  });

  test('a run that publishes nothing creates no folder: the output folder and the parents it made are removed again', async () => {
    const dir = await tempDir();
    const out = join(dir, 'public', 'maps');
    await assert.rejects(writeSitemaps(['mailto:team@example.com'], { outDir: out, baseUrl: 'https://example.com/' }), { code: 'SM_NOTHING_TO_WRITE' });
    await assert.rejects(writeSitemaps([...urls(3), 'mailto:team@example.com'], { outDir: out, baseUrl: 'https://example.com/', strict: true }), { code: 'SM_STRICT_FAILED' });
    assert.deepEqual(await readdir(dir), []);
    // A folder that was there before stays, with what it held.
    await mkdir(join(dir, 'public'));
    await writeFile(join(dir, 'public', 'index.html'), '<h1>the site</h1>');
    await assert.rejects(writeSitemaps([...urls(3), 'mailto:team@example.com'], { outDir: out, baseUrl: 'https://example.com/', strict: true }), { code: 'SM_STRICT_FAILED' });
    assert.deepEqual(await readdir(join(dir, 'public')), ['index.html']);
  });

  test('two sets may not share a file: a stem whose files another set lists is refused, and both sets stay as they were', async () => {
    const dir = await tempDir();
    // `sitemap` split in three writes sitemap-1.xml, the one file the stem `sitemap-1` would write.
    await writeSitemaps(urls(5), { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 2 });
    const before = await snapshot(dir);
    await assert.rejects(writeSitemaps(urls(2, 'b'), { outDir: dir, baseUrl: 'https://example.com/', filename: 'sitemap-1' }), {
      code: 'SM_OUTPUT_CONFLICT',
      message: /"sitemap-1\.xml" in ".*" belongs to the "sitemap" set published there \(\.sitemapkit-sitemap\.json\).*--filename/,
    });
    assert.deepEqual(await snapshot(dir), before);

    // The other way round the overlap shows only once the set is split, so it is found at the commit.
    const other = await tempDir();
    await writeSitemaps(urls(2, 'b'), { outDir: other, baseUrl: 'https://example.com/', filename: 'sitemap-2' });
    const published = await snapshot(other);
    await assert.rejects(writeSitemaps(urls(5), { outDir: other, baseUrl: 'https://example.com/', maxUrlsPerFile: 2 }), { code: 'SM_OUTPUT_CONFLICT', message: /"sitemap-2\.xml" .* belongs to the "sitemap-2" set/ });
    assert.deepEqual(await snapshot(other), published);
    // Names that do not overlap are fine beside it.
    await writeSitemaps(urls(3), { outDir: other, baseUrl: 'https://example.com/', maxUrlsPerFile: 2, filename: 'pages' });
    assert.deepEqual((await readdir(other)).sort(), ['.sitemapkit-pages.json', '.sitemapkit-sitemap-2.json', 'pages-1.xml', 'pages-2.xml', 'pages.xml', 'sitemap-2.xml']);
  });

  test('files of the previous set that the new one lacks are removed; other files stay', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'sitemap-news.xml'), 'not ours: another stem');
    await writeFile(join(dir, 'robots.txt'), 'User-agent: *\n');
    await writeSitemaps(urls(30), { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 10, gzip: true });
    await writeSitemaps(urls(5), { outDir: dir, baseUrl: 'https://example.com/' });
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'robots.txt', 'sitemap-news.xml', 'sitemap.xml']);
    assert.deepEqual(JSON.parse(await readFile(join(dir, '.sitemapkit-sitemap.json'), 'utf8')), { stem: 'sitemap', files: ['sitemap.xml'] });
  });

  test("a user's own file named like ours is never removed: only what a manifest lists is", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'sitemap-2024.xml'), 'hand-made archive sitemap');
    await writeSitemaps(urls(30), { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 10 });
    await writeSitemaps(urls(5), { outDir: dir, baseUrl: 'https://example.com/' });
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-2024.xml', 'sitemap.xml']);
    assert.equal(await readFile(join(dir, 'sitemap-2024.xml'), 'utf8'), 'hand-made archive sitemap');
  });

  test("a file in the way that no manifest lists (another generator's sitemap.xml) is never replaced: the run is refused before it builds, and nothing changes", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'sitemap.xml'), 'written by the site generator');
    let read = 0;
    function* counted(): Generator<string> {
      for (const url of urls(200_000)) {
        read++;
        yield url;
      }
    }
    await assert.rejects(writeSitemaps(counted(), { outDir: dir, baseUrl: 'https://example.com/' }), {
      code: 'SM_OUTPUT_CONFLICT',
      message: `"sitemap.xml" in "${dir}" is a file that sitemapkit did not write (the "sitemap" set's .sitemapkit-sitemap.json does not list it), so nothing was published: remove it, or stop the tool that wrote it from writing it, or choose another file name stem (--filename)`,
    });
    assert.ok(read < 100_000, `refused when the first file opened, after ${read} records`);
    assert.deepEqual(await snapshot(dir), { 'sitemap.xml': Buffer.from('written by the site generator').toString('base64') });
    // Once it is gone, the set is sitemapkit's: later runs replace what its manifest lists.
    await rm(join(dir, 'sitemap.xml'));
    await writeSitemaps(urls(3), { outDir: dir, baseUrl: 'https://example.com/' });
    await writeSitemaps(urls(4), { outDir: dir, baseUrl: 'https://example.com/' });
    assert.match(await readFile(join(dir, 'sitemap.xml'), 'utf8'), /example\.com\/a\/3</);
  });

  test('a child file in the way that no manifest lists is refused at the commit, with the set before it left as it was', async () => {
    const dir = await tempDir();
    await writeSitemaps(urls(5), { outDir: dir, baseUrl: 'https://example.com/' });
    const before = await snapshot(dir);
    await writeFile(join(dir, 'sitemap-2.xml'), 'hand-made');
    await assert.rejects(writeSitemaps(urls(25), { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 10 }), {
      code: 'SM_OUTPUT_CONFLICT',
      message: /^"sitemap-2\.xml" in ".*" is a file that sitemapkit did not write/,
    });
    assert.deepEqual(await snapshot(dir), { ...before, 'sitemap-2.xml': Buffer.from('hand-made').toString('base64') });
  });

  test('an output folder that is a file is one clear error', async () => {
    const dir = await tempDir();
    const file = join(dir, 'urls.txt');
    await writeFile(file, 'https://example.com/\n');
    await assert.rejects(writeSitemaps(urls(2), { outDir: file, baseUrl: 'https://example.com/' }), {
      code: 'SM_OUTPUT_UNWRITABLE',
      message: `cannot write to output folder "${file}": it is a file, not a folder`,
    });
    assert.equal(await readFile(file, 'utf8'), 'https://example.com/\n');
  });

  test('a changed file the live index lists takes its other name (sitemap-1.xml ↔ sitemap-1b.xml); an unchanged one keeps its name, bytes and mtime', async () => {
    const dir = await tempDir();
    const base = { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 10 };
    const longAgo = new Date('2020-01-02T03:04:05Z');
    const index = async (): Promise<string[]> => [...(await readFile(join(dir, 'sitemap.xml'), 'utf8')).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
    await writeSitemaps(urls(30), base);
    await utimes(join(dir, 'sitemap-2.xml'), longAgo, longAgo);
    const second = await readFile(join(dir, 'sitemap-2.xml'));

    // The first file's ten URLs change, the other two files' do not, five more make a fourth file.
    const changed = [...urls(10, 'b'), ...urls(30).slice(10), ...urls(5, 'c')];
    const summary = await writeSitemaps(changed, base);
    assert.deepEqual(summary.files.map((f) => f.name), ['sitemap-1b.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap-4.xml', 'sitemap.xml']);
    assert.deepEqual(summary.files.map((f) => f.unchanged === true), [false, true, true, false, false]);
    assert.deepEqual(await index(), ['https://example.com/sitemap-1b.xml', 'https://example.com/sitemap-2.xml', 'https://example.com/sitemap-3.xml', 'https://example.com/sitemap-4.xml']);
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1b.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap-4.xml', 'sitemap.xml']);
    assert.deepEqual(await readFile(join(dir, 'sitemap-2.xml')), second);
    assert.equal((await stat(join(dir, 'sitemap-2.xml'))).mtimeMs, longAgo.getTime());

    // Changed again, a file goes back to its first name; the same input again leaves every file as it is.
    await writeSitemaps(urls(30), base);
    assert.deepEqual(await index(), ['https://example.com/sitemap-1.xml', 'https://example.com/sitemap-2.xml', 'https://example.com/sitemap-3.xml']);
    const published = await snapshot(dir);
    for (const name of ['sitemap.xml', 'sitemap-1.xml', 'sitemap-3.xml']) await utimes(join(dir, name), longAgo, longAgo);
    const again = await writeSitemaps(urls(30), base);
    assert.deepEqual(again.files.map((f) => [f.name, f.unchanged]), [['sitemap-1.xml', true], ['sitemap-2.xml', true], ['sitemap-3.xml', true], ['sitemap.xml', true]]);
    assert.deepEqual(await snapshot(dir), published);
    for (const name of ['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml']) assert.equal((await stat(join(dir, name))).mtimeMs, longAgo.getTime(), name);

    // Into an empty folder the names are always the first ones: the same input gives the same files.
    const empty = await tempDir();
    await writeSitemaps(changed, { ...base, outDir: empty });
    assert.deepEqual((await readdir(empty)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap-4.xml', 'sitemap.xml']);
  });

  test('with gzip the other name is sitemap-1b.xml.gz', async () => {
    const dir = await tempDir();
    const base = { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 10, gzip: true };
    await writeSitemaps(urls(20), base);
    const summary = await writeSitemaps([...urls(10), ...urls(10, 'b')], base);
    // --gzip compresses the URL files; the index stays sitemap.xml.
    assert.deepEqual(summary.files.map((f) => f.name), ['sitemap-1.xml.gz', 'sitemap-2b.xml.gz', 'sitemap.xml']);
    assert.match(await readFile(join(dir, 'sitemap.xml'), 'utf8'), /<loc>https:\/\/example\.com\/sitemap-2b\.xml\.gz<\/loc>/);
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1.xml.gz', 'sitemap-2b.xml.gz', 'sitemap.xml']);
  });

  test('a tampered manifest cannot make a run delete outside its folder', async () => {
    const dir = await tempDir();
    const outside = join(dir, 'keep.txt');
    await writeFile(outside, 'precious');
    const out = join(dir, 'out');
    await writeSitemaps(urls(1), { outDir: out, baseUrl: 'https://example.com/' });
    const published = await readFile(join(out, 'sitemap.xml'));
    // A manifest naming a path outside is no manifest: its set's files are then no run's, and are not replaced either.
    await writeFile(join(out, '.sitemapkit-sitemap.json'), JSON.stringify({ stem: 'sitemap', files: ['../keep.txt', 'sitemap.xml'] }));
    await assert.rejects(writeSitemaps(urls(2), { outDir: out, baseUrl: 'https://example.com/' }), { code: 'SM_OUTPUT_CONFLICT' });
    assert.equal(await readFile(outside, 'utf8'), 'precious');
    assert.deepEqual(await readFile(join(out, 'sitemap.xml')), published);
  });

  test('a committed run that died while moving files is rolled forward by the next run', async () => {
    const dir = await tempDir();
    await writeSitemaps(urls(2), { outDir: dir, baseUrl: 'https://example.com/' });
    const staging = join(dir, '.sitemapkit-staging-deadbeef0000');
    await mkdir(staging);
    await writeFile(join(staging, 'sitemap-2.xml'), 'second');
    await writeFile(join(dir, 'sitemap-1.xml'), 'first (already moved)');
    await writeFile(join(staging, 'sitemap.xml'), 'index');
    await writeFile(join(staging, 'COMMIT.json'), JSON.stringify({ stem: 'sitemap', files: ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap.xml'] }));
    const uncommitted = join(dir, '.sitemapkit-staging-0123456789ab');
    await mkdir(uncommitted);
    await writeFile(join(uncommitted, 'sitemap.xml'), 'half written');
    // The next run finds both, rolls the first forward, drops the second, then publishes its own set.
    await writeSitemaps(urls(1, 'new'), { outDir: dir, baseUrl: 'https://example.com/', filename: 'other' });
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-other.json', '.sitemapkit-sitemap.json', 'other.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap.xml']);
    assert.deepEqual(JSON.parse(await readFile(join(dir, '.sitemapkit-sitemap.json'), 'utf8')).files, ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap.xml']);
    assert.equal(await readFile(join(dir, 'sitemap.xml'), 'utf8'), 'index');
  });

  test('an unwritable output folder is one clear error', async (t) => {
    if (process.getuid?.() === 0) {
      // root writes through permissions: use a path under a regular file instead.
      const dir = await tempDir();
      await writeFile(join(dir, 'file'), '');
      await assert.rejects(writeSitemaps(urls(1), { outDir: join(dir, 'file', 'out'), baseUrl: 'https://example.com/' }), (error: Error & { code?: string }) => {
        assert.equal(error.code, 'SM_OUTPUT_UNWRITABLE');
        assert.match(error.message, /cannot write to output folder ".*file\/out": a file is in the way/);
        return true;
      });
      return;
    }
    const dir = await tempDir();
    await chmod(dir, 0o500);
    t.after(() => chmod(dir, 0o700));
    await assert.rejects(writeSitemaps(urls(1), { outDir: dir, baseUrl: 'https://example.com/' }), { code: 'SM_OUTPUT_UNWRITABLE' });
  });

  test('a folder the file system will not create (/proc answers ENOENT under a folder that exists) is SM_OUTPUT_UNWRITABLE, not a hang', { skip: process.platform !== 'linux', timeout: 30_000 }, async () => {
    await assert.rejects(writeSitemaps(urls(1), { outDir: '/proc/sitemapkit-out/maps', baseUrl: 'https://example.com/' }), {
      code: 'SM_OUTPUT_UNWRITABLE',
      message: 'cannot write to output folder "/proc/sitemapkit-out/maps": the file system at "/proc" does not allow creating the folder "/proc/sitemapkit-out"',
    });
    // The folder exists, but nothing can be created in it.
    await assert.rejects(writeSitemaps(urls(1), { outDir: '/proc', baseUrl: 'https://example.com/' }), {
      code: 'SM_OUTPUT_UNWRITABLE',
      message: 'cannot write to output folder "/proc": the file system does not allow creating a folder in it',
    });
  });

  test('a bad base URL fails before the output folder is created', async () => {
    const dir = join(await tempDir(), 'never');
    await assert.rejects(writeSitemaps(urls(1), { outDir: dir, baseUrl: 'example.com' }), { code: 'SM_BAD_BASE_URL' });
    await assert.rejects(readdir(dir), { code: 'ENOENT' });
  });
});

describe('options are checked before the folder is touched', () => {
  test('bad limits, file names and gzip levels are SM_BAD_OPTION and create nothing', async () => {
    const dir = join(await tempDir(), 'never');
    const base = { outDir: dir, baseUrl: 'https://example.com/' };
    for (const options of [{ maxUrlsPerFile: 0 }, { maxUrlsPerFile: 60_000 }, { maxBytesPerFile: 10 ** 9 }, { filename: 'a/b' }, { gzip: true, gzipLevel: 42 }, { gzip: true, gzipLevel: 1.5 }, { gzipLevel: -1 }]) {
      await assert.rejects(writeSitemaps(urls(3), { ...base, ...options }), { name: 'SitemapError', code: 'SM_BAD_OPTION' }, JSON.stringify(options));
      await assert.rejects(readdir(dir), { code: 'ENOENT' }, JSON.stringify(options));
    }
    await assert.rejects(writeSitemaps(urls(1), { ...base, gzip: true, gzipLevel: 42 }), { message: 'gzipLevel must be a whole number from 0 to 9, got 42' });
  });

  test('gzip levels 0 and 9 are taken', async () => {
    for (const gzipLevel of [0, 9]) {
      const dir = await tempDir();
      await writeSitemaps(urls(3), { outDir: dir, baseUrl: 'https://example.com/', gzip: true, gzipLevel });
      assert.match(gunzipSync(await readFile(join(dir, 'sitemap-1.xml.gz'))).toString(), /<loc>https:\/\/example\.com\/a\/2<\/loc>/);
    }
  });
});

/** Staging folder names as the sink makes them: `.sitemapkit-staging-<host>-<pid>-<random>-<stem>`. */
const THIS_HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const stagingOf = (pid: number, stem: string, host = THIS_HOST): string => `.sitemapkit-staging-${host}-${pid}-${Math.random().toString(16).slice(2, 14).padEnd(12, '0')}-${stem}`;
const stagingFolders = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((name) => name.startsWith('.sitemapkit-staging-'));

/**
 * A run that stops after `n` URLs until released: by then its first 64 KiB body chunk has been
 * staged, so its staging folder exists.
 */
function heldRun(dir: string, filename: string, n = 3000): { waiting: Promise<void>; release: () => void; done: Promise<unknown> } {
  let release = (): void => {};
  let waiting = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (waiting = resolve));
  async function* records(): AsyncGenerator<string> {
    yield* urls(n, filename);
    waiting();
    await released;
    yield `https://example.com/${filename}/last`;
  }
  const done = writeSitemaps(records(), { outDir: dir, baseUrl: 'https://example.com/', filename });
  done.catch(() => {}); // asserted by each test
  return { waiting: reached, release, done };
}

describe('runs sharing a folder', () => {
  test('runs with different stems at once both publish: a starting run leaves a live run\'s staging folder alone', async () => {
    const dir = await tempDir();
    const products = heldRun(dir, 'products');
    await products.waiting;
    assert.equal((await stagingFolders(dir)).length, 1);
    await writeSitemaps(urls(5, 'blog'), { outDir: dir, baseUrl: 'https://example.com/', filename: 'blog' });
    products.release();
    assert.equal(((await products.done) as { urls: number }).urls, 3001);
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-blog.json', '.sitemapkit-products.json', 'blog.xml', 'products.xml']);
  });

  test('a second run of the same stem at once is refused with a clear error; the first publishes', async () => {
    const dir = await tempDir();
    const first = heldRun(dir, 'sitemap');
    await first.waiting;
    await assert.rejects(writeSitemaps(urls(5, 'b'), { outDir: dir, baseUrl: 'https://example.com/' }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'SM_OUTPUT_CONFLICT');
      assert.match(error.message, new RegExp(`^another run \\(process ${process.pid}\\) is publishing the "sitemap" set into ".*"; runs into one folder at once need different file names$`));
      return true;
    });
    assert.equal((await stagingFolders(dir)).length, 1, 'the refused run removed its own staging folder');
    first.release();
    await first.done;
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'sitemap.xml']);
    assert.match(await readFile(join(dir, 'sitemap.xml'), 'utf8'), /sitemap\/last/);
  });

  test("only the staging folders of runs that are gone are recovered: another process's live run is left alone", async (t) => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    t.after(() => live.kill());
    const ended = spawnSync(process.execPath, ['-e', '']);
    assert.ok(live.pid !== undefined && ended.pid !== undefined);
    const dir = await tempDir();
    await writeSitemaps(urls(2), { outDir: dir, baseUrl: 'https://example.com/' });
    const make = async (name: string, files: Record<string, string>): Promise<string> => {
      await mkdir(join(dir, name));
      for (const [file, text] of Object.entries(files)) await writeFile(join(dir, name, file), text);
      return name;
    };
    const liveRun = await make(stagingOf(live.pid, 'products'), { 'products.xml': 'being written' });
    await make(stagingOf(ended.pid, 'blog'), { 'blog.xml': 'never committed' });
    // A dead run that committed and died before moving its files is rolled forward.
    await make(stagingOf(ended.pid, 'sitemap'), { 'sitemap.xml': 'committed', 'COMMIT.json': JSON.stringify({ stem: 'sitemap', files: ['sitemap.xml'] }) });
    // On another machine a pid cannot be asked: a folder untouched for over a day is taken for a dead run's.
    const foreignLive = await make(stagingOf(123, 'news', 'ffffffff'), { 'news.xml': 'being written elsewhere' });
    const foreignStale = await make(stagingOf(123, 'old', 'ffffffff'), { 'old.xml': 'left by a crash elsewhere' });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(join(dir, foreignStale), twoDaysAgo, twoDaysAgo);

    await writeSitemaps(urls(1), { outDir: dir, baseUrl: 'https://example.com/', filename: 'other' });
    assert.deepEqual((await stagingFolders(dir)).sort(), [foreignLive, liveRun].sort());
    assert.equal(await readFile(join(dir, liveRun, 'products.xml'), 'utf8'), 'being written');
    assert.equal(await readFile(join(dir, 'sitemap.xml'), 'utf8'), 'committed');
    assert.deepEqual((await readdir(dir)).filter((name) => !name.startsWith('.sitemapkit-staging-')).sort(), ['.sitemapkit-other.json', '.sitemapkit-sitemap.json', 'other.xml', 'sitemap.xml']);

    // A live run of the same stem, here or elsewhere, refuses the run.
    for (const stem of ['products', 'news']) {
      await assert.rejects(writeSitemaps(urls(1), { outDir: dir, baseUrl: 'https://example.com/', filename: stem }), { code: 'SM_OUTPUT_CONFLICT', message: new RegExp(`is publishing the "${stem}" set`) });
    }
    assert.deepEqual((await stagingFolders(dir)).sort(), [foreignLive, liveRun].sort());
  });

  test("a stem's claim held by a live process refuses the run; a gone process's claim passes to it; a claim naming no run is a clear conflict", async (t) => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    t.after(() => live.kill());
    const ended = spawnSync(process.execPath, ['-e', '']);
    assert.ok(live.pid !== undefined && ended.pid !== undefined);
    const dir = await tempDir();
    const lock = join(dir, '.sitemapkit-lock-sitemap');
    const claimBy = async (pid: number): Promise<void> => {
      await rm(lock, { recursive: true, force: true });
      await mkdir(lock);
      await writeFile(join(lock, `owner-${THIS_HOST}-${pid}-0123456789ab`), '');
    };
    await claimBy(live.pid);
    await assert.rejects(writeSitemaps(urls(1), { outDir: dir, baseUrl: 'https://example.com/' }), {
      code: 'SM_OUTPUT_CONFLICT',
      message: `another run (process ${live.pid}) is publishing the "sitemap" set into "${dir}"; runs into one folder at once need different file names`,
    });
    assert.deepEqual(await readdir(dir), ['.sitemapkit-lock-sitemap']);

    await claimBy(ended.pid);
    await writeSitemaps(urls(1), { outDir: dir, baseUrl: 'https://example.com/' });
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'sitemap.xml']);

    // An empty claim folder is no claim (a rename replaces an empty folder); one holding something else is not ours to remove.
    await rm(lock, { recursive: true, force: true });
    await mkdir(lock);
    await writeSitemaps(urls(2), { outDir: dir, baseUrl: 'https://example.com/' });
    await mkdir(lock);
    await writeFile(join(lock, 'notes.txt'), 'mine');
    await assert.rejects(writeSitemaps(urls(2), { outDir: dir, baseUrl: 'https://example.com/' }), {
      code: 'SM_OUTPUT_CONFLICT',
      message: `"${lock}" claims the "sitemap" set but names no run; remove it if no run is publishing into "${dir}"`,
    });
  });

  test('a staging folder with this process\'s pid but no run of it in progress is a dead earlier process\'s (pids are reused, as in containers)', async () => {
    const dir = await tempDir();
    const left = stagingOf(process.pid, 'sitemap');
    await mkdir(join(dir, left));
    await writeFile(join(dir, left, 'sitemap.xml'), 'never committed');
    await writeSitemaps(urls(1), { outDir: dir, baseUrl: 'https://example.com/' });
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-sitemap.json', 'sitemap.xml']);
  });

  test('a commit that fails while moving files keeps its staging folder, and the next run rolls it forward', async () => {
    const dir = await tempDir();
    await writeSitemaps(urls(1), { outDir: dir, baseUrl: 'https://example.com/' });
    // A folder in the way of the entry point the manifest lists: the refusal of files no manifest lists lets it through, the move fails.
    await rm(join(dir, 'sitemap.xml'));
    await mkdir(join(dir, 'sitemap.xml'));
    await assert.rejects(writeSitemaps(urls(2), { outDir: dir, baseUrl: 'https://example.com/' }), { code: 'SM_OUTPUT_UNWRITABLE', message: /cannot publish into/ });
    const [kept, ...others] = await stagingFolders(dir);
    assert.ok(kept !== undefined && others.length === 0);
    assert.deepEqual((await readdir(join(dir, kept))).sort(), ['COMMIT.json', 'sitemap.xml']);
    await rm(join(dir, 'sitemap.xml'), { recursive: true });
    await writeSitemaps(urls(1), { outDir: dir, baseUrl: 'https://example.com/', filename: 'other' });
    assert.deepEqual((await readdir(dir)).sort(), ['.sitemapkit-other.json', '.sitemapkit-sitemap.json', 'other.xml', 'sitemap.xml']);
    assert.match(await readFile(join(dir, 'sitemap.xml'), 'utf8'), /example\.com\/a\/1</);
  });
});

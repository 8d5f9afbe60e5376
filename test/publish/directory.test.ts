import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
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
    assert.deepEqual((await readdir(zipped)).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap-3.xml.gz', 'sitemap.xml.gz']);
    for (const name of (await readdir(plain)).filter((n) => n.endsWith('.xml'))) {
      const original = await readFile(join(plain, name), 'utf8');
      const unzipped = gunzipSync(await readFile(join(zipped, `${name}.gz`))).toString('utf8');
      // The index names the .gz children; everything else is the same bytes.
      assert.equal(unzipped, name === 'sitemap.xml' ? original.replaceAll('.xml<', '.xml.gz<') : original, name);
    }
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

  test('a tampered manifest cannot make a run delete outside its folder', async () => {
    const dir = await tempDir();
    const outside = join(dir, 'keep.txt');
    await writeFile(outside, 'precious');
    const out = join(dir, 'out');
    await writeSitemaps(urls(1), { outDir: out, baseUrl: 'https://example.com/' });
    await writeFile(join(out, '.sitemapkit-sitemap.json'), JSON.stringify({ stem: 'sitemap', files: ['../keep.txt'] }));
    await writeSitemaps(urls(2), { outDir: out, baseUrl: 'https://example.com/' });
    assert.equal(await readFile(outside, 'utf8'), 'precious');
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

  test('a bad base URL fails before the output folder is created', async () => {
    const dir = join(await tempDir(), 'never');
    await assert.rejects(writeSitemaps(urls(1), { outDir: dir, baseUrl: 'example.com' }), { code: 'SM_BAD_BASE_URL' });
    await assert.rejects(readdir(dir), { code: 'ENOENT' });
  });
});

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, describe, test } from 'node:test';
import type { DiscoveryReport } from '../../src/read/discover.ts';
import { runCli } from '../helpers/cli.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import { startServer, type TestServer } from '../helpers/http-server.ts';

const cwd = tmpdir();
// One retry (flaky.xml fails once) and a short timeout (slow.xml never answers).
const NET = ['--timeout', '400', '--retries', '1'];

describe('sitemapkit discover', () => {
  let site: TestServer;
  /** A well-behaved site: one sitemap, every file readable. */
  let tidy: TestServer;
  before(async () => {
    site = await startFixtureSite();
    tidy = await startServer((request, response, origin) => {
      if (request.url !== '/sitemap.xml') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/xml' }).end(
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/a,b?q="x"</loc><lastmod>2026-01-02</lastmod><priority>0.5</priority></url><url><loc>${origin}/plain</loc></url></urlset>`,
      );
    });
  });
  after(async () => {
    await site.close();
    await tidy.close();
  });

  test('the tree on stdout: statuses, kinds, counts, sizes and findings; exit 1 when some files fail', async () => {
    const result = await runCli(['discover', site.origin, ...NET], { cwd });
    assert.equal(result.code, 1, result.stderr);
    const out = result.stdout.replaceAll(site.origin, '');
    assert.match(out, /^\/\nrobots\.txt: 6 Sitemap: lines\n {2}R27 warn: Sitemap: URL should be absolute/);
    assert.match(out, /\n\/sitemap_index\.xml {2}200 {2}sitemapindex, 6 sitemaps {2}550 B {2}\(robots\)\n/);
    assert.match(out, /\n├─ \/posts\.xml\.gz {2}200 {2}urlset, 2 URLs {2}\d+ B gzip\n/);
    assert.match(out, /\n│ {2}└─ \/loop-b\.xml {2}200 {2}sitemapindex, 0 sitemaps {2}\d+ B {2}3 findings\n│ {8}R22 warn: an index listed by another index/);
    assert.match(out, /\n└─ \/gone\.xml {2}404 {2}error: HTTP 404 Not Found\n/);
    assert.match(out, /\n\/old-sitemap\.xml → \/current\.xml {2}200 {2}urlset, 1 URL/);
    assert.match(out, /\n\/slow\.xml {2}--- {2}error: no response within 400 ms {2}\(robots\)\n/);
    assert.match(out, /\n\/sitemap\.txt {2}200 {2}text, 2 URLs {2}\d+ B {2}\(well-known\)\n/);
    assert.match(out, /\nFound 11 sitemaps listing 12 URLs; 4 files could not be read\.\n$/);
    assert.equal(result.stderr, '');
  });

  test('--json: the whole tree as one JSON object', async () => {
    const result = await runCli(['discover', site.origin, '--json', ...NET], { cwd });
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as DiscoveryReport;
    assert.deepEqual(report.totals, { sitemaps: 11, urls: 12, failed: 4 });
    assert.equal(report.sitemaps[0]?.sitemaps.length, 6);
    assert.deepEqual(report.robots.diagnostics.map((d) => d.rule), ['R27']);
  });

  test('--urls: every page URL on stdout (text by default), the tree on stderr', async () => {
    const result = await runCli(['discover', site.origin, '--urls', ...NET], { cwd });
    const urls = result.stdout.trimEnd().split('\n').map((u) => u.replace(site.origin, ''));
    assert.equal(urls.length, 12);
    assert.ok(urls.includes('/posts/second') && urls.includes('/text/one') && urls.includes('/deep/page'));
    assert.match(result.stderr, /Found 11 sitemaps listing 12 URLs/);
  });

  test('--urls ndjson and csv: records that `build` reads back; exit 0 when everything was read', async () => {
    const ndjson = await runCli(['discover', tidy.origin, '--urls', 'ndjson'], { cwd });
    assert.equal(ndjson.code, 0, ndjson.stderr);
    assert.deepEqual(ndjson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown), [
      { loc: `${tidy.origin}/a,b?q="x"`, lastmod: '2026-01-02', priority: '0.5' },
      { loc: `${tidy.origin}/plain` },
    ]);
    const csv = await runCli(['discover', tidy.origin, '--urls', 'csv'], { cwd });
    assert.equal(csv.code, 0);
    assert.equal(csv.stdout, `loc,lastmod,changefreq,priority\n"${tidy.origin}/a,b?q=""x""",2026-01-02,,0.5\n${tidy.origin}/plain,,,\n`);
    assert.match(csv.stderr, /\/sitemap\.xml {2}200 {2}urlset, 2 URLs .*\(well-known\)\nFound 1 sitemap listing 2 URLs\.\n$/);
  });

  test('a progress bar on a terminal (stderr), cleared at the end; none when page URLs stream to the same terminal, or with --no-progress', async () => {
    const plain = await runCli(['discover', site.origin, ...NET], { cwd });
    const shown = await runCli(['discover', site.origin, ...NET], { cwd, tty: 'stderr' });
    assert.equal(shown.code, 1);
    assert.equal(shown.stdout, plain.stdout);
    // The last frame: every file done (the usual paths probed and found empty count too) and the totals of the tree; then the line is cleared.
    assert.match(shown.stderr, /█ 19\/19 files \| 12 URLs \| 4 failed\u001b\[0K/);
    assert.ok(shown.stderr.endsWith('\u001b[2K'), JSON.stringify(shown.stderr.slice(-40)));
    const urls = await runCli(['discover', site.origin, '--urls', ...NET], { cwd, tty: 'both' });
    assert.doesNotMatch(urls.stderr, /files \|/);
    assert.equal(urls.stdout.trimEnd().split('\n').length, 12);
    const off = await runCli(['discover', site.origin, '--no-progress', ...NET], { cwd, tty: 'stderr' });
    assert.equal(off.stderr, '');
  });

  test('nothing found: exit 1 and a plain sentence', async () => {
    const empty = await startServer((_request, response) => response.writeHead(404).end());
    try {
      const result = await runCli(['discover', empty.origin], { cwd });
      assert.equal(result.code, 1);
      assert.match(result.stdout, /robots\.txt: HTTP 404, none\nNo sitemaps found in robots\.txt or at the usual paths\.\n$/);
    } finally {
      await empty.close();
    }
  });

  test('usage errors exit 2', async () => {
    assert.equal((await runCli(['discover'], { cwd })).code, 2);
    assert.equal((await runCli(['discover', tidy.origin, '--urls', 'xml'], { cwd })).code, 2);
    const both = await runCli(['discover', tidy.origin, '--urls', '--json'], { cwd });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--json and --urls both write to standard output/);
    assert.equal((await runCli(['discover', 'ftp://example.com/'], { cwd })).code, 2);
    assert.equal((await runCli(['discover', tidy.origin, '--concurrency', '0'], { cwd })).code, 2);
  });
});

import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { after, before, describe, test } from 'node:test';
import type { DiscoveryReport } from '../../src/discover/discover.ts';
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
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/a,b?q=x</loc><lastmod>2026-01-02</lastmod><priority>0.5</priority></url><url><loc>${origin}/plain</loc></url></urlset>`,
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
    assert.match(out, /\n│ {2}└─ \/loop-b\.xml {2}200 {2}sitemapindex, 2 sitemaps, 0 followed {2}\d+ B {2}3 findings\n│ {8}R22 warn: an index listed by another index/);
    assert.match(out, /\n├─ \/nested-index\.xml {2}200 {2}sitemapindex, 2 sitemaps, 1 followed {2}/);
    assert.match(out, /\n└─ \/gone\.xml {2}404 {2}error: HTTP 404 Not Found\n/);
    assert.match(out, /\n\/old-sitemap\.xml → \/current\.xml {2}200 {2}urlset, 1 URL/);
    assert.match(out, /\n\/slow\.xml {2}--- {2}error: no response within 400 ms {2}\(robots\)\n/);
    assert.match(out, /\n\/sitemap\.txt {2}200 {2}text, 2 URLs {2}\d+ B {2}\(well-known\)\n/);
    assert.match(out, /\nFound 11 sitemaps listing 12 URLs; 4 files could not be read\.\n$/);
    assert.equal(result.stderr, '');
  });

  test('robots.txt and a sitemap cut off part way: each shows what was read of it, then the failure', async () => {
    const server = await startServer((request, response, origin) => {
      const cutOff = (text: string): void => {
        response.writeHead(200, { 'content-length': '100000' });
        response.write(text);
        setTimeout(() => response.destroy(), 20);
      };
      if (request.url === '/robots.txt') cutOff(`Sitemap: ${origin}/sitemap.xml\nSitemap: ${origin}/oth`);
      else if (request.url === '/sitemap.xml') cutOff(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/a</loc></url><url><loc>${origin}/b</loc></url><url><loc>`);
      else response.writeHead(404).end();
    });
    try {
      const result = await runCli(['discover', server.origin, ...NET], { cwd });
      assert.equal(result.code, 1);
      assert.match(result.stdout, /\nrobots\.txt: 1 Sitemap: line, then error: .*robots\.txt: body not read to the end: terminated: other side closed\n {2}FETCH warn: robots\.txt read only in part: /);
      assert.match(result.stdout, /\n\/sitemap\.xml {2}200 {2}urlset, 2 URLs {2}\d+ B {2}then error: .*sitemap\.xml: body not read to the end: terminated: other side closed {2}\(robots\)\n/);
      assert.match(result.stdout, /\nFound 0 sitemaps listing 2 URLs; 1 file could not be read\.\n$/);
    } finally {
      await server.close();
    }
  });

  test('--json: the whole tree as one JSON object', async () => {
    const result = await runCli(['discover', site.origin, '--json', ...NET], { cwd });
    assert.equal(result.code, 1);
    const report = JSON.parse(result.stdout) as DiscoveryReport;
    assert.deepEqual(report.totals, { sitemaps: 11, urls: 12, failed: 4, invalid: 0 });
    assert.equal(report.sitemaps[0]?.sitemaps.length, 6);
    assert.deepEqual(report.robots.diagnostics.map((d) => d.rule), ['R27']);
  });

  test('--urls: every page URL on stdout (text by default), the tree on stderr', async () => {
    const result = await runCli(['discover', site.origin, '--urls', ...NET], { cwd });
    const urls = result.stdout.trimEnd().split('\n').map((u) => u.replace(site.origin, ''));
    assert.equal(urls.length, 12);
    // In the order the files came in, which may vary: compared sorted.
    assert.deepEqual(urls.toSorted(), ['/', '/about', '/after-a-retry', '/contact', '/deep/page', '/moved/here', '/news/today', '/news/yesterday', '/posts/first', '/posts/second', '/text/one', '/text/two']);
    assert.match(result.stderr, /Found 11 sitemaps listing 12 URLs/);
  });

  test('--urls ndjson and csv: records that `build` reads back; exit 0 when everything was read', async () => {
    const ndjson = await runCli(['discover', tidy.origin, '--urls', 'ndjson'], { cwd });
    assert.equal(ndjson.code, 0, ndjson.stderr);
    assert.deepEqual(ndjson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown), [
      { loc: `${tidy.origin}/a,b?q=x`, lastmod: '2026-01-02', priority: '0.5' },
      { loc: `${tidy.origin}/plain` },
    ]);
    const csv = await runCli(['discover', tidy.origin, '--urls', 'csv'], { cwd });
    assert.equal(csv.code, 0);
    assert.equal(csv.stdout, `loc,lastmod,changefreq,priority\n"${tidy.origin}/a,b?q=x",2026-01-02,,0.5\n${tidy.origin}/plain,,,\n`);
    assert.match(csv.stderr, /\/sitemap\.xml {2}200 {2}urlset, 2 URLs .*\(well-known\)\nFound 1 sitemap listing 2 URLs\.\n$/);
  });

  test('exit 1 when a sitemap that was read has errors, which the summary and --json count; the page URLs are still printed', async () => {
    // One clean file, one with a bare & (an error the reader recovers from).
    const broken = await startServer((request, response, origin) => {
      if (request.url === '/robots.txt') return void response.writeHead(200).end(`Sitemap: ${origin}/clean.xml\nSitemap: ${origin}/broken.xml\n`);
      const body: Record<string, string> = {
        '/clean.xml': `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/a</loc></url></urlset>`,
        '/broken.xml': `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/b?x=1&y=2</loc></url></urlset>`,
      };
      const xml = body[request.url ?? ''];
      if (xml === undefined) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/xml' }).end(xml);
    });
    try {
      const tree = await runCli(['discover', broken.origin], { cwd });
      assert.equal(tree.code, 1, tree.stderr);
      assert.match(tree.stdout, /\/broken\.xml {2}200 {2}urlset, 1 URL {2}\d+ B {2}1 finding {2}\(robots\)\n {3}R2 error: not well-formed XML: "&" .*; read literally, write &amp; \(line 1, column \d+\)\n/);
      assert.match(tree.stdout, /\nFound 2 sitemaps listing 2 URLs; 1 sitemap has errors\.\n$/);
      const json = await runCli(['discover', broken.origin, '--json'], { cwd });
      assert.equal(json.code, 1);
      const report = JSON.parse(json.stdout) as DiscoveryReport;
      assert.deepEqual(report.totals, { sitemaps: 2, urls: 2, failed: 0, invalid: 1 });
      assert.deepEqual(report.sitemaps.map((node) => [node.url.replace(broken.origin, ''), node.errors]), [['/clean.xml', 0], ['/broken.xml', 1]]);
      const urls = await runCli(['discover', broken.origin, '--urls'], { cwd });
      assert.equal(urls.code, 1);
      assert.equal(urls.stdout, `${broken.origin}/a\n${broken.origin}/b?x=1&y=2\n`);
    } finally {
      await broken.close();
    }
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
    assert.equal((await runCli(['discover', tidy.origin, '--max-bytes', '900000000'], { cwd })).code, 2);
    // No file at all would read nothing and then say nothing was found.
    assert.deepEqual(await runCli(['discover', tidy.origin, '--max-sitemaps', '0'], { cwd }), { code: 2, stdout: '', stderr: 'sitemapkit: maxSitemaps (--max-sitemaps) must be a whole number ≥ 1, got 0\n' });
    // Past what a timer can hold: one sentence, not a RangeError from deep inside.
    const overflow = await runCli(['discover', tidy.origin, '--timeout', '99999999999999'], { cwd });
    assert.deepEqual([overflow.code, overflow.stderr], [2, 'sitemapkit: timeout must be a whole number of milliseconds from 1 to 2147483647, got 99999999999999\n']);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { discoverSitemaps, type DiscoveredSitemap, type DiscoverOptions, type DiscoverProgress, type DiscoveryReport } from '../../src/discover/discover.ts';
import { MAX_ROBOTS_BYTES } from '../../src/read/parse.ts';
import { fixture, startFixtureSite } from '../helpers/fixture-site.ts';
import { startServer, type TestServer } from '../helpers/http-server.ts';

/** Retries without waiting; a short timeout for the file that never answers. */
const QUICK: DiscoverOptions = { timeoutMs: 500, retries: 1, sleep: async () => {} };

/** [path, status, kind, page URLs, children?] per file, so a whole tree fits in one assertion. */
type Shape = [string, number | null, string, number, Shape[]?];
function shape(nodes: readonly DiscoveredSitemap[], origin: string): Shape[] {
  return nodes.map((n) => {
    const row: Shape = [n.url.replace(origin, ''), n.status ?? null, n.kind, n.urls];
    if (n.sitemaps.length > 0) row.push(shape(n.sitemaps, origin));
    return row;
  });
}

function find(report: DiscoveryReport, path: string): DiscoveredSitemap {
  const walk = (nodes: readonly DiscoveredSitemap[]): DiscoveredSitemap | undefined => {
    for (const node of nodes) {
      if (new URL(node.url).pathname === path) return node;
      const below = walk(node.sitemaps);
      if (below !== undefined) return below;
    }
    return undefined;
  };
  const node = walk(report.sitemaps);
  assert.ok(node !== undefined, `${path} is in the tree`);
  return node;
}

const rules = (node: { diagnostics: { rule: string; level: string }[] }): string[] => node.diagnostics.map((d) => `${d.rule}:${d.level}`);

describe('discoverSitemaps on the fixture site', () => {
  let site: TestServer;
  let report: DiscoveryReport;
  const pages: { loc: string; from: string }[] = [];
  const progress: DiscoverProgress[] = [];

  before(async () => {
    site = await startFixtureSite();
    report = await discoverSitemaps(`${site.origin}/some/page?x=1`, {
      ...QUICK,
      onProgress: (p) => progress.push(p),
      // An async consumer: discovery waits for it.
      onUrl: async (record, sitemap) => {
        await new Promise((resolve) => setImmediate(resolve));
        pages.push({ loc: record.loc.replace(site.origin, ''), from: sitemap.url.replace(site.origin, '') });
      },
    });
  });
  after(() => site.close());

  test('progress: counts only grow, and the last report has every file done and the totals of the tree', () => {
    assert.ok(progress.length > 3);
    for (const [i, p] of progress.entries()) {
      const before = progress[i - 1] ?? { files: 0, done: 0, failed: 0, urls: 0 };
      assert.ok(p.files >= before.files && p.done >= before.done && p.failed >= before.failed && p.urls >= before.urls, JSON.stringify([before, p]));
      assert.ok(p.done <= p.files);
    }
    const last = progress.at(-1);
    assert.equal(last?.done, last?.files);
    // Every file of the tree (11 sitemaps read, 4 failed), and 4 of the usual paths probed and found empty besides.
    assert.deepEqual(last, { files: 19, done: 19, failed: 4, urls: 12 });
    assert.deepEqual([report.totals.sitemaps, report.totals.failed, report.totals.urls], [11, 4, 12]);
  });

  test('the tree: robots.txt entries in file order, then well-known finds, children under their index', () => {
    assert.equal(report.site, `${site.origin}/`);
    assert.deepEqual(shape(report.sitemaps, site.origin), [
      ['/sitemap_index.xml', 200, 'sitemapindex', 0, [
        ['/pages.xml', 200, 'urlset', 3],
        ['/posts.xml.gz', 200, 'urlset', 2],
        ['/news.xml', 200, 'urlset', 2],
        ['/nested-index.xml', 200, 'sitemapindex', 0, [['/deep.xml', 200, 'urlset', 1]]],
        ['/loop-a.xml', 200, 'sitemapindex', 0, [['/loop-b.xml', 200, 'sitemapindex', 0]]],
        ['/gone.xml', 404, 'unknown', 0],
      ]],
      ['/old-sitemap.xml', 200, 'urlset', 1],
      ['/missing.xml', 404, 'unknown', 0],
      ['/redirect-loop.xml', 308, 'unknown', 0],
      ['/flaky.xml', 200, 'urlset', 1],
      ['/slow.xml', null, 'unknown', 0],
      ['/sitemap.txt', 200, 'text', 2],
    ]);
    assert.deepEqual(report.sitemaps.map((n) => n.via), ['robots', 'robots', 'robots', 'robots', 'robots', 'robots', 'well-known']);
    assert.deepEqual(report.totals, { sitemaps: 11, urls: 12, failed: 4, invalid: 0 });
  });

  test('robots.txt: Sitemap: lines from every group, case-insensitive, repeats dropped, a relative one resolved with R27', () => {
    assert.equal(report.robots.status, 200);
    assert.deepEqual(report.robots.sitemaps.map((u) => u.replace(site.origin, '')), ['/sitemap_index.xml', '/old-sitemap.xml', '/missing.xml', '/redirect-loop.xml', '/flaky.xml', '/slow.xml']);
    assert.deepEqual(rules(report.robots), ['R27:warn']);
    assert.match(report.robots.diagnostics[0]?.message ?? '', /should be absolute: \/old-sitemap\.xml/);
  });

  test('every page URL reaches onUrl once, with the file that lists it', () => {
    assert.equal(pages.length, report.totals.urls);
    const fromPages = pages.filter((p) => p.from === '/pages.xml').map((p) => p.loc);
    assert.deepEqual(fromPages, ['/', '/about', '/contact']);
    assert.deepEqual(pages.map((p) => p.loc).sort(), ['/', '/about', '/after-a-retry', '/contact', '/deep/page', '/moved/here', '/news/today', '/news/yesterday', '/posts/first', '/posts/second', '/text/one', '/text/two']);
  });

  test('gzip served raw (application/gzip) is unwrapped by its bytes; Content-Encoding gzip is undone in transit', () => {
    const raw = find(report, '/posts.xml.gz');
    assert.equal(raw.compressed, true);
    assert.equal(raw.bytes, gunzipSync(fixture('posts.xml.gz')).toString().replaceAll('http://site.test', site.origin).length);
    const encoded = find(report, '/news.xml');
    assert.equal(encoded.compressed, false);
    assert.equal(encoded.urls, 2);
  });

  test('nested indexes are followed with R22, an index loop is cut with R22, a repeat is read once with R25', () => {
    assert.deepEqual(rules(find(report, '/nested-index.xml')), ['R22:warn', 'R25:warn']);
    assert.match(find(report, '/nested-index.xml').diagnostics[1]?.message ?? '', /pages\.xml is listed more than once/);
    const loopB = find(report, '/loop-b.xml');
    assert.deepEqual(rules(loopB), ['R22:warn', 'R22:warn', 'R22:warn']);
    assert.deepEqual(loopB.diagnostics.slice(1).map((d) => d.url?.replace(site.origin, '')), ['/loop-a.xml', '/sitemap_index.xml']);
    assert.equal(site.count('/loop-a.xml'), 1);
    assert.equal(site.count('/loop-b.xml'), 1);
    assert.equal(site.count('/pages.xml'), 1);
  });

  test('redirects: a chain is followed and recorded, a loop is a FETCH error', () => {
    const moved = find(report, '/old-sitemap.xml');
    assert.equal(moved.finalUrl, `${site.origin}/current.xml`);
    assert.deepEqual(moved.redirects, [`${site.origin}/moved/sitemap.xml`, `${site.origin}/current.xml`]);
    const loop = find(report, '/redirect-loop.xml');
    assert.match(loop.error ?? '', /^redirect loop: /);
    assert.deepEqual(rules(loop), ['FETCH:error']);
    assert.equal(site.count('/redirect-loop.xml'), 1);
  });

  test('404s, a timeout and a 500 that succeeds on retry', () => {
    assert.equal(find(report, '/missing.xml').error, 'HTTP 404 Not Found');
    assert.deepEqual(rules(find(report, '/gone.xml')), ['FETCH:error']);
    assert.match(find(report, '/slow.xml').error ?? '', /no response within 500 ms/);
    assert.equal(site.count('/slow.xml'), 2);
    const flaky = find(report, '/flaky.xml');
    assert.equal(flaky.error, undefined);
    assert.equal(site.count('/flaky.xml'), 2);
  });

  test('well-known probes: 404s and an HTML soft 404 are not shown; a redirect into a listed index is not read twice', () => {
    for (const path of ['/sitemap.xml', '/sitemap-index.xml', '/sitemap.xml.gz', '/wp-sitemap.xml']) {
      assert.equal(site.count(path), 1, `${path} probed once`);
    }
    // robots.txt lists /sitemap_index.xml, so it is not probed; /sitemap.xml redirects to it.
    assert.equal(site.count('/sitemap_index.xml'), 2);
    assert.equal(report.sitemaps.filter((n) => n.url.endsWith('/sitemap_index.xml')).length, 1);
    assert.equal(report.sitemaps.filter((n) => n.via === 'well-known').length, 1);
  });
});

describe('discoverSitemaps limits', () => {
  let site: TestServer;
  before(async () => {
    site = await startFixtureSite();
  });
  after(() => site.close());
  const noSlowFiles = { ...QUICK, timeoutMs: 200, retries: 0 };

  test('maxDepth 1: indexes below the first level are listed but their children not read (R22)', async () => {
    const report = await discoverSitemaps(site.origin, { ...noSlowFiles, maxDepth: 1 });
    const nested = find(report, '/nested-index.xml');
    assert.deepEqual(nested.sitemaps, []);
    assert.match(nested.diagnostics.find((d) => d.rule === 'R22' && /not followed/.test(d.message))?.message ?? '', /2 listed sitemaps not followed: nesting deeper than 1 levels/);
    assert.deepEqual(find(report, '/loop-a.xml').sitemaps, []);
  });

  test('maxSitemaps: the budget stops reading, with a diagnostic where it cut; probes count only when they find a sitemap', async () => {
    const report = await discoverSitemaps(site.origin, { ...noSlowFiles, maxSitemaps: 3 });
    assert.deepEqual(shape(report.sitemaps, site.origin).map((row) => row[0]), ['/sitemap_index.xml', '/old-sitemap.xml', '/missing.xml']);
    assert.deepEqual(
      report.robots.diagnostics.filter((d) => d.rule === 'FETCH').map((d) => d.message),
      ['3 listed sitemaps not read: the limit of 3 sitemaps was reached'],
    );
    const index = find(report, '/sitemap_index.xml');
    assert.deepEqual([index.sitemaps, index.listed], [[], 6]);
    assert.deepEqual(rules(index), ['FETCH:warn']);
    assert.match(index.diagnostics[0]?.message ?? '', /6 listed sitemaps not read: the limit of 3 sitemaps/);
    await assert.rejects(discoverSitemaps(site.origin, { maxSitemaps: 0 }), { code: 'SM_BAD_OPTION' });

    // Five probes find nothing new (404s, a soft 404, a redirect to a file read already): none is counted, and the one that finds /sitemap.txt is.
    const withRoom = await discoverSitemaps(site.origin, { ...noSlowFiles, maxSitemaps: 7 });
    assert.deepEqual(withRoom.sitemaps.map((n) => [n.url.replace(site.origin, ''), n.via]).slice(-1), [['/sitemap.txt', 'well-known']]);
    assert.equal(withRoom.sitemaps.length, 7);
    assert.deepEqual(rules(find(withRoom, '/sitemap_index.xml')).filter((rule) => rule === 'FETCH:warn'), ['FETCH:warn']);
    assert.match(find(withRoom, '/sitemap_index.xml').diagnostics.find((d) => d.rule === 'FETCH')?.message ?? '', /6 listed sitemaps not read: the limit of 7 sitemaps/);
  });

  test('maxBytes: a file over the cap is read up to it and reported by the parser, not a transport failure', async () => {
    const report = await discoverSitemaps(site.origin, { ...noSlowFiles, maxBytes: 200 });
    const pages = find(report, '/pages.xml');
    assert.equal(pages.bytes, 200);
    assert.equal(pages.error, undefined);
    // Cut inside a <loc>: the cap, and the element it left open.
    assert.deepEqual(rules(pages), ['INPUT:error', 'R2:error']);
  });
});

describe('discoverSitemaps edge cases', () => {
  test('no robots.txt: a sitemap at a well-known path is found; a gzip bomb stops at maxBytes', async () => {
    const bomb = gzipSync(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${' '.repeat(20 * 1024 * 1024)}</urlset>`);
    const server = await startServer((request, response, origin) => {
      if (request.url === '/sitemap.xml') response.writeHead(200).end(fixture('pages.xml').toString().replaceAll('http://site.test', origin));
      else if (request.url === '/sitemap.xml.gz') response.writeHead(200, { 'content-type': 'application/gzip' }).end(bomb);
      else response.writeHead(404).end();
    });
    try {
      const report = await discoverSitemaps(server.origin, { ...QUICK, maxBytes: 100_000 });
      assert.equal(report.robots.status, 404);
      assert.equal(report.robots.error, undefined);
      assert.deepEqual(shape(report.sitemaps, server.origin), [['/sitemap.xml', 200, 'urlset', 3], ['/sitemap.xml.gz', 200, 'urlset', 0]]);
      assert.ok(report.sitemaps.every((n) => n.via === 'well-known'));
      const gz = find(report, '/sitemap.xml.gz');
      assert.equal(gz.bytes, 100_000);
      assert.deepEqual(rules(gz), ['INPUT:error', 'R2:error']);
    } finally {
      await server.close();
    }
  });

  test('nothing anywhere: an empty tree, no errors', async () => {
    const server = await startServer((_request, response) => response.writeHead(404).end());
    try {
      const report = await discoverSitemaps(server.origin, QUICK);
      assert.deepEqual(report.sitemaps, []);
      assert.deepEqual(report.totals, { sitemaps: 0, urls: 0, failed: 0, invalid: 0 });
      assert.deepEqual(report.robots.diagnostics, []);
    } finally {
      await server.close();
    }
  });

  test('injected fetch: robots.txt with BOM and CRLF, a cross-host Sitemap (R18), and two redirects racing to one file', async () => {
    const served = new Map<string, () => Promise<Response>>([
      ['https://shop.example/robots.txt', async () => new Response('\uFEFFUser-agent: *\r\nSitemap: https://cdn.example.net/shop.xml\r\nSitemap: https://shop.example/a.xml\r\nSitemap: https://shop.example/b.xml\r\n')],
      ['https://cdn.example.net/shop.xml', async () => new Response(fixture('pages.xml'))],
      // a.xml answers last, but is listed first: it reads the shared target, b.xml gets R25.
      ['https://shop.example/a.xml', () => new Promise((resolve) => setTimeout(() => resolve(new Response(null, { status: 301, headers: { location: '/shared.xml' } })), 30))],
      ['https://shop.example/b.xml', async () => new Response(null, { status: 301, headers: { location: '/shared.xml' } })],
      ['https://shop.example/shared.xml', async () => new Response(fixture('deep.xml'))],
    ]);
    const requested: string[] = [];
    const fake: typeof fetch = async (input) => {
      requested.push(String(input));
      return (served.get(String(input)) ?? (async () => new Response('', { status: 404 })))();
    };
    const report = await discoverSitemaps('https://shop.example', { ...QUICK, fetch: fake, wellKnownPaths: [] });
    assert.deepEqual(report.robots.sitemaps, ['https://cdn.example.net/shop.xml', 'https://shop.example/a.xml', 'https://shop.example/b.xml']);
    assert.deepEqual(rules(report.robots), ['R18:info']);
    assert.deepEqual(shape(report.sitemaps, 'https://shop.example'), [
      ['https://cdn.example.net/shop.xml', 200, 'urlset', 3],
      ['/a.xml', 200, 'urlset', 1],
      ['/b.xml', 200, 'unknown', 0],
    ]);
    assert.deepEqual(rules(find(report, '/b.xml')), ['R25:warn']);
    assert.ok(requested.every((url) => url.startsWith('https://')));
  });

  test('a probed path answering with one line of text that is no URL ("404 Not Found") is a soft 404, not a sitemap with errors; listed, it is shown', async () => {
    const text = (body: string) => async (): Promise<Response> => new Response(body, { headers: { 'content-type': 'text/plain' } });
    const notFound = text('404 Not Found\n');
    const served = new Map<string, () => Promise<Response>>([
      ['https://shop.example/sitemap.xml', async () => new Response(fixture('pages.xml'))],
      ['https://shop.example/sitemap.txt', notFound],
      ['https://shop.example/listed.txt', notFound],
    ]);
    const fake: typeof fetch = async (input) => (served.get(String(input)) ?? (async () => new Response('', { status: 404 })))();
    const probed = await discoverSitemaps('https://shop.example', { ...QUICK, fetch: fake, wellKnownPaths: ['/sitemap.xml', '/sitemap.txt'] });
    // Before, it was a text sitemap with an R30 error: '1 sitemap has errors', and discover exited 1.
    assert.deepEqual(shape(probed.sitemaps, 'https://shop.example'), [['/sitemap.xml', 200, 'urlset', 3]]);
    assert.equal(probed.totals.invalid, 0);
    // A list of relative paths is a broken sitemap, not a soft 404: shown, with its errors.
    served.set('https://shop.example/sitemap.txt', text('/about\n/contact\n/shop\n'));
    const paths = await discoverSitemaps('https://shop.example', { ...QUICK, fetch: fake, wellKnownPaths: ['/sitemap.txt'] });
    assert.deepEqual(shape(paths.sitemaps, 'https://shop.example'), [['/sitemap.txt', 200, 'text', 0]]);
    assert.equal(paths.totals.invalid, 1);
    served.set('https://shop.example/robots.txt', async () => new Response('Sitemap: https://shop.example/listed.txt\n'));
    const listed = await discoverSitemaps('https://shop.example', { ...QUICK, fetch: fake, wellKnownPaths: [] });
    assert.deepEqual(shape(listed.sitemaps, 'https://shop.example'), [['/listed.txt', 200, 'text', 0]]);
    assert.equal(listed.totals.invalid, 1);
    // An error object served as JSON, over several lines, at every probed path: no sitemap there either.
    const json = async (): Promise<Response> => new Response('{\n  "error": "Not Found",\n  "status": 404\n}\n', { headers: { 'content-type': 'application/json' } });
    for (const path of ['/sitemap.txt', '/sitemap.xml']) served.set(`https://shop.example${path}`, json);
    served.delete('https://shop.example/robots.txt');
    const catchAll = await discoverSitemaps('https://shop.example', { ...QUICK, fetch: fake, wellKnownPaths: ['/sitemap.xml', '/sitemap.txt'] });
    assert.deepEqual([catchAll.sitemaps, catchAll.totals.invalid], [[], 0]);
  });

  test('an index listing itself, another scheme and a relative path: a loop, a skip, a resolved fetch', async () => {
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://shop.example/index.xml</loc></sitemap>
      <sitemap><loc>ftp://shop.example/files.xml</loc></sitemap>
      <sitemap><loc>child.xml</loc></sitemap>
    </sitemapindex>`;
    const fake: typeof fetch = async (input) => {
      const url = String(input);
      if (url === 'https://shop.example/index.xml') return new Response(index);
      if (url === 'https://shop.example/child.xml') return new Response(fixture('deep.xml'));
      return new Response('', { status: 404 });
    };
    const report = await discoverSitemaps('https://shop.example/', { ...QUICK, fetch: fake, wellKnownPaths: ['/index.xml'] });
    assert.deepEqual(shape(report.sitemaps, 'https://shop.example'), [['/index.xml', 200, 'sitemapindex', 0, [['/child.xml', 200, 'urlset', 1]]]]);
    const own = find(report, '/index.xml').diagnostics.filter((d) => d.rule === 'R22' || d.rule === 'FETCH');
    assert.deepEqual(own.map((d) => [d.rule, d.url]), [['R22', 'https://shop.example/index.xml'], ['FETCH', 'ftp://shop.example/files.xml']]);
  });

  test('transport failures: robots.txt answering 500 or dropping its body is a warning and the well-known paths are still tried; a sitemap cut off keeps the URLs before the cut', async () => {
    const dropping = (text: string): ReadableStream<Uint8Array> =>
      new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode(text)),
        pull: (controller) => controller.error(new TypeError('terminated', { cause: new Error('other side closed') })),
      });
    const urls = Array.from({ length: 3 }, (_, n) => `<url><loc>https://shop.example/p/${n}</loc></url>`).join('');
    const urlset = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}`;
    let robots = (): Response => new Response('down', { status: 500 });
    const fake: typeof fetch = async (input) => {
      const url = String(input);
      if (url === 'https://shop.example/robots.txt') return robots();
      if (url === 'https://shop.example/sitemap.xml') return new Response(`${urlset}</urlset>`);
      if (url === 'https://shop.example/cut.xml') return new Response(dropping(`${urlset}<url><loc>https://shop.exa`));
      return new Response('', { status: 404 });
    };
    const options: DiscoverOptions = { ...QUICK, fetch: fake, wellKnownPaths: ['/sitemap.xml'] };

    const down = await discoverSitemaps('https://shop.example', options);
    assert.deepEqual(down.robots.diagnostics.map((d) => [d.rule, d.level, d.message]), [['FETCH', 'warn', 'robots.txt not read: HTTP 500']]);
    assert.deepEqual(shape(down.sitemaps, 'https://shop.example'), [['/sitemap.xml', 200, 'urlset', 3]]);

    // Its whole lines before the drop are used; the line the drop broke is not.
    robots = () => new Response(dropping('User-agent: *\nSitemap: https://shop.example/sitemap.xml\nSitemap: https://shop.example/cut.x'));
    const dropped = await discoverSitemaps('https://shop.example', { ...options, wellKnownPaths: [] });
    assert.deepEqual(dropped.robots.diagnostics.map((d) => [d.rule, d.level, d.message.replace(/:.*/, '')]), [['FETCH', 'warn', 'robots.txt read only in part']]);
    assert.match(dropped.robots.error ?? '', /robots\.txt: body not read to the end: terminated: other side closed/);
    assert.deepEqual(dropped.robots.sitemaps, ['https://shop.example/sitemap.xml']);
    assert.deepEqual(shape(dropped.sitemaps, 'https://shop.example'), [['/sitemap.xml', 200, 'urlset', 3]]);

    // Over the size cap (512 KiB): the lines before it, not the one it cuts, and a warning.
    const filler = `# ${'é'.repeat(49)}\n`.repeat(Math.floor(MAX_ROBOTS_BYTES / 101));
    robots = () => new Response(`Sitemap: https://shop.example/sitemap.xml\n${filler}Sitemap: https://shop.example/inside.xml\n${'#'.repeat(200)}\nSitemap: https://shop.example/past.xml\n`);
    const large = await discoverSitemaps('https://shop.example', { ...options, wellKnownPaths: [] });
    assert.deepEqual(rules(large.robots), ['R27:warn']);
    assert.match(large.robots.diagnostics[0]?.message ?? '', /robots\.txt is larger than 524288 bytes; the rest is not read/);
    assert.equal(large.robots.error, undefined);
    assert.deepEqual(large.robots.sitemaps, ['https://shop.example/sitemap.xml', 'https://shop.example/inside.xml']);

    robots = () => new Response('Sitemap: ftp://shop.example/files.xml\nSitemap: https://shop.example/cut.xml\n');
    const cut = await discoverSitemaps('https://shop.example', options);
    assert.deepEqual(rules(cut.robots), ['R27:warn']);
    assert.deepEqual(cut.robots.sitemaps, ['https://shop.example/cut.xml']);
    assert.deepEqual(shape(cut.sitemaps, 'https://shop.example'), [['/cut.xml', 200, 'urlset', 3], ['/sitemap.xml', 200, 'urlset', 3]]);
    const node = find(cut, '/cut.xml');
    assert.deepEqual(rules(node), ['FETCH:error']);
    assert.match(node.error ?? '', /cut\.xml: body not read to the end: terminated: other side closed/);
    assert.deepEqual(cut.totals, { sitemaps: 1, urls: 6, failed: 1, invalid: 0 });
  });

  test('every file read is checked as validate checks it (values, duplicates, counts), but for scope', async () => {
    const url = (loc: string, more = ''): string => `<url><loc>${loc}</loc>${more}</url>`;
    const broken = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
      url('https://shop.example/a', '<lastmod>2024-13-45</lastmod><changefreq>Daily</changefreq><priority>5</priority>'),
      url('ftp://shop.example/b'),
      url('https://elsewhere.example/c'),
      url('https://shop.example/a'),
    ].join('')}</urlset>`;
    const large = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: 50_001 }, (_, n) => url(`https://shop.example/p/${n}`)).join('')}</urlset>`;
    const served = new Map([
      ['https://shop.example/robots.txt', 'Sitemap: https://shop.example/broken.xml\nSitemap: https://shop.example/large.xml\n'],
      ['https://shop.example/broken.xml', broken],
      ['https://shop.example/large.xml', large],
    ]);
    const fake: typeof fetch = async (input) => {
      const body = served.get(String(input));
      return body === undefined ? new Response('', { status: 404 }) : new Response(body);
    };
    const report = await discoverSitemaps('https://shop.example', { ...QUICK, fetch: fake, wellKnownPaths: [] });
    assert.deepEqual(find(report, '/broken.xml').diagnostics.map((d) => [d.rule, d.level, d.url]), [
      ['R11', 'error', 'https://shop.example/a'],
      ['R13', 'error', 'https://shop.example/a'],
      ['R14', 'error', 'https://shop.example/a'],
      ['R8', 'error', 'ftp://shop.example/b'],
      ['R25', 'warn', 'https://shop.example/a'],
    ]);
    assert.deepEqual(rules(find(report, '/large.xml')), ['R15:error']);
    assert.deepEqual(report.totals, { sitemaps: 2, urls: 50_005, failed: 0, invalid: 2 });
  });

  test("a file's findings are the first in file order, with their place, however the network cut the body; an index's repeats are said once", async () => {
    const entries = Array.from({ length: 200 }, (_, n) => `<url><loc>/rel/${n}</loc><lastmod>2024-13-01</lastmod></url>`).join('\n');
    const body = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<!-- ${'x'.repeat(9_000)} -->\n${entries}\n</urlset>`);
    const index = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://shop.example/a.xml</loc></sitemap><sitemap><loc>https://shop.example/a.xml</loc></sitemap></sitemapindex>';
    const inPieces = (size: number): ReadableStream<Uint8Array> =>
      new ReadableStream({
        start(controller) {
          for (let at = 0; at < body.length; at += size) controller.enqueue(body.slice(at, at + size));
          controller.close();
        },
      });
    const findings = async (size: number): Promise<DiscoveryReport> => {
      const fake: typeof fetch = async (input) => {
        const url = String(input);
        if (url === 'https://shop.example/robots.txt') return new Response('Sitemap: https://shop.example/index.xml\n');
        if (url === 'https://shop.example/index.xml') return new Response(index);
        if (url === 'https://shop.example/a.xml') return new Response(inPieces(size));
        return new Response('', { status: 404 });
      };
      return discoverSitemaps('https://shop.example', { ...QUICK, fetch: fake, wellKnownPaths: [], maxDiagnostics: 10 });
    };
    const whole = await findings(body.length);
    const a = find(whole, '/a.xml');
    assert.deepEqual(a.diagnostics.map((d) => `${d.rule} ${d.line}`).slice(0, 4), ['R8 3', 'R11 3', 'R8 4', 'R11 4']);
    assert.equal(a.diagnosticsOmitted, 400 - 10);
    for (const size of [512, 64]) assert.deepEqual(find(await findings(size), '/a.xml').diagnostics, a.diagnostics);
    assert.deepEqual(rules(find(whole, '/index.xml')), ['R25:warn']);
  });

  test('an index over 50,000 children: one R20 error on it, the children past the limit not followed', async () => {
    const children = Array.from({ length: 50_002 }, (_, n) => `<sitemap><loc>https://shop.example/s/${n}.xml</loc></sitemap>`).join('');
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children}</sitemapindex>`;
    const fake: typeof fetch = async (input) => (String(input) === 'https://shop.example/index.xml' ? new Response(index) : new Response('', { status: 404 }));
    const report = await discoverSitemaps('https://shop.example', { ...QUICK, fetch: fake, wellKnownPaths: ['/index.xml'], maxSitemaps: 2 });
    const r20 = find(report, '/index.xml').diagnostics.filter((d) => d.rule === 'R20');
    assert.deepEqual(r20.map((d) => [d.level, d.message]), [['error', '50,002 sitemaps; an index may list at most 50,000, and the 2 listed past that are not followed']]);
    assert.equal(report.totals.invalid, 1);
  });

  test('a site URL that is not http(s) is a bad option', async () => {
    await assert.rejects(discoverSitemaps('ftp://example.com/'), { code: 'SM_BAD_OPTION' });
    await assert.rejects(discoverSitemaps('not a url'), { code: 'SM_BAD_OPTION' });
  });
});

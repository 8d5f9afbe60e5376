/**
 * The site in test/fixtures/discover/ served over real HTTP. Fixture files say `http://site.test`;
 * it becomes the server's origin as they are served (inside the gzip file too).
 *
 * robots.txt lists: an index (pages, gzip served raw, gzip as Content-Encoding, a nested index, an
 * index loop, a 404 child), a relative URL that redirects twice, a 404, a redirect loop, a file that
 * fails once with 500, and one that never answers. Well-known paths: /sitemap.xml redirects to the
 * index, /wp-sitemap.xml is an HTML soft 404, /sitemap.txt is a text sitemap; the rest are 404.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startServer, type TestServer } from './http-server.ts';

type Route =
  | { file: string; type: string; encoding?: 'gzip'; failFirst?: number }
  | { redirect: number; to: string }
  | { hang: true };

const XML = 'application/xml';
const ROUTES: Record<string, Route> = {
  '/robots.txt': { file: 'robots.txt', type: 'text/plain' },
  '/sitemap_index.xml': { file: 'sitemap_index.xml', type: XML },
  '/pages.xml': { file: 'pages.xml', type: XML },
  '/posts.xml.gz': { file: 'posts.xml.gz', type: 'application/gzip' },
  '/news.xml': { file: 'news.xml', type: XML, encoding: 'gzip' },
  '/nested-index.xml': { file: 'nested-index.xml', type: XML },
  '/deep.xml': { file: 'deep.xml', type: XML },
  '/loop-a.xml': { file: 'loop-a.xml', type: XML },
  '/loop-b.xml': { file: 'loop-b.xml', type: XML },
  '/old-sitemap.xml': { redirect: 301, to: '/moved/sitemap.xml' },
  '/moved/sitemap.xml': { redirect: 302, to: '/current.xml' },
  '/current.xml': { file: 'current.xml', type: XML },
  '/redirect-loop.xml': { redirect: 301, to: '/redirect-loop-2.xml' },
  '/redirect-loop-2.xml': { redirect: 308, to: '/redirect-loop.xml' },
  '/flaky.xml': { file: 'flaky.xml', type: XML, failFirst: 500 },
  '/slow.xml': { hang: true },
  '/sitemap.xml': { redirect: 301, to: '/sitemap_index.xml' },
  '/wp-sitemap.xml': { file: 'soft-404.html', type: 'text/html' },
  '/sitemap.txt': { file: 'sitemap.txt', type: 'text/plain' },
};

const FIXTURES = new URL('../fixtures/discover/', import.meta.url);

export function fixture(name: string): Buffer {
  return readFileSync(new URL(name, FIXTURES));
}

/** A fixture as served: placeholder origin replaced, gzip files re-compressed around the new text. */
function served(name: string, origin: string): Buffer {
  const raw = fixture(name);
  const gzipped = name.endsWith('.gz');
  const text = (gzipped ? gunzipSync(raw) : raw).toString('utf8').replaceAll('http://site.test', origin);
  return gzipped ? gzipSync(text) : Buffer.from(text);
}

export function startFixtureSite(): Promise<TestServer> {
  const hits = new Map<string, number>();
  return startServer((request, response, origin) => {
    const path = request.url ?? '';
    const hit = (hits.get(path) ?? 0) + 1;
    hits.set(path, hit);
    const route = ROUTES[path];
    if (route === undefined) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if ('hang' in route) return;
    if ('redirect' in route) return void response.writeHead(route.redirect, { location: route.to }).end();
    if (route.failFirst !== undefined && hit === 1) return void response.writeHead(route.failFirst).end();
    const body = served(route.file, origin);
    if (route.encoding === 'gzip') response.writeHead(200, { 'content-type': route.type, 'content-encoding': 'gzip' }).end(gzipSync(body));
    else response.writeHead(200, { 'content-type': route.type }).end(body);
  });
}

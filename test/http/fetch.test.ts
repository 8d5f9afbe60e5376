import assert from 'node:assert/strict';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isSitemapError } from '../../src/errors.ts';
import { fetchResource, type HttpOptions } from '../../src/http/client.ts';
import type { HttpResult, HttpSuccess } from '../../src/http/types.ts';
import { startServer, type TestServer } from '../helpers/http-server.ts';

let server: TestServer;
/** Per path: how often it was hit so far, for "fail, then succeed". */
const hits = new Map<string, number>();
const BIG = 'x'.repeat(10_000);

before(async () => {
  server = await startServer((request, response) => {
    const path = request.url ?? '';
    const hit = (hits.get(path) ?? 0) + 1;
    hits.set(path, hit);
    const redirect = (status: number, location: string) => response.writeHead(status, { location }).end();
    switch (path) {
      case '/ok.xml':
        return response.writeHead(200, { 'content-type': 'application/xml' }).end('<urlset/>');
      case '/chain-1':
        return redirect(301, '/chain-2');
      case '/chain-2':
        return redirect(302, `${'http://'}${request.headers.host}/chain-3`);
      case '/chain-3':
        return redirect(307, 'ok.xml#fragment-ignored');
      case '/loop-a':
        return redirect(301, '/loop-b');
      case '/loop-b':
        return redirect(301, '/loop-a');
      case '/to-ftp':
        return redirect(302, 'ftp://example.com/sitemap.xml');
      case '/missing':
        return response.writeHead(404).end('not here');
      case '/flaky':
        return hit === 1 ? response.writeHead(500).end() : response.writeHead(200).end('second time lucky');
      case '/down':
        return response.writeHead(503).end();
      case '/busy-seconds':
        return hit === 1 ? response.writeHead(429, { 'retry-after': '2' }).end() : response.writeHead(200).end('ok');
      case '/busy-long':
        return hit === 1 ? response.writeHead(503, { 'retry-after': '3600' }).end() : response.writeHead(200).end('ok');
      case '/busy-date':
        return hit === 1 ? response.writeHead(503, { 'retry-after': 'Wed, 21 Oct 2026 07:28:05 GMT' }).end() : response.writeHead(200).end('ok');
      case '/reset':
        return hit === 1 ? response.socket?.destroy() : response.writeHead(200).end('ok after reset');
      case '/silent':
        return; // never answers
      case '/stalls-mid-body':
        response.writeHead(200, { 'content-type': 'application/xml' });
        return void response.write('<urlset>');
      case '/big':
        return response.writeHead(200).end(BIG);
      case '/encoded':
        return response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/xml' }).end(gzipSync('<urlset>gzip on the wire</urlset>'));
      default:
        if (path.startsWith('/hop/')) {
          const n = Number(path.slice(5));
          return redirect(302, `/hop/${n + 1}`);
        }
        return response.writeHead(404).end();
    }
  });
});
after(() => server.close());

/** Backoff waits are recorded, not slept. */
function noWait(): { sleeps: number[]; options: HttpOptions } {
  const sleeps: number[] = [];
  return { sleeps, options: { sleep: async (ms) => void sleeps.push(ms), random: () => 0, backoffMs: 100 } };
}

async function text(result: HttpResult): Promise<string> {
  assert.ok(result.ok, result.ok ? '' : result.message);
  const chunks: Uint8Array[] = [];
  for await (const chunk of result.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function bodyError(result: HttpSuccess): Promise<{ bytes: number; error: unknown }> {
  let bytes = 0;
  try {
    for await (const chunk of result.body) bytes += chunk.length;
  } catch (error) {
    return { bytes, error };
  }
  assert.fail('the body should have failed');
}

describe('fetchResource', () => {
  test('a plain 200: status, content type, body, no redirects, one attempt', async () => {
    const result = await fetchResource(`${server.origin}/ok.xml`);
    assert.ok(result.ok);
    assert.equal(result.status, 200);
    assert.equal(result.contentType, 'application/xml');
    assert.deepEqual(result.redirects, []);
    assert.equal(result.finalUrl, `${server.origin}/ok.xml`);
    assert.equal(result.attempts, 1);
    assert.equal(await text(result), '<urlset/>');
  });

  test('a redirect chain (relative, absolute, with a fragment) is followed and recorded', async () => {
    const result = await fetchResource(`${server.origin}/chain-1`);
    assert.ok(result.ok);
    assert.deepEqual(result.redirects, [`${server.origin}/chain-2`, `${server.origin}/chain-3`, `${server.origin}/ok.xml#fragment-ignored`]);
    assert.equal(result.finalUrl, `${server.origin}/ok.xml#fragment-ignored`);
    assert.equal(await text(result), '<urlset/>');
  });

  test('a redirect loop is a failure naming the loop, after one request per URL', async () => {
    const before = server.count('/loop-a');
    const result = await fetchResource(`${server.origin}/loop-a`);
    assert.ok(!result.ok);
    assert.equal(result.reason, 'redirect-loop');
    assert.equal(result.status, 301);
    assert.deepEqual(result.redirects, [`${server.origin}/loop-b`, `${server.origin}/loop-a`]);
    assert.match(result.message, /redirect loop: .*\/loop-a → .*\/loop-b → .*\/loop-a$/);
    assert.equal(server.count('/loop-a') - before, 1);
  });

  test('more than maxRedirects redirects: a failure, and no request past the limit', async () => {
    const result = await fetchResource(`${server.origin}/hop/0`, { maxRedirects: 3 });
    assert.ok(!result.ok);
    assert.equal(result.reason, 'too-many-redirects');
    assert.equal(result.redirects.length, 3);
    assert.equal(result.finalUrl, `${server.origin}/hop/3`);
    assert.equal(server.count('/hop/4'), 0);
  });

  test('a redirect to another scheme and a non-http URL are refused', async () => {
    const redirect = await fetchResource(`${server.origin}/to-ftp`);
    assert.ok(!redirect.ok);
    assert.equal(redirect.reason, 'bad-redirect');
    const bad = await fetchResource('file:///etc/passwd');
    assert.ok(!bad.ok);
    assert.equal(bad.reason, 'bad-url');
    assert.equal(bad.attempts, 0);
  });

  test('404 is a failure with its status and is not retried', async () => {
    const { sleeps, options } = noWait();
    const result = await fetchResource(`${server.origin}/missing`, options);
    assert.ok(!result.ok);
    assert.equal(result.reason, 'http');
    assert.equal(result.status, 404);
    assert.match(result.message, /^HTTP 404/);
    assert.equal(result.attempts, 1);
    assert.deepEqual(sleeps, []);
  });

  test('500 then 200: retried once after an exponential backoff', async () => {
    const { sleeps, options } = noWait();
    const result = await fetchResource(`${server.origin}/flaky`, options);
    assert.equal(await text(result), 'second time lucky');
    assert.ok(result.ok);
    assert.equal(result.attempts, 2);
    // random() = 0 gives the fixed half of the step: 100 ms / 2.
    assert.deepEqual(sleeps, [50]);
  });

  test('503 every time: all retries used, backoff doubling, then a failure with the status', async () => {
    const { sleeps, options } = noWait();
    const result = await fetchResource(`${server.origin}/down`, { ...options, retries: 3, random: () => 0.5 });
    assert.ok(!result.ok);
    assert.equal(result.reason, 'http');
    assert.equal(result.status, 503);
    assert.equal(result.attempts, 4);
    assert.equal(server.count('/down'), 4);
    assert.deepEqual(sleeps, [75, 150, 300]);
  });

  test('Retry-After in seconds, as a date, and capped', async () => {
    const seconds = noWait();
    assert.ok((await fetchResource(`${server.origin}/busy-seconds`, seconds.options)).ok);
    assert.deepEqual(seconds.sleeps, [2000]);

    const long = noWait();
    assert.ok((await fetchResource(`${server.origin}/busy-long`, { ...long.options, maxRetryAfterMs: 5000 })).ok);
    assert.deepEqual(long.sleeps, [5000]);

    const date = noWait();
    const now = () => Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    assert.ok((await fetchResource(`${server.origin}/busy-date`, { ...date.options, now })).ok);
    assert.deepEqual(date.sleeps, [5000]);
  });

  test('https to a plain-HTTP port: a network failure whose message (OpenSSL\'s) is one line', async () => {
    const server = await startServer((_request, response) => response.end('plain'));
    try {
      const result = await fetchResource(`${server.origin.replace('http:', 'https:')}/`, { retries: 0 });
      assert.ok(!result.ok);
      assert.equal(result.reason, 'network');
      assert.match(result.message, /wrong version number/);
      assert.doesNotMatch(result.message, /\n|\s$/);
    } finally {
      await server.close();
    }
  });
  test('a connection reset is a network error, retried', async () => {
    const { sleeps, options } = noWait();
    const result = await fetchResource(`${server.origin}/reset`, options);
    assert.equal(await text(result), 'ok after reset');
    assert.equal(sleeps.length, 1);

    const gone = await startServer(() => {});
    await gone.close();
    const refused = await fetchResource(`${gone.origin}/sitemap.xml`, { ...options, retries: 1 });
    assert.ok(!refused.ok);
    assert.equal(refused.reason, 'network');
    assert.equal(refused.attempts, 2);
    assert.match(refused.message, /ECONNREFUSED/);
  });

  test('a server that never answers times out (and is retried like a network error)', async () => {
    const { options } = noWait();
    const result = await fetchResource(`${server.origin}/silent`, { ...options, timeoutMs: 50, retries: 1 });
    assert.ok(!result.ok);
    assert.equal(result.reason, 'timeout');
    assert.equal(result.attempts, 2);
    assert.equal(server.count('/silent'), 2);
  });

  test('a body that stalls after the headers: the body fails with SM_FETCH_FAILED when the timeout fires', async () => {
    const result = await fetchResource(`${server.origin}/stalls-mid-body`, { timeoutMs: 100 });
    assert.ok(result.ok);
    const { bytes, error } = await bodyError(result);
    assert.equal(bytes, '<urlset>'.length);
    assert.ok(isSitemapError(error) && error.code === 'SM_FETCH_FAILED');
    assert.match(error.message, /timed out after 100 ms/);
  });

  test('a body over maxBytes yields exactly maxBytes bytes, then fails', async () => {
    const result = await fetchResource(`${server.origin}/big`, { maxBytes: 4096 });
    assert.ok(result.ok);
    const { bytes, error } = await bodyError(result);
    assert.equal(bytes, 4096);
    assert.ok(isSitemapError(error) && error.code === 'SM_FETCH_FAILED');
    assert.match(error.message, /larger than 4096 bytes/);
    // Exactly at the cap is fine.
    assert.equal((await text(await fetchResource(`${server.origin}/big`, { maxBytes: BIG.length }))).length, BIG.length);
  });

  test('a server that closes the connection before the body is read: every byte arrives, no crash', async () => {
    // Node 24's own fetch (undici 7.29; 7.30 from npm too) dies here with an uncatchable assert(!this.paused): the FIN comes
    // while the parser waits for the reader (nodejs/undici#5360). sitemapkit uses undici 8 from npm, which has the fix.
    const body = Buffer.alloc(64 * 1024, 0x61);
    let sent: () => void = () => undefined;
    const allSent = new Promise<void>((resolve) => (sent = resolve));
    const closing = createNetServer((socket) => {
      socket.once('data', () => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
        socket.end(body, sent);
      });
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = closing.address() as AddressInfo;
      const result = await fetchResource(`http://127.0.0.1:${port}/sitemap.xml`);
      assert.ok(result.ok);
      // The reader is busy elsewhere until the whole body and the FIN are on their way.
      await allSent;
      await new Promise((resolve) => setTimeout(resolve, 50));
      let bytes = 0;
      for await (const chunk of result.body) bytes += chunk.length;
      assert.equal(bytes, body.length);
    } finally {
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  test('Content-Encoding: gzip is undone on the way in', async () => {
    assert.equal(await text(await fetchResource(`${server.origin}/encoded`)), '<urlset>gzip on the wire</urlset>');
  });

  test('a caller abort ends a retry wait with reason "aborted"', async () => {
    const controller = new AbortController();
    const result = await fetchResource(`${server.origin}/down`, {
      signal: controller.signal,
      sleep: async () => controller.abort(),
    });
    assert.ok(!result.ok);
    assert.equal(result.reason, 'aborted');
  });

  test('fetch is injectable: requests go to it with redirect "manual"', async () => {
    const seen: RequestInit[] = [];
    const fake: typeof fetch = async (input, init) => {
      seen.push(init ?? {});
      return String(input).endsWith('/a') ? new Response(null, { status: 308, headers: { location: '/b' } }) : new Response('from the fake', { status: 200 });
    };
    const result = await fetchResource('https://example.com/a', { fetch: fake, userAgent: 'test-agent' });
    assert.equal(await text(result), 'from the fake');
    assert.ok(result.ok);
    assert.deepEqual(result.redirects, ['https://example.com/b']);
    assert.deepEqual(seen.map((init) => [init.redirect, (init.headers as Record<string, string>)['user-agent']]), [['manual', 'test-agent'], ['manual', 'test-agent']]);
  });

  test('cancel() releases a response that is not read', async () => {
    const result = await fetchResource(`${server.origin}/big`);
    assert.ok(result.ok);
    await result.cancel();
  });
});

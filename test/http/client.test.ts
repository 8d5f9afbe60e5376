import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { isSitemapError } from '../../src/errors.ts';
import { request, type HttpOptions } from '../../src/http/client.ts';
import { RETRY_SUBMIT } from '../../src/http/retry.ts';
import type { HttpResult } from '../../src/http/types.ts';
import { startServer, type TestServer } from '../helpers/http-server.ts';

interface Seen {
  method: string;
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}

let server: TestServer;
let other: TestServer;
/** Every request each server got, body read, in arrival order. */
const seen: Seen[] = [];
const seenElsewhere: Seen[] = [];
const hits = new Map<string, number>();

before(async () => {
  other = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seenElsewhere.push({ method: req.method ?? '', path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200).end('other origin');
    });
  });
  server = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const hit = (hits.get(path) ?? 0) + 1;
      hits.set(path, hit);
      seen.push({ method: req.method ?? '', path, body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      const redirect = (status: number, location: string) => res.writeHead(status, { location }).end();
      switch (path) {
        case '/echo':
          return res.writeHead(202, { 'content-type': 'text/plain', 'x-answer': 'taken' }).end(`${req.method} ${Buffer.concat(chunks).length} bytes`);
        case '/see-other':
          return redirect(303, '/done');
        case '/moved':
          return redirect(301, '/done');
        case '/temporary':
          return redirect(307, '/done');
        case '/permanent':
          return redirect(308, '/done');
        case '/same-origin':
          return redirect(307, '/done');
        case '/cross-origin':
          return redirect(307, `${other.origin}/inbox`);
        case '/done':
          return res.writeHead(200).end(`done by ${req.method}`);
        case '/busy':
          return hit === 1 ? res.writeHead(503, { 'retry-after': '7' }).end() : res.writeHead(200).end('accepted');
        case '/throttled':
          return hit === 1 ? res.writeHead(429).end() : res.writeHead(200).end('accepted');
        case '/unavailable':
          return res.writeHead(503, { 'retry-after': '1' }).end();
        case '/broken':
          return res.writeHead(500).end();
        case '/reset':
          return res.socket?.destroy();
        case '/silent':
          return; // never answers
        case '/big':
          return res.writeHead(200).end('y'.repeat(1000));
        default:
          return res.writeHead(404).end();
      }
    });
  });
});
after(async () => {
  await server.close();
  await other.close();
});

/** Backoff waits are recorded, not slept. */
function noWait(): { sleeps: number[]; options: HttpOptions } {
  const sleeps: number[] = [];
  return { sleeps, options: { sleep: async (ms) => void sleeps.push(ms), random: () => 0 } };
}

async function text(result: HttpResult): Promise<string> {
  assert.ok(result.ok, result.ok ? '' : result.message);
  const chunks: Uint8Array[] = [];
  for await (const chunk of result.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The requests a server got for `paths`, as [method, path, body, content-type]. */
function log(requests: Seen[], ...paths: string[]): [string, string, string, string | undefined][] {
  return requests.filter((r) => paths.includes(r.path)).map((r) => [r.method, r.path, r.body, r.headers['content-type']]);
}

const JSON_BODY = '{"host":"shop.example","urlList":["https://shop.example/a"]}';
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

describe('request', () => {
  test('a POST sends its method, body and headers (names in any case, over the defaults) and returns status and headers', async () => {
    const result = await request({ url: `${server.origin}/echo`, method: 'post', headers: { ...JSON_HEADERS, 'X-Key': 'k-123', Accept: 'text/plain' }, body: JSON_BODY });
    assert.ok(result.ok);
    assert.equal(result.status, 202);
    assert.equal(result.method, 'POST');
    assert.equal(result.headers.get('x-answer'), 'taken');
    assert.equal(result.contentType, 'text/plain');
    assert.equal(result.attempts, 1);
    assert.equal(await text(result), `POST ${JSON_BODY.length} bytes`);
    const sent = seen.filter((r) => r.path === '/echo');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.body, JSON_BODY);
    assert.deepEqual(
      [sent[0]?.headers['content-type'], sent[0]?.headers['x-key'], sent[0]?.headers.accept, sent[0]?.headers['user-agent'], sent[0]?.headers['content-length']],
      ['application/json; charset=utf-8', 'k-123', 'text/plain', 'sitemapkit', String(JSON_BODY.length)],
    );
  });

  test('a Uint8Array body goes byte for byte', async () => {
    const bytes = new Uint8Array([0x3c, 0x61, 0x2f, 0x3e, 0xc3, 0xa9]);
    const result = await request({ url: `${server.origin}/echo`, method: 'PUT', body: bytes });
    assert.equal(await text(result), 'PUT 6 bytes');
    assert.equal(seen.at(-1)?.body, '<a/>é');
  });

  test('303 after a POST: the next request is a GET without the body or its headers', async () => {
    const before = seen.length;
    const result = await request({ url: `${server.origin}/see-other`, method: 'POST', headers: JSON_HEADERS, body: JSON_BODY });
    assert.ok(result.ok);
    assert.equal(result.method, 'GET');
    assert.deepEqual(result.redirects, [`${server.origin}/done`]);
    assert.equal(result.finalUrl, `${server.origin}/done`);
    assert.equal(await text(result), 'done by GET');
    assert.deepEqual(log(seen.slice(before), '/see-other', '/done'), [
      ['POST', '/see-other', JSON_BODY, 'application/json; charset=utf-8'],
      ['GET', '/done', '', undefined],
    ]);
  });

  test('301 after a POST is a GET too, as fetch does it; after a PUT the method and body stay', async () => {
    const before = seen.length;
    assert.equal(await text(await request({ url: `${server.origin}/moved`, method: 'POST', headers: JSON_HEADERS, body: JSON_BODY })), 'done by GET');
    assert.equal(await text(await request({ url: `${server.origin}/moved`, method: 'PUT', headers: JSON_HEADERS, body: JSON_BODY })), 'done by PUT');
    assert.deepEqual(log(seen.slice(before), '/moved', '/done'), [
      ['POST', '/moved', JSON_BODY, 'application/json; charset=utf-8'],
      ['GET', '/done', '', undefined],
      ['PUT', '/moved', JSON_BODY, 'application/json; charset=utf-8'],
      ['PUT', '/done', JSON_BODY, 'application/json; charset=utf-8'],
    ]);
  });

  test('307 and 308 repeat the POST with its body and headers', async () => {
    const before = seen.length;
    const temporary = await request({ url: `${server.origin}/temporary`, method: 'POST', headers: JSON_HEADERS, body: JSON_BODY });
    assert.ok(temporary.ok);
    assert.equal(temporary.method, 'POST');
    assert.equal(await text(temporary), 'done by POST');
    assert.equal(await text(await request({ url: `${server.origin}/permanent`, method: 'POST', headers: JSON_HEADERS, body: JSON_BODY })), 'done by POST');
    assert.deepEqual(log(seen.slice(before), '/temporary', '/permanent', '/done'), [
      ['POST', '/temporary', JSON_BODY, 'application/json; charset=utf-8'],
      ['POST', '/done', JSON_BODY, 'application/json; charset=utf-8'],
      ['POST', '/permanent', JSON_BODY, 'application/json; charset=utf-8'],
      ['POST', '/done', JSON_BODY, 'application/json; charset=utf-8'],
    ]);
  });

  test('credentials follow a redirect within the origin, not to another origin', async () => {
    const headers = { authorization: 'Bearer secret', 'x-key': 'k-123' };
    const before = seen.length;
    assert.equal(await text(await request({ url: `${server.origin}/same-origin`, headers })), 'done by GET');
    assert.deepEqual(seen.slice(before).map((r) => [r.path, r.headers.authorization]), [['/same-origin', 'Bearer secret'], ['/done', 'Bearer secret']]);

    assert.equal(await text(await request({ url: `${server.origin}/cross-origin`, method: 'POST', headers, body: 'x' })), 'other origin');
    assert.equal(seen.at(-1)?.headers.authorization, 'Bearer secret');
    assert.deepEqual(seenElsewhere.map((r) => [r.method, r.path, r.body, r.headers.authorization, r.headers['x-key']]), [['POST', '/inbox', 'x', undefined, 'k-123']]);
  });

  test('RETRY_SUBMIT: a POST answered 503 with Retry-After is sent again after the wait it asked for', async () => {
    const { sleeps, options } = noWait();
    const result = await request({ url: `${server.origin}/busy`, method: 'POST', headers: JSON_HEADERS, body: JSON_BODY }, { ...options, retry: RETRY_SUBMIT });
    assert.equal(await text(result), 'accepted');
    assert.ok(result.ok);
    assert.equal(result.attempts, 2);
    assert.deepEqual(sleeps, [7000]);
    assert.deepEqual(log(seen, '/busy'), [
      ['POST', '/busy', JSON_BODY, 'application/json; charset=utf-8'],
      ['POST', '/busy', JSON_BODY, 'application/json; charset=utf-8'],
    ]);
  });

  test('RETRY_SUBMIT: a 429 without Retry-After backs off from 1 s', async () => {
    const { sleeps, options } = noWait();
    const result = await request({ url: `${server.origin}/throttled`, method: 'POST', body: 'x' }, { ...options, retry: RETRY_SUBMIT, random: () => 0.5 });
    assert.equal(await text(result), 'accepted');
    assert.deepEqual(sleeps, [750]);
  });

  test('RETRY_SUBMIT: a 503 every time uses up its 3 retries, then fails with the status', async () => {
    const { sleeps, options } = noWait();
    const result = await request({ url: `${server.origin}/unavailable`, method: 'POST', body: 'x' }, { ...options, retry: RETRY_SUBMIT });
    assert.ok(!result.ok);
    assert.equal(result.reason, 'http');
    assert.equal(result.status, 503);
    assert.equal(result.attempts, 4);
    assert.deepEqual(sleeps, [1000, 1000, 1000]);
  });

  test('RETRY_SUBMIT: a POST answered 500, or whose connection drops, is not sent again', async () => {
    const { sleeps, options } = noWait();
    const broken = await request({ url: `${server.origin}/broken`, method: 'POST', body: 'x' }, { ...options, retry: RETRY_SUBMIT });
    assert.ok(!broken.ok);
    assert.deepEqual([broken.reason, broken.status, broken.attempts, server.count('/broken')], ['http', 500, 1, 1]);
    const reset = await request({ url: `${server.origin}/reset`, method: 'POST', body: 'x' }, { ...options, retry: RETRY_SUBMIT });
    assert.ok(!reset.ok);
    assert.deepEqual([reset.reason, reset.attempts, server.count('/reset')], ['network', 1, 1]);
    assert.deepEqual(sleeps, []);
  });

  test('the default policy (RETRY_READ) sends a POST once, whatever the answer', async () => {
    const { sleeps, options } = noWait();
    const before = server.count('/unavailable');
    const result = await request({ url: `${server.origin}/unavailable`, method: 'POST', body: 'x' }, options);
    assert.ok(!result.ok);
    assert.deepEqual([result.status, result.attempts, server.count('/unavailable') - before], [503, 1, 1]);
    assert.deepEqual(sleeps, []);
  });

  test('a POST that gets no answer times out, once under RETRY_SUBMIT', async () => {
    const { sleeps, options } = noWait();
    const result = await request({ url: `${server.origin}/silent`, method: 'POST', body: 'x' }, { ...options, retry: RETRY_SUBMIT, timeoutMs: 50 });
    assert.ok(!result.ok);
    assert.deepEqual([result.reason, result.message, result.attempts], ['timeout', 'no response within 50 ms', 1]);
    assert.deepEqual(sleeps, []);
  });

  test('the answer to a POST is capped at maxBytes', async () => {
    const result = await request({ url: `${server.origin}/big`, method: 'POST', body: 'x' }, { maxBytes: 100 });
    assert.ok(result.ok);
    let bytes = 0;
    await assert.rejects(
      async () => {
        for await (const chunk of result.body) bytes += chunk.length;
      },
      (error) => isSitemapError(error) && error.code === 'SM_FETCH_FAILED' && error.message === `${server.origin}/big: body larger than 100 bytes; reading stopped there`,
    );
    assert.equal(bytes, 100);
  });

  test('usage errors throw SM_BAD_OPTION before anything is sent: a body on a GET or HEAD, a method that is no token, a policy with bad retries', async () => {
    const before = seen.length;
    await assert.rejects(request({ url: `${server.origin}/echo`, body: 'x' }), { code: 'SM_BAD_OPTION', message: 'a GET request has no body' });
    await assert.rejects(request({ url: `${server.origin}/echo`, method: 'head', body: 'x' }), { code: 'SM_BAD_OPTION', message: 'a HEAD request has no body' });
    await assert.rejects(request({ url: `${server.origin}/echo`, method: 'GET /x' }), { code: 'SM_BAD_OPTION', message: 'not an HTTP method: "GET /X"' });
    await assert.rejects(request({ url: `${server.origin}/echo` }, { retry: { ...RETRY_SUBMIT, retries: -1 } }), { code: 'SM_BAD_OPTION', message: 'retries must be a whole number ≥ 0, got -1' });
    assert.equal(seen.length, before);
  });
});

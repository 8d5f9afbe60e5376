import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RedirectTrail, redirected, type Outgoing } from '../../src/http/redirect.ts';

const post: Outgoing = {
  url: 'https://api.example/submit',
  method: 'POST',
  headers: { 'content-type': 'application/json', 'content-length': '2', authorization: 'Bearer t', 'x-key': 'k' },
  body: '{}',
};

describe('redirected', () => {
  test('each status after a POST, as fetch does it: 301, 302 and 303 become a GET without the body and its headers; 307 and 308 keep both', () => {
    const get = { url: 'https://api.example/next', method: 'GET', headers: { authorization: 'Bearer t', 'x-key': 'k' } };
    assert.deepEqual(redirected(post, 301, 'https://api.example/next'), get);
    assert.deepEqual(redirected(post, 302, 'https://api.example/next'), get);
    assert.deepEqual(redirected(post, 303, 'https://api.example/next'), get);
    assert.deepEqual(redirected(post, 307, 'https://api.example/next'), { ...post, url: 'https://api.example/next' });
    assert.deepEqual(redirected(post, 308, 'https://api.example/next'), { ...post, url: 'https://api.example/next' });
  });

  test('a PUT stays a PUT on 301 and 302, becomes a GET on 303; a HEAD stays a HEAD on 303', () => {
    const put = { ...post, method: 'PUT' };
    assert.equal(redirected(put, 301, 'https://api.example/next').method, 'PUT');
    assert.equal(redirected(put, 302, 'https://api.example/next').body, '{}');
    assert.deepEqual(redirected(put, 303, 'https://api.example/next'), { url: 'https://api.example/next', method: 'GET', headers: { authorization: 'Bearer t', 'x-key': 'k' } });
    assert.deepEqual(redirected({ url: 'https://api.example/a', method: 'HEAD', headers: {} }, 303, 'https://api.example/b'), { url: 'https://api.example/b', method: 'HEAD', headers: {} });
  });

  test('to another origin (host, scheme or port): authorization, proxy-authorization and cookie stay behind', () => {
    const credentials = { ...post, headers: { ...post.headers, 'proxy-authorization': 'Basic p', cookie: 'a=1' } };
    const kept = { 'content-type': 'application/json', 'content-length': '2', 'x-key': 'k' };
    for (const target of ['https://other.example/submit', 'http://api.example/submit', 'https://api.example:8443/submit']) {
      assert.deepEqual(redirected(credentials, 307, target).headers, kept, target);
    }
    assert.deepEqual(redirected(credentials, 307, 'https://API.example:443/elsewhere').headers, credentials.headers);
  });
});

describe('RedirectTrail', () => {
  test('records each target, and tells a loop by method and URL (fragment dropped)', () => {
    const trail = new RedirectTrail('https://a.example/x', 5);
    const start: Outgoing = { url: 'https://a.example/x', method: 'POST', headers: {}, body: 'b' };
    trail.visit(start);
    // A POST answered 303 to its own URL is a GET there: another request, not a loop.
    const step = trail.follow(start, 303, '/x#top');
    assert.ok('next' in step);
    assert.deepEqual(step.next, { url: 'https://a.example/x#top', method: 'GET', headers: {} });
    trail.visit(step.next);
    assert.deepEqual(trail.follow(step.next, 302, 'https://a.example/x'), { reason: 'redirect-loop', message: 'redirect loop: https://a.example/x → https://a.example/x#top → https://a.example/x' });
    assert.deepEqual(trail.redirects, ['https://a.example/x#top', 'https://a.example/x']);
  });

  test('bad targets and the limit', () => {
    const start: Outgoing = { url: 'https://a.example/0', method: 'GET', headers: {} };
    assert.deepEqual(new RedirectTrail(start.url, 5).follow(start, 301, 'http://[bad'), { reason: 'bad-redirect', message: 'HTTP 301 to an unusable Location: http://[bad' });
    assert.deepEqual(new RedirectTrail(start.url, 5).follow(start, 302, 'mailto:a@a.example'), { reason: 'bad-redirect', message: 'HTTP 302 to a non-http(s) URL: mailto:a@a.example' });
    const trail = new RedirectTrail(start.url, 1);
    trail.visit(start);
    const step = trail.follow(start, 302, '/1');
    assert.ok('next' in step);
    trail.visit(step.next);
    assert.deepEqual(trail.follow(step.next, 302, '/2'), { reason: 'too-many-redirects', message: 'more than 1 redirects: https://a.example/0 → https://a.example/1 → https://a.example/2' });
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RETRY_READ, RETRY_SUBMIT, retryAfterMs, retryDelay, type RetryClock } from '../../src/http/retry.ts';

const NOW = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
const clock = (random: number): RetryClock => ({ now: () => NOW, random: () => random });

describe('retryDelay', () => {
  test('RETRY_READ: GET and HEAD after a network error, 429 and any 5xx, with equal-jitter backoff doubling from 500 ms', () => {
    const delays = [1, 2, 3].map((attempt) => retryDelay({ ...RETRY_READ, retries: 3 }, 'GET', attempt, {}, clock(0)));
    assert.deepEqual(delays, [250, 500, 1000]);
    assert.deepEqual([429, 500, 503, 599].map((status) => retryDelay(RETRY_READ, 'HEAD', 1, { status }, clock(0.5))), [375, 375, 375, 375]);
    assert.deepEqual([400, 404, 408, 410, 600].map((status) => retryDelay(RETRY_READ, 'GET', 1, { status }, clock(0))), [undefined, undefined, undefined, undefined, undefined]);
  });

  test('no delay once the retries are used up, nor for a method the policy does not repeat', () => {
    assert.equal(retryDelay(RETRY_READ, 'GET', 2, { status: 503 }, clock(0)), 250 * 2);
    assert.equal(retryDelay(RETRY_READ, 'GET', 3, { status: 503 }, clock(0)), undefined);
    assert.equal(retryDelay(RETRY_READ, 'POST', 1, { status: 503 }, clock(0)), undefined);
    assert.equal(retryDelay(RETRY_READ, 'POST', 1, {}, clock(0)), undefined);
  });

  test('RETRY_SUBMIT: POST only on 429 and 503, never after a network error; the backoff step stops at 60 s', () => {
    assert.deepEqual([429, 503, 500, 502, 504].map((status) => retryDelay(RETRY_SUBMIT, 'POST', 1, { status }, clock(0))), [500, 500, undefined, undefined, undefined]);
    assert.equal(retryDelay(RETRY_SUBMIT, 'POST', 1, {}, clock(0)), undefined);
    assert.equal(retryDelay(RETRY_SUBMIT, 'DELETE', 1, { status: 503 }, clock(0)), undefined);
    assert.equal(retryDelay({ ...RETRY_SUBMIT, retries: 10 }, 'POST', 8, { status: 503 }, clock(0)), 30_000);
  });

  test('Retry-After is honoured when readable and the policy says so, else the backoff stands', () => {
    assert.equal(retryDelay(RETRY_SUBMIT, 'POST', 1, { status: 503, retryAfter: '7' }, clock(0)), 7000);
    assert.equal(retryDelay(RETRY_SUBMIT, 'POST', 1, { status: 503, retryAfter: 'soon' }, clock(0)), 500);
    assert.equal(retryDelay(RETRY_SUBMIT, 'POST', 1, { status: 503, retryAfter: null }, clock(0)), 500);
    assert.equal(retryDelay({ ...RETRY_SUBMIT, honourRetryAfter: false }, 'POST', 1, { status: 503, retryAfter: '7' }, clock(0)), 500);
  });
});

describe('retryAfterMs', () => {
  test('delta-seconds, an HTTP date, a date past, and the cap', () => {
    assert.equal(retryAfterMs(' 2 ', 30_000, () => NOW), 2000);
    assert.equal(retryAfterMs('Wed, 21 Oct 2026 07:28:05 GMT', 30_000, () => NOW), 5000);
    assert.equal(retryAfterMs('Wed, 21 Oct 2026 07:27:00 GMT', 30_000, () => NOW), 0);
    assert.equal(retryAfterMs('3600', 5000, () => NOW), 5000);
    assert.equal(retryAfterMs('in a minute', 5000, () => NOW), undefined);
  });
});

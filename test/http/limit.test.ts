import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { concurrencyLimit } from '../../src/http/limit.ts';

describe('concurrencyLimit', () => {
  test('runs at most N tasks at once, in the order given, and passes results and errors through', async () => {
    const limit = concurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (n: number) => async () => {
      started.push(n);
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      if (n === 3) throw new Error('task 3 failed');
      return n * 10;
    };
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => limit(task(n))));
    assert.equal(peak, 2);
    assert.deepEqual(started, [1, 2, 3, 4, 5]);
    assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), [10, 20, 'task 3 failed', 40, 50]);
  });

  test('a limit below 1 is a bad option', () => {
    assert.throws(() => concurrencyLimit(0), { code: 'SM_BAD_OPTION' });
  });
});

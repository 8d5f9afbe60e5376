import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FingerprintSet } from '../../src/normalize/dedupe.ts';

test('agrees with a Set over many keys, across table growth', () => {
  const set = new FingerprintSet(16);
  const reference = new Set<string>();
  for (let i = 0; i < 200_000; i++) {
    const key = `https://example.com/${i % 150_000}/${(i * 7919) % 1000}`;
    assert.equal(set.add(key), !reference.has(key));
    reference.add(key);
  }
  assert.equal(set.size, reference.size);
});

test('tells apart keys that differ in any one character, odd lengths and the empty key', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 200 }), (keys) => {
      const set = new FingerprintSet();
      for (const key of keys) assert.equal(set.add(key), true, JSON.stringify(key));
      for (const key of keys) assert.equal(set.add(key), false);
    }),
    { seed: 7, numRuns: 300 },
  );
});

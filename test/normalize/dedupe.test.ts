import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DuplicateFilter } from '../../src/normalize/dedupe.ts';

test('agrees with a Set while the table has room', () => {
  const filter = new DuplicateFilter(1 << 16);
  const reference = new Set<string>();
  for (let i = 0; i < 200_000; i++) {
    const key = `https://example.com/${i % 150_000}/${(i * 7919) % 1000}`;
    assert.equal(filter.add(key), !reference.has(key));
    reference.add(key);
  }
  assert.equal(filter.size, reference.size);
  assert.equal(filter.forgotten, 0);
});

test('stays exact until the table is about 95% full', () => {
  const filter = new DuplicateFilter(1024); // 8,192 slots
  const keys = Array.from({ length: 7_800 }, (_, i) => `https://example.com/item-${i}`);
  for (const key of keys) assert.equal(filter.add(key), true);
  assert.equal(filter.forgotten, 0);
  for (const key of keys) assert.equal(filter.add(key), false);
});

test('once full, it forgets old fingerprints but never drops a new URL, and still finds recent duplicates', () => {
  const filter = new DuplicateFilter(64); // 512 slots
  for (let i = 0; i < 5_000; i++) assert.equal(filter.add(`https://example.com/${i}`), true);
  assert.ok(filter.forgotten > 0);
  assert.ok(filter.size <= 512);
  for (let i = 4_990; i < 5_000; i++) assert.equal(filter.add(`https://example.com/${i}`), false);
});

test('tells apart keys that differ in any one character, odd lengths and the empty key', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 200 }), (keys) => {
      const filter = new DuplicateFilter();
      for (const key of keys) assert.equal(filter.add(key), true, JSON.stringify(key));
      for (const key of keys) assert.equal(filter.add(key), false);
    }),
    { seed: 7, numRuns: 300 },
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DuplicateFilter, FILTER_BATCH, NEW, NEW_TABLE_FULL, SEEN } from '../../src/normalize/dedupe.ts';

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
  // Each new key is either held or made room for by forgetting one: the table is full.
  assert.deepEqual([filter.size, filter.forgotten], [512, 5_000 - 512]);
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

test('addAll gives what add gives key by key: duplicates inside a batch, across batches and past the batch size', () => {
  const keys = Array.from({ length: 1_000 }, (_, i) => `https://example.com/${(i * 37) % 700}`);
  const one = new DuplicateFilter(1 << 10);
  const expected = keys.map((key) => (one.add(key) ? NEW : SEEN));
  const all = new DuplicateFilter(1 << 10);
  const results = new Uint8Array(keys.length);
  for (const [start, end] of [[0, 1], [1, 64], [64, 300], [300, 1_000]] as const) {
    const slice = keys.slice(start, end);
    const part = new Uint8Array(slice.length);
    all.addAll(slice, slice.length, part);
    results.set(part, start);
  }
  assert.deepEqual([...results], expected);
  assert.equal(all.size, one.size);
  assert.ok(expected.includes(SEEN) && expected.includes(NEW));
  assert.ok(700 > FILTER_BATCH, 'the last call spans several internal batches');
});

test('addAll marks the first key that made a full table forget, once', () => {
  const filter = new DuplicateFilter(8); // 64 slots
  const keys = Array.from({ length: 500 }, (_, i) => `https://example.com/${i}`);
  const results = new Uint8Array(keys.length);
  filter.addAll(keys, keys.length, results);
  const full = results.reduce<number[]>((at, result, i) => (result === NEW_TABLE_FULL ? [...at, i] : at), []);
  assert.equal(full.length, 1);
  assert.deepEqual([filter.size, filter.forgotten], [64, 500 - 64]);
  assert.ok(results.every((result) => result !== SEEN), 'a new URL is never dropped');
  // The table forgot nothing before the marked key: every key before it is still found.
  const check = new DuplicateFilter(8);
  for (const key of keys.slice(0, full[0])) check.add(key);
  assert.equal(check.forgotten, 0);
});

test('grows from its first 2,048 buckets to all without losing a fingerprint: addAll across the growth gives what add gives', () => {
  // 60,000 distinct keys need 7,500+ buckets: the keys spread to the whole table on the way, in the middle of a batch.
  const keys = Array.from({ length: 90_000 }, (_, i) => `https://example.com/p/${(i * 7) % 60_000}`);
  const one = new DuplicateFilter();
  const expected = keys.map((key) => (one.add(key) ? NEW : SEEN));
  const all = new DuplicateFilter();
  const results = new Uint8Array(keys.length);
  for (let start = 0; start < keys.length; start += 1_000) {
    const slice = keys.slice(start, start + 1_000);
    const part = new Uint8Array(slice.length);
    all.addAll(slice, slice.length, part);
    results.set(part, start);
  }
  assert.deepEqual([...results], expected);
  assert.deepEqual([one.size, all.size, one.forgotten, all.forgotten], [60_000, 60_000, 0, 0]);
  assert.equal(expected.filter((r) => r === NEW).length, 60_000);
});

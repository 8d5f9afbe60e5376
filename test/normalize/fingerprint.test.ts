import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DuplicateFilter, NEW, SEEN } from '../../src/normalize/dedupe.ts';
import { fingerprint, FingerprintTable } from '../../src/normalize/fingerprint.ts';

const printOf = (text: string): [number, number] => {
  const out = new Uint32Array(2);
  fingerprint(text, out, 0);
  return [out[0] ?? 0, out[1] ?? 0];
};

/** `https://example.com/x/e?n?o?`: a family on which a multiply-only hash gave ten colliding pairs, `exnho7` and `e6n3oz` one of them. */
const family = (): string[] => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const urls: string[] = [];
  for (const a of alphabet) for (const b of alphabet) for (const c of alphabet) urls.push(`https://example.com/x/e${a}n${b}o${c}`);
  return urls;
};

describe('fingerprint', () => {
  it('is the collision-reviewed hash: these values are the ones validate gave before it was shared', () => {
    assert.deepEqual(printOf('https://example.com/x/exnho7'), [0x931a5ca7, 0x4ce19d55]);
    assert.deepEqual(printOf('https://example.com/x/e6n3oz'), [0xe3fe5d56, 0xd91b4edc]);
    assert.deepEqual(printOf('https://www.example.com/'), [0x20e469b2, 0xeea1a079]);
    assert.deepEqual(printOf('a'), [0xf2978f63, 0x04623958]);
    assert.deepEqual(printOf(''), [0xf0af94c6, 0xdc6656ee]);
  });

  it('writes at the place it is given, and leaves the rest alone', () => {
    const out = new Uint32Array(6);
    fingerprint('https://www.example.com/', out, 2);
    assert.deepEqual([...out], [0, 0, 0x20e469b2, 0xeea1a079, 0, 0]);
  });

  it('tells an odd last character from the same with a NUL after it', () => {
    assert.notDeepEqual(printOf('abc'), printOf('abc\0'));
  });

  it('gives the 46,656 URLs of the family that collided 46,656 fingerprints', () => {
    const urls = family();
    assert.ok(urls.includes('https://example.com/x/exnho7') && urls.includes('https://example.com/x/e6n3oz'));
    assert.equal(new Set(urls.map((url) => printOf(url).join(':'))).size, 46_656);
  });
});

describe('the duplicate filter keys URLs by that fingerprint', () => {
  it('a URL added is seen again by its fingerprint, and a fingerprint added is seen again by its URL', () => {
    const urls = ['https://example.com/x/exnho7', 'https://www.example.com/', 'https://www.example.com/p?q=1', ''];
    const byUrl = new DuplicateFilter(1 << 10);
    const byPrint = new DuplicateFilter(1 << 10);
    for (const url of urls) {
      assert.equal(byUrl.add(url), true, url);
      assert.equal(byUrl.addFingerprint(...printOf(url)), false, url);
      assert.equal(byPrint.addFingerprint(...printOf(url)), true, url);
      assert.equal(byPrint.add(url), false, url);
    }
    // Signed halves (as Int32Array holds them) are the same fingerprint.
    const [hi, lo] = printOf(urls[0] ?? '');
    assert.equal(byUrl.addFingerprint(hi | 0, lo | 0), false);
  });

  it('keeps the family that collided apart, one by one and in batches', () => {
    const urls = family();
    const one = new DuplicateFilter(1 << 14);
    for (const url of urls) assert.equal(one.add(url), true, url);
    for (const url of urls) assert.equal(one.add(url), false, url);
    assert.deepEqual([one.size, one.forgotten], [46_656, 0]);
    const all = new DuplicateFilter(1 << 14);
    const results = new Uint8Array(urls.length);
    all.addAll(urls, urls.length, results);
    assert.equal(results.every((result) => result === NEW), true);
    all.addAll(urls, urls.length, results);
    assert.equal(results.every((result) => result === SEEN), true);
  });

  it('takes the all-zero fingerprint, which marks an empty slot, for a key like any other', () => {
    const filter = new DuplicateFilter(2);
    assert.equal(filter.addFingerprint(0, 0), true);
    assert.equal(filter.addFingerprint(0, 0), false);
    assert.equal(filter.size, 1);
  });
});

describe('FingerprintTable (R25, R38)', () => {
  it('things sharing a fingerprint are kept apart when they are not the same, through every growth; the same thing is found again', () => {
    const table = new FingerprintTable(2);
    const names: string[] = [];
    // Every name gets one of three fingerprints (the sign bit set in two), as if they all collided.
    const fingerprints = [
      [0x8000_0001, 0xffff_fffe],
      [0x8000_0001, 0x0000_0001],
      [0x0000_0005, 0x8000_0000],
    ] as const;
    const add = (name: string): number => {
      const [hi, lo] = fingerprints[name.length % 3] as readonly [number, number];
      const n = names.push(name) - 1;
      return table.add(hi, lo, n, (existing) => names[existing] === name);
    };
    const words = Array.from({ length: 300 }, (_, i) => `w${'x'.repeat(i % 7)}${i}`);
    for (const [i, word] of words.entries()) assert.equal(add(word), i, word);
    // Added again, each is its first listing, found whichever fingerprint it shares and however full the table grew.
    for (const [i, word] of words.entries()) assert.equal(add(word), i, word);
    // Without a test of sameness, a fingerprint stands for its first holder.
    assert.equal(table.add(0x8000_0001, 0xffff_fffe, 9999), words.findIndex((word) => word.length % 3 === 0));
    assert.equal(table.get(0x0000_0005, 0x8000_0000), words.findIndex((word) => word.length % 3 === 2));
    assert.equal(table.get(0x1234, 0x5678), -1);
  });
});

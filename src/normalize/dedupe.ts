/**
 * The duplicate filter (R25) in bounded memory: 64-bit fingerprints (`fingerprint`, the one validate
 * uses too) in a cuckoo table of 2^18 buckets × 8 slots, 16 MiB however many URLs come. Keys go to
 * its first 2^11 buckets (128 KiB, room for ~8,000 URLs) until a key finds both its buckets full,
 * then to all: the first touch of a page of the table is a page fault, and faulting in all 16 MiB
 * cost a 5,000-URL build more than its dedupe. One step, with a copy of 128 KiB: a large run holds
 * one table and no copy of note, as its memory bound is tight.
 *
 * Policy: a URL is dropped only when its fingerprint is in the table, so a URL is never lost to a
 * full filter; the only wrong drop is a 64-bit collision with one of the ≤ 2^21 fingerprints held
 * (odds about 1 in 2 million over a 5M-URL run, 1 in 4,000 over a full index set of 2.5 billion).
 * Up to about 2 million distinct URLs (the table filled to ~99%) every duplicate is found. Past that the table forgets an old fingerprint for each new one:
 * a duplicate is still found when its first occurrence is recent, but one repeated far apart may be
 * written twice. R25 is only a recommendation, so that beats both dropping real URLs (smaller
 * fingerprints) and memory that grows with the input. `forgotten` tells the caller when it begins.
 */
import { fingerprint } from './fingerprint.ts';

const EMPTY = 0;
const SLOTS_PER_BUCKET = 8;
/** Each slot is two Uint32 (hi, lo): a bucket is 64 bytes, one cache line. */
const WORDS_PER_BUCKET = SLOTS_PER_BUCKET * 2;
const DEFAULT_BUCKETS = 1 << 18;
/** Buckets in use at first (all when there are fewer). */
const INITIAL_BUCKETS = 1 << 11;
/** How far an insert may push fingerprints around before the table counts as full. */
const MAX_KICKS = 128;

/** The most keys `addAll` hashes before it touches their buckets. */
export const FILTER_BATCH = 64;

/** What `addAll` says of each key. */
export const SEEN = 0;
export const NEW = 1;
/** New, and adding it made the table forget an old fingerprint (the first time: see `forgotten`). */
export const NEW_TABLE_FULL = 2;

export class DuplicateFilter {
  /**
   * A fingerprint lives in bucket `hi & mask` or `lo & mask`, slots filled in order. Nothing is ever
   * removed without a replacement, so a bucket once full stays full: a key is looked up in its second
   * bucket only when its first is full, and most lookups read one cache line.
   */
  readonly #table: Uint32Array;
  /** The buckets in use, less one: keys go to `[0, #mask]`. */
  #mask: number;
  /** The most buckets the table grows to (its length). */
  readonly #maxBuckets: number;
  #size = 0;
  #forgotten = 0;
  /** Picks the slot to displace; a counter keeps the output deterministic. */
  #victim = 0;
  /** The fingerprint of the key `add` was given. */
  readonly #print = new Uint32Array(2);
  /** The fingerprints of a batch of `addAll`, each as its two halves side by side. */
  readonly #batch = new Uint32Array(2 * FILTER_BATCH);
  /** Where the bucket reads of a batch go, so they are not optimized away. */
  #touched = 0;

  /** `buckets`: the most the table grows to (a power of two, rounded up). */
  constructor(buckets = DEFAULT_BUCKETS) {
    this.#maxBuckets = 1 << Math.ceil(Math.log2(Math.max(2, buckets)));
    // All of it taken at once, as zeroed pages cost memory only when touched; keys go to its first
    // buckets until it grows, so a small run touches few pages and a large one never holds two tables.
    this.#table = new Uint32Array(this.#maxBuckets * WORDS_PER_BUCKET);
    this.#mask = Math.min(this.#maxBuckets, INITIAL_BUCKETS) - 1;
  }

  /** Fingerprints held. */
  get size(): number {
    return this.#size;
  }

  /** Fingerprints dropped to make room; from the first one on, a far-apart duplicate may go unnoticed. */
  get forgotten(): number {
    return this.#forgotten;
  }

  /** Adds the key; returns false when it was seen before. */
  add(key: string): boolean {
    const print = this.#print;
    fingerprint(key, print, 0);
    return this.#add(print[0] ?? 0, print[1] ?? 0) !== SEEN;
  }

  /** Adds a key by its fingerprint's halves (as `fingerprint` writes them), for a caller that has it already; false when it was seen before. */
  addFingerprint(hi: number, lo: number): boolean {
    return this.#add(hi >>> 0, lo >>> 0) !== SEEN;
  }

  /**
   * Adds `keys[0..count)` in order, as `add` would one by one, and writes SEEN, NEW or NEW_TABLE_FULL
   * for each into `results`. Faster than `add` for large tables: all the keys are hashed first and
   * their buckets read back to back, so their cache misses overlap instead of coming one at a time.
   */
  addAll(keys: readonly string[], count: number, results: Uint8Array): void {
    const prints = this.#batch;
    for (let start = 0; start < count; start += FILTER_BATCH) {
      const end = Math.min(count, start + FILTER_BATCH);
      for (let i = start; i < end; i++) fingerprint(keys[i] ?? '', prints, 2 * (i - start));
      const table = this.#table;
      let touched = this.#touched;
      for (let i = 0; i < end - start; i++) touched ^= table[((prints[2 * i] ?? 0) & this.#mask) * WORDS_PER_BUCKET] ?? 0;
      this.#touched = touched;
      for (let i = start; i < end; i++) {
        const forgotten = this.#forgotten;
        const result = this.#add(prints[2 * (i - start)] ?? 0, prints[2 * (i - start) + 1] ?? 0);
        results[i] = result === NEW && forgotten === 0 && this.#forgotten > 0 ? NEW_TABLE_FULL : result;
      }
    }
  }

  #add(hi: number, lo: number): number {
    // 0/0 marks an empty slot, so the one fingerprint that would look like it is nudged.
    if (hi === EMPTY && lo === EMPTY) hi = 1;
    const table = this.#table;
    const first = (hi & this.#mask) * WORDS_PER_BUCKET;
    const firstFree = this.#find(first, hi, lo);
    if (firstFree === -1) return SEEN;
    if (firstFree < WORDS_PER_BUCKET) return this.#put(first + firstFree, hi, lo);
    const second = (lo & this.#mask) * WORDS_PER_BUCKET;
    const secondFree = this.#find(second, hi, lo);
    if (secondFree === -1) return SEEN;
    if (secondFree < WORDS_PER_BUCKET) return this.#put(second + secondFree, hi, lo);
    if (this.#mask + 1 < this.#maxBuckets) {
      this.#grow();
      return this.#add(hi, lo);
    }
    // Both buckets full: take a slot in the first and move its fingerprint to its other bucket, and so on.
    this.#size++;
    let bucket = first;
    for (let kicks = 0; ; kicks++) {
      const slot = bucket + 2 * (this.#victim++ & (SLOTS_PER_BUCKET - 1));
      const movedHi = table[slot] ?? EMPTY;
      const movedLo = table[slot + 1] ?? EMPTY;
      table[slot] = hi;
      table[slot + 1] = lo;
      // Once the table is full, chains would only grow long: the displaced fingerprint is let go.
      if (kicks === MAX_KICKS || this.#forgotten > 0) {
        this.#forgotten++;
        this.#size--;
        return NEW;
      }
      hi = movedHi;
      lo = movedLo;
      const home = (hi & this.#mask) * WORDS_PER_BUCKET;
      bucket = home === bucket ? (lo & this.#mask) * WORDS_PER_BUCKET : home;
      const free = this.#find(bucket, hi, lo);
      if (free >= 0 && free < WORDS_PER_BUCKET) {
        table[bucket + free] = hi;
        table[bucket + free + 1] = lo;
        return NEW;
      }
    }
  }

  /** Every bucket in use, every fingerprint put again (each has new homes under the wider mask). */
  #grow(): void {
    const used = (this.#mask + 1) * WORDS_PER_BUCKET;
    // A copy of the first buckets, which are then cleared for the wider mask.
    const held = this.#table.slice(0, used);
    this.#table.fill(EMPTY, 0, used);
    this.#mask = this.#maxBuckets - 1;
    this.#size = 0;
    for (let slot = 0; slot < used; slot += 2) {
      const hi = held[slot] ?? EMPTY;
      const lo = held[slot + 1] ?? EMPTY;
      if (hi !== EMPTY || lo !== EMPTY) this.#add(hi, lo);
    }
  }

  /** -1 when the bucket holds the fingerprint, else the offset of its first free slot (WORDS_PER_BUCKET when full). */
  #find(bucket: number, hi: number, lo: number): number {
    const table = this.#table;
    for (let offset = 0; offset < WORDS_PER_BUCKET; offset += 2) {
      const storedHi = table[bucket + offset];
      const storedLo = table[bucket + offset + 1];
      if (storedHi === hi && storedLo === lo) return -1;
      if (storedHi === EMPTY && storedLo === EMPTY) return offset;
    }
    return WORDS_PER_BUCKET;
  }

  #put(slot: number, hi: number, lo: number): number {
    this.#table[slot] = hi;
    this.#table[slot + 1] = lo;
    this.#size++;
    return NEW;
  }
}


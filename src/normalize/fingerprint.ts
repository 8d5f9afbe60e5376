/** One 64-bit URL fingerprint for the writer's duplicate filter (R25) and validate's R25 and R38 checks, and a table from fingerprints to numbers. */

/**
 * A 64-bit fingerprint of `text`, written to `out` at `at` (high half) and `at + 1` (low half): two
 * MurmurHash3 lanes (other seeds, rotations and multipliers in the second) over the text two
 * characters a word, each finished with its mixer, then crossed. Rotating every step matters: a
 * multiply alone moves a difference only upwards, and a cheaper hash of that kind gave colliding
 * pairs of ordinary URLs (`…/x/exnho7` and `…/x/e6n3oz` among them); this one gives none in that
 * family, nor among millions of numeric, hex or random-ID URLs. Not made to resist crafted
 * collisions: input built to collide could have the writer drop a URL as a duplicate, or make up or
 * hide an R38 warning, no more; a cryptographic hash would resist them at many times the cost.
 */
export function fingerprint(text: string, out: Uint32Array, at: number): void {
  const length = text.length;
  let h1 = 0x9747b28c;
  let h2 = 0x3c6ef372 ^ length;
  for (let i = 0; i < length; i += 2) {
    // An odd last character is a word of its own; the length, mixed in, tells it from one with a NUL after it.
    let k = i + 1 < length ? text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16) : text.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h1 ^= k;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
    h2 ^= k;
    h2 = (h2 << 17) | (h2 >>> 15);
    h2 = (Math.imul(h2, 9) + 0x2a8b1f7d) | 0;
  }
  h1 ^= length;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h1 = Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x7feb352d);
  h2 = Math.imul(h2 ^ (h2 >>> 15), 0x846ca68b);
  h2 ^= h2 >>> 16;
  out[at] = (h1 + h2) | 0;
  out[at + 1] = (h2 + 2 * h1) | 0;
}

/**
 * 64-bit fingerprints (two halves) to numbers ≥ 0 (open addressing, linear probing), sized for
 * `count` of them and doubled when half full. A slot's number and fingerprint lie side by side, so a
 * probe of a table larger than the cache misses once, not twice.
 */
export class FingerprintTable {
  /** Per slot: its number (-1: empty), then the fingerprint's halves (as signed 32-bit). */
  #slots: Int32Array;
  #mask: number;
  #room: number;

  constructor(count: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(2, 2 * count)));
    this.#slots = new Int32Array(3 * size).fill(-1);
    this.#mask = size - 1;
    this.#room = size >>> 1;
  }

  /** The fingerprint's number, or -1. */
  get(hi: number, lo: number): number {
    const slots = this.#slots;
    const h = hi | 0;
    const l = lo | 0;
    for (let slot = hi & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const value = slots[3 * slot] ?? -1;
      if (value === -1 || (slots[3 * slot + 1] === h && slots[3 * slot + 2] === l)) return value;
    }
  }

  /**
   * The number of the fingerprint (one that is also `same`, if given: a fingerprint shared by
   * things that are not the same is kept once for each), `value` if it is new.
   */
  add(hi: number, lo: number, value: number, same?: (existing: number) => boolean): number {
    const slots = this.#slots;
    const h = hi | 0;
    const l = lo | 0;
    let slot = hi & this.#mask;
    for (; slots[3 * slot] !== -1; slot = (slot + 1) & this.#mask) {
      if (slots[3 * slot + 1] === h && slots[3 * slot + 2] === l && (same === undefined || same(slots[3 * slot] ?? 0))) return slots[3 * slot] ?? 0;
    }
    if (this.#room === 0) {
      this.#grow();
      return this.add(hi, lo, value, same);
    }
    this.#room--;
    slots[3 * slot] = value;
    slots[3 * slot + 1] = h;
    slots[3 * slot + 2] = l;
    return value;
  }

  #grow(): void {
    const old = this.#slots;
    const size = old.length / 3;
    const slots = new Int32Array(6 * size).fill(-1);
    const mask = 2 * size - 1;
    // Every slot moves, those sharing a fingerprint too: each to the first free slot from its place.
    for (let from = 0; from < size; from++) {
      const value = old[3 * from] ?? -1;
      if (value === -1) continue;
      const h = old[3 * from + 1] ?? 0;
      let slot = h & mask;
      while (slots[3 * slot] !== -1) slot = (slot + 1) & mask;
      slots[3 * slot] = value;
      slots[3 * slot + 1] = h;
      slots[3 * slot + 2] = old[3 * from + 2] ?? 0;
    }
    this.#slots = slots;
    this.#mask = mask;
    this.#room = size - (size >>> 1);
  }
}

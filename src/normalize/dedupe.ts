/**
 * Exact-enough duplicate detection in 8 bytes per URL: a 64-bit fingerprint (two independent
 * 32-bit hashes) in an open-addressing table of typed arrays. Holding the strings themselves would
 * cost ~100 bytes per URL; a 64-bit collision among 100M URLs has odds of about 1 in 3,700.
 */
const EMPTY = 0;
const MAX_LOAD = 0.7;

/** murmur3's finalizer: every input bit affects every output bit. */
function fmix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class FingerprintSet {
  /** Slot i holds its fingerprint at [2i, 2i + 1]: both halves in one cache line. */
  #slots: Uint32Array;
  #size = 0;
  #mask: number;

  constructor(initialCapacity = 1 << 16) {
    const capacity = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.#slots = new Uint32Array(capacity * 2);
    this.#mask = capacity - 1;
  }

  get size(): number {
    return this.#size;
  }

  /** Adds the key; returns false when it was already present. */
  add(key: string): boolean {
    // Two murmur3-style 32-bit hashes with different seeds, over two UTF-16 units per round.
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    const pairs = key.length & ~1;
    for (let i = 0; i < pairs; i += 2) {
      const k = Math.imul(key.charCodeAt(i) | (key.charCodeAt(i + 1) << 16), 0xcc9e2d51);
      const mixed = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
      h1 ^= mixed;
      h1 = Math.imul((h1 << 13) | (h1 >>> 19), 5) + 0xe6546b64;
      h2 += mixed ^ (h2 >>> 7);
      h2 = Math.imul(h2, 0x5bd1e995);
    }
    if (pairs !== key.length) {
      const k = Math.imul(key.charCodeAt(pairs), 0xcc9e2d51);
      h1 ^= Math.imul((k << 15) | (k >>> 17), 0x1b873593);
      h2 ^= k;
    }
    h1 = fmix(h1 ^ key.length);
    h2 = fmix(h2 ^ key.length ^ 0x3c6ef372);
    // 0/0 marks an empty slot, so nudge the one fingerprint that would look like it.
    if (h1 === EMPTY && h2 === EMPTY) h2 = 1;
    return this.#insert(h1, h2);
  }

  #insert(hi: number, lo: number): boolean {
    const slots = this.#slots;
    let slot = (hi ^ lo) & this.#mask;
    for (;;) {
      const storedHi = slots[2 * slot];
      const storedLo = slots[2 * slot + 1];
      if (storedHi === EMPTY && storedLo === EMPTY) break;
      if (storedHi === hi && storedLo === lo) return false;
      slot = (slot + 1) & this.#mask;
    }
    slots[2 * slot] = hi;
    slots[2 * slot + 1] = lo;
    this.#size++;
    if (this.#size > (this.#mask + 1) * MAX_LOAD) this.#grow();
    return true;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    this.#mask = old.length - 1;
    this.#size = 0;
    for (let i = 0; i < old.length; i += 2) {
      const hi = old[i] ?? EMPTY;
      const lo = old[i + 1] ?? EMPTY;
      if (hi !== EMPTY || lo !== EMPTY) this.#insert(hi, lo);
    }
  }
}

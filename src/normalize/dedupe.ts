/**
 * Exact-enough duplicate detection in 8 bytes per URL: a 64-bit fingerprint (two independent
 * 32-bit hashes) in an open-addressing table of typed arrays. Holding the strings themselves would
 * cost ~100 bytes per URL; a 64-bit collision among 100M URLs has odds of about 1 in 3,700.
 */
const EMPTY = 0;
const MAX_LOAD = 0.7;

export class FingerprintSet {
  #hi: Uint32Array;
  #lo: Uint32Array;
  #size = 0;
  #mask: number;

  constructor(initialCapacity = 1 << 16) {
    const capacity = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.#hi = new Uint32Array(capacity);
    this.#lo = new Uint32Array(capacity);
    this.#mask = capacity - 1;
  }

  get size(): number {
    return this.#size;
  }

  /** Adds the key; returns false when it was already present. */
  add(key: string): boolean {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h1 ^= h1 >>> 16;
    h1 = Math.imul(h1, 0x85ebca6b);
    h1 ^= h1 >>> 13;
    h2 = Math.imul(h2 ^ (h2 >>> 16), 0xc2b2ae35);
    h2 ^= h2 >>> 16;
    // 0/0 marks an empty slot, so nudge the one fingerprint that would look like it.
    if (h1 === EMPTY && h2 === EMPTY) h2 = 1;
    return this.#insert(h1 >>> 0, h2 >>> 0);
  }

  #insert(hi: number, lo: number): boolean {
    let slot = (hi ^ lo) & this.#mask;
    for (;;) {
      const storedHi = this.#hi[slot];
      const storedLo = this.#lo[slot];
      if (storedHi === EMPTY && storedLo === EMPTY) break;
      if (storedHi === hi && storedLo === lo) return false;
      slot = (slot + 1) & this.#mask;
    }
    this.#hi[slot] = hi;
    this.#lo[slot] = lo;
    this.#size++;
    if (this.#size > this.#hi.length * MAX_LOAD) this.#grow();
    return true;
  }

  #grow(): void {
    const oldHi = this.#hi;
    const oldLo = this.#lo;
    this.#hi = new Uint32Array(oldHi.length * 2);
    this.#lo = new Uint32Array(oldLo.length * 2);
    this.#mask = this.#hi.length - 1;
    this.#size = 0;
    for (let i = 0; i < oldHi.length; i++) {
      const hi = oldHi[i] ?? EMPTY;
      const lo = oldLo[i] ?? EMPTY;
      if (hi !== EMPTY || lo !== EMPTY) this.#insert(hi, lo);
    }
  }
}

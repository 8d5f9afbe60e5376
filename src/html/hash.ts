/** A streaming 128-bit hash of text (MurmurHash3 x86_128's rounds over UTF-16 code units, two a word): fast, pure, not cryptographic. */

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Text in, 32 hex digits out. 128 bits, because a state of 100 million pages would see a 64-bit
 * collision with a chance of about 1 in 3,700 (a page whose change goes unseen); at 128 bits, never in practice.
 * Not made to resist crafted collisions: a page is fingerprinted to notice its own changes, not to be trusted.
 */
export class Hash128 {
  #h1 = 0x9368e53c;
  #h2 = 0x2792a08c;
  #h3 = 0x7b4b22a4;
  #h4 = 0x1d9f4c8e;
  /** The block being filled: 8 code units, 4 words. */
  readonly #block = new Uint16Array(8);
  #filled = 0;
  #length = 0;

  update(text: string): this {
    const block = this.#block;
    let filled = this.#filled;
    for (let i = 0; i < text.length; i++) {
      block[filled++] = text.charCodeAt(i);
      if (filled === 8) {
        this.#mix();
        filled = 0;
      }
    }
    this.#filled = filled;
    this.#length += text.length;
    return this;
  }

  /** The hash as 32 lowercase hex digits; the hash is spent. */
  digest(): string {
    if (this.#filled > 0) {
      // The tail as a block of its own, zero-padded: the length, mixed in below, tells it from real zeros.
      this.#block.fill(0, this.#filled);
      this.#mix();
    }
    let h1 = this.#h1 ^ this.#length;
    let h2 = this.#h2 ^ this.#length;
    let h3 = this.#h3 ^ this.#length;
    let h4 = this.#h4 ^ this.#length;
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h3 = fmix(h3);
    h4 = fmix(h4);
    h1 = (h1 + h2 + h3 + h4) | 0;
    h2 = (h2 + h1) | 0;
    h3 = (h3 + h1) | 0;
    h4 = (h4 + h1) | 0;
    return [h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
  }

  #mix(): void {
    const b = this.#block;
    let k1 = (b[0] ?? 0) | ((b[1] ?? 0) << 16);
    let k2 = (b[2] ?? 0) | ((b[3] ?? 0) << 16);
    let k3 = (b[4] ?? 0) | ((b[5] ?? 0) << 16);
    let k4 = (b[6] ?? 0) | ((b[7] ?? 0) << 16);
    let h1 = this.#h1;
    let h2 = this.#h2;
    let h3 = this.#h3;
    let h4 = this.#h4;
    k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
    h1 ^= k1;
    h1 = (Math.imul((rotl(h1, 19) + h2) | 0, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
    h2 ^= k2;
    h2 = (Math.imul((rotl(h2, 17) + h3) | 0, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
    h3 ^= k3;
    h3 = (Math.imul((rotl(h3, 15) + h4) | 0, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
    h4 ^= k4;
    h4 = (Math.imul((rotl(h4, 13) + h1) | 0, 5) + 0x32ac3b17) | 0;
    this.#h1 = h1;
    this.#h2 = h2;
    this.#h3 = h3;
    this.#h4 = h4;
  }
}

/**
 * Gzip for files whose first bytes are known last. A sitemap's head declares only the namespaces
 * its body uses (R24), so the body is compressed while the file is built and the head joins at the
 * end, as pigz joins blocks: gzip header, the head as raw deflate ended by a sync flush (byte-aligned,
 * not final), the body's deflate blocks, then a trailer whose CRC-32 is combined from the two parts'.
 * The result is one ordinary gzip member, so every reader takes it.
 */
import { once } from 'node:events';
import { constants, crc32, createGzip, deflateRawSync } from 'node:zlib';

const GZIP_HEADER_BYTES = 10;
const GZIP_TRAILER_BYTES = 8;
/** When zlib falls this far behind, the builder waits for it; below that it only yields a turn. */
const MAX_QUEUED_BYTES = 1024 * 1024;

export interface StreamingGzip {
  /** Compresses a body chunk on the thread pool; the promise settles once the builder may go on. */
  write(chunk: Uint8Array): Promise<void>;
  /** Ends the body with `tail` and returns the whole `.gz` file, with `head` in front of the body. */
  finish(head: Uint8Array, tail: Uint8Array): Promise<Uint8Array[]>;
  destroy(): void;
}

export function streamingGzip(level: number): StreamingGzip {
  const body = createGzip({ level });
  const compressed: Buffer[] = [];
  let bodyBytes = 0;
  body.on('data', (chunk: Buffer) => compressed.push(chunk));
  const ended = once(body, 'end');
  ended.catch(() => {}); // a failure surfaces through `finish`; this only keeps it from counting as unhandled
  return {
    write(chunk) {
      bodyBytes += chunk.length;
      body.write(chunk);
      if (body.writableLength > MAX_QUEUED_BYTES) return once(body, 'drain').then(() => undefined);
      // zlib hands each finished chunk back through the event loop; a synchronous builder must let it run.
      return new Promise((resolve) => setImmediate(resolve));
    },
    async finish(head, tail) {
      bodyBytes += tail.length;
      body.end(tail);
      await ended;
      const member = Buffer.concat(compressed);
      const bodyCrc = member.readUInt32LE(member.length - GZIP_TRAILER_BYTES);
      const trailer = Buffer.alloc(GZIP_TRAILER_BYTES);
      trailer.writeUInt32LE(crc32Combine(crc32(head), bodyCrc, bodyBytes), 0);
      trailer.writeUInt32LE((head.length + bodyBytes) % 2 ** 32, 4);
      return [
        member.subarray(0, GZIP_HEADER_BYTES),
        deflateRawSync(head, { level, finishFlush: constants.Z_SYNC_FLUSH }),
        member.subarray(GZIP_HEADER_BYTES, member.length - GZIP_TRAILER_BYTES),
        trailer,
      ];
    },
    destroy() {
      body.destroy();
    },
  };
}

/*
 * CRC-32 of A followed by B from crc(A), crc(B) and B's length, as zlib's crc32_combine does it:
 * multiply crc(A) by x^(8·len(B)) modulo the CRC polynomial (bit-reflected), then add crc(B).
 */
const CRC_POLYNOMIAL = 0xedb88320;
const X_POW_0 = 0x80000000;

/** a(x)·b(x) modulo the polynomial; `a` is never 0 here. */
function multiplyModP(a: number, b: number): number {
  let m = X_POW_0;
  let product = 0;
  for (;;) {
    if ((a & m) !== 0) {
      product ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = (b & 1) !== 0 ? (b >>> 1) ^ CRC_POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** X_POW_2N[k] = x^(2^k) modulo the polynomial. */
const X_POW_2N: number[] = [];
for (let k = 0, p = X_POW_0 >>> 1; k < 32; k++, p = multiplyModP(p, p)) X_POW_2N.push(p);

/** x^(n·2^k) modulo the polynomial. */
function xPowModP(n: number, k: number): number {
  let p = X_POW_0;
  for (; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) p = multiplyModP(X_POW_2N[k % 32] ?? X_POW_0, p);
  }
  return p;
}

export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModP(xPowModP(lengthB, 3), crcA) ^ crcB) >>> 0;
}

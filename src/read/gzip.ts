/**
 * gzip members read one after another, the way `gzip -d` reads a file: each header parsed, its
 * deflate data inflated, its CRC-32 and length checked. The reader streams through Node's gunzip,
 * which fails on bytes after the gzip data that start no member and loses the output of the piece
 * that held them (the whole of a small file); this reads that input again to recover it, streaming
 * on the thread pool like gunzip, so a reader that stops early (at its cap) stops it too.
 */
import { createInflateRaw, crc32 } from 'node:zlib';

const FLAG_HEADER_CRC = 0x02;
const FLAG_EXTRA = 0x04;
const FLAG_NAME = 0x08;
const FLAG_COMMENT = 0x10;
const RESERVED_FLAGS = 0xe0;
const DEFLATE = 8;

/** What came after the last member read. */
export interface GzipEnd {
  /** Bytes after the last member that start no member (trailing zeros not counted: zlib skips them as padding). */
  ignored: number;
  /** Why the member after the last one read could not be read, if one started there. */
  damage?: string;
}

/** The output of every member of `data`, in pieces of at most `chunkSize`; returns what followed them. */
export async function* gunzipMembers(data: Uint8Array, chunkSize: number): AsyncGenerator<Uint8Array, GzipEnd> {
  let at = 0;
  while (data[at] === 0x1f && data[at + 1] === 0x8b) {
    const start = deflateStart(data, at);
    if (typeof start === 'string') return { ignored: 0, damage: start };
    const inflate = createInflateRaw({ chunkSize });
    let crc = 0;
    let length = 0;
    try {
      inflate.end(data.subarray(start));
      for await (const chunk of inflate as AsyncIterable<Uint8Array>) {
        crc = crc32(chunk, crc);
        length += chunk.length;
        yield chunk;
      }
    } catch (error) {
      return { ignored: 0, damage: (error as Error).message };
    } finally {
      inflate.destroy();
    }
    // Raw inflate stops at the end of the deflate data: what it took is where the trailer starts.
    const end = start + inflate.bytesWritten;
    if (end + 8 > data.length) return { ignored: 0, damage: 'unexpected end of file' };
    const trailer = new DataView(data.buffer, data.byteOffset + end, 8);
    if (trailer.getUint32(0, true) !== crc) return { ignored: 0, damage: 'incorrect data check' };
    if (trailer.getUint32(4, true) !== length % 2 ** 32) return { ignored: 0, damage: 'incorrect length check' };
    at = end + 8;
  }
  const rest = data.subarray(at);
  return { ignored: rest.every((byte) => byte === 0) ? 0 : rest.length };
}

/** Where a member's deflate data starts, past its header (RFC 1952, 2.3), or what is wrong with the header. */
function deflateStart(data: Uint8Array, member: number): number | string {
  const flags = data[member + 3] ?? 0;
  if (member + 10 > data.length) return 'unexpected end of file';
  if (data[member + 2] !== DEFLATE) return 'unknown compression method';
  if ((flags & RESERVED_FLAGS) !== 0) return 'unknown header flags set';
  let at = member + 10;
  if ((flags & FLAG_EXTRA) !== 0) at += 2 + ((data[at] ?? 0) | ((data[at + 1] ?? 0) << 8));
  if ((flags & FLAG_NAME) !== 0) at = data.indexOf(0, at) + 1 || data.length + 1;
  if ((flags & FLAG_COMMENT) !== 0) at = data.indexOf(0, at) + 1 || data.length + 1;
  if ((flags & FLAG_HEADER_CRC) !== 0) {
    if (at + 2 > data.length) return 'unexpected end of file';
    // The low 16 bits of the CRC-32 of the header before it.
    if (((data[at] ?? 0) | ((data[at + 1] ?? 0) << 8)) !== (crc32(data.subarray(member, at)) & 0xffff)) return 'header crc mismatch';
    at += 2;
  }
  return at > data.length ? 'unexpected end of file' : at;
}

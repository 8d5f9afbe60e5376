/**
 * gzip members read one after another as `gzip -d` reads a file: each header parsed, its deflate
 * data inflated, its CRC-32 and length checked, and bytes that start no member ignored. The reader
 * streams through Node's gunzip, which fails on such bytes and loses the output of the piece that
 * held them (the whole of a small file); this reads that input again to recover it.
 */
import { crc32, inflateRawSync } from 'node:zlib';

const FLAG_HEADER_CRC = 0x02;
const FLAG_EXTRA = 0x04;
const FLAG_NAME = 0x08;
const FLAG_COMMENT = 0x10;
const RESERVED_FLAGS = 0xe0;
const DEFLATE = 8;

export interface GzipMembers {
  /** The inflated members, in order. */
  output: Uint8Array[];
  outputBytes: number;
  /** Bytes after the last member that start no member (trailing zeros not counted, as zlib skips them). */
  ignored: number;
  /** Why the member after the last one read could not be read, if it was damaged. */
  damage?: string;
}

/** Every member of `data` inflated while they last, at most `maxOutput` bytes in all. */
export function gunzipMembers(data: Uint8Array, maxOutput: number): GzipMembers {
  const output: Uint8Array[] = [];
  let outputBytes = 0;
  let at = 0;
  const result = (damage?: string): GzipMembers => {
    const rest = data.subarray(at);
    const ignored = damage !== undefined || rest.every((byte) => byte === 0) ? 0 : rest.length;
    return damage === undefined ? { output, outputBytes, ignored } : { output, outputBytes, ignored, damage };
  };
  while (data[at] === 0x1f && data[at + 1] === 0x8b) {
    // A header that does not hold up is more bytes that start no member, as for gzip -d.
    const start = deflateStart(data, at);
    if (start === undefined) break;
    let inflated: Buffer;
    let end: number;
    try {
      const { buffer, engine } = inflateRawSync(data.subarray(start), { info: true, maxOutputLength: Math.max(1, maxOutput - outputBytes) }) as unknown as {
        buffer: Buffer;
        engine: { bytesWritten: number };
      };
      inflated = buffer;
      end = start + engine.bytesWritten;
    } catch (error) {
      return result((error as Error).message);
    }
    if (end + 8 > data.length) return result('unexpected end of file');
    const trailer = new DataView(data.buffer, data.byteOffset + end, 8);
    if (trailer.getUint32(0, true) !== crc32(inflated)) return result('incorrect data check');
    if (trailer.getUint32(4, true) !== inflated.length % 2 ** 32) return result('incorrect length check');
    output.push(inflated);
    outputBytes += inflated.length;
    at = end + 8;
  }
  return result();
}

/** Where a member's deflate data starts, past its header (RFC 1952, 2.3); undefined if the header is not one. */
function deflateStart(data: Uint8Array, member: number): number | undefined {
  const flags = data[member + 3] ?? 0;
  if (data[member + 2] !== DEFLATE || (flags & RESERVED_FLAGS) !== 0) return undefined;
  let at = member + 10;
  if ((flags & FLAG_EXTRA) !== 0) at += 2 + ((data[at] ?? 0) | ((data[at + 1] ?? 0) << 8));
  if ((flags & FLAG_NAME) !== 0) at = data.indexOf(0, at) + 1 || data.length + 1;
  if ((flags & FLAG_COMMENT) !== 0) at = data.indexOf(0, at) + 1 || data.length + 1;
  if ((flags & FLAG_HEADER_CRC) !== 0) at += 2;
  return at > data.length ? undefined : at;
}

/**
 * Bytes → text, choosing the encoding as XML does (§4.3.3, Appendix F): a byte-order mark first,
 * then the XML declaration's `encoding`, else UTF-8. Anything but UTF-8 is decoded correctly and
 * flagged R1, as are bytes that are not valid UTF-8.
 */
import type { Diagnostic } from '../model/diagnostic.ts';

/** Enough bytes to hold a BOM and the XML declaration. */
export const SNIFF_BYTES = 1024;

const DECLARED_ENCODING = /^<\?xml[^>]*?encoding[ \t\r\n]*=[ \t\r\n]*["']([A-Za-z0-9._:-]+)["']/;
const UTF8_LABELS = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

export interface TextDecoding {
  /** The WHATWG encoding name TextDecoder uses. */
  encoding: string;
  decoder: InstanceType<typeof TextDecoder>;
}

/**
 * Whether `bytes` hold a C0 control character XML forbids (all but tab, LF and CR). Sixteen bytes
 * at a time (a byte below 0x20 sets its top bit in `w - 0x20202020 & ~w`), and only a block with
 * such a byte (a line end, mostly) is looked at byte by byte: about 4× a regex over the decoded text,
 * which makes it worth doing on the bytes for UTF-8, where those characters are bytes.
 */
export function hasControlBytes(bytes: Uint8Array): boolean {
  // Up to the first 4-byte boundary one by one (a typed-array view must be aligned).
  const start = (4 - (bytes.byteOffset % 4)) % 4;
  if (bytes.length < start + 16) return controlByteIn(bytes, 0, bytes.length);
  if (controlByteIn(bytes, 0, start)) return true;
  const words = Math.floor((bytes.length - start) / 4);
  const view = new Uint32Array(bytes.buffer, bytes.byteOffset + start, words);
  const blocks = words & ~3;
  for (let i = 0; i < blocks; i += 4) {
    const a = view[i] as number;
    const b = view[i + 1] as number;
    const c = view[i + 2] as number;
    const d = view[i + 3] as number;
    const below = ((a - 0x20202020) & ~a) | ((b - 0x20202020) & ~b) | ((c - 0x20202020) & ~c) | ((d - 0x20202020) & ~d);
    if ((below & 0x80808080) !== 0 && controlByteIn(bytes, start + i * 4, start + i * 4 + 16)) return true;
  }
  return controlByteIn(bytes, start + blocks * 4, bytes.length);
}

function controlByteIn(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i] as number;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}

/** Picks the decoder from the first bytes of the document (up to `SNIFF_BYTES`, or all of it if shorter). */
export function sniffEncoding(head: Uint8Array, report: (diagnostic: Diagnostic) => void): TextDecoding {
  if (head[0] === 0xff && head[1] === 0xfe) return nonUtf8('utf-16le', 'UTF-16 (little-endian byte-order mark)', report);
  if (head[0] === 0xfe && head[1] === 0xff) return nonUtf8('utf-16be', 'UTF-16 (big-endian byte-order mark)', report);
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return utf8();
  // The declaration is ASCII in every encoding a BOM-less XML file may use.
  let ascii = '';
  for (let i = 0; i < head.length && i < SNIFF_BYTES; i++) ascii += String.fromCharCode(head[i] as number);
  const label = DECLARED_ENCODING.exec(ascii)?.[1]?.toLowerCase();
  if (label === undefined || UTF8_LABELS.has(label)) return utf8();
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    report({ rule: 'R1', level: 'error', message: `the declared encoding "${label}" is unknown; read as UTF-8 (sitemaps must be UTF-8)`, line: 1, column: 1 });
    return utf8();
  }
  if (decoder.encoding === 'utf-8') return { encoding: 'utf-8', decoder };
  return nonUtf8(label, `"${label}"`, report);
}

function utf8(): TextDecoding {
  return { encoding: 'utf-8', decoder: new TextDecoder('utf-8') };
}

function nonUtf8(label: string, what: string, report: (diagnostic: Diagnostic) => void): TextDecoding {
  const decoder = new TextDecoder(label);
  report({ rule: 'R1', level: 'error', message: `the file is encoded in ${what}, not UTF-8; decoded as ${decoder.encoding}`, line: 1, column: 1 });
  return { encoding: decoder.encoding, decoder };
}

/**
 * Counts U+FFFD that the decoder made up: replacement characters in the text beyond those the bytes
 * spelled out (EF BF BD). Checked only when one appears, so valid files pay one `indexOf` a chunk.
 */
export function inventedReplacements(bytes: Uint8Array, text: string): number {
  if (text.indexOf('\uFFFD') === -1) return 0;
  let inText = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) inText++;
  let inBytes = 0;
  for (let i = bytes.indexOf(0xef); i !== -1 && i + 2 < bytes.length; i = bytes.indexOf(0xef, i + 1)) {
    if (bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) inBytes++;
  }
  return Math.max(0, inText - inBytes);
}

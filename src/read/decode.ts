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

/** What the reader asks of a decoder: TextDecoder's `decode`, streaming. */
export interface ChunkDecoder {
  /** The WHATWG encoding name. */
  readonly encoding: string;
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}

export interface TextDecoding {
  /** The WHATWG encoding name TextDecoder uses. */
  encoding: string;
  decoder: ChunkDecoder;
}

const NO_BYTES = new Uint8Array(0);

/**
 * UTF-8 as a streaming `TextDecoder('utf-8')` decodes it, call for call, but a chunk of ASCII
 * (told by `isAscii`, Node's SIMD check) is decoded one-shot when no character is left unfinished:
 * Node 22's streaming decode goes through ICU, 4–6× slower on ASCII than its one-shot decode. Other
 * chunks go to the streaming decoder (Node 22's one-shot decode is slower than it on non-ASCII
 * text). The byte-order mark is dropped here, as the first character of a stream only: Node 24's
 * streaming decoder also drops a U+FEFF after a first character that came in two calls.
 */
export class Utf8StreamDecoder implements ChunkDecoder {
  readonly encoding = 'utf-8';
  readonly #isAscii: (bytes: Uint8Array) => boolean;
  readonly #streaming = new TextDecoder('utf-8', { ignoreBOM: true });
  readonly #oneShot = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The streaming decoder holds no bytes of an unfinished character: the last byte it was given is ASCII, or it was flushed. */
  #idle = true;
  /** Whether text has come out since the stream began: a byte-order mark counts only before. */
  #started = false;

  constructor(isAscii: (bytes: Uint8Array) => boolean) {
    this.#isAscii = isAscii;
  }

  decode(input: Uint8Array = NO_BYTES, options?: { stream?: boolean }): string {
    const stream = options?.stream === true;
    let text = this.#idle && this.#isAscii(input) ? this.#oneShot.decode(input) : this.#streaming.decode(input, { stream });
    if (input.length > 0) this.#idle = (input[input.length - 1] as number) < 0x80;
    if (!this.#started && text !== '') {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A call that is not streaming ends the stream; the next call begins another.
    if (!stream) {
      this.#idle = true;
      this.#started = false;
    }
    return text;
  }
}

/**
 * Whether `bytes` hold a C0 control character XML forbids (all but tab, LF and CR). Sixteen bytes
 * at a time (a byte below 0x20 sets its top bit in `w - 0x20202020 & ~w`), and a block with such a
 * byte (a line end, mostly) is looked at exactly, a word at a time (`forbiddenControls`): about 4× a
 * regex over the decoded text, which makes it worth doing on the bytes for UTF-8, where those
 * characters are bytes. The view is signed: ASCII words then stay small integers, where unsigned
 * ones past 2^31 made V8 drop the optimised code ("lost precision") and run this 2× slower.
 */
export function hasControlBytes(bytes: Uint8Array): boolean {
  // Up to the first 4-byte boundary one by one (a typed-array view must be aligned).
  const start = (4 - (bytes.byteOffset % 4)) % 4;
  if (bytes.length < start + 16) return controlByteIn(bytes, 0, bytes.length);
  if (controlByteIn(bytes, 0, start)) return true;
  const words = Math.floor((bytes.length - start) / 4);
  const view = new Int32Array(bytes.buffer, bytes.byteOffset + start, words);
  const blocks = words & ~3;
  for (let i = 0; i < blocks; i += 4) {
    const a = view[i] as number;
    const b = view[i + 1] as number;
    const c = view[i + 2] as number;
    const d = view[i + 3] as number;
    const below = ((a - 0x20202020) & ~a) | ((b - 0x20202020) & ~b) | ((c - 0x20202020) & ~c) | ((d - 0x20202020) & ~d);
    if ((below & 0x80808080) !== 0 && (forbiddenControls(a) | forbiddenControls(b) | forbiddenControls(c) | forbiddenControls(d)) !== 0) return true;
  }
  return controlByteIn(bytes, start + blocks * 4, bytes.length);
}

/** The top bit of each byte of `word` that is below 0x20 but no tab, LF or CR: exact, as no carry crosses from byte to byte. */
function forbiddenControls(word: number): number {
  const below = zeroBytes(word & 0xe0e0e0e0);
  if (below === 0) return 0;
  return below & ~(zeroBytes(word ^ 0x09090909) | zeroBytes(word ^ 0x0a0a0a0a) | zeroBytes(word ^ 0x0d0d0d0d));
}

/** The top bit of each zero byte of `word` (the carry-free form: adding 0x7f to each byte's low seven bits sets its top bit unless it is zero). */
const zeroBytes = (word: number): number => ~(((word & 0x7f7f7f7f) + 0x7f7f7f7f) | word) & 0x80808080;

function controlByteIn(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = bytes[i] as number;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}

/**
 * Picks the decoder from the first bytes of the document (up to `SNIFF_BYTES`, or all of it if
 * shorter). `isAscii` tells whether bytes are all ASCII (Node's `buffer.isAscii`), for the UTF-8
 * decoder's fast path.
 */
export function sniffEncoding(head: Uint8Array, report: (diagnostic: Diagnostic) => void, isAscii: (bytes: Uint8Array) => boolean): TextDecoding {
  if (head[0] === 0xff && head[1] === 0xfe) return nonUtf8('utf-16le', 'UTF-16 (little-endian byte-order mark)', report);
  if (head[0] === 0xfe && head[1] === 0xff) return nonUtf8('utf-16be', 'UTF-16 (big-endian byte-order mark)', report);
  // Without a mark, UTF-16 shows in its first `<` and the ASCII character after it (XML Appendix F).
  if (head[0] === 0x3c && head[1] === 0x00 && head[2] !== 0x00 && head[3] === 0x00) return nonUtf8('utf-16le', 'UTF-16 (little-endian, without a byte-order mark)', report);
  if (head[0] === 0x00 && head[1] === 0x3c && head[2] === 0x00 && head[3] !== 0x00) return nonUtf8('utf-16be', 'UTF-16 (big-endian, without a byte-order mark)', report);
  const utf8Mark = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  // The declaration is ASCII in every encoding a BOM-less XML file may use.
  let ascii = '';
  for (let i = utf8Mark ? 3 : 0; i < head.length && i < SNIFF_BYTES; i++) ascii += String.fromCharCode(head[i] as number);
  const label = DECLARED_ENCODING.exec(ascii)?.[1]?.toLowerCase();
  if (label === undefined || UTF8_LABELS.has(label)) return utf8(isAscii);
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    report({ rule: 'R1', level: 'error', message: `the declared encoding "${label}" is unknown; read as UTF-8 (sitemaps must be UTF-8)`, line: 1, column: 1 });
    return utf8(isAscii);
  }
  if (decoder.encoding === 'utf-8') return utf8(isAscii);
  // The mark says what the bytes are; the declaration is wrong (R1 names the declaration alone).
  if (utf8Mark) {
    report({ rule: 'R1', level: 'error', message: `the file declares "${label}" but starts with a UTF-8 byte-order mark; read as UTF-8`, line: 1, column: 1 });
    return utf8(isAscii);
  }
  // A declaration read one byte a character cannot be UTF-16's: the common mislabel (a .NET StringWriter's) of a UTF-8 file.
  if (decoder.encoding === 'utf-16le' || decoder.encoding === 'utf-16be') {
    report({ rule: 'R1', level: 'error', message: `the file declares "${label}", but its bytes are one byte a character, not UTF-16; read as UTF-8`, line: 1, column: 1 });
    return utf8(isAscii);
  }
  return nonUtf8(label, `"${label}"`, report);
}

function utf8(isAscii: (bytes: Uint8Array) => boolean): TextDecoding {
  return { encoding: 'utf-8', decoder: new Utf8StreamDecoder(isAscii) };
}

function nonUtf8(label: string, what: string, report: (diagnostic: Diagnostic) => void): TextDecoding {
  const decoder = new TextDecoder(label);
  report({ rule: 'R1', level: 'error', message: `the file is encoded in ${what}, not UTF-8; decoded as ${decoder.encoding}`, line: 1, column: 1 });
  return { encoding: decoder.encoding, decoder };
}

/**
 * Where in `text` the first U+FFFD is that the UTF-8 decoder made up (for bytes that are not UTF-8),
 * or -1: replacement characters the bytes spell out (EF BF BD) are the document's own. `text` was
 * decoded from `bytes`, after `before` (the previous chunk's last bytes, which may hold the start of
 * a character it ends). Checked only when one appears, so valid files pay one `indexOf` a chunk.
 */
export function firstInventedReplacement(before: Uint8Array, bytes: Uint8Array, text: string): number {
  if (text.indexOf('\uFFFD') === -1) return -1;
  // The decoder held back the bytes of a character the previous chunk began: the text starts with it.
  const pending = unfinishedCharacter(before);
  const byteAt = (i: number): number | undefined => (i < 0 ? before[before.length + i] : bytes[i]);
  let counted = 0;
  let offset = -pending;
  for (let k = text.indexOf('\uFFFD'); k !== -1; k = text.indexOf('\uFFFD', k + 1)) {
    offset += utf8Length(text, counted, k);
    counted = k;
    if (byteAt(offset) !== 0xef || byteAt(offset + 1) !== 0xbf || byteAt(offset + 2) !== 0xbd) return k;
  }
  return -1;
}

/**
 * Where in `text` the first U+FFFD is that a UTF-16 decoder made up (for an unpaired surrogate), or
 * -1. Every character before it took two bytes per unit, so the one at `k` starts at byte
 * `start + 2k`, where `start` is the byte that the text's first unit came from; `bytes` begins at
 * byte `bytesStart`, and `before` holds the bytes just before it.
 */
export function firstInventedUtf16Replacement(before: Uint8Array, bytes: Uint8Array, bytesStart: number, text: string, start: number, littleEndian: boolean): number {
  const byteAt = (i: number): number | undefined => (i < bytesStart ? before[before.length - (bytesStart - i)] : bytes[i - bytesStart]);
  const [first, second] = littleEndian ? [0xfd, 0xff] : [0xff, 0xfd];
  for (let k = text.indexOf('\uFFFD'); k !== -1; k = text.indexOf('\uFFFD', k + 1)) {
    if (byteAt(start + 2 * k) !== first || byteAt(start + 2 * k + 1) !== second) return k;
  }
  return -1;
}

/** The UTF-8 length of `text` from `from` to `to` (whole characters: no lone surrogates come from a decoder). */
function utf8Length(text: string, from: number, to: number): number {
  let length = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 for each half.
    length += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return length;
}

/** How many bytes at the end of `bytes` begin a UTF-8 character they do not finish. */
function unfinishedCharacter(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

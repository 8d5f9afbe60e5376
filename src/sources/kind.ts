/** What the first bytes of an input say it is, when it is no text: by magic bytes where a format has them, else NUL bytes or bytes that are not UTF-8. */

/** How many first bytes are looked at (a tar header's magic sits at 257). */
export const HEAD_BYTES = 8192;

interface Magic {
  at: number;
  bytes: readonly number[];
  what: string;
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

const MAGICS: readonly Magic[] = [
  { at: 0, bytes: [0x1f, 0x8b], what: 'gzip-compressed data' },
  { at: 0, bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive (an .xlsx, .docx or .ods file is one too; export it as CSV)' },
  { at: 0, bytes: [0x50, 0x4b, 0x05, 0x06], what: 'an empty zip archive' },
  { at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], what: 'a PNG image' },
  { at: 0, bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { at: 0, bytes: ascii('GIF87a'), what: 'a GIF image' },
  { at: 0, bytes: ascii('GIF89a'), what: 'a GIF image' },
  { at: 8, bytes: ascii('WEBP'), what: 'a WebP image' },
  { at: 0, bytes: ascii('%PDF-'), what: 'a PDF document' },
  { at: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed data' },
  { at: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed data' },
  { at: 4, bytes: [0x31, 0x41, 0x59, 0x26, 0x53, 0x59], what: 'bzip2-compressed data' },
  { at: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: 'a 7z archive' },
  { at: 257, bytes: ascii('ustar'), what: 'a tar archive' },
  { at: 0, bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], what: 'an old Microsoft Office file (.xls, .doc; export it as CSV)' },
  { at: 0, bytes: ascii('SQLite format 3\0'), what: 'an SQLite database' },
  { at: 0, bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'an executable (ELF)' },
  { at: 0, bytes: [0xff, 0xfe], what: 'UTF-16 text (save it as UTF-8)' },
  { at: 0, bytes: [0xfe, 0xff], what: 'UTF-16 text (save it as UTF-8)' },
];

/** bzip2's "BZh" and a block size digit come before the magic at 4. */
const BZIP2 = /^BZh[1-9]$/;

export function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * What `head` (an input's first bytes, up to `HEAD_BYTES`) is when it is not text, or undefined for
 * text. Text may hold a line that is not UTF-8 (a Latin-1 é; that line is reported and skipped); data
 * with NUL bytes, or where more than one character in eight is no UTF-8 or a control character, is not.
 */
export function describeBinary(head: Uint8Array): string | undefined {
  for (const { at, bytes, what } of MAGICS) {
    if (bytes.every((byte, i) => head[at + i] === byte) && (at !== 4 || BZIP2.test(String.fromCharCode(...head.subarray(0, 4))))) return what;
  }
  if (head.includes(0)) return 'binary data (it holds NUL bytes)';
  // `stream` leaves a character cut at the end of the head undecoded rather than counted as bad.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(head, { stream: true });
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd || (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f) bad++;
  }
  return bad * 8 > text.length ? 'binary data (it is not UTF-8 text)' : undefined;
}

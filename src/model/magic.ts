/** File formats told by their magic bytes, shared by build's input check (`sources/kind.ts`) and the reader (`read/parse.ts`). */

/** How many first bytes the table needs (a tar header's magic sits at 257). */
export const MAGIC_BYTES = 8192;

export interface Magic {
  /** Each part's offset and bytes; all must match. */
  parts: readonly (readonly [at: number, bytes: readonly number[]])[];
  /** What the data is, as a sentence says it: "a PNG image". */
  what: string;
  /** Advice for build's input, in brackets after `what`. */
  hint?: string;
  /** `text`: encoded text (UTF-16), which a reader decodes; `gzip`: undone by both readers; `binary`: neither. */
  family: 'binary' | 'gzip' | 'text';
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));
const at0 = (bytes: readonly number[]): Magic['parts'] => [[0, bytes]];

const MAGICS: readonly Magic[] = [
  { parts: at0([0x1f, 0x8b]), what: 'gzip-compressed data', family: 'gzip' },
  { parts: at0([0x50, 0x4b, 0x03, 0x04]), what: 'a zip archive', hint: 'an .xlsx, .docx or .ods file is one too; export it as CSV', family: 'binary' },
  { parts: at0([0x50, 0x4b, 0x05, 0x06]), what: 'an empty zip archive', family: 'binary' },
  { parts: at0([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), what: 'a PNG image', family: 'binary' },
  { parts: at0([0xff, 0xd8, 0xff]), what: 'a JPEG image', family: 'binary' },
  { parts: at0(ascii('GIF87a')), what: 'a GIF image', family: 'binary' },
  { parts: at0(ascii('GIF89a')), what: 'a GIF image', family: 'binary' },
  // RIFF first: "WEBP" alone at 8 is also the host of a line such as https://WEBP.example/.
  { parts: [[0, ascii('RIFF')], [8, ascii('WEBP')]], what: 'a WebP image', family: 'binary' },
  { parts: at0(ascii('%PDF-')), what: 'a PDF document', family: 'binary' },
  { parts: at0([0x28, 0xb5, 0x2f, 0xfd]), what: 'zstd-compressed data', family: 'binary' },
  { parts: at0([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), what: 'xz-compressed data', family: 'binary' },
  // bzip2's "BZh" and a block size digit come before the block magic at 4.
  ...Array.from({ length: 9 }, (_, n): Magic => ({ parts: [[0, ascii(`BZh${n + 1}`)], [4, [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]]], what: 'bzip2-compressed data', family: 'binary' })),
  { parts: at0([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), what: 'a 7z archive', family: 'binary' },
  { parts: [[257, ascii('ustar')]], what: 'a tar archive', family: 'binary' },
  { parts: at0([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), what: 'an old Microsoft Office file', hint: '.xls, .doc; export it as CSV', family: 'binary' },
  { parts: at0(ascii('SQLite format 3\0')), what: 'an SQLite database', family: 'binary' },
  { parts: at0([0x7f, 0x45, 0x4c, 0x46]), what: 'an executable (ELF)', family: 'binary' },
  { parts: at0([0xff, 0xfe]), what: 'UTF-16 text', hint: 'save it as UTF-8', family: 'text' },
  { parts: at0([0xfe, 0xff]), what: 'UTF-16 text', hint: 'save it as UTF-8', family: 'text' },
];

/** The format whose magic bytes `head` (a file's first bytes, up to `MAGIC_BYTES`) starts with, if any. */
export function magicOf(head: Uint8Array): Magic | undefined {
  return MAGICS.find(({ parts }) => parts.every(([at, bytes]) => bytes.every((byte, i) => head[at + i] === byte)));
}

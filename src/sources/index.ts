/** Input formats for `build`, chosen by file extension, `--format`, or a look at the first bytes. */
import type { SourceItem } from '../model/pipeline.ts';
import { fromCsv } from './csv.ts';
import { textOf } from './input.ts';
import { fromJsonLines } from './jsonl.ts';
import { fromText } from './text.ts';

export const INPUT_FORMATS = ['text', 'jsonl', 'csv'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** By the name's extension, a `.gz` after it left out (gzip is undone whatever the name). */
export function formatFromName(name: string): InputFormat | undefined {
  const lower = name.toLowerCase().replace(/\.gz$/, '');
  if (/\.(jsonl|ndjson)$/.test(lower)) return 'jsonl';
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.txt')) return 'text';
  return undefined;
}

/**
 * For input with no telling name (stdin), by its first line that is not blank: a CSV header naming a
 * `loc` or `url` column (anywhere, quoted or not) starts CSV; a `{`, or a whole JSON string (a bare
 * URL), starts JSON Lines; anything else is a list of URLs.
 */
export function sniffFormat(head: Uint8Array): InputFormat {
  const text = new TextDecoder().decode(head.subarray(0, 4096)).replace(/^\uFEFF/, '').trimStart();
  const firstLine = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  if (isCsvHeader(firstLine)) return 'csv';
  if (firstLine.startsWith('{') || isJsonString(firstLine.trimEnd())) return 'jsonl';
  return 'text';
}

/** A cell of a CSV line, without the spaces around it: quoted (quotes doubled inside) or bare. */
const CSV_CELL = /\s*("(?:[^"]|"")*"|[^,]*?)\s*(?:,|$)/g;

/** A header names its columns as fromCsv reads them (trimmed, any case, `url` for `loc`), and holds no URL. */
function isCsvHeader(line: string): boolean {
  if (line.includes('://')) return false;
  for (const [, cell = ''] of line.matchAll(CSV_CELL)) {
    const name = (cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell).trim().toLowerCase();
    if (name === 'loc' || name === 'url') return true;
  }
  return false;
}

function isJsonString(line: string): boolean {
  if (!line.startsWith('"')) return false;
  try {
    return typeof JSON.parse(line) === 'string';
  } catch {
    return false;
  }
}

export function readSource(format: InputFormat, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SourceItem> {
  switch (format) {
    case 'jsonl':
      return fromJsonLines(source);
    case 'csv':
      return fromCsv(source);
    case 'text':
      return fromText(source);
  }
}

export interface ReadInputOptions {
  /** The format; sniffed from the first text when not given. */
  format?: InputFormat | undefined;
  /** The input as messages name it: `input "urls.txt"`, `standard input`. @default 'the input' */
  label?: string;
}

/**
 * Records and findings from an input's bytes: gzip undone, input that is no text refused before any
 * record (`SM_INPUT_NOT_TEXT`, naming what it looks like), the format sniffed when not given.
 */
export async function* readInput(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: ReadInputOptions = {}): AsyncGenerator<SourceItem> {
  const { head, bytes } = await textOf(source, options.label ?? 'the input');
  yield* readSource(options.format ?? sniffFormat(head), bytes);
}

export { fromCsv, fromJsonLines, fromText };

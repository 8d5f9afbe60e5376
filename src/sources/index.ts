/** Input formats for `build`, chosen by file extension, `--format`, or a look at the first bytes. */
import type { SourceItem } from '../write/build.ts';
import { fromCsv } from './csv.ts';
import { fromJsonLines } from './jsonl.ts';
import { fromText } from './text.ts';

export const INPUT_FORMATS = ['text', 'jsonl', 'csv'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

export function formatFromName(name: string): InputFormat | undefined {
  const lower = name.toLowerCase();
  if (/\.(jsonl|ndjson)$/.test(lower)) return 'jsonl';
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.txt')) return 'text';
  return undefined;
}

/** For input with no telling name (stdin): a `{` starts JSON Lines, a `loc`/`url` header starts CSV. */
export function sniffFormat(head: Uint8Array): InputFormat {
  const text = new TextDecoder().decode(head.subarray(0, 4096)).replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('{') || text.startsWith('"')) return 'jsonl';
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (/^"?(loc|url)"?\s*(,|$)/i.test(firstLine) && !firstLine.includes('://')) return 'csv';
  return 'text';
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

export { fromCsv, fromJsonLines, fromText };

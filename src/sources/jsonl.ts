/**
 * JSON Lines input: one record object (or a bare URL string) a line; `url` is read as `loc` when there
 * is no `loc`, as in CSV. A record's own `fingerprint` (a string) and `path` (a string) are lifted out
 * of it onto the `SourceRecord`, for a state store, so they are no fields of the sitemap entry.
 */
import { excerpt } from '../model/diagnostic.ts';
import type { SourceItem, SourceRecord } from '../model/pipeline.ts';
import { readLines } from './lines.ts';

export async function* fromJsonLines(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SourceItem> {
  for await (const line of readLines(source)) {
    if ('diagnostic' in line) {
      yield line;
      continue;
    }
    if (line.text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      const reason = error instanceof SyntaxError ? error.message : String(error);
      yield { line: line.line, diagnostic: { rule: 'INPUT', level: 'error', message: `line skipped: not valid JSON (${excerpt(reason, 160)})`, line: line.line } };
      continue;
    }
    yield lifted(line.line, withLoc(value));
  }
}

/** A record with `url` and no `loc` gets it as `loc`, first as every record has it; with both, `loc` wins and `url` is an unknown field. */
function withLoc(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.hasOwn(value, 'loc') || !Object.hasOwn(value, 'url')) return value;
  const { url, ...rest } = value as Record<string, unknown>;
  return { loc: url, ...rest };
}

/** The record with its `fingerprint` and `path` strings moved onto the source record; other types of them stay, and are reported as unknown fields. */
export function lifted(line: number, value: unknown): SourceRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { line, record: value };
  const { fingerprint, path } = value as { fingerprint?: unknown; path?: unknown };
  if (typeof fingerprint !== 'string' && typeof path !== 'string') return { line, record: value };
  const record: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const item: SourceRecord = { line, record };
  if (typeof fingerprint === 'string') {
    item.fingerprint = fingerprint;
    delete record['fingerprint'];
  }
  if (typeof path === 'string') {
    item.path = path;
    delete record['path'];
  }
  return item;
}

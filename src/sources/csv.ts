/**
 * CSV input with a header row. Columns: `loc` (or `url`), `lastmod`, `changefreq`, `priority`;
 * other columns are reported once and ignored. Parsing is csv-parse's (RFC 4180, quotes, BOM).
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { SourceItem } from '../write/build.ts';

const COLUMNS = new Set(['loc', 'lastmod', 'changefreq', 'priority']);

export async function* fromCsv(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SourceItem> {
  const skipped: SourceItem[] = [];
  const parser = Readable.from(source).pipe(
    parse({
      bom: true,
      columns: (header: string[]) => header.map((name) => {
        const column = name.trim().toLowerCase();
        return column === 'url' ? 'loc' : column;
      }),
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error !== undefined) {
          const line = (error as { lines?: number }).lines ?? 0;
          skipped.push({ line, diagnostic: { rule: 'INPUT', level: 'error', message: `CSV row skipped: ${error.message}`, line } });
        }
      },
    }),
  );
  let checkedHeader = false;
  for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
    if (!checkedHeader) {
      checkedHeader = true;
      const columns = Object.keys(record);
      if (!columns.includes('loc')) {
        yield { line: 1, diagnostic: { rule: 'INPUT', level: 'error', message: `the CSV header has no "loc" (or "url") column; columns found: ${columns.join(', ')}`, line: 1 } };
        return;
      }
      const unknown = columns.filter((c) => !COLUMNS.has(c));
      if (unknown.length > 0) {
        yield { line: 1, diagnostic: { rule: 'INPUT', level: 'warn', message: `CSV columns ignored: ${unknown.join(', ')}`, line: 1 } };
      }
    }
    const fields: Record<string, string> = {};
    for (const column of COLUMNS) {
      const value = record[column];
      if (value !== undefined && value.trim() !== '') fields[column] = value;
    }
    // Skipped rows are reported in line order with the records around them.
    while (skipped[0] !== undefined && skipped[0].line < info.lines) yield skipped.shift() as SourceItem;
    yield { line: info.lines, record: fields };
  }
  yield* skipped.splice(0);
}

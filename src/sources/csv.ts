/**
 * CSV input with a header row. Columns: `loc` (or `url`), `lastmod`, `changefreq`, `priority`;
 * other columns are reported once and ignored. Parsing is csv-parse's (RFC 4180, quotes, BOM).
 * Lines are counted here, from the bytes: csv-parse counts a CRLF inside quotes as two lines, and
 * gives a record the line it ends on.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { SourceItem } from '../model/pipeline.ts';

const COLUMNS = new Set(['loc', 'lastmod', 'changefreq', 'priority']);
const LINE_BREAK = /\r\n|\r|\n/g;

/** A row csv-parse skipped, by where it stood: the row's start, unless the error is past its first field. */
interface SkippedRow {
  offset: number;
  message: string;
}

export async function* fromCsv(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SourceItem> {
  const lines = new LineCounter();
  const skipped: SkippedRow[] = [];
  const parser = Readable.from(lines.tee(source)).pipe(
    parse({
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error === undefined) return;
        // Its own line count is the one that can be wrong, so the message goes without it.
        const message = `CSV row skipped: ${error.message.replace(/ (?:at|on) line \d+/, '')}`;
        skipped.push({ offset: (error as { bytes?: number }).bytes ?? 0, message });
      },
    }),
  );
  const skippedRow = ({ offset, message }: SkippedRow): SourceItem => {
    const line = lines.lineOfContentFrom(offset);
    return { line, diagnostic: { rule: 'INPUT', level: 'error', message, line } };
  };
  let header: Map<string, number> | undefined;
  for await (const { record: fields, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
    // Skipped rows are reported in input order with the records around them; lines are asked in that order.
    while (skipped[0] !== undefined && skipped[0].offset < info.bytes) yield skippedRow(skipped.shift() as SkippedRow);
    const line = lines.firstLineOf(info.bytes, fields);
    if (header === undefined) {
      // As csv-parse's `columns` would: names trimmed and lowercased, `url` for `loc`, a repeated name's last column.
      header = new Map(fields.map((name, i) => {
        const column = name.trim().toLowerCase();
        return [column === 'url' ? 'loc' : column, i];
      }));
      const columns = [...header.keys()];
      if (!header.has('loc')) {
        yield { line, diagnostic: { rule: 'INPUT', level: 'error', message: `the CSV header has no "loc" (or "url") column; columns found: ${columns.join(', ')}`, line } };
        return;
      }
      const unknown = columns.filter((c) => !COLUMNS.has(c));
      if (unknown.length > 0) {
        yield { line, diagnostic: { rule: 'INPUT', level: 'warn', message: `CSV columns ignored: ${unknown.join(', ')}`, line } };
      }
      continue;
    }
    const record: Record<string, string> = {};
    for (const column of COLUMNS) {
      const value = fields[header.get(column) ?? -1];
      if (value !== undefined && value.trim() !== '') record[column] = value;
    }
    yield { line, record };
  }
  for (const row of skipped.splice(0)) yield skippedRow(row);
}

/**
 * Line numbers of byte offsets: LF, CRLF and a lone CR each end a line. Offsets are asked in increasing
 * order, so only the bytes passed on to the parser and not yet counted are kept (a stream buffer's worth).
 */
class LineCounter {
  #chunks: Uint8Array[] = [];
  /** Position of the next byte to count, in #chunks[0]. */
  #at = 0;
  #offset = 0;
  #line = 1;
  #previous = 0;

  async *tee(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      if (chunk.length > 0) this.#chunks.push(chunk);
      yield chunk;
    }
  }

  /** The first line of a record that ends at `end` (past its line end, or at the end of the input). */
  firstLineOf(end: number, fields: readonly string[]): number {
    this.#countTo(end);
    const last = this.#previous === 0x0a || this.#previous === 0x0d ? this.#line - 1 : this.#line;
    let inside = 0;
    for (const field of fields) inside += field.match(LINE_BREAK)?.length ?? 0;
    return last - inside;
  }

  /** The line of the first byte at or after `offset` that is no line end (blank lines skipped). */
  lineOfContentFrom(offset: number): number {
    this.#countTo(offset);
    for (let byte = this.#peek(); byte === 0x0a || byte === 0x0d; byte = this.#peek()) this.#countTo(this.#offset + 1);
    return this.#line;
  }

  #peek(): number | undefined {
    return this.#chunks[0]?.[this.#at];
  }

  #countTo(offset: number): void {
    while (this.#offset < offset) {
      const chunk = this.#chunks[0];
      if (chunk === undefined) return;
      const stop = Math.min(chunk.length, this.#at + offset - this.#offset);
      for (let i = this.#at; i < stop; i++) {
        const byte = chunk[i] as number;
        // A CR ends a line; an LF does unless it completes a CRLF.
        if (byte === 0x0d || (byte === 0x0a && this.#previous !== 0x0d)) this.#line++;
        this.#previous = byte;
      }
      this.#offset += stop - this.#at;
      this.#at = stop;
      if (stop === chunk.length) {
        this.#chunks.shift();
        this.#at = 0;
      }
    }
  }
}

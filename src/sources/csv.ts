/**
 * CSV input with a header row. Columns: `loc` (or `url`; with both, `loc`), `lastmod`, `changefreq`, `priority`;
 * other columns are reported once and ignored. Parsing is csv-parse's (RFC 4180, quotes, BOM).
 * Lines are counted here, from the bytes: csv-parse counts a CRLF inside quotes as two lines, and
 * gives a record the line it ends on. A line longer than `MAX_LINE_BYTES` is skipped as text and
 * JSON Lines skip it, before csv-parse sees it; a record running past that size over several lines
 * (a quote left open) stops the input.
 */
import { Readable, pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { SitemapError } from '../errors.ts';
import { excerpt } from '../model/diagnostic.ts';
import type { SourceItem, SourceRecord } from '../model/pipeline.ts';
import { MAX_LINE_BYTES } from './lines.ts';

const COLUMNS = new Set(['loc', 'lastmod', 'changefreq', 'priority']);
/** Columns read onto the source record rather than the entry: the content fingerprint and the source file, for a state store. */
const SOURCE_COLUMNS = ['fingerprint', 'path'] as const;
const LINE_BREAK = /\r\n|\r|\n/g;
const LF = 0x0a;
const CR = 0x0d;

/** A row csv-parse skipped, by where it stood: the row's start, unless the error is past its first field. */
interface SkippedRow {
  offset: number;
  message: string;
}

export async function* fromCsv(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SourceItem> {
  const cap = new LineCap();
  const lines = new LineCounter();
  const skipped: SkippedRow[] = [];
  /** Where the record csv-parse is reading began: past the last record it parsed. */
  let recordStart = 0;
  let overlong = false;
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    info: true,
    skip_records_with_error: true,
    // Lines are capped before csv-parse, so only a record of many lines (a quote left open) gets here.
    max_record_size: MAX_LINE_BYTES,
    // As parsed, not as read: a failing parser drops the records it holds, and the line of the one it failed on is wanted.
    on_record: (record, { bytes }) => {
      recordStart = bytes;
      return record;
    },
    on_skip: (error) => {
      if (error === undefined) return;
      if (error.code === 'CSV_MAX_RECORD_SIZE') {
        overlong = true;
        throw error; // fails the stream: csv-parse would keep growing the field, one skip per character
      }
      // Its own line count is the one that can be wrong, so the message goes without it; values it quotes are cut short.
      const reason = error.message.replace(/ (?:at|on) line \d+/, '').replace(/"((?:[^"\\]|\\.)*)"/g, (_quoted, inner: string) => `"${excerpt(inner)}"`);
      skipped.push({ offset: (error as { bytes?: number }).bytes ?? 0, message: `CSV row skipped: ${reason}` });
    },
  });
  // pipeline, not pipe: a failing source fails the parser, and a parser left early (return, throw) ends the source.
  pipeline(Readable.from(lines.tee(cap.lines(source))), parser, () => {});
  const skippedRow = ({ offset, message }: SkippedRow): SourceItem => {
    const line = lines.lineOfContentFrom(offset);
    return { line, diagnostic: { rule: 'INPUT', level: 'error', message, line } };
  };
  const droppedLine = (offset: number): SourceItem => {
    const line = lines.lineAt(offset);
    return { line, diagnostic: { rule: 'INPUT', level: 'error', message: `line skipped: longer than ${MAX_LINE_BYTES} bytes`, line } };
  };
  /** The findings before `end`, in input order: a dropped line comes first when it lies before the row's first content. */
  function* findingsBefore(end: number): Generator<SourceItem> {
    for (;;) {
      const row = skipped[0];
      const dropped = cap.dropped[0];
      const rowFirst = row !== undefined && row.offset < end ? lines.contentOffsetFrom(row.offset) : Infinity;
      if (dropped !== undefined && dropped < end && dropped < rowFirst) yield droppedLine(cap.dropped.shift() as number);
      else if (rowFirst !== Infinity) yield skippedRow(skipped.shift() as SkippedRow);
      else return;
    }
  }
  let header: Map<string, number> | undefined;
  try {
    for await (const { record: fields, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      // Skipped rows are reported in input order with the records around them; lines are asked in that order.
      if (skipped.length > 0 || cap.dropped.length > 0) yield* findingsBefore(info.bytes);
      const line = lines.firstLineOf(info.bytes, fields);
      if (header === undefined) {
        // As csv-parse's `columns` would: names trimmed and lowercased, a repeated name's last column; `url` for `loc` when there is no `loc`.
        const names = fields.map((name) => name.trim().toLowerCase());
        const urlIsLoc = !names.includes('loc');
        header = new Map(names.map((column, i) => [column === 'url' && urlIsLoc ? 'loc' : column, i]));
        const columns = [...header.keys()].map((c) => excerpt(c, 40));
        if (!header.has('loc')) {
          yield { line, diagnostic: { rule: 'INPUT', level: 'error', message: `the CSV header has no "loc" (or "url") column; columns found: ${excerpt(columns.join(', '))}`, line }, header: true };
          return;
        }
        const unknown = columns.filter((c) => !COLUMNS.has(c) && !(SOURCE_COLUMNS as readonly string[]).includes(c));
        if (unknown.length > 0) {
          yield { line, diagnostic: { rule: 'INPUT', level: 'warn', message: `CSV columns ignored: ${excerpt(unknown.join(', '))}`, line }, header: true };
        }
        continue;
      }
      const record: Record<string, string> = {};
      for (const column of COLUMNS) {
        const value = fields[header.get(column) ?? -1];
        if (value !== undefined && value.trim() !== '') record[column] = value;
      }
      const item: SourceRecord = { line, record };
      for (const column of SOURCE_COLUMNS) {
        const value = fields[header.get(column) ?? -1];
        if (value !== undefined && value.trim() !== '') item[column] = value.trim();
      }
      yield item;
    }
  } catch (error) {
    if (!overlong || !(error instanceof CsvError)) throw error;
    const line = lines.lineOfContentFrom(recordStart);
    throw new SitemapError('SM_INPUT_UNREADABLE', `the CSV record from line ${line} runs past ${MAX_LINE_BYTES} bytes (a quote left open?); the input was not read further`, { cause: error });
  }
  yield* findingsBefore(Infinity);
}

/**
 * Passes whole lines on, holding back the line being read; a line longer than the cap is dropped
 * unread, its line end kept (so lines still count the same) and where it stood noted in `dropped`.
 */
class LineCap {
  /** Offsets, in the bytes passed on, where a dropped line stood (an empty line there now). */
  readonly dropped: number[] = [];
  #carry: Uint8Array[] = [];
  #carryBytes = 0;
  #skipping = false;
  #passed = 0;

  async *lines(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) yield* this.#take(chunk);
    if (!this.#skipping) yield* this.#pass(new Uint8Array(0));
  }

  *#take(chunk: Uint8Array): Generator<Uint8Array> {
    let at = 0;
    while (at < chunk.length) {
      if (this.#skipping) {
        const end = nextBreak(chunk, at);
        if (end === -1) return;
        this.#skipping = false;
        at = end; // the dropped line's end goes on, as an empty line
        continue;
      }
      const first = nextBreak(chunk, at);
      if (first === -1) {
        this.#hold(chunk.subarray(at));
        return;
      }
      if (this.#carryBytes + first - at > MAX_LINE_BYTES) {
        this.#drop();
        continue;
      }
      // Through the last line end at once, unless a line after the first may be over the cap.
      let end = lastBreak(chunk);
      if (end - first > MAX_LINE_BYTES) end = lastFittingBreak(chunk, first);
      yield* this.#pass(chunk.subarray(at, end + 1));
      at = end + 1;
    }
  }

  #hold(rest: Uint8Array): void {
    this.#carry.push(rest);
    this.#carryBytes += rest.length;
    if (this.#carryBytes > MAX_LINE_BYTES) this.#drop();
  }

  #drop(): void {
    this.dropped.push(this.#passed);
    this.#carry = [];
    this.#carryBytes = 0;
    this.#skipping = true;
  }

  /** The line held back, then `bytes`, as they are (no copy). */
  *#pass(bytes: Uint8Array): Generator<Uint8Array> {
    const parts = this.#carry;
    this.#passed += this.#carryBytes + bytes.length;
    this.#carry = [];
    this.#carryBytes = 0;
    yield* parts;
    if (bytes.length > 0) yield bytes;
  }
}

function nextBreak(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length; i++) if (bytes[i] === LF || bytes[i] === CR) return i;
  return -1;
}

function lastBreak(bytes: Uint8Array): number {
  return Math.max(bytes.lastIndexOf(LF), bytes.lastIndexOf(CR));
}

/** From the line end `from` on, the last line end before a line longer than the cap (or the chunk's last). */
function lastFittingBreak(bytes: Uint8Array, from: number): number {
  let end = from;
  for (let next = nextBreak(bytes, end + 1); next !== -1 && next - end - 1 <= MAX_LINE_BYTES; next = nextBreak(bytes, end + 1)) end = next;
  return end;
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

  async *tee(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      if (chunk.length > 0) this.#chunks.push(chunk);
      yield chunk;
    }
  }

  /** The first line of a record that ends at `end` (past its line end, or at the end of the input). */
  firstLineOf(end: number, fields: readonly string[]): number {
    this.#countTo(end);
    const last = this.#previous === LF || this.#previous === CR ? this.#line - 1 : this.#line;
    let inside = 0;
    for (const field of fields) inside += field.match(LINE_BREAK)?.length ?? 0;
    return last - inside;
  }

  /** The line starting at `offset`. */
  lineAt(offset: number): number {
    this.#countTo(offset);
    return this.#line;
  }

  /** The line of the first byte at or after `offset` that is no line end (blank lines skipped). */
  lineOfContentFrom(offset: number): number {
    this.#countTo(offset);
    for (let byte = this.#peek(); byte === LF || byte === CR; byte = this.#peek()) this.#countTo(this.#offset + 1);
    return this.#line;
  }

  /** The offset of the first byte at or after `offset` that is no line end, counting no further than `offset`. */
  contentOffsetFrom(offset: number): number {
    this.#countTo(offset);
    let at = this.#offset;
    for (const [i, chunk] of this.#chunks.entries()) {
      for (let j = i === 0 ? this.#at : 0; j < chunk.length; j++, at++) if (chunk[j] !== LF && chunk[j] !== CR) return at;
    }
    return at;
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
        if (byte === CR || (byte === LF && this.#previous !== CR)) this.#line++;
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

/**
 * The writer's normalize stage: source items → normalized entries without duplicates (R25), in input
 * order, each input finding reported before the entry it came with, as if records went one by one.
 */
import type { Diagnostic } from '../model/diagnostic.ts';
import type { SourceItem, SourceRecord } from '../model/pipeline.ts';
import { DuplicateFilter, FILTER_BATCH, NEW, NEW_TABLE_FULL, SEEN } from './dedupe.ts';
import { RecordNormalizer, type NormalizedEntry, type NormalizeOptions } from './record.ts';

/** The totals the stage keeps, on the build's summary. */
export interface StageCounts {
  records: number;
  dropped: number;
  duplicates: number;
}

/** Takes an entry to write (with the source record it came from); returns a promise only when the stage must wait before the next one. */
export type EntryConsumer = (entry: NormalizedEntry, line: number, source: SourceRecord) => Promise<void> | undefined;

/** Told of a source record dropped, with the finding that says why (`BuildOptions.onDropped`). */
export type DropSink = (record: SourceRecord, finding: Diagnostic) => void;

const PROGRESS_EVERY = 16_384;

/**
 * Items are taken in batches so the duplicate filter sees all their URLs at once and overlaps its
 * memory reads (`DuplicateFilter.addAll`). A batch is normalized first, its findings held with their
 * record, then each record in turn gets its findings reported, its duplicate check and is handed on.
 */
export class NormalizeStage {
  readonly #normalizer: RecordNormalizer;
  /** Undefined when the caller finds repeats itself (a state that holds the run's URLs). */
  readonly #seen: DuplicateFilter | undefined;
  readonly #counts: StageCounts;
  readonly #report: (diagnostic: Diagnostic) => void;
  readonly #dropped: DropSink | undefined;
  readonly #onProgress: () => void;
  readonly #batch: SourceItem[] = [];
  readonly #entries: (NormalizedEntry | undefined)[] = [];
  readonly #locs: string[] = [];
  readonly #verdicts = new Uint8Array(FILTER_BATCH);
  /** Findings of the batch being normalized, in input order; `#heldUntil[i]` is how many come up to item i. */
  readonly #heldFindings: Diagnostic[] = [];
  readonly #heldUntil: number[] = [];
  #droppedUnknown = 0;

  /**
   * `onProgress` is called every 16,384 records; `dropped` is told of each record dropped here, after its finding is reported;
   * `dedupe: false` hands repeated URLs on (the caller drops them).
   */
  constructor(options: NormalizeOptions, counts: StageCounts, report: (diagnostic: Diagnostic) => void, onProgress: () => void, dropped?: DropSink, dedupe = true) {
    this.#seen = dedupe ? new DuplicateFilter() : undefined;
    this.#normalizer = new RecordNormalizer(options, (diagnostic) => this.#heldFindings.push(diagnostic));
    this.#counts = counts;
    this.#report = report;
    this.#dropped = dropped;
    this.#onProgress = onProgress;
  }

  /** Feeds every item through and hands out the last batch: a sync source is walked without a microtask per record, only a full batch is awaited. */
  async drain(items: Iterable<SourceItem> | AsyncIterable<SourceItem>, consume: EntryConsumer): Promise<void> {
    if (Symbol.iterator in items) {
      for (const item of items) {
        if (this.push(item)) await this.take(consume);
      }
    } else {
      for await (const item of items) {
        if (this.push(item)) await this.take(consume);
      }
    }
    await this.take(consume);
  }

  /** Records dropped before their URL was known (a line that could not be read, a record with no loc): a state cannot tell which of its URLs they were. */
  get droppedUnknown(): number {
    return this.#droppedUnknown;
  }

  /** Holds the item; true when the batch is full and must be taken before the next push. */
  push(item: SourceItem): boolean {
    return this.#batch.push(item) === FILTER_BATCH;
  }

  /** Normalizes and de-duplicates the held items, handing each entry to keep to `consume` in input order. */
  async take(consume: EntryConsumer): Promise<void> {
    const batch = this.#batch;
    const entries = this.#entries;
    const locs = this.#locs;
    const heldFindings = this.#heldFindings;
    const heldUntil = this.#heldUntil;
    const counts = this.#counts;
    const report = this.#report;
    let urls = 0;
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i] as SourceItem;
      let entry: NormalizedEntry | undefined;
      if ('diagnostic' in item) heldFindings.push(item.diagnostic);
      else entry = this.#normalizer.normalize(item.record, item.line);
      if (entry !== undefined) locs[urls++] = entry.record.loc;
      entries[i] = entry;
      heldUntil[i] = heldFindings.length;
    }
    if (this.#seen === undefined) this.#verdicts.fill(NEW, 0, urls);
    else this.#seen.addAll(locs, urls, this.#verdicts);
    let released = 0;
    let verdict = 0;
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i] as SourceItem;
      const isRecord = !('header' in item);
      if (isRecord && ++counts.records % PROGRESS_EVERY === 0) this.#onProgress();
      for (const until = heldUntil[i] ?? 0; released < until; released++) report(heldFindings[released] as Diagnostic);
      const entry = entries[i];
      if (entry === undefined) {
        if (isRecord) counts.dropped++;
        if (isRecord && ('diagnostic' in item || !namesUrl(item.record))) this.#droppedUnknown++;
        // The normalizer's last finding on a record it returns nothing for is the one that drops it.
        if (!('diagnostic' in item)) this.#dropped?.(item, heldFindings[released - 1] as Diagnostic);
        continue;
      }
      const { line } = item;
      const seenBefore = this.#verdicts[verdict++];
      if (seenBefore === SEEN) {
        const finding: Diagnostic = { rule: 'R25', level: 'warn', message: 'duplicate URL dropped; the first occurrence is kept', line, url: entry.record.loc };
        report(finding);
        counts.duplicates++;
        counts.dropped++;
        this.#dropped?.(item as SourceRecord, finding);
        continue;
      }
      if (seenBefore === NEW_TABLE_FULL) {
        report({ rule: 'R25', level: 'info', message: `over ${this.#seen?.size.toLocaleString('en-US')} distinct URLs: from here on a duplicate is still dropped when its first occurrence is recent, but one repeated far apart may be listed twice (no URL is ever dropped for this)`, line });
      }
      const pending = consume(entry, line, item as SourceRecord);
      if (pending !== undefined) await pending;
    }
    batch.length = 0;
    heldFindings.length = 0;
  }
}

/** Whether a source record names its URL as a string (`loc` or `url`, or the record itself for a text line). */
function namesUrl(record: unknown): boolean {
  if (typeof record === 'string') return true;
  if (typeof record !== 'object' || record === null) return false;
  const { loc, url } = record as { loc?: unknown; url?: unknown };
  return typeof loc === 'string' || typeof url === 'string';
}

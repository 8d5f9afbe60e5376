/** The messages between `ThreadedStateStore` and its worker (store-worker.ts): plain data, written once for both sides. */
import type { SitemapErrorCode } from '../errors.ts';
import type { BeginOptions, FileState, Seconds, UrlWrite } from './store.ts';

export interface WireError {
  code: SitemapErrorCode;
  message: string;
}

export type StoreRequest =
  | { id: number; op: 'open' }
  | { id: number; op: 'begin'; options: Omit<BeginOptions, 'wasPublished'> }
  /** The rows packed (`packRows`): a flat array of numbers and strings crosses to the worker several times cheaper than a clone of each row object. */
  | { id: number; op: 'write'; rows: Packed }
  | { id: number; op: 'lookup'; urls: readonly string[] }
  | { id: number; op: 'markGone'; ids: readonly number[]; now: Seconds; lastSeen: Seconds | undefined }
  | { id: number; op: 'move'; moves: readonly { id: number; slot: number }[] }
  | { id: number; op: 'commit'; files: readonly FileState[]; format: string; scheme: string }
  | { id: number; op: 'published' | 'abort' | 'close' }
  | { id: number; op: 'changes'; since: Seconds | undefined }
  | { id: number; op: 'iterate'; method: 'alive' | 'layout' | 'entries'; maxId?: number; slot?: number }
  | { id: number; op: 'next'; iterator: number }
  /** The main thread's answer to the worker's question `ask`. */
  | { op: 'answer'; ask: number; value: boolean }
  | { op: 'answer'; ask: number; error: WireError };

export type StoreReply =
  | { id: number; value: unknown }
  | { id: number; error: WireError }
  /** The worker asks whether the published manifest names `token` (`BeginOptions.wasPublished`). */
  | { ask: number; token: string };

/**
 * Rows packed for the worker: their numbers in a Float64Array (transferred, not copied; NaN stands
 * for undefined) and their strings end to end in one string, each one's length among the numbers
 * (-1 for undefined). A message of a few strings and one buffer crosses in a copy or two; one of
 * objects or of many strings costs a step for each.
 */
export interface Packed {
  rows: number;
  numbers: Float64Array;
  text: string;
}

/** Numbers a row takes: 11 values, then the lengths of its 5 strings. */
const VALUES = 11;
const NUMBERS = VALUES + 5;
const UPDATE = 1;
const CHANGED = 2;

/** Packs rows as they come (so no row object outlives its batch) until `take` hands the message over. */
export class RowPacker {
  readonly #capacity: number;
  #numbers: Float64Array;
  #parts: string[] = [];
  #rows = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
    this.#numbers = new Float64Array(capacity * NUMBERS);
  }

  get rows(): number {
    return this.#rows;
  }

  /** Packs one row; false when full (`take` first). */
  add(r: UrlWrite): boolean {
    if (this.#rows === this.#capacity) return false;
    const numbers = this.#numbers;
    let at = this.#rows++ * NUMBERS;
    numbers[at] = r.id;
    numbers[at + 1] = r.bare;
    numbers[at + 2] = r.bytes;
    numbers[at + 3] = r.nsBits;
    numbers[at + 4] = r.hasNews ? 1 : 0;
    numbers[at + 5] = r.lastmodEpoch ?? NaN;
    numbers[at + 6] = r.slot;
    numbers[at + 7] = r.changedAt ?? NaN;
    numbers[at + 8] = r.addedAt ?? NaN;
    numbers[at + 9] = r.replaces ?? NaN;
    numbers[at + 10] = (r.update ? UPDATE : 0) | (r.changed ? CHANGED : 0);
    at += VALUES;
    this.#put(at, r.url);
    this.#put(at + 1, r.xml);
    this.#put(at + 2, r.fingerprint);
    this.#put(at + 3, r.lastmod);
    this.#put(at + 4, r.path);
    return true;
  }

  #put(at: number, value: string | undefined): void {
    this.#numbers[at] = value === undefined ? -1 : value.length;
    if (value !== undefined) this.#parts.push(value);
  }

  /** The rows packed so far, as one message (its buffer to transfer); the packer starts again empty. */
  take(): Packed {
    // join builds one flat string: a string grown by += is a rope the message would flatten at a higher cost.
    const packed: Packed = { rows: this.#rows, numbers: this.#numbers.subarray(0, this.#rows * NUMBERS), text: this.#parts.join('') };
    this.#numbers = new Float64Array(this.#capacity * NUMBERS);
    this.#parts = [];
    this.#rows = 0;
    return packed;
  }
}

const orUndefined = (value: number): number | undefined => (Number.isNaN(value) ? undefined : value);

/** The rows of a packed message, one object filled again for each: the store copies what it needs out at each step (`SqliteStateStore.write`). */
export function* eachRow({ rows, numbers, text }: Packed): Generator<UrlWrite> {
  let from = 0;
  const take = (length: number): string | undefined => {
    if (length < 0) return undefined;
    from += length;
    return text.slice(from - length, from);
  };
  const row: UrlWrite = { id: 0, url: '', fingerprint: undefined, bare: 0, xml: '', bytes: 0, nsBits: 0, hasNews: false, lastmod: undefined, lastmodEpoch: undefined, slot: 0, changedAt: undefined, addedAt: undefined, replaces: undefined, update: false, changed: false, path: undefined };
  for (let i = 0; i < rows; i++) {
    const n = i * NUMBERS;
    const flags = numbers[n + 10] as number;
    row.id = numbers[n] as number;
    row.bare = numbers[n + 1] as number;
    row.bytes = numbers[n + 2] as number;
    row.nsBits = numbers[n + 3] as number;
    row.hasNews = numbers[n + 4] === 1;
    row.lastmodEpoch = orUndefined(numbers[n + 5] as number);
    row.slot = numbers[n + 6] as number;
    row.changedAt = orUndefined(numbers[n + 7] as number);
    row.addedAt = orUndefined(numbers[n + 8] as number);
    row.replaces = orUndefined(numbers[n + 9] as number);
    row.update = (flags & UPDATE) !== 0;
    row.changed = (flags & CHANGED) !== 0;
    row.url = take(numbers[n + VALUES] as number) as string;
    row.xml = take(numbers[n + VALUES + 1] as number) as string;
    row.fingerprint = take(numbers[n + VALUES + 2] as number);
    row.lastmod = take(numbers[n + VALUES + 3] as number);
    row.path = take(numbers[n + VALUES + 4] as number);
    yield row;
  }
}

/**
 * A state store whose SQLite work runs on a worker thread (store-worker.ts), for a state that has no
 * URLs yet: its first run writes a row for every URL and builds the indexes, work that then overlaps
 * the pipeline instead of following it. Writes are posted without waiting for them (a few batches
 * ahead at most, and a failed one fails every later call, so nothing commits after it); every other
 * call waits for its answer.
 */
import { Worker } from 'node:worker_threads';
import { isSitemapError, SitemapError } from '../errors.ts';
import type { BeginOptions, ChangeFeed, FileState, RunStart, Seconds, StateStore, StoredEntry, StoredUrl, UrlWrite } from './store.ts';
import { RowPacker, type StoreReply, type StoreRequest, type WireError } from './wire.ts';

/** Writes posted and not yet done before `write` waits for the oldest: bounds the rows queued for the worker. */
const WRITES_AHEAD = 2;
/** Rows held until they go in one message: a message costs far more than a row in it. */
const ROWS_PER_MESSAGE = 4096;

type Waiter = { resolve: (value: unknown) => void; reject: (error: Error) => void };
/** A request as sent: without its id, which `#call` gives it. */
type Call = StoreRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class ThreadedStateStore implements StateStore {
  readonly label: string;
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiter>();
  readonly #writes: Promise<unknown>[] = [];
  #next = 0;
  #held = new RowPacker(ROWS_PER_MESSAGE);
  #failure: Error | undefined;
  #wasPublished: BeginOptions['wasPublished'] = async () => false;
  #closed = false;

  private constructor(path: string) {
    this.label = path;
    const entry = new URL(import.meta.url.endsWith('.ts') ? './store-worker.ts' : './store-worker.js', import.meta.url);
    this.#worker = new Worker(entry, { workerData: path });
    this.#worker.on('message', (reply: StoreReply) => this.#reply(reply));
    this.#worker.on('error', (error) => this.#fail(new SitemapError('SM_STATE_UNREADABLE', `cannot use state "${path}": its worker thread failed: ${error.message}`, { cause: error })));
    this.#worker.on('exit', () => {
      if (!this.#closed) this.#fail(new SitemapError('SM_STATE_UNREADABLE', `cannot use state "${path}": its worker thread stopped`));
    });
  }

  /** Opens the state at `path` on a worker thread (creating it when missing, as `openSqliteState`). */
  static async open(path: string): Promise<ThreadedStateStore> {
    const store = new ThreadedStateStore(path);
    try {
      await store.#call({ op: 'open' });
    } catch (error) {
      await store.#worker.terminate();
      throw error;
    }
    return store;
  }

  async begin(options: BeginOptions): Promise<RunStart> {
    const { wasPublished, ...rest } = options;
    this.#wasPublished = wasPublished;
    return (await this.#call({ op: 'begin', options: rest })) as RunStart;
  }

  async lookup(urls: readonly string[]): Promise<(StoredUrl | undefined)[]> {
    return (await this.#call({ op: 'lookup', urls })) as (StoredUrl | undefined)[];
  }

  async write(rows: readonly UrlWrite[]): Promise<void> {
    for (const row of rows) {
      if (!this.#held.add(row)) {
        await this.#flush();
        this.#held.add(row);
      }
    }
  }

  /** Sends the rows held; every other call sends them first, so the worker sees the calls in their order. */
  async #flush(): Promise<void> {
    if (this.#held.rows === 0) return;
    const packed = this.#held.take();
    const done = this.#send({ op: 'write', rows: packed }, [packed.numbers.buffer as ArrayBuffer]);
    // Its failure is kept and thrown by the next call; held meanwhile so it is never unhandled.
    done.catch((error: Error) => (this.#failure ??= error));
    this.#writes.push(done);
    if (this.#writes.length > WRITES_AHEAD) await this.#writes.shift();
  }

  alive(maxId: number): AsyncIterable<{ id: number; slot: number; bytes: number; hasNews: boolean }[]> {
    return this.#iterate({ op: 'iterate', method: 'alive', maxId });
  }

  async markGone(ids: readonly number[], now: Seconds, lastSeen: Seconds | undefined): Promise<void> {
    await this.#call({ op: 'markGone', ids, now, lastSeen });
  }

  layout(): AsyncIterable<{ id: number; slot: number; bytes: number; nsBits: number; hasNews: boolean }> {
    return this.#iterate({ op: 'iterate', method: 'layout' });
  }

  async move(moves: readonly { id: number; slot: number }[]): Promise<void> {
    await this.#call({ op: 'move', moves });
  }

  entries(slot: number): AsyncIterable<StoredEntry[]> {
    return this.#iterate({ op: 'iterate', method: 'entries', slot });
  }

  async commit(files: readonly FileState[], format: string, scheme: string): Promise<void> {
    await this.#call({ op: 'commit', files, format, scheme });
  }

  async published(): Promise<void> {
    await this.#call({ op: 'published' });
  }

  async abort(): Promise<void> {
    if (this.#closed) return;
    this.#held.take();
    await this.#send({ op: 'abort' });
  }

  async changes(since?: Seconds): Promise<ChangeFeed> {
    return (await this.#call({ op: 'changes', since })) as ChangeFeed;
  }

  /** Closes the database on its thread, then lets the thread end. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#send({ op: 'close' });
    } catch {
      // Closing after a failure: the thread goes either way.
    }
    this.#closed = true;
    await this.#worker.terminate();
  }

  async *#iterate<T>(request: Call & { op: 'iterate' }): AsyncGenerator<T> {
    const iterator = (await this.#call(request)) as number;
    for (;;) {
      const { items, done } = (await this.#call({ op: 'next', iterator })) as { items: T[]; done: boolean };
      yield* items;
      if (done) return;
    }
  }

  /** A call after the rows held are sent; it fails when an earlier write did. */
  async #call(request: Call): Promise<unknown> {
    await this.#flush();
    if (this.#failure !== undefined) throw this.#failure;
    return this.#send(request);
  }

  #send(request: Call, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#closed) return Promise.reject(new SitemapError('SM_STATE_UNREADABLE', `state "${this.label}" is closed`));
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id } as StoreRequest, transfer);
    });
  }

  #reply(reply: StoreReply): void {
    if ('ask' in reply) {
      const ask = reply.ask;
      this.#wasPublished(reply.token).then(
        (value) => this.#worker.postMessage({ op: 'answer', ask, value } satisfies StoreRequest),
        // A manifest that cannot be read stops the run there, as on this thread: never guessed either way.
        (error: unknown) => this.#worker.postMessage({ op: 'answer', ask, error: wireOf(error) } satisfies StoreRequest),
      );
      return;
    }
    const waiter = this.#waiting.get(reply.id);
    this.#waiting.delete(reply.id);
    if (waiter === undefined) return;
    if ('error' in reply) waiter.reject(errorOf(reply.error));
    else waiter.resolve(reply.value);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}

function wireOf(error: unknown): WireError {
  if (isSitemapError(error)) return { code: error.code, message: error.message };
  return { code: 'SM_OUTPUT_UNWRITABLE', message: error instanceof Error ? error.message : String(error) };
}

function errorOf({ code, message }: WireError): SitemapError {
  return new SitemapError(code, message);
}

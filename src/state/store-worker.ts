/** The worker side of `ThreadedStateStore`: one `SqliteStateStore`, its calls answered one at a time in the order they came. */
import { parentPort, workerData } from 'node:worker_threads';
import { isSitemapError, SitemapError } from '../errors.ts';
import { openSqliteState, type SqliteStateStore } from './sqlite.ts';
import { eachRow, type StoreReply, type StoreRequest, type WireError } from './wire.ts';

if (parentPort === null) throw new Error('store-worker.ts runs as a worker thread of ThreadedStateStore');
const port = parentPort;

/** Items handed back per `next`: one message carries a few batches rather than one. */
const ITEMS_PER_REPLY = 8;

let store: SqliteStateStore | undefined;
/** A write that failed: every later call but abort and close gets its error, so nothing commits after it. */
let failed: WireError | undefined;
const iterators = new Map<number, AsyncIterator<unknown>>();
const questions = new Map<number, { resolve: (answer: boolean) => void; reject: (error: Error) => void }>();
let asked = 0;

function wireError(error: unknown): WireError {
  if (isSitemapError(error)) return { code: error.code, message: error.message };
  return { code: 'SM_STATE_UNREADABLE', message: `cannot use state "${String(workerData)}": ${error instanceof Error ? error.message : String(error)}` };
}

async function answer(request: Exclude<StoreRequest, { op: 'answer' }>): Promise<unknown> {
  if (request.op === 'open') {
    store = await openSqliteState(workerData as string);
    return store.label;
  }
  const target = store as SqliteStateStore;
  if (failed !== undefined && request.op !== 'abort' && request.op !== 'close') throw new SitemapError(failed.code, failed.message);
  switch (request.op) {
    case 'begin':
      return target.begin({
        ...request.options,
        // The main thread reads the published manifest: it owns the output folder.
        wasPublished: (token) =>
          new Promise<boolean>((resolve, reject) => {
            const ask = ++asked;
            questions.set(ask, { resolve, reject });
            port.postMessage({ ask, token } satisfies StoreReply);
          }),
      });
    case 'write':
      try {
        return await target.write(eachRow(request.rows));
      } catch (error) {
        failed = wireError(error);
        throw error;
      }
    case 'lookup':
      return target.lookup(request.urls);
    case 'markGone':
      return target.markGone(request.ids, request.now, request.lastSeen);
    case 'move':
      return target.move(request.moves);
    case 'commit':
      return target.commit(request.files, request.format, request.scheme);
    case 'published':
      return target.published();
    case 'abort':
      return target.abort();
    case 'changes':
      return target.changes(request.since);
    case 'close':
      target.close();
      return undefined;
    case 'iterate': {
      const source = request.method === 'alive' ? target.alive(request.maxId ?? 0) : request.method === 'layout' ? target.layout() : target.entries(request.slot ?? 0);
      iterators.set(request.id, source[Symbol.asyncIterator]());
      return request.id;
    }
    case 'next': {
      const iterator = iterators.get(request.iterator);
      const items: unknown[] = [];
      if (iterator === undefined) return { items, done: true };
      while (items.length < ITEMS_PER_REPLY) {
        const step = await iterator.next();
        if (step.done === true) {
          iterators.delete(request.iterator);
          return { items, done: true };
        }
        items.push(step.value);
      }
      return { items, done: false };
    }
  }
}

// One call at a time, in order: a write posted without waiting is done before the commit that follows it.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: StoreRequest) => {
  if (request.op === 'answer') {
    const question = questions.get(request.ask);
    questions.delete(request.ask);
    if ('error' in request) question?.reject(new SitemapError(request.error.code, request.error.message));
    else question?.resolve(request.value);
    return;
  }
  queue = queue.then(async () => {
    try {
      const value = await answer(request);
      port.postMessage({ id: request.id, value } satisfies StoreReply);
    } catch (error) {
      port.postMessage({ id: request.id, error: wireError(error) } satisfies StoreReply);
    }
    if (request.op === 'close') port.close();
  });
});

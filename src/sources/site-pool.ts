/**
 * The worker threads of `readSiteFolder` (site-worker.ts), each judging the batches of paths it is
 * sent. Apart from folder.ts so that a caller can boot them before loading the judge and the HTML
 * parser itself (`bootSiteWorkers`): a worker takes ~0.1–0.4 s to boot, the CLI as long to load.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { SitemapError, type SitemapErrorCode } from '../errors.ts';
import type { FileVerdict, SiteFolderOptions } from './site-judge.ts';

/** Batches waiting or being read, per worker: enough that none idles, few enough that memory stays flat. */
export const IN_FLIGHT = 3;

type Reply = { seq: number; verdicts: FileVerdict[] } | { seq: number; error: { code: SitemapErrorCode; message: string } };

/** The worker threads asked for, or the cores less one, 1 to 4 (this thread judges batches too: one fewer keeps them all busy without contending). */
export function workerCount(options: SiteFolderOptions): number {
  return options.workers ?? Math.max(1, Math.min(4, availableParallelism() - 1));
}

const booted = new WeakMap<SiteFolderOptions, JudgePool>();

/**
 * Boots now the workers `readSiteFolder(options)` (this very options object) will use, so they load
 * while the caller loads the rest; `dropBootedWorkers` ends them if it is not run. Options are
 * checked by `readSiteFolder` as ever (a worker given bad ones fails, and is ended).
 */
export function bootSiteWorkers(options: SiteFolderOptions): void {
  const count = workerCount(options);
  if (count > 0 && Number.isInteger(count) && count <= 64 && !booted.has(options)) booted.set(options, new JudgePool(options, count));
}

/** The workers booted for these options, handed over once. */
export function takeBootedWorkers(options: SiteFolderOptions): JudgePool | undefined {
  const pool = booted.get(options);
  booted.delete(options);
  return pool;
}

/** Ends the workers booted for these options that `readSiteFolder` did not take. */
export async function dropBootedWorkers(options: SiteFolderOptions): Promise<void> {
  await takeBootedWorkers(options)?.close();
}

interface Slot {
  worker: Worker;
  /** Booted: it said so. */
  ready: boolean;
  /** Batches sent and not answered. */
  waiting: number;
}

/** Worker threads judging batches of paths; each says when it has booted. */
export class JudgePool {
  readonly #workers: Slot[] = [];
  readonly #replies = new Map<number, { resolve: (verdicts: FileVerdict[]) => void; reject: (error: Error) => void }>();
  #seq = 0;
  #failure: Error | undefined;

  constructor(options: SiteFolderOptions, count: number) {
    const entry = new URL(import.meta.url.endsWith('.ts') ? './site-worker.ts' : './site-worker.js', import.meta.url);
    for (let i = 0; i < count; i++) {
      const worker = new Worker(entry, { workerData: options });
      const slot: Slot = { worker, ready: false, waiting: 0 };
      worker.on('message', (reply: Reply | 'ready') => {
        if (reply === 'ready') {
          slot.ready = true;
          return;
        }
        slot.waiting--;
        const waiter = this.#replies.get(reply.seq);
        this.#replies.delete(reply.seq);
        if ('error' in reply) waiter?.reject(new SitemapError(reply.error.code, reply.error.message));
        else waiter?.resolve(reply.verdicts);
      });
      worker.on('error', (error) => this.#fail(error));
      this.#workers.push(slot);
    }
  }

  /** The batch's verdicts to come, if a ready worker with room takes it; undefined if none can now. */
  offer(paths: string[]): Promise<FileVerdict[]> | undefined {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    let slot: Slot | undefined;
    for (const candidate of this.#workers) if (candidate.ready && candidate.waiting < IN_FLIGHT && (slot === undefined || candidate.waiting < slot.waiting)) slot = candidate;
    if (slot === undefined) return undefined;
    const seq = this.#seq++;
    slot.waiting++;
    const reply = new Promise<FileVerdict[]>((resolve, reject) => this.#replies.set(seq, { resolve, reject }));
    // Held until its turn: a batch failing early must not be an unhandled rejection meanwhile.
    reply.catch(() => {});
    slot.worker.postMessage({ seq, paths });
    return reply;
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.map((slot) => slot.worker.terminate()));
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiter of this.#replies.values()) waiter.reject(error);
    this.#replies.clear();
  }
}


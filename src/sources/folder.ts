/**
 * A built static site (Astro, Hugo, Jekyll, Next export, Docusaurus, VitePress, Gatsby output) as
 * source records: every file walked in path order with its verdict (site-judge.ts), pages read and
 * fingerprinted a batch at a time by this thread and by worker threads, each one file at a time, so
 * a few files are open at once whatever the folder's size; results handed on in walk order.
 */
import { readdirSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { FINGERPRINT_VERSION } from '../html/fingerprint.ts';
import { checkFolderOptions, makeJudge, unreadable, type FileVerdict, type SiteFolderOptions } from './site-judge.ts';
import { IN_FLIGHT, JudgePool, takeBootedWorkers, workerCount } from './site-pool.ts';

export { VERDICTS, type FileVerdict, type SiteFolderOptions, type Verdict } from './site-judge.ts';

/** How the folder's fingerprints are made, for a state (`fingerprintScheme`): its HTML reader's version. */
export const SITE_FINGERPRINT_SCHEME = `html/${FINGERPRINT_VERSION}`;

/** Paths sent to a worker at once: a message per page would cost more than many a page. */
const BATCH = 64;
/** Batches judged and not yet handed on, per thread, at most: this thread judges on while a worker's batch before them is not answered. */
const AHEAD = 4 * IN_FLIGHT;

/**
 * Every file of the folder, in path order (segment by segment, by code unit), with its verdict.
 * Names starting with `.` (`.git`, `.well-known`, a sitemap staging folder) are not walked;
 * symbolic links to files are followed, to folders not (a loop could never end).
 * Throws `SM_INPUT_UNREADABLE` when the folder or a page cannot be read (a page left out unsaid would
 * read as removed).
 */
export async function* readSiteFolder(options: SiteFolderOptions): AsyncGenerator<FileVerdict> {
  // Workers the caller booted ahead (bootSiteWorkers), else started at the second batch: a small site is done before a worker would have booted.
  let pool = takeBootedWorkers(options);
  try {
    checkFolderOptions(options);
    const workers = workerCount(options);
    let listed = 0;
    const number = (verdict: FileVerdict): FileVerdict => {
      if (verdict.record !== undefined) verdict.record.line = ++listed;
      return verdict;
    };
    const judge = await makeJudge(options);
    if (workers === 0) {
      for (const path of walk(options.root, '')) yield number(judge(path));
      return;
    }
    /** Batches in walk order: judged here (done at once) or by a worker (done when it answers). */
    const pending: Array<{ done: boolean; verdicts: Promise<FileVerdict[]> }> = [];
    let sent = 0;
    let batch: string[] = [];
    const send = (paths: string[]): void => {
      pool ??= sent++ > 0 ? new JudgePool(options, workers) : undefined;
      // A worker takes the batch when one is ready and not already busy; else this thread judges it now (so booting workers are never waited for).
      const offered = pool?.offer(paths);
      if (offered === undefined) {
        pending.push({ done: true, verdicts: Promise.resolve(paths.map(judge)) });
        return;
      }
      const entry = { done: false, verdicts: offered };
      offered.then(
        () => (entry.done = true),
        () => (entry.done = true),
      );
      pending.push(entry);
    };
    for (const path of walk(options.root, '')) {
      batch.push(path);
      if (batch.length < BATCH) continue;
      send(batch);
      batch = [];
      // What is done goes on in order; a worker's batch is waited for only when this thread has judged far past it (it waited idle before, ~15% of its time).
      while (pending[0] !== undefined && (pending[0].done || pending.length >= AHEAD * (workers + 1))) for (const verdict of await (pending.shift() as (typeof pending)[0]).verdicts) yield number(verdict);
      // The walk is synchronous: a turn of the event loop a batch lets the workers' messages in (booted, batches answered).
      await turn();
    }
    if (batch.length > 0) send(batch);
    while (pending.length > 0) for (const verdict of await (pending.shift() as (typeof pending)[0]).verdicts) yield number(verdict);
  } finally {
    await pool?.close();
  }
}

const LIST = { withFileTypes: true } as const;

/** Files under `root/rel`, sorted by name in each folder, depth first; one folder listed at a time. */
function* walk(root: string, rel: string): Generator<string> {
  const entries: Array<{ name: string; dir: boolean; link: boolean }> = [];
  try {
    // Synchronous: a folder listed through the thread pool kept this thread waiting ~50 µs a folder, idle, and a static site has a folder a page (bench/NOTES.md).
    // Joined by concatenation: the walk's paths are clean, and `path.join` normalizing each cost more than its listing's JavaScript.
    for (const d of readdirSync(rel === '' ? root : under(root, rel), LIST)) {
      if (d.name.startsWith('.')) continue;
      if (d.isDirectory() || d.isFile() || d.isSymbolicLink()) entries.push({ name: d.name, dir: d.isDirectory(), link: d.isSymbolicLink() });
    }
  } catch (cause) {
    throw unreadable(rel === '' ? `folder "${root}"` : `folder "${rel}" in "${root}"`, cause);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.dir) yield* walk(root, path);
    else if (!entry.link) yield path;
    else if (isFile(under(root, path))) yield path;
  }
}

/** `rel` (clean, `/`-separated) under `root`. */
function under(root: string, rel: string): string {
  return root.endsWith('/') || root.endsWith(sep) ? root + rel : root + sep + rel;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    // A dangling link serves nothing.
    return false;
  }
}

/** A turn of the event loop. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `writeSitemaps`: the writer pipeline published into a folder, with a state store when one is given. */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { pid } from 'node:process';
import { SitemapError } from '../errors.ts';
import type { SitemapRecordInput } from '../model/record.ts';
import type { BuildOptions, BuildSummary, SourceItem } from '../model/pipeline.ts';
import type { StateStore } from '../state/store.ts';
import { formatSeconds, toSeconds } from '../state/time.ts';
import { buildSitemaps } from '../write/build.ts';
import { openDirectorySink, publishedRun } from './directory.ts';

export interface WriteSitemapsOptions extends BuildOptions {
  /** Folder the files are published into (created if missing). Other files in it are left alone. */
  outDir: string;
  /** zlib level for `gzip`, 0–9. @default 6 */
  gzipLevel?: number;
  /**
   * Remember the URLs between runs (a `StateStore`, or the path of an SQLite state file, created when
   * missing): lastmods are when each URL's content really changed, and only changed files are written.
   * The entry point is then always an index.
   */
  state?: StateStore | string;
  /** `git`: a record with no lastmod of its own (nor a state time) gets its source file's last commit time. */
  lastmodFrom?: 'git';
  /** The folder records' `path`s are relative to, for `lastmodFrom`. @default the current folder */
  sourceRoot?: string;
  /** With `state`: pack the files removals left sparse (URLs move, so the files they leave and join are written). @default false */
  compact?: boolean;
  /**
   * With `state`: the name and version of the way the source made its records' fingerprints (`--dir`
   * gives its HTML reader's). When it differs from the one the state last saw, a different
   * fingerprint is taken as the new way of printing the same content, not as a change: an upgrade
   * does not move every lastmod. Bump it when your own fingerprints change meaning.
   */
  fingerprintScheme?: string;
}

type RecordLike = SitemapRecordInput | string;

/**
 * Writes records (objects, or bare URL strings) as a sitemap set: `sitemap.xml`, or numbered
 * sitemaps with `sitemap.xml` as their index (always so with `gzip`, unless `gzipIndex`). Published atomically; returns what was written.
 * Throws a SitemapError for failures (`SM_STRICT_FAILED` and `SM_NOTHING_TO_WRITE` carry the summary).
 */
export async function writeSitemaps(
  records: Iterable<RecordLike> | AsyncIterable<RecordLike>,
  options: WriteSitemapsOptions,
): Promise<BuildSummary> {
  return writeSourceItems(numbered(records), options);
}

/** Like `writeSitemaps`, for sources that carry their own line numbers and input findings. */
export async function writeSourceItems(
  items: Iterable<SourceItem> | AsyncIterable<SourceItem>,
  options: WriteSitemapsOptions,
): Promise<BuildSummary> {
  const gzipIndex = options.gzipIndex ?? false;
  const filename = options.filename ?? 'sitemap';
  const sinkOptions = { gzip: options.gzip === true || gzipIndex, gzipIndex, filename, ...(options.gzipLevel === undefined ? {} : { gzipLevel: options.gzipLevel }) };
  // The state store, its writer and git are loaded when asked for: a build without them starts sooner (bench/NOTES.md).
  const commitTimes = options.lastmodFrom === 'git' ? await (await import('../state/git.ts')).gitCommitTimes(resolve(options.sourceRoot ?? '.')) : undefined;
  if (options.state === undefined) {
    if (options.compact === true) throw new SitemapError('SM_BAD_OPTION', 'compact (--compact) packs the files a state remembers; give a state (--state) too');
    // The sink opens the folder on buildSitemaps' first file, after it has checked the options.
    const sink = openDirectorySink(options.outDir, sinkOptions);
    return buildSitemaps(commitTimes === undefined ? items : withCommitTimes(items, commitTimes), options, sink);
  }
  const store = typeof options.state === 'string' ? await (await import('../state/open.ts')).openStateFile(resolve(options.state)) : options.state;
  try {
    const { buildWithState } = await import('../write/stateful.ts');
    const now = options.now ?? Date.now;
    return await buildWithState(items, options, {
      store,
      owner: { pid, host: hostname(), started: toSeconds(now()) },
      wasPublished: async (token) => (await publishedRun(options.outDir, filename)) === token,
      openSink: (token) => openDirectorySink(options.outDir, { ...sinkOptions, run: token }),
      ...(commitTimes === undefined ? {} : { commitTimes }),
      compact: options.compact === true,
      ...(options.fingerprintScheme === undefined ? {} : { fingerprintScheme: options.fingerprintScheme }),
    });
  } finally {
    if (typeof options.state === 'string') await store.close();
  }
}

/** Without a state, a record's commit time is its lastmod when it has none of its own. */
async function* withCommitTimes(items: Iterable<SourceItem> | AsyncIterable<SourceItem>, times: { get(path: string): number | undefined }): AsyncGenerator<SourceItem> {
  for await (const item of items) {
    if ('record' in item && item.path !== undefined && typeof item.record === 'object' && item.record !== null) {
      const record = item.record as Record<string, unknown>;
      const time = times.get(item.path);
      if (time !== undefined && (record['lastmod'] === undefined || record['lastmod'] === null || record['lastmod'] === '')) record['lastmod'] = formatSeconds(time);
    }
    yield item;
  }
}

/** Numbers records from 1; a sync input stays sync, so the pipeline spends no microtask per record. */
function numbered(records: Iterable<RecordLike> | AsyncIterable<RecordLike>): Iterable<SourceItem> | AsyncIterable<SourceItem> {
  if (Symbol.iterator in records) {
    return (function* () {
      let line = 0;
      for (const record of records) yield { line: ++line, record };
    })();
  }
  return (async function* () {
    let line = 0;
    for await (const record of records) yield { line: ++line, record };
  })();
}

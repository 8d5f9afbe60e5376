/** `writeSitemaps`: the writer pipeline published into a folder. */
import type { SitemapRecordInput } from '../model/record.ts';
import type { BuildOptions, BuildSummary, SourceItem } from '../model/pipeline.ts';
import { buildSitemaps } from '../write/build.ts';
import { openDirectorySink } from './directory.ts';

export interface WriteSitemapsOptions extends BuildOptions {
  /** Folder the files are published into (created if missing). Other files in it are left alone. */
  outDir: string;
  /** zlib level for `gzip`, 0–9. @default 6 */
  gzipLevel?: number;
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
  const sinkOptions = { gzip: options.gzip === true || gzipIndex, gzipIndex, filename: options.filename ?? 'sitemap' };
  // The sink opens the folder on buildSitemaps' first file, after it has checked the options.
  const sink = openDirectorySink(options.outDir, options.gzipLevel === undefined ? sinkOptions : { ...sinkOptions, gzipLevel: options.gzipLevel });
  return buildSitemaps(items, options, sink);
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

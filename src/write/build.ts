/**
 * The writer's pipeline, free of I/O: source items → normalize → dedupe → serialize → split →
 * sink. The sink (files, memory…) is injected; it stages files and publishes them only on commit.
 */
import { SitemapError } from '../errors.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import type { BuildOptions, BuildSummary, SitemapFileWriter, SitemapSink, SourceItem, WrittenFile } from '../model/pipeline.ts';
import type { SitemapIndexEntry } from '../model/record.ts';
import { DuplicateFilter, FILTER_BATCH, NEW_TABLE_FULL, SEEN } from '../normalize/dedupe.ts';
import { RecordNormalizer, type NormalizedEntry } from '../normalize/record.ts';
import { MAX_NEWS_PER_SITEMAP, MAX_SITEMAP_BYTES, MAX_SITEMAPS_PER_INDEX, MAX_URLS_PER_SITEMAP } from '../rules/limits.ts';
import { scopeOf } from '../rules/url.ts';
import { mayHaveNonAscii, namespacesOf, serializeRecord, serializeSitemapIndex } from './serialize.ts';
import { PartBuilder, type SitemapPart } from './split.ts';
import { utf8Length } from './escape.ts';

const PROGRESS_EVERY = 16_384;
/** Finishing one file (the end of its compression, the disk write) overlaps building the next. */
const MAX_WRITES_IN_FLIGHT = 1;

export async function buildSitemaps(
  items: Iterable<SourceItem> | AsyncIterable<SourceItem>,
  options: BuildOptions,
  sink: SitemapSink,
): Promise<BuildSummary> {
  const {
    gzip = false,
    strict = false,
    stylesheet,
    maxUrlsPerFile = MAX_URLS_PER_SITEMAP,
    maxBytesPerFile = MAX_SITEMAP_BYTES,
    filename = 'sitemap',
    maxDiagnostics = 1000,
    now = Date.now,
  } = options;
  const base = parseBaseUrl(options.baseUrl);
  checkLimit('maxUrlsPerFile (--max-urls)', maxUrlsPerFile, MAX_URLS_PER_SITEMAP);
  checkLimit('maxBytesPerFile (--max-bytes)', maxBytesPerFile, MAX_SITEMAP_BYTES);
  if (!/^[A-Za-z0-9._-]+$/.test(filename)) throw new SitemapError('SM_BAD_OPTION', `filename (--filename) "${filename}" may only use letters, digits, ".", "_" and "-"`);
  const extension = gzip ? '.xml.gz' : '.xml';

  const summary: BuildSummary = { files: [], urls: 0, records: 0, dropped: 0, duplicates: 0, diagnostics: [], counts: {} };
  let failed = false;
  const report = (diagnostic: Diagnostic): void => {
    if (options.source !== undefined) diagnostic.file = options.source;
    const key = `${diagnostic.rule}:${diagnostic.level}`;
    summary.counts[key] = (summary.counts[key] ?? 0) + 1;
    if (summary.diagnostics.length < maxDiagnostics) summary.diagnostics.push(diagnostic);
    if (diagnostic.level === 'error' && strict) failed = true;
    options.onDiagnostic?.(diagnostic);
  };
  /** Findings of the batch being normalized, reported in input order once the batch is taken (see takeBatch). */
  const heldFindings: Diagnostic[] = [];
  const normalizer = new RecordNormalizer({ base, scope: scopeOf(base), scopeLevel: strict ? 'error' : 'warn', now: now() }, (diagnostic) => heldFindings.push(diagnostic));
  const seen = new DuplicateFilter();
  const builder = new PartBuilder({ maxUrls: maxUrlsPerFile, maxBytes: maxBytesPerFile, maxNews: MAX_NEWS_PER_SITEMAP }, stylesheet);

  const parts: { name: string; part: SitemapPart; written: Promise<{ compressedBytes?: number }> }[] = [];
  let writer = sink.create();
  let held: ClosedPart | undefined;
  const childName = (n: number): string => `${filename}-${n}${extension}`;
  const inFlight: Promise<unknown>[] = [];
  const store = async (name: string, { writer, head, tail, part }: ClosedPart): Promise<void> => {
    const written = writer.finish(name, head, tail);
    written.catch(() => {}); // observed below; this only keeps an early failure from counting as unhandled
    parts.push({ name, part, written });
    inFlight.push(written);
    // Start this file's finish first, then wait for the one before.
    if (inFlight.length > MAX_WRITES_IN_FLIGHT) await inFlight.shift();
  };
  // The index is a file too: it may not pass the byte limit either, and cannot be split.
  let indexBytes = utf8Length(serializeSitemapIndex([], stylesheet));
  const listInIndex = (name: string, part: SitemapPart): void => {
    const entry: SitemapIndexEntry = { loc: new URL(name, base).href };
    if (part.newestLastmod !== undefined) entry.lastmod = part.newestLastmod;
    indexBytes += serializeSitemapIndex([entry]).length - serializeSitemapIndex([]).length;
    if (indexBytes > maxBytesPerFile) {
      throw new SitemapError('SM_INDEX_LIMIT', `the index of ${parts.length + 1} sitemap files would be more than ${maxBytesPerFile} bytes (maxBytesPerFile, --max-bytes); an index cannot be split (indexes cannot nest, R22): allow larger files`);
    }
  };
  const closePart = async (): Promise<void> => {
    const part: ClosedPart = { ...builder.finish(), writer };
    writer = sink.create();
    if (held === undefined && parts.length === 0) {
      held = part; // the only file so far: named once we know whether more follow
      return;
    }
    if (held !== undefined) {
      listInIndex(childName(1), held.part);
      await store(childName(1), held);
      held = undefined;
    }
    if (parts.length >= MAX_SITEMAPS_PER_INDEX) {
      throw new SitemapError('SM_INDEX_LIMIT', `more than ${MAX_SITEMAPS_PER_INDEX} sitemap files would be needed; an index cannot list more and indexes cannot nest (R20, R22)`);
    }
    listInIndex(childName(parts.length + 1), part.part);
    await store(childName(parts.length + 1), part);
  };

  /** Counts an entry just added and hands on the body chunk it completed, if any. */
  const added = (): Promise<void> | undefined => {
    summary.urls++;
    const chunk = builder.takeChunk();
    return chunk === undefined ? undefined : writer.write(chunk);
  };

  /** Writes a new URL's entry; returns a promise only when a file closes or the sink asks to wait, so the common path stays synchronous. */
  const place = ({ record, lastmodEpoch }: NormalizedEntry, line: number): Promise<void> | undefined => {
    const xml = serializeRecord(record);
    const bytes = mayHaveNonAscii(record) ? utf8Length(xml) : xml.length;
    const nsBits = namespacesOf(record);
    const hasNews = record.news !== undefined;
    if (builder.tryAdd(xml, bytes, nsBits, hasNews, record.lastmod, lastmodEpoch)) return added();
    if (!builder.fitsAlone(bytes, nsBits)) {
      report({ rule: 'R3', level: 'error', message: `record dropped: its ${bytes} bytes of XML cannot fit in a file of at most ${maxBytesPerFile} bytes`, line, url: record.loc });
      summary.dropped++;
      return undefined;
    }
    return closePart().then(() => {
      builder.tryAdd(xml, bytes, nsBits, hasNews, record.lastmod, lastmodEpoch);
      return added();
    });
  };

  /*
   * Items are taken in batches so the duplicate filter sees all their URLs at once and overlaps its
   * memory reads (DuplicateFilter.addAll). A batch is normalized first, its findings held with their
   * record, then each record in turn gets its findings reported, its duplicate check and its place
   * in a file: the findings come out in input order, as one by one.
   */
  const batch: SourceItem[] = [];
  const entries: (NormalizedEntry | undefined)[] = [];
  const locs: string[] = [];
  const verdicts = new Uint8Array(FILTER_BATCH);
  const heldUntil: number[] = [];
  const takeBatch = async (): Promise<void> => {
    let urls = 0;
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i] as SourceItem;
      let entry: NormalizedEntry | undefined;
      if ('diagnostic' in item) heldFindings.push(item.diagnostic);
      else entry = normalizer.normalize(item.record, item.line);
      if (entry !== undefined) locs[urls++] = entry.record.loc;
      entries[i] = entry;
      heldUntil[i] = heldFindings.length;
    }
    seen.addAll(locs, urls, verdicts);
    let released = 0;
    let verdict = 0;
    for (let i = 0; i < batch.length; i++) {
      summary.records++;
      if (summary.records % PROGRESS_EVERY === 0) options.onProgress?.({ records: summary.records, urls: summary.urls, files: parts.length });
      for (const until = heldUntil[i] ?? 0; released < until; released++) report(heldFindings[released] as Diagnostic);
      const entry = entries[i];
      if (entry === undefined) {
        summary.dropped++;
        continue;
      }
      const { line } = batch[i] as SourceItem;
      const seenBefore = verdicts[verdict++];
      if (seenBefore === SEEN) {
        report({ rule: 'R25', level: 'warn', message: 'duplicate URL dropped; the first occurrence is kept', line, url: entry.record.loc });
        summary.duplicates++;
        summary.dropped++;
        continue;
      }
      if (seenBefore === NEW_TABLE_FULL) {
        report({ rule: 'R25', level: 'info', message: `over ${seen.size.toLocaleString('en-US')} distinct URLs: from here on a duplicate is still dropped when its first occurrence is recent, but one repeated far apart may be listed twice (no URL is ever dropped for this)`, line });
      }
      if (failed) continue; // a strict run that already failed only collects findings
      const pending = place(entry, line);
      if (pending !== undefined) await pending;
    }
    batch.length = 0;
    heldFindings.length = 0;
  };

  try {
    if (Symbol.iterator in items) {
      // A sync source is walked without a microtask per record: only a full batch is awaited.
      for (const item of items) {
        if (batch.push(item) === FILTER_BATCH) await takeBatch();
      }
    } else {
      for await (const item of items) {
        if (batch.push(item) === FILTER_BATCH) await takeBatch();
      }
    }
    await takeBatch();
    options.onProgress?.({ records: summary.records, urls: summary.urls, files: parts.length });

    if (failed) {
      const errors = Object.entries(summary.counts).filter(([key]) => key.endsWith(':error')).reduce((n, [, count]) => n + count, 0);
      throw new SitemapError('SM_STRICT_FAILED', `--strict: ${errors} error${errors === 1 ? '' : 's'} in the input; nothing was published`, { summary });
    }
    if (summary.urls === 0) {
      throw new SitemapError('SM_NOTHING_TO_WRITE', `no valid URL to write (${summary.records} record${summary.records === 1 ? '' : 's'} read); nothing was published`, { summary });
    }
    if (builder.urls > 0) await closePart();
    const entryPoint = `${filename}${extension}`;
    if (held !== undefined) {
      await store(entryPoint, held);
    } else {
      const index: SitemapIndexEntry[] = parts.map(({ name, part }) => {
        const entry: SitemapIndexEntry = { loc: new URL(name, base).href };
        if (part.newestLastmod !== undefined) entry.lastmod = part.newestLastmod;
        return entry;
      });
      const xml = serializeSitemapIndex(index, stylesheet);
      const written = sink.create().finish(entryPoint, new TextEncoder().encode(xml), new Uint8Array(0));
      summary.files.push(...(await describeFiles(parts, base)));
      const { compressedBytes } = await written;
      const file: WrittenFile = { name: entryPoint, url: new URL(entryPoint, base).href, kind: 'index', entries: index.length, bytes: utf8Length(xml) };
      if (compressedBytes !== undefined) file.compressedBytes = compressedBytes;
      summary.files.push(file);
      await sink.commit(summary.files.map((f) => f.name));
      return summary;
    }
    summary.files.push(...(await describeFiles(parts, base)));
    await sink.commit(summary.files.map((f) => f.name));
    return summary;
  } catch (error) {
    await Promise.allSettled(parts.map((p) => p.written));
    await sink.abort();
    throw error;
  }
}

/** A finished file's content and totals, waiting to be named and staged. */
interface ClosedPart {
  writer: SitemapFileWriter;
  head: Uint8Array;
  tail: Uint8Array;
  part: SitemapPart;
}

async function describeFiles(parts: readonly { name: string; part: SitemapPart; written: Promise<{ compressedBytes?: number }> }[], base: URL): Promise<WrittenFile[]> {
  const files: WrittenFile[] = [];
  for (const { name, part, written } of parts) {
    const { compressedBytes } = await written;
    const file: WrittenFile = { name, url: new URL(name, base).href, kind: 'urlset', entries: part.urls, bytes: part.bytes };
    if (compressedBytes !== undefined) file.compressedBytes = compressedBytes;
    files.push(file);
  }
  return files;
}

/** The folder URL the files are served from, always ending in `/`. */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (cause) {
    throw new SitemapError('SM_BAD_BASE_URL', `base URL "${baseUrl}" is not an absolute URL (e.g. https://example.com/)`, { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SitemapError('SM_BAD_BASE_URL', `base URL "${baseUrl}" must use http: or https:`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new SitemapError('SM_BAD_BASE_URL', `base URL "${baseUrl}" must be a plain folder URL, without query, fragment or credentials`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function checkLimit(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new SitemapError('SM_BAD_OPTION', `${name} must be a whole number from 1 to ${max}, got ${value}`);
  }
}

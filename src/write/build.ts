/**
 * The writer's pipeline, free of I/O: source items → normalize (and drop duplicates) → serialize →
 * plan (which file each entry goes in) → file writer → sink. The sink (files, memory…) is injected;
 * it stages files and publishes them only on commit.
 */
import { SitemapError } from '../errors.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import { FindingTally } from '../model/findings.ts';
import type { BuildOptions, BuildSummary, SitemapSink, SourceItem, SourceRecord } from '../model/pipeline.ts';
import type { NormalizedEntry } from '../normalize/record.ts';
import { NormalizeStage } from '../normalize/stage.ts';
import { MAX_NEWS_PER_SITEMAP, MAX_SITEMAP_BYTES, MAX_URLS_PER_SITEMAP } from '../rules/limits.ts';
import { scopeOf } from '../rules/url.ts';
import { FileSet } from './file-set.ts';
import { GreedyPlanner, NO_FILE, type FilePlanner, type SerializedEntry } from './plan.ts';
import { serializeEntry } from './serialize.ts';

/** Builds a sitemap set from `items` into `sink` and commits it; a failure aborts the sink, so nothing is published. */
export async function buildSitemaps(
  items: Iterable<SourceItem> | AsyncIterable<SourceItem>,
  options: BuildOptions,
  sink: SitemapSink,
): Promise<BuildSummary> {
  const { gzipIndex, strict, stylesheet, maxUrlsPerFile, maxBytesPerFile, filename, maxDiagnostics, now, gzip, base } = buildSettings(options);

  const summary: BuildSummary = { files: [], urls: 0, records: 0, dropped: 0, duplicates: 0, diagnostics: [], counts: {} };
  const findings = new BuildFindings(summary, options, maxDiagnostics, strict);
  const report = findings.report;

  const files = new FileSet(sink, {
    base,
    stem: filename,
    gzip,
    gzipIndex,
    stylesheet,
    limits: { maxUrls: maxUrlsPerFile, maxBytes: maxBytesPerFile, maxNews: MAX_NEWS_PER_SITEMAP },
  });
  const progress = (): void => options.onProgress?.({ records: summary.records, urls: files.urls, files: files.staged });
  const normalize = new NormalizeStage({ base, scope: scopeOf(base), scopeLevel: strict ? 'error' : 'warn', now: now() }, summary, report, progress, options.onDropped);
  const planner: FilePlanner = new GreedyPlanner();

  const serialized: SerializedEntry = { loc: '', xml: '', bytes: 0, nsBits: 0, hasNews: false, lastmod: undefined, lastmodEpoch: undefined };
  const placed = (slot: number, line: number, source: SourceRecord): Promise<void> | undefined => {
    if (slot !== NO_FILE) return files.takeWait();
    const finding: Diagnostic = { rule: 'R3', level: 'error', message: `record dropped: its ${serialized.bytes} bytes of XML cannot fit in a file of at most ${maxBytesPerFile} bytes`, line, url: serialized.loc };
    report(finding);
    summary.dropped++;
    options.onDropped?.(source, finding);
    return undefined;
  };
  /** Writes a new URL's entry; returns a promise only when a file closes or the sink asks to wait, so the usual entry stays synchronous. */
  const write = ({ record, lastmodEpoch }: NormalizedEntry, line: number, source: SourceRecord): Promise<void> | undefined => {
    if (findings.failed) return undefined; // a strict run that already failed only collects findings
    const slot = planner.place(serializeEntry(record, lastmodEpoch, serialized), files);
    return typeof slot === 'number' ? placed(slot, line, source) : slot.then((s) => placed(s, line, source));
  };

  try {
    await normalize.drain(items, write);
    summary.urls = files.urls;
    progress();

    findings.throwIfFailed();
    if (summary.urls === 0) {
      throw new SitemapError('SM_NOTHING_TO_WRITE', `no valid URL to write (${summary.records} record${summary.records === 1 ? '' : 's'} read); nothing was published`, { summary });
    }
    summary.files = await files.finish();
    await sink.commit(summary.files.map((f) => f.name));
    return summary;
  } catch (error) {
    await files.settle();
    await sink.abort();
    throw error;
  }
}

/** A build's options with their defaults, checked: a bad one fails (SM_BAD_OPTION, SM_BAD_BASE_URL) before anything is written. */
/** A build's findings: tallied, the first `maxDiagnostics` kept on the summary, each handed to `onDiagnostic`; with `strict`, an error fails the run. */
export class BuildFindings {
  /** A strict run met an error: it only collects findings from here on, and publishes nothing. */
  failed = false;
  readonly #tally: FindingTally;
  readonly #summary: BuildSummary;

  constructor(summary: BuildSummary, options: BuildOptions, maxDiagnostics: number, strict: boolean) {
    this.#summary = summary;
    this.#tally = new FindingTally(summary.counts);
    this.report = (diagnostic: Diagnostic): void => {
      if (options.source !== undefined) diagnostic.file = options.source;
      this.#tally.add(diagnostic);
      if (summary.diagnostics.length < maxDiagnostics) summary.diagnostics.push(diagnostic);
      if (diagnostic.level === 'error' && strict) this.failed = true;
      options.onDiagnostic?.(diagnostic);
    };
  }

  /** Reports a finding (a function, so it can be handed on as it is). */
  readonly report: (diagnostic: Diagnostic) => void;

  throwIfFailed(): void {
    if (!this.failed) return;
    const errors = this.#tally.errors;
    throw new SitemapError('SM_STRICT_FAILED', `--strict: ${errors} error${errors === 1 ? '' : 's'} in the input; nothing was published`, { summary: this.#summary });
  }
}

export function buildSettings(options: BuildOptions) {
  const {
    gzipIndex = false,
    strict = false,
    stylesheet,
    maxUrlsPerFile = MAX_URLS_PER_SITEMAP,
    maxBytesPerFile = MAX_SITEMAP_BYTES,
    filename = 'sitemap',
    maxDiagnostics = 1000,
    now = Date.now,
  } = options;
  const gzip = options.gzip === true || gzipIndex;
  const base = parseBaseUrl(options.baseUrl);
  checkLimit('maxUrlsPerFile (--max-urls)', maxUrlsPerFile, MAX_URLS_PER_SITEMAP);
  checkLimit('maxBytesPerFile (--max-bytes)', maxBytesPerFile, MAX_SITEMAP_BYTES);
  if (!/^[A-Za-z0-9._-]+$/.test(filename)) throw new SitemapError('SM_BAD_OPTION', `filename (--filename) "${filename}" may only use letters, digits, ".", "_" and "-"`);
  return { gzipIndex, strict, stylesheet, maxUrlsPerFile, maxBytesPerFile, filename, maxDiagnostics, now, gzip, base };
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
  // A last segment like `sitemap.xml` is a file: its files would go to `…/sitemap.xml/sitemap.xml`. A folder like `v1.2` is no file.
  if (FILE_NAME.test(url.pathname)) {
    throw new SitemapError('SM_BAD_BASE_URL', `base URL "${baseUrl}" names a file; give its folder: --base-url ${new URL('./', url).href}`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** A path whose last segment ends in an extension of the files a sitemap URL names (sitemaps, pages, feeds, archives). */
const FILE_NAME = /\/[^/]*\.(?:xml|gz|txt|html?|xhtml|php|aspx?|jsp|json|jsonl|ndjson|csv|rss|atom|xsl|zip|zst|br)$/i;

function checkLimit(name: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new SitemapError('SM_BAD_OPTION', `${name} must be a whole number from 1 to ${max}, got ${value}`);
  }
}

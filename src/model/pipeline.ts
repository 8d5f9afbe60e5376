/**
 * The writer pipeline's contracts, shared by its stages and the code at either end: what a source
 * yields, the options and summary of a build, and the sink files are written into.
 */
import type { Diagnostic } from './diagnostic.ts';
import type { FindingCounts } from './findings.ts';

/**
 * What a source yields: a record to write with the input line it came from, or a finding about the
 * input. A finding stands for a record read and dropped (a line skipped), unless `header` says it is
 * about a line that holds no record (a CSV header): then it counts in neither `records` nor `dropped`.
 */
export type SourceItem = SourceRecord | { line: number; diagnostic: Diagnostic; header?: true };

/** A record as a source hands it over, with what a state store needs to know of where it came from. */
export interface SourceRecord {
  line: number;
  record: unknown;
  /** The file the record was made from, relative to the source's folder (a static site's page), for findings and `--lastmod-from git`. */
  path?: string;
  /** A fingerprint of the content the URL serves, as its source computed it (an HTML page's, or a record's own `fingerprint`); a state store compares it between runs. */
  fingerprint?: string;
}

export interface BuildOptions {
  /** Public URL of the folder the files are served from; child URLs in the index and the scope (R16/R17) derive from it. */
  baseUrl: string;
  /**
   * Write the URL files gzipped (`sitemap-1.xml.gz`…). The entry point stays `sitemap.xml`, an index,
   * even for a single file, so the URL given to robots.txt and search engines does not change. @default false
   */
  gzip?: boolean;
  /** Gzip the entry point too: `sitemap.xml.gz` (then a single file is the entry point itself). Implies `gzip`. @default false */
  gzipIndex?: boolean;
  /** Any ERROR diagnostic fails the run and nothing is published; scope findings become errors. @default false */
  strict?: boolean;
  /** Adds `<?xml-stylesheet type="text/xsl" href="…"?>` to every file. */
  stylesheet?: string;
  /** Lower the per-file URL limit (R15). @default 50000 */
  maxUrlsPerFile?: number;
  /** Lower the per-file uncompressed byte limit (R3). @default 52428800 */
  maxBytesPerFile?: number;
  /** File name stem: `sitemap.xml`, `sitemap-1.xml`… @default 'sitemap' */
  filename?: string;
  /** Name of the input, put on diagnostics. */
  source?: string;
  /** Every diagnostic, as it happens (the summary keeps only the first `maxDiagnostics`). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /**
   * Each source record the writer does not write, with the finding that says why (rule R25: a
   * duplicate of an earlier record's URL), right after that finding went to `onDiagnostic`: a source
   * that told of its records (a static site's report) can say what became of each.
   */
  onDropped?: (record: SourceRecord, finding: Diagnostic) => void;
  /** Called every few thousand records and at the end. */
  onProgress?: (progress: BuildProgress) => void;
  /** How many diagnostics the summary keeps. @default 1000 */
  maxDiagnostics?: number;
  /** Clock for the news age check (R37). @default Date.now */
  now?: () => number;
}

export interface BuildProgress {
  records: number;
  urls: number;
  files: number;
}

export interface WrittenFile {
  /** File name inside the output folder. */
  name: string;
  /** Public URL (baseUrl + name). */
  url: string;
  kind: 'urlset' | 'index';
  /** `<url>` or `<sitemap>` entries. */
  entries: number;
  /** Uncompressed size. */
  bytes: number;
  /** Size on disk when gzipped. */
  compressedBytes?: number;
  /** The published file held these bytes already: it was left as it was (name, bytes and modification time). */
  unchanged?: boolean;
}

export interface BuildSummary {
  /** Every file written, the entry point (`sitemap.xml`, an index when there are several files) last. */
  files: WrittenFile[];
  /** URLs written. */
  urls: number;
  /** Records read from the source. */
  records: number;
  /** Records dropped for faults (each has a diagnostic) or as duplicates (R25). */
  dropped: number;
  duplicates: number;
  /** The first `maxDiagnostics` diagnostics. */
  diagnostics: Diagnostic[];
  /** Count per rule and level, e.g. `{ "R11:error": 3 }`, over all diagnostics. */
  counts: FindingCounts;
  /** With a state store: what the run changed. */
  state?: StateRunSummary;
}

/** What a run with a state store found and did. */
export interface StateRunSummary {
  /** The run's number in the state (1 for its first). */
  run: number;
  /** URLs new to the state, or back after they went. */
  added: number;
  /** URLs whose content changed. */
  changed: number;
  removed: number;
  /** URLs written as before. */
  unchanged: number;
  /** Sitemap files written (new or changed), the index not counted. */
  filesWritten: number;
  /** Sitemap files kept as published, bytes and mtime. */
  filesKept: number;
  /** A run left half done by an earlier process, found and settled at the start: kept (its files were published) or undone. */
  recovered?: 'kept' | 'undone';
  /** The run that had left the state locked when it stopped, taken over: who it was. */
  tookOver?: string;
}

/**
 * Where files go. Each file is created empty, takes its body chunks in order while it is built, and
 * is staged by `finish` (its head, declaring the namespaces used, is known only then). Staged files
 * become visible only through `commit`.
 */
export interface SitemapSink {
  /** A new file; `gzip` says whether it is compressed (the sink's own default when not given). */
  create(file?: { gzip?: boolean }): SitemapFileWriter;
  /**
   * Keeps the published file `name` in the new set as it is, bytes and all, instead of writing it
   * again. Fails (a SitemapError) when the published set has no such file, or the build stages one by
   * that name too.
   */
  keep(name: string): Promise<void>;
  /**
   * Claims the output now rather than at the first file (a SitemapError when another run has it):
   * for a build that writes its files late, so a run beside it is refused at once, not after its work.
   */
  open?(): Promise<void>;
  /** Publishes the new set: the files `names` (staged or kept) and the kept ones; files of the previous set it lacks go. */
  commit(names: readonly string[]): Promise<void>;
  abort(): Promise<void>;
}

export interface SitemapFileWriter {
  /** The next body chunk. A returned promise asks the builder to wait for it (e.g. to let a compressor catch up). */
  write(chunk: Uint8Array): Promise<void> | undefined;
  /**
   * Stages the file `name`: `head`, the chunks written, then `tail`. `name` in the answer is the name
   * it is published under, when the sink chose another (a changed file the live index lists);
   * `unchanged` when the file published under it holds these bytes already and is left as it is.
   */
  finish(name: string, head: Uint8Array, tail: Uint8Array): Promise<{ compressedBytes?: number; name?: string; unchanged?: boolean }>;
}

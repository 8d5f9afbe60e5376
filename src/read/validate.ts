/**
 * `validateSitemap`: the parser's structural findings plus every PROTOCOL.md rule that can be
 * checked on one file: values (R8–R14, R34–R38, through the writer's own normalizer, so writer and
 * validator share one rulebook), counts (R15, R20, R37), duplicates (R25) and, when the file's URL
 * is known, scope (R16, R17, R21). A file is valid when no finding is an error.
 */
import { isSitemapError, type SitemapError } from '../errors.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import type { SitemapIndexEntry } from '../model/record.ts';
import { RecordNormalizer } from '../normalize/record.ts';
import { normalizeDatetime, parseW3cDatetime } from '../rules/datetime.ts';
import { MAX_LOC_LENGTH, MAX_NEWS_PER_SITEMAP, MAX_SITEMAPS_PER_INDEX, MAX_URLS_PER_SITEMAP } from '../rules/limits.ts';
import { checkScope, hasScheme, scopeOf, toSitemapUri, type Scope } from '../rules/url.ts';
import { DEFAULT_MAX_DIAGNOSTICS, parseSitemap, type ByteSource } from './parse.ts';
import type { ParsedEntry, ParsedRecord, ParseOptions, SitemapKind } from './types.ts';
import { LISTS_SITEMAPS } from './types.ts';

export interface ValidateOptions extends ParseOptions {
  /** Clock for the news age check (R37). @default Date.now */
  now?: () => number;
}

export interface ValidationResult {
  valid: boolean;
  kind: SitemapKind;
  /** URLs (or child sitemaps) in the file. */
  entries: number;
  /** Decompressed size. */
  bytes: number;
  compressed: boolean;
  /** The first `maxDiagnostics` findings, in file order (by line and column; findings about the whole file first). */
  diagnostics: Diagnostic[];
  /** Findings per `rule:level`, over all of them. */
  counts: Record<string, number>;
  /** Why the source failed part way (a dropped connection): the findings are about what was read before, and `valid` is false. */
  error?: SitemapError;
}

/** Characters a URI may not carry raw (R10 ERROR); non-ASCII is only a warning (a valid IRI). */
const FORBIDDEN_IN_URI = /[\0-\x20"<>\\^`{|}\x7f]|%(?![0-9A-Fa-f]{2})/;
const NON_ASCII = /[^\0-\x7f]/;

export async function validateSitemap(source: ByteSource, options: ValidateOptions = {}): Promise<ValidationResult> {
  // The parser reports what it reads a batch ahead of the checks below, so which findings come first
  // depends on where the input's chunks were cut: the list kept is the first in file order instead.
  const kept = new FirstInFileOrder(options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS);
  const parsed = parseSitemap(source, {
    ...options,
    trackPositions: true,
    maxDiagnostics: 0,
    onDiagnostic: (diagnostic) => {
      kept.add(diagnostic);
      options.onDiagnostic?.(diagnostic);
    },
  });
  const base = options.base === undefined ? undefined : new URL(options.base);
  let entry: ParsedEntry | undefined;
  const checks = new SitemapChecks({ base, scope: true, now: (options.now ?? Date.now)() }, (diagnostic) => {
    const position = entry === undefined ? undefined : parsed.positionOf(entry, diagnostic.field);
    if (position !== undefined) {
      diagnostic.line = position.line;
      diagnostic.column = position.column;
    }
    if (entry !== undefined && diagnostic.url === undefined) diagnostic.url = entry.loc;
    parsed.report(diagnostic);
  });
  try {
    for await (const batch of parsed.batches()) {
      for (entry of batch) checks.entry(entry, parsed.kind, parsed.positionOf(entry)?.line ?? 0);
    }
  } catch (error) {
    // Failed before any byte came: nothing to tell about the file.
    if (!isSitemapError(error) || parsed.bytes === 0) throw error;
    // The checks on the whole file are left out: it was not read whole.
    const result = { kind: parsed.kind, entries: parsed.entries, bytes: parsed.bytes, compressed: parsed.compressed, diagnostics: kept.list(), counts: parsed.counts };
    return { valid: false, ...result, error };
  }
  // What follows is about the whole file: no position.
  entry = undefined;
  checks.end(parsed.kind, parsed.entries);
  const counts = parsed.counts;
  const valid = !Object.keys(counts).some((key) => key.endsWith(':error'));
  return { valid, kind: parsed.kind, entries: parsed.entries, bytes: parsed.bytes, compressed: parsed.compressed, diagnostics: kept.list(), counts };
}

/** A normalizer's message ("images[2].loc dropped: …", "3 tags dropped, at most 32…") as a validator says it: nothing is dropped. */
function asValidator(message: string): string {
  return message
    .replace(/^record dropped: /, '')
    .replace(/^(\S+) dropped: (?=\1[ .:])/, '')
    .replace(/^(\S+) dropped: /, '$1: ')
    .replace(/\b(\d+ (?:images?|tags?)) dropped[:,] at most/, '$1 too many: at most');
}

export interface SitemapChecksOptions {
  /** The file's own URL, when known. */
  base: URL | undefined;
  /** Whether the scope rules (R16, R17, R21) apply: they need the URL the file is known by to its readers. */
  scope: boolean;
  /** The time the news age check (R37) counts from. */
  now: number;
}

/**
 * The rules checked on a file's entries, one at a time, and on the whole file at its end: for
 * validate, and for discover on every file it reads. Findings go to `report`.
 */
export class SitemapChecks {
  readonly #base: URL | undefined;
  readonly #scope: Scope | undefined;
  readonly #report: (diagnostic: Diagnostic) => void;
  readonly #normalizer: RecordNormalizer;
  readonly #seen = new Set<string>();
  #news = 0;
  /** The entry being checked. */
  #loc: string | undefined;

  constructor(options: SitemapChecksOptions, report: (diagnostic: Diagnostic) => void) {
    this.#base = options.base;
    this.#scope = options.base === undefined || !options.scope ? undefined : scopeOf(new URL('.', options.base));
    this.#report = (diagnostic) => {
      // Line 0: an entry without a place (text lists have none, nor does a file-wide count).
      if (diagnostic.line === 0) {
        delete diagnostic.line;
        delete diagnostic.column;
      }
      // The normalizer speaks as a writer ("… dropped"); a validator only reports.
      diagnostic.message = asValidator(diagnostic.message);
      report(diagnostic);
    };
    const normalizeOptions = { ...(this.#scope === undefined ? {} : { scope: this.#scope }), scopeLevel: 'error' as const, now: options.now, checkEverything: true };
    this.#normalizer = new RecordNormalizer(normalizeOptions, (diagnostic) => {
      // Raw characters and length are judged on the URLs as written (checkUrl), with a reader's levels: the writer judges them once encoded.
      if (diagnostic.rule === 'R10' || (diagnostic.rule === 'R9' && diagnostic.field === 'loc')) return;
      // A form the schema rejects is valid W3C Datetime: a warning for a reader (the writer refuses to write it).
      if (diagnostic.rule === 'R12') diagnostic.level = 'warn';
      // A loc without a scheme is one the reader could not resolve, and has said so (R8).
      if (diagnostic.rule === 'R8' && this.#loc !== undefined && !hasScheme(this.#loc)) return;
      this.#report(diagnostic);
    });
  }

  /** One entry of a file of `kind`; `line` is where it starts (0: not known). */
  entry(entry: ParsedEntry, kind: SitemapKind, line: number): void {
    const report = this.#report;
    this.#loc = entry.loc;
    if (this.#seen.has(entry.loc)) report({ rule: 'R25', level: 'warn', message: 'the same URL is listed again', field: 'loc' });
    else this.#seen.add(entry.loc);
    if (kind === 'robots') {
      checkRobotsEntry(entry.loc, this.#base, report);
    } else if (LISTS_SITEMAPS.has(kind)) {
      checkIndexEntry(entry as SitemapIndexEntry, this.#scope, report);
    } else {
      const record = entry as ParsedRecord;
      for (const [field, url] of urlsOf(record)) checkUrl(url, field, report);
      checkEmptyFields(record, report);
      for (const [field, date] of datesOf(record)) checkDatetimeForm(date, field, report);
      if (record.news !== undefined) this.#news++;
      this.#normalizer.normalize(record, line);
    }
  }

  /** The counts, once the file has been read to its end. */
  end(kind: SitemapKind, entries: number): void {
    const report = this.#report;
    if (kind === 'urlset' && entries > MAX_URLS_PER_SITEMAP) {
      report({ rule: 'R15', level: 'error', message: `${entries} URLs; a sitemap may list at most ${MAX_URLS_PER_SITEMAP} (split it and add an index)` });
    }
    if (kind === 'text' && entries > MAX_URLS_PER_SITEMAP) {
      report({ rule: 'R30', level: 'error', message: `${entries} URLs; a text sitemap may list at most ${MAX_URLS_PER_SITEMAP} (split it)` });
    }
    if (kind === 'sitemapindex' && entries > MAX_SITEMAPS_PER_INDEX) {
      report({ rule: 'R20', level: 'error', message: `${entries} sitemaps; an index may list at most ${MAX_SITEMAPS_PER_INDEX}` });
    }
    if (this.#news > MAX_NEWS_PER_SITEMAP) {
      report({ rule: 'R37', level: 'error', message: `${this.#news} news URLs; a sitemap may hold at most ${MAX_NEWS_PER_SITEMAP}` });
    }
  }
}

/**
 * The first `max` findings by position (line, then column; file-wide ones, without a position,
 * first; ties in the order reported), whatever order they arrive in: the same file gives the same
 * list however it was cut. Holds at most twice `max`.
 */
export class FirstInFileOrder {
  readonly #max: number;
  #found: Diagnostic[] = [];

  constructor(max: number) {
    this.#max = max;
  }

  add(diagnostic: Diagnostic): void {
    this.#found.push(diagnostic);
    if (this.#found.length >= 2 * this.#max) this.#cut();
  }

  list(): Diagnostic[] {
    this.#cut();
    return this.#found;
  }

  #cut(): void {
    // A stable sort: findings at one position stay in the order they were reported.
    this.#found.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    this.#found.length = Math.min(this.#found.length, this.#max);
  }
}

/**
 * What the writer would mend when writing is a finding when reading, judged on the URL as written:
 * raw characters (R10: an error for ASCII a URI may not hold, a warning for non-ASCII) and, for a
 * loc, its length (R9: past 2,048 characters an error, the schema's limit; exactly 2,048 a warning).
 */
function checkUrl(url: string, field: string, report: (diagnostic: Diagnostic) => void): void {
  const what = field === 'loc' ? 'the URL' : field;
  if (FORBIDDEN_IN_URI.test(url)) {
    report({ rule: 'R10', level: 'error', message: `${what} holds characters a URI may not carry raw (space, <, >, ", {, }, |, \\, ^, \`, controls) or a malformed % escape`, field });
  } else if (NON_ASCII.test(url)) {
    report({ rule: 'R10', level: 'warn', message: `${what} holds raw non-ASCII characters; percent-encode them as UTF-8 (Google asks for escaped URLs)`, field });
  }
  if (field !== 'loc') return;
  if (url.length > MAX_LOC_LENGTH + 1) report({ rule: 'R9', level: 'error', message: `the URL is ${url.length} characters long; the schema allows at most 2,048`, field });
  else if (url.length === MAX_LOC_LENGTH + 1) report({ rule: 'R9', level: 'warn', message: `the URL is exactly ${url.length} characters; the protocol asks for fewer than 2,048`, field });
}

/** Every URL a record carries, with its field path. */
function* urlsOf(record: ParsedRecord): Generator<[string, string]> {
  yield ['loc', record.loc];
  for (const [i, image] of (record.images ?? []).entries()) {
    yield [`images[${i + 1}].loc`, image.loc];
    if (image.license !== undefined) yield [`images[${i + 1}].license`, image.license];
  }
  for (const [i, video] of (record.videos ?? []).entries()) {
    for (const key of ['thumbnail_loc', 'content_loc', 'player_loc', 'gallery_loc'] as const) {
      const url = video[key];
      if (typeof url === 'string') yield [`videos[${i + 1}].${key}`, url];
    }
    if (typeof video.uploader?.info === 'string') yield [`videos[${i + 1}].uploader.info`, video.uploader.info];
  }
  for (const [i, alternate] of (record.alternates ?? []).entries()) yield [`alternates[${i + 1}].href`, alternate.href];
}

/** Every date a record carries, with its field path. */
function* datesOf(record: ParsedRecord): Generator<[string, unknown]> {
  yield ['lastmod', record.lastmod];
  for (const [i, video] of (record.videos ?? []).entries()) {
    yield [`videos[${i + 1}].publication_date`, video.publication_date];
    yield [`videos[${i + 1}].expiration_date`, video.expiration_date];
  }
  yield ['news.publication_date', record.news?.publication_date];
}

/** An element with no value: the writer's input may leave a field empty to mean absent, a file may not (the schema rejects it). */
function checkEmptyFields(record: ParsedRecord, report: (diagnostic: Diagnostic) => void): void {
  if (record.lastmod === '') report({ rule: 'R11', level: 'error', message: '<lastmod> is empty; leave the element out when the date is not known', field: 'lastmod' });
  if (record.changefreq === '') report({ rule: 'R13', level: 'error', message: '<changefreq> is empty', field: 'changefreq' });
  if (record.priority === '') report({ rule: 'R14', level: 'error', message: '<priority> is empty', field: 'priority' });
}

/** The normalizer completes `hh:mm` with `:00` when writing; in a file it is a form the schema rejects (R12). */
function checkDatetimeForm(date: unknown, field: string, report: (diagnostic: Diagnostic) => void): void {
  if (typeof date !== 'string') return;
  if (parseW3cDatetime(date)?.form === 'minutes') {
    report({ rule: 'R12', level: 'warn', message: `${field} "${date}" has no seconds: valid W3C Datetime, but the sitemap schema (xsd:dateTime) rejects it`, field });
  }
}

/**
 * robots.txt is how a site lists sitemaps on other hosts (R18), so no scope rule (R21) applies; what
 * is not an absolute http(s) URL the parser has reported (R27).
 */
function checkRobotsEntry(loc: string, base: URL | undefined, report: (diagnostic: Diagnostic) => void): void {
  if (!URL.canParse(loc) || !/^https?:$/.test(new URL(loc).protocol)) return;
  checkUrl(loc, 'loc', report);
  if (base !== undefined && new URL(loc).host !== base.host) {
    report({ rule: 'R18', level: 'info', message: `cross-submission: ${loc} is on another host; it may list this site's URLs` });
  }
}

function checkIndexEntry(entry: SitemapIndexEntry, scope: Scope | undefined, report: (diagnostic: Diagnostic) => void): void {
  const uri = toSitemapUri(entry.loc);
  // Length and characters are judged as written, by checkUrl.
  if (!uri.ok && uri.rule === 'R8') report({ rule: uri.rule, level: 'error', message: `sitemap URL ${uri.reason}`, field: 'loc' });
  checkUrl(entry.loc, 'loc', report);
  if (uri.ok && scope !== undefined) {
    const inScope = checkScope(uri.uri, { prefix: `${scope.origin}/`, origin: scope.origin });
    if (!inScope.ok) report({ rule: 'R21', level: 'error', message: `sitemap ${inScope.reason}`, field: 'loc' });
  }
  if (entry.lastmod !== undefined) {
    const date = normalizeDatetime(entry.lastmod);
    if (!date.ok) report({ rule: date.rule, level: date.rule === 'R11' ? 'error' : 'warn', message: `lastmod ${date.reason}`, field: 'lastmod' });
    else checkDatetimeForm(entry.lastmod, 'lastmod', report);
  }
}

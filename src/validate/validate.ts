/**
 * `validateSitemap`: the parser's structural findings plus every protocol rule (docs/rules.md) that can be
 * checked on one file: values (R8–R14, R34–R38, through the writer's own normalizer, so writer and
 * validator share one rulebook), counts (R15, R20, R37), duplicates (R25) and, when the file's URL
 * is known, scope (R16, R17, R21). A file is valid when no finding is an error.
 */
import { isSitemapError, type SitemapError } from '../errors.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import { type FindingCounts, FindingTally } from '../model/findings.ts';
import type { AlternateRecord, ImageRecord, SitemapIndexEntry, SitemapRecord, VideoRecord } from '../model/record.ts';
import { fingerprint, FingerprintTable } from '../normalize/fingerprint.ts';
import { RecordNormalizer } from '../normalize/record.ts';
import { normalizeDatetime, parseW3cDatetime } from '../rules/datetime.ts';
import { MAX_LOC_LENGTH, MAX_NEWS_PER_SITEMAP, MAX_SITEMAP_BYTES, MAX_SITEMAPS_PER_INDEX, MAX_URLS_PER_SITEMAP } from '../rules/limits.ts';
import { checkScope, hasScheme, scopeOf, toSitemapUri, type Scope } from '../rules/url.ts';
import { DEFAULT_MAX_DIAGNOSTICS, parseSitemap, type ByteSource } from '../read/parse.ts';
import type { ParsedEntry, ParsedRecord, ParseOptions, SitemapKind } from '../read/types.ts';
import { LISTS_SITEMAPS } from '../read/types.ts';

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
  counts: FindingCounts;
  /** Findings counted but not in `diagnostics` (past `maxDiagnostics`, and well-formedness errors past the first 100); absent when none. */
  diagnosticsOmitted?: number;
  /** Why the source failed part way (a dropped connection): the findings are about what was read before, and `valid` is false. */
  error?: SitemapError;
}

/**
 * The largest document (as UTF-8) the schema check (`xsd.ts`) takes: the protocol's limit. xmllint
 * reads it streaming, but the document is copied whole twice on its way in (to xmllint's thread,
 * then its file system), so a larger one is refused, said in an XSD finding.
 */
export const MAX_SCHEMA_BYTES = MAX_SITEMAP_BYTES;

/** Characters a URI may not carry raw (R10 ERROR); non-ASCII is only a warning (a valid IRI). */
const FORBIDDEN_IN_URI = /[\0-\x20"<>\\^`{|}\x7f]|%(?![0-9A-Fa-f]{2})/;
const NON_ASCII = /[^\0-\x7f]/;
const ALTERNATE_HREF = /^alternates\[(\d+)\]\.href$/;
/** A character that is not plainly fine in a URI: ASCII a URI may not carry raw, `%` (its escape is then checked), or non-ASCII. One test in place of the two above, which most URLs never need. */
const NOT_PLAIN_IN_URI = /[^!#$&-;=?-[\]_a-z~]/;

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
    return { valid: false, ...result, ...omitted(result), error };
  }
  // What follows is about the whole file: no position.
  entry = undefined;
  checks.end(parsed.kind, parsed.entries);
  const counts = parsed.counts;
  const valid = parsed.errors === 0;
  const result = { valid, kind: parsed.kind, entries: parsed.entries, bytes: parsed.bytes, compressed: parsed.compressed, diagnostics: kept.list(), counts };
  return { ...result, ...omitted(result) };
}

/** `diagnosticsOmitted` for a result whose list holds fewer findings than its counts, else nothing. */
export function omitted(result: Pick<ValidationResult, 'diagnostics' | 'counts'>): { diagnosticsOmitted?: number } {
  const count = new FindingTally(result.counts).total - result.diagnostics.length;
  return count > 0 ? { diagnosticsOmitted: count } : {};
}

/** A normalizer's message ("images[2].loc dropped: …", "3 tags dropped, at most 32…") as a validator says it: nothing is dropped. */
function asValidator(message: string): string {
  return message
    .replace(/^record dropped: /, '')
    .replace(/^(\S+) dropped: (?=\1[ .:])/, '')
    .replace(/^(\S+) dropped: /, '$1: ')
    .replace(/\b(\d+ (?:images?|tags?)) dropped[:,] at most/, '$1 too many: at most');
}

/** How much the set-wide checks (R25, R38) keep of a file, whatever its size. */
export interface SetCheckLimits {
  /** Distinct URLs whose fingerprints R25 keeps; a URL first listed after them is not checked for repeats (said once). */
  fingerprints: number;
  /** URLs kept as text, by R25 (to confirm a repeat on the strings) and R38 (to name a link's target) each. */
  texts: number;
  /** Characters of those URLs each keeps at most. */
  chars: number;
}

/** Exact for any file of the protocol's size and far past it; about 80 MiB at most however large a file is. */
export const SET_CHECK_LIMITS: Readonly<SetCheckLimits> = { fingerprints: 1 << 20, texts: 2 * MAX_URLS_PER_SITEMAP, chars: 8 * 1024 * 1024 };

export interface SitemapChecksOptions {
  /** What R25 and R38 keep at most (tests make them small). @default SET_CHECK_LIMITS */
  limits?: SetCheckLimits;
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
  /**
   * Each distinct URL's fingerprint to its number, to tell a repeat (R25) at less cost than a set of
   * the strings; the first `limits.texts` URLs as text too, so that a repeat of one of them is one only
   * when the strings are equal (past them, when the 64-bit fingerprints are).
   */
  readonly #seen = new FingerprintTable(1024);
  readonly #texts: TextPool;
  readonly #maxFingerprints: number;
  #distinct = 0;
  #forgetting = false;
  readonly #print = new Uint32Array(2);
  /** Whether distinct URL `n` is the one being checked (or not known as text): made once, not per call. */
  readonly #isLoc = (n: number): boolean => n >= this.#texts.count || this.#texts.equals(n, this.#loc ?? '');
  readonly #links: ReciprocalLinks;
  #news = 0;
  /** The entry being checked. */
  #loc: string | undefined;
  #alternates: readonly AlternateRecord[] | undefined;

  constructor(options: SitemapChecksOptions, report: (diagnostic: Diagnostic) => void) {
    const limits = options.limits ?? SET_CHECK_LIMITS;
    this.#texts = new TextPool(limits.texts, limits.chars);
    this.#maxFingerprints = limits.fingerprints;
    this.#links = new ReciprocalLinks(limits);
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
      // So is an alternate's href without one.
      if (diagnostic.rule === 'R8' && diagnostic.field !== undefined && this.#relativeHref(diagnostic.field)) return;
      this.#report(diagnostic);
    });
  }

  /** One entry of a file of `kind`; `line` is where it starts (0: not known). */
  entry(entry: ParsedEntry, kind: SitemapKind, line: number): void {
    const report = this.#report;
    this.#loc = entry.loc;
    const print = this.#print;
    fingerprint(entry.loc, print, 0);
    const repeat = this.#repeat(entry.loc, print[0] ?? 0, print[1] ?? 0);
    if (repeat) report({ rule: 'R25', level: 'warn', message: 'the same URL is listed again', field: 'loc' });
    if (kind === 'robots') {
      checkRobotsEntry(entry.loc, this.#base, report);
    } else if (LISTS_SITEMAPS.has(kind)) {
      checkIndexEntry(entry as SitemapIndexEntry, this.#scope, report);
    } else {
      const record = entry as ParsedRecord;
      checkUrls(record, report);
      checkEmptyFields(record, report);
      checkDates(record, report);
      if (record.news !== undefined) this.#news++;
      this.#alternates = record.alternates;
      const normalized = this.#normalizer.normalize(record, line);
      // A repeat's links are its first listing's to answer for (R25 said it once).
      if (kind === 'urlset' && normalized !== undefined && !repeat) this.#links.entry(normalized.record, record.alternates, entry.loc, print, line);
    }
  }

  /** Whether `field` is `alternates[n].href` of an href read without a scheme: the reader has reported it (R8). */
  #relativeHref(field: string): boolean {
    const place = ALTERNATE_HREF.exec(field)?.[1];
    const href = place === undefined ? undefined : this.#alternates?.[Number(place) - 1]?.href;
    return href !== undefined && !hasScheme(href);
  }

  /** What the set-wide checks hold: fingerprints and URLs as text (R25), entries and links (R38). */
  get held(): { fingerprints: number; texts: number; linkEntries: number; links: number } {
    return { fingerprints: this.#distinct, texts: this.#texts.count, linkEntries: this.#links.entries, links: this.#links.links };
  }

  /** Whether `loc` (its fingerprint's halves given) was listed before; a new URL is remembered while there is room. */
  #repeat(loc: string, hi: number, lo: number): boolean {
    const n = this.#distinct;
    if (n < this.#maxFingerprints) {
      if (this.#seen.add(hi, lo, n, this.#isLoc) !== n) return true;
      this.#distinct++;
      this.#texts.add(loc);
      return false;
    }
    const first = this.#seen.get(hi, lo);
    if (first !== -1 && this.#isLoc(first)) return true;
    if (!this.#forgetting) {
      this.#forgetting = true;
      this.#report({ rule: 'R25', level: 'info', message: `more than ${n} distinct URLs: from this one on, a URL not listed before is not checked for repeats`, field: 'loc' });
    }
    return false;
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
    this.#links.end(report);
  }
}

/**
 * R38: hreflang links go both ways. A `<url>` linking to another `<url>` of the same file needs that
 * one to link back; a link to a URL the file does not list says nothing (it may be in another file of
 * the set). The `<url>` linked to may come later, so this is told at the end, at the line of the entry
 * that links (its element is gone by then), from what is kept meanwhile: each entry's URL, line and
 * fingerprint (the duplicate check's, when the URL was written as the writer writes it), and 16 bytes a link: its entry, its
 * place and a 64-bit fingerprint of its target (its text would be ~50 bytes more). Targets are matched
 * to the file's URLs by fingerprint, so a warning could be made up or hidden only by two URLs of one
 * file sharing all 64 bits: odds of about 1 in 10^9 for 50,000 URLs with 10 links each.
 */
class ReciprocalLinks {
  /** Per entry, its URL as the writer writes it. */
  readonly #locs: TextPool;
  #lines = new Uint32Array(1024);
  /** Per entry, its URL's fingerprint (two halves). */
  #prints = new Uint32Array(2048);
  /** Per link, in file order: its entry's number, its alternate's place (1-based), its target's fingerprint (two halves). */
  #links = new Uint32Array(4096);
  #length = 0;
  /** Entries past `limits.texts` (or the characters) are left out, said once: a link from them is not checked, one to them counts as to a URL of another file. */
  #full = false;
  /** An entry left out had links. */
  #linksLeftOut = false;

  constructor(limits: SetCheckLimits) {
    this.#locs = new TextPool(limits.texts, limits.chars);
  }

  get entries(): number {
    return this.#locs.count;
  }

  get links(): number {
    return this.#length / 4;
  }

  /** An entry: as the normalizer made it, its alternates and URL as read, the fingerprint of that URL in `print`, the line it starts at. */
  entry(record: SitemapRecord, alternatesRead: readonly AlternateRecord[] | undefined, locRead: string, print: Uint32Array, line: number): void {
    const { loc, alternates } = record;
    const n = this.#locs.count;
    if (this.#full || !this.#locs.add(loc)) {
      this.#full = true;
      if (alternatesRead !== undefined && alternatesRead.length > 0) this.#linksLeftOut = true;
      return;
    }
    if (n === this.#lines.length) this.#lines = grown(this.#lines);
    this.#lines[n] = line;
    if (2 * n === this.#prints.length) this.#prints = grown(this.#prints);
    // The URL as the writer writes it is mostly the URL as read, whose fingerprint the duplicate check made.
    if (loc === locRead) this.#prints.set(print, 2 * n);
    else fingerprint(loc, this.#prints, 2 * n);
    if (alternatesRead === undefined) return;
    // URLs are compared as the writer writes them (host case, escapes). The normalizer keeps the alternates it can write, in
    // order: when it kept them all, they are the ones read, place for place; else each href read is converted again.
    const kept = alternates?.length === alternatesRead.length ? alternates : undefined;
    let links = this.#links;
    let length = this.#length;
    for (let k = 0; k < alternatesRead.length; k++) {
      const href = kept === undefined ? sitemapUri((alternatesRead[k] as AlternateRecord).href) : (kept[k] as AlternateRecord).href;
      // A bad href has had its finding, and a link to itself is the normalizer's.
      if (href === undefined || href === loc) continue;
      if (length === links.length) links = this.#links = grown(links);
      links[length] = n;
      links[length + 1] = k + 1;
      fingerprint(href, links, length + 2);
      length += 4;
    }
    this.#length = length;
  }

  end(report: (diagnostic: Diagnostic) => void): void {
    // Said only of a file with links: in one without, there was nothing to check.
    if (this.#full && (this.#length > 0 || this.#linksLeftOut)) {
      report({ rule: 'R38', level: 'info', message: `hreflang links are checked both ways among the first ${this.#locs.count} URLs only (at most ${this.#locs.max} of ${this.#locs.chars} characters in all); the file lists more` });
    }
    if (this.#length === 0) return;
    const locs = this.#locs;
    const links = this.#links;
    const entries = locs.count;
    // Each URL by fingerprint to the first entry listing it: one written twice (host case) is that entry again.
    const urls = new FingerprintTable(entries);
    const first = new Uint32Array(entries);
    const prints = this.#prints;
    for (let n = 0; n < entries; n++) first[n] = urls.add(prints[2 * n] ?? 0, prints[2 * n + 1] ?? 0, n);
    // Each link's target becomes that entry, in place of its fingerprint; then the links into each entry are gathered, in file order.
    const starts = new Uint32Array(entries + 1);
    for (let i = 0; i < this.#length; i += 4) {
      const to = urls.get(links[i + 2] ?? 0, links[i + 3] ?? 0);
      links[i + 2] = to === -1 ? NOT_LISTED : to;
      if (to !== -1) starts[to + 1] = (starts[to + 1] ?? 0) + 1;
    }
    for (let n = 0; n < entries; n++) starts[n + 1] = (starts[n + 1] ?? 0) + (starts[n] ?? 0);
    const into = new Uint32Array(starts[entries] ?? 0);
    const next = starts.slice(0, entries);
    for (let i = 0; i < this.#length; i += 4) {
      const to = links[i + 2] ?? 0;
      if (to === NOT_LISTED) continue;
      const at = next[to] ?? 0;
      into[at] = i;
      next[to] = at + 1;
    }
    // Entry by entry (an entry's links lie together): mark what it links to, then tell each link into it from an entry it
    // does not link back to, once per pair (en and x-default often name one URL). Linear, with no table of pairs.
    const linked = new Uint32Array(entries);
    const told = new Uint32Array(entries);
    let i = 0;
    for (let n = 0; n < entries; n++) {
      const mark = n + 1;
      for (; i < this.#length && links[i] === n; i += 4) if (links[i + 2] !== NOT_LISTED) linked[links[i + 2] ?? 0] = mark;
      for (let j = starts[n] ?? 0; j < (starts[n + 1] ?? 0); j++) {
        const link = into[j] ?? 0;
        const from = links[link] ?? 0;
        if (linked[first[from] ?? 0] === mark || told[from] === mark) continue;
        told[from] = mark;
        const field = `alternates[${links[link + 1]}].href`;
        const message = `${field} ${locs.get(n)} is a <url> of this file that does not list this URL among its alternates; hreflang links must go both ways`;
        report({ rule: 'R38', level: 'warn', message, line: this.#lines[from] ?? 0, url: locs.get(from), field });
      }
    }
  }
}

/** The array twice as long, its values kept. */
function grown(array: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(2 * array.length);
  larger.set(array);
  return larger;
}

/**
 * Up to `max` strings, `chars` characters in all, as UTF-16 code units side by side in one array:
 * no string is kept, so none keeps alive the chunk it was cut from, and none costs a header.
 */
class TextPool {
  readonly max: number;
  readonly chars: number;
  #units = new Uint16Array(4096);
  #ends = new Uint32Array(1024);
  #full = false;
  count = 0;

  constructor(max: number, chars: number) {
    this.max = max;
    this.chars = chars;
  }

  /** Keeps `text` as number `count`; false, keeping nothing, once the pool is full (from then on: numbers and strings stay in step). */
  add(text: string): boolean {
    const start = this.count === 0 ? 0 : (this.#ends[this.count - 1] ?? 0);
    const end = start + text.length;
    if (this.#full || this.count >= this.max || end > this.chars) {
      this.#full = true;
      return false;
    }
    while (end > this.#units.length) {
      const larger = new Uint16Array(2 * this.#units.length);
      larger.set(this.#units);
      this.#units = larger;
    }
    for (let i = 0; i < text.length; i++) this.#units[start + i] = text.charCodeAt(i);
    if (this.count === this.#ends.length) this.#ends = grown(this.#ends);
    this.#ends[this.count++] = end;
    return true;
  }

  equals(n: number, text: string): boolean {
    const start = n === 0 ? 0 : (this.#ends[n - 1] ?? 0);
    if ((this.#ends[n] ?? 0) - start !== text.length) return false;
    const units = this.#units;
    for (let i = 0; i < text.length; i++) if (units[start + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  get(n: number): string {
    const units = this.#units.subarray(n === 0 ? 0 : (this.#ends[n - 1] ?? 0), this.#ends[n] ?? 0);
    let text = '';
    // A few thousand at a time: a spread of a whole URL of any length could pass the engine's argument limit.
    for (let i = 0; i < units.length; i += 4096) text += String.fromCharCode(...units.subarray(i, i + 4096));
    return text;
  }
}

function sitemapUri(text: string): string | undefined {
  const uri = toSitemapUri(text);
  return uri.ok ? uri.uri : undefined;
}

/** A link's target that is no URL of the file. */
const NOT_LISTED = 0xffffffff;

/**
 * The first `max` findings by position (line, then column; file-wide ones, without a position,
 * first; ties in the order reported), whatever order they arrive in: the same file gives the same
 * list however it was cut. Holds at most twice `max`.
 */
export class FirstInFileOrder {
  readonly #max: number;
  #found: Diagnostic[] = [];
  /** Once `max` are kept, the last one's place: a finding at or after it cannot be among the first (ties keep the order reported). */
  #last: Diagnostic | undefined;

  constructor(max: number) {
    this.#max = max;
  }

  add(diagnostic: Diagnostic): void {
    const last = this.#last;
    // Findings come about in file order: most of those past the list's end are let go here, not sorted in and cut.
    if (last !== undefined && ((diagnostic.line ?? 0) - (last.line ?? 0) || (diagnostic.column ?? 0) - (last.column ?? 0)) >= 0) return;
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
    if (this.#max > 0 && this.#found.length === this.#max) this.#last = this.#found[this.#max - 1];
  }
}

/**
 * What the writer would mend when writing is a finding when reading, judged on the URL as written:
 * raw characters (R10: an error for ASCII a URI may not hold, a warning for non-ASCII) and, for a
 * loc, its length (R9: past 2,048 characters an error, the schema's limit; exactly 2,048 a warning).
 */
function checkUrl(url: string, field: string, report: (diagnostic: Diagnostic) => void): void {
  const what = field === 'loc' ? 'the URL' : field;
  if (!NOT_PLAIN_IN_URI.test(url)) {
    // Nothing to look at closer.
  } else if (FORBIDDEN_IN_URI.test(url)) {
    report({ rule: 'R10', level: 'error', message: `${what} holds characters a URI may not carry raw (space, <, >, ", {, }, |, \\, ^, \`, controls) or a malformed % escape`, field });
  } else if (NON_ASCII.test(url)) {
    report({ rule: 'R10', level: 'warn', message: `${what} holds raw non-ASCII characters; percent-encode them as UTF-8 (Google asks for escaped URLs)`, field });
  }
  if (field !== 'loc') return;
  if (url.length > MAX_LOC_LENGTH + 1) report({ rule: 'R9', level: 'error', message: `the URL is ${url.length} characters long; the schema allows at most 2,048`, field });
  else if (url.length === MAX_LOC_LENGTH + 1) report({ rule: 'R9', level: 'warn', message: `the URL is exactly ${url.length} characters; the protocol asks for fewer than 2,048`, field });
}

/** Every URL a record carries (checkUrl), each field path made only for a URL that needs a closer look. */
function checkUrls(record: ParsedRecord, report: (diagnostic: Diagnostic) => void): void {
  checkUrl(record.loc, 'loc', report);
  const { images, videos, alternates } = record;
  if (images !== undefined) {
    for (let i = 0; i < images.length; i++) {
      const { loc, license } = images[i] as ImageRecord;
      if (NOT_PLAIN_IN_URI.test(loc)) checkUrl(loc, `images[${i + 1}].loc`, report);
      if (license !== undefined && NOT_PLAIN_IN_URI.test(license)) checkUrl(license, `images[${i + 1}].license`, report);
    }
  }
  if (videos !== undefined) {
    for (let i = 0; i < videos.length; i++) {
      const video = videos[i] as VideoRecord;
      for (const key of VIDEO_URLS) {
        const url = video[key];
        if (typeof url === 'string' && NOT_PLAIN_IN_URI.test(url)) checkUrl(url, `videos[${i + 1}].${key}`, report);
      }
      const info = video.uploader?.info;
      if (typeof info === 'string' && NOT_PLAIN_IN_URI.test(info)) checkUrl(info, `videos[${i + 1}].uploader.info`, report);
    }
  }
  if (alternates !== undefined) {
    for (let i = 0; i < alternates.length; i++) {
      const { href } = alternates[i] as AlternateRecord;
      if (NOT_PLAIN_IN_URI.test(href)) checkUrl(href, `alternates[${i + 1}].href`, report);
    }
  }
}

const VIDEO_URLS = ['thumbnail_loc', 'content_loc', 'player_loc', 'gallery_loc'] as const;
const COLON = 0x3a;

/** Every date a record carries (checkDatetimeForm). */
function checkDates(record: ParsedRecord, report: (diagnostic: Diagnostic) => void): void {
  checkDatetimeForm(record.lastmod, 'lastmod', report);
  const { videos, news } = record;
  if (videos !== undefined) {
    for (let i = 0; i < videos.length; i++) {
      const { publication_date, expiration_date } = videos[i] as VideoRecord;
      if (publication_date !== undefined) checkDatetimeForm(publication_date, `videos[${i + 1}].publication_date`, report);
      if (expiration_date !== undefined) checkDatetimeForm(expiration_date, `videos[${i + 1}].expiration_date`, report);
    }
  }
  if (news !== undefined) checkDatetimeForm(news.publication_date, 'news.publication_date', report);
}

/** An element with no value: the writer's input may leave a field empty to mean absent, a file may not (the schema rejects it). */
function checkEmptyFields(record: ParsedRecord, report: (diagnostic: Diagnostic) => void): void {
  if (record.lastmod === '') report({ rule: 'R11', level: 'error', message: '<lastmod> is empty; leave the element out when the date is not known', field: 'lastmod' });
  if (record.changefreq === '') report({ rule: 'R13', level: 'error', message: '<changefreq> is empty', field: 'changefreq' });
  if (record.priority === '') report({ rule: 'R14', level: 'error', message: '<priority> is empty', field: 'priority' });
}

/** The normalizer completes `hh:mm` with `:00` when writing; in a file it is a form the schema rejects (R12). */
function checkDatetimeForm(date: unknown, field: string, report: (diagnostic: Diagnostic) => void): void {
  // Only a time without seconds (`…T10:30+01:00`, no `:` after the minutes) needs parsing here: the normalizer parses every date anyway.
  if (typeof date !== 'string' || date.length < 17 || date.charCodeAt(16) === COLON) return;
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
  // Length and characters are judged as written, by checkUrl; a loc without a scheme the reader could not resolve, and has said so (R8).
  if (!uri.ok && uri.rule === 'R8' && hasScheme(entry.loc)) report({ rule: uri.rule, level: 'error', message: `sitemap URL ${uri.reason}`, field: 'loc' });
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

/**
 * `discoverSitemaps`: what a site publishes. robots.txt `Sitemap:` lines first (R27), then the usual
 * paths at the host root (R28) that robots.txt did not list, then every index, level by level, with a
 * depth limit, loop detection and a budget on files (R22). The result is a tree of counts; page
 * records go to `onUrl` one at a time and are not kept, so memory does not grow with the URL count.
 */
import { isSitemapError, SitemapError } from '../errors.ts';
import type { Diagnostic, RuleId } from '../model/diagnostic.ts';
import { FindingTally } from '../model/findings.ts';
import { MAX_SITEMAPS_PER_INDEX } from '../rules/limits.ts';
import { fetchResource, type HttpOptions } from '../http/client.ts';
import { RETRY_READ } from '../http/retry.ts';
import { concurrencyLimit } from '../http/limit.ts';
import type { HttpResult, HttpSuccess } from '../http/types.ts';
import { checkMaxBytes, DEFAULT_MAX_BYTES, MAX_ROBOTS_BYTES, parseSitemap } from '../read/parse.ts';
import { wholeLines } from '../robots/lines.ts';
import { sitemapsInRobotsTxt } from '../robots/read.ts';
import { LISTS_SITEMAPS, type ParsedEntry, type ParsedRecord, type SitemapKind } from '../read/types.ts';
import { FirstInFileOrder, SitemapChecks } from '../validate/validate.ts';

/**
 * Probed when robots.txt does not list them: the names generators and CMSs use (WordPress core and
 * Yoast, Rank Math, Shopify, most static generators). Short on purpose: each probe is a request.
 */
export const WELL_KNOWN_PATHS: readonly string[] = [
  '/sitemap.xml',
  '/sitemap_index.xml',
  '/sitemap-index.xml',
  '/sitemap.xml.gz',
  '/wp-sitemap.xml',
  '/sitemap.txt',
];

export type DiscoveredVia = 'robots' | 'well-known' | 'index';

export interface DiscoveredSitemap {
  /** The URL as listed (or probed). */
  url: string;
  /** Where it was read from, when a redirect moved it. */
  finalUrl?: string;
  via: DiscoveredVia;
  /** HTTP status of the last response; absent when none came (network error, timeout). */
  status?: number;
  redirects: string[];
  /** `unknown` also when the file could not be read at all. */
  kind: SitemapKind;
  /** Page URLs listed (0 for an index). */
  urls: number;
  /** Child sitemaps listed (an index, a robots.txt; 0 for other kinds), followed or not. */
  listed: number;
  /** Child sitemaps followed, in the order listed. */
  sitemaps: DiscoveredSitemap[];
  /** Decompressed bytes read. */
  bytes: number;
  /** The body was gzip (as the bytes say, whatever the name or Content-Type). */
  compressed: boolean;
  /** The first `maxDiagnostics` findings about this file and its links. */
  diagnostics: Diagnostic[];
  /** Findings beyond `maxDiagnostics`, counted only. */
  diagnosticsOmitted?: number;
  /** Findings of level `error` about the file's content, those beyond `maxDiagnostics` included. */
  errors: number;
  /** Why the file could not be read (in full). */
  error?: string;
}

export interface RobotsTxtResult {
  url: string;
  finalUrl?: string;
  status?: number;
  /** `Sitemap:` URLs it listed (after resolving, without repeats). */
  sitemaps: string[];
  diagnostics: Diagnostic[];
  /** Why it could not be read; a 404 is not an error (many sites have none). */
  error?: string;
}

export interface DiscoveryReport {
  /** The origin discovered. */
  site: string;
  robots: RobotsTxtResult;
  /** Sitemaps found from robots.txt, then from well-known paths; children hang below. */
  sitemaps: DiscoveredSitemap[];
  totals: {
    /** Files read as sitemaps of some kind. */
    sitemaps: number;
    /** Page URLs over all files. */
    urls: number;
    /** Listed files that could not be read. */
    failed: number;
    /** Files read that have findings of level `error`. */
    invalid: number;
  };
}

/** Discovery reads with the `RETRY_READ` policy; `retries`, `backoffMs` and `maxRetryAfterMs` adjust it. */
export interface DiscoverOptions extends Omit<HttpOptions, 'maxBytes' | 'retry'> {
  /** Files fetched and parsed at once. @default 4 */
  concurrency?: number;
  /** Index levels followed below the files robots.txt and the well-known paths give. @default 5 */
  maxDepth?: number;
  /** Decompressed bytes read per file; a larger file is reported (R3) and read no further. @default 104857600 */
  maxBytes?: number;
  /**
   * Sitemaps read at most, so a huge or hostile index set cannot run for ever. The well-known paths
   * are probed while the limit leaves room, and count only when they find a sitemap. @default 50000
   */
  maxSitemaps?: number;
  /** Findings kept per file (all are counted). @default 100 */
  maxDiagnostics?: number;
  /** Paths probed at the site root. @default WELL_KNOWN_PATHS */
  wellKnownPaths?: readonly string[];
  /**
   * Every page entry as it is read, with the file listing it. Return a promise to slow the reader
   * down (e.g. until stdout drains). Order across files depends on timing; within a file it is the file's.
   */
  onUrl?: (record: ParsedRecord, sitemap: DiscoveredSitemap) => void | Promise<void>;
  /** How far discovery has got: after each file, each file found, and every few thousand page URLs. */
  onProgress?: (progress: DiscoverProgress) => void;
  /** Clock for the news age check (R37). @default Date.now */
  now?: () => number;
}

export interface DiscoverProgress {
  /** Files to read so far, the usual paths probed included; it grows as indexes list more. */
  files: number;
  /** Of those, files done (read, failed, or probed and not there). */
  done: number;
  /** Files that could not be read. */
  failed: number;
  /** Page URLs read so far. */
  urls: number;
}

/** Page URLs between two progress reports while a file is read. */
const PROGRESS_URLS = 5_000;

const DEFAULTS = { concurrency: 4, maxDepth: 5, maxSitemaps: 50_000, maxDiagnostics: 100, maxBytes: DEFAULT_MAX_BYTES };

interface Pending {
  url: string;
  key: string;
  via: DiscoveredVia;
  parent?: DiscoveredSitemap;
  /** Normalized URLs of the indexes above, for loop detection. */
  ancestors: ReadonlySet<string>;
}

interface Outcome {
  pending: Pending;
  /** Undefined when a well-known probe found nothing worth showing. */
  node?: DiscoveredSitemap;
  children: string[];
}

export async function discoverSitemaps(siteUrl: string | URL, options: DiscoverOptions = {}): Promise<DiscoveryReport> {
  const site = siteOrigin(siteUrl);
  checkMaxBytes(options.maxBytes);
  const limit = concurrencyLimit(options.concurrency ?? DEFAULTS.concurrency);
  const maxDepth = options.maxDepth ?? DEFAULTS.maxDepth;
  const maxSitemaps = options.maxSitemaps ?? DEFAULTS.maxSitemaps;
  // None at all would read nothing, and say nothing was found.
  if (!Number.isInteger(maxSitemaps) || maxSitemaps < 1) throw new SitemapError('SM_BAD_OPTION', `maxSitemaps (--max-sitemaps) must be a whole number ≥ 1, got ${maxSitemaps}`);
  const robots = await readRobotsTxt(site, options);
  const progress: DiscoverProgress = { files: 0, done: 0, failed: 0, urls: 0 };
  const tell = options.onProgress === undefined ? undefined : () => options.onProgress?.({ ...progress });

  const seen = new Set<string>();
  let budget = maxSitemaps;
  let level: Pending[] = [];
  const candidates: [string, DiscoveredVia][] = [
    ...robots.sitemaps.map((url): [string, DiscoveredVia] => [url, 'robots']),
    ...(options.wellKnownPaths ?? WELL_KNOWN_PATHS).map((path): [string, DiscoveredVia] => [new URL(path, site).href, 'well-known']),
  ];
  let unread = 0;
  for (const [url, via] of candidates) {
    const key = normalizeUrl(url);
    if (seen.has(key)) continue;
    // A probe is made while the limit leaves room, and counted only if it finds a sitemap (below): a site's 404s do not use up the budget.
    if (budget <= 0) {
      if (via === 'robots') unread++;
      continue;
    }
    if (via === 'robots') budget--;
    seen.add(key);
    level.push({ url, key, via, ancestors: new Set() });
  }
  if (unread > 0) robots.diagnostics.push({ rule: 'FETCH', level: 'warn', message: `${plural(unread, 'listed sitemap')} not read: the limit of ${plural(maxSitemaps, 'sitemap')} was reached`, url: robots.url });
  progress.files = level.length;
  tell?.();

  const report: DiscoveryReport = { site, robots, sitemaps: [], totals: { sitemaps: 0, urls: 0, failed: 0, invalid: 0 } };
  // Level by level, so which copy of a sitemap listed twice gets read does not depend on timing.
  for (let depth = 0; level.length > 0; depth++) {
    const claims = orderedClaims(level.length);
    const outcomes = await Promise.all(
      level.map((pending, i) =>
        limit(async () => {
          const outcome = await readOne(pending, claims(i), seen, options, progress, tell);
          progress.done++;
          if (outcome.node?.error !== undefined) progress.failed++;
          tell?.();
          return outcome;
        }),
      ),
    );
    // Probes that found a sitemap are counted before any index's children take what is left.
    for (const { pending, node } of outcomes) if (node !== undefined && pending.via === 'well-known') budget--;
    const next: Pending[] = [];
    for (const { pending, node, children } of outcomes) {
      if (node === undefined) continue;
      (pending.parent?.sitemaps ?? report.sitemaps).push(node);
      if (node.error === undefined) report.totals.sitemaps++;
      else report.totals.failed++;
      if (node.error === undefined && node.errors > 0) report.totals.invalid++;
      report.totals.urls += node.urls;
      if (children.length === 0) continue;
      if (depth + 1 > maxDepth) {
        note(node, 'R22', 'warn', `${plural(children.length, 'listed sitemap')} not followed: nesting deeper than ${maxDepth} levels`);
        continue;
      }
      const ancestors = new Set([...pending.ancestors, pending.key, normalizeUrl(node.finalUrl ?? node.url)]);
      for (const [i, url] of children.entries()) {
        const key = isHttpUrl(url) ? normalizeUrl(url) : undefined;
        if (key === undefined) {
          note(node, 'FETCH', 'warn', `not read: "${url}" is not an absolute http(s) URL`, url);
        } else if (ancestors.has(key)) {
          note(node, 'R22', 'warn', `index loop: ${url} lists back to an index above it; not read again`, url);
        } else if (seen.has(key)) {
          note(node, 'R25', 'warn', `${url} is listed more than once in this sitemap set; read once`, url);
        } else if (budget <= 0) {
          note(node, 'FETCH', 'warn', `${plural(children.length - i, 'listed sitemap')} not read: the limit of ${plural(maxSitemaps, 'sitemap')} was reached`);
          break;
        } else {
          seen.add(key);
          budget--;
          next.push({ url, key, via: 'index', parent: node, ancestors });
        }
      }
    }
    level = next;
    progress.files += next.length;
    if (next.length > 0) tell?.();
  }
  return report;
}

/** Fetches and parses one file. Resolves its claim as soon as its final URL is known. */
async function readOne(pending: Pending, claim: Claim, seen: Set<string>, options: DiscoverOptions, progress: DiscoverProgress, tell: (() => void) | undefined): Promise<Outcome> {
  const probe = pending.via === 'well-known';
  // One byte over the parser's cap, so an oversized file is the parser's R3 finding, not a transport failure.
  const maxBytes = (options.maxBytes ?? DEFAULTS.maxBytes) + 1;
  let fetched: HttpResult;
  let readElsewhere = false;
  try {
    fetched = await fetchResource(pending.url, { ...options, retry: RETRY_READ, maxBytes });
    await claim.previous;
    if (fetched.ok && fetched.redirects.length > 0) {
      const finalKey = normalizeUrl(fetched.finalUrl);
      readElsewhere = seen.has(finalKey);
      seen.add(finalKey);
    }
  } finally {
    claim.done();
  }
  const node: DiscoveredSitemap = {
    url: pending.url,
    ...(fetched.redirects.length > 0 ? { finalUrl: fetched.finalUrl } : {}),
    via: pending.via,
    ...(fetched.status === undefined ? {} : { status: fetched.status }),
    redirects: fetched.redirects,
    kind: 'unknown',
    urls: 0,
    listed: 0,
    bytes: 0,
    compressed: false,
    diagnostics: [],
    errors: 0,
    sitemaps: [],
  };
  const children: string[] = [];
  const outcome: Outcome = { pending, node, children };
  if (!fetched.ok) {
    // A probe that finds nothing is the normal case, not a finding.
    if (probe) return { pending, children };
    node.error = fetched.message;
    note(node, 'FETCH', 'error', fetched.message, fetched.finalUrl);
    return outcome;
  }
  if (readElsewhere) {
    await fetched.cancel();
    if (probe) return { pending, children };
    const loop = pending.ancestors.has(normalizeUrl(fetched.finalUrl));
    const [rule, what] = loop ? (['R22', 'an index above it (loop)'] as const) : (['R25', 'a sitemap read elsewhere in this set'] as const);
    note(node, rule, 'warn', `redirects to ${fetched.finalUrl}, ${what}; not read again`, fetched.finalUrl);
    return outcome;
  }
  await parseInto(node, fetched, children, options, progress, tell);
  if (pending.parent?.kind === 'sitemapindex' && node.kind === 'sitemapindex') {
    note(node, 'R22', 'warn', `an index listed by another index (${pending.parent.url}): indexes should not nest`);
  }
  if (probe && node.error === undefined && isSoft404(node, fetched.contentType)) return { pending, children };
  return outcome;
}

/**
 * What a probed path answers instead of a 404: an HTML page or nothing usable, or text without a
 * single URL that is one line ("404 Not Found") or not served as text (a JSON error object). A
 * text/plain list of relative paths is a broken sitemap, and is shown.
 */
function isSoft404(node: DiscoveredSitemap, contentType: string | undefined): boolean {
  if (node.kind === 'unknown') return true;
  if (node.kind !== 'text' || node.urls > 0) return false;
  return node.errors <= 1 || (contentType !== undefined && !/^text\/plain\b/i.test(contentType));
}

async function parseInto(
  node: DiscoveredSitemap,
  fetched: HttpSuccess,
  children: string[],
  options: DiscoverOptions,
  progress: DiscoverProgress,
  tell: (() => void) | undefined,
): Promise<void> {
  // The first findings in file order are kept, as validate keeps them: the parser reports a batch ahead of the checks, so arrival order depends on how the body was cut.
  const kept = new FirstInFileOrder(options.maxDiagnostics ?? DEFAULTS.maxDiagnostics);
  const parsed = parseSitemap(fetched.body, {
    base: fetched.finalUrl,
    maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
    maxDiagnostics: 0,
    trackPositions: true,
    onDiagnostic: (diagnostic) => kept.add(diagnostic),
  });
  let extraChildren = 0;
  // Every file read is checked as validate checks it, but for scope: a sitemap robots.txt lists may cover its whole host (R18).
  let entry: ParsedEntry | undefined;
  const checks = new SitemapChecks({ base: undefined, scope: false, now: (options.now ?? Date.now)() }, (diagnostic) => {
    // Repeats and the count of an index's children are discovery's own notes, made across the whole set (below).
    if (LISTS_SITEMAPS.has(parsed.kind) && (diagnostic.rule === 'R25' || diagnostic.rule === 'R20')) return;
    if (entry !== undefined) {
      diagnostic.url ??= entry.loc;
      const position = parsed.positionOf(entry, diagnostic.field);
      if (position !== undefined) Object.assign(diagnostic, position);
    }
    parsed.report(diagnostic);
  });
  try {
    for await (entry of parsed) {
      checks.entry(entry, parsed.kind, parsed.positionOf(entry)?.line ?? 0);
      if (LISTS_SITEMAPS.has(parsed.kind)) {
        if (children.length < MAX_SITEMAPS_PER_INDEX) children.push(entry.loc);
        else extraChildren++;
      } else {
        node.urls++;
        if (++progress.urls % PROGRESS_URLS === 0) tell?.();
        // Awaited only when it returns something: a synchronous callback (the CLI's, mostly) would pay a microtask per URL for nothing.
        const written = options.onUrl?.(entry as ParsedRecord, node);
        if (written !== undefined) await written;
      }
    }
    entry = undefined;
    checks.end(parsed.kind, parsed.entries);
  } catch (error) {
    if (!isSitemapError(error)) throw error;
    node.error = error.message;
  } finally {
    node.kind = parsed.kind;
    if (LISTS_SITEMAPS.has(parsed.kind)) node.listed = parsed.entries;
    node.bytes = parsed.bytes;
    node.compressed = parsed.compressed;
    const diagnostics = kept.list();
    node.diagnostics.push(...diagnostics);
    node.errors = parsed.errors;
    const findings = new FindingTally(parsed.counts).total;
    if (findings > diagnostics.length) node.diagnosticsOmitted = findings - diagnostics.length;
    await fetched.cancel();
  }
  if (node.error !== undefined) note(node, 'FETCH', 'error', node.error, fetched.finalUrl);
  if (extraChildren > 0) {
    note(node, 'R20', 'error', `${plural(parsed.entries, 'sitemap')}; an index may list at most ${MAX_SITEMAPS_PER_INDEX.toLocaleString('en-US')}, and the ${extraChildren.toLocaleString('en-US')} listed past that are not followed`);
    node.errors++;
  }
}

async function readRobotsTxt(site: string, options: DiscoverOptions): Promise<RobotsTxtResult> {
  const url = new URL('/robots.txt', site).href;
  const result: RobotsTxtResult = { url, sitemaps: [], diagnostics: [] };
  // One byte over the cap, so a file over it is told from one just at it.
  const fetched = await fetchResource(url, { ...options, retry: RETRY_READ, maxBytes: MAX_ROBOTS_BYTES + 1 });
  if (fetched.redirects.length > 0) result.finalUrl = fetched.finalUrl;
  if (fetched.status !== undefined) result.status = fetched.status;
  if (!fetched.ok) {
    if (fetched.status !== 404 && fetched.status !== 410) {
      result.error = fetched.message;
      result.diagnostics.push({ rule: 'FETCH', level: 'warn', message: `robots.txt not read: ${fetched.message}`, url });
    }
    return result;
  }
  let read: RobotsText;
  try {
    read = await readText(fetched.body, MAX_ROBOTS_BYTES);
  } finally {
    await fetched.cancel();
  }
  const { text, cut, failure } = read;
  if (cut) result.diagnostics.push({ rule: 'R27', level: 'warn', message: `robots.txt is larger than ${MAX_ROBOTS_BYTES} bytes; the rest is not read`, url });
  if (failure !== undefined) {
    result.error = failure.message;
    result.diagnostics.push({ rule: 'FETCH', level: 'warn', message: `robots.txt ${text === '' ? 'not read' : 'read only in part'}: ${failure.message}`, url });
  }
  const listed = new Set<string>();
  for (const value of sitemapsInRobotsTxt(fetched.finalUrl, text)) {
    const resolved = URL.canParse(value, fetched.finalUrl) ? new URL(value, fetched.finalUrl) : undefined;
    if (resolved === undefined || !/^https?:$/.test(resolved.protocol)) {
      result.diagnostics.push({ rule: 'R27', level: 'warn', message: `Sitemap: value is not an http(s) URL: ${value}`, url });
      continue;
    }
    if (!URL.canParse(value)) {
      result.diagnostics.push({ rule: 'R27', level: 'warn', message: `Sitemap: URL should be absolute: ${value} (read as ${resolved.href})`, url });
    }
    if (resolved.host !== new URL(fetched.finalUrl).host) {
      result.diagnostics.push({ rule: 'R18', level: 'info', message: `cross-submission: ${resolved.href} is on another host; it may list this site's URLs`, url: resolved.href });
    }
    listed.add(resolved.href);
  }
  result.sitemaps = [...listed];
  return result;
}

interface RobotsText {
  text: string;
  /** The body was larger than the cap: `text` is its whole lines up to it. */
  cut: boolean;
  /** The body failed part way: `text` is its whole lines up to the failure. */
  failure?: SitemapError;
}

/** Decodes a body as UTF-8 (BOM dropped) up to `maxBytes`; one that is larger, or fails part way, gives the whole lines before the cut. */
async function readText(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<RobotsText> {
  const decoder = new TextDecoder();
  let text = '';
  let total = 0;
  try {
    for await (const chunk of body) {
      if (chunk.length > maxBytes - total) return { text: wholeLines(text + decoder.decode(chunk.subarray(0, maxBytes - total))), cut: true };
      text += decoder.decode(chunk, { stream: true });
      total += chunk.length;
    }
  } catch (error) {
    if (!isSitemapError(error)) throw error;
    return { text: wholeLines(text + decoder.decode()), cut: false, failure: error };
  }
  return { text: text + decoder.decode(), cut: false };
}

interface Claim {
  /** Settles when every earlier file of the level knows its final URL. */
  previous: Promise<void>;
  done: () => void;
}

/**
 * Files of one level claim their post-redirect URLs in list order, so when two redirect to the same
 * file the first listed reads it, however the responses race. The limiter starts tasks in list order,
 * so a task waits only on tasks already running.
 */
function orderedClaims(count: number): (index: number) => Claim {
  const done: (() => void)[] = [];
  const claimed = Array.from({ length: count }, () => new Promise<void>((resolve) => done.push(resolve)));
  return (index) => ({ previous: claimed[index - 1] ?? Promise.resolve(), done: done[index] ?? (() => {}) });
}

function note(node: DiscoveredSitemap, rule: RuleId, level: Diagnostic['level'], message: string, url?: string): void {
  node.diagnostics.push({ rule, level, message, url: url ?? node.finalUrl ?? node.url });
}

/** One key per file: URL-parsed (case of scheme and host, default port, dot segments), fragment dropped. */
function normalizeUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

function isHttpUrl(url: string): boolean {
  return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);
}

function siteOrigin(siteUrl: string | URL): string {
  const text = String(siteUrl);
  const parsed = URL.canParse(text) ? new URL(text) : undefined;
  if (parsed === undefined || !/^https?:$/.test(parsed.protocol)) {
    throw new SitemapError('SM_BAD_OPTION', `the site URL must be an absolute http(s) URL, got "${text}"`);
  }
  return `${parsed.origin}/`;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * What becomes of one file of a static site's folder: its URL, and its verdict from its path, the
 * globs and types asked for, and, for a page, its facts. Synchronous, file reads included: it runs in
 * worker threads, one file at a time each (see folder.ts).
 */
import { createHash, hash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import type * as EntitiesDecode from 'entities/decode';
import type Picomatch from 'picomatch';
import { SitemapError } from '../errors.ts';
import { readHead, type Decoders, type PageFacts, type ReadHeadOptions } from '../html/head.ts';
import { parseSelectors, type Compound } from '../html/selector.ts';
import type { AlternateRecord, SitemapRecordInput } from '../model/record.ts';
import type { SourceRecord } from '../model/pipeline.ts';
import { isErrorPage, isHtmlPath, samePage, urlOfPath, type TrailingSlash } from './site-url.ts';

export interface SiteFolderOptions {
  /** The folder the site was built into. */
  root: string;
  /** Public URL of the folder's root, e.g. `https://example.com/` (a path is kept: `https://example.com/docs/`). */
  baseUrl: string;
  /** `x.html` is served as `x`. @default false */
  cleanUrls?: boolean;
  /** @default 'preserve' */
  trailingSlash?: TrailingSlash;
  /** Put `<link rel="alternate" hreflang>` into the record's `alternates`. @default false */
  alternates?: boolean;
  /** Put content images into the record's `images`. @default false */
  images?: boolean;
  /** Globs (picomatch, on `/`-separated paths relative to the folder): only matching files are listed, when any is given. */
  include?: readonly string[];
  /** Globs: matching files are not listed. */
  exclude?: readonly string[];
  /** Other file types listed as URLs, by extension (`pdf`); their fingerprint is their bytes' SHA-1. */
  includeTypes?: readonly string[];
  /** Elements the fingerprint leaves out (`--ignore-selector`, the subset `parseSelectors` reads). */
  ignoreSelectors?: readonly string[];
  /** Regexes whose matches the fingerprint leaves out of the page's text (`--ignore-pattern`). */
  ignorePatterns?: readonly string[];
  /** Worker threads reading pages besides the calling thread, each one file at a time; 0: the calling thread alone. @default the cores less one, 1 to 4 */
  workers?: number;
}

export const VERDICTS = ['listed', 'noindex', 'canonical-elsewhere', 'redirect', 'error-page', 'excluded', 'not-a-page'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What became of one file of the folder. */
export interface FileVerdict {
  /** Relative to the folder, `/`-separated. */
  path: string;
  /** The URL the file is served at (listed: the URL written, the page's canonical when it is another spelling of it). */
  url?: string;
  verdict: Verdict;
  reason?: string;
  /** For `canonical-elsewhere`: the page's canonical, absolute. */
  canonical?: string;
  /** For a listed file: what goes to the writer. */
  record?: SourceRecord;
}

/** The options checked and compiled: bad globs, selectors, patterns and types are one sentence each, before any file is read. */
function compile(options: SiteFolderOptions) {
  const globs = (flag: string, list: readonly string[] | undefined) =>
    (list ?? []).map((glob) => {
      if (glob.trim() === '') throw new SitemapError('SM_BAD_OPTION', `${flag} "" is empty: give a glob such as "blog/**"`);
      // Required when a glob is given: every worker thread loads this module, most runs have no globs.
      const picomatch = createRequire(import.meta.url)('picomatch') as typeof Picomatch;
      return { glob, test: picomatch(glob, { dot: true }) };
    });
  const patterns = (options.ignorePatterns ?? []).map((source) => {
    try {
      return new RegExp(source, 'gu');
    } catch (cause) {
      throw new SitemapError('SM_BAD_OPTION', `--ignore-pattern "${source}" is not a valid regular expression (${(cause as Error).message})`, { cause });
    }
  });
  const selectors: Compound[] = (options.ignoreSelectors ?? []).flatMap(parseSelectors);
  const types = new Set(
    (options.includeTypes ?? []).map((type) => {
      const ext = type.replace(/^\./, '').toLowerCase();
      if (!/^[a-z0-9]+$/.test(ext)) throw new SitemapError('SM_BAD_OPTION', `--include-type "${type}" is not a file extension (give one like pdf)`);
      return ext;
    }),
  );
  const workers = options.workers;
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 0 || workers > 64)) throw new SitemapError('SM_BAD_OPTION', `--workers ${workers} must be a whole number from 0 to 64`);
  return { include: globs('--include', options.include), exclude: globs('--exclude', options.exclude), patterns, selectors, types };
}

/**
 * The verdict of one file, by its `/`-separated path relative to the folder; throws `SM_INPUT_UNREADABLE` when it cannot be read.
 * Asynchronous only to load the image reader (htmlparser2) when images are asked for.
 */
export async function makeJudge(options: SiteFolderOptions): Promise<(path: string) => FileVerdict> {
  const rules = compile(options);
  const policy = { siteUrl: options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`, cleanUrls: options.cleanUrls ?? false, trailingSlash: options.trailingSlash ?? 'preserve' };
  const pageOptions = { ignoreSelectors: rules.selectors, ignorePatterns: rules.patterns, hash: sha1Text, decoders: lazyDecoders() };
  const readPageFacts: (html: string, url: string, options: ReadHeadOptions) => PageFacts = options.images === true ? (await import('../html/page.ts')).readPage : readHead;
  // The walk's paths are clean (no `.` or `..` segments): joined by concatenation, as `path.join` normalizing each cost ~1% of a page.
  const prefix = options.root.endsWith('/') || options.root.endsWith(sep) ? options.root : options.root + sep;
  return (path: string): FileVerdict => {
    if (isErrorPage(path)) return { path, verdict: 'error-page', reason: 'an error or fallback page, served for other URLs' };
    const html = isHtmlPath(path);
    const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
    if (!html && !rules.types.has(ext)) return { path, verdict: 'not-a-page' };
    if (rules.include.length > 0 && !rules.include.some((g) => g.test(path))) return { path, verdict: 'excluded', reason: 'matched by no --include' };
    const excludedBy = rules.exclude.find((g) => g.test(path));
    if (excludedBy !== undefined) return { path, verdict: 'excluded', reason: `matched by --exclude "${excludedBy.glob}"` };
    const url = urlOfPath(path, policy);
    const file = prefix + path;
    if (!html) return { path, url, verdict: 'listed', record: { line: 0, record: { loc: url }, path, fingerprint: sha1OfFile(file, path, options.root) } };
    const facts = readPageFacts(readText(file, path, options.root), url, pageOptions);
    if (facts.refresh?.url !== undefined && !samePage(facts.refresh.url, url)) return { path, url, verdict: 'redirect', reason: `meta refresh to ${facts.refresh.url}` };
    if (facts.robots.noindex) return { path, url, verdict: 'noindex', reason: 'robots meta says noindex' };
    let loc = url;
    if (facts.canonical !== undefined && facts.canonical !== url) {
      if (!samePage(facts.canonical, url)) return { path, url, verdict: 'canonical-elsewhere', reason: `canonical is ${facts.canonical}`, canonical: facts.canonical };
      loc = facts.canonical;
    }
    const record: SitemapRecordInput = { loc };
    if (options.alternates === true && facts.alternates.length > 0) record.alternates = facts.alternates satisfies AlternateRecord[];
    if (options.images === true && facts.images.length > 0) record.images = facts.images.map((src) => ({ loc: src }));
    const verdict: FileVerdict = { path, url: loc, verdict: 'listed', record: { line: 0, record, path, fingerprint: facts.fingerprint } };
    if (loc !== url) verdict.reason = `its canonical, another spelling of ${url}`;
    return verdict;
  };
}

/** entities' decoders, loaded at the first character reference met in a value read: most pages have none there, and loading them costs each thread ~11 ms. */
function lazyDecoders(): Decoders {
  let entities: typeof EntitiesDecode | undefined;
  const load = (): typeof EntitiesDecode => (entities ??= createRequire(import.meta.url)('entities/decode') as typeof EntitiesDecode);
  return { attribute: (value) => load().decodeHTMLAttribute(value), text: (text) => load().decodeHTML(text) };
}

/** The options' faults, one sentence each, before any file is read or any worker started. */
export function checkFolderOptions(options: SiteFolderOptions): void {
  compile(options);
}

/** The fingerprint's hash: SHA-1, native, a few times faster than a hash in JavaScript on a page's content. */
function sha1Text(content: string): string {
  // One call: no Hash object a page.
  return hash('sha1', content, 'hex');
}

/** A page's text, UTF-8 (malformed bytes as U+FFFD, a byte order mark dropped, as TextDecoder has it), in one native call. */
function readText(file: string, path: string, root: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw unreadable(`page "${path}" in folder "${root}"`, cause);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A file's bytes' SHA-1, read 64 KiB at a time (a large PDF is never whole in memory). */
function sha1OfFile(file: string, path: string, root: string): string {
  const hash = createHash('sha1');
  const chunk = new Uint8Array(1 << 16);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) hash.update(chunk.subarray(0, n));
  } catch (cause) {
    throw unreadable(`file "${path}" in folder "${root}"`, cause);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return hash.digest('hex');
}

export function unreadable(what: string, cause: unknown): SitemapError {
  const code = (cause as { code?: unknown }).code;
  const why = code === 'ENOENT' ? 'it does not exist' : code === 'ENOTDIR' ? 'it is not a folder' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (cause as Error).message;
  return new SitemapError('SM_INPUT_UNREADABLE', `cannot read ${what}: ${why}`, { cause });
}

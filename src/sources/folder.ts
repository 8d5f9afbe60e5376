/**
 * A built static site (Astro, Hugo, Jekyll, Next export, Docusaurus, VitePress, Gatsby output) as
 * source records: every file walked in path order with a verdict, each page read with the html room's
 * page reader, a bounded number of files open at once.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { opendir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { SitemapError } from '../errors.ts';
import { PageReader } from '../html/page.ts';
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
  /** Files read at once. @default 32 */
  concurrency?: number;
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
  /** For a listed file: what goes to the writer. */
  record?: SourceRecord;
}

/** The options checked and compiled: bad globs, selectors, patterns and types are one sentence each, before any file is read. */
function compile(options: SiteFolderOptions) {
  const globs = (flag: string, list: readonly string[] | undefined) =>
    (list ?? []).map((glob) => {
      if (glob.trim() === '') throw new SitemapError('SM_BAD_OPTION', `${flag} "" is empty: give a glob such as "blog/**"`);
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
  const concurrency = options.concurrency ?? 32;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) throw new SitemapError('SM_BAD_OPTION', `concurrency ${concurrency} must be a whole number from 1 to 1024`);
  return { include: globs('--include', options.include), exclude: globs('--exclude', options.exclude), patterns, selectors, types, concurrency };
}

/**
 * Every file of the folder, in path order (segment by segment, by code unit), with its verdict.
 * Names starting with `.` (`.git`, `.well-known`, a sitemap staging folder) are not walked;
 * symbolic links to files are followed, to folders not (a loop could never end).
 * Throws `SM_INPUT_UNREADABLE` when the folder or a page cannot be read (a page left out unsaid would
 * read as removed).
 */
export async function* readSiteFolder(options: SiteFolderOptions): AsyncGenerator<FileVerdict> {
  const rules = compile(options);
  const policy = { siteUrl: options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`, cleanUrls: options.cleanUrls ?? false, trailingSlash: options.trailingSlash ?? 'preserve' };
  const pageOptions = { ignoreSelectors: rules.selectors, ignorePatterns: rules.patterns };
  const decoder = new TextDecoder();
  let listed = 0;

  const judge = async (path: string): Promise<FileVerdict> => {
    if (isErrorPage(path)) return { path, verdict: 'error-page', reason: 'an error or fallback page, served for other URLs' };
    const html = isHtmlPath(path);
    const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
    if (!html && !rules.types.has(ext)) return { path, verdict: 'not-a-page' };
    if (rules.include.length > 0 && !rules.include.some((g) => g.test(path))) return { path, verdict: 'excluded', reason: 'matched by no --include' };
    const excludedBy = rules.exclude.find((g) => g.test(path));
    if (excludedBy !== undefined) return { path, verdict: 'excluded', reason: `matched by --exclude "${excludedBy.glob}"` };
    const url = urlOfPath(path, policy);
    const file = join(options.root, path);
    if (!html) return { path, url, verdict: 'listed', record: { line: 0, record: { loc: url }, path, fingerprint: await sha1Of(file, path, options.root) } };
    const reader = new PageReader(url, pageOptions);
    reader.write(decoder.decode(await readPage(file, path, options.root)));
    const facts = reader.end();
    if (facts.refresh?.url !== undefined && !samePage(facts.refresh.url, url)) return { path, url, verdict: 'redirect', reason: `meta refresh to ${facts.refresh.url}` };
    if (facts.robots.noindex) return { path, url, verdict: 'noindex', reason: 'robots meta says noindex' };
    let loc = url;
    if (facts.canonical !== undefined && facts.canonical !== url) {
      if (!samePage(facts.canonical, url)) return { path, url, verdict: 'canonical-elsewhere', reason: `canonical is ${facts.canonical}` };
      loc = facts.canonical;
    }
    const record: SitemapRecordInput = { loc };
    if (options.alternates === true && facts.alternates.length > 0) record.alternates = facts.alternates satisfies AlternateRecord[];
    if (options.images === true && facts.images.length > 0) record.images = facts.images.map((src) => ({ loc: src }));
    const verdict: FileVerdict = { path, url: loc, verdict: 'listed', record: { line: 0, record, path, fingerprint: facts.fingerprint } };
    if (loc !== url) verdict.reason = `its canonical, another spelling of ${url}`;
    return verdict;
  };

  // In walk order, at most `concurrency` files being read; a failure is held until its turn, then thrown.
  const queue: Array<Promise<FileVerdict>> = [];
  const take = async (): Promise<FileVerdict> => {
    const verdict = await (queue.shift() as Promise<FileVerdict>);
    if (verdict.record !== undefined) verdict.record.line = ++listed;
    return verdict;
  };
  for await (const path of walk(options.root, '')) {
    const pending = judge(path);
    pending.catch(() => {});
    queue.push(pending);
    if (queue.length >= rules.concurrency) yield await take();
  }
  while (queue.length > 0) yield await take();
}

/** Files under `root/rel`, sorted by name in each folder, depth first; one folder handle open at a time. */
async function* walk(root: string, rel: string): AsyncGenerator<string> {
  const entries: Array<{ name: string; dir: boolean; link: boolean }> = [];
  try {
    for await (const d of await opendir(join(root, rel), { bufferSize: 256 })) {
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
    else if (await isFile(join(root, path))) yield path;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    // A dangling link serves nothing.
    return false;
  }
}

async function readPage(file: string, path: string, root: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (cause) {
    throw unreadable(`page "${path}" in folder "${root}"`, cause);
  }
}

async function sha1Of(file: string, path: string, root: string): Promise<string> {
  const hash = createHash('sha1');
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 16 })) hash.update(chunk as Uint8Array);
  } catch (cause) {
    throw unreadable(`file "${path}" in folder "${root}"`, cause);
  }
  return hash.digest('hex');
}

function unreadable(what: string, cause: unknown): SitemapError {
  const code = (cause as { code?: unknown }).code;
  const why = code === 'ENOENT' ? 'it does not exist' : code === 'ENOTDIR' ? 'it is not a folder' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (cause as Error).message;
  return new SitemapError('SM_INPUT_UNREADABLE', `cannot read ${what}: ${why}`, { cause });
}

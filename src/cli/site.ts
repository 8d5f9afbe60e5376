/**
 * `build --dir`'s side of the CLI: the folder's files as source items, each verdict counted and, with
 * `--report`, written as a JSON Lines line (published when the build is, or when it fails for want of a
 * page to list, as the report then says why of each file). A page the judge lists
 * and the writer then drops (a duplicate URL, a record it cannot write) ends as `duplicate` or
 * `dropped`: the counts move as the writer says so, the report's line is settled before it is published.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { SitemapError } from '../errors.ts';
import type { Diagnostic } from '../model/diagnostic.ts';
import type { SourceItem, SourceRecord } from '../model/pipeline.ts';
import { toSitemapUri } from '../rules/url.ts';
import { readSiteFolder, VERDICTS, type SiteFolderOptions, type Verdict } from '../sources/folder.ts';

/** The judge's verdicts, and the writer's two for a page the judge listed: `duplicate` (its URL came already) and `dropped` (another finding). */
export type ReportVerdict = Verdict | 'duplicate' | 'dropped';
/** In the summary's order: the writer's two right after `listed`, whose pages they are. */
export const REPORT_VERDICTS: readonly ReportVerdict[] = VERDICTS.flatMap((v): ReportVerdict[] => (v === 'listed' ? [v, 'duplicate', 'dropped'] : [v]));

export type VerdictCounts = Record<ReportVerdict, number>;

/** A line of the report as written. */
interface ReportLine {
  path: string;
  url?: string;
  verdict: ReportVerdict;
  reason?: string;
}

/**
 * A `--report` file being written: under a temporary name until `publish`. Lines go out in walk order
 * as files are judged; the pages the writer drops are held (path and finding, nothing per other file)
 * and their lines settled in one more pass over the file at `publish`, only when there are any.
 */
export class VerdictReport {
  readonly #path: string;
  #temp: string;
  #handle: FileHandle | undefined;
  #buffer = '';
  /** The finding each dropped page's record was dropped with, by the page's path. */
  readonly #drops = new Map<string, Diagnostic>();

  private constructor(path: string, temp: string, handle: FileHandle) {
    this.#path = path;
    this.#temp = temp;
    this.#handle = handle;
  }

  static async open(path: string, label: string): Promise<VerdictReport> {
    const temp = tempName(path);
    // Found now, not when the report is renamed into place after the sitemaps are published.
    if (await stat(path).then((found) => found.isDirectory(), () => false)) throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write report "${label}": it is a folder; give a file's path`);
    try {
      return new VerdictReport(path, temp, await open(temp, 'wx'));
    } catch (cause) {
      const code = (cause as { code?: unknown }).code;
      const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' ? 'a file is in the way where a folder is needed' : (cause as Error).message;
      throw new SitemapError('SM_OUTPUT_UNWRITABLE', `cannot write report "${label}": ${why}`, { cause });
    }
  }

  async add(line: ReportLine): Promise<void> {
    this.#buffer += `${JSON.stringify(line)}\n`;
    if (this.#buffer.length >= 1 << 16) await this.#flush();
  }

  /** The listed page at `path` was not written, for `finding`. */
  drop(path: string, finding: Diagnostic): void {
    this.#drops.set(path, finding);
  }

  async publish(): Promise<void> {
    await this.#flush();
    await this.#close();
    if (this.#drops.size > 0) await this.#settle();
    await rename(this.#temp, this.#path);
  }

  async discard(): Promise<void> {
    await this.#close().catch(() => {});
    await rm(this.#temp, { force: true });
  }

  async #flush(): Promise<void> {
    if (this.#buffer === '') return;
    const text = this.#buffer;
    this.#buffer = '';
    await this.#handle?.write(text);
  }

  async #close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }

  /** Copies the report into a new temporary file, each dropped page's line given its final verdict, and makes that the one published. */
  async #settle(): Promise<void> {
    // A duplicate names the first file with its URL, as the writer wrote it (the URL its finding carries); one entry per such URL.
    const firsts = new Map<string, string | undefined>();
    for (const finding of this.#drops.values()) if (finding.rule === 'R25' && finding.url !== undefined) firsts.set(finding.url, undefined);
    const from = this.#temp;
    try {
      // Named first: should the copy fail, `discard` removes whatever it made.
      this.#temp = tempName(this.#path);
      this.#handle = await open(this.#temp, 'wx');
      for await (const text of createInterface({ input: createReadStream(from), crlfDelay: Infinity })) {
        this.#buffer += `${this.#settled(text, firsts)}\n`;
        if (this.#buffer.length >= 1 << 16) await this.#flush();
      }
      await this.#flush();
      await this.#close();
    } finally {
      await rm(from, { force: true });
    }
  }

  /** The line, or its replacement when the writer dropped its page. */
  #settled(text: string, firsts: Map<string, string | undefined>): string {
    const line = JSON.parse(text) as ReportLine;
    if (line.verdict !== 'listed' || line.url === undefined) return text;
    const finding = this.#drops.get(line.path);
    if (finding?.rule !== 'R25') {
      if (firsts.size > 0) {
        // The writer's own conversion: the URL this page was written at, or would have been.
        const written = toSitemapUri(line.url);
        if (written.ok && firsts.has(written.uri) && firsts.get(written.uri) === undefined) firsts.set(written.uri, line.path);
      }
      if (finding === undefined) return text;
      return JSON.stringify({ path: line.path, url: line.url, verdict: 'dropped', reason: finding.message, rule: finding.rule });
    }
    const first = finding.url === undefined ? undefined : firsts.get(finding.url);
    // No first file: a different URL with the same 64-bit fingerprint (docs/rules.md, R25); the finding says what happened.
    if (first === undefined) return JSON.stringify({ path: line.path, url: line.url, verdict: 'duplicate', reason: finding.message });
    return JSON.stringify({ path: line.path, url: line.url, verdict: 'duplicate', reason: `same URL as ${first}, which comes first`, duplicateOf: first });
  }
}

function tempName(path: string): string {
  return `${path}.${randomBytes(4).toString('hex')}.tmp`;
}

export function emptyCounts(): VerdictCounts {
  return Object.fromEntries(REPORT_VERDICTS.map((v) => [v, 0])) as VerdictCounts;
}

/** What the walk noticed beyond the counts: the pages left out for a canonical on another site, by that site's origin (for `folderHint`). */
export interface FolderNotes {
  elsewhere?: Map<string, { pages: number; path: string; canonical: string }>;
}

/** The folder's listed pages as source items; every file's verdict counted in `counts` and added to `report`. */
export async function* siteItems(options: SiteFolderOptions, counts: VerdictCounts, report: VerdictReport | undefined, notes: FolderNotes = {}): AsyncGenerator<SourceItem> {
  for await (const file of readSiteFolder(options)) {
    counts[file.verdict]++;
    if (file.canonical !== undefined) noteElsewhere(notes, file.path, file.canonical);
    if (report !== undefined) {
      await report.add({
        path: file.path,
        ...(file.url === undefined ? {} : { url: file.url }),
        verdict: file.verdict,
        ...(file.reason === undefined ? {} : { reason: file.reason }),
      });
    }
    if (file.record !== undefined) yield file.record;
  }
}

/** The writer's `onDropped` for the folder's records: the page moves from `listed` to `duplicate` (R25) or `dropped`, in the counts and the report. */
export function settleDrops(counts: VerdictCounts, report: VerdictReport | undefined): (record: SourceRecord, finding: Diagnostic) => void {
  return (record, finding) => {
    counts.listed--;
    counts[finding.rule === 'R25' ? 'duplicate' : 'dropped']++;
    if (record.path !== undefined) report?.drop(record.path, finding);
  };
}

/** One line: `Files in site: 14 (8 listed; skipped: 1 duplicate, 1 noindex, 2 redirect, 1 not-a-page)`. */
export function formatVerdicts(dir: string, counts: VerdictCounts): string {
  const total = REPORT_VERDICTS.reduce((sum, v) => sum + counts[v], 0);
  const skipped = REPORT_VERDICTS.filter((v) => v !== 'listed' && counts[v] > 0).map((v) => `${counts[v].toLocaleString('en-US')} ${v}`);
  return `Files in ${dir}: ${total.toLocaleString('en-US')} (${counts.listed.toLocaleString('en-US')} listed${skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : ''})\n`;
}

function noteElsewhere(notes: FolderNotes, path: string, canonical: string): void {
  const origin = URL.parse(canonical)?.origin;
  if (origin === undefined || origin === 'null') return;
  notes.elsewhere ??= new Map();
  const seen = notes.elsewhere.get(origin);
  if (seen === undefined) notes.elsewhere.set(origin, { pages: 1, path, canonical });
  else seen.pages++;
}

/**
 * The likely mistake behind a folder's outcome, in one line; else nothing. No page at all: `--dir`
 * names the site's sources, not its build. More pages left out for a canonical on one other site
 * than listed: a staging or preview URL as `--base-url`, or http for https.
 */
export function folderHint(counts: VerdictCounts, notes: FolderNotes, baseUrl: string, dir: string): string | undefined {
  const files = Object.values(counts).reduce((a, b) => a + b, 0);
  if (files === 0) return `${dir} holds no file to list: give --dir the folder your site is built into (dist, _site, public, build, out…)\n`;
  if (counts['not-a-page'] === files) return `${dir} holds no HTML page (.html, .htm): give --dir the folder your site is built into (dist, _site, public, build, out…), not its sources\n`;
  const given = URL.parse(baseUrl)?.origin;
  let top: { origin: string; pages: number; path: string; canonical: string } | undefined;
  for (const [origin, seen] of notes.elsewhere ?? []) if (origin !== given && (top === undefined || seen.pages > top.pages)) top = { origin, ...seen };
  if (top === undefined || top.pages <= counts.listed) return undefined;
  const pages = `${top.pages.toLocaleString('en-US')} page${top.pages === 1 ? ' was left out as its' : 's were left out as their'}`;
  return `${pages} canonical is on ${top.origin}, not on --base-url ${baseUrl} (the first: ${top.path}, canonical ${top.canonical}); if ${top.origin} is this site, give it as --base-url\n`;
}

export { SITE_FINGERPRINT_SCHEME as fingerprintScheme } from '../sources/folder.ts';

/** `sitemapkit discover`: site URL → robots.txt, well-known paths, indexes → a tree, or every page URL. */
import { SitemapError } from '../../errors.ts';
import type { Diagnostic } from '../../model/diagnostic.ts';
import { discoverSitemaps, type DiscoveredSitemap, type DiscoverOptions, type DiscoveryReport } from '../../discover/discover.ts';
import type { ParsedRecord } from '../../read/types.ts';
import { startDiscoverProgress } from '../progress.ts';
import { formatBytes, urlLine } from '../report.ts';
import { EXIT_FINDINGS, EXIT_OK, type CliIo } from '../io.ts';

export type UrlFormat = 'text' | 'ndjson' | 'csv';
export const URL_FORMATS: readonly UrlFormat[] = ['text', 'ndjson', 'csv'];

export interface DiscoverFlags {
  json: boolean;
  urls?: UrlFormat;
  concurrency?: number;
  timeout?: number;
  retries?: number;
  depth?: number;
  maxBytes?: number;
  maxSitemaps?: number;
  progress: boolean;
}

/** Findings printed under each file in the tree; `--json` has them all. */
const FINDINGS_SHOWN = 3;
/** Page URLs are written in blocks of about this many characters, waiting for the stream to drain. */
const WRITE_BLOCK = 64 * 1024;

/** Exit 0 when sitemaps were found and all of them could be read without errors; 1 when none were, some failed, or some have errors. */
export async function discoverCommand(siteUrl: string, flags: DiscoverFlags, io: CliIo): Promise<number> {
  if (flags.json && flags.urls !== undefined) {
    throw new SitemapError('SM_BAD_OPTION', '--json and --urls both write to standard output; use one of them');
  }
  const options: DiscoverOptions = {};
  if (flags.concurrency !== undefined) options.concurrency = flags.concurrency;
  if (flags.timeout !== undefined) options.timeoutMs = flags.timeout;
  if (flags.retries !== undefined) options.retries = flags.retries;
  if (flags.depth !== undefined) options.maxDepth = flags.depth;
  if (flags.maxBytes !== undefined) options.maxBytes = flags.maxBytes;
  if (flags.maxSitemaps !== undefined) options.maxSitemaps = flags.maxSitemaps;
  if (io.now !== undefined) options.now = io.now;
  const writer = flags.urls === undefined ? undefined : blockWriter(io.stdout);
  if (writer !== undefined && flags.urls !== undefined) {
    const format = flags.urls;
    if (format === 'csv') writer.line('loc,lastmod,changefreq,priority');
    options.onUrl = (record) => writer.line(formatRecord(record, format));
  }

  // Not while page URLs stream to the same terminal: the bar would be drawn over them.
  const showProgress = flags.progress && io.stderr.isTTY === true && !(writer !== undefined && io.stdout.isTTY === true);
  const progress = showProgress ? startDiscoverProgress(io.stderr) : undefined;
  if (progress !== undefined) options.onProgress = (p) => progress.update(p);
  let report: DiscoveryReport;
  try {
    report = await discoverSitemaps(withScheme(siteUrl), options);
  } finally {
    progress?.stop();
  }
  await writer?.flush();
  if (flags.json) io.stdout.write(`${JSON.stringify(report)}\n`);
  // With --urls the page URLs own stdout, so the tree goes to stderr.
  else (writer === undefined ? io.stdout : io.stderr).write(formatTree(report));
  const { sitemaps, failed, invalid } = report.totals;
  return sitemaps > 0 && failed === 0 && invalid === 0 ? EXIT_OK : EXIT_FINDINGS;
}

/** `example.com` means `https://example.com/`; anything with a scheme is taken as written. */
function withScheme(siteUrl: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(siteUrl) ? siteUrl : `https://${siteUrl}`;
}

function formatRecord(record: ParsedRecord, format: UrlFormat): string {
  if (format === 'text') return urlLine(record.loc);
  if (format === 'ndjson') return JSON.stringify(record);
  return [record.loc, record.lastmod, record.changefreq, record.priority].map((v) => csvField(v === undefined ? '' : String(v))).join(',');
}

/** RFC 4180: quote a field holding a comma, quote or line break; double its quotes. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function formatTree(report: DiscoveryReport): string {
  const { robots, site } = report;
  const short = (url: string): string => (url.startsWith(site) ? `/${url.slice(site.length)}` : url);
  let text = `${site}\n`;
  text += `robots.txt: ${robotsState(robots)}\n`;
  text += findingLines(robots.diagnostics, 0, '  ');

  // Roots at the margin, children drawn below their index; a file's findings sit under its line.
  const walk = (node: DiscoveredSitemap, prefix: string, connector: string): void => {
    text += `${prefix}${connector}${describe(node, short)}\n`;
    const below = prefix + (connector === '' ? '' : connector === '└─ ' ? '   ' : '│  ');
    text += findingLines(shownFindings(node), node.diagnosticsOmitted ?? 0, `${below}${node.sitemaps.length > 0 ? '│  ' : '   '}`);
    for (const [i, child] of node.sitemaps.entries()) walk(child, below, i === node.sitemaps.length - 1 ? '└─ ' : '├─ ');
  };
  for (const root of report.sitemaps) walk(root, '', '');

  const { sitemaps, urls, failed, invalid } = report.totals;
  if (sitemaps === 0 && failed === 0) return `${text}No sitemaps found in robots.txt or at the usual paths.\n`;
  text += `Found ${plural(sitemaps, 'sitemap')} listing ${plural(urls, 'URL')}`;
  if (invalid > 0) text += `; ${plural(invalid, 'sitemap')} ${invalid === 1 ? 'has' : 'have'} errors`;
  return `${text}${failed > 0 ? `; ${plural(failed, 'file')} could not be read` : ''}.\n`;
}

function robotsState(robots: DiscoveryReport['robots']): string {
  const lines = plural(robots.sitemaps.length, 'Sitemap: line');
  // Cut off part way: the lines read before still count.
  if (robots.error !== undefined) return robots.sitemaps.length > 0 ? `${lines}, then error: ${robots.error}` : robots.error;
  if (robots.status === undefined) return 'not read';
  return robots.status === 200 ? lines : `HTTP ${robots.status}, none`;
}

function describe(node: DiscoveredSitemap, short: (url: string) => string): string {
  const name = node.finalUrl === undefined ? short(node.url) : `${short(node.url)} → ${short(node.finalUrl)}`;
  const parts = [name, node.status === undefined ? '---' : String(node.status)];
  // A file cut off part way shows what was read of it, then why it stopped.
  if (node.error === undefined || node.bytes > 0) {
    // Children not followed (a limit, a loop, a repeat) are counted too: the tree shows those followed below.
    const followed = node.sitemaps.length < node.listed ? `, ${node.sitemaps.length} followed` : '';
    const listed = node.kind === 'sitemapindex' || node.kind === 'robots' ? `${plural(node.listed, 'sitemap')}${followed}` : plural(node.urls, 'URL');
    parts.push(`${node.kind}, ${listed}`, `${formatBytes(node.bytes)}${node.compressed ? ' gzip' : ''}`);
  }
  if (node.error !== undefined) parts.push(`${node.bytes > 0 ? 'then ' : ''}error: ${node.error}`);
  const findings = shownFindings(node).length + (node.diagnosticsOmitted ?? 0);
  if (findings > 0) parts.push(plural(findings, 'finding'));
  if (node.via !== 'index') parts.push(`(${node.via})`);
  return parts.join('  ');
}

/** The findings, less the one that repeats the file's `error`, already on its line. */
function shownFindings(node: DiscoveredSitemap): Diagnostic[] {
  return node.diagnostics.filter((d) => !(d.rule === 'FETCH' && d.message === node.error));
}

function findingLines(diagnostics: readonly Diagnostic[], omitted: number, indent: string): string {
  let text = '';
  for (const d of diagnostics.slice(0, FINDINGS_SHOWN)) text += `${indent}${d.rule} ${d.level}: ${d.message}${place(d)}\n`;
  const more = diagnostics.length - FINDINGS_SHOWN + omitted;
  if (more > 0) text += `${indent}… ${plural(more, 'more finding')} (--json lists them)\n`;
  return text;
}

function place(d: Diagnostic): string {
  if (d.line === undefined) return '';
  return d.column === undefined ? ` (line ${d.line})` : ` (line ${d.line}, column ${d.column})`;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/** Buffers lines into blocks and waits for 'drain' when the stream is full, so a slow reader slows discovery instead of filling memory. */
function blockWriter(stream: NodeJS.WritableStream): { line: (text: string) => void | Promise<void>; flush: () => Promise<void> } {
  let block = '';
  const flush = async (): Promise<void> => {
    if (block === '') return;
    const full = !stream.write(block);
    block = '';
    if (full) await new Promise<void>((resolve) => stream.once('drain', resolve));
  };
  return {
    line: (text) => {
      block += `${text}\n`;
      return block.length >= WRITE_BLOCK ? flush() : undefined;
    },
    flush,
  };
}

/** `sitemapkit discover`: site URL → robots.txt, well-known paths, indexes → a tree, or every page URL. */
import { discoverSitemaps, type DiscoverOptions, type DiscoveryReport } from '../../discover/discover.ts';
import { SitemapError } from '../../errors.ts';
import type { ParsedRecord } from '../../read/types.ts';
import { defineCommand, type CommandContext, type CommandRun } from '../command.ts';
import { EXIT_FINDINGS, EXIT_OK } from '../io.ts';
import { startDiscoverProgress } from '../progress.ts';
import { urlLine } from '../report.ts';
import { formatTree } from '../tree.ts';
import { COMMANDS } from './catalog.ts';

export type UrlFormat = 'text' | 'ndjson' | 'csv';
const URL_FORMATS: readonly UrlFormat[] = ['text', 'ndjson', 'csv'];

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

/** Page URLs are handed over in blocks of about this many characters. */
const WRITE_BLOCK = 64 * 1024;

export const command = defineCommand<DiscoverFlags>({
  ...COMMANDS.discover,
  options: [
    { flags: '--json', description: 'print the tree as one JSON object', default: false },
    { flags: '--urls [format]', description: 'print every page URL instead (the tree goes to stderr)', choices: URL_FORMATS, preset: 'text' },
    { flags: '--concurrency <n>', description: 'files fetched at once (default 4)', wholeNumber: true },
    { flags: '--timeout <ms>', description: 'time one request may take, body included (default 30000)', wholeNumber: true },
    { flags: '--retries <n>', description: 'retries after a network error, 429 or 5xx (default 2)', wholeNumber: true },
    { flags: '--depth <n>', description: 'index levels followed (default 5)', wholeNumber: true },
    { flags: '--max-bytes <n>', description: 'decompressed bytes read per file (default 104857600)', wholeNumber: true },
    { flags: '--max-sitemaps <n>', description: 'sitemaps read at most; well-known paths probed count only when they find one (default 50000)', wholeNumber: true },
    { flags: '--no-progress', description: 'no progress bar (it shows only on a terminal anyway)' },
  ],
  jsonFailure: {},
  handler: (operands, flags, context) => discover(operands[0] as string, flags, context),
});

/** Exit 0 when sitemaps were found and all of them could be read without errors; 1 when none were, some failed, or some have errors. */
async function* discover(siteUrl: string, flags: DiscoverFlags, context: CommandContext): CommandRun {
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
  if (context.now !== undefined) options.now = context.now;
  const urls = flags.urls === undefined ? undefined : new Blocks();
  if (urls !== undefined && flags.urls !== undefined) {
    const format = flags.urls;
    if (format === 'csv') urls.line('loc,lastmod,changefreq,priority');
    options.onUrl = (record) => urls.line(formatRecord(record, format));
  }

  // Not while page URLs stream to the same terminal: the bar would be drawn over them.
  const progressStream = flags.progress && !(urls !== undefined && context.stdoutIsTerminal) ? context.progressStream : undefined;
  const progress = progressStream === undefined ? undefined : startDiscoverProgress(progressStream);
  if (progress !== undefined) options.onProgress = (p) => progress.update(p);
  let report: DiscoveryReport;
  try {
    const discovery = discoverSitemaps(withScheme(siteUrl), options);
    if (urls !== undefined) yield* urls.until(discovery);
    report = await discovery;
  } finally {
    progress?.stop();
  }
  if (urls !== undefined) yield { stdout: urls.rest() };
  if (flags.json) yield { stdout: `${JSON.stringify(report)}\n` };
  // With --urls the page URLs own stdout, so the tree goes to stderr.
  else yield urls === undefined ? { stdout: formatTree(report) } : { stderr: formatTree(report) };
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

/**
 * Lines given by a callback (discovery's onUrl) handed over to be printed, in blocks: a full block
 * makes the callback wait until the runner has printed it, so a slow reader slows discovery
 * instead of filling memory.
 */
class Blocks {
  #block = '';
  /** Full blocks not yet printed, in order, each with the wait of the callback that filled it: several sitemaps are read at once, and each may fill one. */
  readonly #full: { text: string; printed: () => void }[] = [];
  /** Wakes `until` when a block is full or the work ended. */
  #wake: (() => void) | undefined;

  line(text: string): Promise<void> | undefined {
    this.#block += `${text}\n`;
    if (this.#block.length < WRITE_BLOCK) return undefined;
    const full = this.#block;
    this.#block = '';
    const printed = new Promise<void>((resolve) => this.#full.push({ text: full, printed: resolve }));
    this.#wake?.();
    return printed;
  }

  /** The full blocks, as they fill, until `work` settles (its outcome is for the caller to await). */
  async *until(work: Promise<unknown>): AsyncGenerator<{ stdout: string }, void, undefined> {
    let settled = false;
    const done = (): void => {
      settled = true;
      this.#wake?.();
    };
    work.then(done, done);
    for (;;) {
      const full = this.#full.shift();
      if (full !== undefined) {
        yield { stdout: full.text };
        full.printed();
      } else if (settled) {
        return;
      } else {
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    }
  }

  /** What is left once the work is done: the last block, not full. */
  rest(): string {
    return this.#block;
  }
}

/** `sitemapkit build`: flags → input stream → writeSourceItems → summary. */
import { dirname, resolve } from 'node:path';
import { isSitemapError } from '../../errors.ts';
import type { Diagnostic } from '../../model/diagnostic.ts';
import { FindingTally } from '../../model/findings.ts';
import { writeSourceItems, type WriteSitemapsOptions } from '../../publish/write-sitemaps.ts';
import { formatFromName, readInput, type InputFormat } from '../../sources/index.ts';
import type { BuildSummary } from '../../model/pipeline.ts';
import { defineCommand, type CommandContext, type CommandRun } from '../command.ts';
import { openFile } from '../files.ts';
import { EXIT_OK } from '../io.ts';
import { startProgress, type Progress } from '../progress.ts';
import { formatSummary, formatFindings } from '../report.ts';
import { COMMANDS } from './catalog.ts';

export interface BuildFlags {
  input: string;
  out: string;
  baseUrl: string;
  format?: InputFormat;
  gzip: boolean;
  gzipIndex: boolean;
  strict: boolean;
  json: boolean;
  stylesheet?: string;
  filename: string;
  maxUrls?: number;
  maxBytes?: number;
  progress: boolean;
  state?: string;
  lastmodFrom?: 'git';
  compact: boolean;
}

/** How many diagnostics `--json` and the summary carry; the counts cover all of them. */
const MAX_REPORTED_DIAGNOSTICS = 10_000;

export const command = defineCommand<BuildFlags>({
  ...COMMANDS.build,
  options: [
    { flags: '-i, --input <file>', description: 'input file, or - for standard input', required: true },
    { flags: '-o, --out <dir>', description: 'folder to publish the sitemaps into (other files there are left alone)', required: true },
    { flags: '-b, --base-url <url>', description: 'public URL of that folder, e.g. https://example.com/', required: true },
    { flags: '-f, --format <format>', description: 'input format (default: from the file extension, else sniffed)', choices: ['text', 'jsonl', 'csv'] },
    { flags: '-z, --gzip', description: 'gzip the URL files (sitemap-1.xml.gz…); the entry point stays sitemap.xml, an index', default: false },
    { flags: '--gzip-index', description: 'gzip the entry point too: sitemap.xml.gz (implies --gzip)', default: false },
    { flags: '--strict', description: 'fail (exit 1, publish nothing) on any error finding; URLs outside the base URL become errors', default: false },
    { flags: '--json', description: 'print one JSON object on stdout: { files, urls, diagnostics }', default: false },
    { flags: '--stylesheet <href>', description: 'add an xml-stylesheet instruction pointing at this XSL' },
    { flags: '--filename <stem>', description: 'file name stem', default: 'sitemap' },
    { flags: '--max-urls <n>', description: 'URLs per file, at most 50000', wholeNumber: true },
    { flags: '--max-bytes <n>', description: 'uncompressed bytes per file, at most 52428800', wholeNumber: true },
    { flags: '--state <file>', description: 'remember URLs between runs in this SQLite file (created if missing): lastmod is when content really changed, unchanged files are kept' },
    { flags: '--compact', description: 'with --state: pack the files removals left sparse (moving URLs writes the files they leave and join)', default: false },
    { flags: '--lastmod-from <source>', description: "a record with no lastmod (nor a state time) gets its \"path\" file's last git commit time (paths relative to the input's folder)", choices: ['git'] },
    { flags: '--no-progress', description: 'no progress bar (it shows only on a terminal anyway)' },
  ],
  jsonFailure: { published: false },
  handler: (_operands, flags, context) => build(flags, context),
});

async function* build(flags: BuildFlags, context: CommandContext): CommandRun {
  const fromStdin = flags.input === '-';
  const inputName = fromStdin ? '<stdin>' : flags.input;
  const outDir = resolve(context.cwd, flags.out);
  const { bytes, size, close } = await openInput(flags.input, context);
  let progress: Progress | undefined;
  try {
    const counted = countBytes(bytes, (n) => progress?.bytes(n));
    const format = flags.format ?? (fromStdin ? undefined : formatFromName(flags.input));
    if (flags.progress && context.progressStream !== undefined) progress = startProgress(context.progressStream, size);
    const options: WriteSitemapsOptions = {
      outDir,
      baseUrl: flags.baseUrl,
      gzip: flags.gzip,
      gzipIndex: flags.gzipIndex,
      strict: flags.strict,
      filename: flags.filename,
      source: inputName,
      maxDiagnostics: MAX_REPORTED_DIAGNOSTICS,
      onProgress: (p) => progress?.records(p.records, p.urls),
    };
    if (flags.stylesheet !== undefined) options.stylesheet = flags.stylesheet;
    if (flags.maxUrls !== undefined) options.maxUrlsPerFile = flags.maxUrls;
    if (flags.maxBytes !== undefined) options.maxBytesPerFile = flags.maxBytes;
    if (context.now !== undefined) options.now = context.now;
    if (flags.state !== undefined) options.state = resolve(context.cwd, flags.state);
    if (flags.compact) options.compact = true;
    if (flags.lastmodFrom !== undefined) {
      options.lastmodFrom = flags.lastmodFrom;
      options.sourceRoot = fromStdin ? context.cwd : dirname(resolve(context.cwd, flags.input));
    }
    let summary: BuildSummary;
    try {
      summary = await writeSourceItems(readInput(counted, { format, label: fromStdin ? 'standard input' : `input "${flags.input}"` }), options);
    } catch (error) {
      progress?.stop();
      if (!isSitemapError(error) || error.summary === undefined) throw error;
      // What was found, then the failure (one sentence on standard error, from the runner).
      if (flags.json) yield { stdout: `${JSON.stringify({ ...jsonReport(error.summary, false), error: error.message, code: error.code })}\n` };
      else yield { stderr: formatFindings(error.summary) };
      throw error;
    }
    progress?.stop();
    yield flags.json ? { stdout: `${JSON.stringify(jsonReport(summary, true))}\n` } : { stdout: formatSummary(summary, flags.out) };
    return EXIT_OK;
  } finally {
    progress?.stop();
    await close();
  }
}

function jsonReport(summary: BuildSummary, published: boolean): Record<string, unknown> {
  const total = new FindingTally(summary.counts).total;
  const diagnostics: Diagnostic[] = summary.diagnostics;
  return {
    published,
    files: summary.files,
    urls: summary.urls,
    records: summary.records,
    dropped: summary.dropped,
    duplicates: summary.duplicates,
    ...(summary.state === undefined ? {} : { state: summary.state }),
    diagnostics,
    counts: summary.counts,
    ...(total > diagnostics.length ? { diagnosticsOmitted: total - diagnostics.length } : {}),
  };
}

async function openInput(input: string, context: CommandContext): Promise<{ bytes: AsyncIterable<Uint8Array>; size?: number; close: () => Promise<void> }> {
  if (input === '-') return { bytes: asBytes(context.stdin), close: async () => {} };
  return openFile(resolve(context.cwd, input), `input "${input}"`, 1 << 20);
}

async function* asBytes(stream: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for await (const chunk of stream) yield typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}

async function* countBytes(source: AsyncIterable<Uint8Array>, onBytes: (total: number) => void): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    onBytes(total);
    yield chunk;
  }
}

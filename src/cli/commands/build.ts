/** `sitemapkit build`: flags → input stream → writeSourceItems → summary. */
import { resolve } from 'node:path';
import { isSitemapError } from '../../errors.ts';
import type { Diagnostic } from '../../model/diagnostic.ts';
import { writeSourceItems, type WriteSitemapsOptions } from '../../publish/write-sitemaps.ts';
import { formatFromName, readSource, sniffFormat, type InputFormat } from '../../sources/index.ts';
import type { BuildSummary } from '../../model/pipeline.ts';
import { openFile } from '../files.ts';
import { startProgress, type Progress } from '../progress.ts';
import { formatSummary, formatFindings } from '../report.ts';
import { EXIT_FINDINGS, EXIT_OK, type CliIo } from '../io.ts';

export interface BuildFlags {
  input: string;
  out: string;
  baseUrl: string;
  format?: InputFormat;
  gzip: boolean;
  strict: boolean;
  json: boolean;
  stylesheet?: string;
  filename: string;
  maxUrls?: number;
  maxBytes?: number;
  progress: boolean;
}

/** How many diagnostics `--json` and the summary carry; the counts cover all of them. */
const MAX_REPORTED_DIAGNOSTICS = 10_000;

export async function buildCommand(flags: BuildFlags, io: CliIo): Promise<number> {
  const fromStdin = flags.input === '-';
  const inputName = fromStdin ? '<stdin>' : flags.input;
  const outDir = resolve(io.cwd, flags.out);
  const { bytes, size, close } = await openInput(flags.input, io);
  let progress: Progress | undefined;
  try {
    const counted = countBytes(bytes, (n) => progress?.bytes(n));
    const format = flags.format ?? (fromStdin ? undefined : formatFromName(flags.input));
    const source = format === undefined ? await sniffed(counted) : { format, bytes: counted };
    if (flags.progress && io.stderr.isTTY === true) progress = startProgress(io.stderr, size);
    const options: WriteSitemapsOptions = {
      outDir,
      baseUrl: flags.baseUrl,
      gzip: flags.gzip,
      strict: flags.strict,
      filename: flags.filename,
      source: inputName,
      maxDiagnostics: MAX_REPORTED_DIAGNOSTICS,
      onProgress: (p) => progress?.records(p.records, p.urls),
    };
    if (flags.stylesheet !== undefined) options.stylesheet = flags.stylesheet;
    if (flags.maxUrls !== undefined) options.maxUrlsPerFile = flags.maxUrls;
    if (flags.maxBytes !== undefined) options.maxBytesPerFile = flags.maxBytes;
    if (io.now !== undefined) options.now = io.now;
    let summary: BuildSummary;
    try {
      summary = await writeSourceItems(readSource(source.format, source.bytes), options);
    } catch (error) {
      progress?.stop();
      if (!isSitemapError(error) || error.summary === undefined) throw error;
      if (flags.json) io.stdout.write(`${JSON.stringify({ ...jsonReport(error.summary, false), error: error.message, code: error.code })}\n`);
      else io.stderr.write(formatFindings(error.summary));
      io.stderr.write(`sitemapkit: ${error.message}\n`);
      return EXIT_FINDINGS;
    }
    progress?.stop();
    if (flags.json) io.stdout.write(`${JSON.stringify(jsonReport(summary, true))}\n`);
    else io.stdout.write(formatSummary(summary, flags.out));
    return EXIT_OK;
  } finally {
    progress?.stop();
    await close();
  }
}

function jsonReport(summary: BuildSummary, published: boolean): Record<string, unknown> {
  const total = Object.values(summary.counts).reduce((n, c) => n + c, 0);
  const diagnostics: Diagnostic[] = summary.diagnostics;
  return {
    published,
    files: summary.files,
    urls: summary.urls,
    records: summary.records,
    dropped: summary.dropped,
    duplicates: summary.duplicates,
    diagnostics,
    counts: summary.counts,
    ...(total > diagnostics.length ? { diagnosticsOmitted: total - diagnostics.length } : {}),
  };
}

async function openInput(input: string, io: CliIo): Promise<{ bytes: AsyncIterable<Uint8Array>; size?: number; close: () => Promise<void> }> {
  if (input === '-') return { bytes: asBytes(io.stdin), close: async () => {} };
  return openFile(resolve(io.cwd, input), `input "${input}"`, 1 << 20);
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

/** Picks the format from the first bytes, then replays them ahead of the rest. */
async function sniffed(source: AsyncIterable<Uint8Array>): Promise<{ format: InputFormat; bytes: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  const head = first.done === true ? new Uint8Array(0) : first.value;
  async function* replay(): AsyncGenerator<Uint8Array> {
    if (first.done !== true) yield head;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  return { format: sniffFormat(head), bytes: replay() };
}

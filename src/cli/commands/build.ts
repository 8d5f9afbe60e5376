/** `sitemapkit build`: flags → input stream (a file of records, or a static site's folder) → writeSourceItems → summary. */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { isSitemapError, SitemapError } from '../../errors.ts';
import type { Diagnostic } from '../../model/diagnostic.ts';
import { FindingTally } from '../../model/findings.ts';
import type { WriteSitemapsOptions } from '../../publish/write-sitemaps.ts';
import type { InputFormat } from '../../sources/index.ts';
import type { BuildSummary, SourceItem } from '../../model/pipeline.ts';
import type { SiteFolderOptions } from '../../sources/folder.ts';
import { TRAILING_SLASH, type TrailingSlash } from '../../sources/site-url.ts';
import { defineCommand, type CommandContext, type CommandRun } from '../command.ts';
import { openFile } from '../files.ts';
import { EXIT_OK } from '../io.ts';
import type { Progress } from '../progress.ts';
import type { FolderNotes } from '../site.ts';
import { formatSummary, formatFindings } from '../report.ts';
import { COMMANDS } from './catalog.ts';

export interface BuildFlags {
  input?: string;
  dir?: string;
  cleanUrls: boolean;
  trailingSlash: TrailingSlash;
  alternates: boolean;
  images: boolean;
  include?: string[];
  exclude?: string[];
  includeType?: string[];
  ignoreSelector?: string[];
  ignorePattern?: string[];
  report?: string;
  workers?: number;
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
    { flags: '-i, --input <file>', description: 'input file, or - for standard input (or --dir)' },
    { flags: '-d, --dir <folder>', description: "a static site's build folder: its pages become the URLs (or --input)" },
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
    { flags: '--lastmod-from <source>', description: "a record with no lastmod (nor a state time) gets its source file's last git commit time (--dir: the page; --input: its \"path\", relative to the input's folder)", choices: ['git'] },
    { flags: '--no-progress', description: 'no progress bar (it shows only on a terminal anyway)' },
    { flags: '--clean-urls', description: '--dir: x.html is served as x', default: false },
    { flags: '--trailing-slash <policy>', description: '--dir: always, never, or preserve (x/index.html → x/, x.html → x)', choices: TRAILING_SLASH, default: 'preserve' },
    { flags: '--alternates', description: '--dir: take <link rel="alternate" hreflang> into hreflang alternates', default: false },
    { flags: '--images', description: '--dir: take content images into the image extension', default: false },
    { flags: '--include <glob>', description: '--dir: list only files matching (repeatable)', repeatable: true },
    { flags: '--exclude <glob>', description: '--dir: leave out files matching (repeatable)', repeatable: true },
    { flags: '--include-type <ext>', description: '--dir: list files of this type too, e.g. pdf (repeatable)', repeatable: true },
    { flags: '--ignore-selector <css>', description: '--dir: leave elements matching out of the content fingerprint: tag, #id, .class, [attr], [attr=value] (repeatable)', repeatable: true },
    { flags: '--ignore-pattern <regex>', description: "--dir: leave text matching out of the content fingerprint (repeatable)", repeatable: true },
    { flags: '--report <file>', description: '--dir: write each file with its verdict as JSON Lines' },
    { flags: '--workers <n>', description: '--dir: worker threads reading pages besides the main one (default: cores - 1, 1 to 4; 0: none)', wholeNumber: true },
  ],
  jsonFailure: { published: false },
  handler: (_operands, flags, context) => build(flags, context),
});

/** Options that mean something only for a folder. */
const DIR_ONLY: ReadonlyArray<[keyof BuildFlags, string]> = [
  ['cleanUrls', '--clean-urls'],
  ['alternates', '--alternates'],
  ['images', '--images'],
  ['include', '--include'],
  ['exclude', '--exclude'],
  ['includeType', '--include-type'],
  ['ignoreSelector', '--ignore-selector'],
  ['ignorePattern', '--ignore-pattern'],
  ['report', '--report'],
  ['workers', '--workers'],
];

async function* build(flags: BuildFlags, context: CommandContext): CommandRun {
  if (flags.input !== undefined && flags.dir !== undefined) throw new SitemapError('SM_BAD_OPTION', 'give --input or --dir, not both');
  if (flags.input === undefined && flags.dir === undefined) throw new SitemapError('SM_BAD_OPTION', 'give --input <file> (a list of URLs or records) or --dir <folder> (a static site)');
  if (flags.dir === undefined) {
    const used = DIR_ONLY.find(([key]) => flags[key] !== undefined && flags[key] !== false);
    if (used !== undefined || flags.trailingSlash !== 'preserve') throw new SitemapError('SM_BAD_OPTION', `${used?.[1] ?? '--trailing-slash'} applies to --dir only`);
  }
  if (flags.dir !== undefined) return yield* buildFromFolder(flags, flags.dir, context);
  const input = flags.input as string;
  const fromStdin = input === '-';
  const { bytes, size, close } = await openInput(input, context);
  let progress: Progress | undefined;
  try {
    const counted = countBytes(bytes, (n) => progress?.bytes(n));
    // Loaded here: a build from a folder does not load the record formats' readers (csv-parse).
    const { formatFromName, readInput } = await import('../../sources/index.ts');
    const format = flags.format ?? (fromStdin ? undefined : formatFromName(input));
    if (flags.progress && context.progressStream !== undefined) progress = (await import('../progress.ts')).startProgress(context.progressStream, size);
    const items = readInput(counted, { format, label: fromStdin ? 'standard input' : `input "${input}"` });
    const sourceRoot = fromStdin ? context.cwd : dirname(resolve(context.cwd, input));
    return yield* publish(items, flags, context, fromStdin ? '<stdin>' : input, sourceRoot, progress, flags.baseUrl);
  } finally {
    progress?.stop();
    await close();
  }
}

async function* buildFromFolder(flags: BuildFlags, dir: string, context: CommandContext): CommandRun {
  const options: SiteFolderOptions = {
    root: resolve(context.cwd, dir),
    baseUrl: flags.baseUrl,
    cleanUrls: flags.cleanUrls,
    trailingSlash: flags.trailingSlash,
    alternates: flags.alternates,
    images: flags.images,
    include: flags.include ?? [],
    exclude: flags.exclude ?? [],
    includeTypes: flags.includeType ?? [],
    ignoreSelectors: flags.ignoreSelector ?? [],
    ignorePatterns: flags.ignorePattern ?? [],
  };
  if (flags.workers !== undefined) options.workers = flags.workers;
  // The workers boot while this thread loads the judge and the writer: the command loaded neither.
  const { bootSiteWorkers, dropBootedWorkers } = await import('../../sources/site-pool.ts');
  bootSiteWorkers(options);
  try {
    return yield* siteBuild(flags, dir, context, options);
  } finally {
    await dropBootedWorkers(options);
  }
}

async function* siteBuild(flags: BuildFlags, dir: string, context: CommandContext, options: SiteFolderOptions): CommandRun {
  // Loaded here: a build from a file does not load the HTML parser.
  const { folderHint, emptyCounts, formatVerdicts, settleDrops, siteItems, VerdictReport, fingerprintScheme } = await import('../site.ts');
  const counts = emptyCounts();
  const notes: FolderNotes = {};
  const report = flags.report === undefined ? undefined : await VerdictReport.open(resolve(context.cwd, flags.report), flags.report);
  let progress: Progress | undefined;
  let published = false;
  try {
    // The bar (cli-progress) is loaded only when shown: on a terminal.
    if (flags.progress && context.progressStream !== undefined) progress = (await import('../progress.ts')).startProgress(context.progressStream, undefined);
    const output = publish(siteItems(options, counts, report, notes), flags, context, dir, options.root, progress, outputUrl(flags.baseUrl, options.root, resolve(context.cwd, flags.out)), {
      // Read once the writer is done: by then every page it dropped has moved out of `listed`.
      extend: (json) => ({ ...json, folder: { files: Object.values(counts).reduce((a, b) => a + b, 0), verdicts: counts } }),
      onDropped: settleDrops(counts, report),
      fingerprintScheme,
      // The writer counts records; a folder's user knows pages.
      restate: (error) =>
        error.code === 'SM_NOTHING_TO_WRITE' && counts.listed === 0 ? new SitemapError(error.code, `no page of ${dir} can be listed; nothing was published`, { cause: error, ...(error.summary === undefined ? {} : { summary: error.summary }) }) : error,
    });
    for (let next = await output.next(); ; next = await output.next()) {
      if (next.done === true) {
        await report?.publish();
        published = true;
        if (!flags.json) {
          yield { stdout: formatVerdicts(dir, counts) };
          const hint = folderHint(counts, notes, flags.baseUrl, dir);
          if (hint !== undefined) yield { stderr: hint };
        }
        return next.value;
      }
      yield next.value;
    }
  } catch (error) {
    // No page to list: every file was judged, so the report is whole, and it is where the user learns why of each.
    if (isSitemapError(error) && error.code === 'SM_NOTHING_TO_WRITE' && report !== undefined) {
      try {
        await report.publish();
        published = true;
      } catch {
        // The run's own failure is the one to tell; the report's temporary file goes below.
      }
    }
    if (!flags.json && isSitemapError(error) && error.summary !== undefined) {
      yield { stderr: formatVerdicts(dir, counts) };
      const hint = folderHint(counts, notes, flags.baseUrl, dir);
      if (hint !== undefined) yield { stderr: hint };
      if (published && flags.report !== undefined) yield { stderr: `Each file's verdict: ${flags.report}\n` };
    }
    throw error;
  } finally {
    progress?.stop();
    if (!published) await report?.discard();
  }
}

/**
 * The public URL of the output folder: `--base-url` is the site's URL with `--dir`, so an output
 * folder inside the site (`--out dist/maps`) is served below it; elsewhere, at `--base-url` itself.
 */
function outputUrl(siteUrl: string, root: string, outDir: string): string {
  const inside = relative(root, outDir);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return siteUrl;
  return `${siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`}${inside.split(sep).map(encodeURIComponent).join('/')}/`;
}

/** What a source adds to a build: `extend` adds to the `--json` object, `onDropped` hears of each record not written. */
interface PublishExtras {
  extend?: (json: Record<string, unknown>) => Record<string, unknown>;
  onDropped?: WriteSitemapsOptions['onDropped'];
  fingerprintScheme?: string;
  /** The writer's failure in the source's terms. */
  restate?: (error: SitemapError) => SitemapError;
}

/** Writes the items into the output folder (served at `baseUrl`) and hands back the summary to print. */
async function* publish(
  items: AsyncIterable<SourceItem>,
  flags: BuildFlags,
  context: CommandContext,
  source: string,
  sourceRoot: string,
  progress: Progress | undefined,
  baseUrl: string,
  extras: PublishExtras = {},
): CommandRun {
  const extend = extras.extend ?? ((json) => json);
  const options: WriteSitemapsOptions = {
    outDir: resolve(context.cwd, flags.out),
    baseUrl,
    gzip: flags.gzip,
    gzipIndex: flags.gzipIndex,
    strict: flags.strict,
    filename: flags.filename,
    source,
    maxDiagnostics: MAX_REPORTED_DIAGNOSTICS,
    onProgress: (p) => progress?.records(p.records, p.urls),
  };
  if (flags.stylesheet !== undefined) options.stylesheet = flags.stylesheet;
  if (flags.maxUrls !== undefined) options.maxUrlsPerFile = flags.maxUrls;
  if (flags.maxBytes !== undefined) options.maxBytesPerFile = flags.maxBytes;
  if (context.now !== undefined) options.now = context.now;
  if (extras.onDropped !== undefined) options.onDropped = extras.onDropped;
  if (flags.state !== undefined) options.state = resolve(context.cwd, flags.state);
  if (flags.compact) options.compact = true;
  if (extras.fingerprintScheme !== undefined) options.fingerprintScheme = extras.fingerprintScheme;
  if (flags.lastmodFrom !== undefined) {
    // Paths are the records' own (`path`), relative to the input's folder or the site's.
    options.lastmodFrom = flags.lastmodFrom;
    options.sourceRoot = sourceRoot;
  }
  // Loaded here, not with the command: `--dir` boots its workers first, and they load while this thread loads the writer.
  const { writeSourceItems } = await import('../../publish/write-sitemaps.ts');
  let summary: BuildSummary;
  try {
    summary = await writeSourceItems(items, options);
  } catch (thrown) {
    progress?.stop();
    const error = isSitemapError(thrown) ? (extras.restate?.(thrown) ?? thrown) : thrown;
    if (!isSitemapError(error) || error.summary === undefined) throw error;
    // What was found, then the failure (one sentence on standard error, from the runner).
    if (flags.json) yield { stdout: `${JSON.stringify({ ...extend(jsonReport(error.summary, false)), error: error.message, code: error.code })}\n` };
    else yield { stderr: formatFindings(error.summary) };
    throw error;
  }
  progress?.stop();
  yield flags.json ? { stdout: `${JSON.stringify(extend(jsonReport(summary, true)))}\n` } : { stdout: formatSummary(summary, flags.out) };
  return EXIT_OK;
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

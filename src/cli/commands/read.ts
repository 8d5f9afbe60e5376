/** `sitemapkit parse` and `sitemapkit validate`: one file, URL or standard input → entries or findings. */
import { resolve } from 'node:path';
import { isSitemapError, SitemapError } from '../../errors.ts';
import type { Diagnostic } from '../../model/diagnostic.ts';
import { FindingTally } from '../../model/findings.ts';
import { fetchResource } from '../../http/fetch.ts';
import { checkMaxBytes, DEFAULT_MAX_BYTES, parseSitemap, type ByteSource } from '../../read/parse.ts';
import { LISTS_SITEMAPS } from '../../read/types.ts';
import { validateSitemap } from '../../validate/validate.ts';
import { schemaDiagnostics } from '../../validate/xsd.ts';
import { openFile } from '../files.ts';
import { formatBytes, formatFindings, urlLine } from '../report.ts';
import { EXIT_FINDINGS, EXIT_OK, type CliIo } from '../io.ts';

export interface ReadFlags {
  base?: string;
  json: boolean;
  maxBytes?: number;
}

export interface ParseFlags extends ReadFlags {
  ndjson: boolean;
}

export interface ValidateFlags extends ReadFlags {
  xsd: boolean;
}

interface OpenedSource {
  bytes: ByteSource;
  /** The file's own URL when it came from the web (relative locs resolve against it), else --base. */
  base?: string;
  name: string;
}

const HTTP = /^https?:\/\//i;
const WRITE_BLOCK = 64 * 1024;

/** A path, an http(s) URL or `-` (standard input), opened for reading; failures are one clear sentence. */
async function openSource(input: string, flags: ReadFlags, io: CliIo): Promise<OpenedSource> {
  // Before anything is opened or fetched.
  checkMaxBytes(flags.maxBytes);
  if (flags.base !== undefined && !(HTTP.test(flags.base) && URL.canParse(flags.base))) throw new SitemapError('SM_BAD_BASE_URL', `--base "${flags.base}" is not an absolute http(s) URL`);
  const withBase = (source: OpenedSource): OpenedSource => (flags.base === undefined ? source : { ...source, base: flags.base });
  if (input === '-') return withBase({ bytes: io.stdin as AsyncIterable<Uint8Array>, name: 'stdin' });
  if (HTTP.test(input)) {
    // One byte over the parser's cap, so an oversized file is the parser's R3 finding rather than a fetch failure.
    const response = await fetchResource(input, { maxBytes: (flags.maxBytes ?? DEFAULT_MAX_BYTES) + 1 });
    if (!response.ok) throw new SitemapError('SM_INPUT_UNREADABLE', `cannot fetch ${input}: ${response.message}`);
    return { bytes: response.body, base: flags.base ?? response.finalUrl, name: input };
  }
  const { bytes } = await openFile(resolve(io.cwd, input), `"${input}"`, WRITE_BLOCK, true);
  return withBase({ bytes, name: input });
}

const located = (name: string) => (diagnostic: Diagnostic): Diagnostic => ({ ...diagnostic, file: name });

export async function parseCommand(input: string, flags: ParseFlags, io: CliIo): Promise<number> {
  if (flags.json && flags.ndjson) throw new SitemapError('SM_BAD_OPTION', '--json and --ndjson both write to standard output; use one of them');
  const source = await openSource(input, flags, io);
  const parsed = parseSitemap(source.bytes, {
    ...(source.base === undefined ? {} : { base: source.base }),
    ...(flags.maxBytes === undefined ? {} : { maxBytes: flags.maxBytes }),
  });
  const entries: unknown[] = [];
  let block = '';
  // Reading that fails part way (a dropped connection) still prints what was read before, then fails.
  let failure: SitemapError | undefined;
  try {
    for await (const batch of parsed.batches()) {
      if (flags.json) {
        entries.push(...batch);
        continue;
      }
      for (const entry of batch) block += flags.ndjson ? `${JSON.stringify(entry)}\n` : `${urlLine(entry.loc)}\n`;
      if (block.length >= WRITE_BLOCK) {
        await write(io.stdout, block);
        block = '';
      }
    }
  } catch (error) {
    if (!isSitemapError(error) || parsed.bytes === 0) throw error;
    failure = error;
  }
  await write(io.stdout, block);
  const diagnostics = parsed.diagnostics.map(located(source.name));
  if (flags.json) {
    const listsSitemaps = LISTS_SITEMAPS.has(parsed.kind);
    const result = { kind: parsed.kind, urls: listsSitemaps ? [] : entries, sitemaps: listsSitemaps ? entries : [], diagnostics, counts: parsed.counts };
    await write(io.stdout, `${JSON.stringify(failure === undefined ? result : { ...result, error: failure.message, code: failure.code })}\n`);
  } else {
    const noun = LISTS_SITEMAPS.has(parsed.kind) ? 'sitemap' : 'URL';
    io.stderr.write(`${source.name}: ${parsed.kind}, ${parsed.entries.toLocaleString('en-US')} ${noun}${parsed.entries === 1 ? '' : 's'}, ${formatBytes(parsed.bytes)}${parsed.compressed ? ' (gzip)' : ''}\n`);
    io.stderr.write(formatFindings({ counts: parsed.counts, diagnostics }));
  }
  if (failure !== undefined) throw failure;
  return parsed.errors > 0 ? EXIT_FINDINGS : EXIT_OK;
}

export async function validateCommand(input: string, flags: ValidateFlags, io: CliIo): Promise<number> {
  const source = await openSource(input, flags, io);
  const options = {
    ...(source.base === undefined ? {} : { base: source.base }),
    ...(flags.maxBytes === undefined ? {} : { maxBytes: flags.maxBytes }),
    ...(io.now === undefined ? {} : { now: io.now }),
  };
  // Schema validation needs the whole text, so the bytes are read once into memory (at most the size cap).
  // Past the cap the parser stops reading anyway (R3, or INPUT below 50 MB): what it will not read is not held. The cap counts
  // decompressed bytes, and gzip can be a little larger than what it holds (deflate's stored blocks add
  // 5 bytes in 65,535): a slack of a thousandth keeps the cut beyond anything the parser reads.
  const cap = flags.maxBytes ?? DEFAULT_MAX_BYTES;
  const held = flags.xsd ? await collect(source.bytes, cap + Math.ceil(cap / 1000) + 1024) : undefined;
  // A source that failed part way fails the same for the checks, once they read that far (a cap or an HTML page may stop them first).
  const bytes = held === undefined ? source.bytes : held.failure === undefined ? held.bytes : readThenFail(held.bytes, held.failure.error);
  const result = await validateSitemap(bytes, options);
  if (held !== undefined && result.error === undefined && (result.kind === 'urlset' || result.kind === 'sitemapindex')) {
    const schema = await schemaDiagnostics(await parseSitemap(held.bytes, options).text(), result.kind);
    const tally = new FindingTally(result.counts);
    for (const diagnostic of schema) {
      result.diagnostics.push(diagnostic);
      tally.add(diagnostic);
    }
    if (schema.length > 0) result.valid = false;
  }
  const diagnostics = result.diagnostics.map(located(source.name));
  if (flags.json) {
    const summary = { valid: result.valid, kind: result.kind, entries: result.entries, diagnostics, counts: result.counts };
    await write(io.stdout, `${JSON.stringify(result.error === undefined ? summary : { ...summary, error: result.error.message, code: result.error.code })}\n`);
  } else {
    const noun = LISTS_SITEMAPS.has(result.kind) ? 'sitemap' : 'URL';
    const verdict = result.error !== undefined ? 'NOT READ WHOLE' : result.valid ? 'valid' : 'INVALID';
    io.stdout.write(`${source.name}: ${verdict} ${result.kind}, ${result.entries.toLocaleString('en-US')} ${noun}${result.entries === 1 ? '' : 's'}, ${formatBytes(result.bytes)}${result.compressed ? ' (gzip)' : ''}\n`);
    io.stdout.write(formatFindings({ counts: result.counts, diagnostics }));
  }
  // After what was read: the failure, as one sentence on standard error (exit 1).
  if (result.error !== undefined) throw result.error;
  return result.valid ? EXIT_OK : EXIT_FINDINGS;
}

/** The source held in memory, up to `limit` bytes, with the failure of one that failed part way. */
async function collect(bytes: ByteSource, limit: number): Promise<{ bytes: Uint8Array; failure?: { error: unknown } }> {
  if (bytes instanceof Uint8Array) return { bytes };
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const part of bytes) {
      parts.push(part);
      total += part.length;
      if (total >= limit) break;
    }
  } catch (error) {
    if (total === 0) throw error;
    return { bytes: Buffer.concat(parts), failure: { error } };
  }
  return { bytes: Buffer.concat(parts) };
}

async function* readThenFail(bytes: Uint8Array, error: unknown): AsyncGenerator<Uint8Array> {
  yield bytes;
  throw error;
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  return new Promise((done) => {
    if (stream.write(text)) done();
    else stream.once('drain', () => done());
  });
}

/** `sitemapkit parse`: one file, URL or standard input → its entries, streamed as they are read. */
import { isSitemapError, SitemapError } from '../../errors.ts';
import { parseSitemap } from '../../read/parse.ts';
import { LISTS_SITEMAPS } from '../../read/types.ts';
import { defineCommand, type CommandContext, type CommandRun } from '../command.ts';
import { EXIT_FINDINGS, EXIT_OK } from '../io.ts';
import { formatBytes, formatFindings, urlLine } from '../report.ts';
import { COMMANDS } from './catalog.ts';
import { located, openSource, READ_BLOCK, type ReadFlags } from './source.ts';

export interface ParseFlags extends ReadFlags {
  ndjson: boolean;
}

export const command = defineCommand<ParseFlags>({
  ...COMMANDS.parse,
  options: [
    { flags: '--base <url>', description: "the file's own URL: relative locs are resolved against it" },
    { flags: '--json', description: 'print one JSON object: { kind, urls, sitemaps, diagnostics }', default: false },
    { flags: '--ndjson', description: 'print one JSON record a line, as it is read (for large files)', default: false },
    { flags: '--max-bytes <n>', description: 'decompressed bytes read at most (default 104857600)', wholeNumber: true },
  ],
  jsonFailure: {},
  handler: (operands, flags, context) => parse(operands[0] as string, flags, context),
});

async function* parse(input: string, flags: ParseFlags, context: CommandContext): CommandRun {
  if (flags.json && flags.ndjson) throw new SitemapError('SM_BAD_OPTION', '--json and --ndjson both write to standard output; use one of them');
  const source = await openSource(input, flags, context);
  const parsed = parseSitemap(source.bytes, {
    ...(source.base === undefined ? {} : { base: source.base }),
    ...(source.compression === undefined ? {} : { compression: source.compression }),
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
      if (block.length >= READ_BLOCK) {
        yield { stdout: block };
        block = '';
      }
    }
  } catch (error) {
    if (!isSitemapError(error) || parsed.bytes === 0) throw error;
    failure = error;
  }
  yield { stdout: block };
  const diagnostics = parsed.diagnostics.map(located(source.name));
  if (flags.json) {
    const listsSitemaps = LISTS_SITEMAPS.has(parsed.kind);
    const omitted = parsed.diagnosticsOmitted;
    const result = { kind: parsed.kind, urls: listsSitemaps ? [] : entries, sitemaps: listsSitemaps ? entries : [], diagnostics, counts: parsed.counts, ...(omitted > 0 ? { diagnosticsOmitted: omitted } : {}) };
    yield { stdout: `${JSON.stringify(failure === undefined ? result : { ...result, error: failure.message, code: failure.code })}\n` };
  } else {
    const noun = LISTS_SITEMAPS.has(parsed.kind) ? 'sitemap' : 'URL';
    yield { stderr: `${source.name}: ${parsed.kind}, ${parsed.entries.toLocaleString('en-US')} ${noun}${parsed.entries === 1 ? '' : 's'}, ${formatBytes(parsed.bytes)}${parsed.compressed ? ' (gzip)' : ''}\n` };
    yield { stderr: formatFindings({ counts: parsed.counts, diagnostics }) };
  }
  if (failure !== undefined) throw failure;
  return parsed.errors > 0 ? EXIT_FINDINGS : EXIT_OK;
}

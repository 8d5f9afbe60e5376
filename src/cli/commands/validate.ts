/** `sitemapkit validate`: one file, URL or standard input → its findings against every rule that can be checked on a file, and a verdict. */
import { DEFAULT_MAX_BYTES, parseSitemap, type ByteSource } from '../../read/parse.ts';
import { LISTS_SITEMAPS } from '../../read/types.ts';
import { omitted, validateSitemap } from '../../validate/validate.ts';
import { FindingTally } from '../../model/findings.ts';
import { defineCommand, type CommandContext, type CommandRun } from '../command.ts';
import { EXIT_FINDINGS, EXIT_OK } from '../io.ts';
import { formatBytes, formatFindings } from '../report.ts';
import { COMMANDS } from './catalog.ts';
import { located, openSource, type ReadFlags } from './source.ts';

export interface ValidateFlags extends ReadFlags {
  xsd: boolean;
}

export const command = defineCommand<ValidateFlags>({
  ...COMMANDS.validate,
  options: [
    { flags: '--base <url>', description: "the file's own URL: enables the scope rules (R16, R17, R21)" },
    { flags: '--xsd', description: 'also validate against the official XML schemas (shipped, no system tools needed)', default: false },
    { flags: '--json', description: 'print one JSON object: { valid, diagnostics }', default: false },
    { flags: '--max-bytes <n>', description: 'decompressed bytes read at most (default 104857600)', wholeNumber: true },
  ],
  jsonFailure: { valid: false },
  handler: (operands, flags, context) => validate(operands[0] as string, flags, context),
});

async function* validate(input: string, flags: ValidateFlags, context: CommandContext): CommandRun {
  const source = await openSource(input, flags, context);
  const options = {
    ...(source.base === undefined ? {} : { base: source.base }),
    ...(flags.maxBytes === undefined ? {} : { maxBytes: flags.maxBytes }),
    ...(context.now === undefined ? {} : { now: context.now }),
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
    // Loaded here, when asked for: only --xsd needs the schema validator (xmllint compiled to WebAssembly).
    const { schemaDiagnostics } = await import('../../validate/xsd.ts');
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
    // As build says it: how many findings the counts hold that the list does not (schema findings included).
    const summary = { valid: result.valid, kind: result.kind, entries: result.entries, diagnostics, counts: result.counts, ...omitted(result) };
    yield { stdout: `${JSON.stringify(result.error === undefined ? summary : { ...summary, error: result.error.message, code: result.error.code })}\n` };
  } else {
    const noun = LISTS_SITEMAPS.has(result.kind) ? 'sitemap' : 'URL';
    const verdict = result.error !== undefined ? 'NOT READ WHOLE' : result.valid ? 'valid' : 'INVALID';
    yield { stdout: `${source.name}: ${verdict} ${result.kind}, ${result.entries.toLocaleString('en-US')} ${noun}${result.entries === 1 ? '' : 's'}, ${formatBytes(result.bytes)}${result.compressed ? ' (gzip)' : ''}\n` };
    yield { stdout: formatFindings({ counts: result.counts, diagnostics }) };
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

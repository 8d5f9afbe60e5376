/** `sitemapkit validate`: one file, URL or standard input → its findings against every rule that can be checked on a file, and a verdict. */
import { DEFAULT_MAX_BYTES, parseSitemap, type ByteSource } from '../../read/parse.ts';
import { LISTS_SITEMAPS } from '../../read/types.ts';
import { MAX_SCHEMA_BYTES, omitted, validateSitemap } from '../../validate/validate.ts';
import { FindingTally } from '../../model/findings.ts';
import type { Diagnostic } from '../../model/diagnostic.ts';
import type { ParseOptions } from '../../read/types.ts';

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
    ...(source.compression === undefined ? {} : { compression: source.compression }),
    ...(flags.maxBytes === undefined ? {} : { maxBytes: flags.maxBytes }),
    ...(context.now === undefined ? {} : { now: context.now }),
  };
  // Schema validation needs the whole text: the bytes are kept as the checks read them, as long as what they hold may be within what
  // the schema check takes (MAX_SCHEMA_BYTES). Gzip can be a little larger than what it holds (deflate's stored blocks add 5 bytes in
  // 65,535), and the cap counts decompressed bytes: a slack of a thousandth keeps the cut beyond anything the parser reads.
  const cap = flags.maxBytes ?? DEFAULT_MAX_BYTES;
  const held = flags.xsd ? new Held(Math.min(cap, MAX_SCHEMA_BYTES) + Math.ceil(Math.min(cap, MAX_SCHEMA_BYTES) / 1000) + 1024) : undefined;
  const result = await validateSitemap(held === undefined ? source.bytes : held.tee(source.bytes), options);
  if (held !== undefined && result.error === undefined && (result.kind === 'urlset' || result.kind === 'sitemapindex')) {
    const schema = await checkSchema(held, result.bytes, cap, options, result.kind);
    const tally = new FindingTally(result.counts);
    for (const diagnostic of schema) {
      result.diagnostics.push(diagnostic);
      tally.add(diagnostic);
    }
    if (schema.some((diagnostic) => diagnostic.level === 'error')) result.valid = false;
  }
  const diagnostics = result.diagnostics.map(located(source.name));
  if (flags.json) {
    // As build says it: how many findings the counts hold that the list does not (schema findings included).
    const summary = { valid: result.valid, kind: result.kind, entries: result.entries, diagnostics, counts: result.counts, ...omitted(result) };
    yield { stdout: `${JSON.stringify(result.error === undefined ? summary : { ...summary, error: result.error.message, code: result.error.code })}\n` };
  } else {
    const noun = LISTS_SITEMAPS.has(result.kind) ? 'sitemap' : 'URL';
    const verdict = result.error !== undefined ? 'NOT READ WHOLE' : result.valid ? 'valid' : 'INVALID';
    yield { stdout: `${source.name}: ${verdict} ${result.kind}, ${result.entries.toLocaleString('en-US')} ${noun}${result.entries === 1 ? '' : 's'}, ${formatBytes(result.bytes)}${result.compressed ? (source.compression === 'br' ? ' (Brotli)' : ' (gzip)') : ''}\n` };
    yield { stdout: formatFindings({ counts: result.counts, diagnostics }) };
  }
  // After what was read: the failure, as one sentence on standard error (exit 1).
  if (result.error !== undefined) throw result.error;
  return result.valid ? EXIT_OK : EXIT_FINDINGS;
}

/** The XSD findings on the bytes held, or the refusal of a file larger than the schema check takes (MAX_SCHEMA_BYTES). */
async function checkSchema(held: Held, bytes: number, cap: number, options: ParseOptions, kind: 'urlset' | 'sitemapindex'): Promise<Diagnostic[]> {
  // Loaded here, when asked for: only --xsd needs the schema validator (xmllint compiled to WebAssembly).
  const { schemaDiagnostics, schemaRefusal } = await import('../../validate/xsd.ts');
  const limit = MAX_SCHEMA_BYTES;
  // Stopped at the cap: the file is at least that large.
  if (bytes > limit || held.bytes === undefined) return [schemaRefusal(bytes, bytes >= cap)];
  const text = await parseSitemap(held.bytes, options).utf8(limit);
  held.bytes = undefined;
  // Larger once in UTF-8 (a Latin-1 or UTF-16 file).
  if (text === undefined) return [schemaRefusal(bytes, false)];
  return schemaDiagnostics(text, kind);
}

/** The source's bytes as they are read, kept up to `limit`: past it, none (a file that large is not schema-checked). */
class Held {
  readonly #limit: number;
  #parts: Uint8Array[] | undefined = [];
  #length = 0;
  /** Set when the reading ends: the bytes read, whole, unless they passed the limit. */
  bytes: Uint8Array | undefined;

  constructor(limit: number) {
    this.#limit = limit;
  }

  async *tee(source: ByteSource): AsyncGenerator<Uint8Array> {
    try {
      if (source instanceof Uint8Array) {
        this.#keep(source);
        yield source;
        return;
      }
      for await (const part of source) {
        this.#keep(part);
        yield part;
      }
    } finally {
      // The parser may stop early (a cap, an HTML page): what it read is what the schema check gets too.
      this.bytes = this.#parts === undefined ? undefined : this.#parts.length === 1 ? this.#parts[0] : Buffer.concat(this.#parts, this.#length);
      this.#parts = undefined;
    }
  }

  #keep(part: Uint8Array): void {
    if (this.#parts === undefined) return;
    this.#length += part.length;
    if (this.#length <= this.#limit) this.#parts.push(part);
    else this.#parts = undefined;
  }
}

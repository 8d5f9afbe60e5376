/**
 * The CLI as a function: `run(argv, io) → exit code`. Only `bin.ts` touches `process`.
 * Exit codes: 0 done, 1 findings or bad input, 2 usage error.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { isSitemapError } from '../errors.ts';
import { buildCommand } from './commands/build.ts';
import { discoverCommand, URL_FORMATS } from './commands/discover.ts';
import { parseCommand, validateCommand } from './commands/read.ts';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIo } from './io.ts';


const VERSION = '0.1.0';

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = EXIT_OK;
  const program = new Command('sitemapkit')
    .description('Complete, correct and truthful XML sitemaps.')
    .version(VERSION, '-v, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showSuggestionAfterError(true);

  program
    .command('build')
    .description('write a sitemap set (sitemap.xml, or numbered sitemaps and an index) from a list of URLs or records')
    .requiredOption('-i, --input <file>', 'input file, or - for standard input')
    .requiredOption('-o, --out <dir>', 'folder to publish the sitemaps into (other files there are left alone)')
    .requiredOption('-b, --base-url <url>', 'public URL of that folder, e.g. https://example.com/')
    .addOption(new Option('-f, --format <format>', 'input format (default: from the file extension, else sniffed)').choices(['text', 'jsonl', 'csv']))
    .option('-z, --gzip', 'write .xml.gz files', false)
    .option('--strict', 'fail (exit 1, publish nothing) on any error finding; URLs outside the base URL become errors', false)
    .option('--json', 'print one JSON object on stdout: { files, urls, diagnostics }', false)
    .option('--stylesheet <href>', 'add an xml-stylesheet instruction pointing at this XSL')
    .option('--filename <stem>', 'file name stem', 'sitemap')
    .option('--max-urls <n>', 'URLs per file, at most 50000', parseWholeNumber)
    .option('--max-bytes <n>', 'uncompressed bytes per file, at most 52428800', parseWholeNumber)
    .option('--no-progress', 'no progress bar (it shows only on a terminal anyway)')
    .action(async (options: Parameters<typeof buildCommand>[0]) => {
      exitCode = await jsonOnFailure(options.json, { published: false }, io, (out) => buildCommand(options, out));
    });

  program
    .command('parse')
    .description('read a sitemap, index, RSS/Atom feed, text list or robots.txt and print what it lists (one URL a line by default)')
    .argument('<source>', 'a file, an http(s) URL, or - for standard input (gzip is detected)')
    .option('--base <url>', "the file's own URL: relative locs are resolved against it")
    .option('--json', 'print one JSON object: { kind, urls, sitemaps, diagnostics }', false)
    .option('--ndjson', 'print one JSON record a line, as it is read (for large files)', false)
    .option('--max-bytes <n>', 'decompressed bytes read at most (default 104857600)', parseWholeNumber)
    .action(async (source: string, options: Parameters<typeof parseCommand>[1]) => {
      exitCode = await jsonOnFailure(options.json, {}, io, (out) => parseCommand(source, options, out));
    });

  program
    .command('validate')
    .description('check a sitemap or index against every protocol rule that can be checked on a file; exit 1 when invalid')
    .argument('<source>', 'a file, an http(s) URL, or - for standard input (gzip is detected)')
    .option('--base <url>', "the file's own URL: enables the scope rules (R16, R17, R21)")
    .option('--xsd', 'also validate against the official XML schemas (shipped, no system tools needed)', false)
    .option('--json', 'print one JSON object: { valid, diagnostics }', false)
    .option('--max-bytes <n>', 'decompressed bytes read at most (default 104857600)', parseWholeNumber)
    .action(async (source: string, options: Parameters<typeof validateCommand>[1]) => {
      exitCode = await jsonOnFailure(options.json, { valid: false }, io, (out) => validateCommand(source, options, out));
    });

  program
    .command('discover')
    .description('find a site\'s sitemaps (robots.txt, the usual paths, every index) and show them as a tree, or print every page URL; exit 1 when none is found, one cannot be read or one has errors')
    .argument('<site-url>', 'the site, e.g. https://example.com (https:// is assumed when no scheme is given)')
    .option('--json', 'print the tree as one JSON object', false)
    .addOption(new Option('--urls [format]', 'print every page URL instead (the tree goes to stderr)').choices(URL_FORMATS).preset('text'))
    .option('--concurrency <n>', 'files fetched at once (default 4)', parseWholeNumber)
    .option('--timeout <ms>', 'time one request may take, body included (default 30000)', parseWholeNumber)
    .option('--retries <n>', 'retries after a network error, 429 or 5xx (default 2)', parseWholeNumber)
    .option('--depth <n>', 'index levels followed (default 5)', parseWholeNumber)
    .option('--max-bytes <n>', 'decompressed bytes read per file (default 104857600)', parseWholeNumber)
    .option('--max-sitemaps <n>', 'sitemaps read at most; well-known paths probed count only when they find one (default 50000)', parseWholeNumber)
    .option('--no-progress', 'no progress bar (it shows only on a terminal anyway)')
    .action(async (siteUrl: string, options: Parameters<typeof discoverCommand>[1]) => {
      exitCode = await jsonOnFailure(options.json, {}, io, (out) => discoverCommand(siteUrl, options, out));
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end through here too, with exit code 0.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (isSitemapError(error)) {
      io.stderr.write(`sitemapkit: ${error.message}\n`);
      return error.code === 'SM_BAD_BASE_URL' || error.code === 'SM_BAD_OPTION' ? EXIT_USAGE : EXIT_FINDINGS;
    }
    throw error;
  }
}

/**
 * `--json` promises one object on standard output. A command prints its own, failure or not, once
 * it has something to say; one that fails before (an input that cannot be opened, a bad option)
 * prints `{ ...fields, error, code }`. The sentence still goes to standard error.
 */
async function jsonOnFailure(json: boolean, fields: Record<string, unknown>, io: CliIo, command: (io: CliIo) => Promise<number>): Promise<number> {
  if (!json) return command(io);
  let printed = false;
  const stdout = new Proxy(io.stdout, {
    get(target, key) {
      if (key === 'write') {
        return (...args: Parameters<typeof target.write>) => {
          printed = true;
          return target.write(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  try {
    return await command({ ...io, stdout });
  } catch (error) {
    if (!printed && isSitemapError(error)) io.stdout.write(`${JSON.stringify({ ...fields, error: error.message, code: error.code })}\n`);
    throw error;
  }
}

function parseWholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

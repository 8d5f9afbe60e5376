/**
 * The CLI as a function: `run(argv, io) → exit code`. Only `bin.ts` touches `process`.
 * Exit codes: 0 done, 1 findings or bad input, 2 usage error.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { isSitemapError } from '../errors.ts';
import { buildCommand } from './build.ts';

export interface CliIo {
  stdin: NodeJS.ReadableStream & AsyncIterable<Uint8Array | string>;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  cwd: string;
  /** Clock for checks that depend on today (news age). */
  now?: () => number;
}

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

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
      exitCode = await buildCommand(options, io);
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

function parseWholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

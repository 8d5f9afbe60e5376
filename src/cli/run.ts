/**
 * The CLI as a function: `run(argv, io) → exit code`. Only `bin.ts` touches `process`.
 * Commands are loaded when used; what they print comes back here to be written.
 * Exit codes: 0 done, 1 findings or bad input, 2 usage error, 141 the reader of standard output left.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError, Help, InvalidArgumentError, Option } from 'commander';
import { isSitemapError } from '../errors.ts';
import type { CommandContext, CommandDefinition, OptionSpec, Printed } from './command.ts';
import { COMMANDS, type CommandName } from './commands/catalog.ts';
import { EXIT_FINDINGS, EXIT_OK, EXIT_SIGPIPE, EXIT_USAGE, type CliIo } from './io.ts';

/** Each command's module, imported only when it runs or its help is asked for: `--help` and `build` load neither the reader, the HTTP client nor the schema validator. */
const LOAD: Record<CommandName, () => Promise<{ command: CommandDefinition }>> = {
  build: () => import('./commands/build.ts'),
  parse: () => import('./commands/parse.ts'),
  validate: () => import('./commands/validate.ts'),
  discover: () => import('./commands/discover.ts'),
  changes: () => import('./commands/changes.ts'),
};

interface Invocation {
  definition: CommandDefinition;
  operands: string[];
  flags: Record<string, unknown>;
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  // A failed write is reported to its callback, which `print` waits for; the stream emits the error too, later, with nothing left to do.
  io.stdout.on('error', () => {});
  const print = printer(io);
  const printed: Printed[] = [];
  const parsed = await parseCommandLine(argv, printed);
  for (const piece of printed) if (!(await print(piece))) return EXIT_SIGPIPE;
  return typeof parsed === 'number' ? parsed : execute(parsed, io, print);
}

/** The command to run with its operands and flags, or the exit code when commander ended it (help, version, a usage error), its output in `printed`. */
async function parseCommandLine(argv: readonly string[], printed: Printed[]): Promise<Invocation | number> {
  let invocation: Invocation | undefined;
  const program = new Command('sitemapkit')
    .description('Complete, correct and truthful XML sitemaps.')
    .version(packageVersion(), '-v, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => printed.push({ stdout: text }),
      writeErr: (text) => printed.push({ stderr: text }),
    })
    .configureHelp({
      // Every command has options, though a command not loaded does not have them yet.
      subcommandTerm(this: Help, command: Command): string {
        const term = Help.prototype.subcommandTerm.call(this, command);
        return Object.hasOwn(COMMANDS, command.name()) && command.options.length === 0 ? `${command.name()} [options]${term.slice(command.name().length)}` : term;
      },
    })
    .showSuggestionAfterError(true);

  const loaded = new Set<Command>();
  /** The command named, once loaded: a usage error under `--json` takes its failure shape. */
  let named: CommandDefinition | undefined;
  const load = async (command: Command): Promise<void> => {
    if (loaded.has(command)) return;
    loaded.add(command);
    const { command: definition } = await LOAD[command.name() as CommandName]();
    named = definition;
    for (const spec of definition.options) command.addOption(toOption(spec));
    command.action((...args: unknown[]) => {
      invocation = { definition, operands: args.slice(0, -2) as string[], flags: args.at(-2) as Record<string, unknown> };
    });
  };
  for (const entry of Object.values(COMMANDS)) {
    const command = program.command(entry.name).description(entry.description);
    for (const argument of entry.arguments) command.argument(argument.syntax, argument.description);
  }
  program.hook('preSubcommand', (_program, command) => load(command));
  // `help <command>` prints the command's help without going through the hook.
  const [first, second] = argv.filter((arg) => !arg.startsWith('-'));
  const helpFor = first === 'help' ? program.commands.find((command) => command.name() === second) : undefined;
  if (helpFor !== undefined) await load(helpFor);

  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // Help and version end through here too, with exit code 0.
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return EXIT_OK;
    if (wantsJson(argv)) printed.push({ stdout: `${JSON.stringify({ ...named?.jsonFailure, error: usageSentence(error.message), code: 'SM_USAGE' })}\n` });
    return EXIT_USAGE;
  }
  return invocation ?? EXIT_OK;
}

/** A failure no command turned into a SitemapError, as one: the system's (a full disk, an I/O error) as it says, any other as a bug to report. */
function unexpected(error: unknown, debug: boolean): { code: 'SM_UNEXPECTED'; message: string } {
  const { code, syscall } = (error instanceof Error ? error : {}) as { code?: unknown; syscall?: unknown };
  const text = error instanceof Error ? error.message : String(error);
  const said = typeof code === 'string' && !text.startsWith(code) ? `${code}: ${text}` : text;
  const where = 'SITEMAPKIT_DEBUG=1 prints where it came from';
  if (typeof syscall === 'string') return { code: 'SM_UNEXPECTED', message: `the system failed an operation: ${said}${debug ? '' : ` (${where})`}` };
  return { code: 'SM_UNEXPECTED', message: `unexpected failure, a bug in sitemapkit: ${said} (please report it with the command that caused it${debug ? '' : `; ${where}`})` };
}

/** `--json` among the options, before a `--` that ends them. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** Commander's message as one sentence: without its `error: ` prefix, a suggestion on the line after joined in. */
function usageSentence(message: string): string {
  return message.replace(/^error: /, '').replace(/\n\((Did you mean [^)]*)\)$/, (_all, suggestion: string) => ` (${suggestion.charAt(0).toLowerCase()}${suggestion.slice(1)})`).replaceAll('\n', ' ');
}

/** Runs the command, printing what it hands back as it comes; a failure is one sentence on standard error (and, with --json, one object on standard output if it printed none). */
async function execute({ definition, operands, flags }: Invocation, io: CliIo, print: (piece: Printed) => Promise<boolean>): Promise<number> {
  const context: CommandContext = {
    stdin: io.stdin,
    cwd: io.cwd,
    ...(io.now === undefined ? {} : { now: io.now }),
    ...(io.stderr.isTTY === true ? { progressStream: io.stderr } : {}),
    stdoutIsTerminal: io.stdout.isTTY === true,
  };
  const output = definition.handler(operands, flags, context);
  let printedOut = false;
  try {
    for (let next = await output.next(); ; next = await output.next()) {
      if (next.done === true) return next.value;
      printedOut ||= 'stdout' in next.value && next.value.stdout !== '';
      if (!(await print(next.value))) return EXIT_SIGPIPE;
    }
  } catch (caught) {
    // Any other failure (the system's, or a bug) is still one sentence and one JSON object, not a crash; its stack on request.
    const error = isSitemapError(caught) ? caught : unexpected(caught, io.debug === true);
    const json = { stdout: `${JSON.stringify({ ...definition.jsonFailure, error: error.message, code: error.code })}\n` };
    if (flags['json'] === true && !printedOut && !(await print(json))) return EXIT_SIGPIPE;
    if (!(await print({ stderr: `sitemapkit: ${error.message}\n` }))) return EXIT_SIGPIPE;
    if (io.debug === true && !isSitemapError(caught) && !(await print({ stderr: `${caught instanceof Error ? caught.stack : String(caught)}\n` }))) return EXIT_SIGPIPE;
    return error.code === 'SM_BAD_BASE_URL' || error.code === 'SM_BAD_OPTION' ? EXIT_USAGE : EXIT_FINDINGS;
  } finally {
    // A command stopped part way (its reader left, a write failed) still closes what it opened; one that ended is left as it is.
    await output.return(EXIT_SIGPIPE);
  }
}

/**
 * Writes a piece of output and waits until its stream has taken it, so a command goes no faster
 * than its reader. False when the reader of standard output has left (EPIPE, `… | head`): the
 * command is stopped and the CLI ends as a Unix tool cut off by SIGPIPE does.
 */
function printer(io: CliIo): (piece: Printed) => Promise<boolean> {
  return async (piece) => {
    const [stream, text] = 'stdout' in piece ? [io.stdout, piece.stdout] : [io.stderr, piece.stderr];
    if (text === '') return true;
    try {
      await new Promise<void>((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
    } catch (error) {
      if (stream === io.stdout && (error as NodeJS.ErrnoException).code === 'EPIPE') return false;
      throw error;
    }
    return true;
  };
}

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.required === true) option.makeOptionMandatory();
  if (spec.choices !== undefined) option.choices(spec.choices);
  if (spec.preset !== undefined) option.preset(spec.preset);
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.wholeNumber === true) option.argParser(parseWholeNumber);
  if (spec.repeatable === true) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  return option;
}

function parseWholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

/** The version package.json declares, read beside the code: `src/cli/` and `dist/cli/` both sit two levels below it. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** What a command is to the runner: its options as data, and a handler that hands back what to print instead of printing it. */
import type { CliIo } from './io.ts';

/** One command-line option, as the runner declares it to commander. */
export interface OptionSpec {
  /** As commander writes them: `-i, --input <file>`, `--urls [format]`, `--no-progress`. */
  flags: string;
  description: string;
  required?: true;
  default?: string | boolean;
  choices?: readonly string[];
  /** The value of an optional-value option given bare (`--urls` alone). */
  preset?: string;
  /** The value is a whole number (digits only), else a usage error. */
  wholeNumber?: true;
  /** The option may be given again; the flag is the list of its values, in order (undefined when not given). */
  repeatable?: true;
}

/** A piece of what a command prints, in order: to standard output or to standard error. */
export type Printed = { stdout: string } | { stderr: string };

/**
 * A command as it runs: the pieces it prints, then its exit code. The runner writes each piece
 * before asking for the next, so a long listing streams and a slow reader slows the command down
 * instead of filling memory. A failure is thrown (a SitemapError), after whatever was printed.
 */
export type CommandRun = AsyncGenerator<Printed, number, undefined>;

/** What a command may use besides its flags; standard output and error are the runner's. */
export interface CommandContext {
  stdin: CliIo['stdin'];
  cwd: string;
  /** Clock for checks that depend on today (news age). */
  now?: () => number;
  /** Standard error when it is a terminal: where a progress bar may be drawn, and cleared, while the command runs. */
  progressStream?: CliIo['stderr'];
  /** Whether standard output is a terminal too: a bar drawn there while output streams to it would be drawn over it. */
  stdoutIsTerminal: boolean;
}

export interface CommandDefinition<Flags = Record<string, unknown>> {
  name: string;
  description: string;
  /** Its operands, in order, each required. */
  arguments: readonly { syntax: string; description: string }[];
  options: readonly OptionSpec[];
  /** With `--json`, a failure before the command printed anything is one JSON object: these fields, `error` and `code`. */
  jsonFailure: Readonly<Record<string, unknown>>;
  handler: (operands: readonly string[], flags: Flags, context: CommandContext) => CommandRun;
}

/**
 * A command's definition as the runner holds it. The flags a handler gets are what commander made
 * of `options`, a shape the type system cannot follow from the specs to the handler's parameter.
 */
export function defineCommand<Flags>(definition: CommandDefinition<Flags>): CommandDefinition {
  return definition as unknown as CommandDefinition;
}

/** What the CLI touches (standard streams, folder, clock) and the exit codes it returns; only `bin.ts` supplies the real ones. */

export interface CliIo {
  stdin: NodeJS.ReadableStream & AsyncIterable<Uint8Array | string>;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  cwd: string;
  /** Clock for checks that depend on today (news age). */
  now?: () => number;
  /** Print the stack of a failure that is a bug rather than one sentence alone (`SITEMAPKIT_DEBUG=1`). */
  debug?: boolean;
}

/** Done (findings allowed). */
export const EXIT_OK = 0;
/** Findings that fail the command, or bad input. */
export const EXIT_FINDINGS = 1;
/** Usage error: unknown option, bad value. */
export const EXIT_USAGE = 2;
/** The reader of standard output left early (`… | head`): 128 + SIGPIPE, as for a Unix tool killed by it. */
export const EXIT_SIGPIPE = 141;

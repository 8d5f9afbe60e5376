/** What a command may touch (standard streams, folder, clock) and the exit codes it returns; only `bin.ts` supplies the real ones. */

export interface CliIo {
  stdin: NodeJS.ReadableStream & AsyncIterable<Uint8Array | string>;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  cwd: string;
  /** Clock for checks that depend on today (news age). */
  now?: () => number;
}

/** Done (findings allowed). */
export const EXIT_OK = 0;
/** Findings that fail the command, or bad input. */
export const EXIT_FINDINGS = 1;
/** Usage error: unknown option, bad value. */
export const EXIT_USAGE = 2;

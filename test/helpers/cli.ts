/** Runs the CLI in-process with captured stdout/stderr. */
import { Readable, Writable } from 'node:stream';
import { run } from '../../src/cli/run.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `tty`: stderr (and stdout, when `'both'`) claims to be a terminal, as progress bars need. */
export async function runCli(argv: string[], options: { cwd: string; stdin?: string; now?: number; tty?: 'stderr' | 'both' }): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        append(chunk.toString());
        callback();
      },
    });
  const io = {
    stdin: Readable.from([Buffer.from(options.stdin ?? '')]),
    stdout: Object.assign(sink((s) => (stdout += s)), { isTTY: options.tty === 'both' }),
    stderr: Object.assign(sink((s) => (stderr += s)), { isTTY: options.tty !== undefined, columns: 100 }),
    cwd: options.cwd,
    now: () => options.now ?? Date.parse('2026-11-22T12:00:00Z'),
  };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}

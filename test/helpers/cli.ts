/** Runs the CLI in-process with captured stdout/stderr. */
import { Readable, Writable } from 'node:stream';
import { run } from '../../src/cli/run.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], options: { cwd: string; stdin?: string; now?: number }): Promise<CliResult> {
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
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    cwd: options.cwd,
    now: () => options.now ?? Date.parse('2026-11-22T12:00:00Z'),
  };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('concurrent');
const BIN = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
const HOOKS = fileURLToPath(new URL('../helpers/fs-hooks.ts', import.meta.url));
const RUNS = 10;
const ROUNDS = 3;

interface Run {
  pid: number;
  stdin: NodeJS.WritableStream;
  stderr: () => string;
  ready: Promise<void>;
  exited: Promise<number | null>;
  done: boolean;
}

/**
 * A `build` from standard input that stops at its first file system call on `out` (the sink opening
 * the folder, after its first 64 KiB body chunk) until SIGUSR2, and then waits for the rest of its input.
 */
function startRun(cwd: string, out: string, n: number): Run {
  const child = spawn(process.execPath, ['--import', HOOKS, BIN, 'build', '-i', '-', '-o', out, '--base-url', 'https://example.com/', '--no-progress'], {
    cwd,
    env: { ...process.env, SITEMAPKIT_TEST_GATE: out },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  assert.ok(child.pid !== undefined);
  let stderr = '';
  let ready = (): void => {};
  const run: Run = {
    pid: child.pid,
    stdin: child.stdin,
    stderr: () => stderr,
    ready: new Promise((resolve) => (ready = resolve)),
    exited: new Promise((resolve) => child.on('close', (code) => resolve(code))),
    done: false,
  };
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.startsWith('ready\n')) ready();
  });
  void run.exited.then(() => (run.done = true));
  child.stdin.write(Array.from({ length: 3000 }, (_, i) => `https://example.com/run-${n}/${i}\n`).join(''));
  return run;
}

test(`${RUNS} builds of one set into one folder released at the same instant: exactly one publishes, the others are refused naming it (${ROUNDS} rounds)`, { timeout: 300_000 }, async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const cwd = await tempDir();
    const out = join(cwd, 'out');
    const runs = Array.from({ length: RUNS }, (_, n) => startRun(cwd, out, n));
    await Promise.all(runs.map((run) => run.ready));
    for (const run of runs) process.kill(run.pid, 'SIGUSR2');
    // The winner waits for the end of its input, so it holds the set until every other run has answered
    // (a refused run prints its error at once, and exits once its input ends).
    const answered = (): number => runs.filter((run) => run.done || run.stderr().includes('sitemapkit: ')).length;
    for (let waited = 0; answered() < RUNS - 1 && waited < 60_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const [n, run] of runs.entries()) run.stdin.end(`https://example.com/run-${n}/last\n`);
    const codes = await Promise.all(runs.map((run) => run.exited));

    const winners = runs.filter((_, i) => codes[i] === 0);
    assert.equal(winners.length, 1, `round ${round}: exit codes ${codes.join(' ')}; ${runs.map((run) => run.stderr()).join('')}`);
    const [winner] = winners;
    assert.ok(winner !== undefined);
    for (const [i, run] of runs.entries()) {
      if (run === winner) continue;
      assert.equal(codes[i], 1);
      assert.equal(
        run.stderr(),
        `ready\nsitemapkit: another run (process ${winner.pid}) is publishing the "sitemap" set into "${out}"; runs into one folder at once need different file names\n`,
      );
    }
    const n = runs.indexOf(winner);
    assert.deepEqual((await readdir(out)).sort(), ['.sitemapkit-sitemap.json', 'sitemap.xml']);
    const published = await readFile(join(out, 'sitemap.xml'), 'utf8');
    assert.equal(published.match(/<loc>/g)?.length, 3001);
    assert.ok(published.includes(`<loc>https://example.com/run-${n}/last</loc>`));
  }
});

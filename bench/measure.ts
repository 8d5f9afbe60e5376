/** What the bench drivers share: one run per child process (so peak RSS is its own), best of N, and the printed rows. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The flags sitemapkit's CLI runs with (see src/bin.ts); given to every tool alike. */
export const NODE_FLAGS = ['--max-semi-space-size=8'];
export const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`BENCH_RUNS must be a whole number of runs, 1 or more (got "${process.env['BENCH_RUNS']}")`);

export interface Run {
  tool: string;
  urls: number;
  seconds: number;
  maxRssMiB: number;
}

/**
 * Runs a bench script (`./name.ts`, relative to bench/) in its own Node process; it prints its Run as
 * the last line. The script runs compiled (`npm run bench` emits bench/ into .bench/): a .ts entry
 * point would load Node's type-stripping loader, about 16 MiB of RSS that no user of either tool pays.
 */
export function measure(script: string, args: readonly string[]): Run {
  const path = fileURLToPath(new URL(`../.bench/bench/${script.replace(/^\.\//, '').replace(/\.ts$/, '.js')}`, import.meta.url));
  if (!existsSync(path)) throw new Error(`${path} is missing: run the bench through npm (npm run bench or bench:read), which compiles it`);
  const out = execFileSync(process.execPath, [...NODE_FLAGS, path, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Run;
}

/**
 * The best of RUNS runs of each tool, the tools taking turns (each round in the reverse order of the
 * one before): these machines are noisy, noise only ever slows a run down, and a change of load over
 * the minutes a bench takes then falls on every tool alike instead of on whichever ran last. Peak
 * RSS is the worst seen. A tool whose run throws has that error as its result and is not run again.
 */
export function bestOfEach(tools: ReadonlyArray<() => Run>, rounds = RUNS): Array<Run | Error> {
  const runs: Run[][] = tools.map(() => []);
  const failures: Array<Error | undefined> = tools.map(() => undefined);
  for (let round = 0; round < rounds; round++) {
    const order = tools.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      if (failures[i] !== undefined) continue;
      try {
        (runs[i] as Run[]).push((tools[i] as () => Run)());
      } catch (error) {
        failures[i] = error instanceof Error ? error : new Error(String(error));
      }
    }
  }
  return tools.map((_, i) => failures[i] ?? fastest(runs[i] as Run[]));
}

/** The run itself, or the error that stopped it thrown: for the rows a bench cannot do without. */
export function needed(result: Run | Error): Run {
  if (result instanceof Error) throw result;
  return result;
}

function fastest(runs: readonly Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return { ...(sorted[0] as Run), maxRssMiB: Math.max(...runs.map((r) => r.maxRssMiB)) };
}

export const rate = (r: Run): number => r.urls / r.seconds;
export const row = (r: Run): string =>
  `${r.tool.padEnd(28)} ${String(r.urls).padStart(9)} URLs  ${r.seconds.toFixed(2).padStart(6)} s  ${Math.round(rate(r)).toLocaleString('en-US').padStart(9)} URLs/s  peak RSS ${r.maxRssMiB.toFixed(0).padStart(4)} MiB`;
export const check = (ok: boolean, text: string): void => console.log(`  ${ok ? 'met ' : 'MISS'}  ${text}`);

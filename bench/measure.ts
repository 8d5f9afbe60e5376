/** What the bench drivers share: one run per child process (so peak RSS is its own), best of N, and the printed rows. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The flags sitemapkit's CLI runs with (see src/bin.ts); given to every tool alike. */
export const NODE_FLAGS = ['--max-semi-space-size=8'];
export const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);

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

/** The best of a few runs: these machines are noisy, and noise only ever slows a run down. Peak RSS is the worst seen. */
export function best(run: () => Run): Run {
  const runs = Array.from({ length: RUNS }, run);
  runs.sort((a, b) => a.seconds - b.seconds);
  const fastest = runs[0] as Run;
  return { ...fastest, maxRssMiB: Math.max(...runs.map((r) => r.maxRssMiB)) };
}

export const rate = (r: Run): number => r.urls / r.seconds;
export const row = (r: Run): string =>
  `${r.tool.padEnd(28)} ${String(r.urls).padStart(9)} URLs  ${r.seconds.toFixed(2).padStart(6)} s  ${Math.round(rate(r)).toLocaleString('en-US').padStart(9)} URLs/s  peak RSS ${r.maxRssMiB.toFixed(0).padStart(4)} MiB`;
export const check = (ok: boolean, text: string): void => console.log(`  ${ok ? 'met ' : 'MISS'}  ${text}`);

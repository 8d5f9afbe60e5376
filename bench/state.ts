/**
 * `npm run bench:state`: the state store's targets. 1,000,000 records into a fresh state against the
 * stateless writer (same records, same options, gzip on, each in its own process, taking turns); then
 * the same records again (nothing changed: no file may be written), best of as many runs, each on its
 * own copy of that fresh state so every one is a first rebuild; then 10 changed, 1,000 added and
 * 1,000 removed (only the files those touch). Prints met/MISS for each target; figures go in bench/NOTES.md.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check, measure, NODE_FLAGS, rate, row, RUNS, type Run } from './measure.ts';

const RECORDS = Number(process.env['BENCH_STATE_RECORDS'] ?? 1_000_000);

interface StateRun extends Run {
  written: number;
  bound?: number;
  indexWritten: boolean;
}

console.log(`State benchmark (node ${process.version}, flags ${NODE_FLAGS.join(' ')}, best of ${RUNS}, ${RECORDS.toLocaleString('en-US')} records, gzip)`);
const best = (runs: StateRun[]): StateRun => [...runs].sort((a, b) => a.seconds - b.seconds)[0] as StateRun;
const stateless: StateRun[] = [];
const fresh: StateRun[] = [];
let kept: string | undefined;
for (let round = 0; round < RUNS; round++) {
  const order = round % 2 === 0 ? (['stateless', 'fresh'] as const) : (['fresh', 'stateless'] as const);
  for (const mode of order) {
    const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-bench-state-'));
    const result = measure('./state-run.ts', [mode, String(RECORDS), dir]) as StateRun;
    (mode === 'fresh' ? fresh : stateless).push(result);
    if (mode === 'fresh' && round === RUNS - 1) kept = dir;
    else await rm(dir, { recursive: true, force: true });
  }
}
const dir = kept as string;
const rebuilds: StateRun[] = [];
for (let round = 0; round < RUNS; round++) {
  const copy = `${dir}-unchanged`;
  await cp(dir, copy, { recursive: true, preserveTimestamps: true });
  rebuilds.push(measure('./state-run.ts', ['unchanged', String(RECORDS), copy]) as StateRun);
  await rm(copy, { recursive: true, force: true });
}
const unchanged = best(rebuilds);
const churn = measure('./state-run.ts', ['churn', String(RECORDS), dir]) as StateRun;
await rm(dir, { recursive: true, force: true });

const peer = best(stateless);
const ours = best(fresh);
for (const r of [peer, ours, unchanged, churn]) console.log(`${row(r)}  files written ${r.written}${r.bound === undefined ? '' : ` (bound ${r.bound})`}`);
const ratio = rate(ours) / rate(peer);
console.log(`\nfresh state / stateless writer: ${ratio.toFixed(2)}×`);
check(ratio >= 0.5, `fresh state ≥ 0.5× the stateless writer's URLs/s (${ratio.toFixed(2)}×)`);
check(rate(unchanged) >= 300_000, `nothing changed: ≥ 300,000 records/s (${Math.round(rate(unchanged)).toLocaleString('en-US')})`);
const rewrote = rebuilds.find((r) => r.written !== 0 || r.indexWritten) ?? unchanged;
check(rewrote === unchanged && unchanged.written === 0 && !unchanged.indexWritten, `nothing changed: no file written in any of ${RUNS} runs (${rewrote.written} sitemap files${rewrote.indexWritten ? ' and the index' : ''})`);
check(churn.written <= (churn.bound ?? 0), `10 changed, 1,000 added, 1,000 removed: ${churn.written} files written, at most ${churn.bound} (the files holding them + ⌈1,000 / 50,000⌉ + 1)`);
const peak = Math.max(...[...stateless, ...fresh, ...rebuilds, churn].map((r) => r.maxRssMiB));
const statePeak = Math.max(...[...fresh, ...rebuilds, churn].map((r) => r.maxRssMiB));
check(statePeak <= 300, `peak RSS ≤ 300 MiB throughout (state runs ${statePeak.toFixed(0)} MiB; all runs ${peak.toFixed(0)} MiB)`);

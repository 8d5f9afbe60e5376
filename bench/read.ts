/**
 * `npm run bench:read` (and the second half of `npm run bench`): the reader of issue #8 on a gzipped
 * index of 1,000,000 URLs in 20 files (bench/read-fixture.ts, built once and cached), against
 * sitemap.js's parser and a raw saxes pass that only counts `<loc>`. Each tool runs in its own
 * process (so peak RSS is its own) with the same Node flags, over the same files, best of
 * BENCH_RUNS, the compared tools taking turns; gunzip-only passes are shown as the ceiling.
 * sitemapkit runs twice: entries one by one (`for await`, on which the targets are judged) and a
 * chunk's worth at a time (`batches()`, as the CLI reads). BENCH_READ_URLS shrinks the fixture for a quick try (the targets are about 1,000,000).
 */
import { ensureFixture, FIXTURE_URLS } from './read-fixture.ts';
import { bestOfEach, check, measure, NODE_FLAGS, needed, rate, row, RUNS, type Run } from './measure.ts';

const URLS = Number(process.env['BENCH_READ_URLS'] ?? FIXTURE_URLS);
const fixture = await ensureFixture(URLS);

/** One run of a reader over the fixture; every tool must have read every URL, or there is no result. */
const reader =
  (script: string, ...args: string[]) =>
  (): Run => {
    const run = measure(script, [fixture.dir, ...args]);
    if (run.urls !== fixture.urls) throw new Error(`${run.tool} read ${run.urls} URLs, the fixture has ${fixture.urls}`);
    return run;
  };

const gzipped = fixture.files.reduce((sum, f) => sum + f.bytes, 0);
console.log(`Reader benchmark (node ${process.version}, flags ${NODE_FLAGS.join(' ')}, best of ${RUNS})`);
console.log(`${fixture.urls.toLocaleString('en-US')} URLs in ${fixture.files.length - 1} gzipped files + index, ${(gzipped / 2 ** 20).toFixed(1)} MiB (${fixture.dir})`);
const ceilings = bestOfEach([reader('./read-gunzip.ts', 'gunzip'), reader('./read-gunzip.ts', 'scan'), reader('./read-gunzip.ts', 'decode')]).map(needed);
const [saxesRun, saxesNsRun, peerRun, oursRun, ourBatchesRun, ourValidateRun] = bestOfEach([
  reader('./read-saxes.ts'),
  reader('./read-saxes.ts', 'xmlns'),
  reader('./read-sitemapjs.ts'),
  reader('./read-sitemapkit.ts'),
  reader('./read-sitemapkit.ts', 'batches'),
  reader('./read-sitemapkit.ts', 'validate'),
]);
const [saxes, saxesNs, peer] = [saxesRun, saxesNsRun, peerRun].map((run) => needed(run as Run | Error)) as [Run, Run, Run];
// A wrong or crashing read is no result; the other rows are still worth seeing.
for (const failed of [oursRun, ourBatchesRun, ourValidateRun]) if (failed instanceof Error) console.error(failed.message.split('\n')[0]);
const ours = oursRun instanceof Error ? undefined : oursRun;
const ourBatches = ourBatchesRun instanceof Error ? undefined : ourBatchesRun;
for (const r of ceilings) console.log(row(r));
console.log(row(saxes));
console.log(row(saxesNs));
console.log(row(peer));
if (ours === undefined) {
  console.log(`${'sitemapkit'.padEnd(28)} FAILED (see above): no result`);
  check(false, '≥ 2.0× the raw saxes pass with full record extraction (no result)');
  check(false, '≥ 10× sitemap.js (no result)');
  check(false, 'peak RSS ≤ 150 MiB (no result)');
  process.exitCode = 1;
} else {
  console.log(row(ours));
  if (ourBatches !== undefined) console.log(row(ourBatches));
  // What `sitemapkit validate` costs on the same files: every rule checked, no target.
  if (ourValidateRun !== undefined && !(ourValidateRun instanceof Error)) console.log(row(ourValidateRun));
  const vsSaxes = rate(ours) / rate(saxes);
  const vsPeer = rate(ours) / rate(peer);
  console.log(`\nsitemapkit / raw saxes: ${vsSaxes.toFixed(2)}×   sitemapkit / sitemap.js: ${vsPeer.toFixed(2)}×   (raw saxes = the xmlns: false row)`);
  // The targets are judged on entries taken one by one, the plainest use; batches() is what the CLI uses.
  if (ourBatches !== undefined) console.log(`sitemapkit, batches() / raw saxes: ${(rate(ourBatches) / rate(saxes)).toFixed(2)}× (not judged)`);
  check(vsSaxes >= 2, `≥ 2.0× the raw saxes pass with full record extraction (${vsSaxes.toFixed(2)}×)`);
  check(vsPeer >= 10, `≥ 10× sitemap.js (${vsPeer.toFixed(2)}×)`);
  check(ours.maxRssMiB <= 150, `peak RSS ≤ 150 MiB at ${fixture.urls.toLocaleString('en-US')} (${ours.maxRssMiB.toFixed(0)} MiB)`);
}

/**
 * `npm run bench`: the writer against sitemap.js on the same 1,000,000 synthetic records, each in
 * its own process (so peak RSS is its own) with the same Node flags, taking turns, then sitemapkit
 * at 5,000,000 to show memory stays bounded. Prints URLs/s, peak RSS and the ratios the targets are about.
 * Both tools run as shipped: sitemap.js from node_modules, sitemapkit from dist/ (`npm run bench` builds it).
 */
import { bestOfEach, check, measure, NODE_FLAGS, needed, rate, row, RUNS, type Run } from './measure.ts';

const RECORDS = Number(process.env['BENCH_RECORDS'] ?? 1_000_000);
const LARGE = Number(process.env['BENCH_LARGE_RECORDS'] ?? 5_000_000);

console.log(`Writer benchmark (node ${process.version}, flags ${NODE_FLAGS.join(' ')}, best of ${RUNS})`);
const [peer, ours] = bestOfEach([() => measure('./write-sitemapjs.ts', [String(RECORDS)]), () => measure('./write-sitemapkit.ts', [String(RECORDS)])]).map(needed) as [Run, Run];
const large = measure('./write-sitemapkit.ts', [String(LARGE)]);
console.log(row(peer));
console.log(row(ours));
console.log(row(large));
const ratio = rate(ours) / rate(peer);
console.log(`\nsitemapkit gzipped / sitemap.js uncompressed: ${ratio.toFixed(2)}×`);
check(ratio >= 3, `≥ 3× sitemap.js while gzipping (${ratio.toFixed(2)}×)`);
check(rate(ours) >= 300_000, `≥ 300,000 URLs/s gzipped (${Math.round(rate(ours)).toLocaleString('en-US')})`);
check(ours.maxRssMiB <= 150, `peak RSS ≤ 150 MiB at ${RECORDS.toLocaleString('en-US')} (${ours.maxRssMiB.toFixed(0)} MiB)`);
check(large.maxRssMiB <= 150, `peak RSS ≤ 150 MiB at ${LARGE.toLocaleString('en-US')} (${large.maxRssMiB.toFixed(0)} MiB, flat: the duplicate filter is a fixed 16 MiB)`);

/**
 * `npm run bench:site` (and the end of `npm run bench`): `build --dir` against static-sitemap-cli on
 * the same generated 5,000-page folder, each tool's CLI in its own process, taking turns, best of
 * SMALL_ROUNDS (BENCH_RUNS, at least 7); then sitemapkit alone on a 100,000-page folder for its peak RSS. Both run as shipped:
 * sitemapkit from dist/ (the script builds it), static-sitemap-cli from node_modules. Peak RSS is
 * the child's own, from /usr/bin/time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bestOfEach, check, NODE_FLAGS, needed, rate, row, RUNS, type Run } from './measure.ts';
import { siteFixture } from './site-fixture.ts';

const PAGES = Number(process.env['BENCH_SITE_PAGES'] ?? 5_000);
/** Rounds of the 5,000-page comparison: each run lasts about a second, where a stall of the shared machine weighs most, so it takes more rounds than the longer benches for the same minutes (both tools alike). */
const SMALL_ROUNDS = Math.max(RUNS, 7);
const LARGE = Number(process.env['BENCH_SITE_LARGE_PAGES'] ?? 100_000);
const BASE = 'https://docs.example.com/';
const root = fileURLToPath(new URL('..', import.meta.url));
const SITEMAPKIT = join(root, 'dist/bin.js');
const SSCLI = join(root, 'node_modules/static-sitemap-cli/src/cli.js');
if (!existsSync(SITEMAPKIT)) throw new Error(`${SITEMAPKIT} is missing: run the bench through npm (npm run bench:site), which builds it`);
if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is needed to read a child process’s peak RSS');

/** Runs a CLI under /usr/bin/time for its peak RSS; pages/s counts every HTML page of the folder read, `listed` the URLs it wrote. */
/** `listed`: URLs written; `cpuSeconds`: user + system, all threads (on a shared machine, steadier than wall time). */
type SiteRun = Run & { listed: number; cpuSeconds: number };

function run(tool: string, pages: number, args: readonly string[], expectUrls: (stdout: string) => number): SiteRun {
  const started = process.hrtime.bigint();
  const child = spawnSync('/usr/bin/time', ['-f', 'peak-rss-kb %M cpu-s %U %S', process.execPath, ...NODE_FLAGS, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (child.status !== 0) throw new Error(`${tool} failed (status ${child.status}): ${child.stderr.slice(-2000)}`);
  const rss = /peak-rss-kb (\d+) cpu-s ([\d.]+) ([\d.]+)/.exec(child.stderr);
  if (rss === null) throw new Error(`no peak RSS from /usr/bin/time for ${tool}: ${child.stderr.slice(-500)}`);
  const urls = expectUrls(child.stdout);
  if (!(urls > 0)) throw new Error(`${tool} listed no URL`);
  return { tool, urls: pages, seconds, maxRssMiB: Number(rss[1]) / 1024, listed: urls, cpuSeconds: Number(rss[2]) + Number(rss[3]) };
}

const sitemapkit = (dir: string, pages: number, out: string) => (): SiteRun =>
  run('sitemapkit build --dir', pages, [SITEMAPKIT, 'build', '--dir', dir, '--out', out, '--base-url', BASE, '--clean-urls', '--no-progress', '--json'], (stdout) => (JSON.parse(stdout) as { urls: number }).urls);
const sscli = (dir: string, pages: number) => (): SiteRun =>
  run('static-sitemap-cli', pages, [SSCLI, '--base', BASE, '--root', dir, '--format', 'xml', '--stdout'], (stdout) => stdout.split('<loc>').length - 1);

console.log(`Static folder benchmark (node ${process.version}, flags ${NODE_FLAGS.join(' ')}; 5,000 pages best of ${SMALL_ROUNDS} alternated rounds; pages/s counts every HTML page read)`);
const small = await siteFixture(PAGES, BASE);
const large = await siteFixture(LARGE, BASE);
const out = await mkdtemp(join(tmpdir(), 'sitemapkit-bench-site-out-'));
try {
  const [peer, ours] = bestOfEach([sscli(small, PAGES), sitemapkit(small, PAGES, join(out, 'small'))], SMALL_ROUNDS).map(needed) as [SiteRun, SiteRun];
  const big = sitemapkit(large, LARGE, join(out, 'large'))();
  for (const r of [peer, ours, big]) console.log(`${row(r).replace('URLs ', 'pages').replace('URLs/s', 'pages/s')}  CPU ${r.cpuSeconds.toFixed(2)} s  (${r.listed.toLocaleString('en-US')} listed)`);
  const ratio = rate(ours) / rate(peer);
  console.log(`\nsitemapkit / static-sitemap-cli pages/s: ${ratio.toFixed(2)}× (sitemapkit also reads canonical, hreflang, refresh and the content fingerprint)`);
  check(ratio >= 2, `≥ 2× static-sitemap-cli's pages/s (${ratio.toFixed(2)}×)`);
  check(big.maxRssMiB <= 250, `peak RSS ≤ 250 MB at ${LARGE.toLocaleString('en-US')} pages (${big.maxRssMiB.toFixed(0)} MiB)`);
} finally {
  await rm(out, { recursive: true, force: true });
}

/** One benchmark run of sitemapkit's writer (gzip on), in its own process so peak RSS is its own. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as sitemapkit from '../src/index.ts';
import { report, syntheticRecords } from './records.ts';

// The package as it ships (dist/, built by `npm run bench`), like sitemap.js from its own dist: loading
// sitemapkit's .ts sources through Node's type stripping would add ~30 MiB of loader RSS no user pays.
const { writeSitemaps } = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof sitemapkit;

const count = Number(process.argv[2] ?? 1_000_000);
const outDir = await mkdtemp(join(tmpdir(), 'sitemapkit-bench-'));
const started = process.hrtime.bigint();
const summary = await writeSitemaps(syntheticRecords(count), { outDir, baseUrl: 'https://www.example.com/', gzip: true });
report('sitemapkit (gzip)', summary.urls, started);
await rm(outDir, { recursive: true, force: true });

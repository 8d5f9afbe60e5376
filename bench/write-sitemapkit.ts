/** One benchmark run of sitemapkit's writer (gzip on), in its own process so peak RSS is its own. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as sitemapkit from '../src/index.ts';
import { PACKAGE, report, syntheticRecords } from './records.ts';

// The package as it ships (dist/, by its own name), like sitemap.js from its own dist.
const { writeSitemaps } = (await import(PACKAGE)) as typeof sitemapkit;

const count = Number(process.argv[2] ?? 1_000_000);
const outDir = await mkdtemp(join(tmpdir(), 'sitemapkit-bench-'));
const started = process.hrtime.bigint();
const summary = await writeSitemaps(syntheticRecords(count), { outDir, baseUrl: 'https://www.example.com/', gzip: true });
report('sitemapkit (gzip)', summary.urls, started);
await rm(outDir, { recursive: true, force: true });

/** One benchmark run of sitemap.js (npm `sitemap`) in its fastest configuration: uncompressed files. */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SitemapAndIndexStream, SitemapStream } from 'sitemap';
import { report, syntheticRecords } from './records.ts';

const count = Number(process.argv[2] ?? 1_000_000);
const outDir = await mkdtemp(join(tmpdir(), 'sitemapjs-bench-'));
const started = process.hrtime.bigint();
const files: Promise<unknown>[] = [];
const index = new SitemapAndIndexStream({
  limit: 50_000,
  getSitemapStream: (i: number) => {
    const sitemap = new SitemapStream({ hostname: 'https://www.example.com' });
    const file = createWriteStream(join(outDir, `sitemap-${i}.xml`));
    files.push(new Promise<void>((resolve) => file.on("close", () => resolve())));
    return [`https://www.example.com/sitemap-${i}.xml`, sitemap, sitemap.pipe(file)];
  },
});
const items = Readable.from((function* () {
  for (const r of syntheticRecords(count)) yield { url: r.loc, lastmod: r.lastmod, changefreq: r.changefreq, priority: r.priority };
})());
await pipeline(items, index, createWriteStream(join(outDir, 'sitemap-index.xml')));
await Promise.all(files);
report('sitemap.js (uncompressed)', count, started);
await rm(outDir, { recursive: true, force: true });

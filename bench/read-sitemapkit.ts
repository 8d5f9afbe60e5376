/**
 * sitemapkit's reader on the fixture: `parseSitemap` over the index, then over each child in turn,
 * every field of every entry read (images, videos, news and alternates included), so no extraction
 * is dead code. The run fails on any error diagnostic, a wrong kind or a missed image or alternate,
 * so a fast wrong parse cannot pass. Sequential, one file at a time, like the other runners.
 * With the argument `batches`, entries are taken a chunk's worth at a time (`batches()`), as the
 * CLI's `parse`, `validate` and `discover` take them; without it, one by one with `for await`. With
 * `validate`, each child goes through `validateSitemap` (every rule, positions, duplicates, hreflang
 * reciprocity) and must come out valid: what `sitemapkit validate` costs, shown but not judged.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type * as sitemapkit from '../src/index.ts';
import type { ParsedRecord, ParseOptions } from '../src/index.ts';
import { fixtureDir, localPath, readFixtureMeta } from './read-common.ts';
import { PACKAGE, report } from './records.ts';

// The package as it ships (dist/, by its own name), like the writer's runner and like the peers from their dist.
const { parseSitemap, validateSitemap } = (await import(PACKAGE)) as typeof sitemapkit;

const dir = fixtureDir();
const mode = process.argv[3] ?? 'one by one';
const inBatches = mode === 'batches';
const meta = readFixtureMeta(dir);
const indexPath = join(dir, meta.index);

const len = (value: unknown): number => (typeof value === 'string' ? value.length : value === undefined ? 0 : 1);
let errors = 0;
const options = (base: string): ParseOptions => ({
  base,
  onDiagnostic: (d) => {
    if (d.level === 'error' && errors++ < 3) console.error(base, d);
  },
});

const started = process.hrtime.bigint();
let urls = 0;
let images = 0;
let alternates = 0;
/** A sum over every field, so no extraction is dead code. */
let touched = 0;
const index = parseSitemap(createReadStream(indexPath), options('https://www.example.com/sitemap.xml.gz'));
const children: string[] = [];
for await (const entry of index) {
  children.push(entry.loc);
  touched += len(entry.lastmod);
}
if (index.kind !== 'sitemapindex') throw new Error(`the index parsed as ${index.kind}`);
for (const loc of children) {
  if (mode === 'validate') {
    const result = await validateSitemap(createReadStream(localPath(dir, loc)), options(loc));
    if (!result.valid || result.kind !== 'urlset') throw new Error(`${loc}: ${result.kind}, ${result.valid ? 'valid' : 'invalid'}`);
    urls += result.entries;
    continue;
  }
  const parsed = parseSitemap(createReadStream(localPath(dir, loc)), options(loc));
  if (inBatches) {
    for await (const batch of parsed.batches()) for (const entry of batch) read(entry as ParsedRecord);
  } else {
    // A urlset yields page records (checked on `kind` below).
    for await (const entry of parsed) read(entry as ParsedRecord);
  }
  if (parsed.kind !== 'urlset') throw new Error(`${loc} parsed as ${parsed.kind}`);
}

function read(entry: ParsedRecord): void {
  urls++;
  touched += entry.loc.length + len(entry.lastmod);
  touched += len(entry.changefreq) + len(entry.priority);
  images += entry.images?.length ?? 0;
  alternates += entry.alternates?.length ?? 0;
  for (const image of entry.images ?? []) touched += image.loc.length + len(image.title) + len(image.caption) + len(image.geo_location) + len(image.license);
  for (const link of entry.alternates ?? []) touched += link.href.length + link.hreflang.length;
  for (const video of entry.videos ?? []) touched += video.thumbnail_loc.length + video.title.length + video.description.length + len(video.content_loc) + len(video.player_loc);
  if (entry.news !== undefined) touched += entry.news.title.length + entry.news.publication.name.length;
}
if (errors > 0) throw new Error(`${errors} error diagnostics`);
if (mode !== 'validate' && !(touched > 0)) throw new Error('no fields read');
if (mode !== 'validate' && (images !== meta.images || alternates !== meta.alternates)) {
  throw new Error(`read ${images} images and ${alternates} alternates, the fixture has ${meta.images} and ${meta.alternates}`);
}
report(mode === 'validate' ? 'sitemapkit validate' : inBatches ? 'sitemapkit, batches()' : 'sitemapkit', urls, started);

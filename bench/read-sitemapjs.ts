/**
 * sitemap.js (npm `sitemap`) reading the fixture: `parseSitemapIndex` for the index, then each child
 * through gunzip into `XMLToSitemapItemStream` (its streaming parser; `parseSitemap` is the same
 * stream collected into an array). Default options: warnings on, as a user would run it. The run
 * fails if the parser reports any error or misses an image or alternate, so a fast wrong parse
 * cannot pass. Every item's fields are read, as in the sitemapkit runner.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { parseSitemapIndex, XMLToSitemapItemStream, type SitemapItem } from 'sitemap';
import { fixtureDir, GUNZIP_CHUNK, localPath, readFixtureMeta } from './read-common.ts';
import { report } from './records.ts';

const dir = fixtureDir();
const meta = readFixtureMeta(dir);
const indexPath = join(dir, meta.index);

const started = process.hrtime.bigint();
let urls = 0;
let images = 0;
let alternates = 0;
/** A sum over every field, so no extraction is dead code. */
let touched = 0;
const children = await parseSitemapIndex(createReadStream(indexPath).pipe(createGunzip({ chunkSize: GUNZIP_CHUNK })));
for (const child of children) {
  const parser = new XMLToSitemapItemStream();
  await pipeline(
    createReadStream(localPath(dir, child.url)),
    createGunzip({ chunkSize: GUNZIP_CHUNK }),
    parser,
    new Writable({
      objectMode: true,
      write(item: SitemapItem, _encoding, callback) {
        urls++;
        touched += item.url.length + (item.lastmod?.length ?? 0) + (item.changefreq?.length ?? 0) + (item.priority ?? 0);
        images += item.img.length;
        alternates += item.links.length;
        touched += item.video.length + (item.news === undefined ? 0 : 1);
        for (const image of item.img) touched += image.url.length;
        for (const link of item.links) touched += link.url.length + link.lang.length;
        callback();
      },
    }),
  );
  if (parser.errorCount > 0) throw new Error(`sitemap.js: ${parser.errorCount} errors in ${child.url}: ${parser.errors[0]?.message}`);
}
if (!(touched > 0)) throw new Error('no fields read');
if (images !== meta.images || alternates !== meta.alternates) {
  throw new Error(`read ${images} images and ${alternates} alternates, the fixture has ${meta.images} and ${meta.alternates}`);
}
report('sitemap.js', urls, started);

/**
 * The reader benchmark's input: a gzipped sitemap index over 1,000,000 URLs in 20 files of 50,000,
 * written by sitemapkit's own writer. Deterministic, built once and cached in
 * `os.tmpdir()/sitemapkit-bench-read-<FIXTURE_VERSION>[-<urls>]`; a folder without `fixture.json`
 * (an interrupted build) or whose files changed size is rebuilt.
 *
 * Records carry loc (with an `&amp;`), lastmod, changefreq and priority; every 10th has an image
 * and every 50th an hreflang alternate pair, so extension parsing is part of the work; the writer
 * reports no diagnostic on them. Run directly (`node bench/read-fixture.ts [urls]`) it prints the folder.
 */
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSitemaps, type SitemapRecordInput } from '../src/index.ts';
import { readFixtureMeta, type FixtureMeta } from './read-common.ts';

/** Bump when the records or the layout change, so a stale cache is never reused. */
export const FIXTURE_VERSION = 3;
export const FIXTURE_URLS = 1_000_000;
export const FIXTURE_FILES = 20;
/** The public URL the files are written for: index child locs are `${BASE_URL}sitemap-N.xml.gz`. */
export const BASE_URL = 'https://www.example.com/';

export interface Fixture extends FixtureMeta {
  dir: string;
}

export function* fixtureRecords(count: number): Generator<SitemapRecordInput> {
  for (let i = 0; i < count; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const path = `products/category-${i % 97}/item-${i}`;
    const loc = `${BASE_URL}${path}?color=blue&size=m`;
    const record: SitemapRecordInput = {
      loc,
      lastmod: `2024-05-${day}T10:${String(i % 60).padStart(2, '0')}:00+00:00`,
      changefreq: i % 2 === 0 ? 'daily' : 'weekly',
      priority: (i % 10) / 10,
    };
    if (i % 10 === 3) record.images = [{ loc: `https://img.example.com/${path}/main.jpg` }];
    // An hreflang set lists the page itself too (R38).
    if (i % 50 === 7) record.alternates = [{ hreflang: 'en', href: loc }, { hreflang: 'de-DE', href: `${BASE_URL}de/${path}?color=blue&size=m` }];
    yield record;
  }
}

/** The cached fixture for `urls` URLs, built first if missing or incomplete. */
export async function ensureFixture(urls = FIXTURE_URLS): Promise<Fixture> {
  const dir = join(tmpdir(), `sitemapkit-bench-read-${FIXTURE_VERSION}${urls === FIXTURE_URLS ? '' : `-${urls}`}`);
  const cached = await readComplete(dir, urls);
  if (cached !== undefined) return cached;

  // Build beside the final folder and move it into place, so a killed build is never mistaken for a cache.
  const building = `${dir}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  // 20 files at any size (50,000 URLs each at the default size, the protocol's limit).
  const maxUrlsPerFile = Math.ceil(urls / FIXTURE_FILES);
  const summary = await writeSitemaps(fixtureRecords(urls), { outDir: building, baseUrl: BASE_URL, gzip: true, gzipIndex: true, maxUrlsPerFile });
  if (summary.urls !== urls || summary.diagnostics.length > 0) {
    throw new Error(`fixture: wrote ${summary.urls} of ${urls} URLs with ${summary.diagnostics.length} diagnostics`);
  }
  const files = await Promise.all(summary.files.map(async (f) => ({ name: f.name, bytes: (await stat(join(building, f.name))).size })));
  const index = summary.files.find((f) => f.kind === 'index')?.name ?? summary.files[0]?.name;
  if (index === undefined) throw new Error('fixture: the writer produced no files');
  let images = 0;
  let alternates = 0;
  for (const record of fixtureRecords(urls)) {
    images += record.images?.length ?? 0;
    alternates += record.alternates?.length ?? 0;
  }
  const meta: FixtureMeta = { version: FIXTURE_VERSION, urls, images, alternates, index, files };
  await writeFile(join(building, 'fixture.json'), JSON.stringify(meta));
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
  return { dir, ...meta };
}

async function readComplete(dir: string, urls: number): Promise<Fixture | undefined> {
  try {
    const meta = readFixtureMeta(dir);
    if (meta.version !== FIXTURE_VERSION || meta.urls !== urls) return undefined;
    for (const f of meta.files) if ((await stat(join(dir, f.name))).size !== f.bytes) return undefined;
    return { dir, ...meta };
  } catch {
    return undefined;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fixture = await ensureFixture(Number(process.argv[2] ?? FIXTURE_URLS));
  const bytes = fixture.files.reduce((sum, f) => sum + f.bytes, 0);
  console.log(`${fixture.dir}: ${fixture.files.length} files, ${fixture.urls.toLocaleString('en-US')} URLs, ${(bytes / 2 ** 20).toFixed(1)} MiB gzipped (index ${fixture.index})`);
}

/**
 * What the reader benchmark's runners share; imports nothing from src/, so a runner's time and
 * peak RSS are its parser's own. Each runner is `node bench/read-<tool>.ts <fixture dir>`: it
 * parses the index, then every child it lists, in order, and prints one `report()` line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * zlib's output chunk for the runners that gunzip in front of their parser. The default (16 KiB)
 * costs the bare gunzip pass 2× here (one thread-pool round trip per chunk); 64 KiB, the size of
 * a file stream's chunks, gives the peers the better setting without the RSS of larger ones.
 */
export const GUNZIP_CHUNK = 64 * 1024;

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface FixtureMeta {
  version: number;
  urls: number;
  /** `<image:image>` and `<xhtml:link>` elements in all, for the runners that extract them to check. */
  images: number;
  alternates: number;
  /** The entry point (the index), a file name inside the fixture folder. */
  index: string;
  /** Every file with its size, index included. */
  files: { name: string; bytes: number }[];
}

export function readFixtureMeta(dir: string): FixtureMeta {
  return JSON.parse(readFileSync(join(dir, 'fixture.json'), 'utf8')) as FixtureMeta;
}

/** The fixture folder a runner was given. */
export function fixtureDir(): string {
  const dir = process.argv[2];
  if (dir === undefined) throw new Error('usage: node bench/read-<tool>.ts <fixture dir> (npm run bench:read builds it)');
  return dir;
}

/** Maps an index child's URL (`https://www.example.com/sitemap-3.xml.gz`) to its file in the fixture. */
export function localPath(dir: string, loc: string): string {
  const name = loc.slice(loc.lastIndexOf('/') + 1);
  if (name === '' || name.startsWith('.') || name.includes('\\')) throw new Error(`unexpected child URL ${loc}`);
  return join(dir, name);
}

/**
 * One run of the state benchmark in its own process (so peak RSS is its own):
 *   state-run.ts stateless <n> <dir>   the stateless writer, for the ratio
 *   state-run.ts fresh <n> <dir>       n records into a fresh state
 *   state-run.ts unchanged <n> <dir>   the same n records again: no file may be written
 *   state-run.ts churn <n> <dir>       10 changed, 1,000 added, 1,000 removed: only the files those touch
 * Prints its Run as the last line, with the files written and their bound for the last two.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type * as sitemapkit from '../src/index.ts';
import { PACKAGE } from './records.ts';

const { writeSitemaps } = (await import(PACKAGE)) as typeof sitemapkit;
const [mode = 'fresh', countText = '1000000', dir = '.'] = process.argv.slice(2);
const count = Number(countText);
const outDir = join(dir, 'out');
const statePath = join(dir, 'state.db');
const CHANGED = 10;
const ADDED = 1_000;
const REMOVED = 1_000;
/** Changed and removed URLs spread over the set; added ones come after it. */
const changedAt = (i: number): boolean => mode === 'churn' && i % Math.floor(count / CHANGED) === 7;
const removedAt = (i: number): boolean => mode === 'churn' && i % Math.floor(count / REMOVED) === 3;

interface Page {
  loc: string;
  changefreq: 'daily' | 'weekly';
  priority: number;
}

function* pages(): Generator<Page> {
  const total = mode === 'churn' ? count + ADDED : count;
  for (let i = 0; i < total; i++) {
    if (i < count && removedAt(i)) continue;
    yield { loc: `https://www.example.com/products/category-${i % 97}/item-${i}?color=blue&size=m`, changefreq: i % 2 === 0 ? 'daily' : 'weekly', priority: changedAt(i) ? 0.95 : (i % 10) / 10 };
  }
}

async function mtimes(): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (const name of await readdir(outDir).catch(() => [])) if (!name.startsWith('.')) seen.set(name, (await stat(join(outDir, name))).mtimeMs);
  return seen;
}

/** The files a churn run may write: those holding a changed or removed URL, plus ⌈added / 50,000⌉ + 1 for the added ones. */
function churnBound(): number {
  const wanted = new Set<string>();
  for (let i = 0; i < count; i++) if (changedAt(i) || removedAt(i)) wanted.add(`https://www.example.com/products/category-${i % 97}/item-${i}?color=blue&size=m`);
  const db = new DatabaseSync(statePath, { readOnly: true });
  const touched = new Set<number>();
  // One pass over the rows, streamed: the bound costs no memory in the process whose peak RSS is measured.
  for (const row of db.prepare('SELECT url, slot FROM urls WHERE slot IS NOT NULL').iterate() as Iterable<{ url: string; slot: number }>) {
    if (wanted.has(row.url)) touched.add(row.slot);
  }
  db.close();
  return touched.size + Math.ceil(ADDED / 50_000) + 1;
}

const bound = mode === 'churn' ? churnBound() : mode === 'unchanged' ? 0 : undefined;
const before = await mtimes();
const started = process.hrtime.bigint();
const summary = await writeSitemaps(pages(), { outDir, baseUrl: 'https://www.example.com/', gzip: true, ...(mode === 'stateless' ? {} : { state: statePath }) });
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const after = await mtimes();
// Written: a child that is new, or whose mtime moved (the index is not counted).
let written = 0;
for (const [name, mtime] of after) if (name !== 'sitemap.xml' && before.get(name) !== mtime) written++;
const maxRssMiB = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ tool: `sitemapkit ${mode}`, urls: summary.records, seconds, maxRssMiB, written, bound, indexWritten: before.get('sitemap.xml') !== after.get('sitemap.xml'), state: summary.state }));

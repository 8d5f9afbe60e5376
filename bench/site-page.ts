/**
 * Per-page costs of `build --dir`, in CPU µs a page, over the bench site's pages (bench/site-fixture.ts):
 * the whole judge (read, the fingerprint's pass with the head's facts, hash), and the fingerprint's content and hash apart.
 * `node bench/site-page.ts [pages] [rounds]`; under cachegrind, `SITE_PAGE_ONLY=judge|content` runs one loop
 * (`none`: no loop, the start-up to subtract).
 * Not part of `npm run bench`: a tool for finding where a page's time goes (bench/NOTES.md).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentOf } from '../src/html/fingerprint.ts';
import { makeJudge } from '../src/sources/site-judge.ts';
import { siteFixture } from './site-fixture.ts';

const PAGES = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 3);
const ONLY = process.env['SITE_PAGE_ONLY'];
const BASE = 'https://docs.example.com/';
const root = await siteFixture(5_000, BASE);
const paths = Array.from({ length: PAGES }, (_, i) => (i === 0 ? 'index.html' : `section-${Math.floor(i / 100)}/page-${i % 100}/index.html`));
const texts = paths.map((p) => readFileSync(join(root, p), 'utf8'));

function cpuMicros(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / PAGES;
}

const judge = await makeJudge({ root, baseUrl: BASE, cleanUrls: true });
let sink = 0;
const loops: Record<string, () => void> = {
  judge: () => {
    for (const p of paths) sink += judge(p).path.length;
  },
  read: () => {
    for (const p of paths) sink += readFileSync(join(root, p)).length;
  },
  content: () => {
    for (const t of texts) sink += contentOf(t).length;
  },
  sha1: () => {
    for (const t of texts) sink += createHash('sha1').update(t).digest('hex').length;
  },
};
const names = ONLY === undefined ? Object.keys(loops) : ONLY === 'none' ? [] : [ONLY];
const best: Record<string, number> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const name of names) {
    const micros = cpuMicros(loops[name] as () => void);
    best[name] = Math.min(best[name] ?? Infinity, micros);
  }
}
console.log(`${PAGES} pages, best of ${ROUNDS} rounds, CPU µs a page: ${names.map((n) => `${n} ${(best[n] ?? 0).toFixed(1)}`).join(', ')} (${sink > 0 ? 'ok' : ''})`);

/**
 * `npm run bench:memory` (and the last part of `npm run bench`): peak RSS of the compiled CLI
 * (`dist/bin.js`, as users run it) on inputs that used to take far more than a small server has,
 * judged against 250 MB for parse and validate and against the documented bound for `--xsd`. The
 * inputs are built once and cached in `os.tmpdir()/sitemapkit-bench-memory-<MEMORY_FIXTURE_VERSION>`.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { check, NODE_FLAGS } from './measure.ts';

/** Bump when an input changes, so a stale cache is never reused. */
const MEMORY_FIXTURE_VERSION = 2;
const MB = 1_000_000;
const TARGET_MB = 250;
/** README, "validate --xsd": a file of up to 50 MiB is schema-checked within this. */
const XSD_TARGET_MB = 350;
const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n';

/** Writes what `pieces` yields to `path` (gzipped if asked), through a temporary name so that an interrupted build is never taken for the input. */
async function build(path: string, gzip: boolean, pieces: () => Generator<string>): Promise<void> {
  if (existsSync(path)) return;
  const file = createWriteStream(`${path}.building`);
  const out = gzip ? createGzip() : file;
  if (gzip) out.pipe(file);
  let buffer = '';
  for (const piece of pieces()) {
    buffer += piece;
    if (buffer.length >= 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(file, 'close');
  renameSync(`${path}.building`, path);
}

const dir = join(tmpdir(), `sitemapkit-bench-memory-${MEMORY_FIXTURE_VERSION}`);
mkdirSync(dir, { recursive: true });
const file = (name: string): string => join(dir, name);
// 700 MiB of one valid <url> again and again, gzipped (2 MB): past every cap.
await build(file('bomb.xml.gz'), true, function* () {
  yield HEAD;
  const entry = '<url><loc>https://www.example.com/same/page</loc></url>\n';
  for (let n = 0; n < 700 * 2 ** 20; n += entry.length) yield entry;
});
// 700 MiB of spaces, gzipped: text with no content at all.
await build(file('blank.gz'), true, function* () {
  const blank = ' '.repeat(1 << 20);
  for (let i = 0; i < 700; i++) yield blank;
});
// One run of 100 MiB inside <urlset>, gzipped (about 100 KB each): a text in a <loc>, a comment, a CDATA section, whitespace.
for (const [name, open, fill] of [
  ['long-text.xml.gz', '<url><loc>https://www.example.com/', 'a'],
  ['long-comment.xml.gz', '<!-- ', 'a'],
  ['long-cdata.xml.gz', '<url><loc><![CDATA[https://www.example.com/', 'a'],
  ['long-space.xml.gz', '', ' '],
] as const) {
  await build(file(name), true, function* () {
    yield `${HEAD}<url><loc>https://www.example.com/</loc></url>\n${open}`;
    const block = fill.repeat(1 << 20);
    for (let i = 0; i < 100; i++) yield block;
  });
}
// 2,000,000 distinct URLs, ~98 MiB.
await build(file('distinct.xml'), false, function* () {
  yield HEAD;
  for (let i = 0; i < 2_000_000; i++) yield `<url><loc>https://example.com/p/${i}</loc></url>\n`;
  yield '</urlset>\n';
});
// 4,700,000 lines of one URL, a text list of ~94 MiB.
await build(file('repeated.txt'), false, function* () {
  for (let i = 0; i < 4_700_000; i++) yield 'https://e.com/a/page\n';
});
// A valid sitemap of ~47 MiB: 50,000 URLs with six images each.
await build(file('valid.xml'), false, function* () {
  yield HEAD;
  for (let i = 0; i < 50_000; i++) {
    let entry = `<url><loc>https://www.example.com/products/category-${i % 97}/item-${i}?color=blue&amp;size=m</loc><lastmod>2024-05-01T10:00:00+00:00</lastmod><changefreq>daily</changefreq><priority>0.5</priority>`;
    for (let k = 0; k < 6; k++) entry += `<image:image><image:loc>https://img.example.com/products/category-${i % 97}/item-${i}/picture-${k}-large-format.jpg</image:loc></image:image>`;
    yield `${entry}</url>\n`;
  }
  yield '</urlset>\n';
});

/** Peak RSS in MB (10^6 bytes) of one CLI run, from GNU time; the exit code must be one the command may give (0 or 1). */
function peak(args: readonly string[]): { mb: number; seconds: number } {
  const started = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...NODE_FLAGS, BIN, ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * MB });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0 && run.status !== 1) throw new Error(`sitemapkit ${args.join(' ')} exited ${run.status}: ${run.stderr.slice(-500)}`);
  const kib = Number(run.stderr.trim().split('\n').pop());
  return { mb: (kib * 1024) / MB, seconds };
}

if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time (GNU time) is needed to measure peak RSS');
console.log(`\nMemory benchmark (node ${process.version}, compiled CLI, flags ${NODE_FLAGS.join(' ')}; peak RSS by GNU time; inputs in ${dir})`);
const rows: Array<[string, string[], number]> = [
  ['parse, gzip bomb (700 MiB of <url>)', ['parse', 'bomb.xml.gz'], TARGET_MB],
  ['parse, gzip bomb (700 MiB of spaces)', ['parse', 'blank.gz'], TARGET_MB],
  ['parse --max-bytes 524288000, <url> bomb', ['parse', '--max-bytes', '524288000', 'bomb.xml.gz'], TARGET_MB],
  ['parse --max-bytes 524288000, spaces bomb', ['parse', '--max-bytes', '524288000', 'blank.gz'], TARGET_MB],
  ['parse, 100 MiB text in a <loc> (gzip)', ['parse', 'long-text.xml.gz'], TARGET_MB],
  ['parse, 100 MiB comment (gzip)', ['parse', 'long-comment.xml.gz'], TARGET_MB],
  ['parse, 100 MiB CDATA section (gzip)', ['parse', 'long-cdata.xml.gz'], TARGET_MB],
  ['parse, 100 MiB whitespace in <urlset> (gzip)', ['parse', 'long-space.xml.gz'], TARGET_MB],
  ['validate, 2M distinct URLs (98 MiB)', ['validate', 'distinct.xml'], TARGET_MB],
  ['validate, 4.7M repeated text lines', ['validate', 'repeated.txt'], TARGET_MB],
  ['validate --xsd, valid 47 MiB sitemap', ['validate', '--xsd', 'valid.xml'], XSD_TARGET_MB],
  ['validate --xsd, gzip bomb', ['validate', '--xsd', 'bomb.xml.gz'], XSD_TARGET_MB],
];
let missed = false;
for (const [name, args, target] of rows) {
  const { mb, seconds } = peak(args);
  console.log(`${name.padEnd(44)} peak RSS ${mb.toFixed(0).padStart(5)} MB  ${seconds.toFixed(1).padStart(5)} s`);
  check(mb <= target, `≤ ${target} MB`);
  missed ||= mb > target;
}
if (missed) process.exitCode = 1;

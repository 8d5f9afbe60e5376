import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('kill');
const BIN = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
const HOOKS = fileURLToPath(new URL('../helpers/fs-hooks.ts', import.meta.url));
const BUILD = ['build', '-i', 'new.jsonl', '-o', 'out', '--base-url', 'https://example.com/', '--max-urls', '10', '--no-progress'];

type Snapshot = Map<string, Buffer>;

/** A product feed as a shop exports it: 10 records a file at `--max-urls 10`. */
const product = (id: string, lastmod: string): string => `${JSON.stringify({ loc: `https://example.com/products/${id}`, lastmod, changefreq: 'weekly', priority: 0.6 })}\n`;
const range = (from: number, to: number, id: (i: number) => string, lastmod: string): string => Array.from({ length: to - from }, (_, k) => product(id(from + k), lastmod)).join('');
// Old: three files. New: the first file's records changed (a new lastmod), the second's not, the third's replaced, a fourth file added.
const OLD = range(0, 10, (i) => `shoe-${i}`, '2026-10-01') + range(10, 20, (i) => `bag-${i}`, '2026-10-01') + range(20, 30, (i) => `hat-${i}`, '2026-10-01');
const NEW = range(0, 10, (i) => `shoe-${i}`, '2026-11-20') + range(10, 20, (i) => `bag-${i}`, '2026-10-01') + range(20, 30, (i) => `coat-${i}`, '2026-11-20') + range(30, 35, (i) => `scarf-${i}`, '2026-11-20');

async function snapshot(dir: string): Promise<Snapshot> {
  const files: Snapshot = new Map();
  for (const name of (await readdir(dir)).sort()) files.set(name, await readFile(join(dir, name)));
  return files;
}

const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '');
const urlsOf = (jsonl: string): string[] => jsonl.trim().split('\n').map((line) => (JSON.parse(line) as { loc: string }).loc);

/**
 * What a crawler reading the folder now gets: the index must be the old or the new one, and each child
 * it lists the exact file it was written for, so it reaches every URL of that set and no other.
 */
async function assertConsistent(out: string, old: Snapshot, next: Snapshot, label: string): Promise<void> {
  const index = await readFile(join(out, 'sitemap.xml'));
  const version = index.equals(old.get('sitemap.xml') ?? Buffer.alloc(0)) ? old : index.equals(next.get('sitemap.xml') ?? Buffer.alloc(0)) ? next : undefined;
  assert.ok(version !== undefined, `${label}: sitemap.xml is neither the old index nor the new one`);
  const urls: string[] = [];
  for (const child of locs(index.toString())) {
    const name = child.replace('https://example.com/', '');
    const bytes = await readFile(join(out, name)).catch(() => Buffer.alloc(0));
    assert.ok(bytes.equals(version.get(name) ?? Buffer.alloc(0)), `${label}: ${name}, listed by the ${version === old ? 'old' : 'new'} index, is not the file it was written for`);
    urls.push(...locs(bytes.toString()));
  }
  assert.deepEqual(urls, urlsOf(version === old ? OLD : NEW), label);
}

/** Runs `build` in a child process with the file system hooks; resolves with its exit code or signal. */
function runChild(cwd: string, env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', HOOKS, BIN, ...BUILD], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
}

/** A fresh copy of the published old set, with both inputs beside it. */
async function oldSite(template: string): Promise<string> {
  const cwd = await tempDir();
  await cp(template, cwd, { recursive: true });
  return cwd;
}

/** xorshift32: the random kill points are the same on every run of the test, and a failure names its seed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

test('a build killed (SIGKILL) at any point leaves a consistent published set: the old or the new index, each listed file the one it was written for; the next run publishes the new set', { timeout: 600_000 }, async () => {
  const template = await tempDir();
  await writeFile(join(template, 'old.jsonl'), OLD);
  await writeFile(join(template, 'new.jsonl'), NEW);
  const first = await runCli([...BUILD.slice(0, 2), 'old.jsonl', ...BUILD.slice(3)], { cwd: template });
  assert.equal(first.code, 0, first.stderr);
  const old = await snapshot(join(template, 'out'));
  assert.deepEqual([...old.keys()], ['.sitemapkit-sitemap.json', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);

  // The run uninterrupted, counting its file system calls.
  const reference = await oldSite(template);
  const counted = join(reference, 'count.json');
  const whole = await runChild(reference, { SITEMAPKIT_TEST_COUNT_FS: counted });
  assert.equal(whole.code, 0, whole.stderr);
  const next = await snapshot(join(reference, 'out'));
  const { fs: calls, rename: renames } = JSON.parse(await readFile(counted, 'utf8')) as { fs: number; rename: number };
  // Changed files take their other name, the unchanged sitemap-2.xml stays, the added one is new: none the old index lists is replaced.
  assert.deepEqual([...next.keys()], ['.sitemapkit-sitemap.json', 'sitemap-1b.xml', 'sitemap-2.xml', 'sitemap-3b.xml', 'sitemap-4.xml', 'sitemap.xml']);
  assert.deepEqual(next.get('sitemap-2.xml'), old.get('sitemap-2.xml'));
  await assertConsistent(join(reference, 'out'), old, next, 'uninterrupted');

  const killAt = async (env: Record<string, string>, label: string): Promise<void> => {
    const cwd = await oldSite(template);
    const out = join(cwd, 'out');
    const killed = await runChild(cwd, env);
    assert.ok(killed.signal === 'SIGKILL' || killed.code === 0, `${label}: ${killed.code} ${killed.signal} ${killed.stderr}`);
    await assertConsistent(out, old, next, label);
    // The next run recovers what the killed one left and publishes the same set as an uninterrupted run.
    const after = await runCli(BUILD, { cwd });
    assert.equal(after.code, 0, `${label}: ${after.stderr}`);
    assert.deepEqual(await snapshot(out), next, `${label}: the run after`);
  };
  for (let n = 1; n <= renames; n++) await killAt({ SITEMAPKIT_TEST_KILL_AT_RENAME: String(n) }, `killed at rename ${n} of ${renames}`);
  const seed = 20261128;
  const next01 = random(seed);
  for (let i = 0; i < 30; i++) {
    const k = 1 + Math.floor(next01() * calls);
    await killAt({ SITEMAPKIT_TEST_KILL_AT_FS: String(k) }, `killed at file system call ${k} of ${calls} (seed ${seed}, draw ${i})`);
  }
});

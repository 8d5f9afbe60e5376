import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('state-kill');
const BIN = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
const HOOKS = fileURLToPath(new URL('../helpers/fs-hooks.ts', import.meta.url));
const CLOCK = fileURLToPath(new URL('../helpers/fixed-clock.ts', import.meta.url));
const BASE = 'https://example.com/';
const BUILD = ['build', '-i', 'in.jsonl', '-o', 'out', '--base-url', BASE, '--state', 'state.db', '--max-urls', '10', '--no-progress'];
const T1 = Date.parse('2026-11-20T08:00:00Z');
const T2 = Date.parse('2026-11-28T10:15:42Z');
const T3 = Date.parse('2026-11-29T09:00:00Z');

const record = (id: number, version = 1): string => `${JSON.stringify({ loc: `${BASE}p/${id}`, priority: version === 1 ? 0.5 : 0.8 })}\n`;
const ids = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, k) => from + k);
// Run 1: 35 URLs in 4 files. Run 2: p/3 and p/14 edited, p/21 and p/22 gone, p/35–p/41 new.
const OLD = ids(0, 35).map((id) => record(id)).join('');
const NEW = [...ids(0, 21), ...ids(23, 42)].map((id) => record(id, id === 3 || id === 14 ? 2 : 1)).join('');

/** The published files by name (hidden ones aside), as bytes. */
async function published(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await readdir(dir)).sort()) if (!name.startsWith('.')) files.set(name, await readFile(join(dir, name), 'utf8'));
  return files;
}

function runChild(cwd: string, env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', HOOKS, '--import', CLOCK, BIN, ...BUILD], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
}

/** The files and the change feed since run 2's time, which are the same whether run 2 was published by the killed run or by the run after it. */
async function outcome(cwd: string): Promise<{ files: Map<string, string>; since: unknown; urls: string[] }> {
  const since = await runCli(['changes', '--state', 'state.db', '--json', '--since', '2026-11-28T10:15:42Z'], { cwd });
  assert.equal(since.code, 0, since.stderr);
  const files = await published(join(cwd, 'out'));
  const urls = [...files.entries()].filter(([name]) => name !== 'sitemap.xml').flatMap(([, xml]) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? ''));
  return { files, since: JSON.parse(since.stdout), urls };
}

test('a build with --state killed (SIGKILL) at any file system call leaves state and files consistent: the next run gives exactly what an uninterrupted run gives', { timeout: 900_000 }, async () => {
  const template = await tempDir();
  await writeFile(join(template, 'in.jsonl'), OLD);
  assert.equal((await runCli(BUILD, { cwd: template, now: T1 })).code, 0);
  await writeFile(join(template, 'in.jsonl'), NEW);

  // The reference: run 2 uninterrupted, then run 3 (nothing changed) at T3.
  const reference = await tempDir();
  await cp(template, reference, { recursive: true });
  const counts = join(reference, 'counts.json');
  const clean = await runChild(reference, { SITEMAPKIT_TEST_NOW: String(T2), SITEMAPKIT_TEST_COUNT_FS: counts });
  assert.equal(clean.code, 0, clean.stderr);
  const { fs: calls } = JSON.parse(await readFile(counts, 'utf8')) as { fs: number };
  assert.equal((await runCli(BUILD, { cwd: reference, now: T3 })).code, 0);
  const expected = await outcome(reference);
  assert.equal(expected.urls.length, 40);
  assert.deepEqual(expected.since, {
    added: ids(35, 42).map((id) => ({ url: `${BASE}p/${id}`, time: '2026-11-28T10:15:42+00:00' })),
    changed: [14, 3].map((id) => ({ url: `${BASE}p/${id}`, time: '2026-11-28T10:15:42+00:00' })),
    removed: [21, 22].map((id) => ({ url: `${BASE}p/${id}`, time: '2026-11-28T10:15:42+00:00' })),
  });

  // Every call of a run that makes a few dozen: a kill before it, then a run at T2 again (as a retry would), then run 3.
  let killed = 0;
  const recovered = { kept: 0, undone: 0 };
  for (let at = 1; at <= calls; at++) {
    const cwd = await tempDir();
    await cp(template, cwd, { recursive: true });
    const child = await runChild(cwd, { SITEMAPKIT_TEST_NOW: String(T2), SITEMAPKIT_TEST_KILL_AT_FS: String(at) });
    assert.equal(child.signal, 'SIGKILL', `kill at call ${at}: ${child.stderr}`);
    killed++;
    const retry = await runCli(BUILD, { cwd, now: T2 });
    assert.equal(retry.code, 0, `after a kill at call ${at}: ${retry.stderr}`);
    if (retry.stdout.includes('found published and kept')) recovered.kept++;
    if (retry.stdout.includes('found unpublished and undone')) recovered.undone++;
    assert.equal((await runCli(BUILD, { cwd, now: T3 })).code, 0);
    const got = await outcome(cwd);
    assert.deepEqual(got.since, expected.since, `kill at call ${at}: the change feed`);
    assert.deepEqual(got.files, expected.files, `kill at call ${at}: the published files`);
  }
  assert.ok(killed >= 20, `only ${killed} kill points`);
  // Kills fell between the state's commit and the manifest (undone) and after the manifest (kept), not only before the commit.
  assert.ok(recovered.kept > 0 && recovered.undone > 0, `runs settled: ${JSON.stringify(recovered)} of ${killed}`);
});

test('a first run with a fresh state killed at any file system call leaves no half state: the retry and the run after it give what uninterrupted runs give', { timeout: 900_000 }, async () => {
  const template = await tempDir();
  await writeFile(join(template, 'in.jsonl'), OLD);
  const then = async (cwd: string): Promise<Awaited<ReturnType<typeof outcome>>> => {
    await writeFile(join(cwd, 'in.jsonl'), NEW);
    const next = await runCli(BUILD, { cwd, now: T2 });
    assert.equal(next.code, 0, next.stderr);
    return outcome(cwd);
  };
  const reference = await tempDir();
  await cp(template, reference, { recursive: true });
  const counts = join(reference, 'counts.json');
  assert.equal((await runChild(reference, { SITEMAPKIT_TEST_NOW: String(T1), SITEMAPKIT_TEST_COUNT_FS: counts })).code, 0);
  const { fs: calls } = JSON.parse(await readFile(counts, 'utf8')) as { fs: number };
  const expected = await then(reference);
  assert.equal(expected.urls.length, 40);
  let killed = 0;
  for (let at = 1; at <= calls; at++) {
    const cwd = await tempDir();
    await cp(template, cwd, { recursive: true });
    const child = await runChild(cwd, { SITEMAPKIT_TEST_NOW: String(T1), SITEMAPKIT_TEST_KILL_AT_FS: String(at) });
    assert.equal(child.signal, 'SIGKILL', `kill at call ${at}: ${child.stderr}`);
    killed++;
    const retry = await runCli(BUILD, { cwd, now: T1 });
    assert.equal(retry.code, 0, `after a kill at call ${at}: ${retry.stderr}`);
    const got = await then(cwd);
    assert.deepEqual(got.since, expected.since, `kill at call ${at}: the change feed`);
    assert.deepEqual(got.files, expected.files, `kill at call ${at}: the published files`);
  }
  assert.ok(killed >= 15, `only ${killed} kill points`);
});

test('two runs on one state at once: the second is refused, naming the first (process, host, start time); the first completes', { timeout: 120_000 }, async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'in.jsonl'), OLD);
  // The first run stops at its first file system call in the output folder: it holds the state by then.
  const child = spawn(process.execPath, ['--import', HOOKS, '--import', CLOCK, BIN, ...BUILD], {
    cwd,
    env: { ...process.env, SITEMAPKIT_TEST_NOW: String(T1), SITEMAPKIT_TEST_GATE: join(cwd, 'out') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve) =>
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('ready')) resolve();
    }),
  );
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const second = await runCli(BUILD, { cwd, now: T2 });
  assert.equal(second.code, 1);
  assert.equal(second.stderr, `sitemapkit: state "${join(cwd, 'state.db')}" is in use by another run (process ${child.pid} on ${hostname()}, started 2026-11-20T08:00:00+00:00); runs on one state go one at a time\n`);
  child.kill('SIGUSR2');
  assert.equal(await closed, 0, stderr);
  const after = await runCli(BUILD, { cwd, now: T2 });
  assert.equal(after.code, 0, after.stderr);
  assert.match(after.stdout, /State run 2: 0 added, 0 changed, 0 removed, 35 unchanged/);
});

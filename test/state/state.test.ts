import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { writeSourceItems } from '../../src/publish/write-sitemaps.ts';
import { openSqliteState, SCHEMA_VERSION } from '../../src/state/sqlite.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('state');
const T1 = Date.parse('2026-11-20T08:00:00Z');
const T2 = Date.parse('2026-11-28T10:15:42Z');
const T3 = Date.parse('2026-11-29T09:00:00Z');
const BASE = 'https://shop.example.com/';

/** A product page: its image is its content; an edit gives it a new photo. */
const page = (id: number, photo: string): string => `${JSON.stringify({ loc: `${BASE}p/${id}`, changefreq: 'weekly', images: [{ loc: `${BASE}img/${photo}.jpg` }] })}\n`;
const feed = (ids: readonly number[], edit?: number): string => ids.map((id) => page(id, id === edit ? `${id}-new` : String(id))).join('');
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, k) => from + k);
const BUILD = ['build', '-i', 'in.jsonl', '-o', 'out', '-b', BASE, '--state', 'state.db', '--max-urls', '10', '--no-progress'];

interface Seen {
  bytes: Buffer;
  mtimeMs: number;
}

async function listing(dir: string): Promise<Map<string, Seen>> {
  const files = new Map<string, Seen>();
  for (const name of (await readdir(dir)).sort()) {
    if (name.startsWith('.')) continue;
    files.set(name, { bytes: await readFile(join(dir, name)), mtimeMs: (await stat(join(dir, name))).mtimeMs });
  }
  return files;
}

const lastmodOf = (xml: string, url: string): string | undefined => new RegExp(`<loc>${url.replaceAll('.', '\\.')}</loc><lastmod>([^<]+)</lastmod>`).exec(xml)?.[1];

async function allXml(dir: string): Promise<string> {
  let text = '';
  for (const [name, { bytes }] of await listing(dir)) if (name !== 'sitemap.xml') text += bytes.toString();
  return text;
}

test('two runs: only the edited and the added URL get a lastmod (the second run\'s time), only the files holding a change are written, and changes lists them', async () => {
  const cwd = await tempDir();
  const out = join(cwd, 'out');
  await writeFile(join(cwd, 'in.jsonl'), feed(range(0, 35)));
  const first = await runCli(BUILD, { cwd, now: T1 });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /State run 1: 35 added, 0 changed, 0 removed, 0 unchanged; 4 sitemap files written, 0 kept as published/);
  const before = await listing(out);
  assert.deepEqual([...before.keys()], ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap-4.xml', 'sitemap.xml']);
  // The state began with this run: no URL gets a state lastmod.
  assert.doesNotMatch(await allXml(out), /<lastmod>/);

  // Edit p/12 (file 2), remove p/25 (file 3), add p/35 (into file 4, which has room).
  await new Promise((resolve) => setTimeout(resolve, 20)); // so a file written again would get another mtime
  await writeFile(join(cwd, 'in.jsonl'), feed([...range(0, 25), ...range(26, 36)], 12));
  const second = await runCli(BUILD, { cwd, now: T2 });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /State run 2: 1 added, 1 changed, 1 removed, 33 unchanged; 3 sitemap files written, 1 kept as published/);
  // The summary's header and lines say which files were left as they were (the index lists new names: it is written).
  assert.match(second.stdout, /^Published 5 files in out \(4 written, 1 unchanged\): 35 URLs from 35 records\n {2}sitemap-1\.xml {3}10 URLs {18}[\d.]+ KiB {2}unchanged\n {2}sitemap-2b\.xml {2}10 URLs {18}[\d.]+ KiB\n/);
  assert.match(second.stdout, /\n {2}sitemap\.xml {5}index of 4 sitemaps {6}\d+ B\n/);
  const after = await listing(out);
  // Changed children take their alternate names; file 1 is kept as it was, bytes and mtime.
  assert.deepEqual([...after.keys()], ['sitemap-1.xml', 'sitemap-2b.xml', 'sitemap-3b.xml', 'sitemap-4b.xml', 'sitemap.xml']);
  assert.deepEqual(after.get('sitemap-1.xml'), before.get('sitemap-1.xml'));
  const xml = await allXml(out);
  assert.deepEqual([...xml.matchAll(/<loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod>/g)].map((m) => [m[1], m[2]]), [
    [`${BASE}p/12`, '2026-11-28T10:15:42+00:00'],
    [`${BASE}p/35`, '2026-11-28T10:15:42+00:00'],
  ]);
  assert.ok(!xml.includes(`${BASE}p/25<`));
  const index = after.get('sitemap.xml')?.bytes.toString() ?? '';
  assert.equal(
    index,
    '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      `<sitemap><loc>${BASE}sitemap-1.xml</loc></sitemap>\n` +
      `<sitemap><loc>${BASE}sitemap-2b.xml</loc><lastmod>2026-11-28T10:15:42+00:00</lastmod></sitemap>\n` +
      `<sitemap><loc>${BASE}sitemap-3b.xml</loc></sitemap>\n` +
      `<sitemap><loc>${BASE}sitemap-4b.xml</loc><lastmod>2026-11-28T10:15:42+00:00</lastmod></sitemap>\n</sitemapindex>\n`,
  );

  const changes = await runCli(['changes', '--state', 'state.db', '--json'], { cwd });
  assert.equal(changes.code, 0, changes.stderr);
  const time = '2026-11-28T10:15:42+00:00';
  assert.deepEqual(JSON.parse(changes.stdout), {
    added: [{ url: `${BASE}p/35`, time }],
    changed: [{ url: `${BASE}p/12`, time }],
    removed: [{ url: `${BASE}p/25`, time }],
  });
  const text = await runCli(['changes', '--state', 'state.db'], { cwd });
  assert.equal(text.stdout, `added (1)\n  ${time}  ${BASE}p/35\nchanged (1)\n  ${time}  ${BASE}p/12\nremoved (1)\n  ${time}  ${BASE}p/25\n`);

  // A third run with nothing changed writes no file, and the state times stay those of run 2.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const third = await runCli(BUILD, { cwd, now: T3 });
  assert.equal(third.code, 0, third.stderr);
  assert.match(third.stdout, /State run 3: 0 added, 0 changed, 0 removed, 35 unchanged; 0 sitemap files written, 4 kept as published/);
  assert.match(third.stdout, /^Published 5 files in out \(all were there already, unchanged\): 35 URLs from 35 records\n/);
  assert.deepEqual(await listing(out), after);
  const none = await runCli(['changes', '--state', 'state.db', '--json'], { cwd });
  assert.deepEqual(JSON.parse(none.stdout), { added: [], changed: [], removed: [] });
  const since = await runCli(['changes', '--state', 'state.db', '--json', '--since', '2026-11-28'], { cwd });
  assert.deepEqual(JSON.parse(since.stdout), JSON.parse(changes.stdout));
});

test('a record\'s own lastmod wins; its own fingerprint decides what changed; a lastmod edit alone rewrites the file but is no content change', async () => {
  const cwd = await tempDir();
  const out = join(cwd, 'out');
  const rows = (fp2: string, lastmod1: string): string =>
    [
      { loc: `${BASE}a`, lastmod: lastmod1, fingerprint: 'v1' },
      { loc: `${BASE}b`, fingerprint: fp2 },
      { loc: `${BASE}c`, fingerprint: 'v1' },
    ].map((r) => `${JSON.stringify(r)}\n`).join('');
  await writeFile(join(cwd, 'in.jsonl'), rows('v1', '2026-01-01'));
  const first = await runCli(BUILD, { cwd, now: T1 });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout.includes('unknown field'), false);
  await writeFile(join(cwd, 'in.jsonl'), rows('v2', '2026-02-01'));
  const second = await runCli(BUILD, { cwd, now: T2 });
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /State run 2: 0 added, 1 changed, 0 removed, 2 unchanged; 1 sitemap file written, 0 kept/);
  const xml = (await readFile(join(out, 'sitemap-1b.xml'), 'utf8'));
  assert.equal(lastmodOf(xml, `${BASE}a`), '2026-02-01');
  assert.equal(lastmodOf(xml, `${BASE}b`), '2026-11-28T10:15:42+00:00');
  assert.equal(lastmodOf(xml, `${BASE}c`), undefined);
  const changes = await runCli(['changes', '--state', 'state.db', '--json'], { cwd });
  assert.deepEqual(JSON.parse(changes.stdout), { added: [], changed: [{ url: `${BASE}b`, time: '2026-11-28T10:15:42+00:00' }], removed: [] });
});

test('CSV: a fingerprint column goes onto the source record, not into the sitemap, and is no ignored column', async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'in.csv'), `loc,fingerprint\n${BASE}x,abc\n${BASE}y,def\n`);
  const result = await runCli(['build', '-i', 'in.csv', '-o', 'out', '-b', BASE, '--state', 'state.db', '--json'], { cwd, now: T1 });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as { diagnostics: unknown[]; state: { added: number } };
  assert.deepEqual(report.diagnostics, []);
  assert.equal(report.state.added, 2);
  const store = new DatabaseSync(join(cwd, 'state.db'));
  assert.deepEqual(store.prepare('SELECT url, fingerprint FROM urls ORDER BY id').all().map((r) => ({ ...r })), [
    { url: `${BASE}x`, fingerprint: 'abc' },
    { url: `${BASE}y`, fingerprint: 'def' },
  ]);
  store.close();
});

test('the library takes hand-made source records with fingerprints, and a StateStore or a path', async () => {
  const dir = await tempDir();
  const outDir = join(dir, 'out');
  const items = (fp: string) => [
    { line: 1, record: { loc: `${BASE}one` }, fingerprint: 'same', path: 'one.html' },
    { line: 2, record: { loc: `${BASE}two` }, fingerprint: fp, path: 'two.html' },
  ];
  const store = await openSqliteState(join(dir, 'state.db'));
  try {
    const first = await writeSourceItems(items('a'), { outDir, baseUrl: BASE, state: store, now: () => T1 });
    assert.deepEqual(first.state, { run: 1, added: 2, changed: 0, removed: 0, unchanged: 0, filesWritten: 1, filesKept: 0 });
    const second = await writeSourceItems(items('b'), { outDir, baseUrl: BASE, state: store, now: () => T2 });
    assert.deepEqual(second.state, { run: 2, added: 0, changed: 1, removed: 0, unchanged: 1, filesWritten: 1, filesKept: 0 });
  } finally {
    store.close();
  }
  const third = await writeSourceItems(items('b'), { outDir, baseUrl: BASE, state: join(dir, 'state.db'), now: () => T3 });
  assert.deepEqual(third.state, { run: 3, added: 0, changed: 0, removed: 0, unchanged: 2, filesWritten: 0, filesKept: 1 });
  assert.equal(lastmodOf(await readFile(join(outDir, 'sitemap-1b.xml'), 'utf8'), `${BASE}two`), '2026-11-28T10:15:42+00:00');
});

test('with a state, onDropped is told of each record not written, on the first run and the next (a duplicate, one too large for a file)', async () => {
  const dir = await tempDir();
  const items = () => [
    { line: 1, record: { loc: `${BASE}one` }, path: 'one.html' },
    { line: 2, record: { loc: `${BASE}big`, images: Array.from({ length: 20 }, (_, i) => ({ loc: `${BASE}img/${i}.jpg` })) }, path: 'big.html' },
    { line: 3, record: { loc: `${BASE}one` }, path: 'one/index.html' },
    { line: 4, record: { loc: `${BASE}two` }, path: 'two.html' },
  ];
  // On the second run the large record is new content since the state began: its lastmod makes it 44 bytes larger.
  for (const [now, bytes] of [[T1, 1741], [T2, 1785]] as const) {
    const dropped: Array<[string | undefined, string, string]> = [];
    const summary = await writeSourceItems(items(), { outDir: join(dir, 'out'), baseUrl: BASE, state: join(dir, 'state.db'), maxBytesPerFile: 600, now: () => now, onDropped: (record, finding) => dropped.push([record.path, finding.rule, finding.message]) });
    // In no promised order: a fresh state's repeats are dropped before the batch they came in, a later run's in it.
    assert.deepEqual(dropped.sort(([a], [b]) => String(a).localeCompare(String(b))), [
      ['big.html', 'R3', `record dropped: its ${bytes} bytes of XML cannot fit in a file of at most 600 bytes`],
      ['one/index.html', 'R25', 'duplicate URL dropped; the first occurrence is kept'],
    ]);
    assert.equal(summary.urls, 2);
  }
});

test('a URL that went and comes back is added again with the time it came back; the out folder emptied by hand is written again from the state', async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'in.jsonl'), feed(range(0, 3)));
  assert.equal((await runCli(BUILD, { cwd, now: T1 })).code, 0);
  await writeFile(join(cwd, 'in.jsonl'), feed([0, 2]));
  assert.equal((await runCli(BUILD, { cwd, now: T2 })).code, 0);
  await writeFile(join(cwd, 'in.jsonl'), feed(range(0, 3)));
  const back = await runCli(BUILD, { cwd, now: T3 });
  assert.match(back.stdout, /1 added, 0 changed, 0 removed, 2 unchanged/);
  const changes = await runCli(['changes', '--state', 'state.db', '--json'], { cwd });
  assert.deepEqual(JSON.parse(changes.stdout), { added: [{ url: `${BASE}p/1`, time: '2026-11-29T09:00:00+00:00' }], changed: [], removed: [] });
  const { rm } = await import('node:fs/promises');
  await rm(join(cwd, 'out'), { recursive: true });
  const again = await runCli(BUILD, { cwd, now: T3 + 1000 });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /0 added, 0 changed, 0 removed, 3 unchanged; 1 sitemap file written, 0 kept/);
  const xml = await allXml(join(cwd, 'out'));
  assert.deepEqual([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]), [`${BASE}p/0`, `${BASE}p/2`, `${BASE}p/1`]);
});

test('a file that is no state, a state of a newer schema, and a missing folder are one clear sentence each, exit 1', async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'in.jsonl'), feed([1]));
  await writeFile(join(cwd, 'notes.txt'), 'just some text, long enough to be no SQLite header at all........................................................');
  const text = await runCli([...BUILD.slice(0, 7), '--state', 'notes.txt'], { cwd });
  assert.equal(text.code, 1);
  assert.equal(text.stderr, `sitemapkit: cannot use state "${join(cwd, 'notes.txt')}": it is not an SQLite database (so not a sitemapkit state)\n`);
  const other = new DatabaseSync(join(cwd, 'other.db'));
  other.exec('CREATE TABLE t (x)');
  other.close();
  const foreign = await runCli([...BUILD.slice(0, 7), '--state', 'other.db'], { cwd });
  assert.equal(foreign.code, 1);
  assert.equal(foreign.stderr, `sitemapkit: "${join(cwd, 'other.db')}" is an SQLite database but not a sitemapkit state (it has no sitemapkit_state table); give another --state file\n`);
  assert.equal((await runCli(BUILD, { cwd, now: T1 })).code, 0);
  const db = new DatabaseSync(join(cwd, 'state.db'));
  db.prepare('UPDATE sitemapkit_state SET version = ?').run(SCHEMA_VERSION + 1);
  db.close();
  const newer = await runCli(BUILD, { cwd, now: T2 });
  assert.equal(newer.code, 1);
  assert.equal(newer.stderr, `sitemapkit: state "${join(cwd, 'state.db')}" was written by a newer sitemapkit (state schema ${SCHEMA_VERSION + 1}; this version reads schema ${SCHEMA_VERSION}): upgrade sitemapkit\n`);
  // A missing folder is made, as --out's is; one its file system will not make (/proc) is one sentence, not a hang.
  const missing = await runCli([...BUILD.slice(0, 7), '--state', 'no/such/state.db'], { cwd });
  assert.deepEqual([missing.code, (await stat(join(cwd, 'no/such/state.db'))).isFile()], [0, true]);
  const proc = await runCli([...BUILD.slice(0, 7), '--state', '/proc/sitemapkit-state/state.db'], { cwd });
  assert.deepEqual([proc.code, proc.stderr], [1, 'sitemapkit: cannot create state "/proc/sitemapkit-state/state.db": the file system at "/proc" does not allow creating the folder "/proc/sitemapkit-state"\n']);
  const noState = await runCli(['changes', '--state', 'nothing.db'], { cwd });
  assert.equal(noState.code, 1);
  assert.equal(noState.stderr, 'sitemapkit: state "nothing.db" does not exist: a build with --state nothing.db makes it\n');
  const badSince = await runCli(['changes', '--state', 'state.db', '--since', 'yesterday'], { cwd });
  assert.equal(badSince.code, 2);
  assert.match(badSince.stderr, /^sitemapkit: --since "yesterday" is not a date or time: .+\n$/);
});

test('--lastmod-from git: each file\'s last commit time, from one git log; the state time wins once content changes; a shallow clone is refused', async () => {
  const repo = await tempDir();
  const git = (args: string[], date?: string): string =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', ...(date === undefined ? {} : { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date }) } });
  git(['init', '-q']);
  await writeFile(join(repo, 'a.md'), 'A');
  await writeFile(join(repo, 'b.md'), 'B');
  git(['add', '.']);
  git(['commit', '-qm', 'one'], '2026-10-01T12:00:00Z');
  await writeFile(join(repo, 'b.md'), 'B2');
  git(['commit', '-qam', 'two'], '2026-10-05T06:30:00Z');
  const records = (bTitle: string): string =>
    [
      { loc: `${BASE}a`, path: 'a.md' },
      { loc: `${BASE}b`, path: 'b.md', fingerprint: bTitle },
      { loc: `${BASE}c`, path: 'not-committed.md' },
    ].map((r) => `${JSON.stringify(r)}\n`).join('');
  await writeFile(join(repo, 'in.jsonl'), records('b1'));
  const args = ['build', '-i', 'in.jsonl', '-o', 'out', '-b', BASE, '--lastmod-from', 'git'];
  const stateless = await runCli(args, { cwd: repo, now: T1 });
  assert.equal(stateless.code, 0, stateless.stderr);
  let xml = await readFile(join(repo, 'out', 'sitemap.xml'), 'utf8');
  assert.equal(lastmodOf(xml, `${BASE}a`), '2026-10-01T12:00:00+00:00');
  assert.equal(lastmodOf(xml, `${BASE}b`), '2026-10-05T06:30:00+00:00');
  assert.equal(lastmodOf(xml, `${BASE}c`), undefined);

  const withState = [...args, '-o', 'out2', '--state', 'state.db'];
  assert.equal((await runCli(withState, { cwd: repo, now: T1 })).code, 0);
  await writeFile(join(repo, 'in.jsonl'), records('b2'));
  assert.equal((await runCli(withState, { cwd: repo, now: T2 })).code, 0);
  xml = await allXml(join(repo, 'out2'));
  assert.equal(lastmodOf(xml, `${BASE}a`), '2026-10-01T12:00:00+00:00');
  assert.equal(lastmodOf(xml, `${BASE}b`), '2026-11-28T10:15:42+00:00');

  const shallow = await tempDir();
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo}`, join(shallow, 'site')]);
  await writeFile(join(shallow, 'site', 'in.jsonl'), records('b1'));
  const refused = await runCli(args, { cwd: join(shallow, 'site'), now: T1 });
  assert.equal(refused.code, 1);
  assert.equal(
    refused.stderr,
    `sitemapkit: --lastmod-from git: "${join(shallow, 'site')}" is in a shallow clone, whose history stops short, so every file would get its oldest commit's date; fetch the whole history (git fetch --unshallow, or fetch-depth: 0 in CI)\n`,
  );
  const plain = await tempDir();
  await writeFile(join(plain, 'in.jsonl'), records('b1'));
  const notRepo = await runCli(args, { cwd: plain, now: T1 });
  assert.equal(notRepo.stderr, `sitemapkit: --lastmod-from git: "${plain}" is not in a git repository\n`);
});

test('--lastmod-from git finds a path however it is spelt and named (quotes, backslashes, tabs, line breaks), and dates no path by the commit that deleted it', async () => {
  const { gitCommitTimes } = await import('../../src/state/git.ts');
  const repo = await tempDir();
  const git = (args: string[], date: string): string =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date } });
  git(['init', '-q'], '2026-01-01T00:00:00Z');
  const odd = ['blog/q"uote.md', 'blog/back\\slash.md', 'blog/tab\tx.md', 'blog/line\nbreak.md', 'blog/café.md'];
  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(repo, 'blog'));
  for (const name of [...odd, 'blog/p.md', 'blog/gone.md']) await writeFile(join(repo, name), name);
  git(['add', '.'], '2026-10-01T12:00:00Z');
  git(['commit', '-qm', 'one'], '2026-10-01T12:00:00Z');
  await writeFile(join(repo, 'blog/p.md'), 'changed');
  git(['commit', '-qam', 'two'], '2026-10-05T06:30:00Z');
  git(['rm', '-q', 'blog/gone.md'], '2026-10-09T00:00:00Z');
  git(['commit', '-qm', 'three'], '2026-10-09T00:00:00Z');
  const times = await gitCommitTimes(repo);
  const one = Date.parse('2026-10-01T12:00:00Z') / 1000;
  const two = Date.parse('2026-10-05T06:30:00Z') / 1000;
  for (const name of odd) assert.equal(times.get(name), one, JSON.stringify(name));
  for (const spelling of ['blog/p.md', './blog/p.md', 'blog//p.md', 'blog/../blog/p.md', join(repo, 'blog', 'p.md')]) assert.equal(times.get(spelling), two, spelling);
  assert.equal(times.get('../outside/blog/p.md'), undefined);
  // Deleted by the third commit: dated by its last change, not by its deletion.
  assert.equal(times.get('blog/gone.md'), one);
});

test('--compact packs the files removals left sparse; without it they stay as they are', async () => {
  const cwd = await tempDir();
  const out = join(cwd, 'out');
  await writeFile(join(cwd, 'in.jsonl'), feed(range(0, 30)));
  assert.equal((await runCli(BUILD, { cwd, now: T1 })).code, 0);
  // Half of file 1 and half of file 2 go.
  const left = [...range(5, 10), ...range(15, 30)];
  await writeFile(join(cwd, 'in.jsonl'), feed(left));
  const sparse = await runCli(BUILD, { cwd, now: T2 });
  assert.match(sparse.stdout, /0 added, 0 changed, 10 removed, 20 unchanged; 2 sitemap files written, 1 kept/);
  assert.deepEqual([...(await listing(out)).keys()], ['sitemap-1b.xml', 'sitemap-2b.xml', 'sitemap-3.xml', 'sitemap.xml']);
  const packed = await runCli([...BUILD, '--compact'], { cwd, now: T3 });
  assert.equal(packed.code, 0, packed.stderr);
  assert.match(packed.stdout, /0 added, 0 changed, 0 removed, 20 unchanged; 2 sitemap files written, 0 kept/);
  const files = await listing(out);
  assert.deepEqual([...files.keys()], ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap.xml']);
  const locs = (name: string): string[] => [...(files.get(name)?.bytes.toString() ?? '').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '');
  assert.deepEqual(locs('sitemap-1.xml'), [...range(5, 10), ...range(15, 20)].map((id) => `${BASE}p/${id}`));
  assert.deepEqual(locs('sitemap-2.xml'), range(20, 30).map((id) => `${BASE}p/${id}`));
  const noState = await runCli(['build', '-i', 'in.jsonl', '-o', 'out2', '-b', BASE, '--compact'], { cwd });
  assert.equal(noState.code, 2);
  assert.equal(noState.stderr, 'sitemapkit: compact (--compact) packs the files a state remembers; give a state (--state) too\n');
});

test('a change of format (gzip on) writes every file again, so no set mixes formats; smaller files need --compact', async () => {
  const cwd = await tempDir();
  const out = join(cwd, 'out');
  await writeFile(join(cwd, 'in.jsonl'), feed(range(0, 25)));
  assert.equal((await runCli(BUILD, { cwd, now: T1 })).code, 0);
  const gzipped = await runCli([...BUILD, '--gzip'], { cwd, now: T2 });
  assert.match(gzipped.stdout, /0 added, 0 changed, 0 removed, 25 unchanged; 3 sitemap files written, 0 kept/);
  assert.deepEqual([...(await listing(out)).keys()], ['sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap-3.xml.gz', 'sitemap.xml']);
  // Files of 5 URLs: the files of 10 stay until one must be written again, which needs --compact.
  await writeFile(join(cwd, 'in.jsonl'), feed(range(1, 25)));
  const smaller = await runCli([...BUILD.slice(0, -3), '--max-urls', '5', '--no-progress', '--gzip'], { cwd, now: T3 });
  assert.equal(smaller.code, 2);
  assert.equal(smaller.stderr, `sitemapkit: file 1 of state "${join(cwd, 'state.db')}" holds more than --max-urls / --max-bytes now allow (9 URLs, 1494 bytes of entries); run with --compact to pack its URLs into files of the new size\n`);
  const packed = await runCli([...BUILD.slice(0, -3), '--max-urls', '5', '--no-progress', '--gzip', '--compact'], { cwd, now: T3 });
  assert.equal(packed.code, 0, packed.stderr);
  assert.match(packed.stdout, /0 added, 0 changed, 1 removed, 24 unchanged; 5 sitemap files written, 0 kept/);
});

test('repeats in a run on a state with URLs are dropped by the state itself: an old URL twice, a new URL twice in one batch and again hundreds of records later', async () => {
  const dir = await tempDir();
  const outDir = join(dir, 'out');
  const url = (id: number): string => `${BASE}p/${id}`;
  const first = await writeSourceItems(range(0, 600).map((id) => ({ line: id + 1, record: { loc: url(id) } })), { outDir, baseUrl: BASE, state: join(dir, 'state.db'), now: () => T1 });
  assert.equal(first.urls, 600);
  // Run 2: 0–599 again, with p/5 repeated at once, new p/900 three times (twice in one batch of 256, once far later), p/10 repeated far later.
  const ids = [...range(0, 6), 5, 900, 900, ...range(6, 400), 900, 10, ...range(400, 600)];
  const second = await writeSourceItems(ids.map((id, k) => ({ line: k + 1, record: { loc: url(id) } })), { outDir, baseUrl: BASE, state: join(dir, 'state.db'), now: () => T2 });
  assert.equal(second.duplicates, 4);
  assert.deepEqual(second.diagnostics.filter((d) => d.rule === 'R25').map((d) => [d.line, d.url]), [[7, url(5)], [9, url(900)], [404, url(900)], [405, url(10)]]);
  assert.deepEqual(second.state, { run: 2, added: 1, changed: 0, removed: 0, unchanged: 600, filesWritten: 1, filesKept: 0 });
  const locs = [...(await allXml(outDir)).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  assert.equal(locs.length, 601);
  assert.equal(new Set(locs).size, 601);
});

test('a state compared another way (a sitemapkit upgrade, a new fingerprint scheme) moves no lastmod and rewrites no file: the new prints are kept', async () => {
  const dir = await tempDir();
  const outDir = join(dir, 'out');
  const statePath = join(dir, 'state.db');
  const items = (print: string, scheme: string) => ({ records: [{ line: 1, record: { loc: `${BASE}a` }, fingerprint: `${print}-a` }, { line: 2, record: { loc: `${BASE}b` }, fingerprint: `${print}-b` }], scheme });
  const run = (print: string, scheme: string, now: number) => writeSourceItems(items(print, scheme).records, { outDir, baseUrl: BASE, state: statePath, now: () => now, fingerprintScheme: scheme });
  await run('v1', 'mine/1', T1);
  // A changed page under the old scheme: it gets the run's time.
  const edited = await writeSourceItems([{ line: 1, record: { loc: `${BASE}a` }, fingerprint: 'v1-a' }, { line: 2, record: { loc: `${BASE}b` }, fingerprint: 'v1-b-edited' }], { outDir, baseUrl: BASE, state: statePath, now: () => T2, fingerprintScheme: 'mine/1' });
  assert.equal(edited.state?.changed, 1);
  // Every print differs under the new scheme: none is a change, and b keeps T2.
  const upgraded = await run('v2', 'mine/2', T3);
  assert.deepEqual(upgraded.state, { run: 3, added: 0, changed: 0, removed: 0, unchanged: 2, filesWritten: 0, filesKept: 1 });
  const xml = await allXml(outDir);
  assert.equal(lastmodOf(xml, `${BASE}a`), undefined);
  assert.equal(lastmodOf(xml, `${BASE}b`), '2026-11-28T10:15:42+00:00');
  // Then the new prints are the ones compared: nothing changes, no file is written.
  const again = await run('v2', 'mine/2', T3 + 60_000);
  assert.deepEqual(again.state, { run: 4, added: 0, changed: 0, removed: 0, unchanged: 2, filesWritten: 0, filesKept: 1 });
  // A state written before schemes were recorded (no scheme in its meta) takes the same road once.
  const db = new DatabaseSync(statePath);
  db.exec("DELETE FROM meta WHERE key = 'scheme'");
  db.close();
  const legacy = await run('v3', 'mine/2', T3 + 120_000);
  assert.equal(legacy.state?.changed, 0);
  assert.equal(lastmodOf(await allXml(outDir), `${BASE}b`), '2026-11-28T10:15:42+00:00');
});

test('a lock left by a run that stopped is taken over, whatever its host, once it is LOCK_GRACE old; a fresh one from another host is refused', async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'in.jsonl'), feed(range(0, 3)));
  assert.equal((await runCli(BUILD, { cwd, now: T1 })).code, 0);
  const lockAs = (pid: number, host: string, beat: number): void => {
    const db = new DatabaseSync(join(cwd, 'state.db'));
    db.prepare('INSERT OR REPLACE INTO lock (id, pid, host, started, beat) VALUES (1, ?, ?, ?, ?)').run(pid, host, beat - 5, beat);
    db.close();
  };
  const seconds = (ms: number): number => Math.floor(ms / 1000);
  // A CI runner's state restored from a cache: locked by a job on another machine that was killed an hour before.
  lockAs(4242, 'ci-runner-7', seconds(T2) - 3600);
  const taken = await runCli(BUILD, { cwd, now: T2 });
  assert.equal(taken.code, 0, taken.stderr);
  assert.match(taken.stdout, /The state was left locked by a run that no longer runs \(process 4242 on ci-runner-7, started 2026-11-28T09:15:37\+00:00\); taken over\n/);
  // A live process of this host that holds no write lock and has not beaten for a minute (a pid used again) is no run either.
  lockAs(process.pid, (await import('node:os')).hostname(), seconds(T3) - 120);
  const reused = await runCli(BUILD, { cwd, now: T3 });
  assert.equal(reused.code, 0, reused.stderr);
  assert.match(reused.stdout, /taken over/);
  // One from another host that beat seconds ago may be between its commit and its next lock: refused.
  lockAs(4343, 'ci-runner-8', seconds(T3) - 10);
  const refused = await runCli(BUILD, { cwd, now: T3 });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /is in use by another run \(process 4343 on ci-runner-8, started 2026-11-29T08:59:45\+00:00\)/);
});

test('a state run claims the output folder at its start: beside a run that holds the set, it is refused before reading a record, its state untouched', async () => {
  const { openDirectorySink } = await import('../../src/publish/directory.ts');
  const { writeSitemaps } = await import('../../src/index.ts');
  const dir = await tempDir();
  const outDir = join(dir, 'out');
  const holder = openDirectorySink(outDir, { gzip: false, filename: 'sitemap' });
  await holder.open?.();
  let read = 0;
  function* records(): Generator<string> {
    for (const id of range(0, 100)) {
      read++;
      yield `${BASE}p/${id}`;
    }
  }
  try {
    await assert.rejects(writeSitemaps(records(), { outDir, baseUrl: BASE, state: join(dir, 'state.db') }), { code: 'SM_OUTPUT_CONFLICT', message: /another run \(process \d+\) is publishing the "sitemap" set/ });
    assert.equal(read, 0);
  } finally {
    await holder.abort();
  }
  // The refused run left nothing in the state: the next is its first.
  const summary = await writeSitemaps(records(), { outDir, baseUrl: BASE, state: join(dir, 'state.db') });
  assert.deepEqual([summary.state?.run, summary.state?.added], [1, 100]);
});

test('files written again from the state with the bytes they had (a new base URL moves only the index) count as kept, not written', async () => {
  const { writeSitemaps } = await import('../../src/index.ts');
  const dir = await tempDir();
  const options = { outDir: join(dir, 'out'), state: join(dir, 'state.db'), maxUrlsPerFile: 10 };
  const urls = range(0, 25).map((id) => `${BASE}p/${id}`);
  await writeSitemaps(urls, { ...options, baseUrl: BASE });
  const moved = await writeSitemaps(urls, { ...options, baseUrl: `${BASE}maps/` });
  assert.deepEqual([moved.state?.filesWritten, moved.state?.filesKept], [0, 3]);
  assert.deepEqual(moved.files.map((f) => [f.name, f.unchanged === true]), [['sitemap-1.xml', true], ['sitemap-2.xml', true], ['sitemap-3.xml', true], ['sitemap.xml', false]]);
});

test('a record lost before its URL was known (a line that is not JSON) removes no URL: the state cannot tell which it was; a clean run then does', async () => {
  const cwd = await tempDir();
  const build = ['build', '-i', 'in.jsonl', '-o', 'out', '-b', BASE, '--state', 'state.db', '--no-progress', '--json'];
  await writeFile(join(cwd, 'in.jsonl'), feed(range(0, 5)));
  assert.equal((await runCli(build, { cwd, now: T1 })).code, 0);
  // p/3's line broken: its URL cannot be read, and p/4 is gone from the feed as well.
  await writeFile(join(cwd, 'in.jsonl'), `${feed(range(0, 3))}{"loc": "${BASE}p/3", oops\n`);
  const broken = await runCli(build, { cwd, now: T2 });
  assert.equal(broken.code, 0, broken.stderr);
  const report = JSON.parse(broken.stdout) as { urls: number; state: { removed: number; unchanged: number }; diagnostics: { rule: string; level: string; message: string }[] };
  assert.deepEqual([report.urls, report.state.removed, report.state.unchanged], [5, 0, 3]);
  assert.deepEqual(report.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message.replace(/ \(.*\)$/, '')}`), [
    'INPUT error line skipped: not valid JSON',
    'INPUT warn 1 input record was dropped before its URL was known, so none of the 2 URLs of the state not seen in this run is counted as removed: they stay listed until a run reads every record',
  ]);
  assert.deepEqual(JSON.parse((await runCli(['changes', '--state', 'state.db', '--json'], { cwd })).stdout), { added: [], changed: [], removed: [] });
  await writeFile(join(cwd, 'in.jsonl'), feed(range(0, 4)));
  const clean = JSON.parse((await runCli(build, { cwd, now: T3 })).stdout) as { urls: number; state: { removed: number } };
  assert.deepEqual([clean.urls, clean.state.removed], [4, 1]);
});

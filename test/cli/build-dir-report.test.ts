import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { locs, siteCopyOf } from '../helpers/site-copy.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('cli-dir-report');
/** Two pairs of files served at one URL (`guide/index.html` and `guide.html` with clean URLs and no trailing slash; `docs/setup.html`, whose canonical is `docs/setup/index.html`'s), and a gallery whose images make its entry large. */
const SITE = fileURLToPath(new URL('../fixtures/site-duplicates/', import.meta.url));
const BASE = ['--base-url', 'https://example.com/'];

const siteCopy = (): Promise<string> => siteCopyOf(SITE, tempDir);

const lines = async (file: string): Promise<unknown[]> => (await readFile(file, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);

const SETUP_DUPLICATE = { path: 'docs/setup.html', url: 'https://example.com/docs/setup/', verdict: 'duplicate', reason: 'same URL as docs/setup/index.html, which comes first', duplicateOf: 'docs/setup/index.html' };

test('--report with --clean-urls: of two files served at one URL, the first is listed and the second is a duplicate naming it; the summary counts the same', async () => {
  const cwd = await siteCopy();
  const args = ['build', '--dir', 'site', '-o', 'out', ...BASE, '--clean-urls', '--trailing-slash', 'never', '--report', 'report.jsonl', '--workers', '0'];
  const result = await runCli(args, { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(locs(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8')), ['https://example.com/docs/setup/', 'https://example.com/gallery', 'https://example.com/guide', 'https://example.com/']);
  const report = [
    { path: 'docs/setup/index.html', url: 'https://example.com/docs/setup/', verdict: 'listed', reason: 'its canonical, another spelling of https://example.com/docs/setup' },
    SETUP_DUPLICATE,
    { path: 'gallery.html', url: 'https://example.com/gallery', verdict: 'listed' },
    { path: 'guide/index.html', url: 'https://example.com/guide', verdict: 'listed' },
    { path: 'guide.html', url: 'https://example.com/guide', verdict: 'duplicate', reason: 'same URL as guide/index.html, which comes first', duplicateOf: 'guide/index.html' },
    { path: 'index.html', url: 'https://example.com/', verdict: 'listed' },
    { path: 'style.css', verdict: 'not-a-page' },
  ];
  assert.deepEqual(await lines(join(cwd, 'report.jsonl')), report);
  assert.match(result.stdout, /\nFiles in site: 7 \(4 listed; skipped: 2 duplicate, 1 not-a-page\)\n$/);
  assert.match(result.stdout, /^Published 1 file in out: 4 URLs from 6 records \(2 dropped, 2 of them duplicates\)\n/);
  // The report is settled in a second file renamed into place: no temporary file is left.
  assert.deepEqual((await readdir(cwd)).sort(), ['out', 'report.jsonl', 'site']);
  // With worker threads: the same report, byte for byte.
  const first = await readFile(join(cwd, 'report.jsonl'), 'utf8');
  const again = await runCli([...args.slice(0, -1), '3'], { cwd });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await readFile(join(cwd, 'report.jsonl'), 'utf8'), first);
});

/** Without clean URLs `guide.html` is a page of its own; `gallery.html`'s 20 images do not fit in 1,000 bytes (`bytes`: its entry's). */
const droppedReport = (bytes: number) => [
  { path: 'docs/setup/index.html', url: 'https://example.com/docs/setup/', verdict: 'listed' },
  { ...SETUP_DUPLICATE },
  { path: 'gallery.html', url: 'https://example.com/gallery.html', verdict: 'dropped', reason: `record dropped: its ${bytes} bytes of XML cannot fit in a file of at most 1000 bytes`, rule: 'R3' },
  { path: 'guide/index.html', url: 'https://example.com/guide/', verdict: 'listed' },
  { path: 'guide.html', url: 'https://example.com/guide.html', verdict: 'listed' },
  { path: 'index.html', url: 'https://example.com/', verdict: 'listed' },
  { path: 'style.css', verdict: 'not-a-page' },
];
const DROPPED_VERDICTS = { listed: 4, duplicate: 1, dropped: 1, noindex: 0, 'canonical-elsewhere': 0, redirect: 0, 'error-page': 0, excluded: 0, 'not-a-page': 1 };
const DROPPED_LOCS = ['https://example.com/docs/setup/', 'https://example.com/guide/', 'https://example.com/guide.html', 'https://example.com/'];

test('--report and --json: a page the writer cannot write is "dropped" with the finding\'s message and rule; folder.verdicts adds up to the files and its listed to the URLs', async () => {
  const cwd = await siteCopy();
  const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--images', '--max-bytes', '1000', '--report', 'report.jsonl', '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as { urls: number; records: number; dropped: number; duplicates: number; folder: unknown };
  assert.deepEqual([json.urls, json.records, json.dropped, json.duplicates], [4, 6, 2, 1]);
  assert.deepEqual(json.folder, { files: 7, verdicts: DROPPED_VERDICTS });
  assert.deepEqual(await lines(join(cwd, 'report.jsonl')), droppedReport(1995));
  assert.deepEqual(locs(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8')), DROPPED_LOCS);
});

test('with --state, on the first run and the next: the same verdicts, report and counts as without it', async () => {
  const cwd = await siteCopy();
  // Each pass runs twice (with --report, then --json); from the state's second run on, the gallery is new content with the run's time as its lastmod, 44 bytes more.
  for (const [run, bytes] of [[1, 1995], [3, 2039]] as const) {
    const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--images', '--max-bytes', '1000', '--state', 'state.db', '--report', 'report.jsonl'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\nFiles in site: 7 \(4 listed; skipped: 1 duplicate, 1 dropped, 1 not-a-page\)\n$/, `run ${run}`);
    assert.deepEqual(await lines(join(cwd, 'report.jsonl')), droppedReport(bytes), `run ${run}`);
    // With a state the entry point is always an index.
    const index = locs(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8'));
    assert.deepEqual(locs(await readFile(join(cwd, 'out', new URL(index[0] ?? '').pathname), 'utf8')), DROPPED_LOCS, `run ${run}`);
    const json = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--images', '--max-bytes', '1000', '--state', 'state.db', '--json'], { cwd });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual((JSON.parse(json.stdout) as { folder: unknown }).folder, { files: 7, verdicts: DROPPED_VERDICTS }, `run ${run + 1}`);
  }
});

test('no --report: the summary counts duplicates and drops all the same', async () => {
  const cwd = await siteCopy();
  const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--clean-urls', '--trailing-slash', 'always', '--images', '--max-bytes', '1000'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /\nFiles in site: 7 \(3 listed; skipped: 2 duplicate, 1 dropped, 1 not-a-page\)\n$/);
  assert.deepEqual(locs(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8')), ['https://example.com/docs/setup/', 'https://example.com/guide/', 'https://example.com/']);
});

test('every page dropped: exit 1, no sitemap published, and the report, whole, says why of each file', async () => {
  const cwd = await siteCopy();
  // No entry fits in 100 bytes with a file's head: each page is dropped (R3), but for the one whose URL came already.
  const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--max-bytes', '100', '--report', 'report.jsonl'], { cwd });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /\nFiles in site: 7 \(0 listed; skipped: 1 duplicate, 5 dropped, 1 not-a-page\)\nEach file's verdict: report\.jsonl\nsitemapkit: no page of site can be listed; nothing was published\n$/);
  assert.deepEqual((await readdir(cwd)).sort(), ['report.jsonl', 'site']);
  const report = (await lines(join(cwd, 'report.jsonl'))) as Array<{ path: string; verdict: string; rule?: string }>;
  assert.deepEqual(report.map((line) => [line.path, line.verdict, line.rule]), [
    ['docs/setup/index.html', 'dropped', 'R3'],
    ['docs/setup.html', 'duplicate', undefined],
    ['gallery.html', 'dropped', 'R3'],
    ['guide/index.html', 'dropped', 'R3'],
    ['guide.html', 'dropped', 'R3'],
    ['index.html', 'dropped', 'R3'],
    ['style.css', 'not-a-page', undefined],
  ]);
});

test('pages left out for a canonical on another site than --base-url: the summary names the site to give, when they outnumber the listed', async () => {
  const cwd = await tempDir();
  // A site built for https://example.com/: three pages name their canonical there, one names none.
  const page = async (file: string, canonical: string | undefined): Promise<void> => {
    const path = file.replace(/index\.html$/, '');
    await mkdir(join(cwd, 'site', path), { recursive: true });
    const link = canonical === undefined ? '' : `<link rel="canonical" href="${canonical}">`;
    await writeFile(join(cwd, 'site', file), `<!DOCTYPE html><html><head><title>${path}</title>${link}</head><body><p>${path}</p></body></html>\n`);
  };
  for (const file of ['index.html', 'guide/index.html', 'blog/first/index.html']) await page(file, `https://example.com/${file.replace(/index\.html$/, '')}`);
  const hint = (pages: number): string =>
    `${pages} pages were left out as their canonical is on https://example.com, not on --base-url https://staging.example.net/ (the first: blog/first/index.html, canonical https://example.com/blog/first/); if https://example.com is this site, give it as --base-url\n`;
  const staging = ['build', '--dir', 'site', '-o', 'out', '--base-url', 'https://staging.example.net/'];
  // None listed: the run fails, and says why.
  const none = await runCli(staging, { cwd });
  assert.equal(none.code, 1);
  assert.equal(none.stderr, `Files in site: 3 (0 listed; skipped: 3 canonical-elsewhere)\n${hint(3)}sitemapkit: no page of site can be listed; nothing was published\n`);
  assert.deepEqual((await readdir(cwd)).sort(), ['site']);
  // Some listed, fewer than those left out: published, and the same hint.
  await page('about/index.html', undefined);
  const some = await runCli(staging, { cwd });
  assert.equal(some.code, 0, some.stderr);
  assert.match(some.stdout, /\nFiles in site: 4 \(1 listed; skipped: 3 canonical-elsewhere\)\n$/);
  assert.equal(some.stderr, hint(3));
  // As many listed as left out: a site may point some pages elsewhere; no hint.
  await page('contact/index.html', undefined);
  await page('team/index.html', undefined);
  const many = await runCli(staging, { cwd });
  assert.equal(many.code, 0, many.stderr);
  assert.equal(many.stderr, '');
  // The site's own URL: every page listed, no hint.
  const right = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE], { cwd });
  assert.equal(right.code, 0, right.stderr);
  assert.match(right.stdout, /\nFiles in site: 6 \(6 listed\)\n$/);
  assert.equal(right.stderr, '');
});

test('a report larger than its write buffer, half its pages duplicates: each names its first file, in walk order, the counts add up', { timeout: 60_000 }, async () => {
  const cwd = await tempDir();
  const pages = 700;
  for (let i = 0; i < pages; i++) {
    const name = `p${String(i).padStart(3, '0')}`;
    await mkdir(join(cwd, 'site', name), { recursive: true });
    await writeFile(join(cwd, 'site', name, 'index.html'), `<!DOCTYPE html><html><head><title>${i}</title></head><body><p>Page ${i}</p></body></html>\n`);
    await writeFile(join(cwd, 'site', `${name}.html`), `<!DOCTYPE html><html><head><title>${i} (old)</title></head><body><p>Page ${i}</p></body></html>\n`);
  }
  const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--clean-urls', '--trailing-slash', 'never', '--report', 'report.jsonl', '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as { urls: number; folder: unknown };
  assert.equal(json.urls, pages);
  assert.deepEqual(json.folder, { files: 2 * pages, verdicts: { listed: pages, duplicate: pages, dropped: 0, noindex: 0, 'canonical-elsewhere': 0, redirect: 0, 'error-page': 0, excluded: 0, 'not-a-page': 0 } });
  const text = await readFile(join(cwd, 'report.jsonl'), 'utf8');
  assert.ok(text.length > 1 << 16, `${text.length} characters`);
  const report = text.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
  assert.deepEqual(report, Array.from({ length: pages }, (_, i) => {
    const name = `p${String(i).padStart(3, '0')}`;
    const url = `https://example.com/${name}`;
    return [
      { path: `${name}/index.html`, url, verdict: 'listed' },
      { path: `${name}.html`, url, verdict: 'duplicate', reason: `same URL as ${name}/index.html, which comes first`, duplicateOf: `${name}/index.html` },
    ];
  }).flat());
  assert.deepEqual((await readdir(cwd)).sort(), ['out', 'report.jsonl', 'site']);
});

test('a folder with no HTML page (the sources, not the build) or no file: the summary says which folder --dir wants, with or without --json', async () => {
  const cwd = await tempDir();
  await mkdir(join(cwd, 'src'));
  await writeFile(join(cwd, 'src', 'index.md'), '# Home\n');
  await writeFile(join(cwd, 'src', 'app.js'), 'export {};\n');
  await mkdir(join(cwd, 'empty'));
  const sources = await runCli(['build', '--dir', 'src', '-o', 'out', ...BASE], { cwd });
  assert.equal(sources.code, 1);
  assert.equal(
    sources.stderr,
    'Files in src: 2 (0 listed; skipped: 2 not-a-page)\nsrc holds no HTML page (.html, .htm): give --dir the folder your site is built into (dist, _site, public, build, out…), not its sources\nsitemapkit: no page of src can be listed; nothing was published\n',
  );
  const json = await runCli(['build', '--dir', 'src', '-o', 'out', ...BASE, '--json'], { cwd });
  assert.equal(json.code, 1);
  assert.deepEqual(JSON.parse(json.stdout) as unknown, {
    published: false, files: [], urls: 0, records: 0, dropped: 0, duplicates: 0, diagnostics: [], counts: {},
    folder: { files: 2, verdicts: { listed: 0, duplicate: 0, dropped: 0, noindex: 0, 'canonical-elsewhere': 0, redirect: 0, 'error-page': 0, excluded: 0, 'not-a-page': 2 } },
    error: 'no page of src can be listed; nothing was published', code: 'SM_NOTHING_TO_WRITE',
  });
  const empty = await runCli(['build', '--dir', 'empty', '-o', 'out', ...BASE], { cwd });
  assert.equal(empty.code, 1);
  assert.equal(empty.stderr, 'Files in empty: 0 (0 listed)\nempty holds no file to list: give --dir the folder your site is built into (dist, _site, public, build, out…)\nsitemapkit: no page of empty can be listed; nothing was published\n');
  assert.deepEqual((await readdir(cwd)).sort(), ['empty', 'src']);
});

test('--report naming a folder, or under a file, is refused before anything is read or published', async () => {
  const cwd = await siteCopy();
  await writeFile(join(cwd, 'notes.txt'), 'a file\n');
  const folder = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--report', 'site'], { cwd });
  assert.equal(folder.code, 1);
  assert.equal(folder.stderr, 'sitemapkit: cannot write report "site": it is a folder; give a file\'s path\n');
  const under = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--report', 'notes.txt/report.jsonl'], { cwd });
  assert.equal(under.code, 1);
  assert.equal(under.stderr, 'sitemapkit: cannot write report "notes.txt/report.jsonl": a file is in the way where a folder is needed\n');
  assert.deepEqual((await readdir(cwd)).sort(), ['notes.txt', 'site']);
});

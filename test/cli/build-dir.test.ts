import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { locs, siteCopyOf } from '../helpers/site-copy.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const tempDir = tempDirs('cli-dir');
const SITE = fileURLToPath(new URL('../fixtures/site/', import.meta.url));
const BASE = ['--base-url', 'https://example.com/'];

const siteCopy = (): Promise<string> => siteCopyOf(SITE, tempDir);


const REPORT = [
  { path: '404/index.html', verdict: 'error-page', reason: 'an error or fallback page, served for other URLs' },
  { path: '404.html', verdict: 'error-page', reason: 'an error or fallback page, served for other URLs' },
  { path: '500.html', verdict: 'error-page', reason: 'an error or fallback page, served for other URLs' },
  { path: '_next/static/chunks/main-3f9a2c1b.js', verdict: 'not-a-page' },
  { path: 'about/index.html', url: 'https://example.com/about', verdict: 'listed', reason: 'its canonical, another spelling of https://example.com/about/' },
  { path: 'assets/app.3f9a2c1b.css', verdict: 'not-a-page' },
  { path: 'blog/hello-world/index.html', url: 'https://example.com/blog/hello-world/', verdict: 'listed' },
  { path: 'blog/old-post/index.html', url: 'https://example.com/blog/old-post/', verdict: 'redirect', reason: 'meta refresh to https://example.com/blog/hello-world/' },
  { path: 'de/index.html', url: 'https://example.com/de/', verdict: 'listed' },
  { path: 'docs/intro/index.html', url: 'https://example.com/docs/intro/', verdict: 'listed' },
  { path: 'drafts/wip.html', verdict: 'excluded', reason: 'matched by --exclude "drafts/**"' },
  { path: 'files/guide.pdf', url: 'https://example.com/files/guide.pdf', verdict: 'listed' },
  { path: 'googlebot-none.html', url: 'https://example.com/googlebot-none.html', verdict: 'noindex', reason: 'robots meta says noindex' },
  { path: 'images/hero.png', verdict: 'not-a-page' },
  { path: 'index.html', url: 'https://example.com/', verdict: 'listed' },
  { path: 'news-only.html', url: 'https://example.com/news-only.html', verdict: 'listed' },
  { path: 'print/article.html', url: 'https://example.com/print/article.html', verdict: 'canonical-elsewhere', reason: 'canonical is https://example.com/blog/hello-world/' },
  { path: 'private/index.html', url: 'https://example.com/private/', verdict: 'noindex', reason: 'robots meta says noindex' },
  { path: 'products/shoes.html', url: 'https://example.com/products/shoes', verdict: 'listed', reason: 'its canonical, another spelling of https://example.com/products/shoes.html' },
  { path: 'products.html', url: 'https://example.com/products.html', verdict: 'listed' },
  { path: 'redirect/old.html', url: 'https://example.com/redirect/old.html', verdict: 'redirect', reason: 'meta refresh to https://example.com/docs/intro/' },
];

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://example.com/about</loc></url>
<url><loc>https://example.com/blog/hello-world/</loc><image:image><image:loc>https://example.com/blog/hello-world/cover.jpg</image:loc></image:image></url>
<url><loc>https://example.com/de/</loc><xhtml:link rel="alternate" hreflang="en" href="https://example.com/"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/><xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/"/></url>
<url><loc>https://example.com/docs/intro/</loc><image:image><image:loc>https://example.com/img/diagram-large.png</image:loc></image:image><image:image><image:loc>https://example.com/img/lazy-figure.webp</image:loc></image:image><xhtml:link rel="alternate" hreflang="en" href="https://example.com/docs/intro/"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/docs/intro/"/></url>
<url><loc>https://example.com/files/guide.pdf</loc></url>
<url><loc>https://example.com/</loc><image:image><image:loc>https://example.com/images/hero.png</image:loc></image:image><xhtml:link rel="alternate" hreflang="en" href="https://example.com/"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/><xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/"/></url>
<url><loc>https://example.com/news-only.html</loc></url>
<url><loc>https://example.com/products/shoes</loc></url>
<url><loc>https://example.com/products.html</loc><image:image><image:loc>https://example.com/_next/static/media/shoes.7d8e9f0a.jpg</image:loc></image:image></url>
</urlset>
`;

test('build --dir on a real-shaped site: exact sitemap (alternates, images, a PDF), the summary counts every file by verdict, --report lists each file', async () => {
  const cwd = await siteCopy();
  const args = ['build', '--dir', 'site', '-o', 'out', ...BASE, '--alternates', '--images', '--include-type', 'pdf', '--exclude', 'drafts/**', '--report', 'report.jsonl', '--workers', '0'];
  const result = await runCli(args, { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.equal(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8'), SITEMAP);
  assert.equal(
    result.stdout,
    `Published 1 file in out: 9 URLs from 9 records
  sitemap.xml  9 URLs                   1.7 KiB
Entry point: https://example.com/sitemap.xml
Tell crawlers with this robots.txt line: Sitemap: https://example.com/sitemap.xml
Files in site: 21 (9 listed; skipped: 2 noindex, 1 canonical-elsewhere, 2 redirect, 3 error-page, 1 excluded, 3 not-a-page)
`,
  );
  const report = (await readFile(join(cwd, 'report.jsonl'), 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
  assert.deepEqual(report, REPORT);
  // The report is published by renaming: no temporary file is left beside it.
  assert.deepEqual((await readdir(cwd)).sort(), ['out', 'report.jsonl', 'site']);
  // Run again with workers: the same bytes (deterministic order, whatever the workers' timing).
  const again = await runCli([...args.slice(0, -1), '3'], { cwd });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8'), SITEMAP);
});

test('build --dir --json: the writer’s report plus every verdict counted', async () => {
  const cwd = await siteCopy();
  const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  const json = JSON.parse(result.stdout) as { urls: number; records: number; folder: unknown };
  assert.equal(json.urls, 9);
  assert.equal(json.records, 9);
  assert.deepEqual(json.folder, {
    files: 21,
    verdicts: { listed: 9, duplicate: 0, dropped: 0, noindex: 2, 'canonical-elsewhere': 1, redirect: 2, 'error-page': 3, excluded: 0, 'not-a-page': 4 },
  });
  // Without --include-type pdf the PDF is no page; drafts/wip.html is listed.
  assert.deepEqual(locs(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8')), [
    'https://example.com/about',
    'https://example.com/blog/hello-world/',
    'https://example.com/de/',
    'https://example.com/docs/intro/',
    'https://example.com/drafts/wip.html',
    'https://example.com/',
    'https://example.com/news-only.html',
    'https://example.com/products/shoes',
    'https://example.com/products.html',
  ]);
});

test('--clean-urls and --trailing-slash: x.html served as x or x/; a canonical naming another spelling still wins', async () => {
  const cwd = await siteCopy();
  const cases: Array<[string[], string[]]> = [
    [
      ['--clean-urls'],
      ['https://example.com/about', 'https://example.com/blog/hello-world/', 'https://example.com/de/', 'https://example.com/docs/intro/', 'https://example.com/drafts/wip', 'https://example.com/', 'https://example.com/news-only', 'https://example.com/products/shoes', 'https://example.com/products'],
    ],
    [
      ['--clean-urls', '--trailing-slash', 'always'],
      ['https://example.com/about', 'https://example.com/blog/hello-world/', 'https://example.com/de/', 'https://example.com/docs/intro/', 'https://example.com/drafts/wip/', 'https://example.com/', 'https://example.com/news-only/', 'https://example.com/products/shoes', 'https://example.com/products/'],
    ],
    [
      ['--trailing-slash', 'never'],
      ['https://example.com/about', 'https://example.com/blog/hello-world/', 'https://example.com/de/', 'https://example.com/docs/intro/', 'https://example.com/drafts/wip.html', 'https://example.com/', 'https://example.com/news-only.html', 'https://example.com/products/shoes', 'https://example.com/products.html'],
    ],
  ];
  for (const [flags, expected] of cases) {
    const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, ...flags], { cwd });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(locs(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8')), expected, flags.join(' '));
  }
});

test('--out inside the site folder: the sitemaps are served below --base-url, and a second run does not list them as pages', async () => {
  const cwd = await siteCopy();
  for (let run = 0; run < 2; run++) {
    const result = await runCli(['build', '--dir', 'site', '-o', 'site/maps', ...BASE, '--max-urls', '5', '--json'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as { urls: number; files: Array<{ name: string; url: string }>; folder: { verdicts: Record<string, number> } };
    assert.equal(json.urls, 9);
    assert.equal(json.files.at(-1)?.url, 'https://example.com/maps/sitemap.xml');
    assert.equal(json.folder.verdicts['not-a-page'], run === 0 ? 4 : 7);
  }
  const index = await readFile(join(cwd, 'site/maps/sitemap.xml'), 'utf8');
  assert.deepEqual(locs(index), ['https://example.com/maps/sitemap-1.xml', 'https://example.com/maps/sitemap-2.xml']);
});

test('--include and --exclude globs, repeatable; --include-type lists other files', async () => {
  const cwd = await siteCopy();
  const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--include', 'blog/**', '--include', '*.html', '--include', 'files/*', '--exclude', 'news-*', '--include-type', 'PDF', '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(locs(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8')), [
    'https://example.com/blog/hello-world/',
    'https://example.com/files/guide.pdf',
    'https://example.com/',
    'https://example.com/products.html',
  ]);
  assert.deepEqual((JSON.parse(result.stdout) as { folder: { verdicts: Record<string, number> } }).folder.verdicts, {
    listed: 4, duplicate: 0, dropped: 0, noindex: 1, 'canonical-elsewhere': 0, redirect: 1, 'error-page': 3, excluded: 9, 'not-a-page': 3,
  });
});

test('bad input is one sentence: a missing folder or a file (exit 1), options that do not go together, a bad selector, pattern or type (exit 2); nothing is published', async () => {
  const cwd = await siteCopy();
  await writeFile(join(cwd, 'urls.txt'), 'https://example.com/\n');
  const cases: Array<[string[], number, string | RegExp]> = [
    [['--dir', 'nope'], 1, /^sitemapkit: cannot read folder ".*\/nope": it does not exist\n$/],
    [['--dir', 'urls.txt'], 1, /^sitemapkit: cannot read folder ".*\/urls\.txt": it is not a folder\n$/],
    [['--dir', 'site', '-i', 'urls.txt'], 2, 'sitemapkit: give --input or --dir, not both\n'],
    [[], 2, 'sitemapkit: give --input <file> (a list of URLs or records) or --dir <folder> (a static site)\n'],
    [['-i', 'urls.txt', '--clean-urls'], 2, 'sitemapkit: --clean-urls applies to --dir only\n'],
    [['-i', 'urls.txt', '--trailing-slash', 'never'], 2, 'sitemapkit: --trailing-slash applies to --dir only\n'],
    [['-i', 'urls.txt', '--workers', '2'], 2, 'sitemapkit: --workers applies to --dir only\n'],
    [['--dir', 'site', '--workers', '65'], 2, 'sitemapkit: --workers 65 must be a whole number from 0 to 64\n'],
    [['--dir', 'site', '--ignore-selector', 'main > p'], 2, /^sitemapkit: --ignore-selector "main > p" is not supported: " > p" is not a tag/],
    [['--dir', 'site', '--ignore-pattern', '(unclosed'], 2, /^sitemapkit: --ignore-pattern "\(unclosed" is not a valid regular expression \(/],
    [['--dir', 'site', '--include-type', 'p/df'], 2, 'sitemapkit: --include-type "p/df" is not a file extension (give one like pdf)\n'],
    [['--dir', 'site', '--include', ''], 2, 'sitemapkit: --include "" is empty: give a glob such as "blog/**"\n'],
    [['--dir', 'site', '--report', 'no/such/folder/report.jsonl'], 1, 'sitemapkit: cannot write report "no/such/folder/report.jsonl": its folder does not exist\n'],
    [['--dir', 'site', '--trailing-slash', 'sometimes'], 2, /option '--trailing-slash <policy>' argument 'sometimes' is invalid/],
  ];
  for (const [flags, code, stderr] of cases) {
    const result = await runCli(['build', '-o', 'out', ...BASE, ...flags], { cwd });
    assert.equal(result.code, code, flags.join(' '));
    if (typeof stderr === 'string') assert.equal(result.stderr, stderr, flags.join(' '));
    else assert.match(result.stderr, stderr, flags.join(' '));
    assert.equal(result.stdout, '', flags.join(' '));
    assert.deepEqual((await readdir(cwd)).sort(), ['site', 'urls.txt'], flags.join(' '));
  }
});

test('a folder with no page to list: exit 1, the verdicts said, nothing published but the report', async () => {
  const cwd = await tempDir();
  await mkdir(join(cwd, 'site'));
  await writeFile(join(cwd, 'site/index.html'), '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>');
  await writeFile(join(cwd, 'site/404.html'), '<html><body>404</body></html>');
  const result = await runCli(['build', '--dir', 'site', '-o', 'out', ...BASE, '--report', 'report.jsonl'], { cwd });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /Files in site: 2 \(0 listed; skipped: 1 noindex, 1 error-page\)\nEach file's verdict: report\.jsonl\n/);
  assert.doesNotMatch(result.stderr, /canonical on/);
  assert.deepEqual((await readdir(cwd)).sort(), ['report.jsonl', 'site']);
  assert.deepEqual((await readFile(join(cwd, 'report.jsonl'), 'utf8')).trimEnd().split('\n').map((line) => (JSON.parse(line) as { verdict: string }).verdict), ['error-page', 'noindex']);
});

test('20,000 pages with at most 96 files open (ulimit -n): no EMFILE, every page listed in order', { timeout: 180_000 }, async () => {
  const cwd = await tempDir();
  const root = join(cwd, 'site');
  for (let d = 0; d < 200; d++) {
    await mkdir(join(root, `s${d}`), { recursive: true });
    await Promise.all(Array.from({ length: 100 }, (_, i) => writeFile(join(root, `s${d}`, `p${i}.html`), `<!DOCTYPE html><html><head><title>Page ${d}-${i}</title><link rel="canonical" href="https://example.com/s${d}/p${i}.html"></head><body><p>Page ${d} ${i}</p></body></html>\n`)));
  }
  const bin = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
  const result = spawnSync('bash', ['-c', `ulimit -n 96 && exec "${process.execPath}" "${bin}" build --dir site -o out --base-url https://example.com/ --json`], { cwd, encoding: 'utf8', timeout: 170_000 });
  assert.equal(result.status, 0, result.stderr);
  const json = JSON.parse(result.stdout) as { urls: number; folder: { files: number } };
  assert.equal(json.urls, 20_000);
  assert.equal(json.folder.files, 20_000);
  const listed = locs(await readFile(join(cwd, 'out/sitemap.xml'), 'utf8'));
  assert.equal(listed.length, 20_000);
  // Path order, segment by segment: s0 before s1 before s10; in a folder, p0, p1, p10.
  assert.deepEqual(listed.slice(0, 3), ['https://example.com/s0/p0.html', 'https://example.com/s0/p1.html', 'https://example.com/s0/p10.html']);
  assert.deepEqual(listed.slice(100, 102), ['https://example.com/s1/p0.html', 'https://example.com/s1/p1.html']);
  assert.equal(listed.at(-1), 'https://example.com/s99/p99.html');
});

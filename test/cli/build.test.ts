import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';

let cwd: string;
before(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'sitemapkit-cli-'));
  await cp(new URL('../fixtures/input/', import.meta.url), cwd, { recursive: true });
});
after(() => rm(cwd, { recursive: true, force: true }));

const BASE = ['--base-url', 'https://example.com/'];

describe('sitemapkit build', () => {
  test('text input: exit 0, a human summary on stdout, the file in place', async () => {
    const result = await runCli(['build', '--input', 'urls.txt', '--out', 'out-text', ...BASE], { cwd });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Published 1 file in out-text: 4 URLs from 5 records \(1 dropped\)\n/);
    assert.match(result.stdout, /Entry point: https:\/\/example\.com\/sitemap\.xml/);
    assert.match(result.stdout, /INPUT +error ×1 +line skipped: it is not valid UTF-8\n +at urls\.txt:6\n/);
    assert.match(await readFile(join(cwd, 'out-text', 'sitemap.xml'), 'utf8'), /<loc>https:\/\/example\.com\/caf%C3%A9<\/loc>/);
  });

  test('JSON Lines with --json: one JSON object with files, urls and diagnostics naming file and line', async () => {
    const result = await runCli(['build', '-i', 'records.jsonl', '-o', 'out-json', ...BASE, '--json'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { files: { name: string }[]; urls: number; diagnostics: { rule: string; line: number; file: string }[] };
    assert.deepEqual(report.files.map((f) => f.name), ['sitemap.xml']);
    assert.equal(report.urls, 3);
    assert.deepEqual(report.diagnostics.map((d) => [d.rule, d.file, d.line]), [['INPUT', 'records.jsonl', 4], ['INPUT', 'records.jsonl', 6]]);
    assert.equal(result.stderr, '');
  });

  test('CSV input with gzip', async () => {
    const result = await runCli(['build', '-i', 'records.csv', '-o', 'out-csv', ...BASE, '--gzip', '--json'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as { urls: number; counts: Record<string, number> };
    assert.equal(report.urls, 3);
    assert.deepEqual(report.counts, { 'INPUT:warn': 1, 'R11:error': 1, 'INPUT:error': 1 });
    // The entry point stays sitemap.xml (an index) whatever --gzip says; --gzip-index compresses it too.
    assert.deepEqual((await readdir(join(cwd, 'out-csv'))).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1.xml.gz', 'sitemap.xml']);
    assert.match(result.stdout, /"name":"sitemap\.xml","url":"https:\/\/example\.com\/sitemap\.xml","kind":"index","entries":1,/);
    const human = await runCli(['build', '-i', 'records.csv', '-o', 'out-csv', ...BASE, '--gzip'], { cwd });
    assert.match(human.stdout, /Entry point: https:\/\/example\.com\/sitemap\.xml\n/);
    const indexToo = await runCli(['build', '-i', 'records.csv', '-o', 'out-csv-index', ...BASE, '--gzip-index', '--json'], { cwd });
    assert.equal(indexToo.code, 0, indexToo.stderr);
    assert.deepEqual((await readdir(join(cwd, 'out-csv-index'))).sort(), ['.sitemapkit-sitemap.json', 'sitemap.xml.gz']);
  });

  test('a CSV without a loc or url column: the finding, then one sentence and exit 1, with or without --json (before, an unhandled "Premature close")', async () => {
    const json = await runCli(['build', '-i', 'no-loc-column.csv', '-o', 'out-no-loc', ...BASE, '--json'], { cwd });
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.stdout), {
      published: false, files: [], urls: 0, records: 0, dropped: 0, duplicates: 0,
      diagnostics: [{ rule: 'INPUT', level: 'error', message: 'the CSV header has no "loc" (or "url") column; columns found: address, last modified, title', line: 1, file: 'no-loc-column.csv' }],
      counts: { 'INPUT:error': 1 },
      error: 'no valid URL to write (0 records read); nothing was published', code: 'SM_NOTHING_TO_WRITE',
    });
    assert.equal(json.stderr, 'sitemapkit: no valid URL to write (0 records read); nothing was published\n');
    const human = await runCli(['build', '-i', 'no-loc-column.csv', '-o', 'out-no-loc', ...BASE], { cwd });
    assert.equal(human.code, 1);
    assert.match(human.stderr, /INPUT error ×1 +the CSV header has no "loc" \(or "url"\) column; columns found: address, last modified, title\n +at no-loc-column\.csv:1\n/);
    assert.match(human.stderr, /\nsitemapkit: no valid URL to write \(0 records read\); nothing was published\n$/);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the read stream's late error, when there was one, came here
    await assert.rejects(readdir(join(cwd, 'out-no-loc')), { code: 'ENOENT' });
  });

  test('a CSV with extra columns: the header is no record, so records, dropped and urls are exact', async () => {
    const result = await runCli(['build', '-i', 'extra-columns.csv', '-o', 'out-extra', '--base-url', 'https://shop.example.com/', '--json'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual([report['records'], report['dropped'], report['urls']], [4, 0, 4]);
    assert.deepEqual(report['diagnostics'], [{ rule: 'INPUT', level: 'warn', message: 'CSV columns ignored: title', line: 1, file: 'extra-columns.csv' }]);
    const human = await runCli(['build', '-i', 'extra-columns.csv', '-o', 'out-extra', '--base-url', 'https://shop.example.com/'], { cwd });
    // The same records into the same folder: its file is left as it was, and the summary says so.
    assert.match(human.stdout, /^Published 1 file in out-extra \(it was there already, unchanged\): 4 URLs from 4 records\n {2}sitemap\.xml {2}4 URLs {19}\d+ B {2}unchanged\n/);
  });

  test('JSON Lines records may name their URL url, as CSV columns may; loc wins over url', async () => {
    const result = await runCli(['build', '-i', 'url-field.jsonl', '-o', 'out-url-field', '--base-url', 'https://shop.example.com/', '--json'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.deepEqual([report['records'], report['dropped'], report['urls']], [4, 1, 3]);
    assert.deepEqual(report['diagnostics'], [
      { rule: 'INPUT', level: 'warn', message: 'unknown field "url" ignored', line: 3, url: 'https://shop.example.com/hats', file: 'url-field.jsonl' },
      { rule: 'R6', level: 'error', message: 'record dropped: "loc" is missing', line: 4, field: 'loc', file: 'url-field.jsonl' },
    ]);
    const xml = await readFile(join(cwd, 'out-url-field', 'sitemap.xml'), 'utf8');
    assert.deepEqual([...xml.matchAll(/<url><loc>([^<]*)/g)].map((m) => m[1]), ['https://shop.example.com/', 'https://shop.example.com/boots', 'https://shop.example.com/hats']);
  });

  test('input that is no text is refused with one sentence naming what it looks like; nothing is published (before, junk URLs and exit 0)', async () => {
    let state = 42;
    await writeFile(join(cwd, 'random.bin'), Uint8Array.from({ length: 65_536 }, () => (state = (state * 1103515245 + 12345) >>> 0) >>> 24));
    const cases: [string, string][] = [
      ['logo.png', 'input "logo.png" is a PNG image'],
      ['export.zip', 'input "export.zip" is a zip archive (an .xlsx, .docx or .ods file is one too; export it as CSV)'],
      ['random.bin', 'input "random.bin" is binary data (it holds NUL bytes)'],
    ];
    for (const [name, what] of cases) {
      const result = await runCli(['build', '-i', name, '-o', 'out-binary', ...BASE], { cwd });
      assert.deepEqual(result, { code: 1, stdout: '', stderr: `sitemapkit: ${what}, not text: build reads a list of URLs, JSON Lines or CSV\n` }, name);
    }
    const json = await runCli(['build', '-i', '-', '-o', 'out-binary', ...BASE, '--format', 'text', '--json'], { cwd, stdin: '\u0000\u0001binary' });
    assert.deepEqual(JSON.parse(json.stdout), { published: false, error: 'standard input is binary data (it holds NUL bytes), not text: build reads a list of URLs, JSON Lines or CSV', code: 'SM_INPUT_NOT_TEXT' });
    await assert.rejects(readdir(join(cwd, 'out-binary')), { code: 'ENOENT' });
  });

  test('gzipped input is read as the text inside, its format from the name without .gz', async () => {
    const result = await runCli(['build', '-i', 'urls.txt.gz', '-o', 'out-gz-input', ...BASE, '--json'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((JSON.parse(result.stdout) as { urls: number; records: number }).urls, 3);
    // Each into a folder of its own, so neither finds the other's file there already (it would be `unchanged`).
    const jsonl = await runCli(['build', '-i', 'records.jsonl.gz', '-o', 'out-gz-jsonl', ...BASE, '--json'], { cwd });
    const plain = await runCli(['build', '-i', 'records.jsonl', '-o', 'out-gz-plain', ...BASE, '--json'], { cwd });
    assert.equal(jsonl.code, 0, jsonl.stderr);
    const report = (text: string) => {
      const { diagnostics, ...rest } = JSON.parse(text) as { diagnostics: { file: string }[] };
      return { ...rest, diagnostics: diagnostics.map(({ file: _file, ...d }) => d) };
    };
    assert.deepEqual(report(jsonl.stdout), report(plain.stdout));
  });

  test('standard input, format sniffed or given', async () => {
    const jsonl = await runCli(['build', '-i', '-', '-o', 'out-stdin', ...BASE, '--json'], { cwd, stdin: '{"loc":"https://example.com/x"}\n' });
    assert.equal(jsonl.code, 0, jsonl.stderr);
    assert.equal((JSON.parse(jsonl.stdout) as { urls: number }).urls, 1);
    const text = await runCli(['build', '-i', '-', '-o', 'out-stdin', ...BASE, '--format', 'text', '--json'], { cwd, stdin: 'https://example.com/y\nhttps://example.com/z\n' });
    assert.equal((JSON.parse(text.stdout) as { urls: number }).urls, 2);
  });

  test('more URLs than --max-urls: numbered files and sitemap.xml as their index', async () => {
    const result = await runCli(['build', '-i', 'urls.txt', '-o', 'out-split', ...BASE, '--max-urls', '2', '--json'], { cwd });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((await readdir(join(cwd, 'out-split'))).sort(), ['.sitemapkit-sitemap.json', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap.xml']);
  });

  test('--strict with errors: exit 1, findings shown, nothing published', async () => {
    const result = await runCli(['build', '-i', 'records.jsonl', '-o', 'out-strict', ...BASE, '--strict'], { cwd });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /INPUT +error ×2/);
    assert.match(result.stderr, /sitemapkit: --strict: 2 errors in the input; nothing was published\n$/);
    // Not even the folder: a run that publishes nothing leaves no trace.
    await assert.rejects(readdir(join(cwd, 'out-strict')), { code: 'ENOENT' });
  });

  test('--strict --json reports published: false', async () => {
    const result = await runCli(['build', '-i', 'records.jsonl', '-o', 'out-strict', ...BASE, '--strict', '--json'], { cwd });
    assert.equal(result.code, 1);
    assert.equal((JSON.parse(result.stdout) as { published: boolean }).published, false);
  });

  test('--out naming a file: one sentence and exit 1, with or without --json; the file is left as it was', async () => {
    const before = await readFile(join(cwd, 'urls.txt'));
    const human = await runCli(['build', '-i', 'urls.txt', '-o', 'urls.txt', ...BASE], { cwd });
    assert.equal(human.code, 1);
    assert.equal(human.stderr, `sitemapkit: cannot write to output folder "${join(cwd, 'urls.txt')}": it is a file, not a folder\n`);
    const json = await runCli(['build', '-i', 'urls.txt', '-o', 'urls.txt', ...BASE, '--json'], { cwd });
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.stdout), { published: false, error: `cannot write to output folder "${join(cwd, 'urls.txt')}": it is a file, not a folder`, code: 'SM_OUTPUT_UNWRITABLE' });
    assert.deepEqual(await readFile(join(cwd, 'urls.txt')), before);
  });

  test("a sitemap.xml another tool wrote in --out is not replaced: exit 1, naming it, and the folder is left as it was", async () => {
    const out = join(cwd, 'out-foreign');
    await rm(out, { recursive: true, force: true });
    await cp(new URL('../fixtures/input/', import.meta.url), out, { recursive: true, filter: (from) => !from.endsWith('.csv') });
    await writeFile(join(out, 'sitemap.xml'), '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>');
    const before = (await readdir(out)).sort();
    const result = await runCli(['build', '-i', 'urls.txt', '-o', 'out-foreign', ...BASE, '--json'], { cwd });
    assert.equal(result.code, 1);
    const { error, code } = JSON.parse(result.stdout) as { error: string; code: string };
    assert.equal(code, 'SM_OUTPUT_CONFLICT');
    assert.equal(error, `"sitemap.xml" in "${out}" is a file that sitemapkit did not write (the "sitemap" set's .sitemapkit-sitemap.json does not list it), so nothing was published: remove it, or stop the tool that wrote it from writing it, or choose another file name stem (--filename)`);
    assert.deepEqual((await readdir(out)).sort(), before);
    assert.match(await readFile(join(out, 'sitemap.xml'), 'utf8'), /<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9"\/>$/);
  });

  test('nothing valid to write: exit 1 with one sentence', async () => {
    await writeFile(join(cwd, 'bad.txt'), 'mailto:a@example.com\nftp://example.com/\n');
    const result = await runCli(['build', '-i', 'bad.txt', '-o', 'out-bad', ...BASE], { cwd });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /sitemapkit: no valid URL to write \(2 records read\); nothing was published\n$/);
  });

  test('unreadable input: exit 1, naming the file', async () => {
    const missing = await runCli(['build', '-i', 'nope.txt', '-o', 'out', ...BASE], { cwd });
    assert.deepEqual(missing, { code: 1, stdout: '', stderr: 'sitemapkit: cannot read input "nope.txt": no such file\n' });
    const folder = await runCli(['build', '-i', '.', '-o', 'out', ...BASE], { cwd });
    assert.equal(folder.stderr, 'sitemapkit: cannot read input ".": it is a folder\n');
  });

  test('unwritable --out: exit 1, naming the folder', async () => {
    const result = await runCli(['build', '-i', 'urls.txt', '-o', 'urls.txt/out', ...BASE], { cwd });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^sitemapkit: cannot write to output folder ".*urls\.txt\/out": a file is in the way where a folder is needed\n$/);
  });

  test('--json prints one object on standard output when the run fails before it has a summary too', async () => {
    const cases: [string[], number, Record<string, unknown>][] = [
      [['build', '-i', 'missing.txt', '-o', 'out-failed', ...BASE, '--json'], 1, { published: false, code: 'SM_INPUT_UNREADABLE', error: 'cannot read input "missing.txt": no such file' }],
      [['build', '-i', 'urls.txt', '-o', 'out-failed', '--base-url', 'example.com', '--json'], 2, { published: false, code: 'SM_BAD_BASE_URL', error: 'base URL "example.com" is not an absolute URL (e.g. https://example.com/)' }],
      [['build', '-i', 'urls.txt', '-o', 'urls.txt/out', ...BASE, '--json'], 1, { published: false, code: 'SM_OUTPUT_UNWRITABLE' }],
      [['validate', 'missing.xml', '--json'], 1, { valid: false, code: 'SM_INPUT_UNREADABLE', error: 'cannot read "missing.xml": no such file' }],
      [['parse', 'missing.xml', '--json'], 1, { code: 'SM_INPUT_UNREADABLE' }],
    ];
    for (const [argv, code, expected] of cases) {
      const result = await runCli(argv, { cwd });
      assert.equal(result.code, code, argv.join(' '));
      const printed = JSON.parse(result.stdout) as Record<string, unknown>;
      for (const [key, value] of Object.entries(expected)) assert.equal(printed[key], value, `${argv.join(' ')}: ${key}`);
      assert.equal(result.stderr, `sitemapkit: ${String(printed['error'])}\n`);
    }
    await assert.rejects(readdir(join(cwd, 'out-failed')), { code: 'ENOENT' });
  });

  test('usage errors exit 2', async () => {
    const missing = await runCli(['build', '-i', 'urls.txt', '-o', 'out'], { cwd });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /required option '-b, --base-url <url>' not specified/);
    const badBase = await runCli(['build', '-i', 'urls.txt', '-o', 'out', '--base-url', 'example.com'], { cwd });
    assert.deepEqual(badBase, { code: 2, stdout: '', stderr: 'sitemapkit: base URL "example.com" is not an absolute URL (e.g. https://example.com/)\n' });
    const fileBase = await runCli(['build', '-i', 'urls.txt', '-o', 'out', '--base-url', 'https://example.com/sitemap.xml'], { cwd });
    assert.deepEqual(fileBase, { code: 2, stdout: '', stderr: 'sitemapkit: base URL "https://example.com/sitemap.xml" names a file; give its folder: --base-url https://example.com/\n' });
    const badNumber = await runCli(['build', '-i', 'urls.txt', '-o', 'out', ...BASE, '--max-urls', 'many'], { cwd });
    assert.equal(badNumber.code, 2);
    assert.match(badNumber.stderr, /--max-urls <n>' argument 'many' is invalid\. expected a whole number/);
    const tooMany = await runCli(['build', '-i', 'urls.txt', '-o', 'out', ...BASE, '--max-urls', '60000'], { cwd });
    assert.deepEqual(tooMany, { code: 2, stdout: '', stderr: 'sitemapkit: maxUrlsPerFile (--max-urls) must be a whole number from 1 to 50000, got 60000\n' });
    assert.equal((await runCli(['build', '--bogus'], { cwd })).code, 2);
    assert.equal((await runCli(['frobnicate'], { cwd })).code, 2);
    assert.equal((await runCli(['build', '-i', 'urls.txt', '-o', 'out', ...BASE, '--format', 'xml'], { cwd })).code, 2);
  });

  test('--json on a usage error prints one object on standard output too, in the failure shape of the command, code SM_USAGE, exit 2', async () => {
    const cases: [string[], Record<string, unknown>][] = [
      [['build', '-i', 'urls.txt', '-o', 'out', ...BASE, '--bogus', '--json'], { published: false, error: "unknown option '--bogus'", code: 'SM_USAGE' }],
      [['build', '-i', 'urls.txt', '-o', 'out', ...BASE, '--max-urls', 'abc', '--json'], { published: false, error: "option '--max-urls <n>' argument 'abc' is invalid. expected a whole number", code: 'SM_USAGE' }],
      [['build', '-i', 'urls.txt', '-o', 'out', '--json'], { published: false, error: "required option '-b, --base-url <url>' not specified", code: 'SM_USAGE' }],
      [['validate', '--json'], { valid: false, error: "missing required argument 'source'", code: 'SM_USAGE' }],
      [['parse', 'a.xml', '--jsn', '--json'], { error: "unknown option '--jsn' (did you mean --json?)", code: 'SM_USAGE' }],
      [['discover', '--json'], { error: "missing required argument 'site-url'", code: 'SM_USAGE' }],
      [['frobnicate', '--json'], { error: "unknown command 'frobnicate'", code: 'SM_USAGE' }],
    ];
    for (const [argv, expected] of cases) {
      const result = await runCli(argv, { cwd });
      assert.equal(result.code, 2, argv.join(' '));
      assert.deepEqual(JSON.parse(result.stdout), expected, argv.join(' '));
      assert.match(result.stderr, /^error: /, argv.join(' '));
    }
    // Without --json (or with it only after --, as an operand), standard output stays empty.
    assert.equal((await runCli(['build', '-i', 'urls.txt', '-o', 'out', ...BASE, '--bogus'], { cwd })).stdout, '');
    assert.equal((await runCli(['parse', '--bogus', '--', '--json'], { cwd })).stdout, '');
    await assert.rejects(readdir(join(cwd, 'out')), { code: 'ENOENT' });
  });

  test('a named pipe as input: the progress bar counts records, with no size to fill (before, a full bar at 0 records)', async () => {
    const fifo = join(cwd, 'urls.fifo');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    createWriteStream(fifo).end('https://example.com/a\nhttps://example.com/b\n');
    const result = await runCli(['build', '--input', 'urls.fifo', '--out', 'out-fifo', ...BASE], { cwd, tty: 'stderr' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /reading 2 records, 2 URLs/);
    assert.doesNotMatch(result.stderr, /%/);
  });

  test('--help and --version exit 0 on stdout', async () => {
    const help = await runCli(['build', '--help'], { cwd });
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--base-url <url>/);
    const version = await runCli(['--version'], { cwd });
    const { version: packageVersion } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.deepEqual(version, { code: 0, stdout: `${packageVersion}\n`, stderr: '' });
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { startServer } from '../helpers/http-server.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/read/', import.meta.url));
const cli = (argv: string[], stdin?: string) => runCli(argv, { cwd: FIXTURES, ...(stdin === undefined ? {} : { stdin }) });

describe('sitemapkit parse', () => {
  it('prints one URL a line by default, a summary on stderr', async () => {
    const { code, stdout, stderr } = await cli(['parse', 'gzipped.xml.gz']);
    assert.equal(code, 0);
    assert.equal(stdout, 'https://www.example.com/gz\n');
    assert.match(stderr, /gzipped\.xml\.gz: urlset, 1 URL, .* \(gzip\)/);
  });
  it('a .br file is read as Brotli, by its name; so is a .br URL served as it is, and a body sent with Content-Encoding: br', async () => {
    const locs = 'https://www.example.com/\nhttps://www.example.com/search?q=a&page=2\nhttps://www.example.com/caf%C3%A9?x=1&y=2\nhttps://www.example.com/padded\n';
    const file = await cli(['parse', 'urlset-basic.xml.br']);
    assert.deepEqual([file.code, file.stdout], [0, locs]);
    assert.match(file.stderr, /^urlset-basic\.xml\.br: urlset, 4 URLs, /);
    const validated = await cli(['validate', 'urlset-basic.xml.br']);
    assert.match(validated.stdout, /^urlset-basic\.xml\.br: valid urlset, 4 URLs, 631 B \(Brotli\)\n/);
    const br = readFileSync(join(FIXTURES, 'urlset-basic.xml.br'));
    const server = await startServer((request, response) => {
      response.writeHead(200, request.url === '/encoded.xml' ? { 'content-encoding': 'br', 'content-type': 'application/xml' } : { 'content-type': 'application/octet-stream' });
      response.end(br);
    });
    try {
      for (const path of ['/sitemap.xml.br', '/encoded.xml']) assert.deepEqual((await cli(['parse', `${server.origin}${path}`])).stdout, locs);
    } finally {
      await server.close();
    }
  });
  it('--json: kind, urls or sitemaps, diagnostics; exit 1 on error findings', async () => {
    const { code, stdout } = await cli(['parse', 'index.xml', '--json', '--base', 'https://www.example.com/sitemap.xml']);
    const result = JSON.parse(stdout) as { kind: string; urls: unknown[]; sitemaps: { loc: string }[]; diagnostics: { rule: string; line: number; column: number; file: string }[] };
    assert.equal(result.kind, 'sitemapindex');
    assert.deepEqual(result.urls, []);
    assert.deepEqual(result.sitemaps.map((s) => s.loc), ['https://www.example.com/sitemap-1.xml.gz', 'https://www.example.com/sitemap-2.xml.gz']);
    assert.deepEqual(result.diagnostics.map((d) => [d.rule, d.line, d.file]), [['R8', 4, 'index.xml']]);
    assert.equal(code, 1);
  });
  it('a line break inside <loc> is printed percent-encoded: one URL a line still', async () => {
    const xml = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/new\nline</loc></url><url><loc>https://a.example/cr&#13;x&#x2028;y</loc></url></urlset>';
    const { stdout } = await cli(['parse', '-'], xml);
    assert.equal(stdout, 'https://a.example/new%0Aline\nhttps://a.example/cr%0Dx%E2%80%A8y\n');
  });
  it('--ndjson streams one record a line; - reads standard input', async () => {
    const { code, stdout } = await cli(['parse', '-', '--ndjson'], 'https://a.example/1\nhttps://a.example/2\n');
    assert.equal(code, 0);
    assert.deepEqual(stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown), [{ loc: 'https://a.example/1' }, { loc: 'https://a.example/2' }]);
  });
  it('a file cut off part way (a dropped connection): what was read before is printed, then the failure, exit 1', async () => {
    const server = await startServer((_request, response, origin) => {
      const urls = [1, 2, 3].map((n) => `<url><loc>${origin}/p/${n}</loc></url>`).join('');
      response.writeHead(200, { 'content-length': '100000' });
      response.write(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}<url><loc>${origin}/p/`);
      setTimeout(() => response.destroy(), 20);
    });
    try {
      const url = `${server.origin}/cut.xml`;
      const failure = `sitemapkit: ${url}: body not read to the end: terminated: other side closed\n`;
      const plain = await cli(['parse', url]);
      assert.deepEqual([plain.code, plain.stdout], [1, [1, 2, 3].map((n) => `${server.origin}/p/${n}\n`).join('')]);
      assert.match(plain.stderr, /^http:\/\/127\.0\.0\.1:\d+\/cut\.xml: urlset, 3 URLs, \d+ B\n/);
      assert.ok(plain.stderr.endsWith(`\n${failure}`), plain.stderr);
      const json = await cli(['parse', url, '--json']);
      assert.equal(json.code, 1);
      assert.equal(json.stderr, failure);
      const result = JSON.parse(json.stdout) as { kind: string; urls: { loc: string }[]; error: string };
      assert.deepEqual([result.kind, result.urls.length, result.error], ['urlset', 3, failure.slice('sitemapkit: '.length, -1)]);
      // validate, with and without the schema: the findings on what was read, never "valid", then the failure.
      for (const xsd of [[], ['--xsd']]) {
        const checked = await cli(['validate', url, '--json', ...xsd]);
        assert.deepEqual([checked.code, checked.stderr], [1, failure]);
        const verdict = JSON.parse(checked.stdout) as { valid: boolean; kind: string; entries: number; error: string };
        assert.deepEqual([verdict.valid, verdict.kind, verdict.entries, verdict.error], [false, 'urlset', 3, failure.slice('sitemapkit: '.length, -1)]);
      }
      const human = await cli(['validate', url]);
      assert.equal(human.code, 1);
      assert.match(human.stdout, /^http:\/\/127\.0\.0\.1:\d+\/cut\.xml: NOT READ WHOLE urlset, 3 URLs, \d+ B\n/);
      assert.equal(human.stderr, failure);
    } finally {
      await server.close();
    }
  });
  it('validate --xsd of a download larger than --max-bytes: the schema checks what was read, as for a file', async () => {
    const server = await startServer((_request, response, origin) => {
      const urls = Array.from({ length: 100 }, (_, n) => `<url><loc>${origin}/p/${n}</loc></url>\n`).join('');
      response.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`);
    });
    try {
      const { code, stdout } = await cli(['validate', `${server.origin}/big.xml`, '--max-bytes', '1000', '--xsd', '--json']);
      const result = JSON.parse(stdout) as { valid: boolean; error?: string; diagnostics: { rule: string; message: string }[] };
      assert.deepEqual([code, result.valid, result.error], [1, false, undefined]);
      assert.deepEqual(result.diagnostics.map((d) => d.rule), ['INPUT', 'R2', 'XSD']);
      assert.match(result.diagnostics[2]?.message ?? '', /Premature end of data/);
    } finally {
      await server.close();
    }
  });
  it('an unreadable file is one clear sentence, exit 1; conflicting flags exit 2', async () => {
    const missing = await cli(['parse', 'nope.xml']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'sitemapkit: cannot read "nope.xml": no such file\n');
    // A folder opens, and failed only at the first read: an uncaught EISDIR.
    for (const command of ['parse', 'validate']) assert.deepEqual(await cli([command, '.']), { code: 1, stdout: '', stderr: 'sitemapkit: cannot read ".": it is a folder\n' });
    assert.equal((await cli(['parse', 'index.xml', '--json', '--ndjson'])).code, 2);
    // A cap past what one string of a hostile file may reach (before: a RangeError from deep inside).
    assert.deepEqual(await cli(['parse', 'index.xml', '--max-bytes', '900000000']), { code: 2, stdout: '', stderr: 'sitemapkit: maxBytes (--max-bytes) must be a whole number from 0 to 524288000, got 900000000\n' });
    // A --base the URL parser refuses, though it starts like one: a usage error, not a TypeError.
    for (const base of ['http://', 'https://exa mple.com/', 'http://a:99999/', 'http://[::1']) {
      for (const command of ['parse', 'validate']) assert.deepEqual(await cli([command, 'index.xml', '--base', base]), { code: 2, stdout: '', stderr: `sitemapkit: --base "${base}" is not an absolute http(s) URL\n` });
    }
  });
});

describe('sitemapkit validate', () => {
  it('--xsd refuses a file larger than 50 MiB (the protocol\'s limit) with an XSD warning naming its size and the limit; the rule checks still run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-xsd-'));
    try {
      const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url>${' '.repeat(50 * 1024 * 1024)}</urlset>`;
      writeFileSync(join(dir, 'big.xml.gz'), gzipSync(xml));
      const { code, stdout } = await runCli(['validate', 'big.xml.gz', '--xsd', '--json'], { cwd: dir });
      const result = JSON.parse(stdout) as { valid: boolean; entries: number; diagnostics: { rule: string; level: string; message: string }[] };
      assert.deepEqual([code, result.valid, result.entries], [1, false, 1]);
      assert.deepEqual(result.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`), [
        `R3 error the file is ${xml.length} bytes uncompressed; a sitemap may be at most 52428800`,
        // The 50 MiB of blank is one text: read no further than 8 MiB.
        'R3 error a text of 52428800 characters, longer than any sitemap field holds (a URL at most 2,048): its first 8388608 are read, the rest is skipped unchecked',
        `XSD warn not checked against the schema: the file is ${xml.length} bytes, and --xsd checks files of up to 52428800 bytes`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('--xsd with a cap: gzip a little larger than what it holds (stored blocks) is not cut into', async () => {
    const entries = Array.from({ length: 2_000 }, (_, n) => `<url><loc>https://a.example/p/${n}</loc></url>`).join('');
    // 131,050 bytes, so that its stored gzip (33 bytes more) goes past the second 64 KiB piece a file is read in.
    const open = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><!--';
    const xml = `${open}${'x'.repeat(131_050 - open.length - entries.length - 12)}-->${entries}</urlset>`;
    const stored = gzipSync(xml, { level: 0 });
    assert.deepEqual([xml.length, stored.length], [131_050, 131_083]);
    const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-xsd-'));
    try {
      writeFileSync(join(dir, 'stored.xml.gz'), stored);
      const result = await runCli(['validate', 'stored.xml.gz', '--xsd', '--max-bytes', String(xml.length + 10)], { cwd: dir });
      assert.deepEqual([result.code, result.stdout.split('\n')[0]], [0, 'stored.xml.gz: valid urlset, 2,000 URLs, 128.0 KiB (gzip)']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a valid file: exit 0', async () => {
    const { code, stdout } = await cli(['validate', 'urlset-extensions.xml', '--json', '--base', 'https://www.example.com/sitemap.xml']);
    const result = JSON.parse(stdout) as { valid: boolean; diagnostics: unknown[] };
    assert.equal(result.valid, true, stdout);
    assert.equal(code, 0);
  });
  it('findings grouped by rule with line:column, exit 1; --xsd adds the schema findings', async () => {
    const plain = await cli(['validate', 'structure-faults.xml']);
    assert.equal(plain.code, 1);
    assert.match(plain.stdout, /structure-faults\.xml: INVALID urlset, 4 URLs/);
    // A rule that covers faults of several kinds lists each kind with its own message and places.
    assert.match(plain.stdout, /R6 +error ×3 +more than one <loc>; the first is kept\n +at structure-faults\.xml:4:48\n +<url> without <loc>; skipped\n +at structure-faults\.xml:5:37\n +<title> does not belong/);
    assert.match(plain.stdout, /R7 +error ×2 +<loc> is out of order.*\n +at structure-faults\.xml:3:\d+\n +<priority> comes after.*\n +at structure-faults\.xml:6:\d+\n/);
    assert.match(plain.stdout, /R23 +error ×1 +<sitemap> does not belong in <urlset>.*\n +at structure-faults\.xml:7:3\n/);
    assert.doesNotMatch(plain.stdout, /XSD/);
    const withSchema = await cli(['validate', 'structure-faults.xml', '--xsd', '--json']);
    const result = JSON.parse(withSchema.stdout) as { valid: boolean; diagnostics: { rule: string; line?: number }[] };
    assert.equal(result.valid, false);
    // One for each of lines 3 to 7, where the schema meets an element it does not expect.
    assert.deepEqual(result.diagnostics.filter((d) => d.rule === 'XSD').map((d) => d.line), [3, 4, 5, 6, 7]);
  });
  it('--xsd on UTF-16 and Latin-1 files: the schema sees the text as decoded, so only the encoding finding (R1), no parser errors', async () => {
    for (const name of ['utf16le-bom.xml', 'utf16be-bom.xml', 'latin1.xml']) {
      const result = JSON.parse((await cli(['validate', name, '--xsd', '--json'])).stdout) as { diagnostics: { rule: string; level: string }[] };
      assert.deepEqual(result.diagnostics.filter((d) => d.level === 'error').map((d) => d.rule), ['R1'], name);
    }
    // The mislabel a schema check would be fooled by most: a Latin-1 declaration on a file whose bytes are UTF-16.
    const declared = `<?xml version="1.0" encoding='ISO-8859-1'?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc><priority>0.5</priority></url></urlset>`;
    const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-xsd-'));
    try {
      writeFileSync(join(dir, 'le.xml'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(declared, 'utf16le')]));
      const result = JSON.parse((await runCli(['validate', 'le.xml', '--xsd', '--json'], { cwd: dir })).stdout) as { diagnostics: { rule: string }[] };
      assert.deepEqual(result.diagnostics.map((d) => d.rule), ['R1']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('--xsd on a file that is not well-formed: xmllint\'s parser error once, at its line (not its excerpt and caret as findings of their own)', async () => {
    const { stdout } = await cli(['validate', '-', '--xsd', '--json'], '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url>\n<url><loc>https://a.example/x</lo></url></urlset>');
    const result = JSON.parse(stdout) as { diagnostics: { rule: string; line?: number; message: string }[] };
    assert.deepEqual(result.diagnostics.filter((d) => d.rule === 'XSD').map((d) => [d.line, d.message]), [[2, 'parser error : Opening and ending tag mismatch: loc line 2 and lo']]);
  });
});

describe('issue #30: findings not listed are said to be', () => {
  const entries = Array.from({ length: 1200 }, (_, i) => `<url><loc>https://a.example/p/${i}</loc><lastmod>31/12/2024</lastmod></url>`).join('\n');
  const wrongDates = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
  it('validate --json: past the first 1,000 findings, diagnosticsOmitted says how many more, as build does', async () => {
    const { code, stdout } = await cli(['validate', '-', '--json'], wrongDates);
    assert.equal(code, 1);
    const result = JSON.parse(stdout) as { diagnostics: unknown[]; counts: Record<string, number>; diagnosticsOmitted?: number };
    assert.deepEqual([result.diagnostics.length, result.counts, result.diagnosticsOmitted], [1000, { 'R11:error': 1200 }, 200]);
  });
  it('validate in text: the count listed and the count not listed add up to the rule\'s count', async () => {
    const { stdout } = await cli(['validate', '-'], wrongDates);
    assert.ok(stdout.endsWith([
      '  R11   error ×1,200   lastmod: "31/12/2024" is not a W3C Datetime (e.g. 2024-05-31 or 2024-05-31T12:00:00+02:00)  (×1,000)',
      '                       at stdin:3:38, stdin:4:38, stdin:5:38, stdin:6:38, stdin:7:38, …',
      '                       … and 200 more not listed',
      '',
    ].join('\n')), stdout);
  });
  it('parse --json on a video sitemap with 400 bare &: every entry, 100 findings listed, diagnosticsOmitted 300', async () => {
    const { stdout } = await cli(['parse', 'video-bare-ampersands.xml', '--json']);
    const result = JSON.parse(stdout) as { urls: unknown[]; diagnostics: unknown[]; counts: Record<string, number>; diagnosticsOmitted?: number };
    assert.deepEqual([result.urls.length, result.diagnostics.length, result.counts, result.diagnosticsOmitted], [400, 100, { 'R2:error': 400 }, 300]);
  });
});

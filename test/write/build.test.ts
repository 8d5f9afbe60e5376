import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSitemaps, isSitemapError, type BuildOptions, type SitemapRecordInput, type SourceItem } from '../../src/index.ts';
import { memorySink } from '../helpers/memory-sink.ts';

const BASE = 'https://example.com/';

function items(records: Iterable<SitemapRecordInput | string>): SourceItem[] {
  return [...records].map((record, i) => ({ line: i + 1, record }));
}

async function build(records: Iterable<SitemapRecordInput | string>, options: Partial<BuildOptions> = {}) {
  const sink = memorySink();
  const summary = await buildSitemaps(items(records), { baseUrl: BASE, ...options }, sink);
  return { summary, files: sink.files };
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
}

describe('buildSitemaps', () => {
  test('one file is sitemap.xml, declaring only the namespaces it uses (R24)', async () => {
    const { summary, files } = await build(['https://example.com/a', 'https://example.com/b']);
    assert.deepEqual([...files.keys()], ['sitemap.xml']);
    const xml = files.get('sitemap.xml') ?? '';
    assert.equal(xml, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/b</loc></url>\n</urlset>\n');
    assert.deepEqual(summary.files, [{ name: 'sitemap.xml', url: 'https://example.com/sitemap.xml', kind: 'urlset', entries: 2, bytes: Buffer.byteLength(xml) }]);
  });

  test('splits at the URL limit; the index lists the children with the newest lastmod of each (R19, R26)', async () => {
    const records = [
      { loc: 'https://example.com/1', lastmod: '2026-01-05' },
      { loc: 'https://example.com/2', lastmod: '2026-01-09T10:00:00+05:00' },
      { loc: 'https://example.com/3', lastmod: '2026-01-09T04:00:00Z' },
      { loc: 'https://example.com/4' },
      { loc: 'https://example.com/5', lastmod: '2025-12-31' },
    ];
    const { summary, files } = await build(records, { maxUrlsPerFile: 2 });
    assert.deepEqual([...files.keys()].sort(), ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);
    assert.deepEqual(locs(files.get('sitemap-1.xml') ?? ''), ['https://example.com/1', 'https://example.com/2']);
    const index = files.get('sitemap.xml') ?? '';
    assert.equal(index, '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      '<sitemap><loc>https://example.com/sitemap-1.xml</loc><lastmod>2026-01-09T10:00:00+05:00</lastmod></sitemap>\n' +
      '<sitemap><loc>https://example.com/sitemap-2.xml</loc><lastmod>2026-01-09T04:00:00Z</lastmod></sitemap>\n' +
      '<sitemap><loc>https://example.com/sitemap-3.xml</loc><lastmod>2025-12-31</lastmod></sitemap>\n</sitemapindex>\n');
    assert.equal(summary.files.at(-1)?.kind, 'index');
    assert.equal(summary.files.at(-1)?.name, 'sitemap.xml');
  });

  test('the newest lastmod compares instants, not strings', async () => {
    const { files } = await build([
      { loc: 'https://example.com/1', lastmod: '2026-01-09T23:00:00-05:00' },
      { loc: 'https://example.com/2', lastmod: '2026-01-10T01:00:00Z' },
      { loc: 'https://example.com/3' },
    ], { maxUrlsPerFile: 2 });
    assert.match(files.get('sitemap.xml') ?? '', /sitemap-1\.xml<\/loc><lastmod>2026-01-09T23:00:00-05:00</);
  });

  test('splits before the byte limit with long URLs, counting the final bytes (R3)', async () => {
    const maxBytes = 10_000;
    const records = Array.from({ length: 40 }, (_, i) => `https://example.com/${String(i).padStart(3, '0')}/${'ü'.repeat(300)}`);
    const { summary, files } = await build(records, { maxBytesPerFile: maxBytes });
    const children = summary.files.filter((f) => f.kind === 'urlset');
    // Five records of 1,847 bytes and the 110 of the urlset's start and end fit in 10,000 bytes; six would not.
    assert.equal(children.length, 8);
    let total = 0;
    for (const file of children) {
      const xml = files.get(file.name) ?? '';
      assert.equal(Buffer.byteLength(xml), file.bytes);
      assert.ok(file.bytes <= maxBytes, `${file.name} has ${file.bytes} bytes`);
      // the next record would not have fitted: each file is as full as it can be
      total += locs(xml).length;
    }
    assert.equal(total, 40);
    const perRecord = Buffer.byteLength(`<url><loc>https://example.com/000/${'%C3%BC'.repeat(300)}</loc></url>\n`);
    const first = children[0];
    assert.ok(first !== undefined && first.bytes + perRecord > maxBytes, 'the first file was cut only when the next record would not fit');
  });

  test('a record larger than a whole file is dropped with R3', async () => {
    const { summary } = await build(['https://example.com/ok', `https://example.com/${'a'.repeat(2000)}`], { maxBytesPerFile: 1000 });
    assert.equal(summary.urls, 1);
    assert.deepEqual(summary.diagnostics.map((d) => [d.rule, d.line]), [['R3', 2]]);
  });

  test('news URLs are split at 1,000 per file (R37)', async () => {
    const news = { publication: { name: 'P', language: 'en' }, publication_date: '2026-11-22', title: 'T' };
    const records = Array.from({ length: 1001 }, (_, i) => ({ loc: `https://example.com/n${i}`, news }));
    const { summary } = await build(records, { now: () => Date.parse('2026-11-22T12:00:00Z') });
    assert.deepEqual(summary.files.map((f) => f.entries), [1000, 1, 2]);
  });

  test('duplicates are dropped after normalization, the first kept (R25)', async () => {
    const { summary, files } = await build(['https://example.com/ä', 'https://example.com/%C3%A4', ' https://EXAMPLE.com/%C3%A4 ']);
    assert.deepEqual(locs(files.get('sitemap.xml') ?? ''), ['https://example.com/%C3%A4']);
    assert.equal(summary.duplicates, 2);
    assert.deepEqual(summary.diagnostics.map((d) => [d.rule, d.line]), [['R25', 2], ['R25', 3]]);
  });

  test('the same input gives byte-identical files', async () => {
    const records = Array.from({ length: 120 }, (_, i) => ({ loc: `https://example.com/${i}`, lastmod: new Date(Date.UTC(2026, 0, 1 + (i % 28))) }));
    const first = await build(records, { maxUrlsPerFile: 50 });
    const second = await build(records, { maxUrlsPerFile: 50 });
    assert.deepEqual([...first.files], [...second.files]);
  });

  test('an xml-stylesheet line goes in every file when asked', async () => {
    const { files } = await build(['https://example.com/1', 'https://example.com/2'], { maxUrlsPerFile: 1, stylesheet: '/sitemap.xsl?v=1&x' });
    for (const xml of files.values()) assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<\?xml-stylesheet type="text\/xsl" href="\/sitemap.xsl\?v=1&amp;x"\?>\n/);
  });

  test('strict: any error fails the run, nothing is committed, and the findings come with the error', async () => {
    const sink = memorySink();
    await assert.rejects(
      buildSitemaps(items(['https://example.com/ok', { loc: 'https://example.com/x', priority: 3 }, 'https://elsewhere.example/']), { baseUrl: BASE, strict: true }, sink),
      (error: unknown) => {
        assert.ok(isSitemapError(error) && error.code === 'SM_STRICT_FAILED');
        assert.deepEqual(error.summary?.counts, { 'R14:error': 1, 'R16:error': 1 });
        return true;
      },
    );
    assert.equal(sink.files.size, 0);
    assert.ok(sink.aborted);
  });

  test('nothing valid to write is an error, not an empty sitemap (R6)', async () => {
    const sink = memorySink();
    await assert.rejects(buildSitemaps(items(['mailto:x@example.com']), { baseUrl: BASE }, sink), (error: unknown) => {
      assert.ok(isSitemapError(error) && error.code === 'SM_NOTHING_TO_WRITE');
      assert.deepEqual({ ...error.summary, diagnostics: error.summary?.diagnostics.map((d) => [d.rule, d.line]) }, {
        files: [], urls: 0, records: 1, dropped: 1, duplicates: 0, diagnostics: [['R8', 1]], counts: { 'R8:error': 1 },
      });
      return true;
    });
    assert.equal(sink.files.size, 0);
  });

  test('gzip compresses the URL files and keeps the entry point sitemap.xml, an index even over a single file; gzipIndex compresses it too', async () => {
    const cases: [Partial<BuildOptions>, number, string[], string[]][] = [
      [{ gzip: true }, 1, ['sitemap-1.xml.gz', 'sitemap.xml'], ['sitemap-1.xml.gz']],
      [{ gzip: true }, 3, ['sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap.xml'], ['sitemap-1.xml.gz', 'sitemap-2.xml.gz']],
      [{ gzip: true, gzipIndex: true }, 1, ['sitemap.xml.gz'], ['sitemap.xml.gz']],
      [{ gzipIndex: true }, 3, ['sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap.xml.gz'], ['sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap.xml.gz']],
      [{}, 1, ['sitemap.xml'], []],
      [{}, 3, ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap.xml'], []],
    ];
    for (const [options, n, names, gzipped] of cases) {
      const sink = memorySink();
      const records = Array.from({ length: n }, (_, i) => `https://example.com/${i}`);
      const summary = await buildSitemaps(items(records), { baseUrl: BASE, maxUrlsPerFile: 2, ...options }, sink);
      const label = `${JSON.stringify(options)}, ${n} URLs`;
      assert.deepEqual(summary.files.map((f) => f.name), names, label);
      assert.deepEqual([...sink.files.keys()].sort(), [...names].sort(), label);
      assert.deepEqual([...sink.gzipped].sort(), gzipped, label);
      const entry = summary.files.at(-1);
      if (names.length > 1) {
        assert.equal(entry?.kind, 'index', label);
        assert.deepEqual(locs(sink.files.get(entry?.name ?? '') ?? ''), names.slice(0, -1).map((name) => `${BASE}${name}`), label);
      }
    }
  });

  test('bad options fail before any work', async () => {
    const sink = memorySink();
    await assert.rejects(buildSitemaps([], { baseUrl: 'example.com' }, sink), { code: 'SM_BAD_BASE_URL' });
    await assert.rejects(buildSitemaps([], { baseUrl: 'ftp://example.com/' }, sink), { code: 'SM_BAD_BASE_URL' });
    await assert.rejects(buildSitemaps([], { baseUrl: BASE, maxUrlsPerFile: 50_001 }, sink), { code: 'SM_BAD_OPTION' });
    await assert.rejects(buildSitemaps([], { baseUrl: BASE, filename: '../x' }, sink), { code: 'SM_BAD_OPTION' });
  });

  test('a base URL naming a file is refused with its folder in the sentence; a folder with a dot in its name is a folder', async () => {
    const sink = memorySink();
    const files: [string, string][] = [
      ['https://example.com/sitemap.xml', 'https://example.com/'],
      ['https://example.com/shop/sitemap_index.xml.gz', 'https://example.com/shop/'],
      ['https://example.com/docs/urls.TXT', 'https://example.com/docs/'],
      ['https://example.com/index.html', 'https://example.com/'],
    ];
    for (const [baseUrl, folder] of files) {
      await assert.rejects(buildSitemaps([], { baseUrl }, sink), { code: 'SM_BAD_BASE_URL', message: `base URL "${baseUrl}" names a file; give its folder: --base-url ${folder}` }, baseUrl);
    }
    assert.equal(sink.files.size, 0);
    for (const baseUrl of ['https://example.com/api/v1.2', 'https://example.com/api/v1.2/', 'https://example.com/releases/2026.11', 'https://example.com/sitemap.xml/']) {
      const folder = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
      const { summary } = await build([`${folder}a`], { baseUrl });
      assert.deepEqual(summary.files.map((f) => f.url), [`${folder}sitemap.xml`], baseUrl);
    }
  });

  test('more sitemaps than an index may list is a clear error (R20)', async () => {
    const sink = memorySink();
    function* many(): Generator<SourceItem> {
      for (let i = 0; i < 50_001; i++) yield { line: i + 1, record: `https://example.com/${i}` };
    }
    await assert.rejects(buildSitemaps(many(), { baseUrl: BASE, maxUrlsPerFile: 1 }, sink), (error: unknown) => {
      assert.ok(isSitemapError(error) && error.code === 'SM_INDEX_LIMIT');
      assert.match(error.message, /50000 sitemap files/);
      return true;
    });
    assert.ok(sink.aborted);
    assert.equal(sink.files.size, 0);
  });

  test('the index keeps to maxBytesPerFile too: an index too large for it is a clear error, found as the files are made', async () => {
    const sink = memorySink();
    const records = (n: number): SourceItem[] => Array.from({ length: n }, (_, i) => ({ line: i + 1, record: `https://example.com/page/${i}` }));
    // 400 bytes hold a one-URL file (~150 bytes) but not an index of ten (~620 bytes).
    await assert.rejects(buildSitemaps(records(10), { baseUrl: BASE, maxUrlsPerFile: 1, maxBytesPerFile: 400 }, sink), (error: unknown) => {
      assert.ok(isSitemapError(error) && error.code === 'SM_INDEX_LIMIT');
      assert.match(error.message, /^the index of 5 sitemap files would be more than 400 bytes \(maxBytesPerFile, --max-bytes\); an index cannot be split/);
      return true;
    });
    assert.ok(sink.aborted);
    // Just under the limit, every file, the index included, keeps to it.
    const fits = memorySink();
    await buildSitemaps(records(4), { baseUrl: BASE, maxUrlsPerFile: 1, maxBytesPerFile: 400 }, fits);
    assert.equal(fits.files.size, 5);
    for (const [name, xml] of fits.files) assert.ok(Buffer.byteLength(xml) <= 400, `${name}: ${Buffer.byteLength(xml)} bytes`);
  });

  test('onDropped: each source record not written, in order, with the finding that dropped it (a bad loc, a duplicate, one too large); a source finding is no record', async () => {
    const records: SourceItem[] = [
      { line: 1, record: { loc: 'https://example.com/a' }, path: 'a.html', fingerprint: 'f1' },
      { line: 2, record: { loc: 'https://example.com/b', lastmod: 'soon' }, path: 'b.html' },
      { line: 3, record: { loc: 'mailto:someone@example.com' }, path: 'c.html' },
      { line: 4, diagnostic: { rule: 'INPUT', level: 'error', message: 'not JSON', line: 4 } },
      { line: 5, record: { loc: 'https://EXAMPLE.com/a' }, path: 'a/index.html' },
      { line: 6, record: { loc: `https://example.com/${'l'.repeat(1000)}` }, path: 'long.html' },
    ];
    const dropped: Array<[string | undefined, number, string, string]> = [];
    const summary = await buildSitemaps(records, { baseUrl: BASE, maxBytesPerFile: 1000, onDropped: (record, finding) => dropped.push([record.path, record.line, finding.rule, finding.message]) }, memorySink());
    assert.deepEqual(dropped, [
      ['c.html', 3, 'R8', 'record dropped: loc "mailto:someone@example.com" uses mailto:, only http: and https: are allowed'],
      ['a/index.html', 5, 'R25', 'duplicate URL dropped; the first occurrence is kept'],
      ['long.html', 6, 'R3', 'record dropped: its 1043 bytes of XML cannot fit in a file of at most 1000 bytes'],
    ]);
    assert.equal(summary.urls, 2);
    assert.equal(summary.dropped, 4);
  });

  test('input findings from a source are counted and reported with their line', async () => {
    const sink = memorySink();
    const summary = await buildSitemaps(
      [{ line: 1, record: 'https://example.com/' }, { line: 2, diagnostic: { rule: 'INPUT', level: 'error', message: 'not JSON', line: 2 } }],
      { baseUrl: BASE, source: 'in.jsonl' },
      sink,
    );
    assert.equal(summary.dropped, 1);
    assert.deepEqual(summary.diagnostics, [{ rule: 'INPUT', level: 'error', message: 'not JSON', line: 2, file: 'in.jsonl' }]);
  });
});

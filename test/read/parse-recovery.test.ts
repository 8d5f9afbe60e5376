/** Broken files read as far as they go: wrong namespace, bare &, truncation, HTML pages, failing sources, text before the XML. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseSitemap } from '../../src/index.ts';
import { MAX_MALFORMED_REPORTS } from '../../src/read/xml/assemble.ts';
import { MAX_ROBOTS_BYTES } from '../../src/read/parse.ts';
import { byteByByte, findings, locs, parseChunks, parseEveryWay, randomSplits, readFixture, rules } from '../helpers/parse.ts';

describe('recovery from broken files', () => {
  it('wrong or missing namespace: read by local names, R5 reported', async () => {
    for (const name of ['no-namespace.xml', 'legacy-namespace.xml']) {
      const result = await parseChunks([readFixture(name)]);
      assert.deepEqual(locs(result), ['https://www.example.com/a']);
      assert.deepEqual(rules(result), ['R5']);
    }
  });
  it('bare & and undefined entities: read literally, every later URL kept, R2 reported', async () => {
    const result = await parseChunks([readFixture('bare-ampersand.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/?a=1&b=2', 'https://www.example.com/ok', 'https://www.example.com/?nbsp=&nbsp;']);
    assert.deepEqual(result.diagnostics.map((d) => [d.rule, d.level, d.line]), [['R2', 'error', 3], ['R2', 'error', 5]]);
  });
  it('a video sitemap with 400 bare & in its descriptions: every entry read, the first 100 listed, all counted, however the input is cut', async () => {
    const bytes = readFixture('video-bare-ampersands.xml');
    const whole = await parseChunks([bytes]);
    for (const seed of [1, 2]) assert.deepEqual(await parseChunks(randomSplits(bytes, seed)), whole);
    assert.equal(whole.entries.length, 400);
    assert.equal(locs(whole)[399], 'https://www.example.com/videos/400');
    assert.equal(whole.diagnostics.length, MAX_MALFORMED_REPORTS);
    const parsed = parseSitemap(bytes);
    for await (const entry of parsed) assert.ok(entry.loc);
    assert.deepEqual(parsed.counts, { 'R2:error': 400 });
    assert.equal(parsed.diagnosticsOmitted, 300);
  });
  it('several bare & in one text or attribute value: each reported at its place, on the fast path and where saxes reads', async () => {
    const bytes = readFixture('video-bare-ampersands.xml');
    const first = (await parseChunks([bytes])).diagnostics.slice(0, 3);
    assert.deepEqual(findings({ diagnostics: first }), [
      'R2 error 8:31 not well-formed XML: "&" that starts no entity reference ("Salt & Pepper & Friends: episode 1, reco"); read literally, write &amp;',
      'R2 error 8:40 not well-formed XML: "&" that starts no entity reference ("Salt & Pepper & Friends: episode 1, reco"); read literally, write &amp;',
      'R2 error 18:31 not well-formed XML: "&" that starts no entity reference ("Rock & Roll Hall of Fame: episode 2, rec"); read literally, write &amp;',
    ]);
    const xml = (doctype: string): Uint8Array =>
      new TextEncoder().encode(`<?xml version="1.0"?>${doctype}\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n<url><loc>https://a.example/?a&b&c</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/?x&y&amp;z&w"/></url>\n</urlset>\n`);
    for (const doctype of ['', '<!DOCTYPE urlset []>']) {
      const { whole, others } = await parseEveryWay(xml(doctype));
      for (const other of others) assert.deepEqual(other, whole);
      assert.deepEqual(locs(whole), ['https://a.example/?a&b&c']);
      // Excerpts aside: saxes hands on texts decoded, the fast path quotes them as written.
      assert.deepEqual(findings({ diagnostics: whole.diagnostics.filter((d) => d.level === 'error') }).map((line) => line.replace(/ \(".*"\);/, ';')), [
        'R2 error 3:31 not well-formed XML: "&" that starts no entity reference; read literally, write &amp;',
        'R2 error 3:33 not well-formed XML: "&" that starts no entity reference; read literally, write &amp;',
        'R2 error 3:109 not well-formed XML: "&" that starts no entity reference in an attribute; read literally, write &amp;',
        'R2 error 3:117 not well-formed XML: "&" that starts no entity reference in an attribute; read literally, write &amp;',
      ]);
    }
  });
  it('truncated file: the URLs before the break are kept', async () => {
    const result = await parseChunks([readFixture('truncated.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/1', 'https://www.example.com/2']);
    assert.deepEqual(findings(result), ['R2 error 4:59 not well-formed XML: unclosed tag: lastmod']);
  });
  it('an HTML error page served as sitemap.xml is named as such', async () => {
    const result = await parseChunks([readFixture('html-error-page.xml')]);
    assert.equal(result.kind, 'unknown');
    assert.equal(result.entries.length, 0);
    assert.deepEqual(findings(result), [
      'R2 warn 1:16 DOCTYPE ignored: a sitemap has none, and its entity declarations are never expanded (no external entities, no entity expansion)',
      'R5 error 2:1 an HTML page, not a sitemap; expected <urlset> or <sitemapindex> (or an RSS or Atom feed)',
      'R2 error 2:73 not well-formed XML: </head> comes before </meta>; read as if the elements inside <head> had ended there; the file is not read further',
    ]);
  });
  it('an HTML page spelling its doctype the HTML way (<!doctype html>) is named as such in two findings, not one per character', async () => {
    const page = new TextEncoder().encode('\n  <!doctype html>\n<html lang="en"><head><title>Not found</title></head><body><p>Sorry</p></body></html>\n');
    const { whole, others } = await parseEveryWay(page);
    for (const other of others) assert.deepEqual(other, whole);
    assert.equal(whole.kind, 'unknown');
    assert.deepEqual(whole.diagnostics.map((d) => [d.rule, d.level, d.line, d.column]), [['R2', 'error', 2, 3], ['R5', 'error', 2, 3]]);
    assert.equal(whole.diagnostics[1]?.message, 'an HTML page, not a sitemap; expected <urlset> or <sitemapindex> (or an RSS or Atom feed)');
  });
  it('structural faults are reported with their rule and the entries still read', async () => {
    const result = await parseChunks([readFixture('structure-faults.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/order', 'https://www.example.com/twice', 'https://www.example.com/ext', 'https://www.example.com/title']);
    assert.deepEqual(rules(result), ['R23', 'R33', 'R6', 'R7']);
  });
  it('elements after a root that ended early: the kind stays, one finding for them, not one each', async () => {
    const entry = (n: number): string => `<url><loc>https://a.example/${n}</loc></url>`;
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entry(1)}</urlset>${Array.from({ length: 500 }, (_, n) => entry(n + 2)).join('')}`;
    const result = await parseChunks([new TextEncoder().encode(xml)]);
    assert.equal(result.kind, 'urlset');
    assert.deepEqual(locs(result), ['https://a.example/1']);
    assert.deepEqual(rules(result), ['R2']);
    assert.equal(result.diagnostics.filter((d) => /after the root element has ended/.test(d.message)).length, 1);
    // The parser's own complaint about each further element (two each: one root only, and its end tag) is listed up to the cap, and counted.
    assert.equal(result.diagnostics.length, MAX_MALFORMED_REPORTS + 1);
    const parsed = parseSitemap(new TextEncoder().encode(xml));
    for await (const entry of parsed) assert.equal(entry.loc, 'https://a.example/1');
    assert.deepEqual(parsed.counts, { 'R2:error': 1001 });
  });
  it('a gzip damaged a third of the way in: the entries before the damage, the kind kept, no flood of findings', async () => {
    const entries = Array.from({ length: 20_000 }, (_, n) => `<url><loc>https://a.example/p/${n}</loc><lastmod>2026-11-01</lastmod></url>\n`).join('');
    const gz = gzipSync(new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}</urlset>\n`));
    const at = Math.floor(gz.length * 0.3);
    for (let i = 0; i < 40; i++) gz[at + i * 7] = (gz[at + i * 7] as number) ^ 0x5a;
    const result = await parseChunks([gz]);
    assert.equal(result.kind, 'urlset');
    assert.ok(result.entries.length > 5_000, `${result.entries.length} entries`);
    assert.ok(!rules(result).includes('R5'), rules(result).join());
    assert.ok(result.diagnostics.length <= MAX_MALFORMED_REPORTS + 3, `${result.diagnostics.length} findings`);
  });
  it('a source that fails part way: the entries before the failure are handed out, then its own error, with no finding made up', async () => {
    const entries = (n: number): string => Array.from({ length: n }, (_, k) => `<url><loc>https://a.example/p/${k}</loc></url>\n`).join('');
    const open = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
    // Under the bytes looked at to tell the format: the failure comes before the first look is done.
    const small = new TextEncoder().encode(`${open}${entries(3)}<url><loc>https://a.exa`);
    const gz = gzipSync(new TextEncoder().encode(`${open}${entries(20_000)}</urlset>\n`));
    const cut = Math.floor(gz.length / 2);
    const text = new TextEncoder().encode('https://a.example/1\nhttps://a.example/2\nhttps://a.exa');
    const dropped = new Error('connection dropped');
    async function* failingAfter(chunks: Iterable<Uint8Array>): AsyncGenerator<Uint8Array> {
      yield* chunks;
      throw dropped;
    }
    const read = async (chunks: Iterable<Uint8Array>): Promise<{ kind: string; locs: string[]; diagnostics: unknown[] }> => {
      const parsed = parseSitemap(failingAfter(chunks));
      const seen: string[] = [];
      await assert.rejects(async () => {
        for await (const entry of parsed) seen.push(entry.loc);
      }, (error) => error === dropped);
      return { kind: parsed.kind, locs: seen, diagnostics: parsed.diagnostics };
    };
    const xmlLocs = (n: number): string[] => Array.from({ length: n }, (_, k) => `https://a.example/p/${k}`);
    assert.deepEqual(await read([small]), { kind: 'urlset', locs: xmlLocs(3), diagnostics: [] });
    assert.deepEqual(await read(byteByByte(small)), { kind: 'urlset', locs: xmlLocs(3), diagnostics: [] });
    assert.deepEqual(await read([text]), { kind: 'text', locs: ['https://a.example/1', 'https://a.example/2'], diagnostics: [] });
    const robots = new TextEncoder().encode('User-agent: *\nSitemap: https://a.example/1.xml\nSitemap: https://a.exa');
    assert.deepEqual(await read([robots]), { kind: 'robots', locs: ['https://a.example/1.xml'], diagnostics: [] });
    assert.deepEqual(await read([]), { kind: 'unknown', locs: [], diagnostics: [] });
    // Only whitespace, or one byte of a gzip header, before the failure: not an empty file (R5).
    assert.deepEqual(await read([new TextEncoder().encode('  \n')]), { kind: 'unknown', locs: [], diagnostics: [] });
    assert.deepEqual(await read([Uint8Array.of(0x1f)]), { kind: 'unknown', locs: [], diagnostics: [] });
    // A line ended by a CR just before the failure is whole (the CR is not half of a CRLF after all).
    assert.deepEqual(await read([new TextEncoder().encode('https://a.example/1\rhttps://a.example/2\r')]), { kind: 'text', locs: ['https://a.example/1', 'https://a.example/2'], diagnostics: [] });
    // In gzip: the source's failure is passed on, not taken for damaged data (R4).
    const fromGzip = await read([gz.subarray(0, cut)]);
    assert.equal(fromGzip.kind, 'urlset');
    assert.deepEqual(fromGzip.diagnostics, []);
    assert.ok(fromGzip.locs.length > 1_000 && fromGzip.locs.length < 20_000, `${fromGzip.locs.length} entries`);
    assert.deepEqual(fromGzip.locs, xmlLocs(fromGzip.locs.length));
    // Everything the bytes before the failure hold, however they came.
    assert.deepEqual(await read(randomSplits(gz.subarray(0, cut), 5)), fromGzip);
    // Past the protocol's size limit before the failure: that much is known, and reported (R3).
    const spaces = new TextEncoder().encode(' '.repeat(1024 * 1024));
    const oversized = await read([new TextEncoder().encode(open), ...Array.from({ length: 51 }, () => spaces)]);
    assert.deepEqual(oversized.diagnostics.map((d) => (d as { rule: string }).rule), ['R3']);
  });
  it('robots.txt over the size cap: the Sitemap lines before it, not the one the cap cuts, and a warning, however the bytes are cut', async () => {
    // Two bytes a character: the cap counts bytes, so the file is over it with half as many characters.
    const filler = `# ${'é'.repeat(49)}\n`.repeat(Math.floor(MAX_ROBOTS_BYTES / 101));
    const body = new TextEncoder().encode(`Sitemap: https://a.example/1.xml\n${filler}Sitemap: https://a.example/2.xml\n${'#'.repeat(200)}\nSitemap: https://a.example/3.xml\n`);
    const whole = await parseChunks([body]);
    assert.equal(whole.kind, 'robots');
    assert.deepEqual(locs(whole), ['https://a.example/1.xml', 'https://a.example/2.xml']);
    assert.deepEqual(whole.diagnostics.map((d) => [d.rule, d.level]), [['R27', 'warn']]);
    assert.deepEqual(await parseChunks(randomSplits(body, 3)), whole);
  });
  it('empty and whitespace-only bodies are no XML document (R2), not a wrong root (R5)', async () => {
    // Before, both were R5. A file of no bytes or only whitespace has no element at all: not well-formed.
    const empty = await parseChunks([readFixture('empty.xml')]);
    assert.deepEqual([empty.kind, findings(empty)], ['unknown', ['R2 error not well-formed XML: the file is empty (no root element)']]);
    const blank = await parseChunks([readFixture('whitespace-only.xml')]);
    assert.deepEqual([blank.kind, findings(blank)], ['unknown', ['R2 error not well-formed XML: the file holds only whitespace (no root element)']]);
  });
});

describe('regressions', () => {
  it('text before the XML (a PHP notice): read as XML, the text reported, the entries kept', async () => {
    const result = await parseChunks([readFixture('text-before-xml.xml')]);
    assert.equal(result.kind, 'urlset');
    // Before, the file was read as a list of lines: no entry, an R30 for each line.
    assert.deepEqual(locs(result), ['https://www.example.com/', 'https://www.example.com/about']);
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`), [
      'R2 1:1 not well-formed XML: text data outside of root node.',
      'R2 2:7 not well-formed XML: an XML declaration must be at the start of the document.',
    ]);
    // A list of lines is still one, '<' in it or not.
    assert.equal((await parseChunks([new TextEncoder().encode('https://a.example/1\nhttps://a.example/<2>\n')])).kind, 'text');
    // Twenty warnings ahead (3.8 KB), however the input is cut.
    const warnings = Array.from({ length: 20 }, (_, i) => `Warning: Cannot modify header information - headers already sent by (output started at /var/www/html/wp-content/plugins/p${i}/x.php:${i}) in /var/www/html/wp-includes/pluggable.php on line 1296\n`).join('');
    const longer = new TextEncoder().encode(`${warnings}<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/1</loc></url></urlset>\n`);
    for (const chunks of [[longer], byteByByte(longer), randomSplits(longer, 6)]) {
      const parsed = await parseChunks(chunks);
      assert.deepEqual([parsed.kind, locs(parsed)], ['urlset', ['https://a.example/1']]);
    }
  });
  it("PHP's notice in HTML before the XML (<br />, <b>Notice</b>): skipped with one finding, the entries read, their places kept, however the input is cut", async () => {
    const notice = '<br />\n<b>Notice</b>:  Undefined index: foo in <b>/var/www/sitemap.php</b> on line <b>12</b><br />\n';
    for (const xml of ['<?xml version="1.0" encoding="UTF-8"?>\n', '']) {
      const bytes = new TextEncoder().encode(`${notice}${xml}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/1</loc></url>\n<url><loc>https://a.example/2</loc></url></urlset>\n`);
      const line = xml === '' ? 3 : 4;
      for (const chunks of [[bytes], byteByByte(bytes), randomSplits(bytes, 4)]) {
        const parsed = parseSitemap(chunks, { trackPositions: true });
        const seen: string[] = [];
        for await (const entry of parsed) seen.push(`${entry.loc} ${parsed.positionOf(entry)?.line}`);
        assert.equal(parsed.kind, 'urlset');
        assert.deepEqual(seen, [`https://a.example/1 ${line}`, `https://a.example/2 ${line + 1}`]);
        assert.equal(parsed.diagnostics[0]?.message, 'not well-formed XML: HTML before the XML (a PHP warning printed ahead of it?) is skipped to line 3');
        // The declaration, no longer at the start, is reported where it stands.
        assert.deepEqual(findings(parsed), [
          'R2 error 1:1 not well-formed XML: HTML before the XML (a PHP warning printed ahead of it?) is skipped to line 3',
          ...(xml === '' ? [] : ['R2 error 3:7 not well-formed XML: an XML declaration must be at the start of the document.']),
        ]);
      }
    }
    // An HTML page is still one (R5), not a sitemap found inside it.
    const page = await parseChunks([new TextEncoder().encode('<p>Moved</p>\n')]);
    assert.deepEqual([page.kind, rules(page)], ['unknown', ['R5']]);
  });
});

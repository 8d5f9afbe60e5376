/** End tags that do not match and entries nested in one another (a missing </url>): every entry kept, past the depth cap too. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byteByByte, findings, locs, parseChunks, parseEveryWay, placed, randomSplits, readFixture, rules, sameHoweverCut } from '../helpers/parse.ts';
import type { ParsedEntry } from '../../src/read/types.ts';

describe('regressions', () => {
  it('end tags that do not match: a misspelt one ends the element holding only text, a stray one is ignored, one naming an element further out closes those inside it', async () => {
    const text = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" data-note="a&b">',
      '<url><loc>https://a.example/1</lo></url>',
      '<url><loc>https://a.example/2</url>',
      '<url><loc>https://a.example/3</loc></foo><lastmod>2026-11-01</lastmod></url>',
      '<url><loc>https://a.example/4</loc></url>',
      '<url><loc>https://a.example/5</loc><video:video><video:thumbnail_loc>https://a.example/t.png</video:thumbnail_loc><video:title>T</video:description><video:description>D</video:description><video:content_loc>https://a.example/v.mp4</video:content_loc></video:video></url>',
      // A stray end tag before a container's first child ends nothing: the container holds no text of its own.
      '<url>  </lastmod><loc>https://a.example/6</loc><video:video> </video:title><video:thumbnail_loc>https://a.example/t.png</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:content_loc>https://a.example/v.mp4</video:content_loc></video:video></url>',
      '</urlset>',
      '',
    ].join('\n');
    const bytes = new TextEncoder().encode(text);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => JSON.stringify(entry));
    const whole = await read([bytes]);
    assert.deepEqual(whole, [
      '{"loc":"https://a.example/1"} 2:1',
      '{"loc":"https://a.example/2"} 3:1',
      '{"loc":"https://a.example/3","lastmod":"2026-11-01"} 4:1',
      '{"loc":"https://a.example/4"} 5:1',
      // Before, the title ran on into the description and the content location: "TDhttps://a.example/v.mp4".
      '{"loc":"https://a.example/5","videos":[{"thumbnail_loc":"https://a.example/t.png","title":"T","description":"D","content_loc":"https://a.example/v.mp4"}]} 6:1',
      '{"loc":"https://a.example/6","videos":[{"thumbnail_loc":"https://a.example/t.png","title":"T","description":"D","content_loc":"https://a.example/v.mp4"}]} 7:1',
      'R2 1:135 not well-formed XML: "&" that starts no entity reference in an attribute ("a&b"); read literally, write &amp;',
      'R2 2:30 not well-formed XML: </lo> ends no open element; read as the end of <loc>, which holds only text',
      'R2 3:30 not well-formed XML: </url> comes before </loc>; read as if the elements inside <url> had ended there',
      'R2 4:36 not well-formed XML: </foo> ends no open element (<url> is open); ignored',
      'R2 6:129 not well-formed XML: </video:description> ends no open element; read as the end of <video:title>, which holds only text',
      'R2 7:8 not well-formed XML: </lastmod> ends no open element (<url> is open); ignored',
      'R2 7:62 not well-formed XML: </video:title> ends no open element (<video:video> is open); ignored',
    ]);
    await sameHoweverCut(bytes, read, whole);
  });
  it('an end tag at the very end, shorter than the open element\'s name, is read as the end it names', async () => {
    const text = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n<url><loc>https://a.example/1</loc><image:image><image:loc>https://a.example/1.png</image:loc>\n</urlset>';
    const parsed = await parseChunks([new TextEncoder().encode(text)]);
    assert.deepEqual(parsed.entries, [{ loc: 'https://a.example/1', images: [{ loc: 'https://a.example/1.png' }] }]);
    // Before, it waited for more input, and at the end saxes was handed '</urlset>' alone: 'unexpected close tag.' twice.
    assert.deepEqual(parsed.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`), ['R2 3:1 not well-formed XML: </urlset> comes before </image:image>; read as if the elements inside <urlset> had ended there']);
  });
  it('a missing </url> or </sitemap>: the next entry opening inside it is read as the next entry, and all after it are kept, at every cut', async () => {
    const urlset = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '<url><loc>https://a.example/1</loc></url>',
      '<url><loc>https://a.example/2</loc><lastmod>2026-11-01</lastmod>',
      '<url><loc>https://a.example/3</loc></url>',
      '<url><loc>https://a.example/4</loc></url>',
      '</urlset>',
      '',
    ].join('\n');
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => JSON.stringify(entry));
    const bytes = new TextEncoder().encode(urlset);
    const whole = await read([bytes]);
    assert.deepEqual(whole, [
      '{"loc":"https://a.example/1"} 2:1',
      '{"loc":"https://a.example/2","lastmod":"2026-11-01"} 3:1',
      '{"loc":"https://a.example/3"} 4:1',
      '{"loc":"https://a.example/4"} 5:1',
      'R6 4:1 <url> opens inside <url> (its </url> is missing?); read as the next entry',
      'R2 6:1 not well-formed XML: </urlset> comes before </url>; read as if the elements inside <urlset> had ended there',
    ]);
    await sameHoweverCut(bytes, read, whole);
    // Where saxes reads (it then loses what follows the unmatched </urlset>, the end here).
    assert.deepEqual(locs(await parseChunks([new TextEncoder().encode(`<!DOCTYPE urlset []>${urlset}`)])), ['https://a.example/1', 'https://a.example/2', 'https://a.example/3', 'https://a.example/4']);
    // Well-formed, one <url> inside another: both read, one finding.
    const nested = await parseChunks([new TextEncoder().encode('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/1</loc><url><loc>https://a.example/2</loc></url></url></urlset>')]);
    assert.deepEqual(locs(nested), ['https://a.example/1', 'https://a.example/2']);
    assert.deepEqual(rules(nested), ['R6']);
    // With an <image:image> left open too: the image is kept, and so is every entry after.
    const imageOpen = await parseChunks([new TextEncoder().encode('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n<url><loc>https://a.example/1</loc><image:image><image:loc>https://a.example/1.png</image:loc>\n<url><loc>https://a.example/2</loc></url>\n<url><loc>https://a.example/3</loc></url>\n</urlset>\n  ')]);
    assert.deepEqual(imageOpen.entries, [{ loc: 'https://a.example/1', images: [{ loc: 'https://a.example/1.png' }] }, { loc: 'https://a.example/2' }, { loc: 'https://a.example/3' }]);
    // What follows the nested entry in the ended one is reported once.
    const after = await parseChunks([new TextEncoder().encode('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/1</loc><url><loc>https://a.example/2</loc></url><lastmod>2020-01-01</lastmod><changefreq>daily</changefreq></url></urlset>')]);
    assert.deepEqual(locs(after), ['https://a.example/1', 'https://a.example/2']);
    assert.deepEqual(after.diagnostics.map((d) => d.message), ['<url> opens inside <url> (its </url> is missing?); read as the next entry', '<lastmod> comes after an entry nested in the one it belongs to, which has ended; ignored']);
    const index = await parseChunks([new TextEncoder().encode('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://a.example/1.xml</loc>\n<sitemap><loc>https://a.example/2.xml</loc></sitemap>\n<sitemap><loc>https://a.example/3.xml</loc></sitemap></sitemapindex>')]);
    assert.deepEqual(locs(index), ['https://a.example/1.xml', 'https://a.example/2.xml', 'https://a.example/3.xml']);
    assert.deepEqual(rules(index), ['R19', 'R2']);
  });
  it('every </url> missing: each entry nests one deeper, and at the depth cap the ended ones make room, so all are read, at every cut', async () => {
    const bytes = readFixture('missing-url-ends.xml');
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => JSON.stringify(entry));
    const whole = await read([bytes]);
    const entries = whole.filter((line) => line.startsWith('{'));
    const findings = whole.filter((line) => !line.startsWith('{'));
    // Before, reading stopped at the cap: 57 entries, then "elements nested deeper than 64 levels are not read".
    assert.equal(entries.length, 100);
    assert.equal(entries[0], '{"loc":"https://www.example.com/page-1","lastmod":"2026-11-02"} 4:3');
    assert.equal(entries[99], '{"loc":"https://www.example.com/page-100","lastmod":"2026-11-17","images":[{"loc":"https://www.example.com/page-100.jpg"}]} 103:3');
    assert.deepEqual(new Set(findings.slice(0, 99).map((line) => line.replace(/ \d+:\d+ /, ' '))), new Set(['R6 <url> opens inside <url> (its </url> is missing?); read as the next entry']));
    assert.deepEqual(findings.slice(99), ['R2 104:1 not well-formed XML: </urlset> comes before </image:image>; read as if the elements inside <urlset> had ended there']);
    // Every cut around the entries where the cap is first met, byte by byte and at random splits.
    const text = new TextDecoder().decode(bytes);
    const from = text.indexOf('page-50<');
    for (let cut = from; cut < text.indexOf('page-60<'); cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
    assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
    assert.deepEqual(await read(randomSplits(bytes, 12)), whole, 'random splits');
    // Where saxes reads (it keeps the ended entries open, up to its own limit of 1024 levels), the same.
    const viaSaxes = await parseChunks([new TextEncoder().encode(text.replace('<urlset', '<!DOCTYPE urlset []>\n<urlset'))]);
    assert.equal(viaSaxes.entries.length, 100);
    assert.deepEqual(rules(viaSaxes), ['R2', 'R6']);
    // saxes complains once for each element </urlset> ends early: said once (before, 100 times, and reading stopped at the cap on them).
    assert.deepEqual(viaSaxes.diagnostics.filter((d) => d.rule === 'R2' && d.level === 'error').map((d) => `${d.line}:${d.column} ${d.message}`), ['105:10 not well-formed XML: unexpected close tag.']);
    // Cut short as well: at the end saxes is handed the entries still open, and says once that they are (before, once each: 99 entries, then the cap on findings).
    const truncated = new TextEncoder().encode(text.replace('</urlset>\n', ''));
    for (const chunks of [[truncated], byteByByte(truncated), randomSplits(truncated, 5)]) {
      const cut = await parseChunks(chunks);
      assert.equal(cut.entries.length, 100);
      assert.deepEqual(cut.diagnostics.filter((d) => d.rule === 'R2').map((d) => `${d.line}:${d.column} ${d.message}`), ['104:1 not well-formed XML: unclosed tag: image:image']);
    }
  });
  it('entries nested in one another, well-formed, deeper than the cap: all read, one finding each, and no R2, on both paths', async () => {
    const nested = (n: number): string =>
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: n }, (_, i) => `<url><loc>https://a.example/${i}</loc>`).join('')}${'</url>'.repeat(n)}</urlset>`;
    for (const text of [nested(200), `<!DOCTYPE urlset []>${nested(200)}`, nested(200).replace('<loc>https://a.example/199</loc>', '<loc>https://a.example/199</loc><p:x xmlns:p=" urn:p "/>')]) {
      const parsed = await parseChunks([new TextEncoder().encode(text)]);
      assert.equal(parsed.entries.length, 200, text.slice(0, 30));
      assert.deepEqual(rules(parsed, 'error'), ['R6']);
    }
    // Entries forgotten are kept count of up to a bound (memory): past it the fast path hands over, and saxes reads on up to its own limit of 1024 levels.
    const many = await parseChunks([new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<url><loc>https://a.example/</loc>'.repeat(202_000)}`)], { maxDiagnostics: 300_000 });
    assert.ok(many.entries.length > 200_000 && many.entries.length < 202_000, `${many.entries.length} entries`);
    assert.equal(many.diagnostics.filter((d) => d.rule === 'R2').at(-1)?.message, 'not well-formed XML: elements nested deeper than 1024 levels; reading stops here');
    // A hand-over with more forgotten than saxes reads deep: reading stops there, said once. Before, saxes was given none
    // of them, and their end tags ended its root: 'unmatched closing tag' up to the cap on findings, or no R2 at all.
    const handedOverDeep = await parseChunks([new TextEncoder().encode(nested(1100).replace('https://a.example/1050</loc>', 'https://a.example/1050</loc><p:x xmlns:p=" urn:p "/>'))], { maxDiagnostics: 10_000 });
    assert.equal(handedOverDeep.entries.length, 1051);
    assert.deepEqual(handedOverDeep.diagnostics.filter((d) => d.rule === 'R2').map((d) => d.message), ['not well-formed XML: elements nested deeper than 1024 levels; reading stops here']);
    // A </url> short: the root's end says so, as it does when no entry was forgotten.
    const short = await parseChunks([new TextEncoder().encode(nested(200).replace('</url></urlset>', '</urlset>'))]);
    assert.equal(short.entries.length, 200);
    assert.deepEqual(short.diagnostics.filter((d) => d.rule === 'R2').map((d) => d.message), ['not well-formed XML: </urlset> comes before </url>; read as if the elements inside <urlset> had ended there']);
  });
});

describe('issue #30: structure findings name the right rule', () => {
  it('structure faults inside a <sitemapindex> cite R19 (or R23 for a <url>), an empty <loc> R8', async () => {
    const bytes = readFixture('index-structure-faults.xml');
    const { whole, others } = await parseEveryWay(bytes, {}, 2);
    for (const other of others) assert.deepEqual(other, whole);
    assert.deepEqual(locs(whole), ['https://www.example.com/sitemap-1.xml', 'https://www.example.com/sitemap-2.xml']);
    assert.deepEqual(findings(whole), [
      'R19 error 3:41 <loc> is out of order; the schema wants loc, lastmod',
      'R19 error 4:3 <title> does not belong in <sitemapindex>; ignored',
      'R23 error 5:3 <url> does not belong in <sitemapindex>: urls and sitemaps cannot be mixed; ignored',
      'R8 error 6:12 <loc> is empty; the <sitemap> is skipped',
      'R19 error 7:41 <sitemap> without <loc>; skipped',
    ]);
  });
  it('an empty <loc> (<loc/>, <loc></loc>, whitespace only) is said to be empty (R8), not a <url> without <loc>, nor an empty <urlset>', async () => {
    const { whole, others } = await parseEveryWay(readFixture('empty-locs.xml'), {}, 2);
    for (const other of others) assert.deepEqual(other, whole);
    assert.deepEqual(whole.entries, []);
    assert.deepEqual(findings(whole), [
      'R8 error 3:8 <loc> is empty; the <url> is skipped',
      'R8 error 4:8 <loc> is empty; the <url> is skipped',
      'R8 error 6:5 <loc> is empty; the <url> is skipped',
    ]);
  });
});

describe('issue #30: a core element whose default namespace is reset (xmlns="")', () => {
  it('is read by local name, as lenient readers do, with one R5 error for the file, at every cut (fast path and saxes alike)', async () => {
    const bytes = readFixture('namespace-reset.xml');
    const show = (entry: ParsedEntry): string => JSON.stringify(entry);
    const whole = await placed([bytes], show);
    assert.deepEqual(whole, [
      '{"loc":"https://www.example.com/","lastmod":"2024-05-31"} 3:3',
      '{"loc":"https://www.example.com/shop/","lastmod":"2024-05-30","images":[{"loc":"https://www.example.com/shop.jpg"}]} 8:3',
      '{"loc":"https://www.example.com/about/","priority":"0.5"} 13:3',
      '{"loc":"https://www.example.com/contact/"} 17:3',
      'R5 8:3 <url> is in no namespace (its default namespace reset, xmlns=""), not in http://www.sitemaps.org/schemas/sitemap/0.9; read by local name',
      'R33 19:5 elements in no namespace ignored',
    ]);
    await sameHoweverCut(bytes, (chunks) => placed(chunks, show), whole);
  });
  it('in an index, and for a <loc> alone; an element that is no core one stays an extension in no namespace (R33)', async () => {
    const index = new TextEncoder().encode('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap xmlns=""><loc>https://a.example/1.xml</loc></sitemap>\n</sitemapindex>');
    const result = await parseEveryWay(index);
    assert.deepEqual([result.whole.kind, locs(result.whole), findings(result.whole)], [
      'sitemapindex',
      ['https://a.example/1.xml'],
      ['R5 error 2:1 <sitemap> is in no namespace (its default namespace reset, xmlns=""), not in http://www.sitemaps.org/schemas/sitemap/0.9; read by local name'],
    ]);
    for (const other of result.others) assert.deepEqual(other, result.whole);
    const loc = new TextEncoder().encode('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc xmlns="">https://a.example/</loc><lastmod xmlns="">2024-01-01</lastmod></url></urlset>');
    const one = await parseChunks([loc]);
    assert.deepEqual([one.entries, findings(one)], [[{ loc: 'https://a.example/', lastmod: '2024-01-01' }], ['R5 error 1:66 <loc> is in no namespace (its default namespace reset, xmlns=""), not in http://www.sitemaps.org/schemas/sitemap/0.9; read by local name']]);
  });
});

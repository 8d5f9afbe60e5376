import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SitemapError, validateSitemap } from '../../src/index.ts';
import type { Diagnostic } from '../../src/model/diagnostic.ts';
import { FirstInFileOrder, SitemapChecks } from '../../src/validate/validate.ts';
import { byteByByte, parseEveryWay, randomSplits, readFixture } from '../helpers/parse.ts';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const urlset = (body: string): Uint8Array => new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>\n${body}\n</urlset>\n`);
const found = async (bytes: Uint8Array, base?: string) => {
  const result = await validateSitemap(bytes, base === undefined ? {} : { base });
  return { valid: result.valid, rules: result.diagnostics.map((d) => `${d.rule}:${d.level}@${d.line}`) };
};

describe('validateSitemap', () => {
  it('findings on extensions speak as a validator: nothing is said to be dropped', async () => {
    const ns = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml"';
    const images = Array.from({ length: 1002 }, (_, n) => `<image:image><image:loc>${n === 0 ? 'ftp://a.example/0.png' : `https://a.example/${n}.png`}</image:loc></image:image>`).join('');
    const tags = Array.from({ length: 33 }, (_, n) => `<video:tag>t${n}</video:tag>`).join('');
    const video = `<video:video><video:thumbnail_loc>https://a.example/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:content_loc>https://a.example/v.mp4</video:content_loc>${tags}</video:video>`;
    const noPlayer = '<video:video><video:thumbnail_loc>https://a.example/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description></video:video>';
    const body = `<url><loc>https://a.example/</loc>${images}${video}${noPlayer}<xhtml:link rel="alternate" hreflang="english" href="https://a.example/en"/></url>`;
    const result = await validateSitemap(new TextEncoder().encode(`<urlset ${NS} ${ns}>${body}</urlset>`));
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule} ${d.message}`).sort(), [
      'R34 1 image too many: at most 1000 per URL',
      'R35 videos[2] needs content_loc or player_loc',
      'R36 videos[1].tags: 1 tag too many: at most 32 per video',
      'R38 alternates[1]: hreflang "english" is not a BCP 47 language tag (e.g. en, en-GB, zh-Hant) or x-default',
      'R8 images[1].loc "ftp://a.example/0.png" uses ftp:, only http: and https: are allowed',
    ]);
  });
  it('a source that fails part way: the findings on what was read, not valid, and the failure; one that fails at once or not as a SitemapError throws', async () => {
    const dropped = new SitemapError('SM_INPUT_UNREADABLE', 'body not read to the end');
    const cutOff = (error: unknown) =>
      (async function* () {
        yield new TextEncoder().encode(`<urlset ${NS}><url><loc>https://a.example/1</loc><priority>2</priority></url><url><loc>https://a.exa`);
        throw error;
      })();
    const result = await validateSitemap(cutOff(dropped));
    assert.deepEqual([result.valid, result.kind, result.entries, result.error, result.diagnostics.map((d) => `${d.rule}:${d.level}@${d.line}`)], [false, 'urlset', 1, dropped, ['R14:error@1']]);
    await assert.rejects(validateSitemap(cutOff(new TypeError('a bug'))), TypeError);
    await assert.rejects(
      validateSitemap(
        (async function* () {
          yield* [];
          throw dropped;
        })(),
      ),
      dropped,
    );
  });
  it('a clean file is valid with no findings', async () => {
    assert.deepEqual(await found(urlset('<url><loc>https://a.example/</loc><lastmod>2024-01-01</lastmod></url>')), { valid: true, rules: [] });
  });
  it('value rules, each with the line of its <url>', async () => {
    const body = [
      '<url><loc>https://a.example/1</loc><lastmod>2024-13-01</lastmod></url>',
      '<url><loc>https://a.example/2</loc><changefreq>Daily</changefreq></url>',
      '<url><loc>https://a.example/3</loc><priority>1.5</priority></url>',
      '<url><loc>https://a.example/4</loc><lastmod>2024-01-01T10:00+00:00</lastmod></url>',
      '<url><loc>https://a.example/a b</loc></url>',
      '<url><loc>https://a.example/ü</loc></url>',
      '<url><loc>ftp://a.example/x</loc></url>',
      '<url><loc>https://a.example/1</loc></url>',
    ].join('\n');
    const { valid, rules } = await found(urlset(body));
    assert.equal(valid, false);
    assert.deepEqual(rules, ['R11:error@3', 'R13:error@4', 'R14:error@5', 'R12:warn@6', 'R10:error@7', 'R10:warn@8', 'R8:error@9', 'R25:warn@10']);
  });
  it('an empty lastmod, changefreq or priority is an error (the schema rejects each), not a field left out', async () => {
    const { valid, rules } = await found(urlset('<url><loc>https://a.example/</loc><lastmod></lastmod><changefreq/><priority> </priority></url>'));
    assert.deepEqual([valid, rules], [false, ['R11:error@3', 'R13:error@3', 'R14:error@3']]);
  });
  it('whitespace around a lastmod is tolerated with a warning (R11), around a changefreq an error (R13); the values read are trimmed, however the input was cut', async () => {
    const bytes = urlset('<url><loc>https://a.example/1</loc><lastmod> 2024-01-01 </lastmod><changefreq>\n daily\n</changefreq></url>\n<url><loc>https://a.example/2</loc><lastmod>2024-01-01</lastmod><changefreq>daily</changefreq></url>');
    // Each at its element: the changefreq starts on line 3.
    assert.deepEqual(await found(bytes), { valid: false, rules: ['R11:warn@3', 'R13:error@3'] });
    const { whole, others } = await parseEveryWay(bytes);
    for (const other of others) assert.deepEqual(other, whole);
    assert.deepEqual(whole.entries, [1, 2].map((n) => ({ loc: `https://a.example/${n}`, lastmod: '2024-01-01', changefreq: 'daily' })));
  });
  it('a relative loc is one R8: unresolved without the file URL, resolved with it', async () => {
    const body = '<url><loc>/shop/x</loc></url>';
    // Before, the checks said it again ('"/shop/x" is not an absolute URL') after the reader had.
    const alone = await validateSitemap(urlset(body));
    assert.deepEqual(alone.diagnostics.map((d) => `${d.rule}:${d.level}@${d.line} ${d.message}`), ['R8:error@3 "/shop/x" is a relative URL and the file\'s own URL is not known (--base) to resolve it']);
    assert.deepEqual((await found(urlset(body), 'https://a.example/sitemap.xml')).rules, ['R8:error@3']);
  });
  it('scope rules need the file URL (--base): R16 other host, R17 outside the folder', async () => {
    const body = '<url><loc>https://a.example/shop/x</loc></url>\n<url><loc>https://b.example/shop/y</loc></url>\n<url><loc>https://a.example/blog/z</loc></url>';
    assert.deepEqual((await found(urlset(body))).rules, []);
    assert.deepEqual((await found(urlset(body), 'https://a.example/shop/sitemap.xml')).rules, ['R16:error@4', 'R17:error@5']);
  });
  it('an index: children on another site are R21, bad lastmods R11', async () => {
    const index = new TextEncoder().encode(`<sitemapindex ${NS}><sitemap><loc>https://a.example/s1.xml</loc><lastmod>yesterday</lastmod></sitemap><sitemap><loc>https://b.example/s2.xml</loc></sitemap></sitemapindex>`);
    const result = await validateSitemap(index, { base: 'https://a.example/sitemap.xml' });
    assert.deepEqual(result.diagnostics.map((d) => d.rule), ['R11', 'R21']);
  });
  it('more than 50,000 URLs is R15, about the whole file: no position, listed first; the repeat at its <loc>', async () => {
    const body = Array.from({ length: 50_001 }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`).join('');
    const result = await validateSitemap(urlset(`${body}<url><loc>https://a.example/7</loc></url>`));
    assert.deepEqual(
      result.diagnostics.map((d) => [d.rule, d.line, d.column]),
      [['R15', undefined, undefined], ['R25', 3, 2_238_936 + '<url>'.length]],
    );
  });
  it('a text sitemap over 50,000 URLs is R30, about the whole file', async () => {
    const lines = Array.from({ length: 50_001 }, (_, i) => `https://a.example/${i}\n`).join('');
    const result = await validateSitemap(new TextEncoder().encode(lines));
    assert.deepEqual([result.valid, result.kind, result.diagnostics.map((d) => [d.rule, d.level, d.line])], [false, 'text', [['R30', 'error', undefined]]]);
  });
  it('robots.txt: another host is cross-submission (R18 info), not R21; a relative Sitemap: is resolved with an R27 warning, not an R8 error', async () => {
    const robots = new TextEncoder().encode('User-agent: *\nSitemap: https://cdn.other.net/a.xml\nSitemap: /rel.xml\nSitemap: ftp://a.example/s.xml\nSitemap: https://a.example/s.xml\n');
    const result = await validateSitemap(robots, { base: 'https://a.example/robots.txt' });
    assert.deepEqual([result.valid, result.kind, result.entries], [true, 'robots', 4]);
    // In file order, each at its Sitemap: value.
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule}:${d.level} ${d.line}:${d.column} ${d.message}`), [
      'R18:info 2:10 cross-submission: https://cdn.other.net/a.xml is on another host; it may list this site\'s URLs',
      'R27:warn 3:10 Sitemap: URL should be absolute: "/rel.xml" (read as https://a.example/rel.xml)',
      'R27:warn 4:10 Sitemap: "ftp://a.example/s.xml" is not an absolute http(s) URL',
    ]);
  });
  it('a text sitemap: findings on its URLs are placed at their line, and a repeat at its own line', async () => {
    const list = new TextEncoder().encode('https://a.example/a\r\n  https://other.example/b\r\nhttps://a.example/a\rhttps://a.example/ü\n');
    const result = await validateSitemap(list, { base: 'https://a.example/sitemap.txt' });
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`), ['R16 2:3', 'R25 3:1', 'R10 4:1']);
  });
  it('past maxDiagnostics, the first findings in file order are kept, however the input was cut', async () => {
    // Parser findings (the bare &) and checks on entries (the lastmod without seconds) on every line; the padding puts the cut after the sniffed first KiB.
    let text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<!--${'x'.repeat(1100)}-->\n`;
    for (let i = 1; i <= 4; i++) text += `<url><loc>https://a.example/${i}?a&b</loc><lastmod>2024-01-01T10:00Z</lastmod></url>\n`;
    const bytes = new TextEncoder().encode(`${text}</urlset>\n`);
    // A value's finding is placed at its element (the lastmod at column 40), not at its <url>; the bare & at itself.
    const expected = ['R2 3:32', 'R12 3:40', 'R2 4:32'];
    for (let cut = 1150; cut < bytes.length; cut += 7) {
      const result = await validateSitemap([bytes.subarray(0, cut), bytes.subarray(cut)], { maxDiagnostics: 3 });
      assert.deepEqual(result.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`), expected, `cut at ${cut}`);
      assert.deepEqual(result.counts, { 'R2:error': 4, 'R12:warn': 4 });
    }
  });
  it('a finding about a field is placed at its element, whether the entry was taken whole or tag by tag, however the input was cut', async () => {
    const ns = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';
    const entry = (n: number, inside = ''): string =>
      [`  <url>${inside}`, `    <loc>https://a.example/${n}</loc>`, '    <lastmod>2024-13-01</lastmod>', '    <image:image>', `      <image:loc>ftp://a.example/${n}.jpg</image:loc>`, '    </image:image>', '  </url>'].join('\n');
    // Three of one shape (learnt, then taken whole), then one with a comment in it (read tag by tag); padding puts the cuts past the sniffed first KiB.
    const text = `<urlset ${NS} ${ns}>\n<!--${'x'.repeat(1100)}-->\n${[1, 2, 3].map((n) => entry(n)).join('\n')}\n${entry(4, '<!-- edited -->')}\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const places = async (chunks: Iterable<Uint8Array>): Promise<string[]> => (await validateSitemap(chunks)).diagnostics.map((d) => `${d.rule} ${d.field} ${d.line}:${d.column}`);
    const expected = [1, 2, 3, 4].flatMap((n) => {
      const url = 3 + 7 * (n - 1);
      return [`R11 lastmod ${url + 2}:5`, `R8 images[1].loc ${url + 4}:7`];
    });
    assert.deepEqual(await places([bytes]), expected);
    assert.deepEqual(await places(byteByByte(bytes)), expected);
    for (let seed = 1; seed <= 10; seed++) assert.deepEqual(await places(randomSplits(bytes, seed)), expected, `seed ${seed}`);
  });
  it('a loc is judged as written: exactly 2,048 characters is a warning (R9), past that an error; raw characters in any URL of the entry are R10', async () => {
    const loc = (length: number): string => `https://a.example/${'a'.repeat(length - 'https://a.example/'.length)}`;
    const at2048 = await validateSitemap(urlset(`<url><loc>${loc(2048)}</loc></url>`));
    assert.deepEqual([at2048.valid, at2048.diagnostics.map((d) => `${d.rule}:${d.level}`)], [true, ['R9:warn']]);
    const at2049 = await validateSitemap(urlset(`<url><loc>${loc(2049)}</loc></url>`));
    assert.deepEqual(at2049.diagnostics.map((d) => `${d.rule}:${d.level}`), ['R9:error']);
    const index = await validateSitemap(new TextEncoder().encode(`<sitemapindex ${NS}><sitemap><loc>${loc(2048)}</loc></sitemap></sitemapindex>`));
    assert.deepEqual([index.valid, index.diagnostics.map((d) => `${d.rule}:${d.level}`)], [true, ['R9:warn']]);
    const ns = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml"';
    const body = `<url><loc>https://a.example/</loc><image:image><image:loc>https://cdn.example/a b.jpg</image:loc></image:image><image:image><image:loc>https://cdn.example/ü.jpg</image:loc></image:image><xhtml:link rel="alternate" hreflang="de" href="https://a.example/de x"/><xhtml:link rel="alternate" hreflang="en" href="https://a.example/"/></url>`;
    const raw = await validateSitemap(new TextEncoder().encode(`<urlset ${NS} ${ns}>${body}</urlset>`));
    assert.deepEqual(raw.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`), ['R10:error images[1].loc', 'R10:warn images[2].loc', 'R10:error alternates[1].href']);
  });
  it('every URL and date of a video is judged as written: raw characters (R10) and a time without seconds (R12), each named by its field', async () => {
    const ns = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"';
    const video = (n: number, extra: string): string =>
      `<video:video><video:thumbnail_loc>https://a.example/t${n}.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>${extra}</video:video>`;
    const body =
      '<url><loc>https://a.example/</loc>' +
      video(1, '<video:content_loc>https://a.example/v 1.mp4</video:content_loc><video:publication_date>2026-11-20T10:30+01:00</video:publication_date>') +
      video(2, '<video:player_loc>https://a.example/p?x=ü</video:player_loc><video:expiration_date>2027-11-20T10:30:00+01:00</video:expiration_date><video:uploader info="https://a.example/u|1">U</video:uploader>') +
      '</url>';
    const result = await validateSitemap(new TextEncoder().encode(`<urlset ${NS} ${ns}>${body}</urlset>`));
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`), [
      'R10:error videos[1].content_loc',
      'R12:warn videos[1].publication_date',
      'R10:warn videos[2].player_loc',
      'R10:error videos[2].uploader.info',
    ]);
  });
  it('forms the schema rejects but W3C Datetime allows are warnings (R12), in a urlset as in an index: a bare year, no seconds, year 0000', async () => {
    const news = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"';
    const item = (date: string): string => `<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>${date}</news:publication_date><news:title>T</news:title></news:news>`;
    const body = `<url><loc>https://a.example/1</loc><lastmod>2024</lastmod></url><url><loc>https://a.example/2</loc><lastmod>0000-01-01</lastmod>${item('2026-11-23T10:00Z')}</url>`;
    const result = await validateSitemap(new TextEncoder().encode(`<urlset ${NS} ${news}>${body}</urlset>`), { now: () => Date.parse('2026-11-23T12:00:00Z') });
    assert.deepEqual([result.valid, result.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`)], [true, ['R12:warn lastmod', 'R12:warn lastmod', 'R12:warn news.publication_date']]);
  });
  it('one fault hides no other: a bad loc, a video without a title, news with a bad language still have every other field checked, each fault said once', async () => {
    const plain = await validateSitemap(urlset('<url><loc>/relative/page</loc><lastmod>garbage</lastmod><changefreq>Daily</changefreq><priority>7</priority></url>'));
    assert.deepEqual(plain.diagnostics.map((d) => d.rule), ['R8', 'R11', 'R13', 'R14']);
    const ns = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"';
    const video = `<video:video><video:thumbnail_loc>https://a.example/t.jpg</video:thumbnail_loc><video:title>${'t'.repeat(101)}</video:title><video:description>D</video:description><video:content_loc>https://a.example/v.mp4</video:content_loc><video:rating>5.1</video:rating><video:view_count>-1</video:view_count></video:video>`;
    const news = '<news:news><news:publication><news:name>N</news:name><news:language>EN</news:language></news:publication><news:publication_date>2026-11-23T10:00:00Z</news:publication_date><news:title>T</news:title></news:news>';
    const result = await validateSitemap(new TextEncoder().encode(`<urlset ${NS} ${ns}><url><loc>https://a.example/</loc>${video}${news}</url></urlset>`), { now: () => Date.parse('2026-11-23T12:00:00Z') });
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule} ${d.field}`), ['R36 videos[1].title', 'R36 videos[1].rating', 'R36 videos[1].view_count', 'R37 news.publication.language']);
  });
  it('the news age warning quotes the date as written', async () => {
    const ns = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"';
    const news = '<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-06-01T10:00:00+02:00</news:publication_date><news:title>T</news:title></news:news>';
    const result = await validateSitemap(new TextEncoder().encode(`<urlset ${NS} ${ns}><url><loc>https://a.example/</loc>${news}</url></urlset>`), { now: () => Date.parse('2026-11-23T12:00:00Z') });
    assert.deepEqual(result.diagnostics.map((d) => d.message), ['news.publication_date 2024-06-01T10:00:00+02:00 is more than two days old; news sitemaps are for recent articles']);
  });
  it("the parser's structural findings are part of validation", async () => {
    const result = await validateSitemap(readFixture('structure-faults.xml'));
    assert.equal(result.valid, false);
    assert.deepEqual([...new Set(result.diagnostics.map((d) => d.rule))].sort(), ['R23', 'R33', 'R6', 'R7']);
  });
});

describe('set-wide checks in bounded memory', () => {
  const limits = { fingerprints: 1000, texts: 100, chars: 100 * 30 };
  const run = (locs: Iterable<string>, alternates?: (n: number) => { hreflang: string; href: string }[] | undefined) => {
    // Each finding with the number of the entry it is about (validate would place it by line).
    const found: Array<Diagnostic & { entry: number }> = [];
    let n = 0;
    const checks = new SitemapChecks({ base: undefined, scope: false, now: 0, limits }, (d) => found.push({ ...d, entry: n }));
    for (const loc of locs) {
      const more = alternates?.(n);
      n++;
      checks.entry(more === undefined ? { loc } : { loc, alternates: more }, 'urlset', n);
    }
    checks.end('urlset', n);
    return { found, held: checks.held };
  };
  it('R25 keeps at most `fingerprints` URLs and `texts` of them as text; past them it says so once, and repeats of those kept are still found', async () => {
    // 5,000 distinct URLs, then each of the first 2,000 again.
    const urls = Array.from({ length: 5000 }, (_, n) => `https://a.example/p/${n}`);
    const { found, held } = run([...urls, ...urls.slice(0, 2000)]);
    assert.deepEqual(held, { fingerprints: 1000, texts: 100, linkEntries: 100, links: 0 });
    const said = found.filter((d) => d.rule === 'R25');
    assert.deepEqual(said.filter((d) => d.level === 'info').map((d) => [d.entry, d.message]), [[1001, 'more than 1000 distinct URLs: from this one on, a URL not listed before is not checked for repeats']]);
    // The first 1,000 are known (100 by their text, 900 by fingerprint); the 1,000 after them are not.
    assert.deepEqual(said.filter((d) => d.level === 'warn').map((d) => d.entry), Array.from({ length: 1000 }, (_, n) => 5001 + n));
    // No R38 note: the file has no links.
    assert.deepEqual(found.filter((d) => d.rule === 'R38'), []);
  });
  it('R38 keeps the first `texts` URLs (within `chars`) and their links; a file with links past them is told so once, at its end', () => {
    const urls = Array.from({ length: 300 }, (_, n) => `https://a.example/p/${n}`);
    // Entry n links to n + 1 (en) and back is never said: every entry within the limit but the last one kept is told of.
    const { found, held } = run(urls, (n) => [{ hreflang: 'en', href: urls[n + 1] ?? urls[0] ?? '' }]);
    assert.deepEqual(held, { fingerprints: 300, texts: 100, linkEntries: 100, links: 100 });
    const r38 = found.filter((d) => d.rule === 'R38');
    assert.deepEqual(r38.filter((d) => d.level === 'info').map((d) => d.message), ['hreflang links are checked both ways among the first 100 URLs only (at most 100 of 3000 characters in all); the file lists more']);
    // Told at the end, each at the line of the entry that links (its line number here).
    assert.deepEqual(r38.filter((d) => d.message.endsWith('hreflang links must go both ways')).map((d) => d.line), Array.from({ length: 99 }, (_, n) => n + 1));
  });
  it('the findings kept are the first `max` in file order, however many come, and the counts stay exact', async () => {
    const body = Array.from({ length: 20_000 }, () => '<url><loc>https://a.example/same</loc></url>').join('\n');
    const result = await validateSitemap(urlset(body), { maxDiagnostics: 3 });
    assert.deepEqual(result.counts, { 'R25:warn': 19_999 });
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule}@${d.line}`), ['R25@4', 'R25@5', 'R25@6']);
    const kept = new FirstInFileOrder(2);
    for (const line of [9, 3, 7, 1, 8, 2, 5]) kept.add({ rule: 'R25', level: 'warn', message: String(line), line });
    assert.deepEqual(kept.list().map((d) => d.line), [1, 2]);
  });
});

describe('issue #30: validate on an index', () => {
  it('a relative <loc> in an index, without --base, is one R8 error, not two', async () => {
    const result = await validateSitemap(readFixture('index.xml'));
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule} ${d.level} ${d.line}:${d.column} ${d.message}`), [
      'R8 error 4:12 "sitemap-2.xml.gz" is a relative URL and the file\'s own URL is not known (--base) to resolve it',
    ]);
  });
});

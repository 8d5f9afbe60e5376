import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseSitemap, validateSitemap } from '../../src/index.ts';
import type { ParsedRecord } from '../../src/read/types.ts';
import { byteByByte, randomSplits } from '../helpers/parse.ts';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const XHTML = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"';
const VIDEO = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"';
const hreflang = new Uint8Array(readFileSync(new URL('../fixtures/validate/hreflang.xml', import.meta.url)));
const urlset = (ns: string, body: string): Uint8Array => new TextEncoder().encode(`<urlset ${NS} ${ns}>\n${body}\n</urlset>\n`);
const link = (lang: string, href: string): string => `<xhtml:link rel="alternate" hreflang="${lang}" href="${href}"/>`;
const show = (d: { rule: string; level: string; field?: string; line?: number; column?: number; url?: string }): string =>
  `${d.rule}:${d.level} ${d.field} ${d.line}${d.column === undefined ? '' : `:${d.column}`} ${d.url}`;

describe('validateSitemap: hreflang alternates (R38)', () => {
  it('a link to a <url> of the same file that does not link back is warned, once per pair, at the entry that lists it; links to URLs elsewhere are not', async () => {
    const result = await validateSitemap(hreflang);
    assert.deepEqual(result.diagnostics.map(show), [
      // Reported once the file is read (the <url> linked to may come later): at the entry's line.
      'R38:warn alternates[3].href 3 https://www.example.com/en/',
      'R38:warn alternates[3].href 17 https://www.example.com/fr/',
      // Its own link is checked as the entry is read: at the element.
      'R38:warn alternates[1].href 19:5 https://www.example.com/fr/',
      // en is linked twice (en and x-default), said once; pt lists no alternates at all.
      'R38:warn alternates[2].href 26 https://www.example.com/es/',
      'R38:warn alternates[4].href 26 https://www.example.com/es/',
    ]);
    assert.match(result.diagnostics[0]?.message ?? '', /^alternates\[3\]\.href https:\/\/www\.example\.com\/fr\/ is a <url> of this file that does not list this URL among its alternates/);
    assert.match(result.diagnostics[2]?.message ?? '', /https:\/\/www\.example\.com\/fr differs from it only by a trailing slash or letter case/);
    assert.equal(result.valid, true);
  });

  it('the findings do not depend on how the input was cut', async () => {
    const whole = (await validateSitemap(hreflang)).diagnostics;
    assert.deepEqual((await validateSitemap(byteByByte(hreflang))).diagnostics, whole);
    for (let seed = 1; seed <= 5; seed++) assert.deepEqual((await validateSitemap(randomSplits(hreflang, seed))).diagnostics, whole, `seed ${seed}`);
  });

  it('a URL listed in the file only as a repeat (R25) is checked once', async () => {
    const body = [
      `<url><loc>https://a.example/en</loc>${link('en', 'https://a.example/en')}${link('de', 'https://a.example/de')}</url>`,
      '<url><loc>https://a.example/de</loc></url>',
      `<url><loc>https://a.example/en</loc>${link('en', 'https://a.example/en')}${link('de', 'https://a.example/de')}</url>`,
    ].join('\n');
    const result = await validateSitemap(urlset(XHTML, body));
    assert.deepEqual(result.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field} ${d.line}`), ['R38:warn alternates[2].href 2', 'R25:warn loc 4']);
  });

  it('a link is named by its place among the links read, also when one before it is bad', async () => {
    const body = [
      `<url><loc>https://a.example/en</loc>${link('english', 'https://a.example/x')}${link('fr', '/fr')}${link('en', 'https://a.example/en')}${link('de', 'https://a.example/de')}</url>`,
      '<url><loc>https://a.example/de</loc></url>',
    ].join('\n');
    const result = await validateSitemap(urlset(XHTML, body));
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`),
      ['R38:warn alternates[4].href', 'R38:error alternates[1].hreflang', 'R8:error alternates[2].href'],
    );
  });

  it('a relative href is one R8 error at its link, with or without the file\'s URL (resolved against it when known), on a <url> whose loc is relative too; parse says the same, however the input was cut', async () => {
    const body = [
      `  <url><loc>https://a.example/en</loc>${link('en', 'https://a.example/en')}${link('de', '/de')}</url>`,
      `  <url><loc>/de</loc>${link('de', '/de')}${link('en', 'https://a.example/en')}</url>`,
    ].join('\n');
    const xml = urlset(XHTML, body);
    const said = (base: string | undefined): string[] => {
      const how = base === undefined ? "and the file's own URL is not known (--base) to resolve it" : `; resolved against ${base}`;
      const relative = (): string => `is a relative URL${how.startsWith(';') ? how : ` ${how}`}`;
      return [
        `R8:error alternates[2].href 2:110 alternates[2].href "/de" ${relative()}`,
        `R8:error undefined 3:8 "/de" ${relative()}`,
        `R8:error alternates[1].href 3:22 alternates[1].href "/de" ${relative()}`,
      ];
    };
    const line = (d: { rule: string; level: string; field?: string; line?: number; column?: number; message: string }): string => `${d.rule}:${d.level} ${d.field} ${d.line}:${d.column} ${d.message}`;
    for (const base of [undefined, 'https://a.example/sitemap.xml']) {
      const options = base === undefined ? {} : { base };
      const whole = await validateSitemap(xml, options);
      assert.deepEqual(whole.diagnostics.map(line), said(base), `base ${base}`);
      for (let seed = 1; seed <= 3; seed++) assert.deepEqual((await validateSitemap(randomSplits(xml, seed), options)).diagnostics, whole.diagnostics);
      const parsed = parseSitemap(byteByByte(xml), options);
      const hrefs: string[] = [];
      for await (const entry of parsed) hrefs.push(...((entry as ParsedRecord).alternates ?? []).map((alternate) => alternate.href));
      assert.deepEqual(parsed.diagnostics.map(line), said(base));
      assert.deepEqual(hrefs, base === undefined ? ['https://a.example/en', '/de', '/de', 'https://a.example/en'] : ['https://a.example/en', 'https://a.example/de', 'https://a.example/de', 'https://a.example/en']);
    }
  });

  it('a URL that does not list itself is warned at the <url>', async () => {
    const result = await validateSitemap(urlset(XHTML, `  <url><loc>https://a.example/en</loc>${link('de', 'https://a.example/de')}</url>`));
    assert.deepEqual(result.diagnostics.map((d) => `${show(d)} ${d.message}`), ['R38:warn alternates 2:3 https://a.example/en the URL is not listed among its own alternates']);
  });

  it('a video restriction with no country is warned at the element, naming its effect (R36)', async () => {
    const video = (restriction: string): string =>
      `<video:video><video:thumbnail_loc>https://a.example/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description><video:content_loc>https://a.example/v.mp4</video:content_loc>\n${restriction}</video:video>`;
    const body = [`<url><loc>https://a.example/1</loc>${video('<video:restriction relationship="allow"></video:restriction>')}</url>`, `<url><loc>https://a.example/2</loc>${video('<video:restriction relationship="deny"/>')}</url>`].join('\n');
    const result = await validateSitemap(urlset(VIDEO, body));
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field} ${d.line}:${d.column} ${d.message}`),
      [
        'R36:warn videos[1].restriction 3:1 videos[1].restriction allows no country: the video may be played nowhere (leave the restriction out to allow every country)',
        'R36:warn videos[1].restriction 5:1 videos[1].restriction denies no country, so it restricts nothing',
      ],
    );
  });
  it('in a file of thousands of URLs, a repeat and a one-way link far apart are found, however the URLs were written', async () => {
    const page = (n: number): string => `https://www.example.com/p/${n}`;
    const entries = Array.from({ length: 3000 }, (_, n) => `<url><loc>${page(n)}</loc></url>`);
    // Written with the host's case changed: the writer's form of the URL is what links are matched by, the form read what repeats are.
    entries[2] = `<url><loc>https://WWW.example.com/p/2</loc>${link('de', page(2990))}${link('en', page(2))}</url>`;
    entries[2990] = `<url><loc>${page(2990)}</loc>${link('de', page(2990))}</url>`;
    entries[2900] = `<url><loc>${page(5)}</loc></url>`;
    entries[2950] = `<url><loc>https://WWW.example.com/p/2</loc></url>`;
    const result = await validateSitemap(urlset(XHTML, entries.join('\n')));
    assert.deepEqual(result.diagnostics.map(show), [
      // At the entry that links (the URL as the writer writes it), found once the file is read.
      'R38:warn alternates[1].href 4 https://www.example.com/p/2',
      'R25:warn loc 2902:6 https://www.example.com/p/5',
      'R25:warn loc 2952:6 https://WWW.example.com/p/2',
    ]);
    assert.match(result.diagnostics[0]?.message ?? '', /^alternates\[1\]\.href https:\/\/www\.example\.com\/p\/2990 is a <url> of this file/);
  });
  it('URLs that differ only in a few characters are never taken for one another: no repeat (R25) among 46,656 of them, and a link to one is not matched to another (R38)', async () => {
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    // A family on which a weaker fingerprint (multiplies without rotation) gave ten colliding pairs, one of them these two.
    const urls: string[] = [];
    for (const a of alphabet) for (const b of alphabet) for (const c of alphabet) urls.push(`https://example.com/x/e${a}n${b}o${c}`);
    assert.ok(urls.includes('https://example.com/x/exnho7') && urls.includes('https://example.com/x/e6n3oz'));
    const family = await validateSitemap(urlset('', urls.map((url) => `<url><loc>${url}</loc></url>`).join('\n')));
    assert.deepEqual([family.valid, family.diagnostics], [true, []]);
    // Two that collided under it: exnho7 links to e6n3oz, which links back only to itself, so the link is one-way.
    const pair = await validateSitemap(
      urlset(
        XHTML,
        `<url><loc>https://example.com/x/exnho7</loc>${link('de', 'https://example.com/x/e6n3oz')}${link('en', 'https://example.com/x/exnho7')}</url>\n` +
          `<url><loc>https://example.com/x/e6n3oz</loc>${link('de', 'https://example.com/x/e6n3oz')}</url>`,
      ),
    );
    assert.deepEqual(pair.diagnostics.map(show), ['R38:warn alternates[1].href 2 https://example.com/x/exnho7']);
  });
});

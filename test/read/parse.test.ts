import assert from 'node:assert/strict';
import { createReadStream, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { parseSitemap, validateSitemap, type ParsedEntry } from '../../src/index.ts';
import { MAX_MALFORMED_REPORTS } from '../../src/read/xml/assemble.ts';
import { MAX_ROBOTS_BYTES } from '../../src/read/parse.ts';
import { MAX_SITEMAP_BYTES } from '../../src/rules/limits.ts';
import { byteByByte, parseChunks, parseEveryWay, randomSplits, readFixture, type ParseResult } from '../helpers/parse.ts';

const rules = (result: ParseResult, level?: string): string[] =>
  [...new Set(result.diagnostics.filter((d) => level === undefined || d.level === level).map((d) => d.rule))].sort();
const locs = (result: ParseResult): string[] => result.entries.map((e) => (e as { loc: string }).loc);
/** `read` gives `whole` for the input cut in two at every position from `from` on (the sniffing reads the first KiB whole), byte by byte and at random splits. */
/** GUNZIP_RETAINED_BYTES in parse.ts: a compressed file up to this size is kept while it is inflated. */
const GUNZIP_KEPT = 8 * 1024 * 1024;

/** A urlset that gzips large: a comment of `padding` random characters, then `count` entries with random paths, seeded. */
function paddedUrlset(seed: number, padding: number, count: number): string {
  const random = (): string => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed.toString(36));
  const noise: string[] = [];
  for (let length = 0; length < padding; length += noise[noise.length - 1]?.length ?? 0) noise.push(random());
  const entries = Array.from({ length: count }, () => `<url><loc>https://a.example/${random()}${random()}${random()}</loc></url>\n`).join('');
  return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<!-- ${noise.join('')} -->\n${entries}</urlset>\n`;
}

async function sameHoweverCut(bytes: Uint8Array, read: (chunks: Iterable<Uint8Array>) => Promise<unknown>, whole: unknown, from = 1): Promise<void> {
  for (let cut = from; cut < bytes.length; cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
  assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
  assert.deepEqual(await read(randomSplits(bytes, 11)), whole, 'random splits');
}
/** Each entry (`show`n) at its start, then each finding at its place: what must not depend on how the input was cut. */
async function placed(chunks: Iterable<Uint8Array>, show: (entry: ParsedEntry) => string = (entry) => entry.loc): Promise<string[]> {
  const parsed = parseSitemap(chunks, { trackPositions: true });
  const seen: string[] = [];
  for await (const entry of parsed) seen.push(`${show(entry)} ${parsed.positionOf(entry)?.line}:${parsed.positionOf(entry)?.column}`);
  return [...seen, ...parsed.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`)];
}

describe('every fixture parses the same whole, byte by byte and at random splits', () => {
  for (const name of readdirSync(new URL('../fixtures/read/', import.meta.url))) {
    it(name, async () => {
      const { whole, others } = await parseEveryWay(readFixture(name), { base: 'https://www.example.com/sitemap.xml' });
      // Positions are compared too: they must not depend on where chunks were cut.
      for (const other of others) assert.deepEqual(other, whole);
    });
  }
});

describe('formats', () => {
  it('urlset: comments, PIs, CDATA, entities, character references and padded locs', async () => {
    const result = await parseChunks([readFixture('urlset-basic.xml')]);
    assert.equal(result.kind, 'urlset');
    assert.deepEqual(result.entries, [
      { loc: 'https://www.example.com/', lastmod: '2024-05-31T12:00:00+02:00', changefreq: 'daily', priority: '1.0' },
      { loc: 'https://www.example.com/search?q=a&page=2', lastmod: '2024-05-30' },
      { loc: 'https://www.example.com/caf%C3%A9?x=1&y=2' },
      { loc: 'https://www.example.com/padded' },
    ]);
    // At the padded <loc>, not at its end tag two lines down.
    assert.deepEqual(result.diagnostics.map((d) => [d.rule, d.level, d.line]), [['R8', 'warn', 17]]);
  });

  it('extensions are matched by namespace URI, whatever the prefixes', async () => {
    const result = await parseChunks([readFixture('urlset-extensions.xml')]);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(result.entries, [
      {
        loc: 'https://www.example.com/en/article',
        lastmod: '2024-05-31',
        images: [{ loc: 'https://cdn.example.com/a.jpg' }, { loc: 'https://cdn.example.com/b.jpg', caption: 'Caption & more' }],
        videos: [
          {
            thumbnail_loc: 'https://cdn.example.com/t.jpg',
            title: 'A video',
            description: 'What it shows',
            content_loc: 'https://cdn.example.com/v.mp4',
            duration: '600',
            rating: '4.2',
            view_count: '12345',
            publication_date: '2024-05-01T08:00:00+00:00',
            tags: ['cooking', 'travel'],
            family_friendly: 'yes',
            restriction: { relationship: 'allow', countries: ['IE', 'GB', 'US'] },
            prices: [{ value: '1.99', currency: 'EUR', type: 'rent' }],
            requires_subscription: 'no',
            uploader: { name: 'Ann', info: 'https://www.example.com/u/1' },
            platform: { relationship: 'deny', platforms: ['tv'] },
            live: 'no',
          },
        ],
        news: { publication: { name: 'The Example Times', language: 'en' }, publication_date: '2024-05-31T09:00:00Z', title: 'Something happened' },
        alternates: [
          { hreflang: 'en', href: 'https://www.example.com/en/article' },
          { hreflang: 'de', href: 'https://www.example.com/de/artikel' },
        ],
      },
    ]);
  });

  it('sitemap index: child entries, relative locs resolved against --base and flagged R8', async () => {
    const result = await parseChunks([readFixture('index.xml')], { base: 'https://www.example.com/sitemap.xml' });
    assert.equal(result.kind, 'sitemapindex');
    assert.deepEqual(result.entries, [
      { loc: 'https://www.example.com/sitemap-1.xml.gz', lastmod: '2024-05-31' },
      { loc: 'https://www.example.com/sitemap-2.xml.gz' },
    ]);
    assert.deepEqual(rules(result), ['R8']);
  });

  it('a relative loc without a base is kept and reported as an error', async () => {
    const result = await parseChunks([readFixture('index.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/sitemap-1.xml.gz', 'sitemap-2.xml.gz']);
    assert.match(result.diagnostics[0]?.message ?? '', /not known \(--base\)/);
  });

  it('RSS 2.0: item links, pubDate as W3C lastmod, items without link reported', async () => {
    const result = await parseChunks([readFixture('rss.xml')]);
    assert.equal(result.kind, 'rss');
    assert.deepEqual(result.entries, [{ loc: 'https://www.example.com/one', lastmod: '2024-05-31T10:00:00Z' }, { loc: 'https://www.example.com/two' }]);
    assert.deepEqual(rules(result), ['R31']);
  });

  it('RSS pubDate is read by RFC 822 itself, whatever the machine\'s time zone: zones named and numeric, two-digit years, none read as UTC with a warning, ISO dates read with a warning', async () => {
    const item = (date: string): string => `<item><link>https://a.example/${encodeURIComponent(date)}</link><pubDate>${date}</pubDate></item>`;
    const dates: [string, string | null, string?][] = [
      ['Mon, 03 Jan 2005 10:00:00 GMT', '2005-01-03T10:00:00Z'],
      ['3 Jan 05 10:00 -0130', '2005-01-03T11:30:00Z'],
      ['Mon, 03 Jan 2005 10:00:00 EST', '2005-01-03T15:00:00Z'],
      ['Mon, 03 Jan 2005 10:00:00 UTC', '2005-01-03T10:00:00Z'],
      ['03 Jan 105 10:00 GMT', '2005-01-03T10:00:00Z'],
      ['31 Dec 2005 23:59:60 GMT', '2005-12-31T23:59:59Z'],
      ['03 Jan 0099 10:00:00 +0000', '0099-01-03T10:00:00Z'],
      ['Mon, 03 Jan 2005 10:00:00', '2005-01-03T10:00:00Z', 'has no time zone; read as UTC'],
      ['03 Jan 2005 10:00:00 CET', '2005-01-03T10:00:00Z', 'has a time zone RFC 822 does not name (CET); read as UTC'],
      ['Fri, 03 Jan 2005 10:00:00 GMT', '2005-01-03T10:00:00Z', 'names the wrong weekday (Fri) for the date'],
      ['2005-01-03T10:00:00+01:00', '2005-01-03T09:00:00Z', 'is a W3C date, not RFC 822; read as such'],
      ['31 Feb 2005 10:00:00 GMT', null, 'is not an RFC 822 date; ignored'],
      ['03 Jan 2005 10:17:60 GMT', null, 'is not an RFC 822 date; ignored'],
      ['01 Jan 0000 00:10:00 +0100', null, 'is not an RFC 822 date; ignored'],
      ['yesterday', null, 'is not an RFC 822 date; ignored'],
    ];
    const rss = new TextEncoder().encode(`<rss version="2.0"><channel>${dates.map(([date]) => item(date)).join('')}</channel></rss>`);
    const result = await parseChunks([rss]);
    assert.deepEqual(
      result.entries.map((e) => (e as { lastmod?: string }).lastmod ?? null),
      dates.map(([, lastmod]) => lastmod),
    );
    assert.deepEqual(
      result.diagnostics.map((d) => d.message),
      dates.filter(([, , doubt]) => doubt !== undefined).map(([date, , doubt]) => `<pubDate> "${date}" ${doubt}`),
    );
  });

  it('Atom: the alternate (or rel-less) link, never self or edit', async () => {
    const result = await parseChunks([readFixture('atom.xml')]);
    assert.equal(result.kind, 'atom');
    assert.deepEqual(result.entries, [{ loc: 'https://www.example.com/one', lastmod: '2024-05-31T10:00:00Z' }, { loc: 'https://www.example.com/two' }]);
  });

  it('plain text: BOM and CRLF handled, blank lines skipped, non-URLs reported with their line', async () => {
    const result = await parseChunks([readFixture('text.txt')]);
    assert.equal(result.kind, 'text');
    assert.deepEqual(locs(result), ['https://www.example.com/a', 'https://www.example.com/b', 'https://www.example.com/c']);
    assert.deepEqual(result.diagnostics.map((d) => [d.rule, d.line]), [['R30', 4]]);
  });

  it('a text list or a robots.txt is told the same however the bytes are cut, even behind a long comment banner', async () => {
    // Told from the first 8 KiB: comments filling them make a robots.txt.
    const banner = `# ${'='.repeat(98)}\n`.repeat(100);
    for (const [text, kind, count] of [
      [`${banner.slice(0, 5_050)}https://a.example/1\nhttps://a.example/2\n`, 'text', 2],
      [`${banner.slice(0, 8_181)}\nhttps://a.example/1\n`, 'text', 1],
      [`${banner}https://a.example/1\n`, 'robots', 0],
      [`${banner.slice(0, 8_188)}\nUser-agent: *\nSitemap: https://a.example/s.xml\n`, 'robots', 1],
    ] as const) {
      const { whole, others } = await parseEveryWay(new TextEncoder().encode(text), {}, 3);
      for (const other of others) assert.deepEqual(other, whole);
      assert.deepEqual([whole.kind, whole.entries.length], [kind, count]);
    }
  });
  it('plain text opening with a comment line is still a text list (the comment an R30 error), not a robots.txt; comments alone are a robots.txt', async () => {
    const result = await parseChunks([readFixture('text-with-comment.txt')]);
    assert.equal(result.kind, 'text');
    assert.deepEqual(locs(result), ['https://www.example.com/a', 'https://www.example.com/b']);
    assert.deepEqual(result.diagnostics.map((d) => [d.rule, d.line]), [['R30', 1]]);
    const comments = await parseChunks([new TextEncoder().encode('# nothing to see\n# here\n')]);
    assert.deepEqual([comments.kind, comments.entries, comments.diagnostics], ['robots', [], []]);
  });

  it('plain text: line ends of every kind and blank lines count the same however the bytes are cut; a line past 64 KiB is skipped (R30) without being kept whole', async () => {
    const lines = (long: string): string => `https://a.example/1\r\n\nnot a url\r\rhttps://a.example/2\n${long}\r\nhttps://a.example/3\r\n\r\nhttps://a.example/4`;
    const { whole, others } = await parseEveryWay(new TextEncoder().encode(lines('x')));
    for (const other of others) assert.deepEqual(other, whole);
    assert.deepEqual(locs(whole), ['https://a.example/1', 'https://a.example/2', 'https://a.example/3', 'https://a.example/4']);
    assert.deepEqual(whole.diagnostics.map((d) => [d.rule, d.line]), [['R30', 3], ['R30', 6]]);
    const bytes = new TextEncoder().encode(lines('x'.repeat(200_000)));
    const long = await parseChunks([bytes]);
    assert.deepEqual(locs(long), locs(whole));
    assert.deepEqual(long.diagnostics.map((d) => [d.rule, d.line, d.message]), [
      ['R30', 3, 'line is not an absolute http(s) URL: "not a url"; skipped'],
      ['R30', 6, 'line is longer than 65536 characters (200000); skipped'],
    ]);
    for (const seed of [1, 2]) assert.deepEqual(await parseChunks(randomSplits(bytes, seed)), long);
    // Within one piece or across several: the same finding (an over-long URL is no exception).
    const url = new TextEncoder().encode(`https://a.example/${'p'.repeat(80_000)}\nhttps://a.example/5\n`);
    const overlong = await parseChunks([url]);
    assert.deepEqual([locs(overlong), overlong.diagnostics.map((d) => [d.rule, d.line, d.message])], [['https://a.example/5'], [['R30', 1, 'line is longer than 65536 characters (80018); skipped']]]);
    assert.deepEqual(await parseChunks(randomSplits(url, 3)), overlong);
    assert.deepEqual(await parseChunks([url.subarray(0, 30_000), url.subarray(30_000)]), overlong);
  });

  it('robots.txt: Sitemap lines, any case, cross-host allowed', async () => {
    const result = await parseChunks([readFixture('robots.txt')], { base: 'https://www.example.com/robots.txt' });
    assert.equal(result.kind, 'robots');
    assert.deepEqual(locs(result), ['https://www.example.com/sitemap.xml', 'https://cdn.example.net/sitemap-b.xml']);
  });
});

describe('entries of one shape, taken whole', () => {
  it('video and news entries (groups two deep, many names of one prefix) give the full records', async () => {
    const entry = (n: number): string =>
      `<url><loc>https://a.example/${n}</loc><video:video><video:thumbnail_loc>https://a.example/t${n}.jpg</video:thumbnail_loc>` +
      `<video:title>Clip &amp; ${n}</video:title><video:description>About</video:description><video:content_loc>https://a.example/c${n}.mp4</video:content_loc>` +
      `<video:duration>60</video:duration><video:tag>a</video:tag><video:tag>b</video:tag></video:video><news:news><news:publication>` +
      `<news:name>Example</news:name><news:language>en</news:language></news:publication><news:publication_date>2026-11-0${n}</news:publication_date>` +
      `<news:title> Story </news:title></news:news></url>\n`;
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n${[1, 2, 3].map(entry).join('')}</urlset>\n`;
    const result = await parseChunks([new TextEncoder().encode(xml)]);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(
      result.entries,
      [1, 2, 3].map((n) => ({
        loc: `https://a.example/${n}`,
        videos: [{ thumbnail_loc: `https://a.example/t${n}.jpg`, title: `Clip & ${n}`, description: 'About', content_loc: `https://a.example/c${n}.mp4`, duration: '60', tags: ['a', 'b'] }],
        news: { publication: { name: 'Example', language: 'en' }, publication_date: `2026-11-0${n}`, title: 'Story' },
      })),
    );
  });

  it('records of one shape share a hidden class, whichever way they were read, so reading their fields stays monomorphic', async () => {
    setFlagsFromString('--allow-natives-syntax');
    const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    const fields = (n: number): string => `<lastmod>2026-11-0${n}</lastmod><changefreq>daily</changefreq><priority>0.${n}</priority>`;
    // A CDATA section sends the first entry through the usual open/text/close events; the others are taken whole.
    const xml =
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc><![CDATA[https://a.example/1]]></loc>${fields(1)}</url>\n` +
      [2, 3, 4, 5].map((n) => `<url><loc>https://a.example/${n}</loc>${fields(n)}</url>\n`).join('') +
      `</urlset>\n`;
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc><![CDATA[https://a.example/1.xml]]></loc><lastmod>2026-11-01</lastmod></sitemap>\n` +
      [2, 3, 4].map((n) => `<sitemap><loc>https://a.example/${n}.xml</loc><lastmod>2026-11-0${n}</lastmod></sitemap>\n`).join('') + `</sitemapindex>\n`;
    for (const text of [xml, index]) {
      const result = await parseChunks([new TextEncoder().encode(text)]);
      assert.deepEqual(result.diagnostics, []);
      const [first, ...rest] = result.entries as object[];
      assert.equal(rest.length, text === xml ? 4 : 3);
      for (const other of rest) assert.ok(haveSameMap(first as object, other), `${JSON.stringify(first)} and ${JSON.stringify(other)}`);
    }
  });
});

describe('chunks of text', () => {
  it('entries cut by chunk ends and waited for, in a large file: the same entries, findings and places at any chunk size', async () => {
    // Every 97th entry has a finding (an unknown child): its place after each seam is checked too.
    const entries = Array.from({ length: 4000 }, (_, i) =>
      i % 97 === 5
        ? `<url><loc>https://a.example/${i}</loc><extra>x</extra></url>`
        : `<url><loc>https://a.example/p/${i}?a=1&amp;b=2</loc><lastmod>2026-01-01</lastmod><changefreq>daily</changefreq><priority>0.${i % 10}</priority></url>`,
    );
    const bytes = new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`);
    const inPiecesOf = (size: number): Uint8Array[] => Array.from({ length: Math.ceil(bytes.length / size) }, (_, k) => bytes.subarray(k * size, (k + 1) * size));
    const whole = await placed([bytes]);
    assert.equal(whole.filter((line) => line.startsWith('https://')).length, 4000);
    assert.ok(whole.some((line) => line.startsWith('R6 ')), 'the unknown children are reported');
    for (const size of [65536, 20000, 9000, 5000, 3000]) assert.deepEqual(await placed(inPiecesOf(size)), whole, `in pieces of ${size}`);
  });
});

describe('encodings', () => {
  const cafe = ['https://www.example.com/café'];
  it('UTF-8 with a BOM is fine', async () => {
    const result = await parseChunks([readFixture('utf8-bom.xml')]);
    assert.deepEqual(locs(result), cafe);
    assert.deepEqual(result.diagnostics, []);
  });
  it('UTF-8 with a BOM: a U+FFFD the file spells out is its own, and a bad byte is placed where it is, however the input is cut', async () => {
    const encode = (text: string): number[] => [...new TextEncoder().encode(text)];
    const head = `<?xml version="1.0"?><!--${'p'.repeat(9000)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/\uFFFD`;
    const tail = '</loc></url>\n</urlset>\n';
    const spelt = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(head), ...encode(tail)]);
    const bad = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(head), 0xff, ...encode(tail)]);
    const r1 = async (chunks: Iterable<Uint8Array>): Promise<string[]> =>
      (await parseChunks(chunks)).diagnostics.filter((d) => d.rule === 'R1').map((d) => `${d.line}:${d.column}`);
    for (const [bytes, want] of [[spelt, []], [bad, ['3:30']]] as const) {
      for (const chunks of [[bytes], [bytes.subarray(0, 8192), bytes.subarray(8192)], [bytes.subarray(0, 9100), bytes.subarray(9100)], randomSplits(bytes, 5)]) {
        assert.deepEqual(await r1(chunks), want);
      }
    }
  });
  for (const name of ['utf16le-bom.xml', 'utf16be-bom.xml', 'latin1.xml']) {
    it(`${name} is decoded correctly and flagged R1`, async () => {
      const result = await parseChunks([readFixture(name)]);
      assert.deepEqual(locs(result), cafe);
      assert.deepEqual(rules(result), ['R1']);
    });
  }
  it('bytes that are not UTF-8 are replaced and flagged R1', async () => {
    const result = await parseChunks([readFixture('invalid-utf8.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/caf\uFFFD']);
    assert.deepEqual(rules(result), ['R1']);
  });
  it('R1 is placed at the first bytes that are not UTF-8, after a literal U+FFFD and an emoji, in order among the findings, at every cut', async () => {
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    const head = encode(`<?xml version="1.0"?><!--${'p'.repeat(1100)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/\uFFFD\u{1F600}?a&b</loc></url>\n<url><loc>https://a.example/`);
    const tail = encode('x</loc></url>\n<url><loc>https://a.example/\uFFFD</loc></url>\n</urlset>\n');
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    // A lone continuation byte, a character cut short (E2 82 before ASCII), and an invalid lead byte: the first one is reported.
    for (const bad of [[0x80], [0xe2, 0x82], [0xff, 0xfe]]) {
      const bytes = new Uint8Array([...head, ...bad, ...tail]);
      const whole = await read([bytes]);
      assert.deepEqual(whole.slice(-2), [
        'R2 3:34 not well-formed XML: "&" that starts no entity reference ("ps://a.example/\uFFFD\u{1F600}?a&b"); read literally, write &amp;',
        'R1 4:29 bytes that are not valid UTF-8 (replaced with U+FFFD)',
      ]);
      await sameHoweverCut(bytes, read, whole, 1150);
    }
    // Cut short at the very end.
    const truncated = new Uint8Array([...head, 0xf0, 0x9f]);
    const cutShort = await read([truncated]);
    assert.ok(cutShort.includes('R1 4:29 bytes that are not valid UTF-8 (replaced with U+FFFD)'), JSON.stringify(cutShort));
    await sameHoweverCut(truncated, read, cutShort, 1150);
  });
  it('a byte-order mark cut over the first chunks: the bytes that are not UTF-8 are still told from a literal U+FFFD, at every cut', async () => {
    // Small on purpose: every way of cutting reaches the decoder, the first bytes included.
    const text = '\uFEFF<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/\uFFFD</loc></url><url><loc>https://a.example/';
    const bytes = new Uint8Array([...new TextEncoder().encode(text), 0xff, ...new TextEncoder().encode('x</loc></url></urlset>')]);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    const whole = await read([bytes]);
    assert.deepEqual(whole, ['https://a.example/\uFFFD 1:61', 'https://a.example/\uFFFDx 1:102', 'R1 1:130 bytes that are not valid UTF-8 (replaced with U+FFFD)']);
    await sameHoweverCut(bytes, read, whole);
  });
  it('an unpaired surrogate in UTF-16 is R1 at its place, after a literal U+FFFD and an emoji, however the bytes were cut', async () => {
    const text = `<?xml version="1.0" encoding="UTF-16"?><!--${'p'.repeat(600)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/\uFFFD\u{1F600}</loc></url>\n<url><loc>https://a.example/\uD800A</loc></url>\n</urlset>\n`;
    for (const littleEndian of [true, false]) {
      const bytes = new Uint8Array(2 + 2 * text.length);
      const view = new DataView(bytes.buffer);
      view.setUint16(0, 0xfeff, littleEndian);
      for (let i = 0; i < text.length; i++) view.setUint16(2 + 2 * i, text.charCodeAt(i), littleEndian);
      const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
      const whole = await read([bytes]);
      assert.deepEqual(whole.slice(0, 2), ['https://a.example/\uFFFD\u{1F600} 3:1', 'https://a.example/\uFFFDA 4:1']);
      assert.deepEqual(whole.filter((line) => line.startsWith('R1')).map((line) => line.split(' ').slice(0, 2).join(' ')), ['R1 1:1', 'R1 4:29']);
      assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
      assert.deepEqual(await read(randomSplits(bytes, 3)), whole, 'random splits');
    }
  });
  it('a UTF-16 file without a byte-order mark: told by its first characters; its own U+FFFD is not taken for an unpaired surrogate', async () => {
    // Bytes counted from the file's start, not from after a mark it does not have.
    const declaration = new Uint8Array(Buffer.from('<?xml version="1.0" encoding="UTF-16"?>   ', 'utf16le'));
    const parsed = await parseChunks([new Uint8Array([...declaration, 0xfd, 0xff, 0x41, 0x00])]);
    assert.deepEqual(parsed.diagnostics.filter((d) => d.rule === 'R1').map((d) => d.message), ['the file is encoded in UTF-16 (little-endian, without a byte-order mark), not UTF-8; decoded as utf-16le']);
    const bigEndian = Buffer.from(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/é</loc></url></urlset>`, 'utf16le').swap16();
    const read = await parseChunks([new Uint8Array(bigEndian)]);
    assert.deepEqual([read.kind, locs(read), rules(read)], ['urlset', ['https://a.example/é'], ['R1']]);
  });
  it('a declaration the bytes belie: UTF-8 declared as UTF-16 (the .NET StringWriter mislabel), or after a UTF-8 byte-order mark, is read as UTF-8 with R1', async () => {
    const urlset = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/é</loc></url></urlset>';
    for (const [prefix, label] of [['', 'utf-16'], ['\uFEFF', 'ISO-8859-1']] as const) {
      const result = await parseEveryWay(new TextEncoder().encode(`${prefix}<?xml version="1.0" encoding="${label}"?>\n${urlset}`));
      for (const other of result.others) assert.deepEqual(other, result.whole);
      assert.deepEqual([result.whole.kind, locs(result.whole), result.whole.diagnostics.map((d) => `${d.rule} ${d.message}`)], [
        'urlset',
        ['https://a.example/é'],
        [prefix === '' ? `R1 the file declares "${label.toLowerCase()}", but its bytes are one byte a character, not UTF-16; read as UTF-8` : `R1 the file declares "${label.toLowerCase()}" but starts with a UTF-8 byte-order mark; read as UTF-8`],
      ]);
    }
  });
  it('bytes that are not UTF-8 after reading stopped at the cap on findings are not reported, however the input was cut', async () => {
    const head = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<url><loc>https://a.example/&x</loc></url>\n'.repeat(120)}<url><loc>https://a.example/`);
    const bytes = new Uint8Array([...head, 0xff, ...new TextEncoder().encode('</loc></url></urlset>')]);
    const counts = async (chunks: Iterable<Uint8Array>): Promise<unknown> => (await validateSitemap(chunks)).counts;
    const whole = await counts([bytes]);
    assert.equal((whole as Record<string, number>)['R1:error'], undefined);
    assert.deepEqual(await counts(byteByByte(bytes)), whole);
    assert.deepEqual(await counts(randomSplits(bytes, 1)), whole);
  });
});

describe('gzip is found by its magic bytes', () => {
  for (const [name, compressed, extra] of [
    ['gzipped.xml.gz', true, []],
    ['not-really-gzipped.xml.gz', false, []],
    ['double-gzipped.xml.gz', true, ['R4']],
  ] as const) {
    it(name, async () => {
      const result = await parseChunks([readFixture(name)]);
      assert.equal(result.compressed, compressed);
      assert.deepEqual(locs(result), ['https://www.example.com/gz']);
      assert.deepEqual(rules(result), [...extra]);
    });
  }
  it('bytes after the gzip data (a newline, a server comment) are ignored with a warning; every member is read', async () => {
    const result = await parseChunks([readFixture('gzip-trailing-garbage.xml.gz')]);
    assert.deepEqual(locs(result), ['https://www.example.com/first-member', 'https://www.example.com/second-member']);
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`),
      ['R4 warn 26 bytes after the gzip data are not gzip; ignored'],
    );
    const xml = gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>');
    const ignored = async (tail: Uint8Array, chunks: (bytes: Uint8Array) => Iterable<Uint8Array> | AsyncIterable<Uint8Array> = (bytes) => [bytes]) => {
      const parsed = parseSitemap(chunks(Buffer.concat([xml, tail])));
      const seen: string[] = [];
      for await (const entry of parsed) seen.push(entry.loc);
      return [seen, parsed.diagnostics.map((d) => d.message)];
    };
    assert.deepEqual(await ignored(Buffer.from('\n')), [['https://a.example/'], ['1 byte after the gzip data is not gzip; ignored']]);
    // zlib stops at a zero byte without a word: what follows it is reported all the same.
    assert.deepEqual(await ignored(Buffer.from('\0garbage')), [['https://a.example/'], ['8 bytes after the gzip data are not gzip; ignored']]);
    assert.deepEqual(await ignored(Buffer.alloc(100)), [['https://a.example/'], []]);
    // The count is the same however slowly the bytes come, and says so when the bytes go on past what is kept.
    const slowly = async function* (bytes: Uint8Array): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += 50_000) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        yield bytes.subarray(at, at + 50_000);
      }
    };
    const garbage = new Uint8Array(300_000).fill(0x41);
    assert.deepEqual(await ignored(garbage), [['https://a.example/'], ['300000 bytes after the gzip data are not gzip; ignored']]);
    assert.deepEqual(await ignored(garbage, slowly), [['https://a.example/'], ['300000 bytes after the gzip data are not gzip; ignored']]);
    const [, endless] = await ignored(new Uint8Array(GUNZIP_KEPT + 1_000_000).fill(0x41));
    assert.match(endless?.join() ?? '', /^more than \d+ bytes after the gzip data are not gzip; ignored$/);
  });
  it('bytes after gzip data that ends near what is kept: the same entries and the same finding however fast the bytes come', async () => {
    const gz = gzipSync(paddedUrlset(11, 12_650_000, 20_000));
    assert.ok(gz.length > GUNZIP_KEPT - 300_000 && gz.length < GUNZIP_KEPT, `${gz.length} bytes`);
    const bytes = Buffer.concat([gz, new Uint8Array(200_000).fill(0x41)]);
    const read = async (source: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) => {
      const parsed = parseSitemap(source);
      const locs: string[] = [];
      for await (const entry of parsed) locs.push(entry.loc);
      return [locs.length, parsed.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`)];
    };
    const whole = await read([bytes]);
    assert.deepEqual(whole, [20_000, [`R4 warn more than ${GUNZIP_KEPT - gz.length} bytes after the gzip data are not gzip; ignored`]]);
    const slowly = async function* (): AsyncGenerator<Uint8Array> {
      for (let at = 0; at < bytes.length; at += 500_000) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        yield bytes.subarray(at, at + 500_000);
      }
    };
    assert.deepEqual(await read(slowly()), whole);
    assert.deepEqual(await read(randomSplits(bytes, 3)), whole);
  });
  it('bytes after the gzip data with the cap in the output gunzip lost: the cap is reported, not damage', async () => {
    const entries = Array.from({ length: 3_000 }, (_, n) => `<url><loc>https://a.example/${n}</loc></url>`).join('');
    const gz = gzipSync(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`);
    const result = await parseChunks([Buffer.concat([gz, Buffer.from('junk')])], { maxBytes: 50_000 });
    assert.deepEqual(rules(result, 'error'), ['INPUT', 'R2']);
    assert.match(result.diagnostics.find((d) => d.rule === 'INPUT')?.message ?? '', /^stopped reading at 50000 bytes/);
    assert.ok(result.entries.length > 1000, `${result.entries.length} entries`);
  });
  it('a member whose header checksum is wrong is damage (R4), as for gzip -d', async () => {
    const plain = gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>');
    const header = Buffer.from(plain.subarray(0, 10));
    header[3] = 0x02;
    const result = await parseChunks([Buffer.concat([header, Buffer.from([0xde, 0xad]), plain.subarray(10)])]);
    assert.ok(rules(result, 'error').includes('R4'), JSON.stringify(result.diagnostics));
  });
  it('a gzip member after good ones that is damaged: the good ones are read, the damage reported', async () => {
    const first = gzipSync('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url>');
    const second = gzipSync('<url><loc>https://a.example/2</loc></url></urlset>');
    second[12] = 0xff;
    const result = await parseChunks([Buffer.concat([first, second])]);
    assert.deepEqual(locs(result), ['https://a.example/']);
    assert.deepEqual(rules(result, 'error'), ['R2', 'R4']);
    assert.match(result.diagnostics.find((d) => d.rule === 'R4')?.message ?? '', /^the gzip data is damaged \(.+\); read up to the damage$/);
  });
  it('bytes after the gzip data of a file too large to keep while inflating: all but the last piece read, and the loss reported', async () => {
    const gz = gzipSync(paddedUrlset(7, 13_400_000, 90_000));
    assert.ok(gz.length > GUNZIP_KEPT, `${gz.length} bytes`);
    const result = await parseChunks([Buffer.concat([gz, Buffer.from('junk')])]);
    assert.ok(result.entries.length > 80_000 && result.entries.length < 90_000, `${result.entries.length} entries`);
    assert.ok(rules(result, 'error').includes('R4'));
  });
  it('damaged gzip: the URLs before the damage are kept, and it is reported', async () => {
    const result = await parseChunks([readFixture('damaged.xml.gz')]);
    assert.ok(result.entries.length >= 1);
    assert.ok(rules(result).includes('R4'));
  });
});

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
  it('truncated file: the URLs before the break are kept', async () => {
    const result = await parseChunks([readFixture('truncated.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/1', 'https://www.example.com/2']);
    assert.ok(rules(result, 'error').includes('R2'));
  });
  it('an HTML error page served as sitemap.xml is named as such', async () => {
    const result = await parseChunks([readFixture('html-error-page.xml')]);
    assert.equal(result.kind, 'unknown');
    assert.equal(result.entries.length, 0);
    assert.ok(result.diagnostics.some((d) => d.rule === 'R5' && /HTML page/.test(d.message)));
  });
  it('an HTML page spelling its doctype the HTML way (<!doctype html>) is named as such in two findings, not one per character', async () => {
    const page = new TextEncoder().encode('\n  <!doctype html>\n<html lang="en"><head><title>Not found</title></head><body><p>Sorry</p></body></html>\n');
    const { whole, others } = await parseEveryWay(page);
    for (const other of others) assert.deepEqual(other, whole);
    assert.equal(whole.kind, 'unknown');
    assert.deepEqual(whole.diagnostics.map((d) => [d.rule, d.level, d.line, d.column]), [['R2', 'error', 2, 3], ['R5', 'error', 2, 3]]);
    assert.match(whole.diagnostics[1]?.message ?? '', /an HTML page, not a sitemap/);
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
    // The parser's own complaint about each further element stops at the cap.
    assert.ok(result.diagnostics.length <= MAX_MALFORMED_REPORTS + 2, `${result.diagnostics.length} findings`);
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
  it('empty and whitespace-only bodies', async () => {
    assert.deepEqual(rules(await parseChunks([new Uint8Array(0)])), ['R5']);
    assert.deepEqual(rules(await parseChunks([new TextEncoder().encode(' \n ')])), ['R5']);
  });
});

describe('hostile input', () => {
  it('XXE: the DOCTYPE is ignored, the external entity never read', async () => {
    const result = await parseChunks([readFixture('xxe.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/&xxe;', 'https://www.example.com/after']);
    assert.ok(result.diagnostics.some((d) => d.rule === 'R2' && d.level === 'warn' && /DOCTYPE ignored/.test(d.message)));
    assert.ok(result.diagnostics.some((d) => d.rule === 'R2' && d.level === 'error'));
  });
  it('billion laughs: nothing is expanded', async () => {
    const result = await parseChunks([readFixture('billion-laughs.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/&lol9;']);
    assert.ok(rules(result, 'error').includes('R2'));
  });
  it('a DOCTYPE without an internal subset is reported and read past: the file reads as it would without one, broken parts recovered alike', async () => {
    const body = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '<url><loc>https://a.example/1?a&b</loc></lo></url>',
      '<url><loc>https://a.example/2</loc></url></foo>',
      '<url><loc>https://a.example/3</loc></url>',
      '</urlset>',
      '',
    ].join('\n');
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    const without = await read([new TextEncoder().encode(`<?xml version="1.0"?>\n${body}`)]);
    assert.equal(without.filter((line) => line.startsWith('https://')).length, 3);
    const oneLineDown = without.map((line) => line.replace(/ (\d+):(\d+)/, (_, l: string, c: string) => ` ${Number(l) + 1}:${c}`));
    for (const doctype of ['<!DOCTYPE urlset>', '<!DOCTYPE urlset SYSTEM "sitemap.dtd">', "<!DOCTYPE urlset PUBLIC '-//x//EN' 'x.dtd' >"]) {
      const bytes = new TextEncoder().encode(`<?xml version="1.0"?>\n${doctype}\n${body}`);
      const whole = await read([bytes]);
      assert.deepEqual(whole.filter((line) => !line.includes('DOCTYPE ignored')), oneLineDown, doctype);
      assert.deepEqual(whole.filter((line) => line.includes('DOCTYPE ignored')).map((line) => line.split(' ').slice(0, 2).join(' ')), [`R2 2:${doctype.length + 1}`]);
      await sameHoweverCut(bytes, read, whole);
    }
    // A second DOCTYPE, or one after the root, is saxes' to judge: not well-formed.
    for (const text of [`<!DOCTYPE urlset><!DOCTYPE urlset>${body}`, `${body}<!DOCTYPE urlset>`]) {
      const parsed = await parseChunks([new TextEncoder().encode(text)]);
      assert.ok(parsed.diagnostics.some((d) => d.rule === 'R2' && d.level === 'error' && d.message.includes('inappropriately located doctype')), JSON.stringify(parsed.diagnostics));
    }
  });
  it('deep nesting is bounded', async () => {
    const result = await parseChunks([readFixture('deep-nesting.xml')]);
    assert.deepEqual(locs(result), ['https://www.example.com/deep']);
    assert.ok(result.diagnostics.some((d) => /nested deeper than/.test(d.message)));
  });
  it('a gzip bomb stops at the size cap: R3 at a cap past the protocol\'s limit, below it a finding about the cap, not the file', async () => {
    const bomb = gzipSync(new Uint8Array(64 * 1024 * 1024).fill(0x20));
    const capped = await parseChunks([bomb], { maxBytes: 4 * 1024 * 1024 });
    assert.deepEqual(capped.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`), [
      'INPUT error stopped reading at 4194304 bytes (decompressed), the limit set by maxBytes (--max-bytes); the rest of the file is not read or checked',
      'R5 error the file holds only whitespace',
    ]);
    const limit = await parseChunks([bomb], { maxBytes: MAX_SITEMAP_BYTES });
    assert.deepEqual(limit.diagnostics.map((d) => `${d.rule} ${d.level} ${d.message}`), [
      `R3 error stopped reading at ${MAX_SITEMAP_BYTES} bytes (decompressed); the rest of the file is not read`,
      'R5 error the file holds only whitespace',
    ]);
  });
  it('a giant text node is bounded by the size cap, not held whole', async () => {
    const giant = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/${'a'.repeat(3 * 1024 * 1024)}`);
    const result = await parseChunks([giant], { maxBytes: 1024 * 1024 });
    assert.ok(rules(result).includes('INPUT'));
  });
  it('binary garbage: a clear error, and reading stops', async () => {
    const garbage = new Uint8Array(200_000).map((_, i) => (i * 7919) % 256);
    garbage[0] = 0x3c;
    const result = await parseChunks([garbage]);
    assert.equal(result.entries.length, 0);
    assert.ok(result.diagnostics.length > 0);
  });
});

describe('positions (trackPositions)', () => {
  it('an entry is placed only by the parse that read it with trackPositions; its place adds no key, and what is no entry has none', async () => {
    const bytes = new TextEncoder().encode('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/1</loc><lastmod>2026-11-01</lastmod></url>\n</urlset>\n');
    const tracked = parseSitemap([bytes], { trackPositions: true });
    const entries: ParsedEntry[] = [];
    for await (const entry of tracked) entries.push(entry);
    const [entry] = entries;
    assert.ok(entry !== undefined);
    assert.deepEqual([tracked.positionOf(entry), tracked.positionOf(entry, 'lastmod')], [{ line: 2, column: 1 }, { line: 2, column: 36 }]);
    // The place is no property anyone sees: the entry is its fields alone.
    assert.deepEqual(Reflect.ownKeys(entry), ['loc', 'lastmod']);
    assert.deepEqual(entry, { loc: 'https://a.example/1', lastmod: '2026-11-01' });
    // Another parse, with or without positions, does not place what it did not read.
    const other = parseSitemap([bytes], { trackPositions: true });
    for await (const mine of other) assert.deepEqual(other.positionOf(mine), { line: 2, column: 1 });
    assert.equal(other.positionOf(entry), undefined);
    const untracked = parseSitemap([bytes]);
    for await (const mine of untracked) assert.equal(untracked.positionOf(mine), undefined);
    assert.equal(untracked.positionOf(entry), undefined);
    // What is no entry (a caller's mistake in plain JavaScript) has no place, rather than a TypeError.
    for (const notAnEntry of [undefined, null, 'https://a.example/1', 7, {}]) assert.equal(tracked.positionOf(notAnEntry as unknown as ParsedEntry), undefined);
  });
});

describe('line ends', () => {
  // Pretty-printed, with line ends between and inside entries, in a tag and in a text; the padding puts the cuts past the sniffed first KiB.
  const entry = (n: number): string[] => ['  <url>', `    <loc>https://a.example/${n}?a=1&amp;b=2</loc>`, `    <lastmod>2026-11-0${n}</lastmod>`, '    <xhtml:link', `      rel="alternate" hreflang="de" href="https://a.example/de/${n}"/>`, '  </url>'];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    `<!--${'x'.repeat(1100)}-->`,
    ...[1, 2, 3, 1, 4].flatMap(entry),
    ...['  <url>', '    <loc>', '      https://a.example/5', '    </loc>', '    <lastmod>yesterday</lastmod>', '  </url>', '</urlset>', ''],
  ];
  const read = async (chunks: Uint8Array[]): Promise<unknown> => {
    const parsed = parseSitemap(chunks, { trackPositions: true });
    const seen: string[] = [];
    for await (const entry of parsed) seen.push(`${(entry as { loc: string }).loc} ${parsed.positionOf(entry)?.line}:${parsed.positionOf(entry)?.column}`);
    const validated = await validateSitemap(chunks);
    return { seen, diagnostics: validated.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`) };
  };
  const expected = {
    seen: ['1?a=1&b=2 4:3', '2?a=1&b=2 10:3', '3?a=1&b=2 16:3', '1?a=1&b=2 22:3', '4?a=1&b=2 28:3', '5 34:3'].map((s) => `https://a.example/${s}`),
    // Findings about a field are placed at its element: the repeated <loc>, the bad <lastmod>, the padded <loc>.
    diagnostics: ['R38 4:3', 'R38 10:3', 'R38 16:3', 'R38 22:3', 'R25 23:5', 'R38 28:3', 'R8 35:5', 'R11 38:5'],
  };
  for (const [name, lineEnd] of [['LF', '\n'], ['CRLF', '\r\n'], ['lone CR', '\r']] as const) {
    it(`${name}: the same entries, positions and findings, whole, byte by byte and cut anywhere`, async () => {
      const bytes = new TextEncoder().encode(lines.join(lineEnd));
      assert.deepEqual(await read([bytes]), expected);
      assert.deepEqual(await read([...byteByByte(bytes)]), expected);
      for (let cut = 1200; cut < bytes.length; cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at ${cut}`);
    });
  }

  it('a file that ends in a text: its line ends are counted once when saxes takes over, with any line end and any cut', async () => {
    for (const lineEnd of ['\n', '\r\n', '\r']) {
      const text = [`<!--${'x'.repeat(1100)}-->`, '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', '<url>', '<loc>a', '', 'b'].join(lineEnd);
      const bytes = new TextEncoder().encode(text);
      const findings = async (chunks: Uint8Array[]): Promise<string[]> => (await parseChunks(chunks)).diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`);
      // saxes says "unclosed tag" for each of the three elements left open, at the end: said once.
      const expected = ['R2 6:2'];
      assert.deepEqual(await findings([bytes]), expected);
      assert.deepEqual(await findings([...byteByByte(bytes)]), expected);
      for (let cut = 1150; cut < bytes.length; cut++) assert.deepEqual(await findings([bytes.subarray(0, cut), bytes.subarray(cut)]), expected, `cut at ${cut}`);
    }
  });
});

describe('regressions', () => {
  it('a base that is no URL is a SitemapError (SM_BAD_BASE_URL) for parse and validate, not a TypeError', async () => {
    assert.throws(() => parseSitemap(new Uint8Array(0), { base: 'http://' }), { code: 'SM_BAD_BASE_URL' });
    await assert.rejects(validateSitemap(new Uint8Array(0), { base: 'not a url' }), { code: 'SM_BAD_BASE_URL' });
  });
  it('a source left early is let go: a file stream is destroyed (its descriptor closed) when reading stops, or when the consumer breaks off', async (t) => {
    const path = join(tmpdir(), `sitemapkit-left-early-${process.pid}.xml`);
    t.after(() => rmSync(path, { force: true }));
    // 150 bare & (reading stops at the cap on well-formedness errors), then plenty more.
    writeFileSync(path, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<url><loc>https://a.example/?a&b</loc></url>\n'.repeat(150)}${'<url><loc>https://a.example/x</loc></url>\n'.repeat(20_000)}</urlset>`);
    const stopped = createReadStream(path, { highWaterMark: 16 * 1024 });
    const parsed = parseSitemap(stopped);
    for await (const entry of parsed) assert.ok(entry.loc);
    assert.equal(parsed.counts['R2:error'], MAX_MALFORMED_REPORTS + 1);
    // Before, the stream was left open, and its descriptor closed only by the garbage collector, with a warning.
    assert.equal(stopped.destroyed, true);
    const brokenOff = createReadStream(path, { highWaterMark: 16 * 1024 });
    for await (const entry of parseSitemap(brokenOff)) if (entry.loc !== '') break;
    assert.equal(brokenOff.destroyed, true);
  });
  it('a literal U+FFFD cut between chunks is not mistaken for invalid UTF-8', async () => {
    const bytes = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><!--${'x'.repeat(1200)}--><url><loc>https://a.example/\uFFFD</loc></url></urlset>`);
    const cut = bytes.indexOf(0xef) + 1;
    const result = await parseChunks([bytes.subarray(0, cut), bytes.subarray(cut)]);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(locs(result), ['https://a.example/\uFFFD']);
  });
  it('nesting far past the depth limit stops reading instead of parsing on (saxes is quadratic in depth)', async () => {
    const depth = 200_000;
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/deep</loc></url><x:a xmlns:x="urn:x">${'<x:a>'.repeat(depth)}${'</x:a>'.repeat(depth)}</x:a></urlset>`;
    const result = await parseChunks([new TextEncoder().encode(xml)]);
    assert.deepEqual(locs(result), ['https://a.example/deep']);
    assert.ok(result.diagnostics.some((d) => d.rule === 'R2' && /deeper than 1024 levels; reading stops/.test(d.message)));
  });
  it('bytes that are not UTF-8 past where reading stopped are not reported (they were never read)', async () => {
    const head = new TextEncoder().encode(`<!DOCTYPE urlset []><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<a>'.repeat(1100)}x`);
    const bytes = new Uint8Array([...head, 0xff, ...new TextEncoder().encode(`${'</a>'.repeat(1100)}</urlset>`)]);
    for (const chunks of [[bytes], byteByByte(bytes)]) {
      const result = await parseChunks(chunks);
      // Before, an R1 was placed where reading had stopped, well before the byte.
      assert.deepEqual(result.diagnostics.map((d) => d.rule), ['R2', 'R6', 'R2', 'R2']);
      assert.match(result.diagnostics.at(-1)?.message ?? '', /deeper than 1024 levels; reading stops here/);
    }
  });
  it('entries taken whole (one shape, learnt) keep their own start positions, wherever the input is cut', async () => {
    const lines = [1, 2, 3, 4, 1, 5].map((n) => `<url><loc>https://a.example/${n}</loc><lastmod>2026-11-0${n}</lastmod></url>`);
    const bytes = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${lines.join('\n')}\n</urlset>\n`);
    for (const chunks of [[bytes], [...randomSplits(bytes, 7)], [...randomSplits(bytes, 8)]]) {
      const parsed = parseSitemap(chunks, { trackPositions: true });
      const positions: string[] = [];
      for await (const entry of parsed) positions.push(`${parsed.positionOf(entry)?.line}:${parsed.positionOf(entry)?.column}`);
      assert.deepEqual(positions, ['2:1', '3:1', '4:1', '5:1', '6:1', '7:1']);
    }
    const validated = await validateSitemap(bytes);
    // The repeat is placed at its <loc>.
    assert.deepEqual(validated.diagnostics.filter((d) => d.rule === 'R25').map((d) => `${d.line}:${d.column}`), ['6:6']);
  });
  it('a cut anywhere gives the same entries, positions and findings, even where the next `>` ends no token', async () => {
    // The sniffing reads the first KiB whole: the padding puts the cuts after it.
    const entries = [
      '<url><loc>https://a.example/1?x=1&amp;y=2</loc><lastmod>2026-11-01</lastmod></url>',
      '<!-- a comment with > inside -->',
      '<url><loc>https://a.example/2</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/de?a=1&amp;b=>"/></url>',
      '<url><loc>https://a.example/3</loc><lastmod>a > b</lastmod></url>',
      '<url><loc>https://a.example/1?x=1&amp;y=2</loc><lastmod>2026-11-01</lastmod></url>',
      '<url><loc> https://a.example/4</loc><priority>2</priority></url>',
      '<?pi with > inside?><url><loc>https://a.example/5</loc><lastmod>2026-11-05</lastmod></url>',
    ];
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n<!--${'x'.repeat(1100)}-->\n${entries.join('\n')}\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const read = async (chunks: Uint8Array[]): Promise<unknown> => {
      const parsed = parseSitemap(chunks, { trackPositions: true });
      const seen: unknown[] = [];
      for await (const entry of parsed) seen.push([entry, parsed.positionOf(entry)]);
      return { seen, diagnostics: parsed.diagnostics };
    };
    const whole = await read([bytes]);
    for (let cut = 1200; cut < bytes.length; cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
    const validated = await validateSitemap(bytes);
    assert.deepEqual(validated.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`), ['R38 5:1', 'R10 5:36', 'R11 6:36', 'R25 7:6', 'R8 8:6', 'R14 8:37']);
  });
  it('a bare & in an attribute is one finding, wherever a chunk cut falls in its tag', async () => {
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"><!--${'x'.repeat(1100)}-->\n<url><loc>https://a.example/</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/?a=1&b=2"/></url></urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const whole = await parseChunks([bytes]);
    // At the `&` itself, not the tag's start (2:35).
    assert.deepEqual(whole.diagnostics.filter((d) => d.rule === 'R2').map((d) => `${d.line}:${d.column}`), ['2:105']);
    for (let cut = 1200; cut < bytes.length; cut++) assert.deepEqual(await parseChunks([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
    assert.deepEqual(await parseChunks(byteByByte(bytes)), whole);
  });
  it('an entry awaited over many small chunks: a control character or the end of input after it loses nothing', async () => {
    const entries = Array.from({ length: 8 }, (_, n) => `<url><loc>https://a.example/${n}</loc><lastmod>2026-11-0${1 + n}</lastmod></url>\n`).join('');
    const start = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<!--${'x'.repeat(1100)}-->\n${entries}`;
    for (const text of [
      // A character XML forbids deep in an entry: saxes takes over there, and must get all of the entry.
      `${start}<url><loc>https://a.example/last</loc><lastmod>2026-11-30</lastmod><changefreq>daily\u0001</changefreq></url>\n</urlset>\n`,
      // The input ends inside an entry: what there is of it is read as it would be whole.
      `${start}<url><loc>https://a.example/last</loc><lastmod>2026-11-30</lastmod><changefreq>da`,
    ]) {
      const bytes = new TextEncoder().encode(text);
      const whole = await parseChunks([bytes]);
      assert.ok(whole.entries.length >= 8);
      assert.ok(whole.diagnostics.some((d) => d.rule === 'R2'));
      for (const size of [1, 3, 7]) {
        const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
        assert.deepEqual(await parseChunks(chunks), whole, `chunks of ${size}`);
      }
    }
  });
  it('a bare & is placed at the & itself, past references, line ends and chunk cuts, on the fast path and where saxes reads', async () => {
    const body = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      // Entries of one shape, learnt and then taken whole: the next of that shape is matched, and declined at its bare &.
      ...[1, 2, 3].map((n) => `<url><loc>https://a.example/?a=${n}&amp;b=2</loc></url>`),
      '<url><loc>https://a.example/?a=1&amp;b=2&c=3</loc></url>',
      '<url><loc>https://a.example/2?x=&#38;&amp;\r\n&y&z</loc></url>',
      '<url><loc>https://a.example/3?&lt;&#x1F600;&w</loc><lastmod>2026-11-01</lastmod></url>',
      '<url><loc>https://a.example/4</loc></url>',
      '</urlset>',
      '',
    ];
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    // Past the first 8 KiB, which are read whole to tell the format (FORMAT_LOOK_BYTES): cuts before it never reach the reader.
    const padding = `<!--${'p'.repeat(8200)}-->`;
    const fastText = `<?xml version="1.0"?>\n${padding}\n${body.join('\n')}`;
    const fastBytes = new TextEncoder().encode(fastText);
    const fast = await read([fastBytes]);
    assert.deepEqual(fast.slice(7), [
      'R2 7:41 not well-formed XML: "&" that starts no entity reference ("example/?a=1&amp;b=2&c=3"); read literally, write &amp;',
      'R2 9:1 not well-formed XML: "&" that starts no entity reference ("mple/2?x=&#38;&amp;\\n&y&z"); read literally, write &amp;',
      'R2 10:44 not well-formed XML: "&" that starts no entity reference ("mple/3?&lt;&#x1F600;&w"); read literally, write &amp;',
    ]);
    await sameHoweverCut(fastBytes, read, fast, 8192);
    // Where saxes reads (after a DOCTYPE with an internal subset), one line down; excerpts aside, as saxes hands on texts decoded.
    const excerptless = (lines: string[]): string[] => lines.map((line) => line.replace(/ \(".*"\);/, ';'));
    const saxesBytes = new TextEncoder().encode(`<?xml version="1.0"?>\n<!DOCTYPE urlset []>\n${padding}\n${body.join('\n')}`);
    const saxes = await read([saxesBytes]);
    const oneLineDown = fast.map((line) => line.replace(/ (\d+):(\d+)( |$)/, (_, l: string, c: string, after: string) => ` ${Number(l) + 1}:${c}${after}`));
    assert.deepEqual(excerptless(saxes.filter((line) => !line.includes('DOCTYPE'))), excerptless(oneLineDown));
    await sameHoweverCut(saxesBytes, read, saxes, 8192);
  });
  it('a bare & in an attribute value is placed at the & itself, past a CRLF and references in the value, at every cut', async () => {
    const text = [
      '<?xml version="1.0"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"',
      '  data-note="one\r\ntwo &amp; &b" data-more=\'a&b&c\'>',
      '<url><loc>https://a.example/</loc><xhtml:link rel="alternate" hreflang="en" href="https://a.example/?x=1&amp;y&#38;&z"/></url>',
      // A quote of the other kind in a value is no end of it: the next attribute's & is its own.
      '<url><loc>https://a.example/2</loc><xhtml:link rel="alternate" hreflang="fr" href="https://a.example/s&\'&t" data-x="p&q"/></url>',
      '</urlset>',
      '',
    ].join('\n');
    const bytes = new TextEncoder().encode(text);
    const whole = await placed([bytes]);
    assert.deepEqual(whole, [
      'https://a.example/ 5:1',
      'https://a.example/2 6:1',
      // The value as written, its CRLF made a space (§3.3.3); the line count goes by the document.
      'R2 4:11 not well-formed XML: "&" that starts no entity reference in an attribute ("one two &amp; &b"); read literally, write &amp;',
      'R2 4:27 not well-formed XML: "&" that starts no entity reference in an attribute ("a&b&c"); read literally, write &amp;',
      'R2 5:116 not well-formed XML: "&" that starts no entity reference in an attribute ("mple/?x=1&amp;y&#38;&z"); read literally, write &amp;',
      'R2 6:103 not well-formed XML: "&" that starts no entity reference in an attribute ("https://a.example/s&\'&t"); read literally, write &amp;',
      'R2 6:118 not well-formed XML: "&" that starts no entity reference in an attribute ("p&q"); read literally, write &amp;',
    ]);
    await sameHoweverCut(bytes, placed, whole);
    // Where saxes reads (after a DOCTYPE), one line down; excerpts aside, as saxes hands on values decoded.
    const excerptless = (lines: string[]): string[] => lines.map((line) => line.replace(/ \(".*"\);/, ';'));
    const saxesBytes = new TextEncoder().encode(text.replace('\n', '\n<!DOCTYPE urlset []>\n'));
    const saxes = await placed([saxesBytes]);
    const oneLineDown = whole.map((line) => line.replace(/ (\d+):(\d+)( |$)/, (_, l: string, c: string, after: string) => ` ${Number(l) + 1}:${c}${after}`));
    assert.deepEqual(excerptless(saxes.filter((line) => !line.includes('DOCTYPE'))), excerptless(oneLineDown));
    await sameHoweverCut(saxesBytes, placed, saxes);
  });
  it('a ] in a text of an entry shaped as those taken whole: a lone one is text, "]]>" is reported where it stands, at every cut', async () => {
    const entry = (path: string): string => `<url><loc>https://a.example/${path}</loc><lastmod>2026-11-01</lastmod></url>`;
    const text = ['<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...[1, 2, 3, 4].map(String).map(entry), entry('a]b'), entry('c]]>d'), entry('z'), '</urlset>', ''].join('\n');
    const bytes = new TextEncoder().encode(text);
    const whole = await placed([bytes]);
    assert.deepEqual(whole.slice(4), [
      'https://a.example/a]b 6:1',
      'https://a.example/c]]>d 7:1',
      'https://a.example/z 8:1',
      'R2 7:33 not well-formed XML: the string "]]>" is disallowed in char data.',
    ]);
    await sameHoweverCut(bytes, placed, whole);
  });
  it('a bare & and a "]]>" in one text: each reported once, at every cut', async () => {
    const bytes = new TextEncoder().encode('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/?a&b]]></loc></url>\n</urlset>');
    const whole = await placed([bytes]);
    assert.deepEqual(whole, [
      'https://a.example/?a&b]]> 2:1',
      // As saxes reads it: the "]]>" as it comes, the `&` when the text ends.
      'R2 2:36 not well-formed XML: the string "]]>" is disallowed in char data.',
      'R2 2:31 not well-formed XML: "&" that starts no entity reference ("https://a.example/?a&b]]>"); read literally, write &amp;',
    ]);
    await sameHoweverCut(bytes, placed, whole);
  });
  it('a character XML forbids is read as U+FFFD and reported where it stands; a bare & before it reads the same at every cut', async () => {
    // Handed to saxes, `&b</loc>` reads as an entity name running on to the next `;`, and every entry after it is lost.
    const text = `<?xml version="1.0"?>\n<!--${'p'.repeat(1100)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/?a&b</loc></url>\n<url><loc>https://a.example/2</loc></url>\r\n<url><loc>https://a.example/\u0001</loc></url>\n<url><loc>https://a.example/4?x&y</loc><lastmod>\u0008\u000B2026-11-01</lastmod></url>\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const whole = await placed([bytes]);
    assert.deepEqual(whole, [
      'https://a.example/?a&b 4:1',
      'https://a.example/2 5:1',
      'https://a.example/\uFFFD 6:1',
      'https://a.example/4?x&y 7:1',
      'R2 4:31 not well-formed XML: "&" that starts no entity reference ("https://a.example/?a&b"); read literally, write &amp;',
      'R2 6:29 not well-formed XML: character U+0001 is not allowed in XML; read as U+FFFD',
      // In document order: the entry holding the characters is read up to them before they are reported.
      'R2 7:32 not well-formed XML: "&" that starts no entity reference ("ttps://a.example/4?x&y"); read literally, write &amp;',
      'R2 7:49 not well-formed XML: character U+0008 is not allowed in XML; read as U+FFFD',
      'R2 7:50 not well-formed XML: character U+000B is not allowed in XML; read as U+FFFD',
    ]);
    await sameHoweverCut(bytes, placed, whole, 1150);
  });
  it('a forbidden character or bytes that are not UTF-8 in an entry come after the findings before them, also past an entry too long to wait for, at every cut', async () => {
    const start = (padding: number): string =>
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
      '<url><loc>https://a.example/0</loc></url>\n' +
      // Longer than an entry is awaited (64 KiB): it goes tag by tag, and how the next one is read then depends on where chunks were cut.
      `<url><loc>https://a.example/${'p'.repeat(padding)}</loc></url>\n` +
      '<url><loc>https://a.example/3</loc><xhtml:link rel="alternate" hreflang="en" href="https://a.example/&x"/><lastmod>2026-11-01';
    const end = '</lastmod></url>\n</urlset>\n';
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    const expected = (bad: string): string[] => [
      'https://a.example/0 2:1',
      'https://a.example/pp 3:1',
      'https://a.example/3 4:1',
      'R2 4:102 not well-formed XML: "&" that starts no entity reference in an attribute ("https://a.example/&x"); read literally, write &amp;',
      'R7 4:107 <lastmod> comes after an extension element; the schema wants loc, lastmod, changefreq, priority first',
      bad,
    ];
    const forbidden = 'R2 4:126 not well-formed XML: character U+FFFE is not allowed in XML; read as U+FFFD';
    const notUtf8 = 'R1 4:126 bytes that are not valid UTF-8 (replaced with U+FFFD)';
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => entry.loc.slice(0, 20));
    for (const padding of [10, 65_560]) {
      const head = encode(start(padding));
      for (const [bytes, bad] of [
        [encode(`${start(padding)}\uFFFE${end}`), forbidden],
        [new Uint8Array([...head, 0xff, ...encode(end)]), notUtf8],
      ] as const) {
        const whole = await read([bytes]);
        assert.deepEqual(whole, expected(bad), `padding ${padding}`);
        // Every cut from before the last entry's start (the cuts before it all read that entry the same way).
        await sameHoweverCut(bytes, read, whole, head.length - 160);
      }
    }
  });
  it('a control character before the first < leaves the file XML: its entries read, the character reported', async () => {
    for (const before of ['\u0001', '\u0000\n', '\uFEFF\u0001']) {
      const text = `${before}<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`;
      const parsed = await parseChunks([new TextEncoder().encode(text)]);
      assert.equal(parsed.kind, 'urlset', JSON.stringify(before));
      assert.deepEqual(locs(parsed), ['https://a.example/']);
      assert.ok(parsed.diagnostics.some((d) => d.rule === 'R2' && d.line === 1 && d.column === 1 && d.message.includes('is not allowed in XML')), JSON.stringify(parsed.diagnostics));
    }
    // Followed by more whitespace than the first look takes in, in small pieces: still XML.
    const spaced = new TextEncoder().encode(`\u0001${' '.repeat(3000)}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`);
    const inPieces = await parseChunks(Array.from({ length: Math.ceil(spaced.length / 16) }, (_, i) => spaced.subarray(i * 16, (i + 1) * 16)));
    assert.equal(inPieces.kind, 'urlset');
    assert.deepEqual(inPieces, await parseChunks([spaced]));
    const onlyControls = await parseChunks([new TextEncoder().encode('\u0001 \u001F\n')]);
    assert.deepEqual(onlyControls.diagnostics.map((d) => `${d.rule} ${d.message}`), ['R5 the file holds only whitespace and control characters']);
  });
  it('text outside the root is placed at the text\'s start, after a comment too, whichever path reads it and however it was cut', async () => {
    const padding = `<!--${'p'.repeat(1100)}-->`;
    const root = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>';
    for (const prolog of ['', '<!DOCTYPE urlset []>']) {
      const text = `<?xml version="1.0"?>${prolog}${padding}\n${root}\n<!-- after -->\nXY\n`;
      const bytes = new TextEncoder().encode(text);
      const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
      const whole = await read([bytes]);
      assert.ok(whole.includes('R2 3:15 not well-formed XML: text data outside of root node.'), JSON.stringify(whole));
      await sameHoweverCut(bytes, read, whole, 1150);
    }
  });
  it('forbidden characters in a long open comment are placed across LF, CRLF and lone CR line ends, however the comment was cut', async () => {
    // Past 64 KiB the comment waits for its `-->` with input kept aside: each report counts on from the last.
    const text = `<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><!--${'c'.repeat(70_000)}\n\u0001\r\n\u0002\r\u0003\r\r\nx\u0004 -->\n<url><loc>https://a.example/</loc></url>\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    const whole = await read([bytes]);
    const found = (line: number, column: number, code: string): string => `R2 ${line}:${column} not well-formed XML: character U+${code} is not allowed in XML; read as U+FFFD`;
    assert.deepEqual(whole, ['https://a.example/ 8:1', found(3, 1, '0001'), found(4, 1, '0002'), found(5, 1, '0003'), found(7, 2, '0004')]);
    assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
    for (const seed of [1, 2, 3]) assert.deepEqual(await read(randomSplits(bytes, seed)), whole, `random splits, seed ${seed}`);
    // Every cut among the line ends and the characters.
    const first = text.indexOf('\n\u0001');
    for (let cut = first - 1; cut <= text.indexOf('-->'); cut++) {
      assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
    }
  });
  it('where saxes reads, a character reference of any length is not taken for a bare & when a chunk cuts it', async () => {
    const zeros = '0'.repeat(70);
    const body = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      `<url><loc>https://a.example/&#${zeros}65;</loc></url>`,
      `<url><loc>https://a.example/&#x${zeros}42;&amp;</loc></url>`,
      `<url><loc>https://a.example/&${'b'.repeat(70)}</loc></url>`,
      '</urlset>',
      '',
    ];
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    // Past the first KiB, which is read whole to sniff the format.
    const bytes = new TextEncoder().encode(`<?xml version="1.0"?>\n<!DOCTYPE urlset []>\n<!--${'p'.repeat(1100)}-->\n${body.join('\n')}`);
    const whole = await read([bytes]);
    assert.deepEqual(whole.filter((line) => !line.includes('DOCTYPE')), [
      'https://a.example/A 5:1',
      'https://a.example/B& 6:1',
      `https://a.example/&${'b'.repeat(70)} 7:1`,
      'R2 7:29 not well-formed XML: "&" that starts no entity reference ("https://a.example/&bbbbbbbbbbbbbbbbbbbbb"); read literally, write &amp;',
    ]);
    await sameHoweverCut(bytes, read, whole, 1150);
  });
  it('where saxes reads (after a DOCTYPE with an internal subset), a bare & is read as on the fast path: same entries, findings and positions, at every cut', async () => {
    const body = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      '<url><loc>https://a.example/?a&b</loc></url>',
      '  <url><loc>https://a.example/2</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/de?a&b=1&amp;c"/></url>',
      '<url><loc>https://a.example/3?x&amp;y&z=&#38;</loc><lastmod>2026-11-01</lastmod></url>',
      '<url><loc>https://a.example/4&</loc></url>',
      // References to characters XML forbids are read literally too.
      '<url><loc>https://a.example/5&#0;&#xFFFE;&#1114112;</loc></url>',
      '</urlset>',
      '',
    ];
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => JSON.stringify(entry));
    const fast = await read([new TextEncoder().encode(`<?xml version="1.0"?>\n${body.join('\n')}`)]);
    assert.equal(fast.filter((line) => line.startsWith('{')).length, 5);
    // The DOCTYPE line moves everything one line down.
    // Excerpts aside: saxes hands on texts decoded, the fast path quotes them as written.
    const excerptless = (lines: string[]): string[] => lines.map((line) => line.replace(/ \(".*"\);/, ';'));
    const expected = excerptless(fast.map((line) => line.replace(/ (\d+):(\d+)( |$)/, (_, l: string, c: string, after: string) => ` ${Number(l) + 1}:${c}${after}`)));
    const text = `<?xml version="1.0"?>\n<!DOCTYPE urlset []>\n${body.join('\n')}`;
    const bytes = new TextEncoder().encode(text);
    const whole = await read([bytes]);
    assert.deepEqual(excerptless(whole.filter((line) => !line.includes('DOCTYPE'))), expected);
    await sameHoweverCut(bytes, read, whole);
  });
  it('where saxes reads, positions are the fast path\'s: tags and attributes over several lines, a forbidden character, any line end', async () => {
    const body = (nl: string): string =>
      [
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
        '  <url>',
        '    <loc>https://a.example/?a&b</loc>',
        '    <xhtml:link',
        '      rel="alternate" hreflang="de" href="https://a.example/?x&y"/>',
        '  </url>',
        '  <url\n  >',
        '    <loc>\n https://a.example/2?q&amp;r&s \n</loc>',
        '  </url>',
        '  <url><loc>https://a.example/3\u0001</loc><lastmod>2026-13-01</lastmod></url>',
        // Columns count UTF-16 units, as the fast path counts them; a forbidden character may follow any line end.
        '  <url><loc>https://a.example/\u{1F600}4\u0003</loc><lastmod>2026-13-01</lastmod></url>',
        '\u0002<url><loc>https://a.example/5</loc></url>',
        '</urlset>',
        '',
      ].join(nl);
    // Excerpts aside: saxes hands on texts decoded, the fast path quotes them as written.
    const read = async (text: string, chunks = (bytes: Uint8Array): Iterable<Uint8Array> => [bytes]): Promise<string[]> =>
      (await placed(chunks(new TextEncoder().encode(text)))).filter((line) => !line.includes('DOCTYPE')).map((line) => line.replace(/ \(".*"\);/, ';'));
    for (const nl of ['\n', '\r\n', '\r']) {
      const fast = await read(`<?xml version="1.0"?>${nl}${body(nl)}`);
      assert.equal(fast.length, 5 + 7, JSON.stringify(fast));
      const oneLineDown = fast.map((line) => line.replace(/ (\d+):(\d+)/, (_, l: string, c: string) => ` ${Number(l) + 1}:${c}`));
      const text = `<?xml version="1.0"?>${nl}<!DOCTYPE urlset []>${nl}${body(nl)}`;
      assert.deepEqual(await read(text), oneLineDown, JSON.stringify(nl));
      assert.deepEqual(await read(text, byteByByte), oneLineDown, `${JSON.stringify(nl)}, byte by byte`);
    }
  });
  it('where saxes reads, a document that spells U+FDD0 itself keeps it, and bare &s before and after it read the same at every cut', async () => {
    const entries = [
      '<url><loc>https://a.example/?a=1&b=2</loc></url>',
      '<url><loc>https://a.example/\uFDD0?a=1&b</loc></url>',
      '<url><loc>https://a.example/3?c&d</loc></url>',
      '</urlset>',
      '',
    ];
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    // Past the first 8 KiB, which are read whole to tell the format (FORMAT_LOOK_BYTES): cuts before it never reach the reader.
    const padding = `<!--${'p'.repeat(8200)}-->`;
    const root = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
    const fast = await read([new TextEncoder().encode([`<?xml version="1.0"?>${padding}`, root, ...entries].join('\n'))]);
    assert.deepEqual(fast.slice(0, 3), ['https://a.example/?a=1&b=2 3:1', 'https://a.example/\uFDD0?a=1&b 4:1', 'https://a.example/3?c&d 5:1']);
    const bytes = new TextEncoder().encode([`<?xml version="1.0"?>${padding}<!DOCTYPE urlset []>`, root, ...entries].join('\n'));
    const whole = await read([bytes]);
    assert.deepEqual(whole.filter((line) => !line.includes('DOCTYPE')), fast);
    await sameHoweverCut(bytes, read, whole, 1150);

    // The root's start tag, replayed to saxes when a later construct hands over, holds both.
    const replayed = new TextEncoder().encode(
      [`<?xml version="1.0"?>${padding}`, '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" data-a="\uFDD0" data-note="a&b">', '<x:y xmlns:x=""/>', ...entries].join('\n'),
    );
    const replayedWhole = await read([replayed]);
    assert.deepEqual(replayedWhole.slice(0, 3), ['https://a.example/?a=1&b=2 4:1', 'https://a.example/\uFDD0?a=1&b 5:1', 'https://a.example/3?c&d 6:1']);
    await sameHoweverCut(replayed, read, replayedWhole, 1150);

    // A reference to U+FDD0 is the character, not a mark; one that saxes reads twice (an unquoted value) is not an error of its own.
    const references = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/?x=&#xFDD0;&#64976;</loc></url><url a="&#xFDD0;"><loc>https://a.example/2</loc></url></urlset>';
    const viaSaxes = await parseChunks([new TextEncoder().encode(`<!DOCTYPE urlset []>${references}`)]);
    assert.deepEqual(locs(viaSaxes), ['https://a.example/?x=\uFDD0\uFDD0', 'https://a.example/2']);
    assert.deepEqual(rules(viaSaxes, 'error'), []);
    const unquoted = await parseChunks([new TextEncoder().encode(`<!DOCTYPE urlset []>${root}<url a=\uFDD0x><loc>https://a.example/</loc></url></urlset>`)]);
    assert.deepEqual(unquoted.diagnostics.filter((d) => d.level === 'error').map((d) => d.message), ['not well-formed XML: unquoted attribute value.']);
  });
  it('long tokens (comment, CDATA, PI, tag with a long value) over small chunks read as whole, their ends cut anywhere', async () => {
    // Past 64 KiB, a token still open waits for what can end it.
    const long = (c: string): string => c.repeat(70_000);
    const text = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      `<!--${long('c')}-->`,
      `<url><loc><![CDATA[https://a.example/${long('d')}?a=1&b]]></loc></url>`,
      `<?pi ${long('p')} ?>`,
      `<url><loc>https://a.example/2</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/${long('a')}>b"/></url>`,
      `<url><loc>https://a.example/3</loc><!-- ${long('x')}-x- --></url>`,
      '</urlset>',
    ].join('\n');
    const bytes = new TextEncoder().encode(text);
    const whole = await parseChunks([bytes]);
    assert.deepEqual(locs(whole).map((loc) => loc.length), [18 + 70_000 + 6, 19, 19]);
    assert.deepEqual(rules(whole), []);
    for (const size of [7, 4096]) {
      const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
      assert.deepEqual(await parseChunks(chunks), whole, `chunks of ${size}`);
    }
    assert.deepEqual(await parseChunks(randomSplits(bytes, 100)), whole);
    // Cut off inside each: the same finding however it was cut.
    for (const end of [text.indexOf('-->') + 1, text.indexOf(']]>') + 1, text.indexOf(' ?>') + 2, text.indexOf('b"/>') + 2]) {
      const cutOff = bytes.subarray(0, end);
      const once = await parseChunks([cutOff]);
      assert.ok(once.diagnostics.some((d) => d.rule === 'R2'), `cut off at ${end}`);
      assert.deepEqual(await parseChunks(Array.from({ length: Math.ceil(cutOff.length / 64) }, (_, i) => cutOff.subarray(i * 64, (i + 1) * 64))), once, `cut off at ${end}, chunks of 64`);
    }
  });
  it('a long tag that goes bad while it waits (a stray quote) gives its findings in the same order as read whole', async () => {
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/1</loc></url>\n<url${' '.repeat(5000)}"\u0001"><loc>https://a.example/2</loc></url>\n</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks);
    const whole = await read([bytes]);
    assert.ok(whole.some((line) => line.includes('U+0001')), JSON.stringify(whole));
    assert.deepEqual(await read(Array.from({ length: Math.ceil(bytes.length / 16) }, (_, i) => bytes.subarray(i * 16, (i + 1) * 16))), whole, 'pieces of 16');
    const quote = text.indexOf('"\u0001');
    for (let cut = quote - 2; cut <= quote + 3; cut++) assert.deepEqual(await read([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
  });
  it('a tag with many attributes: a duplicate among them is found, distinct ones are all kept', async () => {
    const attributes = Array.from({ length: 20 }, (_, n) => `data-a${n}="${n}"`);
    const tag = (extra: string): string => `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc><x:y xmlns:x="urn:x" ${attributes.join(' ')}${extra}/></url></urlset>`;
    assert.deepEqual(rules(await parseChunks([new TextEncoder().encode(tag(''))]), 'error'), []);
    for (const duplicate of [' data-a15="again"', ' xmlns:p="urn:p" xmlns:q="urn:p" p:b="1" q:b="2"']) {
      const parsed = await parseChunks([new TextEncoder().encode(tag(duplicate))]);
      assert.ok(parsed.diagnostics.some((d) => d.rule === 'R2' && d.level === 'error' && /duplicate attribute/.test(d.message)), JSON.stringify(parsed.diagnostics));
    }
  });
  it('a long tag waits for a > outside its quotes: values holding > and the other quote, cut anywhere', async () => {
    // Entries past 64 KiB go tag by tag: the tag is what waits.
    const value = (quote: string, other: string): string => `https://a.example/${`a>b${other}c`.repeat(14_000)}`.replaceAll(quote, '');
    const text = [
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      `<url><loc>https://a.example/1</loc><xhtml:link rel="alternate" hreflang="de" href="${value('"', "'")}" title='${value("'", '"')}'/></url>`,
      `<url><loc>https://a.example/2</loc><xhtml:link rel='alternate' hreflang='fr' href='${value("'", '"')}'/></url>`,
      '<url><loc>https://a.example/3</loc></url>',
      '</urlset>',
    ].join('\n');
    const bytes = new TextEncoder().encode(text);
    const read = (chunks: Iterable<Uint8Array>): Promise<string[]> => placed(chunks, (entry) => `${entry.loc} ${JSON.stringify(entry).length}`);
    const whole = await read([bytes]);
    assert.deepEqual(whole, ['https://a.example/1 70090 2:1', 'https://a.example/2 84090 3:1', 'https://a.example/3 29 4:1']);
    assert.deepEqual(await read(randomSplits(bytes, 5)), whole, 'random splits');
    for (const size of [16, 4099]) {
      assert.deepEqual(await read(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))), whole, `chunks of ${size}`);
    }
  });
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
        assert.ok(parsed.diagnostics.every((d) => d.rule === 'R2'), JSON.stringify(parsed.diagnostics));
      }
    }
    // An HTML page is still one (R5), not a sitemap found inside it.
    const page = await parseChunks([new TextEncoder().encode('<p>Moved</p>\n')]);
    assert.deepEqual([page.kind, rules(page)], ['unknown', ['R5']]);
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
  it('a prefix used without a declaration is reported once and read as meant: every entry and image kept, however the file was cut', async () => {
    const entry = (n: number): string => `<url><loc>https://a.example/${n}</loc><image:image><image:loc>https://a.example/${n}.png</image:loc></image:image></url>\n`;
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xsi:schemaLocation="http://www.sitemaps.org/schemas/sitemap/0.9 x.xsd">\n${Array.from({ length: 300 }, (_, n) => entry(n)).join('')}</urlset>\n`;
    const bytes = new TextEncoder().encode(text);
    const whole = await parseChunks([bytes]);
    // Before, saxes read on from the first <image:image>, reported each element and stopped at the cap: 49 entries, no image.
    assert.equal(whole.entries.length, 300);
    assert.deepEqual(whole.entries[299], { loc: 'https://a.example/299', images: [{ loc: 'https://a.example/299.png' }] });
    assert.deepEqual(whole.diagnostics.map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`), [
      'R2 1:1 not well-formed XML: unbound namespace prefix "xsi" (no xmlns:xsi declares it); read as in an unknown namespace',
      'R2 2:36 not well-formed XML: unbound namespace prefix "image" (no xmlns:image declares it); read as http://www.google.com/schemas/sitemap-image/1.1, its namespace in sitemaps',
    ]);
    assert.deepEqual(await parseChunks(byteByByte(bytes)), whole, 'byte by byte');
    assert.deepEqual(await parseChunks(randomSplits(bytes, 4)), whole, 'random splits');

    // When saxes takes over later, the root it is handed declares the prefix as it was read.
    const handedOver = new TextEncoder().encode(text.replace('<url><loc>https://a.example/5</loc>', '<url><loc>https://a.example/5</loc><x:y xmlns:x=""/>'));
    const afterHandOver = await parseChunks([handedOver]);
    assert.equal(afterHandOver.entries.length, 300);
    assert.deepEqual(afterHandOver.entries[299], { loc: 'https://a.example/299', images: [{ loc: 'https://a.example/299.png' }] });

    // Where saxes reads from the start, the same: each prefix reported once, at its first tag.
    const viaSaxes = await parseChunks([new TextEncoder().encode(`<!DOCTYPE urlset []>\n${text}`)]);
    assert.deepEqual(viaSaxes.entries, whole.entries);
    assert.deepEqual(viaSaxes.diagnostics.filter((d) => d.level === 'error').map((d) => `${d.line}:${d.column} ${d.message}`), whole.diagnostics.map((d) => `${(d.line as number) + 1}:${d.column} ${d.message}`));
  });
  it('where saxes reads, an Error made in onDiagnostic keeps its stack (saxes\' own errors are made without)', async () => {
    const stacks: string[] = [];
    const text = '<!DOCTYPE urlset []><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/?a&b</loc></url></urlset>';
    const parsed = parseSitemap(new TextEncoder().encode(text), { onDiagnostic: () => stacks.push(new Error('probe').stack ?? '') });
    for await (const entry of parsed) assert.equal(entry.loc, 'https://a.example/?a&b');
    assert.ok(stacks.length >= 2);
    for (const stack of stacks) assert.ok(stack.split('\n').length > 1, stack);
  });
  it('saxes, taking over, is given the open start tags with their bare & marked too, so it reads on', async () => {
    // Undeclaring a prefix is saxes' to report: it is handed the open <urlset> tag again first, value and all.
    const text = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" data-note="a&b">\n<url><loc>https://a.example/1</loc></url>\n<url><loc>https://a.example/2</loc><x:y xmlns:x=""/></url>\n<url><loc>https://a.example/3</loc></url>\n</urlset>\n';
    const parsed = await parseChunks([new TextEncoder().encode(text)]);
    assert.deepEqual(locs(parsed), ['https://a.example/1', 'https://a.example/2', 'https://a.example/3']);
    assert.ok(parsed.diagnostics.some((d) => d.rule === 'R2' && /undefine prefix/.test(d.message)), JSON.stringify(parsed.diagnostics));
  });
  it('a whole file given as one buffer is read in pieces: at the cap on findings, reading stops near where they were', async () => {
    const bytes = new TextEncoder().encode(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'\u0000'.repeat(4_000_000)}</urlset>`);
    const parsed = parseSitemap(bytes);
    for await (const entry of parsed) assert.fail(`no entry expected, got ${entry.loc}`);
    assert.equal(parsed.counts['R2:error'], MAX_MALFORMED_REPORTS + 1);
    assert.ok(parsed.bytes <= 4 * 64 * 1024, `read ${parsed.bytes} bytes`);
  });
  it('a file cut off inside its last entry: the same positions at every two-piece cut', async () => {
    // A finding before the cut makes the tokenizer count lines in that chunk; the rest of the entry is kept aside, then joined at the end.
    const text = `<?xml version="1.0"?>\n<!--${'p'.repeat(1100)}-->\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/1</loc><bar/></url>\n<url><loc>https://a.example/2</loc>\n<foo/>\n`;
    const bytes = new TextEncoder().encode(text);
    const findings = async (chunks: Uint8Array[]): Promise<string[]> => (await parseChunks(chunks)).diagnostics.map((d) => `${d.rule} ${d.line}:${d.column}`);
    const whole = await findings([bytes]);
    assert.deepEqual(whole, ['R6 4:36', 'R6 6:1', 'R2 7:1']);
    for (let cut = 1150; cut < bytes.length; cut++) assert.deepEqual(await findings([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
  });
  it('once reading stops at the cap of well-formedness errors, nothing more is reported, however the input was cut', async () => {
    let text = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
    for (let i = 0; i < MAX_MALFORMED_REPORTS + 1; i++) text += `<url><loc>https://a.example/?a&b=${i}</loc></url>\n`;
    for (let i = 0; i < 20; i++) text += `<url><loc>https://a.example/${i}</loc><foo/></url>\n`;
    const bytes = new TextEncoder().encode(`${text}</urlset>\n`);
    const counts = async (chunks: Iterable<Uint8Array>): Promise<Record<string, number>> => (await validateSitemap(chunks)).counts;
    const whole = await counts([bytes]);
    assert.deepEqual(whole, { 'R2:error': MAX_MALFORMED_REPORTS + 1 });
    assert.deepEqual(await counts(randomSplits(bytes, 5)), whole);
    assert.deepEqual(await counts(byteByByte(bytes)), whole);
  });
  it('entries asked for without waiting for the one before all come, in order', async () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: 40 }, (_, n) => `<url><loc>https://a.example/${n}</loc></url>`).join('\n')}</urlset>`;
    // Small chunks make many batches, so calls land while a batch is being read.
    const iterator = parseSitemap([...randomSplits(new TextEncoder().encode(xml), 3)])[Symbol.asyncIterator]();
    const results = await Promise.all(Array.from({ length: 42 }, () => iterator.next()));
    assert.deepEqual(
      results.map((r) => (r.done === true ? 'done' : r.value.loc)),
      [...Array.from({ length: 40 }, (_, n) => `https://a.example/${n}`), 'done', 'done'],
    );
  });
  it('an <image> in the root\'s own namespace is no image extension, even in an entry of a learnt shape', async () => {
    const entry = (n: number): string => `<url><loc>https://a.example/${n}</loc><image><loc>https://i.example/${n}</loc></image></url>`;
    const xml = `<urlset xmlns="http://www.google.com/schemas/sitemap-image/1.1">${entry(1)}${entry(2)}${entry(3)}</urlset>`;
    const result = await parseChunks([new TextEncoder().encode(xml)]);
    assert.deepEqual(result.entries, [1, 2, 3].map((n) => ({ loc: `https://a.example/${n}` })));
    assert.deepEqual(result.diagnostics.map((d) => d.rule), ['R5', 'R6', 'R6', 'R6']);
  });
});

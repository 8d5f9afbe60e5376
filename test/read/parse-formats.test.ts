/** Each format the reader tells apart (urlset, index, RSS, Atom, text, robots.txt) and the records it reads from them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findings, locs, parseChunks, parseEveryWay, randomSplits, readFixture, rules } from '../helpers/parse.ts';

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
    assert.deepEqual(findings(result), ['R8 error 4:12 "sitemap-2.xml.gz" is a relative URL and the file\'s own URL is not known (--base) to resolve it']);
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
});

describe('regressions', () => {
  it('an <image> in the root\'s own namespace is no image extension, even in an entry of a learnt shape', async () => {
    const entry = (n: number): string => `<url><loc>https://a.example/${n}</loc><image><loc>https://i.example/${n}</loc></image></url>`;
    const xml = `<urlset xmlns="http://www.google.com/schemas/sitemap-image/1.1">${entry(1)}${entry(2)}${entry(3)}</urlset>`;
    const result = await parseChunks([new TextEncoder().encode(xml)]);
    assert.deepEqual(result.entries, [1, 2, 3].map((n) => ({ loc: `https://a.example/${n}` })));
    assert.deepEqual(result.diagnostics.map((d) => d.rule), ['R5', 'R6', 'R6', 'R6']);
  });
});

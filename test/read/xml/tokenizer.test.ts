import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SitemapAssembler } from '../../../src/read/xml/assemble.ts';
import { decodeEntities } from '../../../src/read/xml/entities.ts';
import type { XmlEvents } from '../../../src/read/xml/events.ts';
import { XmlTokenizer } from '../../../src/read/xml/tokenizer.ts';
import type { ParsedEntry } from '../../../src/read/types.ts';

/**
 * The tokenizer's events counted by the way they arrive, for the same assembler the reader uses;
 * `late` counts the writes after which fewer entries had come out than `</url>` end tags had gone in.
 */
function tokenize(chunks: readonly string[]): { entries: ParsedEntry[]; wholeEntries: number; opened: number; late: number } {
  const entries: ParsedEntry[] = [];
  let late = 0;
  let written = '';
  let wholeEntries = 0;
  let opened = 0;
  // eslint-disable-next-line prefer-const -- the assembler asks the tokenizer for positions, and the tokenizer needs the events first
  let tokenizer: XmlTokenizer;
  const assembler = new SitemapAssembler({
    base: undefined,
    report: (diagnostic) => assert.fail(`unexpected finding: ${diagnostic.rule} ${diagnostic.message}`),
    count: (rule) => assert.fail(`unexpected finding: ${rule}`),
    position: () => tokenizer.position(),
    source: () => undefined,
    emit: (entry) => entries.push(entry),
    trackPositions: false,
    onKind: () => undefined,
  });
  const events: XmlEvents = {
    get capturing() {
      return assembler.capturing;
    },
    get wantsEntries() {
      return assembler.wantsEntries;
    },
    get stopped() {
      return assembler.stopped;
    },
    open: (ns, local, attributes) => {
      opened++;
      assembler.open(ns, local, attributes);
    },
    text: (text) => assembler.text(text),
    close: () => assembler.close(),
    leaf: (ns, local, text) => assembler.leaf(ns, local, text),
    entry: (name, content, texts) => {
      const taken = assembler.entry(name, content, texts);
      if (taken) wholeEntries++;
      return taken;
    },
    malformed: (message, position) => assembler.malformed(message, position),
    get listing() {
      return assembler.listing;
    },
    unlisted: (count) => assembler.unlisted(count),
    oversized: (what, chars, position) => assembler.oversized(what, chars, position),
    doctype: (position) => assembler.doctype(position),
    get endedEntries() {
      return assembler.endedEntries;
    },
    forgetEndedEntries: (count) => assembler.forgetEndedEntries(count),
  };
  tokenizer = new XmlTokenizer(events);
  for (const chunk of chunks) {
    tokenizer.write(chunk);
    written += chunk;
    if (entries.length < written.split('</url>').length - 1) late++;
  }
  tokenizer.end();
  assembler.finish();
  return { entries, wholeEntries, opened, late };
}

describe('whole entries', () => {
  const entry = (n: number, lineEnd: string): string =>
    [
      '  <url>',
      `    <loc>https://a.example/${n}?a=1&amp;b=2</loc>`,
      `    <lastmod>2026-11-0${1 + (n % 9)}</lastmod>`,
      '    <image:image>',
      `      <image:loc>https://a.example/i/${n}.jpg</image:loc>`,
      '    </image:image>',
      '    <xhtml:link',
      `      rel="alternate" hreflang="en" href="https://a.example/${n}?a=1&amp;b=2"/>`,
      '  </url>',
      '',
    ].join(lineEnd);
  const urlset = (lineEnd: string): string =>
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">${lineEnd}` +
    `${Array.from({ length: 50 }, (_, n) => entry(n, lineEnd)).join('')}</urlset>${lineEnd}`;
  const expected = Array.from({ length: 50 }, (_, n) => ({
    loc: `https://a.example/${n}?a=1&b=2`,
    lastmod: `2026-11-0${1 + (n % 9)}`,
    images: [{ loc: `https://a.example/i/${n}.jpg` }],
    alternates: [{ hreflang: 'en', href: `https://a.example/${n}?a=1&b=2` }],
  }));

  // Line ends between and inside entries are whitespace with nothing to report, whichever kind they are.
  for (const [name, lineEnd] of [['LF', '\n'], ['CRLF', '\r\n'], ['lone CR', '\r']] as const) {
    it(`pretty-printed with ${name} line ends: every entry after the first is taken in one step`, () => {
      const text = urlset(lineEnd);
      // Cut anywhere, even inside an end tag: an entry cut by a chunk's end is awaited and taken whole too.
      for (const size of [text.length, 1000, 7, 1]) {
        const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
        const result = tokenize(chunks);
        assert.deepEqual(result.entries, expected, `chunks of ${size}`);
        // The first entry is read tag by tag (its names are new), then offered whole; every later one is taken in one step.
        assert.equal(result.wholeEntries, 49, `chunks of ${size}`);
        // The root and the first entry's six elements: no later entry went through open/text/close.
        assert.equal(result.opened, 7, `chunks of ${size}`);
        // Each entry as soon as its end tag is in: an entry cut by a chunk's end is awaited no longer than that.
        assert.equal(result.late, 0, `chunks of ${size}`);
      }
    });
  }

  it('entries of several shapes, mixed, are each taken whole by one pattern whose shapes part where their markup does', () => {
    const loc = (n: number): string => `https://a.example/${n}?a=1&amp;b=2`;
    const shapes = [
      (n: number) => `<url><loc>${loc(n)}</loc></url>`,
      (n: number) => `<url><loc>${loc(n)}</loc><lastmod>2026-11-0${1 + (n % 9)}</lastmod></url>`,
      (n: number) => `<url><loc>${loc(n)}</loc><lastmod>2026-11-0${1 + (n % 9)}</lastmod><image:image><image:loc>https://a.example/i/${n}.jpg</image:loc></image:image></url>`,
      // Attribute values in either quote, a reference in one of them: shapes that differ only there are shapes of their own.
      (n: number) => `<url><loc>${loc(n)}</loc><lastmod>2026-11-0${1 + (n % 9)}</lastmod><xhtml:link rel="alternate" hreflang='de' href="${loc(n)}&amp;l=de"/></url>`,
      (n: number) => `<url><loc>${loc(n)}</loc><lastmod>2026-11-0${1 + (n % 9)}</lastmod><xhtml:link rel="alternate" hreflang="de" href='${loc(n)}'/></url>`,
      (n: number) => `<url><loc>${loc(n)}</loc><changefreq>daily</changefreq></url>`,
    ];
    const decoded = (n: number): string => `https://a.example/${n}?a=1&b=2`;
    const expected = [
      (n: number) => ({ loc: decoded(n) }),
      (n: number) => ({ loc: decoded(n), lastmod: `2026-11-0${1 + (n % 9)}` }),
      (n: number) => ({ loc: decoded(n), lastmod: `2026-11-0${1 + (n % 9)}`, images: [{ loc: `https://a.example/i/${n}.jpg` }] }),
      (n: number) => ({ loc: decoded(n), lastmod: `2026-11-0${1 + (n % 9)}`, alternates: [{ hreflang: 'de', href: `${decoded(n)}&l=de` }] }),
      (n: number) => ({ loc: decoded(n), lastmod: `2026-11-0${1 + (n % 9)}`, alternates: [{ hreflang: 'de', href: decoded(n) }] }),
      (n: number) => ({ loc: decoded(n), changefreq: 'daily' }),
    ];
    const urlset = (shapeOf: (n: number) => number, count: number): string =>
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
      `${Array.from({ length: count }, (_, n) => `${(shapes[shapeOf(n)] as (n: number) => string)(n)}\n`).join('')}</urlset>\n`;
    const cut = (text: string, size: number): string[] => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

    const four = (n: number): number => [0, 1, 1, 2, 1, 3, 1, 1][n % 8] as number;
    const text = urlset(four, 200);
    for (const size of [text.length, 1000, 7]) {
      const result = tokenize(cut(text, size));
      assert.deepEqual(result.entries, Array.from({ length: 200 }, (_, n) => (expected[four(n)] as (n: number) => unknown)(n)), `chunks of ${size}`);
      // Only the entries bringing element names not seen before go tag by tag: the first plain one, the first with a lastmod, the first with an image.
      assert.equal(result.wholeEntries, 200 - 3, `chunks of ${size}`);
    }

    // Six shapes, two more than are kept: the least used gives way (shapes that part inside a tag, at a quote, among them).
    const six = (n: number): number => (n % 10 === 9 ? 5 : n % 8 === 7 ? 4 : four(n));
    const mixed = urlset(six, 300);
    for (const size of [mixed.length, 1000, 7]) {
      assert.deepEqual(tokenize(cut(mixed, size)).entries, Array.from({ length: 300 }, (_, n) => (expected[six(n)] as (n: number) => unknown)(n)), `chunks of ${size}`);
    }
  });

  it('video fields with attributes (price, restriction, uploader, platform) are taken whole, attributes passed on', () => {
    const entry = (n: number): string =>
      `<url><loc>https://a.example/v/${n}</loc><video:video><video:title>T ${n}</video:title>` +
      `<video:price currency="EUR" type='rent'>1.9${n}</video:price><video:restriction relationship="allow">US CA</video:restriction>` +
      `<video:uploader info="https://a.example/u?a=1&amp;b=2">Me &amp; you</video:uploader><video:platform relationship="deny">tv</video:platform></video:video></url>\n`;
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n${[1, 2, 3, 4, 5].map(entry).join('')}</urlset>\n`;
    const result = tokenize([text]);
    assert.deepEqual(result.entries[2], {
      loc: 'https://a.example/v/3',
      videos: [
        {
          title: 'T 3',
          prices: [{ value: '1.93', currency: 'EUR', type: 'rent' }],
          restriction: { relationship: 'allow', countries: ['US', 'CA'] },
          uploader: { name: 'Me & you', info: 'https://a.example/u?a=1&b=2' },
          platform: { relationship: 'deny', platforms: ['tv'] },
        },
      ],
    });
    assert.equal(result.wholeEntries, 4);
    // The root and the first entry's eight elements; none of a later entry.
    assert.equal(result.opened, 1 + 8);
  });

  it('a ] in an attribute value keeps its entry whole; one in the text of an element sends that entry tag by tag', () => {
    const link = (n: number): string => `<xhtml:link rel="alternate" hreflang="de" href="https://a.example/de/${n}?f[]=1"/>`;
    const entries = Array.from({ length: 30 }, (_, n) => `<url><loc>https://a.example/${n === 20 ? '[20]' : n}</loc>${link(n)}</url>\n`);
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${entries.join('')}</urlset>\n`;
    const result = tokenize([text]);
    assert.equal(result.entries.length, 30);
    assert.deepEqual(result.entries[20], { loc: 'https://a.example/[20]', alternates: [{ hreflang: 'de', href: 'https://a.example/de/20?f[]=1' }] });
    // All but the first (it teaches the names) and the one whose <loc> holds a `]`.
    assert.equal(result.wholeEntries, 28);
  });

  it('an entry too long to await is read tag by tag as it comes, and later entries are whole again', () => {
    const image = (n: number): string => `<image:image><image:loc>https://a.example/i/${n}.jpg</image:loc></image:image>`;
    const long = `<url><loc>https://a.example/long</loc>${Array.from({ length: 1000 }, (_, n) => image(n)).join('')}</url>\n`;
    const entries = Array.from({ length: 20 }, (_, n) => `<url><loc>https://a.example/${n}</loc>${image(n)}</url>\n`);
    const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n${entries.slice(0, 10).join('')}${long}${entries.slice(10).join('')}</urlset>\n`;
    assert.ok(long.length > 64 * 1024);
    const chunks = Array.from({ length: Math.ceil(text.length / 1000) }, (_, i) => text.slice(i * 1000, (i + 1) * 1000));
    const result = tokenize(chunks);
    assert.equal(result.entries.length, 21);
    assert.equal((result.entries[10] as { images: unknown[] }).images.length, 1000);
    assert.equal(result.late, 0);
    // The first entry teaches the names; the long one is not waited for past the limit, so it goes tag by tag: its <url> and
    // 1,000 <image:image> opened (their leaves, names seen before, as leaf events).
    assert.equal(result.wholeEntries, 19);
    assert.equal(result.opened, 1 + 4 + 1 + 1000);
  });
});

describe('long tokens', () => {
  it('a long comment, CDATA, PI or tag waits for what can end it, and what follows comes out as soon as it is in', () => {
    const long = 'x'.repeat(70_000);
    const url = (n: number): string => `<url><loc>https://a.example/${n}</loc></url>\n`;
    const tokens = [`<!--${long}-->`, `<url><loc><![CDATA[https://a.example/${long}]]></loc></url>`, `<?pi ${long}?>`, `<url><loc>https://a.example/</loc><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href="https://a.example/${long}"/></url>`,
      // A `>` in a value, and the other quote: only a `>` outside the quotes can end the tag.
      `<url><loc>https://a.example/</loc><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href='https://a.example/${'a">b'.repeat(17_501)}'/></url>`,
      `<url><loc>https://a.example/</loc><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href="https://a.example/${"a'>b".repeat(18_000)}"/></url>`,
    ];
    for (const token of tokens) {
      const text = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${url(1)}${token}\n${url(2)}${url(3)}</urlset>\n`;
      const end = text.indexOf(token) + token.length;
      const whole = tokenize([text]).entries;
      // 4 KiB chunks, and one more cut in the token's last characters (its end split between two writes).
      for (let back = 1; back <= 3; back++) {
        const cuts = [...Array.from({ length: Math.floor(text.length / 4096) }, (_, i) => (i + 1) * 4096), end - back].sort((a, b) => a - b);
        const chunks = cuts.map((cut, i) => text.slice(i === 0 ? 0 : cuts[i - 1], cut)).concat(text.slice(cuts[cuts.length - 1]));
        const result = tokenize(chunks);
        assert.deepEqual(result.entries, whole, `${token.slice(0, 12)}, cut ${back} from its end`);
        assert.equal(result.late, 0, `${token.slice(0, 12)}, cut ${back} from its end`);
      }
    }
  });
});

describe('stopping', () => {
  it('saxes stops in the middle of a chunk once the consumer has stopped', () => {
    let malformed = 0;
    const events: XmlEvents = {
      capturing: false,
      wantsEntries: false,
      get stopped() {
        return malformed >= 10;
      },
      open: () => undefined,
      text: () => undefined,
      close: () => undefined,
      leaf: () => false,
      entry: () => false,
      malformed: () => {
        malformed++;
      },
      listing: true,
      unlisted: () => assert.fail('every finding is listed'),
      oversized: () => undefined,
      doctype: () => undefined,
      endedEntries: 0,
      forgetEndedEntries: () => undefined,
    };
    const tokenizer = new XmlTokenizer(events);
    // A DOCTYPE hands the document to saxes; each NUL is then one of its errors.
    tokenizer.write(`<!DOCTYPE urlset []><urlset>${'\u0000'.repeat(50_000)}`);
    tokenizer.write('\u0000'.repeat(1000));
    tokenizer.end();
    assert.equal(malformed, 10);
  });
});

describe('decodeEntities', () => {
  const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  const isXmlChar = (code: number): boolean =>
    code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
  /** XML's reference grammar, by regex: what decodeEntities must agree with. */
  function expected(text: string): string | undefined {
    let ok = true;
    const decoded = text.replace(/&(?:([A-Za-z]+)|#([0-9]+)|#x([0-9A-Fa-f]+));/g, (whole, name: string | undefined, decimal: string | undefined, hex: string | undefined) => {
      const code = decimal !== undefined ? Number.parseInt(decimal, 10) : hex !== undefined ? Number.parseInt(hex, 16) : -1;
      const value = name !== undefined ? PREDEFINED[name] : isXmlChar(code) ? String.fromCodePoint(code) : undefined;
      if (value === undefined) ok = false;
      return value ?? whole;
    });
    return ok && !/&(?![A-Za-z]+;|#[0-9]+;|#x[0-9A-Fa-f]+;)/.test(text) ? decoded : undefined;
  }
  it('agrees with the reference grammar on random mixes of &, #, x, digits, letters and ;', () => {
    const alphabet = ['&', '&', '#', 'x', '0', '6', '5', 'F', 'a', 'm', 'p', 'l', 't', 'q', 'u', 'o', ';', ';', 'é', ' '];
    let state = 7;
    const next = (): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state >>> 8;
    };
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      for (let length = next() % 16; length > 0; length--) text += alphabet[next() % alphabet.length];
      assert.equal(decodeEntities(text), expected(text), JSON.stringify(text));
    }
    for (const text of ['&amp;&lt;&gt;&quot;&apos;', `&#${'0'.repeat(70)}65;`, '&#x1F600;', '&#0;', '&#xD800;', '&ampx;', '&quote;', '&#;', '&#x;', '&#12a;']) {
      assert.equal(decodeEntities(text), expected(text), text);
    }
  });
});

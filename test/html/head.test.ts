import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Parser } from 'htmlparser2';
import { contentOf } from '../../src/html/fingerprint.ts';
import { HeadReader, readHead, type PageFacts } from '../../src/html/head.ts';
import { ENTITY_DECODERS } from '../../src/html/page.ts';
import { parseSelectors } from '../../src/html/selector.ts';

const URL_ = 'https://example.com/p/';
const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Every HTML page of the fixtures, by path. */
function pages(dir = fixtures): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? pages(join(dir, d.name)) : d.name.endsWith('.html') ? [join(dir, d.name)] : []));
}

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** The same head rules told the page by htmlparser2 instead of the fingerprint's scan: where they differ, the scan tokenizes unlike a real parser. */
function headByParser(html: string, pageUrl: string): Omit<PageFacts, 'fingerprint'> {
  const head = new HeadReader(pageUrl, ENTITY_DECODERS);
  let title: { attributes: Record<string, string>; text: string } | undefined;
  // A raw-text element's content is not the page's text (the scan gives a watcher none of it).
  let raw: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') title = { attributes, text: '' };
        else head.startTag(name, Object.entries(attributes).flat(), undefined);
        if (RAW_TEXT.has(name)) raw = name;
      },
      ontext(text) {
        if (title !== undefined) title.text += text;
        else if (raw === undefined) head.text(text, 0, text.length);
      },
      onclosetag(name, implied) {
        if (name === 'title' && title !== undefined) {
          head.startTag('title', Object.entries(title.attributes).flat(), title.text);
          title = undefined;
        }
        if (name === raw) raw = undefined;
        if (!implied) head.endTag(name);
      },
    },
    // Values as written, as the scan gives them: HeadReader decodes what it keeps.
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const { fingerprint, ...facts } = head.facts('');
  void fingerprint;
  return facts;
}

function facts(html: string, pageUrl = URL_): Omit<PageFacts, 'fingerprint'> {
  const { fingerprint, ...rest } = readHead(html, pageUrl, { decoders: ENTITY_DECODERS });
  assert.match(fingerprint, /^[0-9a-f]{32}$/);
  return rest;
}

test('on every fixture page, the facts read in the fingerprint’s pass are those htmlparser2 gives the same rules', () => {
  const all = pages();
  assert.ok(all.length >= 24, `${all.length} pages`);
  let canonicals = 0;
  for (const path of all) {
    const html = readFileSync(path, 'utf8');
    const ours = facts(html, 'https://example.com/x/');
    assert.deepEqual(ours, headByParser(html, 'https://example.com/x/'), path);
    if (ours.canonical !== undefined) canonicals++;
  }
  // The comparison is worth something only if the pages have facts to find.
  assert.ok(canonicals >= 10, `${canonicals} canonicals`);
});

/** Edge cases, each with the facts a browser's parser leads to; htmlparser2 agrees on each (checked too). */
const EDGES: Array<{ name: string; html: string; want: Partial<Omit<PageFacts, 'fingerprint'>> }> = [
  {
    name: 'character references in kept attribute values and in the title',
    html: '<head><title>A &amp; B &mdash; C&#8217;s</title><link rel="canonical" href="/a?x=1&amp;y=2&#x2F;"><link rel="alternate" hreflang="de" href="/de/?q=a&amp;b"></head>',
    want: { title: 'A & B — C’s', canonical: 'https://example.com/a?x=1&y=2/', alternates: [{ hreflang: 'de', href: 'https://example.com/de/?q=a&b' }] },
  },
  {
    name: 'a robots meta inside a title, a textarea, a script string or a comment is no robots meta',
    html: '<head><title>x <meta name=robots content=noindex></title><script>const s = "<meta name=robots content=noindex>";</script><!-- <meta name="robots" content="noindex"> --></head><body><textarea><meta name="robots" content="none"></textarea></body>',
    want: { title: 'x <meta name=robots content=noindex>', robots: { noindex: false, nofollow: false } },
  },
  {
    name: '<!--> and <!---> are whole comments: what follows is read',
    html: '<head><!--><link rel="canonical" href="/a/"><!---><meta name="robots" content="noindex"></head>',
    want: { canonical: 'https://example.com/a/', robots: { noindex: true, nofollow: false } },
  },
  {
    name: '--!> closes a comment',
    html: '<head><!-- old --!><link rel="canonical" href="/b/"><!-- x --></head>',
    want: { canonical: 'https://example.com/b/' },
  },
  {
    name: 'a script’s end tag with attributes or a slash ends it',
    html: '<head><script>if (a</b) x()</script foo="1"><link rel="canonical" href="/c/"><style>p{}</style/><meta name="googlebot" content="none"></head>',
    want: { canonical: 'https://example.com/c/', robots: { noindex: true, nofollow: true } },
  },
  {
    name: 'a canonical inside <template> does not count, and a <div> there does not end the head',
    html: '<head><template><div><link rel="canonical" href="/t/"></div></template><link rel="canonical" href="/real/"></head>',
    want: { canonical: 'https://example.com/real/' },
  },
  {
    name: 'a tag manager’s <noscript><iframe> in the head does not end it; a refresh inside the head’s <noscript> counts (redirect stubs write theirs there)',
    html: '<head><noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0"></iframe><meta http-equiv="refresh" content="0; url=/moved/"></noscript><link rel="canonical" href="/d/"></head>',
    want: { canonical: 'https://example.com/d/', refresh: { delay: 0, url: 'https://example.com/moved/' } },
  },
  {
    name: 'text in the head starts the body: a canonical after it is in the body and does not count',
    html: '<head><title>T</title>oops<link rel="canonical" href="/e/"></head><body></body>',
    want: { title: 'T' },
  },
  {
    name: 'an element that does not belong in the head starts the body; a link after </head> but before <body> is still the head’s',
    html: '<html><head></head><link rel="canonical" href="/f/"><div></div><link rel="alternate" hreflang="fr" href="/fr/"></html>',
    want: { canonical: 'https://example.com/f/' },
  },
  {
    name: 'upper case, single-quoted and unquoted values, the first of duplicate attributes',
    html: "<HEAD><LINK REL='Canonical' HREF='/g/' href='/not/'><META NAME=ROBOTS CONTENT=NOINDEX,NOFOLLOW><Link Rel=alternate HrefLang=en-GB Href=/gb/></HEAD>",
    want: { canonical: 'https://example.com/g/', robots: { noindex: true, nofollow: true }, alternates: [{ hreflang: 'en-GB', href: 'https://example.com/gb/' }] },
  },
  {
    name: 'a robots meta late in the body counts; one in a body <template> does not; <base> in the body is the document’s base',
    html: '<head><link rel="canonical" href="page/"></head><body><div>x</div><template><meta name="robots" content="nofollow"></template><base href="https://cdn.example.com/en/"><meta name="robots" content="noindex"></body>',
    want: { canonical: 'https://cdn.example.com/en/page/', robots: { noindex: true, nofollow: false } },
  },
  {
    name: 'a refresh with URL= quoted, an svg title in the body is no title',
    html: `<head><meta http-equiv="Refresh" content="0;URL='/new/'"></head><body><svg><title>icon</title></svg></body>`,
    want: { refresh: { delay: 0, url: 'https://example.com/new/' } },
  },
  {
    name: 'a tag inside a quoted attribute value is not a tag',
    html: '<head><meta name="description" content="<link rel=canonical href=/no/>"><link rel="canonical" href="/h/"></head>',
    want: { canonical: 'https://example.com/h/' },
  },
];

for (const { name, html, want } of EDGES) {
  test(`edge: ${name}`, () => {
    const got = facts(html);
    const expected = { robots: { noindex: false, nofollow: false }, alternates: [], images: [], ...want };
    assert.deepEqual(got, expected);
    assert.deepEqual(headByParser(html, URL_), expected, 'htmlparser2 under the same rules');
  });
}

test('--ignore-selector hides nothing from the facts: a robots meta in an ignored element still counts', () => {
  const html = '<html><head><link rel="canonical" href="/i/"></head><body><div class="ad"><meta name="robots" content="noindex"><p>Ad</p></div><p>Text</p></body></html>';
  const { fingerprint, ...got } = readHead(html, URL_, { ignoreSelectors: parseSelectors('.ad'), decoders: ENTITY_DECODERS });
  assert.equal(got.robots.noindex, true);
  assert.equal(got.canonical, 'https://example.com/i/');
  // The ignored element is out of the fingerprint all the same.
  assert.equal(fingerprint, readHead(html.replace('<p>Ad</p>', '<p>Other ad</p>'), URL_, { ignoreSelectors: parseSelectors('.ad'), decoders: ENTITY_DECODERS }).fingerprint);
});

test('raw text in the fingerprint: a title’s or textarea’s markup is its text, and what follows <!--> or </script foo> is content', () => {
  const changes = (a: string, b: string): boolean => contentOf(a) !== contentOf(b);
  assert.ok(changes('<p>a<!-->b</p>', '<p>a<!-->c</p>'));
  assert.ok(changes('<script>x</script foo><p>b</p>', '<script>x</script foo><p>c</p>'));
  assert.ok(changes('<p>a<!-- x --!>b</p>', '<p>a<!-- x --!>c</p>'));
  assert.equal(contentOf('<title>a <b>c</b></title>'), '<title>a <b>c</b></title>');
  assert.equal(contentOf('<textarea>  <i>x</i>  </textarea><p>y</p>'), '<textarea><i>x</i></textarea><p>y</p>');
  // A page never closing its title is text to its end, as a browser reads it.
  assert.equal(contentOf('<title>a<p>b'), '<title>a<p>b');
});

/** test/fixtures/heads/: pages in the shape generators write them (README.md there), with the facts a browser's parser leads to. */
const GENERATOR_PAGES: Array<[file: string, pageUrl: string, want: { noindex?: true; nofollow?: true; canonical?: string; refresh?: string; hreflangs?: string; title?: string }]> = [
  ['astro-blog-post.html', 'https://drift.example.dev/blog/caching-and-queues/', { canonical: 'https://drift.example.dev/blog/caching-and-queues/', title: 'Notes on Caching & Queues | Drift' }],
  ['docusaurus-i18n-doc.html', 'https://docs.example.dev/pt-BR/docs/intro', { canonical: 'https://docs.example.dev/pt-BR/docs/intro', hreflangs: 'en en-GB pt-BR x-default', title: 'Introdução | Ferramenta' }],
  ['eleventy-base-blog-post.html', 'https://www.example.net/notes/2024/06/weekly-links/', { nofollow: true, canonical: 'https://www.example.net/notes/2024/06/weekly-links/', title: 'Links: slow bread, fast builds' }],
  ['gatsby-news-article.html', 'https://harbor.example.news/news/harbor-reopens/', { canonical: 'https://harbor.example.news/news/harbor-reopens/', title: 'Harbor reopens after storm repairs — Harbor Post' }],
  ['hexo-tag-archive.html', 'https://blog.example.cn/tags/rust/page/2/', { noindex: true, canonical: 'https://blog.example.cn/tags/rust/', title: "Tag: rust | Rusty's Notebook" }],
  ['hugo-alias-redirect.html', 'https://bits.example.com/2019/05/minifier/', { noindex: true, canonical: 'https://bits.example.com/posts/minifier-tips/', refresh: 'https://bits.example.com/posts/minifier-tips/', title: 'https://bits.example.com/posts/minifier-tips/' }],
  ['hugo-papermod-post.html', 'https://bits.example.com/posts/minifier-tips/', { canonical: 'https://bits.example.com/posts/minifier-tips/', hreflangs: 'en fr', title: "Tips & tricks for Hugo's minifier | Bits" }],
  ['jekyll-minima-post.html', 'https://ledger.example.org/2023/11/04/ledger-basics.html', { canonical: 'https://ledger.example.org/2023/11/04/ledger-basics.html', title: 'Ledger basics: debits, credits & the trial balance | Ledger Notes' }],
  ['jekyll-redirect-from.html', 'https://ledger.example.org/ledger-basics/', { noindex: true, canonical: 'https://ledger.example.org/2023/11/04/ledger-basics.html', refresh: 'https://ledger.example.org/2023/11/04/ledger-basics.html', title: 'Redirecting…' }],
  ['mkdocs-material-page.html', 'https://docs.example.io/guide/setup/', { noindex: true, canonical: 'https://docs.example.io/guide/setup/', hreflangs: 'en de ja', title: 'Setup - Example Docs' }],
  ['movabletype-moved-entry.html', 'http://www.example.org/weblog/archives/000123.html', { noindex: true, canonical: 'http://www.example.org/weblog/archives/2004/05/moving_day.html', refresh: 'http://www.example.org/weblog/archives/2004/05/moving_day.html', title: 'Field Notes — Moving Day' }],
  ['nextjs-static-export.html', 'https://shop.example.io/guides/returns/', { canonical: 'https://shop.example.io/guides/returns/', hreflangs: 'en de fr', title: 'Returns & refunds guide | Parcel' }],
  ['sphinx-reredirects-stub.html', 'https://widgets.readthedocs.io/en/stable/install.html', { refresh: 'https://widgets.readthedocs.io/en/stable/usage/install.html' }],
  ['sphinx-rtd-page.html', 'https://widgets.readthedocs.io/en/stable/usage/install.html', { canonical: 'https://widgets.readthedocs.io/en/stable/usage/install.html', title: 'Installation — Widgets 2.1 documentation' }],
  ['vitepress-legacy-page.html', 'https://quill.example.dev/legacy/v1-api', { noindex: true, nofollow: true, canonical: 'https://quill.example.dev/legacy/v1-api', title: 'Legacy v1 API | Quill' }],
  ['wordpress-yoast-archive.html', 'https://crumbandco.example/?tag=bakers-notes&paged=2', { canonical: 'https://crumbandco.example/?tag=bakers-notes&paged=2', hreflangs: 'en-us fr-fr x-default', title: 'Baker’s Notes Archives - Page 2 of 3 – Crumb & Co' }],
];

test('pages as generators write them: robots, canonical, refresh, hreflangs and title as a browser’s parser leads to', () => {
  assert.equal(GENERATOR_PAGES.length, pages(join(fixtures, 'heads')).length, 'every page of fixtures/heads has its facts here');
  for (const [file, pageUrl, want] of GENERATOR_PAGES) {
    const got = facts(readFileSync(join(fixtures, 'heads', file), 'utf8'), pageUrl);
    const seen = {
      ...(got.robots.noindex ? { noindex: true } : {}),
      ...(got.robots.nofollow ? { nofollow: true } : {}),
      ...(got.canonical === undefined ? {} : { canonical: got.canonical }),
      ...(got.refresh?.url === undefined ? {} : { refresh: got.refresh.url }),
      ...(got.alternates.length === 0 ? {} : { hreflangs: got.alternates.map((a) => a.hreflang).join(' ') }),
      ...(got.title === undefined ? {} : { title: got.title }),
    };
    assert.deepEqual(seen, want, file);
  }
});

test('hostile markup stays linear with the head read in the same pass: comments closed every way, raw text never closed, a head that never ends', () => {
  const pages = [
    `${'<!-->'.repeat(60_000)}x`,
    `${'<!-- a --!>'.repeat(40_000)}x`,
    `${'<!-- a '.repeat(40_000)}--!>`,
    `<title>${'</t '.repeat(60_000)}`,
    '<textarea>x</textarea>'.repeat(30_000),
    `${'<iframe>'.repeat(30_000)}${'</i'.repeat(30_000)}`,
    `<head>${'<noscript><template><meta name="x" content="y">'.repeat(20_000)}`,
    `<head>${'<link rel="alternate" hreflang="x" href="&amp;">'.repeat(20_000)}`,
  ];
  for (const html of pages) {
    const started = performance.now();
    const got = readHead(html, URL_, { decoders: ENTITY_DECODERS });
    assert.ok(performance.now() - started < 2_000, `${html.slice(0, 16)}… took ${(performance.now() - started).toFixed(0)} ms`);
    assert.match(got.fingerprint, /^[0-9a-f]{32}$/);
  }
});

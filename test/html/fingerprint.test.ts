import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Hash128 } from '../../src/html/hash.ts';
import { readPage } from '../../src/html/page.ts';
import { parseSelectors } from '../../src/html/selector.ts';
import { contentOf, stableValue } from '../../src/html/fingerprint.ts';

const URL_ = 'https://example.com/blog/post/';

interface Build {
  assetHash: string;
  buildComment: string;
  nonce: string;
  csrf: string;
  version: string;
  compact: boolean;
  text: string;
  link: string;
  image: string;
  jsonLdModified: string;
  scopeHash: string;
}

const FIRST: Build = {
  assetHash: '3f9a2c1b',
  buildComment: 'built at 2026-11-20T10:00:00Z',
  nonce: 'r4nd0mN0nc3A',
  csrf: 'tok-AAA111',
  version: '123',
  compact: false,
  text: 'The quick brown fox jumps.',
  link: '/blog/other/',
  image: '/images/fox.jpg',
  jsonLdModified: '2026-11-20T10:00:00Z',
  scopeHash: '7ba5bd90',
};

/** A page as a static generator writes it; what a rebuild changes is in `Build`. */
function page(b: Build): string {
  const html = `<!DOCTYPE html>
<!-- ${b.buildComment} -->
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="generator" content="Hugo 0.136.5 (build ${b.buildComment})">
    <meta name="csrf-token" content="${b.csrf}">
    <title>A post</title>
    <link rel="canonical" href="${URL_}">
    <link rel="stylesheet" href="/assets/main-${b.assetHash}.css" integrity="sha384-${b.assetHash}">
    <link rel="modulepreload" href="/assets/app.${b.assetHash}.js">
    <script nonce="${b.nonce}">window.__BUILD__ = "${b.buildComment}";</script>
    <style nonce="${b.nonce}">.x-${b.assetHash}{color:red}</style>
    <script type="application/ld+json">{"@type":"BlogPosting","headline":"A post","dateModified":"${b.jsonLdModified}","datePublished":"2026-01-02"}</script>
  </head>
  <body data-build="${b.buildComment}">
    <main class="post css-${b.assetHash}" data-v-${b.scopeHash}>
      <h1>A post</h1>
      <p>${b.text}</p>
      <p>See <a href="${b.link}">the other post</a> and <a href="/files/report.pdf?v=${b.version}">the report</a>.</p>
      <p>Print with <a href="/assets/print.${b.assetHash}.css">the print styles</a>.</p>
      <img src="${b.image}" alt="A fox">
      <form method="post" action="/comment"><input type="hidden" name="authenticity_token" value="${b.csrf}"><input type="hidden" name="_token" value="${b.csrf}"><input name="comment"></form>
    </main>
    <script src="/assets/vendor.${b.assetHash}.js" nonce="${b.nonce}"></script>
  </body>
</html>
`;
  return b.compact ? html.replace(/\n\s*/g, '') : html.replace(/<p>/g, '<p>\n        ').replace(/ and /g, '\n   and   ');
}

const fp = (b: Build, options = {}): string => readPage(page(b), URL_, options).fingerprint;

test('the same page rebuilt (new asset hashes, build comment, nonce, CSRF tokens, cache buster, JSON-LD dateModified, scoped-style hash, whitespace) has the same fingerprint', () => {
  const rebuilt: Build = {
    ...FIRST,
    assetHash: 'a1b2c3d4',
    buildComment: 'built at 2026-11-27T18:30:00Z',
    nonce: 'Zx9yW8vU7tS6',
    csrf: 'tok-BBB222',
    version: '124',
    compact: true,
    jsonLdModified: '2026-11-27T18:30:00Z',
    scopeHash: '0c1d2e3f',
  };
  assert.equal(fp(rebuilt), fp(FIRST));
  assert.match(fp(FIRST), /^[0-9a-f]{32}$/);
});

test('a one-word text change, a changed link target, a changed image, a changed JSON-LD headline each change the fingerprint', () => {
  const base = fp(FIRST);
  const changed = [
    fp({ ...FIRST, text: 'The quick red fox jumps.' }),
    fp({ ...FIRST, link: '/blog/another/' }),
    fp({ ...FIRST, image: '/images/fox-2.jpg' }),
    readPage(page(FIRST).replace('"headline":"A post"', '"headline":"A better post"'), URL_).fingerprint,
  ];
  for (const [i, f] of changed.entries()) assert.notEqual(f, base, `change ${i}`);
  assert.equal(new Set(changed).size, changed.length);
});

test('--ignore-selector leaves out matching elements and their content; --ignore-pattern leaves out matching text', () => {
  const a = '<html><body><p>Same</p><div class="ad banner">Ad 1</div><span id="visits">1,024 visits</span><p>Updated 2026-11-20</p></body></html>';
  const b = '<html><body><p>Same</p><div class="banner ad">Ad 2 <b>new</b></div><span id="visits">2,048 visits</span><p>Updated 2026-11-27</p></body></html>';
  assert.notEqual(readPage(a, URL_).fingerprint, readPage(b, URL_).fingerprint);
  const options = { ignoreSelectors: parseSelectors('div.ad, span#visits'), ignorePatterns: [/Updated \d{4}-\d\d-\d\d/g] };
  assert.equal(readPage(a, URL_, options).fingerprint, readPage(b, URL_, options).fingerprint);
  // Left out means left out: the same page without those elements and that text.
  assert.equal(readPage(a, URL_, options).fingerprint, readPage('<html><body><p>Same</p><p></p></body></html>', URL_, options).fingerprint);
  assert.notEqual(readPage(a.replace('Same', 'Other'), URL_, options).fingerprint, readPage(a, URL_, options).fingerprint);
});

test('the selector subset: tag, #id, .class, [attr], [attr=value] compounds in a comma list; anything else is one sentence', () => {
  assert.deepEqual(parseSelectors('meta[name="date"], div.ad.big#x, [data-nosnippet], *[role=banner]'), [
    { tag: 'meta', classes: [], attributes: [{ name: 'name', value: 'date' }] },
    { tag: 'div', id: 'x', classes: ['ad', 'big'], attributes: [] },
    { classes: [], attributes: [{ name: 'data-nosnippet' }] },
    { classes: [], attributes: [{ name: 'role', value: 'banner' }] },
  ]);
  for (const [bad, part] of [['div > p', '" > p"'], ['a:hover', '":hover"'], ['div p', '" p"'], ['a,', 'empty part'], ['.x[y~=z]', '"[y~=z]"']] as const) {
    assert.throws(() => parseSelectors(bad), (error: Error & { code?: string }) => error.code === 'SM_BAD_OPTION' && error.message.startsWith(`--ignore-selector "${bad}" is not supported: `) && error.message.includes(part), bad);
  }
});

test('stableValue: cache busters and hashed code-asset names go; image and document names stay', () => {
  const cases: Array<[string, string]> = [
    ['/assets/app.3f9a2c1b.js', '/assets/app.*.js'],
    ['/assets/main-BX3k9.css', '/assets/main-*.css'],
    ['/_astro/index.D-h3Kx9a.css', '/_astro/index.*.css'],
    ['/css/main.min.5e2f0a9c1b7d4e3f8a6b0c2d9e1f3a5b7c9d0e2f4a6b8c0d2e4f6a8b0c2d4e6f.css', '/css/main.min.*.css'],
    ['/js/bootstrap.bundle.js', '/js/bootstrap.bundle.js'],
    ['/js/jquery-3.7.1.min.js', '/js/jquery-3.7.1.min.js'],
    ['/style.css?v=123', '/style.css'],
    ['/style.css?ver=6.4.2&media=print', '/style.css?media=print'],
    ['/app.js?1700000000', '/app.js'],
    ['/images/hero.3f9a2c1b.jpg', '/images/hero.3f9a2c1b.jpg'],
    ['/files/report-2024.pdf?id=7', '/files/report-2024.pdf?id=7'],
  ];
  for (const [value, stable] of cases) assert.equal(stableValue(value), stable, value);
});

test('Hash128: streaming gives the digest of the whole, whatever the cut; known answers stay put', () => {
  const text = 'sitemapkit content fingerprint — ünïcödé and 𝒮 surrogates';
  const whole = new Hash128().update(text).digest();
  for (let cut = 0; cut <= text.length; cut++) assert.equal(new Hash128().update(text.slice(0, cut)).update(text.slice(cut)).digest(), whole, `cut ${cut}`);
  assert.notEqual(new Hash128().update('a').digest(), new Hash128().update('a\u0000').digest());
  assert.equal(new Hash128().digest(), new Hash128().update('').digest());
  // Pinned: a state store compares fingerprints across versions, so the hash may never change unannounced.
  assert.equal(new Hash128().update('abc').digest(), 'b93bdbc760c4ad69b76cea201469282e');
  assert.equal(new Hash128().digest(), 'b6364ea78d53ec6c6fa5369525b83217');
  const seen = new Set<string>();
  for (let i = 0; i < 20_000; i++) seen.add(new Hash128().update(`/page/${i}`).digest());
  assert.equal(seen.size, 20_000);
});

test('hostile markup stays linear: tags that never close, unclosed quotes, comments and scripts', () => {
  const pages = ['<a'.repeat(100_000), '<a b c '.repeat(60_000), '<a x="'.repeat(60_000), `${'<!--'.repeat(50_000)}x`, `${'<script>'.repeat(50_000)}x`, `<p>${'</a '.repeat(60_000)}>`];
  for (const html of pages) {
    const started = performance.now();
    const content = contentOf(html);
    assert.ok(performance.now() - started < 2_000, `${html.slice(0, 12)}… took ${(performance.now() - started).toFixed(0)} ms`);
    assert.equal(typeof content, 'string');
  }
  // A `<` that opens no tag is text, kept with the whitespace around it.
  assert.equal(contentOf('<p>x < y</p>\n<p>a<b c="1</p>'), '<p>x < y</p><p>a<b c="1</p>');
});

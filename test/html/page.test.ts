import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { largestInSrcset, parseRefresh, readPage } from '../../src/html/page.ts';

const site = (path: string): string => readFileSync(new URL(`../fixtures/site/${path}`, import.meta.url), 'utf8');

test('a home page: canonical, hreflang alternates made absolute, content images only (no header, nav or footer images, no tracking pixel), title', () => {
  const facts = readPage(site('index.html'), 'https://example.com/');
  assert.deepEqual(facts.robots, { noindex: false, nofollow: false });
  assert.equal(facts.canonical, 'https://example.com/');
  assert.deepEqual(facts.alternates, [
    { hreflang: 'en', href: 'https://example.com/' },
    { hreflang: 'de', href: 'https://example.com/de/' },
    { hreflang: 'x-default', href: 'https://example.com/' },
  ]);
  assert.deepEqual(facts.images, ['https://example.com/images/hero.png']);
  assert.equal(facts.title, 'Example — Home');
  assert.equal(facts.refresh, undefined);
});

test('images: the largest srcset candidate, a lazy loader’s data-src behind a data: placeholder, an article’s own header counts', () => {
  const facts = readPage(site('docs/intro/index.html'), 'https://example.com/docs/intro/');
  assert.deepEqual(facts.images, ['https://example.com/img/diagram-large.png', 'https://example.com/img/lazy-figure.webp']);
});

test('robots: noindex and none for all crawlers or googlebot (any case); googlebot-news and other crawlers alone do not', () => {
  const robots = (metas: string) => readPage(`<html><head>${metas}</head><body></body></html>`, 'https://example.com/').robots;
  assert.deepEqual(robots('<meta name="robots" content="noindex, nofollow">'), { noindex: true, nofollow: true });
  assert.deepEqual(robots('<meta name="GoogleBot" content="NONE">'), { noindex: true, nofollow: true });
  assert.deepEqual(robots('<meta name="robots" content="index,nofollow">'), { noindex: false, nofollow: true });
  assert.deepEqual(robots('<meta name="googlebot-news" content="noindex">'), { noindex: false, nofollow: false });
  assert.deepEqual(robots('<meta name="bingbot" content="noindex">'), { noindex: false, nofollow: false });
  assert.deepEqual(robots('<meta name="robots" content="max-snippet:-1, noimageindex">'), { noindex: false, nofollow: false });
});

test('redirect pages as Hugo aliases and jekyll-redirect-from write them: the refresh target, absolute', () => {
  const hugo = readPage(site('blog/old-post/index.html'), 'https://example.com/blog/old-post/');
  assert.deepEqual(hugo.refresh, { delay: 0, url: 'https://example.com/blog/hello-world/' });
  assert.equal(hugo.robots.noindex, true);
  const jekyll = readPage(site('redirect/old.html'), 'https://example.com/redirect/old.html');
  assert.deepEqual(jekyll.refresh, { delay: 0, url: 'https://example.com/docs/intro/' });
  assert.equal(jekyll.title, 'Redirecting…');
});

test('parseRefresh: delays, url= in any case, quotes, no url', () => {
  assert.deepEqual(parseRefresh('0; url=/x/'), { delay: 0, url: '/x/' });
  assert.deepEqual(parseRefresh("5;URL='/y/'"), { delay: 5, url: '/y/' });
  assert.deepEqual(parseRefresh('3, https://e.com/z'), { delay: 3, url: 'https://e.com/z' });
  assert.deepEqual(parseRefresh('30'), { delay: 30 });
  assert.equal(parseRefresh('soon'), undefined);
});

test('<base href> resolves canonical, alternates and images wherever it stands; canonical and alternates in <body> do not count; svg titles are no title', () => {
  const html = `<html><head><link rel="canonical" href="page/"><base href="https://cdn.example.com/en/"><title>
    Real   title </title></head><body><svg><title>icon</title></svg><link rel="canonical" href="/elsewhere/"><link rel="alternate" hreflang="fr" href="/fr/"><img src="a.png"></body></html>`;
  const facts = readPage(html, 'https://example.com/x/');
  assert.equal(facts.canonical, 'https://cdn.example.com/en/page/');
  assert.deepEqual(facts.alternates, []);
  assert.deepEqual(facts.images, ['https://cdn.example.com/en/a.png']);
  assert.equal(facts.title, 'Real title');
});

test('largestInSrcset: w beats x, commas inside URLs, no descriptor is 1x', () => {
  assert.equal(largestInSrcset('a.jpg 1x, b.jpg 2x'), 'b.jpg');
  assert.equal(largestInSrcset('s.jpg 480w, https://c.example/w_800,h_600/m.jpg 800w, x.jpg 2x'), 'https://c.example/w_800,h_600/m.jpg');
  assert.equal(largestInSrcset('only.jpg'), 'only.jpg');
  assert.equal(largestInSrcset(' '), undefined);
});

test('without images the facts are the same but for the images; a robots meta misplaced in the body is still read', () => {
  for (const path of ['index.html', 'docs/intro/index.html', 'blog/old-post/index.html', 'redirect/old.html', 'private/index.html']) {
    const html = site(path);
    assert.deepEqual(readPage(html, 'https://example.com/p/', { images: false }), { ...readPage(html, 'https://example.com/p/'), images: [] }, path);
  }
  const late = '<html><head><title>T</title></head><body><div>x</div><img src="/a.png"><meta name="robots" content="noindex"></body></html>';
  assert.deepEqual(readPage(late, 'https://example.com/', { images: false }).images, []);
  assert.equal(readPage(late, 'https://example.com/', { images: false }).robots.noindex, true);
});

test('images: duplicates once, data: URIs and non-http schemes out, at most maxImages', () => {
  const imgs = Array.from({ length: 30 }, (_, i) => `<img src="/p/${i % 12}.jpg">`).join('') + '<img src="data:image/png;base64,AA"><img src="ftp://e.com/x.png">';
  const facts = readPage(`<html><body><main>${imgs}</main></body></html>`, 'https://example.com/', { maxImages: 10 });
  assert.deepEqual(facts.images, Array.from({ length: 10 }, (_, i) => `https://example.com/p/${i}.jpg`));
});

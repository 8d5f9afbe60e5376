import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { readRobots, sitemapsInRobotsTxt } from '../../src/robots/read.ts';

const SHOP = readFileSync(new URL('../fixtures/robots/shop.txt', import.meta.url), 'utf8');
const shop = readRobots(SHOP, 'https://shop.example/robots.txt');
const at = (path: string) => `https://shop.example${path}`;

/** `isAllowed` for each path, for one agent. */
const verdicts = (paths: string[], agent: string) => paths.map((path) => [path, shop.isAllowed(at(path), agent)]);

describe('readRobots on a shop\'s robots.txt', () => {
  test('the Sitemap: lines', () => {
    assert.deepEqual(shop.sitemaps, ['https://shop.example/sitemap.xml']);
    assert.deepEqual(sitemapsInRobotsTxt('https://shop.example/robots.txt', SHOP), ['https://shop.example/sitemap.xml']);
  });

  test('an agent without a group of its own follows *: paths match by prefix, case-sensitively, with * and a closing $', () => {
    assert.deepEqual(verdicts(['/', '/products/red-shoes', '/admin', '/admin/settings', '/Admin', '/cartoons', '/checkouts', '/checkouts/c1'], 'Googlebot'), [
      ['/', true],
      ['/products/red-shoes', true],
      ['/admin', false],
      ['/admin/settings', false],
      ['/Admin', true],
      ['/cartoons', false],
      ['/checkouts', false],
      ['/checkouts/c1', false],
    ]);
    assert.deepEqual(verdicts(['/collections/shoes', '/collections/shoes?sort_by=price', '/en/collections/shoes?page=2&sort_by=price', '/collections/red+shoes', '/blogs/news.atom', '/blogs/news.atom?page=2'], 'Googlebot'), [
      ['/collections/shoes', true],
      ['/collections/shoes?sort_by=price', false],
      ['/en/collections/shoes?page=2&sort_by=price', false],
      ['/collections/red+shoes', false],
      ['/blogs/news.atom', false],
      ['/blogs/news.atom?page=2', true],
    ]);
  });

  test('the longest matching rule wins, and says which line decided', () => {
    assert.deepEqual(verdicts(['/policies/refund-policy', '/policies/terms-of-service'], 'Googlebot'), [
      ['/policies/refund-policy', false],
      ['/policies/terms-of-service', true],
    ]);
    assert.equal(shop.matchingLine(at('/policies/refund-policy'), 'Googlebot'), 43);
    assert.equal(shop.matchingLine(at('/policies/terms-of-service'), 'Googlebot'), 44);
    assert.equal(shop.matchingLine(at('/products/red-shoes'), 'Googlebot'), -1);
  });

  test('a named agent follows its own group only, matched in any case and without its version', () => {
    // AdsBot is named, so the * rules (/admin) do not apply to it.
    assert.deepEqual(verdicts(['/admin', '/checkout', '/products/a?oseid=1', '/products/a?preview_theme_id=9'], 'AdsBot-Google'), [
      ['/admin', true],
      ['/checkout', false],
      ['/products/a?oseid=1', false],
      ['/products/a?preview_theme_id=9', false],
    ]);
    assert.deepEqual(verdicts(['/', '/products/red-shoes'], 'Nutch/2.4'), [
      ['/', false],
      ['/products/red-shoes', false],
    ]);
    // Two user-agent lines, one group; a group with no rules allows everything, * notwithstanding.
    assert.deepEqual([shop.isAllowed(at('/admin'), 'ahrefssiteaudit'), shop.isAllowed(at('/cart'), 'AhrefsSiteAudit'), shop.isAllowed(at('/admin'), 'MJ12bot')], [false, true, true]);
  });

  test('crawl delay per group, in seconds, the field name in any case; none for *', () => {
    assert.deepEqual(['AhrefsBot', 'AhrefsSiteAudit', 'MJ12bot', 'Pinterest/0.2', 'Googlebot'].map((agent) => shop.crawlDelay(agent)), [10, 10, 10, 1, undefined]);
  });

  test('a URL on another origin is none of this file\'s business', () => {
    for (const url of ['https://other.example/admin', 'http://shop.example/admin', 'https://shop.example:8443/admin']) {
      assert.equal(shop.isAllowed(url, 'Googlebot'), undefined, url);
      assert.equal(shop.matchingLine(url, 'Googlebot'), undefined, url);
    }
  });
});

describe('readRobots on the examples Google documents', () => {
  const disallowing = (pattern: string) => readRobots(`user-agent: *\ndisallow: ${pattern}\n`, 'https://example.com/robots.txt');
  /** The paths `pattern` matches, of those given. */
  const matched = (pattern: string, paths: string[]) => paths.filter((path) => disallowing(pattern).isAllowed(`https://example.com${path}`, 'anybot') === false);

  test('path patterns: prefix, trailing *, a / at the end, * inside, $ at the end', () => {
    const fish = ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.php?id=anything', '/Fish.asp', '/catfish', '/?id=fish', '/desert/fish'];
    const matchesFish = ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.php?id=anything'];
    assert.deepEqual(matched('/fish', fish), matchesFish);
    assert.deepEqual(matched('/fish*', fish), matchesFish);
    assert.deepEqual(matched('/fish/', ['/fish/', '/fish/?id=anything', '/fish/salmon.htm', '/fish', '/fish.html', '/animals/fish/', '/Fish/Salmon.asp']), ['/fish/', '/fish/?id=anything', '/fish/salmon.htm']);
    const php = ['/index.php', '/filename.php', '/folder/filename.php', '/folder/filename.php?parameters', '/folder/any.php.file.html', '/filename.php/', '/filename.php5', '/', '/windows.PHP'];
    assert.deepEqual(matched('/*.php', php), ['/index.php', '/filename.php', '/folder/filename.php', '/folder/filename.php?parameters', '/folder/any.php.file.html', '/filename.php/', '/filename.php5']);
    assert.deepEqual(matched('/*.php$', php), ['/index.php', '/filename.php', '/folder/filename.php']);
    assert.deepEqual(matched('/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters', '/Fish.PHP']), ['/fish.php', '/fishheads/catfish.php?parameters']);
  });

  test('order of precedence: the longest pattern wins, allow on a tie', () => {
    const verdict = (allow: string, disallow: string, path: string) =>
      readRobots(`user-agent: *\nallow: ${allow}\ndisallow: ${disallow}\n`, 'https://example.com/robots.txt').isAllowed(`https://example.com${path}`, 'anybot');
    assert.equal(verdict('/p', '/', '/page'), true);
    assert.equal(verdict('/folder', '/folder', '/folder/page'), true);
    assert.equal(verdict('/page', '/*.htm', '/page.htm'), false);
    assert.equal(verdict('/$', '/', '/'), true);
    assert.equal(verdict('/$', '/', '/page.htm'), false);
  });

  test('groups: the lines of one agent\'s groups add up; several user-agent lines share one group', () => {
    const robots = readRobots(
      ['user-agent: googlebot-news', 'disallow: /fish', '', 'user-agent: *', 'disallow: /carrots', '', 'user-agent: googlebot-news', 'disallow: /shrimp', '', 'user-agent: e', 'user-agent: f', 'disallow: /g'].join('\n'),
      'https://example.com/robots.txt',
    );
    const check = (agent: string) => ['/fish', '/shrimp', '/carrots', '/g'].map((path) => robots.isAllowed(`https://example.com${path}`, agent));
    assert.deepEqual(check('Googlebot-News'), [false, false, true, true]);
    assert.deepEqual(check('otherbot'), [true, true, false, true]);
    assert.deepEqual(check('e'), [true, true, true, false]);
    assert.deepEqual(check('f'), [true, true, true, false]);
  });
});

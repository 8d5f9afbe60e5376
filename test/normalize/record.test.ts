import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from '../../src/index.ts';
import { RecordNormalizer } from '../../src/normalize/record.ts';
import { scopeOf } from '../../src/rules/url.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');

function normalize(input: unknown) {
  const diagnostics: Diagnostic[] = [];
  const base = new URL('https://example.com/');
  const normalizer = new RecordNormalizer({ base, scope: scopeOf(base), now: NOW }, (d) => diagnostics.push(d));
  const entry = normalizer.normalize(input, 7);
  return { record: entry?.record, diagnostics, rules: diagnostics.map((d) => `${d.rule}:${d.level}`) };
}

describe('RecordNormalizer', () => {
  test('a bare string is a loc; a valid record passes unchanged and silently', () => {
    assert.deepEqual(normalize('https://example.com/a'), { record: { loc: 'https://example.com/a' }, diagnostics: [], rules: [] });
    const full = normalize({ loc: 'https://example.com/b', lastmod: '2026-01-02', changefreq: 'weekly', priority: 0.7 });
    assert.deepEqual(full.record, { loc: 'https://example.com/b', lastmod: '2026-01-02', changefreq: 'weekly', priority: '0.7' });
    assert.deepEqual(full.rules, []);
  });

  test('a record without a usable loc is dropped with the rule it broke, and the input line', () => {
    assert.deepEqual(normalize({ lastmod: '2026-01-01' }).rules, ['R6:error']);
    assert.deepEqual(normalize(42).rules, ['INPUT:error']);
    const relative = normalize({ loc: 'ftp://example.com/' });
    assert.equal(relative.record, undefined);
    assert.equal(relative.diagnostics[0]?.line, 7);
    assert.equal(relative.diagnostics[0]?.rule, 'R8');
  });

  test('a bad optional field is dropped and the URL kept (R11, R12, R13, R14)', () => {
    const result = normalize({ loc: 'https://example.com/c', lastmod: '2026-13-01', changefreq: 'Daily', priority: 2 });
    assert.deepEqual(result.record, { loc: 'https://example.com/c' });
    assert.deepEqual(result.rules, ['R11:error', 'R13:error', 'R14:error']);
    assert.ok(result.diagnostics.every((d) => d.url === 'https://example.com/c'));
    assert.deepEqual(normalize({ loc: 'https://example.com/d', lastmod: '2026' }).rules, ['R12:error']);
  });

  test('relative locs are resolved and reported; raw characters URLs forbid are encoded and reported; IRIs are just encoded', () => {
    const relative = normalize({ loc: '/about us' });
    assert.equal(relative.record?.loc, 'https://example.com/about%20us');
    assert.deepEqual(relative.rules, ['R8:warn']);
    assert.deepEqual(normalize({ loc: 'https://example.com/a b' }).rules, ['R10:warn']);
    assert.deepEqual(normalize({ loc: 'https://example.com/ü' }), { record: { loc: 'https://example.com/%C3%BC' }, diagnostics: [], rules: [] });
  });

  test('scope: another host is R16, reported at the configured level', () => {
    assert.deepEqual(normalize({ loc: 'https://other.example/' }).rules, ['R16:warn']);
  });

  test('unknown fields are reported and ignored', () => {
    const result = normalize({ loc: 'https://example.com/', title: 'x' });
    assert.deepEqual(result.rules, ['INPUT:warn']);
    assert.match(result.diagnostics[0]?.message ?? '', /"title"/);
  });

  test('images: locs normalized (any host), a bad image dropped alone, deprecated fields warned (R34)', () => {
    const result = normalize({ loc: 'https://example.com/p', images: [{ loc: 'https://cdn.example.net/ä.png', caption: 'A cup' }, { loc: 'not a url' }, { title: 'no loc' }] });
    assert.deepEqual(result.record?.images, [{ loc: 'https://cdn.example.net/%C3%A4.png', caption: 'A cup' }]);
    assert.deepEqual(result.rules, ['R34:warn', 'R8:error', 'R34:error']);
  });

  test('images: more than 1,000 per URL are cut to 1,000 (R34)', () => {
    const images = Array.from({ length: 1002 }, (_, i) => ({ loc: `https://cdn.example.com/${i}.png` }));
    const result = normalize({ loc: 'https://example.com/p', images });
    assert.equal(result.record?.images?.length, 1000);
    assert.deepEqual(result.rules, ['R34:error']);
  });

  test('videos: required tags (R35) and value checks (R36)', () => {
    const good = { thumbnail_loc: 'https://example.com/t.jpg', title: 'T', description: 'D', player_loc: 'https://example.com/player' };
    const ok = normalize({ loc: 'https://example.com/v', videos: [{ ...good, duration: '60', rating: 4.5, view_count: 10, tags: ['a', 'b'], live: false, restriction: { relationship: 'allow', countries: ['US', 'CA'] }, platform: { relationship: 'deny', platforms: ['tv'] }, uploader: { name: 'Me', info: 'https://example.com/me' }, publication_date: '2026-11-01T10:00+01:00' }] });
    assert.deepEqual(ok.rules, []);
    assert.deepEqual(ok.record?.videos?.[0], { ...good, duration: '60', rating: '4.5', view_count: '10', tags: ['a', 'b'], live: 'no', restriction: { relationship: 'allow', countries: 'US CA' }, platform: { relationship: 'deny', platforms: 'tv' }, uploader: { name: 'Me', info: 'https://example.com/me' }, publication_date: '2026-11-01T10:00:00+01:00' });

    const missing = normalize({ loc: 'https://example.com/v', videos: [{ title: 'T', description: 'D' }] });
    assert.equal(missing.record?.videos, undefined);
    assert.deepEqual(missing.rules, ['R35:error']);

    const bad = normalize({ loc: 'https://example.com/v', videos: [{ ...good, duration: 28801, rating: 6, restriction: { relationship: 'allow', countries: ['us'] }, title: 'x'.repeat(101) }] });
    assert.equal(bad.record?.videos, undefined, 'a 101-character title drops the video');
    const values = normalize({ loc: 'https://example.com/v', videos: [{ ...good, duration: 28801, rating: 6, restriction: { relationship: 'allow', countries: ['us'] }, tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }] });
    assert.deepEqual(values.rules, ['R36:error', 'R36:error', 'R36:error', 'R36:error']);
    assert.equal(values.record?.videos?.[0]?.tags?.length, 32);
    assert.deepEqual(normalize({ loc: 'https://example.com/v', videos: [{ ...good, duration: 0 }] }).rules, ['R36:warn']);
    assert.deepEqual(normalize({ loc: 'https://example.com/v', videos: [{ ...good, player_loc: 'https://example.com/v' }] }).rules, ['R36:warn']);
  });

  test('news: required fields, language pattern, age (R37)', () => {
    const news = { publication: { name: 'The Daily', language: 'en' }, publication_date: '2026-11-22T08:00:00Z', title: 'Headline & more' };
    const ok = normalize({ loc: 'https://example.com/n', news });
    assert.deepEqual(ok.rules, []);
    assert.deepEqual(ok.record?.news, news);
    assert.deepEqual(normalize({ loc: 'https://example.com/n', news: { ...news, publication_date: '2026-11-01' } }).rules, ['R37:warn']);
    const badLanguage = normalize({ loc: 'https://example.com/n', news: { ...news, publication: { name: 'X', language: 'en-US' } } });
    assert.equal(badLanguage.record?.news, undefined);
    assert.ok(badLanguage.rules.every((r) => r === 'R37:error'));
    assert.deepEqual(normalize({ loc: 'https://example.com/n', news: { ...news, genres: 'Blog, OpEd' } }).record?.news?.genres, 'Blog, OpEd');
  });

  test('alternates: BCP 47 hreflang, absolute href, self-reference and duplicates warned (R38)', () => {
    const ok = normalize({ loc: 'https://example.com/en', alternates: [{ hreflang: 'en', href: 'https://example.com/en' }, { hreflang: 'de-AT', href: 'https://example.com/de-at' }] });
    assert.deepEqual(ok.rules, []);
    const bad = normalize({ loc: 'https://example.com/en', alternates: [{ hreflang: 'en_US', href: 'https://example.com/us' }, { hreflang: 'fr', href: 'https://example.com/fr' }, { hreflang: 'fr', href: 'https://example.com/fr2' }] });
    assert.deepEqual(bad.rules, ['R38:error', 'R38:warn', 'R38:warn']);
    assert.equal(bad.record?.alternates?.length, 2);
  });

  test('text fields lose characters XML cannot carry (R2)', () => {
    const result = normalize({ loc: 'https://example.com/i', images: [{ loc: 'https://example.com/i.png', title: 'bell\u0007' }] });
    assert.equal(result.record?.images?.[0]?.title, 'bell');
    // The deprecated image title (R34), then the character dropped from it.
    assert.deepEqual(result.rules, ['R34:warn', 'R2:warn']);
  });
});

describe('RecordNormalizer: alternates and extension URLs', () => {
  const link = (hreflang: string, href: string) => ({ hreflang, href });

  test('a URL not among its own alternates is warned at its alternates (R38); the comparison is on the URLs as written, so host case and an empty path do not count', () => {
    const missing = normalize({ loc: 'https://example.com/en', alternates: [link('de', 'https://example.com/de')] });
    assert.deepEqual(missing.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`), ['R38:warn alternates']);
    assert.deepEqual(normalize({ loc: 'https://example.com', alternates: [link('en', 'HTTPS://Example.COM:443/'), link('de', 'https://example.com/de')] }).rules, []);
  });

  test('an alternate that differs from the URL only by a trailing slash or letter case is named: search engines take them as other URLs', () => {
    const slash = normalize({ loc: 'https://example.com/en', alternates: [link('de', 'https://example.com/de'), link('en', 'https://example.com/en/')] });
    assert.deepEqual(slash.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`), ['R38:warn alternates[2].href']);
    assert.match(slash.diagnostics[0]?.message ?? '', /https:\/\/example\.com\/en\/.*trailing slash or letter case/);
    assert.deepEqual(normalize({ loc: 'https://example.com/EN', alternates: [link('en', 'https://example.com/en')] }).diagnostics.map((d) => d.field), ['alternates[1].href']);
  });

  test('a repeated hreflang is warned at the repeat', () => {
    const repeated = normalize({ loc: 'https://example.com/en', alternates: [link('en', 'https://example.com/en'), link('EN', 'https://example.com/en2')] });
    assert.deepEqual(repeated.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`), ['R38:warn alternates[2].hreflang']);
  });

  test('relative URLs in alternates, images and videos are resolved against the base as a relative loc is, each reported (R8)', () => {
    const result = normalize({
      loc: '/a',
      alternates: [link('en', '/a'), link('de', 'de/a')],
      images: [{ loc: '/i.png' }],
      videos: [{ thumbnail_loc: '/t.jpg', title: 'T', description: 'D', content_loc: '/v.mp4', player_loc: '/p', uploader: { name: 'U', info: '/u' } }],
    });
    assert.deepEqual(result.record, {
      loc: 'https://example.com/a',
      alternates: [link('en', 'https://example.com/a'), link('de', 'https://example.com/de/a')],
      images: [{ loc: 'https://example.com/i.png' }],
      videos: [{ thumbnail_loc: 'https://example.com/t.jpg', title: 'T', description: 'D', content_loc: 'https://example.com/v.mp4', player_loc: 'https://example.com/p', uploader: { name: 'U', info: 'https://example.com/u' } }],
    });
    assert.deepEqual(
      result.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`).sort(),
      ['loc', 'images[1].loc', 'videos[1].thumbnail_loc', 'videos[1].content_loc', 'videos[1].player_loc', 'videos[1].uploader.info', 'alternates[1].href', 'alternates[2].href'].map((f) => `R8:warn ${f}`).sort(),
    );
  });

  test('a video restriction or platform with an empty list is kept as given, with a warning naming its effect (R36)', () => {
    const video = { thumbnail_loc: 'https://example.com/t.jpg', title: 'T', description: 'D', player_loc: 'https://example.com/player' };
    const allow = normalize({ loc: 'https://example.com/v', videos: [{ ...video, restriction: { relationship: 'allow', countries: [] } }] });
    assert.deepEqual(allow.record?.videos?.[0]?.restriction, { relationship: 'allow', countries: '' });
    assert.deepEqual(allow.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`), ['R36:warn videos[1].restriction']);
    assert.match(allow.diagnostics[0]?.message ?? '', /no country.*nowhere/);
    const deny = normalize({ loc: 'https://example.com/v', videos: [{ ...video, restriction: { relationship: 'deny', countries: [] } }] });
    assert.deepEqual(deny.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`), ['R36:warn videos[1].restriction']);
    assert.match(deny.diagnostics[0]?.message ?? '', /no country.*restricts nothing/);
    const platform = normalize({ loc: 'https://example.com/v', videos: [{ ...video, platform: { relationship: 'allow', platforms: [] } }] });
    assert.deepEqual(platform.diagnostics.map((d) => `${d.rule}:${d.level} ${d.field}`), ['R36:warn videos[1].platform']);
  });
});

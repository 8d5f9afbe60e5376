import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sitemapPlaces, wholeLines } from '../../src/robots/lines.ts';

describe('wholeLines', () => {
  test('keeps the text up to its last line end, whichever end it is', () => {
    assert.equal(wholeLines('a\nb\nSitemap: https://ex'), 'a\nb\n');
    assert.equal(wholeLines('a\r\nb\r\n'), 'a\r\nb\r\n');
    assert.equal(wholeLines('a\rb'), 'a\r');
    assert.equal(wholeLines('no line end'), '');
  });
});

describe('sitemapPlaces', () => {
  test('each Sitemap: value with its line and the column its value starts at, every time it stands, as robots-parser reads the lines', () => {
    const text = 'User-agent: *\r\nSitemap: https://a.example/1.xml\rsitemap:https://a.example/2.xml # second\n  SITEMAP :  https://a.example/1.xml\nDisallow: /sitemap';
    assert.deepEqual(
      [...sitemapPlaces(text)],
      [
        ['https://a.example/1.xml', [{ line: 2, column: 10 }, { line: 4, column: 14 }]],
        ['https://a.example/2.xml', [{ line: 3, column: 9 }]],
      ],
    );
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isErrorPage, samePage, urlOfPath, type TrailingSlash } from '../../src/sources/site-url.ts';

const SITE = 'https://example.com/docs/';

test('files to URLs as hosts serve them, for each trailing-slash policy, with and without clean URLs', () => {
  const paths = ['index.html', 'guide/index.html', 'guide/setup.html', 'guide/setup.htm', 'files/report.pdf', 'a b/ü?.html'];
  const expected: Record<string, Record<TrailingSlash, string[]>> = {
    plain: {
      preserve: ['', 'guide/', 'guide/setup.html', 'guide/setup.htm', 'files/report.pdf', 'a%20b/%C3%BC%3F.html'],
      always: ['', 'guide/', 'guide/setup.html', 'guide/setup.htm', 'files/report.pdf', 'a%20b/%C3%BC%3F.html'],
      never: ['', 'guide', 'guide/setup.html', 'guide/setup.htm', 'files/report.pdf', 'a%20b/%C3%BC%3F.html'],
    },
    clean: {
      preserve: ['', 'guide/', 'guide/setup', 'guide/setup', 'files/report.pdf', 'a%20b/%C3%BC%3F'],
      always: ['', 'guide/', 'guide/setup/', 'guide/setup/', 'files/report.pdf', 'a%20b/%C3%BC%3F/'],
      never: ['', 'guide', 'guide/setup', 'guide/setup', 'files/report.pdf', 'a%20b/%C3%BC%3F'],
    },
  };
  for (const [mode, policies] of Object.entries(expected)) {
    for (const [slash, urls] of Object.entries(policies)) {
      const got = paths.map((p) => urlOfPath(p, { siteUrl: SITE, cleanUrls: mode === 'clean', trailingSlash: slash as TrailingSlash }));
      assert.deepEqual(got, urls.map((u) => SITE + u), `${mode} ${slash}`);
    }
  }
});

test('error and fallback pages at any depth, in both forms; pages that merely contain the digits are not', () => {
  for (const p of ['404.html', '500.html', '200.html', '50x.html', '410.htm', '404/index.html', 'de/404.html', 'de/404/index.html']) assert.equal(isErrorPage(p), true, p);
  for (const p of ['1404.html', '404-tips.html', 'errors/index.html', 'blog/2024/index.html', 'x404.html', '4040/index.html']) assert.equal(isErrorPage(p), false, p);
});

test('samePage: slash, index.html, .html and path case are spellings of one page; host, scheme, query and other paths are not', () => {
  const page = 'https://example.com/guide/setup/';
  for (const other of ['https://example.com/guide/setup', 'https://example.com/guide/setup/index.html', 'https://example.com/guide/setup.html', 'https://EXAMPLE.com/Guide/Setup/']) assert.equal(samePage(other, page), true, other);
  for (const other of ['http://example.com/guide/setup/', 'https://www.example.com/guide/setup/', 'https://example.com/guide/setup/?lang=de', 'https://example.com/guide/', 'not a url']) assert.equal(samePage(other, page), false, other);
});

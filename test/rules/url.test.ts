import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkScope, scopeOf, toSitemapUri } from '../../src/rules/url.ts';

function uri(input: string, base?: string): string {
  const result = toSitemapUri(input, base === undefined ? undefined : new URL(base));
  assert.ok(result.ok, `expected ${input} to be accepted: ${JSON.stringify(result)}`);
  return result.uri;
}

function rejected(input: string, base?: string): string {
  const result = toSitemapUri(input, base === undefined ? undefined : new URL(base));
  assert.ok(!result.ok, `expected ${input} to be refused, got ${JSON.stringify(result)}`);
  return result.rule;
}

describe('toSitemapUri (R8–R10)', () => {
  test('the sitemaps.org entity-escaping example: non-ASCII path is UTF-8 percent-encoded', () => {
    assert.equal(uri('http://www.example.com/ümlat.php&q=name'), 'http://www.example.com/%C3%BCmlat.php&q=name');
  });

  test('an IDN host becomes punycode, scheme and host are lower-cased', () => {
    assert.equal(uri('https://bücher.example/straße'), 'https://xn--bcher-kva.example/stra%C3%9Fe');
    assert.equal(uri('HTTPS://WWW.Example.COM/Path'), 'https://www.example.com/Path');
  });

  test('existing escapes are kept, never double-encoded; a malformed escape has its % encoded', () => {
    assert.equal(uri('https://example.com/a%20b%C3%BC'), 'https://example.com/a%20b%C3%BC');
    assert.equal(uri('https://example.com/100%'), 'https://example.com/100%25');
    assert.equal(uri('https://example.com/%zz'), 'https://example.com/%25zz');
  });

  test('characters URIs may not carry raw are percent-encoded', () => {
    assert.equal(uri('https://example.com/a b<c>"d{e}|f\\g^h`i'), 'https://example.com/a%20b%3Cc%3E%22d%7Be%7D%7Cf%5Cg%5Eh%60i');
    assert.equal(uri('https://example.com/p#frag#more'), 'https://example.com/p#frag%23more');
  });

  test('surrounding whitespace is trimmed', () => {
    assert.equal(uri('  https://example.com/x \n'), 'https://example.com/x');
  });

  test('the empty path is written as "/", so https://example.com and https://example.com/ are one URL', () => {
    assert.equal(uri('https://example.com'), 'https://example.com/');
    assert.equal(uri('https://example.com?q=1'), 'https://example.com/?q=1');
    assert.equal(uri('HTTPS://Example.com#top'), 'https://example.com/#top');
    assert.equal(uri('https://user@example.com'), 'https://user@example.com/');
  });

  test('default ports are dropped, others kept; emoji (surrogate pairs) encode as 4 bytes', () => {
    assert.equal(uri('http://example.com:80/'), 'http://example.com/');
    assert.equal(uri('https://example.com:8443/'), 'https://example.com:8443/');
    assert.equal(uri('https://example.com/😀'), 'https://example.com/%F0%9F%98%80');
  });

  test('relative references are resolved against a base, refused without one (R8)', () => {
    assert.equal(uri('/a%20b', 'https://example.com/shop/'), 'https://example.com/a%20b');
    assert.equal(uri('/ü', 'https://example.com/shop/'), 'https://example.com/%C3%BC');
    assert.equal(uri('item?id=1', 'https://example.com/shop/'), 'https://example.com/shop/item?id=1');
    assert.equal(rejected('/relative'), 'R8');
    const resolved = toSitemapUri('/x', new URL('https://example.com/'));
    assert.ok(resolved.ok && resolved.resolved);
  });

  test('text that is no URL is refused, not resolved as a relative path: a header line, markup, two values run together', () => {
    const base = 'https://example.com/';
    for (const text of ['Product URL', '<url><loc>https://example.com/a</loc></url>', 'page"x', '/a<b']) assert.equal(rejected(text, base), 'R8', text);
    assert.equal(uri('/about us', base), 'https://example.com/about%20us');
    for (const text of ['https://example.com/a\t2024-01-01', 'https://example.com/a\rhttps://example.com/b', '/a\tb']) assert.equal(rejected(text, base), 'R10', text);
    // A space in an absolute URL is a fault the writer mends (R10, encoded).
    assert.equal(uri('https://example.com/my page'), 'https://example.com/my%20page');
  });

  test('a user name and password are percent-encoded, never written raw; the host alone decides the scope', () => {
    assert.equal(uri('https://a<b@example.com/x'), 'https://a%3Cb@example.com/x');
    assert.equal(uri('https://üser:p w@example.com/y'), 'https://%C3%BCser:p%20w@example.com/y');
    assert.equal(uri('https://a\u0001b@example.com/z'), 'https://a%01b@example.com/z');
    assert.deepEqual(checkScope('https://user:pw@example.com/shop/a', scopeOf(new URL('https://example.com/shop/'))), { ok: true });
  });

  test('only absolute http(s) URLs with a host are accepted (R8)', () => {
    for (const bad of ['ftp://example.com/', 'mailto:a@example.com', 'javascript:alert(1)', 'https://', 'http:///path', '', '   ', 'https://exa mple.com/']) {
      assert.equal(rejected(bad), 'R8', bad);
    }
  });

  test('length is checked after encoding (R9): 2,047 characters pass, 2,048 do not', () => {
    const prefix = 'https://example.com/';
    assert.equal(uri(prefix + 'a'.repeat(2047 - prefix.length)).length, 2047);
    assert.equal(rejected(prefix + 'a'.repeat(2048 - prefix.length)), 'R9');
    // 683 × "é" is 683 characters raw but 4,098 once encoded.
    assert.equal(rejected(prefix + 'é'.repeat(683)), 'R9');
  });

  test('an unpaired surrogate cannot be encoded (R10)', () => {
    assert.equal(rejected('https://example.com/\uD800x'), 'R10');
  });

  test('the fast path writes exactly what the full conversion writes: the result is a fixed point', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/?#% é中😀<>"{}|\\^`[]'.split('')), maxLength: 40 }), (path) => {
        const first = toSitemapUri(`https://example.com/${path}`);
        if (!first.ok) return;
        const again = toSitemapUri(first.uri);
        assert.ok(again.ok);
        assert.equal(again.uri, first.uri);
        assert.equal(again.changed, false);
        assert.match(first.uri, /^[\x21-\x7E]+$/);
      }),
      { seed: 42, numRuns: 2000 },
    );
  });
});

describe('scope (R16/R17)', () => {
  const root = scopeOf(new URL('https://example.com/'));
  const folder = scopeOf(new URL('https://example.com/catalog/'));

  test('a root sitemap may list any path on its own origin', () => {
    assert.deepEqual(checkScope('https://example.com/any/path', root), { ok: true });
    assert.deepEqual(checkScope('https://example.com', root), { ok: true });
  });

  test('another scheme, host or port is R16', () => {
    for (const other of ['http://example.com/', 'https://www.example.com/', 'https://example.com:8443/', 'https://example.com.evil.test/']) {
      const result = checkScope(other, root);
      assert.ok(!result.ok && result.rule === 'R16', other);
    }
  });

  test('a path outside the sitemap folder is R17', () => {
    assert.deepEqual(checkScope('https://example.com/catalog/item', folder), { ok: true });
    const outside = checkScope('https://example.com/other', folder);
    assert.ok(!outside.ok && outside.rule === 'R17');
  });

  test('dot segments are resolved first, as readers resolve them: /catalog/../admin is outside /catalog/', () => {
    for (const escape of ['https://example.com/catalog/../admin', 'https://example.com/catalog/%2E%2e/admin', 'https://example.com/catalog/..']) {
      const result = checkScope(escape, folder);
      assert.ok(!result.ok && result.rule === 'R17', escape);
      assert.match(result.reason, /^is https:\/\/example\.com\/(?:admin)? once its dot segments are resolved, outside https:\/\/example\.com\/catalog\//);
    }
    // Named only where they made the difference.
    const elsewhere = checkScope('https://other.example/catalog/../x', folder);
    assert.ok(!elsewhere.ok && elsewhere.rule === 'R16' && !elsewhere.reason.includes('dot segments'), JSON.stringify(elsewhere));
    for (const inside of ['https://example.com/catalog/./item', 'https://example.com/catalog/a/../item', 'https://example.com/catalog/item?next=/../admin', 'https://example.com/catalog/..item']) {
      assert.deepEqual(checkScope(inside, folder), { ok: true }, inside);
    }
  });
});

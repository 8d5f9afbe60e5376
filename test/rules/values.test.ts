import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDecimal, isChangefreq, isHreflang, isNewsLanguage, normalizeDecimalInRange, normalizePriority, toXmlText } from '../../src/rules/values.ts';

test('changefreq is the exact lower-case enumeration (R13)', () => {
  for (const value of ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never']) assert.ok(isChangefreq(value));
  for (const value of ['Daily', 'biweekly', 'sometimes', '', ' daily']) assert.ok(!isChangefreq(value), value);
});

test('priority is a decimal from 0.0 to 1.0, written with a digit after the point (R14)', () => {
  const cases: [number | string, string | undefined][] = [
    [0, '0.0'], [1, '1.0'], [0.5, '0.5'], ['.5', '0.5'], ['0.80', '0.8'], ['+0.3', '0.3'], [0.25, '0.25'], ['1', '1.0'],
    [1.5, undefined], [-0.1, undefined], ['5e-1', undefined], ['NaN', undefined], ['50%', undefined], ['high', undefined], ['', undefined], [Number.NaN, undefined],
  ];
  for (const [input, expected] of cases) assert.equal(normalizePriority(input), expected, String(input));
});

test('decimals are written without an exponent, which xsd:decimal does not allow, with the shortest digits that read back the same', () => {
  assert.equal(normalizePriority('0.0000001'), '0.0000001');
  assert.equal(normalizePriority(1e-7), '0.0000001');
  assert.equal(normalizeDecimalInRange('0.00000015', 0, 5), '0.00000015');
  assert.equal(formatDecimal(1e21), '1000000000000000000000.0');
  assert.equal(formatDecimal(1.5e22), '15000000000000000000000.0');
  assert.equal(formatDecimal(2.5e-10), '0.00000000025');
  for (const n of [1e-7, 3.14159e-12, 1.2345e21, 0.1, 7]) assert.equal(Number(formatDecimal(n)), n);
});

test('hreflang is a BCP 47 tag or x-default (R38)', () => {
  for (const value of ['en', 'en-GB', 'zh-Hant', 'zh-Hant-TW', 'es-419', 'x-default']) assert.ok(isHreflang(value), value);
  for (const value of ['en_US', 'english', 'eng-USA', '', 'e']) assert.ok(!isHreflang(value), value);
});

test('news language is ISO 639 lower case, or zh-cn / zh-tw (R37)', () => {
  for (const value of ['en', 'fr', 'zh-cn', 'zh-tw', 'haw']) assert.ok(isNewsLanguage(value), value);
  for (const value of ['EN', 'en-US', 'zh-hk', 'english']) assert.ok(!isNewsLanguage(value), value);
});

test('characters XML 1.0 forbids are removed, pairs kept (R2)', () => {
  assert.deepEqual(toXmlText('a\u0000b\u0008c\uFFFEd'), { text: 'abcd', changed: true });
  assert.deepEqual(toXmlText('tab\tand\nnewline 😀'), { text: 'tab\tand\nnewline 😀', changed: false });
  assert.deepEqual(toXmlText('lone \uD800 and \uDC00'), { text: 'lone  and ', changed: true });
});

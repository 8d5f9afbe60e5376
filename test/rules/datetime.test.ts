import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isXsdDateOrDateTime, normalizeDatetime, parseW3cDatetime } from '../../src/rules/datetime.ts';

describe('W3C Datetime (R11)', () => {
  test('accepts every W3CDTF form', () => {
    const forms = {
      '2005': 'year',
      '2005-02': 'month',
      '2004-02-29': 'date',
      '2005-01-01T10:00Z': 'minutes',
      '2005-01-01T10:00:59+01:00': 'seconds',
      '2005-01-01T23:59:59.123-05:30': 'seconds',
    };
    for (const [text, form] of Object.entries(forms)) assert.equal(parseW3cDatetime(text)?.form, form, text);
  });

  test('refuses the invalid examples of the protocol rules and other near misses', () => {
    for (const text of ['2005-13-01', '2005-02-29', '2005-1-1', '20050101', '2005-01-01 10:00:00', '01/02/2005', 'Mon, 03 Jan 2005 10:00:00 GMT', '2005-01-01T10:00:00+0100', '', '2005-01-01T10:00:00', '2005-01-01T24:00:00Z', '2005-01-01T10:60Z', '2005-04-31', '2005-01-01T10:00:00.Z', '2005-01-01T10:00:00+15:00', '2005-01-01Z']) {
      assert.equal(parseW3cDatetime(text), undefined, text);
    }
  });

  test('the instant honours the offset', () => {
    assert.equal(parseW3cDatetime('2005-01-01T10:00:00+02:00')?.epoch, Date.parse('2005-01-01T08:00:00Z'));
    assert.equal(parseW3cDatetime('2005-01-01T10:00:00.5Z')?.epoch, Date.parse('2005-01-01T10:00:00.500Z'));
    assert.equal(parseW3cDatetime('0099-03-01')?.epoch, Date.parse('0099-03-01T00:00:00Z'));
  });
});

describe('normalizeDatetime (R11/R12): what the writer emits', () => {
  test('keeps dates and full datetimes as given, with their offset', () => {
    assert.deepEqual(normalizeDatetime('2024-05-31'), { ok: true, value: '2024-05-31', epoch: Date.parse('2024-05-31T00:00:00Z') });
    const full = normalizeDatetime(' 2024-05-31T12:00:00.25+02:00 ');
    assert.ok(full.ok && full.value === '2024-05-31T12:00:00.25+02:00');
  });

  test('adds :00 to minute precision, which the schema needs', () => {
    const result = normalizeDatetime('2024-05-31T12:30+02:00');
    assert.ok(result.ok && result.value === '2024-05-31T12:30:00+02:00');
    assert.ok(isXsdDateOrDateTime(result.value));
  });

  test('refuses a bare year or month (R12) rather than invent a day', () => {
    assert.deepEqual(normalizeDatetime('2024'), { ok: false, rule: 'R12', reason: '"2024" has no day; the sitemap schema needs at least YYYY-MM-DD' });
    const month = normalizeDatetime('2024-05');
    assert.ok(!month.ok && month.rule === 'R12');
  });

  test('refuses year 0000 (R12): W3C Datetime has it, xsd:dateTime does not', () => {
    for (const input of ['0000-01-01', '0000-06-01T10:00:00Z', new Date('0000-03-01T00:00:00Z')]) {
      const result = normalizeDatetime(input);
      assert.ok(!result.ok && result.rule === 'R12' && /no year zero/.test(result.reason), String(input));
    }
    assert.ok(normalizeDatetime('0001-01-01').ok);
  });

  test('a Date is written in UTC to the second', () => {
    assert.deepEqual(normalizeDatetime(new Date('2024-01-02T03:04:05.678Z')), { ok: true, value: '2024-01-02T03:04:05Z', epoch: Date.parse('2024-01-02T03:04:05Z') });
    const invalid = normalizeDatetime(new Date('nope'));
    assert.ok(!invalid.ok && invalid.rule === 'R11');
  });

  test('everything it emits is in both W3CDTF and the XSD types', () => {
    for (const input of ['2024-05-31', '2024-05-31T12:30Z', '2024-05-31T12:30:45-03:00', new Date(0)]) {
      const result = normalizeDatetime(input);
      assert.ok(result.ok);
      assert.ok(isXsdDateOrDateTime(result.value) && parseW3cDatetime(result.value) !== undefined, result.value);
    }
  });
});

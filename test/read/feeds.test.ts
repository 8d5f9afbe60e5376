import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateSitemap } from '../../src/index.ts';
import { byteByByte, parseEveryWay, randomSplits, readFixture } from '../helpers/parse.ts';

/** The fixture with a comment on its first line past the 8 KiB read whole to tell the format, so that cuts in the input reach the reader. */
const padded = (name: string): Uint8Array => new TextEncoder().encode(new TextDecoder().decode(readFixture(name)).replace('?>\n', `?><!--${'p'.repeat(8200)}-->\n`));
const show = (d: { rule: string; level: string; line?: number; column?: number; url?: string; message: string }): string => `${d.rule} ${d.level} ${d.line}:${d.column} ${d.url} ${d.message}`;

/** Parses `name` whole, byte by byte and at random cuts (all must agree); its entries and findings. */
async function parseFixture(name: string): Promise<{ entries: unknown[]; findings: string[] }> {
  const { whole, others } = await parseEveryWay(padded(name));
  for (const other of others) assert.deepEqual(other, whole);
  return { entries: whole.entries, findings: whole.diagnostics.map(show) };
}

/** Validates `name` whole, byte by byte and at random cuts (all must agree); valid or not, and its findings. */
async function validateFixture(name: string): Promise<{ valid: boolean; findings: string[] }> {
  return validateBytes(padded(name));
}

async function validateBytes(bytes: Uint8Array): Promise<{ valid: boolean; findings: string[] }> {
  const read = async (chunks: Iterable<Uint8Array>) => {
    const result = await validateSitemap(chunks);
    return { valid: result.valid, findings: result.diagnostics.map(show) };
  };
  const whole = await read([bytes]);
  assert.deepEqual(await read(byteByByte(bytes)), whole, 'byte by byte');
  for (let seed = 1; seed <= 5; seed++) assert.deepEqual(await read(randomSplits(bytes, seed)), whole, `random splits, seed ${seed}`);
  return whole;
}

const NOT_A_DATE = 'is not a W3C Datetime; ignored';

describe('Atom (R32): an <updated> or <modified> that is no W3C Datetime is reported and left out, as RSS does with a bad <pubDate>', () => {
  it('Atom 1.0: each bad <updated> at its element; <published> is not a modification time and is not read', async () => {
    const { entries, findings } = await parseFixture('atom-dates.xml');
    assert.deepEqual(entries, [
      { loc: 'https://www.example.com/1' },
      { loc: 'https://www.example.com/2', lastmod: '2024-06-01T10:00+02:00' },
      { loc: 'https://www.example.com/3' },
      { loc: 'https://www.example.com/4' },
      { loc: 'https://www.example.com/5', lastmod: '2024-06-01T10:00:00Z' },
    ]);
    assert.deepEqual(findings, [
      `R32 warn 5:3 https://www.example.com/1 <updated> "yesterday" ${NOT_A_DATE}`,
      `R32 warn 15:3 https://www.example.com/3 <updated> "2024-02-30" ${NOT_A_DATE}`,
      `R32 warn 18:3 undefined <updated> "" ${NOT_A_DATE}`,
    ]);
  });

  it('Atom 0.3: a bad <modified> likewise', async () => {
    const { entries, findings } = await parseFixture('atom03-dates.xml');
    assert.deepEqual(entries, [{ loc: 'https://www.example.com/1' }, { loc: 'https://www.example.com/2', lastmod: '2024-05-31T10:00Z' }]);
    assert.deepEqual(findings, [`R32 warn 6:3 https://www.example.com/1 <modified> "Fri, 31 May 2024 10:00:00 GMT" ${NOT_A_DATE}`]);
  });

  it('validate: warnings, not R11 errors, and a finding on the lastmod read is at the <updated> or <modified> it came from, not at a <published> before it', async () => {
    assert.deepEqual(await validateFixture('atom-dates.xml'), {
      valid: true,
      findings: [
        `R32 warn 5:3 https://www.example.com/1 <updated> "yesterday" ${NOT_A_DATE}`,
        'R12 warn 10:3 https://www.example.com/2 lastmod "2024-06-01T10:00+02:00" has no seconds: valid W3C Datetime, but the sitemap schema (xsd:dateTime) rejects it',
        `R32 warn 15:3 https://www.example.com/3 <updated> "2024-02-30" ${NOT_A_DATE}`,
        `R32 warn 18:3 undefined <updated> "" ${NOT_A_DATE}`,
      ],
    });
    assert.deepEqual(await validateFixture('atom03-dates.xml'), {
      valid: true,
      findings: [
        `R32 warn 6:3 https://www.example.com/1 <modified> "Fri, 31 May 2024 10:00:00 GMT" ${NOT_A_DATE}`,
        'R12 warn 10:3 https://www.example.com/2 lastmod "2024-05-31T10:00Z" has no seconds: valid W3C Datetime, but the sitemap schema (xsd:dateTime) rejects it',
      ],
    });
  });
});

const FROM_GUID = 'has no <link>: its permalink <guid> is read as its URL, but feed readers take the URL of an item from <link> (R31)';

describe('RSS (R31): an item without <link> has its permalink <guid> (RSS 2.0) read as its URL', () => {
  it('a <link> wins over a <guid>; a guid that is no permalink, or no http(s) URL, leaves the item without a URL', async () => {
    const { entries, findings } = await parseFixture('rss-guid.xml');
    assert.deepEqual(entries, [
      { loc: 'https://www.example.com/1' },
      { loc: 'https://www.example.com/2' },
      { loc: 'https://www.example.com/3', lastmod: '2024-05-31T10:00:00Z' },
      { loc: 'https://www.example.com/4' },
      { loc: 'https://www.example.com/7 x' },
    ]);
    assert.deepEqual(findings, [
      `R31 warn 15:3 https://www.example.com/3 <item> ${FROM_GUID}`,
      `R31 warn 20:3 https://www.example.com/4 <item> ${FROM_GUID}`,
      'R31 error 25:1 undefined <item> without <link>; skipped',
      'R31 error 29:1 undefined <item> without <link>; skipped',
      `R31 warn 32:3 https://www.example.com/7 x <item> ${FROM_GUID}`,
    ]);
  });

  it('validate: a finding on a URL read from a <guid> is at the <guid>', async () => {
    const { valid, findings } = await validateFixture('rss-guid.xml');
    assert.equal(valid, false);
    assert.deepEqual(
      findings.filter((finding) => !finding.startsWith('R31 ')),
      ['R10 error 32:3 https://www.example.com/7 x the URL holds characters a URI may not carry raw (space, <, >, ", {, }, |, \\, ^, `, controls) or a malformed % escape'],
    );
  });
});

describe('Atom (R32): the URL of an entry comes from its best link', () => {
  it('validate: a finding on that URL is at that link, not at a rel="edit" link before it', async () => {
    const text = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<feed xmlns="http://www.w3.org/2005/Atom"><title>Feed</title>',
      '<entry>',
      '  <link rel="edit" href="https://www.example.com/edit/1"/>',
      '  <link rel="alternate" href="https://www.example.com/one two"/>',
      '</entry>',
      '</feed>',
      '',
    ].join('\n');
    const { findings } = await validateBytes(new TextEncoder().encode(text));
    assert.deepEqual(findings, [
      'R10 error 5:3 https://www.example.com/one two the URL holds characters a URI may not carry raw (space, <, >, ", {, }, |, \\, ^, `, controls) or a malformed % escape',
    ]);
  });
});


import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic } from '../../src/model/diagnostic.ts';
import { formatFindings } from '../../src/cli/report.ts';

const at = (line: number, message: string): Diagnostic => ({ rule: 'R2', level: 'error', message, file: 'f.xml', line, column: 1 });
const bare = (excerpt: string): string => `not well-formed XML: "&" that starts no entity reference ("${excerpt}"); read literally, write &amp;`;

test('a group of several kinds: each kind with its message (what differs between its findings shown as …), how many, and its places, however far down the first of a kind comes', () => {
  // Six bare & (each its own excerpt), then a stray end tag and an undeclared prefix: both shown, though past the fifth finding.
  const findings = [1, 2, 3, 4, 5, 6].map((line) => at(line, bare(`a=${line}&b`)));
  findings.push(at(9, 'not well-formed XML: </lastmod> ends no open element (<url> is open); ignored'), at(10, 'not well-formed XML: </lo> ends no open element (<url> is open); ignored'));
  findings.push(at(12, 'not well-formed XML: unbound namespace prefix "image" (no xmlns:image declares it); read as in an unknown namespace'));
  assert.equal(
    formatFindings({ counts: { 'R2:error': 11 }, diagnostics: findings }),
    [
      '',
      '11 findings (11 errors), by rule:',
      `  R2    error ×11      ${bare('a=1&b').replace('("a=1&b")', '(…)')}  (×6)`,
      '                       at f.xml:1:1, f.xml:2:1, f.xml:3:1, f.xml:4:1, f.xml:5:1, …',
      '                       not well-formed XML: </…> ends no open element (<url> is open); ignored  (×2)',
      '                       at f.xml:9:1, f.xml:10:1',
      '                       not well-formed XML: unbound namespace prefix "image" (no xmlns:image declares it); read as in an unknown namespace',
      '                       at f.xml:12:1',
      // Counted but not kept (past maxDiagnostics).
      '                       … and 2 more not listed',
      '',
    ].join('\n'),
  );
});

test('a group of one kind: its message once, what differs shown as …, its places on one line; the same message is shown whole', () => {
  assert.equal(
    formatFindings({ counts: { 'R2:error': 2 }, diagnostics: [at(1, bare('x&y')), at(2, bare('z&w'))] }),
    `\n2 findings (2 errors), by rule:\n  R2    error ×2       ${bare('x&y').replace('("x&y")', '(…)')}\n                       at f.xml:1:1, f.xml:2:1\n`,
  );
  assert.match(formatFindings({ counts: { 'R2:error': 2 }, diagnostics: [at(1, bare('x&y')), at(2, bare('x&y'))] }), /\("x&y"\)/);
});

test('a finding about the whole file is placed at the file, without a line', () => {
  const empty: Diagnostic = { rule: 'R5', level: 'error', message: 'the file holds only whitespace', file: 'stdin' };
  assert.equal(formatFindings({ counts: { 'R5:error': 1 }, diagnostics: [empty] }), '\n1 finding (1 error), by rule:\n  R5    error ×1       the file holds only whitespace\n                       at stdin\n');
});

test('kinds: characters, single-quoted values (xmllint), URLs and saxes tag names vary within a kind; a notice that reading stopped is always shown', () => {
  const control = (line: number, char: string): Diagnostic => at(line, `not well-formed XML: character U+${char} is not allowed in XML; read as U+FFFD`);
  const xsd = (line: number, value: string): Diagnostic => ({ ...at(line, `Schemas validity error : Element '{urn:s}changefreq': [facet 'enumeration'] The value '${value}' is not an element of the set {'daily', 'weekly'}.`), rule: 'XSD' });
  const findings = [control(1, '000B'), control(2, '001B'), control(3, '000C'), xsd(4, 'often'), xsd(5, 'Daily')];
  // The same words about another element are another kind.
  findings.push({ ...at(13, "Schemas validity error : Element '{urn:v}duration': 'long' is not a valid value of the local atomic type."), rule: 'XSD' });
  findings.push({ ...at(14, "Schemas validity error : Element '{urn:v}rating': 'bad' is not a valid value of the local atomic type."), rule: 'XSD' });
  findings.push(at(6, 'not well-formed XML: unmatched closing tag: lastmod.'), at(7, 'not well-formed XML: unmatched closing tag: priority.'));
  findings.push(at(8, 'not well-formed XML: unexpected close tag.'), at(9, bare('a&b')), at(10, 'not well-formed XML: </lo> ends no open element (<url> is open); ignored'));
  findings.push(at(11, 'not well-formed XML: unbound namespace prefix "x" (no xmlns:x declares it); read as in an unknown namespace'), at(12, 'stopped reading after 100 well-formedness errors'));
  const text = formatFindings({ counts: { 'R2:error': 10, 'XSD:error': 4 }, diagnostics: findings });
  assert.match(text, /character … is not allowed in XML; read as U\+FFFD {2}\(×3\)\n +at f\.xml:1:1, f\.xml:2:1, f\.xml:3:1\n/);
  assert.match(text, /unmatched closing tag: …\. {2}\(×2\)\n +at f\.xml:6:1, f\.xml:7:1\n/);
  assert.match(text, /XSD +error ×4 +Schemas validity error .*The value '…' is not an element of the set \{'daily', 'weekly'\}\. {2}\(×2\)\n +at f\.xml:4:1, f\.xml:5:1\n/);
  assert.match(text, /\}duration'.*\n +at f\.xml:13:1\n +Schemas validity error : Element '\{urn:v\}rating'.*\n +at f\.xml:14:1\n/);
  // Seven kinds of R2: the first four, then the last one (the stop), then how many are not shown.
  assert.match(text, /\n +stopped reading after 100 well-formedness errors\n +at f\.xml:12:1\n +… and 2 more of 2 other kinds\n/);
  assert.doesNotMatch(text, /unbound namespace prefix/);
});

test('issue #30: per-kind counts and what is not listed add up to the rule\'s count (566 counted, 520 listed in two kinds)', () => {
  const findings = Array.from({ length: 500 }, (_, i) => at(i + 1, bare(`a=${i}&b`)));
  for (let i = 0; i < 20; i++) findings.push(at(600 + i, 'not well-formed XML: </lo> ends no open element (<url> is open); ignored'));
  const text = formatFindings({ counts: { 'R2:error': 566 }, diagnostics: findings });
  assert.match(text, /R2 +error ×566 +not well-formed XML: "&" that starts no entity reference \(…\); read literally, write &amp; {2}\(×500\)\n/);
  assert.match(text, /ends no open element \(<url> is open\); ignored {2}\(×20\)\n.*\n +… and 46 more not listed\n$/);
  // One kind: its count is shown too, when some are not listed.
  const one = formatFindings({ counts: { 'R2:error': 566 }, diagnostics: findings.slice(0, 500) });
  assert.match(one, /write &amp; {2}\(×500\)\n.*\n +… and 66 more not listed\n$/);
});

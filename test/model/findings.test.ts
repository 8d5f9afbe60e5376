import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic } from '../../src/model/diagnostic.ts';
import { FindingTally, splitFindingKey, type FindingCounts } from '../../src/model/findings.ts';

const finding = (rule: Diagnostic['rule'], level: Diagnostic['level']): Diagnostic => ({ rule, level, message: '' });

test('counts by rule and level, keys in the order first found, in the JSON users see', () => {
  const tally = new FindingTally();
  for (const d of [finding('R11', 'error'), finding('R25', 'warn'), finding('R11', 'error'), finding('R11', 'warn'), finding('INPUT', 'error')]) tally.add(d);
  assert.equal(JSON.stringify({ counts: tally.counts }), '{"counts":{"R11:error":2,"R25:warn":1,"R11:warn":1,"INPUT:error":1}}');
  assert.equal(tally.total, 5);
  assert.equal(tally.errors, 3);
});

test('an empty tally counts nothing', () => {
  const tally = new FindingTally();
  assert.deepEqual([tally.counts, tally.total, tally.errors, tally.keys()], [{}, 0, 0, []]);
});

test('fills the counts object it is given, in place, and counts what was in it', () => {
  const counts: FindingCounts = { 'R2:error': 4 };
  const tally = new FindingTally(counts);
  tally.add(finding('XSD', 'error'));
  tally.add(finding('XSD', 'error'));
  assert.equal(tally.counts, counts);
  assert.deepEqual(counts, { 'R2:error': 4, 'XSD:error': 2 });
  assert.deepEqual([tally.total, tally.errors], [6, 6]);
});

test('keys: errors, then warnings, then infos; by rule id within a level, its number read as a number', () => {
  const tally = new FindingTally();
  for (const d of [finding('R18', 'info'), finding('R25', 'warn'), finding('R10', 'error'), finding('XSD', 'error'), finding('R2', 'error'), finding('FETCH', 'warn'), finding('R9', 'warn')]) tally.add(d);
  assert.deepEqual(tally.keys(), ['R2:error', 'R10:error', 'XSD:error', 'FETCH:warn', 'R9:warn', 'R25:warn', 'R18:info']);
});

test('splitFindingKey gives back the rule and the level', () => {
  assert.deepEqual(splitFindingKey('R38:warn'), ['R38', 'warn']);
  assert.deepEqual(splitFindingKey('INPUT:error'), ['INPUT', 'error']);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic } from '../../src/model/diagnostic.ts';
import { formatFindings } from '../../src/cli/report.ts';

const at = (line: number, message: string): Diagnostic => ({ rule: 'R2', level: 'error', message, file: 'f.xml', line, column: 1 });

test('a group of several kinds: each place shown with its message, then how many more; one kind: the places on one line', () => {
  const mixed = [at(1, 'bare &'), at(22, 'stray </lo>'), at(3, 'bare &'), at(4, 'U+0001'), at(5, 'bare &'), at(6, 'bare &'), at(7, 'bare &')];
  assert.equal(
    formatFindings({ counts: { 'R2:error': 8 }, diagnostics: mixed }),
    [
      '',
      '8 findings (8 errors), by rule:',
      '  R2    error ×8       f.xml:1:1   bare &',
      '                       f.xml:22:1  stray </lo>',
      '                       f.xml:3:1   bare &',
      '                       f.xml:4:1   U+0001',
      '                       f.xml:5:1   bare &',
      '                       … and 3 more',
      '',
    ].join('\n'),
  );
  const same = [at(1, 'bare &'), at(2, 'bare &')];
  assert.equal(formatFindings({ counts: { 'R2:error': 2 }, diagnostics: same }), '\n2 findings (2 errors), by rule:\n  R2    error ×2       bare &\n                       at f.xml:1:1, f.xml:2:1\n');
});

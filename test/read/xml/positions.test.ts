import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineCounter, positionIn } from '../../../src/read/xml/positions.ts';

/** Positions of each offset in `text`, counted by a LineCounter over `text` cut into `pieces` buffers at the given offsets. */
function countedInPieces(text: string, cuts: readonly number[], offsets: readonly number[]): string[] {
  const lines = new LineCounter();
  const bounds = [0, ...cuts, text.length];
  const out: string[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const start = bounds[k] as number;
    const end = bounds[k + 1] as number;
    const buffer = text.slice(start, end);
    lines.newBuffer();
    for (const offset of offsets) {
      if (offset < start || offset >= end) continue;
      const { line, column } = lines.positionAt(buffer, start, offset);
      out.push(`${offset}=${line}:${column}`);
    }
    lines.countTo(buffer, start, end);
  }
  return out;
}

describe('LineCounter', () => {
  const text = 'a\nb\r\nc\rd\r\ne';
  const offsets = [0, 2, 5, 7, 10];
  const expected = ['0=1:1', '2=2:1', '5=3:1', '7=4:1', '10=5:1'];

  it('ends a line at LF, CRLF and a lone CR, as saxes does', () => {
    assert.deepEqual(countedInPieces(text, [], offsets), expected);
  });

  it('counts a CRLF cut between two buffers once', () => {
    // Cut after each CR: the LF opens the next buffer.
    assert.deepEqual(countedInPieces(text, [4, 9], offsets), expected);
    for (let cut = 1; cut < text.length; cut++) assert.deepEqual(countedInPieces(text, [cut], offsets), expected, `cut at ${cut}`);
  });

  it('counts ahead to the end of what was written without moving the count on', () => {
    const lines = new LineCounter();
    const buffer = 'ab\ncd\r';
    assert.deepEqual(lines.positionAt(buffer, 0, 1), { line: 1, column: 2 });
    // The buffer, then two chunks kept aside after it (a CRLF across the seam): 12 characters written.
    assert.deepEqual(lines.ahead(buffer, 0, ['\nef', 'g\rh'], 12), { line: 4, column: 2 });
    assert.deepEqual(lines.positionAt(buffer, 0, 4), { line: 2, column: 2 });
    assert.deepEqual(lines.ahead(buffer, 0, ['\nef', 'g\rh', 'i'], 13), { line: 4, column: 3 });
  });
});

describe('positionIn', () => {
  it('goes on from the start given, on its line or from a line end in the text', () => {
    assert.deepEqual(positionIn('ab', 2, { line: 3, column: 5 }), { line: 3, column: 7 });
    assert.deepEqual(positionIn('a\r\nbc', 4, { line: 3, column: 5 }), { line: 4, column: 2 });
    assert.deepEqual(positionIn('a\rbc', 3, { line: 3, column: 5 }), { line: 4, column: 2 });
  });
});

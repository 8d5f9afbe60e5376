import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasControlBytes } from '../../src/read/decode.ts';

const FORBIDDEN = [...Array(0x20).keys()].filter((b) => b !== 0x09 && b !== 0x0a && b !== 0x0d);

test('hasControlBytes finds every forbidden C0 byte at any offset and alignment, and nothing else', () => {
  const backing = new Uint8Array(64 + 3).fill(0x61);
  for (let offset = 0; offset < 4; offset++) {
    for (const length of [0, 1, 3, 4, 5, 17, 19, 20, 33, 35, 64]) {
      const view = backing.subarray(offset, offset + length);
      assert.equal(hasControlBytes(view), false, `clean, offset ${offset}, length ${length}`);
      for (let at = 0; at < length; at++) {
        for (const byte of [...FORBIDDEN, 0x09, 0x0a, 0x0d, 0x20, 0x7f, 0x80, 0xe0, 0xff]) {
          view[at] = byte;
          assert.equal(hasControlBytes(view), FORBIDDEN.includes(byte), `byte ${byte} at ${at}, offset ${offset}, length ${length}`);
          // A line end in the same block sends it to the byte-by-byte look, which must still find (or not) the byte.
          const neighbour = at ^ 1;
          if (neighbour < length) {
            view[neighbour] = 0x0a;
            assert.equal(hasControlBytes(view), FORBIDDEN.includes(byte), `byte ${byte} at ${at} beside a LF, offset ${offset}, length ${length}`);
            view[neighbour] = 0x61;
          }
          view[at] = 0x61;
        }
      }
    }
  }
});

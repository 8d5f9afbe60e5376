import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { test } from 'node:test';
import { hasControlBytes, Utf8StreamDecoder } from '../../src/read/decode.ts';
import { random } from '../helpers/parse.ts';

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

test('hasControlBytes judges every pair of neighbouring bytes in a word exactly (no carry from one byte to the next)', () => {
  const bytes = new Uint8Array(32).fill(0x61);
  for (const at of [4, 5, 6]) {
    for (let low = 0; low < 256; low++) {
      for (let high = 0; high < 256; high++) {
        bytes[at] = low;
        bytes[at + 1] = high;
        const expected = FORBIDDEN.includes(low) || FORBIDDEN.includes(high);
        if (hasControlBytes(bytes) !== expected) assert.fail(`bytes ${low} and ${high} at ${at}: expected ${expected}`);
      }
    }
    bytes[at] = bytes[at + 1] = 0x61;
  }
});

/** Bytes that are mostly UTF-8, with every kind of damage: stray continuations, cut and overlong sequences, surrogates, bytes past U+10FFFF, BOMs. */
function utf8ish(next: () => number, length: number): Uint8Array {
  const pieces = [
    [0x61], [0x3c], [0x61, 0x62, 0x63, 0x0a], [0x3c, 0x2f, 0x61, 0x3e], [0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xef, 0xbb, 0xbf], [0xef, 0xbf, 0xbd],
    [0x80], [0xbf], [0xc0, 0x80], [0xc1], [0xc2], [0xe0, 0x80], [0xe0, 0xa0], [0xed, 0xa0, 0x80], [0xed, 0x9f], [0xf0, 0x80], [0xf0, 0x90],
    [0xf4, 0x90, 0x80, 0x80], [0xf4, 0x8f], [0xf5], [0xff], [0xe2], [0xf0, 0x9f, 0x98],
  ];
  const out: number[] = [];
  while (out.length < length) out.push(...(pieces[Math.floor(next() * pieces.length)] as number[]));
  return new Uint8Array(out);
}

/**
 * The WHATWG decoder, streaming: Node's own, told to keep every byte-order mark, and the first
 * one dropped here. (Node 24's drops a U+FEFF after the first character when its first call gave
 * no text: [E2] then [82 AC EF BB BF] gives "€", not "€\uFEFF".)
 */
function referenceDecoder(): (piece?: Uint8Array, options?: { stream: boolean }) => string {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let started = false;
  return (piece, options) => {
    let text = decoder.decode(piece, options);
    if (!started && text !== '') {
      started = true;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    return text;
  };
}

test('Utf8StreamDecoder gives what a streaming WHATWG decoder gives, call for call, at any cut of any bytes', () => {
  for (let seed = 1; seed <= 3000; seed++) {
    const next = random(seed);
    const bytes = utf8ish(next, 1 + Math.floor(next() * 40));
    const cuts = [0, ...Array.from({ length: Math.floor(next() * 6) }, () => Math.floor(next() * (bytes.length + 1))), bytes.length].sort((a, b) => a - b);
    const reference = referenceDecoder();
    const fast = new Utf8StreamDecoder(isAscii);
    for (let i = 1; i < cuts.length; i++) {
      const piece = bytes.slice(cuts[i - 1], cuts[i]);
      const want = reference(piece, { stream: true });
      const got = fast.decode(piece, { stream: true });
      // A caller may fill its buffer again once a call has returned.
      piece.fill(0x41);
      assert.equal(got, want, `seed ${seed}, piece ${i} of [${[...bytes].map((b) => b.toString(16)).join(' ')}] cut at ${cuts.join(',')}`);
    }
    assert.equal(fast.decode(), reference(), `seed ${seed}, the end`);
    // Whole, the text is the one-shot decoder's.
    assert.equal(new Utf8StreamDecoder(isAscii).decode(bytes), new TextDecoder('utf-8').decode(bytes), `seed ${seed}, whole`);
    // A stream that has ended begins again: its byte-order mark is dropped once more.
    assert.equal(fast.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]), { stream: true }), 'a');
  }
});

test('Utf8StreamDecoder drops only a leading byte-order mark, however the first bytes come', () => {
  const bom = [0xef, 0xbb, 0xbf];
  for (const pieces of [[bom, [0x61]], [[0xef], [0xbb], [0xbf, 0x61]], [[], [0xef, 0xbb], [], [0xbf]], [[0x61], bom], [bom, bom]]) {
    const reference = referenceDecoder();
    const fast = new Utf8StreamDecoder(isAscii);
    const got = pieces.map((piece) => fast.decode(new Uint8Array(piece), { stream: true })).join('') + fast.decode();
    const want = pieces.map((piece) => reference(new Uint8Array(piece), { stream: true })).join('') + reference();
    assert.equal(got, want, JSON.stringify(pieces));
    assert.equal(got, new TextDecoder('utf-8').decode(new Uint8Array(pieces.flat())), JSON.stringify(pieces));
  }
  // A U+FEFF after the first character is text, even when that character came in two calls.
  const fast = new Utf8StreamDecoder(isAscii);
  assert.equal(fast.decode(new Uint8Array([0xe2]), { stream: true }) + fast.decode(new Uint8Array([0x82, 0xac, 0xef, 0xbb, 0xbf, 0x62])), '€\uFEFFb');
});

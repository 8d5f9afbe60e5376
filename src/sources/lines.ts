/**
 * Bytes → numbered lines, streaming. UTF-8 is decoded per run of whole lines (a character split
 * across chunks is never cut), a BOM is dropped, CRLF and LF both end a line, and a line that is
 * not valid UTF-8 or is longer than the cap is reported instead of read.
 */
import type { Diagnostic } from '../model/diagnostic.ts';

/** A line longer than this is not a sitemap record; reading it whole could exhaust memory. */
export const MAX_LINE_BYTES = 1 << 20;

export type Line = { line: number; text: string } | { line: number; diagnostic: Diagnostic };

const NEWLINE = 0x0a;

export async function* readLines(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Line> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let carry: Uint8Array[] = [];
  let carryBytes = 0;
  let skipping = false; // inside an over-long line, dropping bytes up to its end
  let lineNo = 0;
  let first = true;

  function* decodeLines(bytes: Uint8Array): Generator<Line> {
    if (first) {
      first = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    let text: string | undefined;
    try {
      text = decoder.decode(bytes);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const lines = text.split('\n');
      lines.pop(); // the bytes end with a newline
      for (const l of lines) yield toLine(++lineNo, l);
      return;
    }
    // Somewhere in this run is a bad byte: find the line.
    let start = 0;
    for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, start)) {
      const lineBytes = bytes.subarray(start, i);
      start = i + 1;
      lineNo++;
      try {
        yield toLine(lineNo, decoder.decode(lineBytes));
      } catch {
        yield { line: lineNo, diagnostic: { rule: 'INPUT', level: 'error', message: 'line skipped: it is not valid UTF-8', line: lineNo } };
      }
    }
  }

  for await (const chunk of source) {
    let offset = 0;
    while (offset < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, offset);
      const end = newline === -1 ? chunk.length : newline + 1;
      if (skipping) {
        if (newline !== -1) skipping = false;
        offset = end;
        continue;
      }
      if (newline === -1) {
        const rest = chunk.subarray(offset);
        carry.push(rest);
        carryBytes += rest.length;
        if (carryBytes > MAX_LINE_BYTES) {
          lineNo++;
          yield tooLong(lineNo);
          carry = [];
          carryBytes = 0;
          skipping = true;
        }
        break;
      }
      // Decode from the carry through the last newline in this chunk in one go.
      const lastNewline = chunk.lastIndexOf(NEWLINE);
      const whole = chunk.subarray(offset, lastNewline + 1);
      const firstLineBytes = carryBytes + (newline - offset);
      if (firstLineBytes > MAX_LINE_BYTES) {
        lineNo++;
        yield tooLong(lineNo);
        carry = [];
        carryBytes = 0;
        offset = end;
        continue;
      }
      const bytes = carry.length === 0 ? whole : concat([...carry, whole], carryBytes + whole.length);
      carry = [];
      carryBytes = 0;
      yield* decodeLines(bytes);
      offset = lastNewline + 1;
    }
  }
  if (!skipping && carryBytes > 0) yield* decodeLines(concat([...carry, Uint8Array.of(NEWLINE)], carryBytes + 1));
}

function toLine(line: number, text: string): Line {
  // Only a long string can be over the cap; measure bytes just for those.
  if (text.length > MAX_LINE_BYTES / 3 && new TextEncoder().encode(text).length > MAX_LINE_BYTES) return tooLong(line);
  return { line, text: text.endsWith('\r') ? text.slice(0, -1) : text };
}

function tooLong(line: number): Line {
  return { line, diagnostic: { rule: 'INPUT', level: 'error', message: `line skipped: longer than ${MAX_LINE_BYTES} bytes`, line } };
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Bytes → numbered lines, streaming. UTF-8 is decoded per run of whole lines (a character split
 * across chunks is never cut), a BOM is dropped, LF, CRLF and a lone CR (old Mac files) each end a
 * line, and a line that is not valid UTF-8 or is longer than the cap is reported instead of read.
 */
import type { Diagnostic } from '../model/diagnostic.ts';

/** A line longer than this is not a sitemap record; reading it whole could exhaust memory. */
export const MAX_LINE_BYTES = 1 << 20;

export type Line = { line: number; text: string } | { line: number; diagnostic: Diagnostic };

const LF = 0x0a;
const CR = 0x0d;
const LINE_BREAK = /\r\n|\r|\n/;

/** Where the first line end at or after `from` is (its CR, or its LF), or -1. */
function nextBreak(bytes: Uint8Array, from: number): number {
  const lf = bytes.indexOf(LF, from);
  const cr = bytes.indexOf(CR, from);
  return cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
}

function lastBreak(bytes: Uint8Array): number {
  return Math.max(bytes.lastIndexOf(LF), bytes.lastIndexOf(CR));
}

export async function* readLines(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Line> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let carry: Uint8Array[] = [];
  let carryBytes = 0;
  let skipping = false; // inside an over-long line, dropping bytes up to its end
  let afterCr = false; // the last chunk ended with a CR: an LF starting this one belongs to it
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
      const lines = text.includes('\r') ? text.split(LINE_BREAK) : text.split('\n');
      lines.pop(); // the bytes end with a line end
      for (const l of lines) yield toLine(++lineNo, l);
      return;
    }
    // Somewhere in this run is a bad byte: find the line.
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (byte !== LF && byte !== CR) continue;
      const lineBytes = bytes.subarray(start, i);
      if (byte === CR && bytes[i + 1] === LF) i++;
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
    let offset = afterCr && chunk[0] === LF ? 1 : 0;
    if (chunk.length > 0) afterCr = false;
    while (offset < chunk.length) {
      const lineEnd = nextBreak(chunk, offset);
      if (skipping) {
        if (lineEnd !== -1) skipping = false;
        offset = lineEnd === -1 ? chunk.length : past(chunk, lineEnd);
        continue;
      }
      if (lineEnd === -1) {
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
      const firstLineBytes = carryBytes + (lineEnd - offset);
      if (firstLineBytes > MAX_LINE_BYTES) {
        lineNo++;
        yield tooLong(lineNo);
        carry = [];
        carryBytes = 0;
        offset = past(chunk, lineEnd);
        continue;
      }
      // Decode from the carry through the last line end in this chunk in one go.
      const end = past(chunk, lastBreak(chunk));
      const whole = chunk.subarray(offset, end);
      const bytes = carry.length === 0 ? whole : concat([...carry, whole], carryBytes + whole.length);
      carry = [];
      carryBytes = 0;
      yield* decodeLines(bytes);
      offset = end;
    }
  }
  if (!skipping && carryBytes > 0) yield* decodeLines(concat([...carry, Uint8Array.of(LF)], carryBytes + 1));

  /** Where the line ending at `lineEnd` stops: past its CRLF, or past a CR that ends the chunk (noting that an LF may follow). */
  function past(chunk: Uint8Array, lineEnd: number): number {
    if (chunk[lineEnd] !== CR) return lineEnd + 1;
    if (lineEnd + 1 === chunk.length) afterCr = true;
    return chunk[lineEnd + 1] === LF ? lineEnd + 2 : lineEnd + 1;
  }
}

function toLine(line: number, text: string): Line {
  // Only a long string can be over the cap; measure bytes just for those.
  if (text.length > MAX_LINE_BYTES / 3 && new TextEncoder().encode(text).length > MAX_LINE_BYTES) return tooLong(line);
  return { line, text };
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

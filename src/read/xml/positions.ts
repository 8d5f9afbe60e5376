/** Line and column of a place in the document: counted as the tokenizer's buffer passes, or within a text from a known start. */
import { Char, indexOrLength } from './chars.ts';

export interface XmlPosition {
  line: number;
  column: number;
}

/** Line and column of `offset` in `source`, which starts at `start`: CR LF, CR and LF each end a line. */
export function positionIn(source: string, offset: number, start: XmlPosition): XmlPosition {
  let line = start.line;
  let lineStart = -1;
  for (let i = 0; i < offset; i++) {
    const c = source.charCodeAt(i);
    if (c === Char.LineFeed || (c === Char.Return && source.charCodeAt(i + 1) !== Char.LineFeed)) {
      line++;
      lineStart = i + 1;
    }
  }
  return lineStart === -1 ? { line, column: start.column + offset } : { line, column: offset - lineStart + 1 };
}

/**
 * The line count of a document read through a moving buffer (`buffer`, starting at `bufferOffset` in
 * the document). Incremental and lazy, since positions are needed only for findings and records:
 * every part of the document is counted once, as it passes. A line ends at LF, CRLF or a lone CR
 * (§2.11), as saxes counts them.
 */
export class LineCounter {
  #countedTo = 0;
  #line = 1;
  #lineStart = 0;
  /** Where the next CR is from where counting has got to (the buffer's length when there is none). */
  #nextReturn = -1;
  /** The last character counted was a CR at the end of the buffer, whose LF (if any) had not arrived. */
  #returnLast = false;
  /** `ahead`'s count: how far it got, and the line, its start and whether a CR ended the text there. */
  #aheadTo = 0;
  #aheadLine = 1;
  #aheadLineStart = 0;
  #aheadAfterReturn = false;

  /** The buffer was replaced: the next CR found in the old one no longer holds. */
  newBuffer(): void {
    this.#nextReturn = -1;
  }

  /** Line and column (1-based) of `offset`, counting up to it. */
  positionAt(buffer: string, bufferOffset: number, offset: number): XmlPosition {
    this.countTo(buffer, bufferOffset, offset);
    return { line: this.#line, column: offset - this.#lineStart + 1 };
  }

  /** Counts the line ends of `buffer` up to document offset `offset`. */
  countTo(buffer: string, bufferOffset: number, offset: number): void {
    const from = this.#countedTo - bufferOffset;
    const to = offset - bufferOffset;
    if (to <= from) return;
    let lastEnd = -1;
    for (let i = buffer.indexOf('\n', from); i !== -1 && i < to; i = buffer.indexOf('\n', i + 1)) {
      // The LF of a CRLF cut by a chunk end: its CR, the last character counted, ended the line.
      if (!(i === from && this.#returnLast)) this.#line++;
      lastEnd = i;
    }
    // Counting goes forward through the buffer: the next CR is searched for once, not once per call.
    if (this.#nextReturn < from) this.#nextReturn = indexOrLength(buffer, '\r', from);
    for (; this.#nextReturn < to; this.#nextReturn = indexOrLength(buffer, '\r', this.#nextReturn + 1)) {
      const i = this.#nextReturn;
      if (buffer.charCodeAt(i + 1) !== Char.LineFeed) this.#line++;
      if (i > lastEnd) lastEnd = i;
    }
    if (lastEnd !== -1) this.#lineStart = bufferOffset + lastEnd + 1;
    this.#returnLast = to === buffer.length && buffer.charCodeAt(to - 1) === Char.Return;
    this.#countedTo = offset;
  }

  /**
   * Line and column at the end of all that was written (`written` characters: the buffer, then the
   * chunks kept aside after it), counted without moving the line count on: a token still open there
   * may yet need positions before it. The count ahead goes on from where it last got to, so reports
   * in a long open token do not each count it again.
   */
  ahead(buffer: string, bufferOffset: number, kept: readonly string[], written: number): XmlPosition {
    if (this.#aheadTo < this.#countedTo) {
      this.#aheadTo = this.#countedTo;
      this.#aheadLine = this.#line;
      this.#aheadLineStart = this.#lineStart;
      // A CR just before is part of the count only when countTo counted it (then its LF is not).
      this.#aheadAfterReturn = this.#returnLast;
    }
    this.#countAhead(buffer, bufferOffset);
    let start = bufferOffset + buffer.length;
    for (const chunk of kept) {
      this.#countAhead(chunk, start);
      start += chunk.length;
    }
    return { line: this.#aheadLine, column: written - this.#aheadLineStart + 1 };
  }

  /** Counts the line ends of `text`, which starts at offset `start`, past #aheadTo: a CR ends a line, and so does an LF not just after one. */
  #countAhead(text: string, start: number): void {
    const from = this.#aheadTo - start;
    if (from >= text.length) return;
    for (let i = text.indexOf('\n', Math.max(from, 0)); i !== -1; i = text.indexOf('\n', i + 1)) {
      if (i === from ? !this.#aheadAfterReturn : text.charCodeAt(i - 1) !== Char.Return) this.#aheadLine++;
      this.#aheadLineStart = Math.max(this.#aheadLineStart, start + i + 1);
    }
    for (let i = text.indexOf('\r', Math.max(from, 0)); i !== -1; i = text.indexOf('\r', i + 1)) {
      this.#aheadLine++;
      this.#aheadLineStart = Math.max(this.#aheadLineStart, start + i + 1);
    }
    this.#aheadAfterReturn = text.charCodeAt(text.length - 1) === Char.Return;
    this.#aheadTo = start + text.length;
  }
}

/** What the tokenizer tells its consumer (the events of a conforming parser, and whole leaves and entries), and the bounds it reads within. */
import type { XmlAttribute, XmlName } from './names.ts';
import type { XmlPosition } from './positions.ts';
import type { EntryContent } from './templates.ts';

/** What the tokenizer tells its consumer. Text arrives only while `capturing` is true. */
export interface XmlEvents {
  readonly capturing: boolean;
  open(ns: string, local: string, attributes: readonly XmlAttribute[]): void;
  text(text: string): void;
  close(): void;
  /**
   * A whole element `<name>text</name>` with no attributes and nothing but text inside, `text`
   * decoded (possibly ''). Returns true when it took the element exactly as `open`, `text` (if
   * capturing) and `close` would have; false, having changed nothing, to get those events instead.
   */
  leaf(ns: string, local: string, text: string): boolean;
  /** True while a child of the root may be offered whole through `entry`. */
  readonly wantsEntries: boolean;
  /**
   * A whole child of the root, `<name>…</name>`, that holds only attribute-less leaves
   * `<field>text</field>`, groups of leaves (two deep; in a group a leaf may have attributes) and
   * empty elements with attributes (`<link a="…"/>`), with whitespace between: `content` lists
   * them in document order, their texts decoded in `texts` (at `content.textAt`). Returns true when it took the element exactly as the
   * `open`, `text` and `close` events would have; false, having changed nothing, to get those
   * instead.
   */
  entry(name: XmlName, content: EntryContent, texts: readonly (string | undefined)[]): boolean;
  /** A well-formedness error (R2); the reader recovers what it can after it. */
  malformed(message: string, position: XmlPosition): void;
  /**
   * True while well-formedness errors are listed: past a cap they are only counted (`unlisted`), and
   * reading goes on. Checked before a finding's message and place are worked out, so that a file
   * of millions of faults costs a count each.
   */
  readonly listing: boolean;
  /** `count` more well-formedness errors, past those listed: counted, not listed. */
  unlisted(count: number): void;
  /**
   * A text, comment or CDATA section of `chars` characters starting at `position`, longer than
   * MAX_TOKEN_CHARS: only that much of it was read (a text handed on is cut there), the rest skipped.
   */
  oversized(what: OversizedWhat, chars: number, position: XmlPosition): void;
  /** A DOCTYPE: never processed, so its entities are never expanded. */
  doctype(position: XmlPosition): void;
  /** True once the consumer wants nothing more (a file that is no sitemap): reading ends in the middle of a chunk. */
  readonly stopped: boolean;
  /**
   * How many entries, from the root's first child in, have ended early because the next one
   * opened inside them (every `</url>` missing nests each entry one deeper).
   */
  readonly endedEntries: number;
  /** Forgets the `count` outermost ended entries: the reader makes room at the depth cap, and their end tags, if they come, get no event. */
  forgetEndedEntries(count: number): void;
}

export type OversizedWhat = 'text' | 'comment' | 'CDATA section';

/** Well-formedness errors listed at most: the rest are counted, and reading goes on (every entry after them is still read). */
export const MAX_MALFORMED_REPORTS = 100;

/** Bounds that keep hostile input from exhausting memory (checked on the fast path and after fallback). */
export const MAX_DEPTH = 64;
/** Past this depth reading stops: saxes slows down with the square of the depth, so a few MB of nesting would take minutes. */
export const MAX_PARSED_DEPTH = 1024;
/** A token held whole at most; a text, comment or CDATA section past it is read no further (`oversized`): no sitemap field is near as long. */
export const MAX_TOKEN_CHARS = 8 * 1024 * 1024;

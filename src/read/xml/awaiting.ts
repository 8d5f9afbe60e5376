/** Input kept aside, unjoined, while an entry cut by a chunk's end or a long token still open waits for what can end it. */
import { Char } from './chars.ts';
import { MAX_TOKEN_CHARS } from './events.ts';

/** An entry cut by a chunk's end is awaited whole up to this long; a longer one goes tag by tag. */
export const MAX_AWAITED_ENTRY_CHARS = 64 * 1024;
/** Any other token still open at a chunk's end waits for what can end it once it is this long: shorter ones cost little to join again. */
export const MIN_AWAITED_TOKEN_CHARS = 4 * 1024;

const lastChars = (text: string, n: number): string => (n === 0 ? '' : text.slice(-n));

/**
 * What the awaited entry or token waits for: what ends it, the last characters it has (that end may
 * be cut), its length so far and how long it may get, and the input kept aside. Input cut small
 * would otherwise copy the entry or token again on every write.
 */
export class AwaitedInput {
  /** The chunks kept aside, in order: they follow the tokenizer's buffer. */
  readonly kept: string[] = [];
  /** Where in the chunk just looked at (`keeps`) the awaited entry's end tag ends, or -1. */
  endsAt = -1;
  #endTag = '';
  #tail = '';
  #length = 0;
  #limit = MAX_AWAITED_ENTRY_CHARS;
  /** In an awaited tag: the quote of the value it is in (0: none). */
  #quote = 0;

  /** Awaits `endTag`, the end of the entry starting at `lt` in `buffer`, which runs on past it. */
  entry(buffer: string, lt: number, endTag: string): void {
    this.#endTag = endTag;
    this.#tail = buffer.slice(buffer.length - endTag.length + 1);
    this.#length = buffer.length - lt;
    this.#limit = MAX_AWAITED_ENTRY_CHARS;
  }

  /**
   * Awaits the end of the token still open at `pos` in `buffer` (a comment, a tag with a long
   * value…); false, when it holds its end already (a tag that stopped short of it), and waiting
   * would not help.
   */
  token(buffer: string, pos: number): boolean {
    // Only this can end it: in a tag, a `>` outside the quotes of its values.
    this.#endTag = buffer.startsWith('<!--', pos) ? '-->' : buffer.startsWith('<![CDATA[', pos) ? ']]>' : buffer.startsWith('<?', pos) ? '?>' : '>';
    if (this.#endTag === '>') {
      this.#quote = 0;
      if (this.#unquotedGreater(buffer, pos)) return false;
    }
    this.#tail = lastChars(buffer, this.#endTag.length - 1);
    this.#length = buffer.length - pos;
    this.#limit = MAX_TOKEN_CHARS;
    return true;
  }

  /**
   * Keeps `chunk` aside when it cannot end the awaited entry (`forEntry`) or token (not what ends
   * it, even across the seam) and that stays short enough to wait for.
   */
  keeps(chunk: string, forEntry: boolean): boolean {
    const endTag = this.#endTag;
    this.endsAt = -1;
    if (!forEntry && endTag === '>') {
      if (this.#length + chunk.length > this.#limit || this.#unquotedGreater(chunk, 0)) return false;
      this.kept.push(chunk);
      this.#length += chunk.length;
      return true;
    }
    // Only the seam is put together: `tail + chunk` would be a rope, flattened (copied) by the search.
    const seam = this.#tail + chunk.slice(0, endTag.length - 1);
    const inSeam = seam.indexOf(endTag);
    const inChunk = inSeam === -1 ? chunk.indexOf(endTag) : -1;
    if (inSeam !== -1 || inChunk !== -1) {
      if (forEntry) this.endsAt = inSeam !== -1 ? inSeam + endTag.length - this.#tail.length : inChunk + endTag.length;
      return false;
    }
    if (this.#length + chunk.length > this.#limit) return false;
    this.kept.push(chunk);
    this.#length += chunk.length;
    this.#tail = lastChars(chunk.length >= endTag.length - 1 ? chunk : seam, endTag.length - 1);
    return true;
  }

  /**
   * Whether `text` from `from` holds a `>` outside quotes, reading on from the quote the awaited tag
   * was in (#quote, updated): one pass over each piece, however many `>` its values hold.
   */
  #unquotedGreater(text: string, from: number): boolean {
    let quote = this.#quote;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === Char.Quote || c === Char.Apostrophe) {
        quote = c;
      } else if (c === Char.Greater) {
        return true;
      }
    }
    this.#quote = quote;
    return false;
  }
}

/** The predefined entities and character references of XML (§4.1, §4.6): decoding them, and finding an `&` that starts none. */
import { Char, isAsciiLetter, isDigit, isHexDigit } from './chars.ts';

const PREDEFINED = new Map([['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"]]);

/** A numeric reference to a character XML allows (§2.2), or undefined. */
export function referencedChar(code: number): string | undefined {
  const allowed =
    code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
  return allowed ? String.fromCodePoint(code) : undefined;
}

/** Replaces the predefined entities and character references; undefined when any `&` is not one of those. */
export function decodeEntities(text: string): string | undefined {
  return decode(text, false, text.indexOf('&'));
}

/** Like `decodeEntities`, but an `&` that starts no valid reference stays a literal `&`. */
export function decodeEntitiesLeniently(text: string): string {
  return decode(text, true, text.indexOf('&')) as string;
}

/** An attribute value as written, decoded, if nothing in it needs more than a look: no `<`, no tab, LF or CR (§3.3.3 would make them spaces), only valid references. */
export function attributeValueOnSight(raw: string): string | undefined {
  for (let k = 0; k < raw.length; k++) {
    const c = raw.charCodeAt(k);
    if (c === Char.Less || c === Char.Tab || c === Char.LineFeed || c === Char.Return) return undefined;
  }
  return raw.indexOf('&') === -1 ? raw : decodeEntities(raw);
}

/** Where the first `&` in `text` (from `from` on) that starts no reference `decode` reads is, or -1. */
export function bareAmpersand(text: string, from = 0): number {
  for (let amp = text.indexOf('&', from); amp !== -1; amp = text.indexOf('&', amp + 1)) {
    const semicolon = referenceEnd(text, amp);
    if (semicolon === -1 || resolveReference(text.slice(amp + 1, semicolon)) === undefined) return amp;
  }
  return -1;
}

/** How many `&` in `text` from `from` on start no reference. */
export function countBareAmpersands(text: string, from: number): number {
  let count = 0;
  for (let amp = bareAmpersand(text, from); amp !== -1; amp = bareAmpersand(text, amp + 1)) count++;
  return count;
}

/**
 * Whether an `&amp;` starts at `amp` in `buffer`. A text the whole-entry path matched is followed by
 * `<` or its quote, so the five characters are the text's own when they match.
 */
export const isAmpReferenceAt = (buffer: string, amp: number): boolean =>
  buffer.charCodeAt(amp + 1) === Char.LowerA && buffer.charCodeAt(amp + 2) === Char.LowerM && buffer.charCodeAt(amp + 3) === Char.LowerP && buffer.charCodeAt(amp + 4) === Char.Semicolon;

/**
 * The text with its references replaced, from `first`, where its first `&` is (-1 for none); with
 * `lenient`, an `&` that starts none stays itself, else the answer is undefined. A hand loop rather
 * than a regex replace: `&amp;` in every URL with a query makes this hot.
 */
export function decode(text: string, lenient: boolean, first: number): string | undefined {
  let out = '';
  let from = 0;
  for (let amp = first; amp !== -1; amp = text.indexOf('&', from)) {
    // `&amp;` is nearly every reference there is (a URL's query string): no slice, no lookup.
    if (text.startsWith('amp;', amp + 1)) {
      out += text.slice(from, amp + 1);
      from = amp + 5;
      continue;
    }
    const semicolon = referenceEnd(text, amp);
    const reference = semicolon === -1 ? undefined : resolveReference(text.slice(amp + 1, semicolon));
    if (reference === undefined) {
      if (!lenient) return undefined;
      out += text.slice(from, amp + 1);
      from = amp + 1;
      continue;
    }
    out += text.slice(from, amp) + reference;
    from = semicolon + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The `;` ending what could be a reference at `amp` (a name of at most four letters, `#` and digits,
 * `#x` and hex digits), or -1: no search runs past it, so a long text of bare `&`s stays linear.
 */
function referenceEnd(text: string, amp: number): number {
  let i = amp + 1;
  if (text.charCodeAt(i) === Char.Hash) {
    const hex = text.charCodeAt(++i) === Char.LowerX;
    if (hex) i++;
    const start = i;
    while (hex ? isHexDigit(text.charCodeAt(i)) : isDigit(text.charCodeAt(i))) i++;
    if (i === start) return -1;
  } else {
    while (i - amp <= 4 && isAsciiLetter(text.charCodeAt(i))) i++;
  }
  return text.charCodeAt(i) === Char.Semicolon ? i : -1;
}

function resolveReference(name: string): string | undefined {
  const predefined = PREDEFINED.get(name);
  if (predefined !== undefined) return predefined;
  if (name.charCodeAt(0) !== Char.Hash) return undefined;
  const hex = name.charCodeAt(1) === Char.LowerX;
  const digits = name.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9A-Fa-f]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  return referencedChar(Number.parseInt(digits, hex ? 16 : 10));
}

/** A short excerpt around the first `&` (or the one at `index`), for messages. */
export function clipAround(text: string, ampersand = '&', index = text.indexOf(ampersand)): string {
  const at = Math.max(0, index - 20);
  return JSON.stringify(text.slice(at, at + 40).replaceAll(ampersand, '&'));
}

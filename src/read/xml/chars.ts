/** Character codes and classes the fast path tests, and the characters XML 1.0 forbids. */

/** The character codes the tokenizer compares against, by name. */
export const Char = {
  Tab: 9,
  LineFeed: 10,
  Return: 13,
  Space: 32,
  Bang: 33,
  Quote: 34,
  Hash: 35,
  Ampersand: 38,
  Apostrophe: 39,
  Hyphen: 45,
  Dot: 46,
  Slash: 47,
  Digit0: 48,
  Digit9: 57,
  Colon: 58,
  Semicolon: 59,
  Less: 60,
  Equals: 61,
  Greater: 62,
  Question: 63,
  UpperA: 65,
  UpperF: 70,
  UpperZ: 90,
  Underscore: 95,
  LowerA: 97,
  LowerF: 102,
  LowerH: 104,
  LowerM: 109,
  LowerP: 112,
  LowerS: 115,
  LowerT: 116,
  LowerX: 120,
  LowerZ: 122,
  Delete: 127,
} as const;

/** XML's whitespace (§2.3): space, tab, LF, CR. */
export const isSpace = (c: number): boolean => c === Char.Space || c === Char.LineFeed || c === Char.Tab || c === Char.Return;
/** The ASCII names the fast path reads (anything wider is saxes'). */
export const isNameStart = (c: number): boolean => (c >= Char.LowerA && c <= Char.LowerZ) || (c >= Char.UpperA && c <= Char.UpperZ) || c === Char.Underscore;
export const isNameChar = (c: number): boolean =>
  isNameStart(c) || (c >= Char.Digit0 && c <= Char.Digit9) || c === Char.Hyphen || c === Char.Dot || c === Char.Colon;
export const isDigit = (c: number): boolean => c >= Char.Digit0 && c <= Char.Digit9;
export const isHexDigit = (c: number): boolean => isDigit(c) || (c >= Char.UpperA && c <= Char.UpperF) || (c >= Char.LowerA && c <= Char.LowerF);
export const isAsciiLetter = (c: number): boolean => (c >= Char.UpperA && c <= Char.UpperZ) || (c >= Char.LowerA && c <= Char.LowerZ);

/** `buffer.startsWith(name, at)` for the short names of tags, without the call into the runtime. */
export function matchesAt(buffer: string, at: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if (buffer.charCodeAt(at + k) !== name.charCodeAt(k)) return false;
  return true;
}

/** Where `search` is in `text` from `from`, or the text's length: a position to compare, never -1. */
export function indexOrLength(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? text.length : at;
}

/** XML §2.11: CRLF and lone CR become LF before anything else sees the text. */
export const normalizeNewlines = (text: string): string => (text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n'));

/**
 * Characters XML 1.0 does not allow anywhere (§2.2), each one UTF-16 unit: read as U+FFFD, as the
 * decoder reads bytes that are no UTF-8, and each reported where it stands.
 */
export const DISALLOWED_CHARS = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** How many DISALLOWED_CHARS `text` holds from `from` on (its `lastIndex` is left at the end). */
export function countDisallowedChars(text: string, from: number): number {
  let count = 0;
  DISALLOWED_CHARS.lastIndex = from;
  while (DISALLOWED_CHARS.exec(text) !== null) count++;
  return count;
}

export const disallowedCharMessage = (text: string, at: number): string =>
  `character U+${text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML; read as U+FFFD`;

/** Whether `chunk` may hold a DISALLOWED_CHARS; when the control characters are known to be absent, native searches rule out the rest. */
export function mayHoldDisallowedChar(chunk: string, controlsChecked: boolean): boolean {
  return !controlsChecked || chunk.indexOf('\uFFFE') !== -1 || chunk.indexOf('\uFFFF') !== -1 || !chunk.isWellFormed();
}

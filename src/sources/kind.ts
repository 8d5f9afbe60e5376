/** What the first bytes of an input say it is, when it is no text: by magic bytes where a format has them, else NUL bytes or bytes that are not UTF-8. */

import { MAGIC_BYTES, magicOf } from '../model/magic.ts';

/** How many first bytes are looked at. */
export const HEAD_BYTES = MAGIC_BYTES;

export function isGzip(head: Uint8Array): boolean {
  return head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * What `head` (an input's first bytes, up to `HEAD_BYTES`) is when it is not text, or undefined for
 * text. Text may hold a line that is not UTF-8 (a Latin-1 é; that line is reported and skipped); data
 * with NUL bytes, or where more than one character in eight is no UTF-8 or a control character, is not.
 */
export function describeBinary(head: Uint8Array): string | undefined {
  const magic = magicOf(head);
  if (magic !== undefined) return magic.hint === undefined ? magic.what : `${magic.what} (${magic.hint})`;
  if (head.includes(0)) return 'binary data (it holds NUL bytes)';
  // `stream` leaves a character cut at the end of the head undecoded rather than counted as bad.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(head, { stream: true });
  let bad = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0xfffd || (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d) || code === 0x7f) bad++;
  }
  return bad * 8 > text.length ? 'binary data (it is not UTF-8 text)' : undefined;
}

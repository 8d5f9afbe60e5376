/** The only XML escaper (R2). Values reaching it are already free of characters XML forbids. */

const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c) : value;
}

const NON_ASCII = /[^\0-\x7F]/;

/** For URIs, where percent-encoding leaves only `&` and `'` to escape. */
export function escapeUri(uri: string): string {
  if (uri.includes('&')) uri = uri.replaceAll('&', '&amp;');
  return uri.includes("'") ? uri.replaceAll("'", '&apos;') : uri;
}

/** UTF-8 byte length without encoding the string. */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // with its low surrogate: 4 bytes for 2 UTF-16 units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** `<loc>` rules: absolute http(s) (R8), length (R9), URI characters (R10), scope (R16/R17). */
import { excerpt } from '../model/diagnostic.ts';
import { MAX_LOC_LENGTH } from './limits.ts';

/**
 * Already-canonical absolute URLs: lower-case ASCII host without port, a path (the empty one is written "/"), only URI characters,
 * valid escapes. These need no work, and they are nearly all real input, so they skip the slow path.
 * The host's last label starts with a letter (no IPv4 shorthand to canonicalize) and no label is
 * punycode (it may be invalid), so whatever matches is exactly what the slow path would write.
 */
const CANONICAL_URL =
  /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z](?:[a-z0-9-]*[a-z0-9])?\/[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?$/;
const HAS_PERCENT = /%/;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const PUNYCODE_LABEL = /(?:^|[./])xn--/i;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Whether `text` starts with a scheme (`https:`, `mailto:`…): without one it is a relative reference. */
export function hasScheme(text: string): boolean {
  return SCHEME.test(text);
}
/** RFC 3986 characters that may stand unescaped outside the authority (unreserved, reserved minus brackets). */
const URI_CHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/;

export type UriResult =
  | { ok: true; uri: string; changed: boolean; resolved: boolean }
  | { ok: false; rule: 'R8' | 'R9' | 'R10'; reason: string };

/**
 * Turns an IRI or URI into the URI a sitemap may carry: scheme and host lower-cased, IDN host as
 * punycode, non-ASCII and characters not allowed in URIs percent-encoded as UTF-8, existing valid
 * escapes kept. A relative reference is resolved against `base` when one is given.
 */
export function toSitemapUri(input: string, base?: URL): UriResult {
  const text = input.trim();
  if (CANONICAL_URL.test(text) && (!HAS_PERCENT.test(text) || !BAD_ESCAPE.test(text))) {
    if (text.length > MAX_LOC_LENGTH) return tooLong(text.length);
    return { ok: true, uri: text, changed: false, resolved: false };
  }
  return slowPath(text, base);
}

/** Inside a URL, a tab or line break is where two values were run together (a second column, two lines), never part of the address. */
const RUN_TOGETHER = /[\t\n\r\f\v]/;
/** A relative reference like these is text that is no address at all (a header line "Product URL", markup), not a path to resolve; `/about us` is a path. */
const NOT_A_PATH = /[<>"]|^[^/][^]*\s/;

function slowPath(text: string, base: URL | undefined): UriResult {
  if (text === '') return { ok: false, rule: 'R8', reason: 'is empty' };
  if (RUN_TOGETHER.test(text)) return { ok: false, rule: 'R10', reason: `"${excerpt(text)}" holds a tab or line break: more than one value, not a URL` };
  let absolute = text;
  let resolved = false;
  let scheme = SCHEME.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (NOT_A_PATH.test(text)) return { ok: false, rule: 'R8', reason: `"${excerpt(text)}" is not a URL (no http: or https:, and not a path either)` };
    const relative = base === undefined ? undefined : encodeRest(text.replace(/\\/g, '/'));
    if (base === undefined || relative === undefined) {
      return { ok: false, rule: 'R8', reason: `"${excerpt(text)}" is not an absolute URL` };
    }
    try {
      absolute = new URL(relative, base).href;
    } catch {
      return { ok: false, rule: 'R8', reason: `"${excerpt(text)}" cannot be resolved against ${base.href}` };
    }
    scheme = base.protocol.slice(0, -1);
    resolved = true;
  }
  if (scheme !== 'http' && scheme !== 'https') {
    return { ok: false, rule: 'R8', reason: `"${excerpt(text)}" uses ${scheme}:, only http: and https: are allowed` };
  }
  const afterScheme = absolute.slice(absolute.indexOf(':') + 1);
  if (!afterScheme.startsWith('//')) return { ok: false, rule: 'R8', reason: `"${excerpt(text)}" has no host` };
  const authorityEnd = afterScheme.slice(2).search(/[/?#]/);
  const authority = authorityEnd === -1 ? afterScheme.slice(2) : afterScheme.slice(2, 2 + authorityEnd);
  const rest = authorityEnd === -1 ? '' : afterScheme.slice(2 + authorityEnd);
  let host: string;
  try {
    const parsed = new URL(`${scheme}://${authority}/`);
    if (parsed.hostname === '') throw new TypeError('empty host');
    // A user name or password is kept, percent-encoded as the URL parser encodes it: raw, a `<` in it would break the XML.
    host = parsed.username === '' && parsed.password === '' ? parsed.host : `${parsed.username}${parsed.password === '' ? '' : `:${parsed.password}`}@${parsed.host}`;
  } catch {
    return { ok: false, rule: 'R8', reason: `"${excerpt(text)}" has an invalid host "${excerpt(authority)}"` };
  }
  if (PUNYCODE_LABEL.test(host) && !validPunycodeHost(host)) {
    return { ok: false, rule: 'R8', reason: `"${excerpt(text)}" has an invalid host "${excerpt(authority)}"` };
  }
  // The empty path is "/" (RFC 3986, 6.2.3): https://example.com and https://example.com/ are one URL, written with its slash.
  const encodedRest = encodeRest(rest.startsWith('/') ? rest : `/${rest}`);
  if (encodedRest === undefined) return { ok: false, rule: 'R10', reason: `"${excerpt(text)}" contains an unpaired surrogate` };
  const uri = `${scheme}://${host}${encodedRest}`;
  if (uri.length > MAX_LOC_LENGTH) return tooLong(uri.length);
  return { ok: true, uri, changed: uri !== text, resolved };
}

function validPunycodeHost(host: string): boolean {
  try {
    return new URL(`http://${host}/`).host === host;
  } catch {
    return false;
  }
}

/** Percent-encodes what may not stand raw in path, query and fragment; a second `#` is data. */
function encodeRest(rest: string): string | undefined {
  let out = '';
  let seenHash = false;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest.charAt(i);
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(rest.slice(i + 1, i + 3))) {
      out += ch;
    } else if (ch === '#' && !seenHash) {
      seenHash = true;
      out += ch;
    } else if (URI_CHAR.test(ch)) {
      out += ch;
    } else {
      const code = rest.charCodeAt(i);
      let char = ch;
      if (code >= 0xd800 && code <= 0xdbff) {
        const next = rest.charCodeAt(i + 1);
        if (!(next >= 0xdc00 && next <= 0xdfff)) return undefined;
        char = rest.slice(i, i + 2);
        i++;
      } else if (code >= 0xdc00 && code <= 0xdfff) {
        return undefined;
      }
      out += encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    }
  }
  return out;
}

function tooLong(length: number): UriResult {
  return { ok: false, rule: 'R9', reason: `is ${length} characters long after encoding; the limit is ${MAX_LOC_LENGTH}` };
}


/** Where a sitemap served from a folder may point (R16/R17): same origin, path under the folder. */
export interface Scope {
  /** `https://example.com/catalog/`: origin plus the folder path, always ending in `/`. */
  readonly prefix: string;
  readonly origin: string;
}

export function scopeOf(folderUrl: URL): Scope {
  const path = folderUrl.pathname.endsWith('/') ? folderUrl.pathname : `${folderUrl.pathname}/`;
  return { prefix: `${folderUrl.origin}${path}`, origin: folderUrl.origin };
}

export type ScopeCheck = { ok: true } | { ok: false; rule: 'R16' | 'R17'; reason: string };

/** A `.` or `..` path segment, as written or percent-encoded: readers resolve it away (RFC 3986, 5.2.4), so `/blog/../admin` is `/admin`. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$)/i;

export function checkScope(written: string, scope: Scope): ScopeCheck {
  const dotted = (written.includes('/.') || written.includes('%2')) && DOT_SEGMENT.test(written.replace(/[?#].*$/s, '')) && URL.canParse(written);
  const uri = dotted ? new URL(written).href : written;
  const check = inScope(uri, scope);
  // Named only where they made the difference.
  if (check.ok || !dotted || !inScope(written, scope).ok) return check;
  return { ...check, reason: check.reason.replace(/^is /, `is ${uri} once its dot segments are resolved, `) };
}

/** A user name and password before the host (`https://user:pw@`): no part of where the URL points. */
const USERINFO = /^(https?:\/\/)[^/?#]*@/i;

function inScope(written: string, scope: Scope): ScopeCheck {
  const uri = written.includes('@') ? written.replace(USERINFO, '$1') : written;
  if (uri.startsWith(scope.prefix)) return { ok: true };
  const next = uri.charAt(scope.origin.length);
  const sameOrigin = uri.startsWith(scope.origin) && /^[/?#]?$/.test(next);
  // "https://example.com" and "https://example.com?q" have the empty path, which means "/".
  if (sameOrigin && next !== '/' && scope.prefix === `${scope.origin}/`) return { ok: true };
  if (!sameOrigin) {
    return { ok: false, rule: 'R16', reason: `is not on ${scope.origin}, where the sitemap is served (list it from that host's own sitemap, or cross-submit through its robots.txt, R18)` };
  }
  return { ok: false, rule: 'R17', reason: `is outside ${scope.prefix}, the folder the sitemap is served from (serve sitemaps from the site root to list every path)` };
}

/** A static site's files as the URLs hosts serve them at: `x/index.html` → `x/`, `x.html` → `x.html` or `x` (clean URLs), error pages, one page under two spellings. */

export const TRAILING_SLASH = ['always', 'never', 'preserve'] as const;
export type TrailingSlash = (typeof TRAILING_SLASH)[number];

export interface UrlPolicy {
  /** The site's URL, ending in `/`: the folder's root is served there. */
  siteUrl: string;
  /** `x.html` is served as `x` (Netlify, Vercel, Cloudflare Pages with pretty URLs). @default false */
  cleanUrls?: boolean;
  /**
   * `always`: every page URL but a file's (`x.html`, `x.pdf`) ends in `/`; `never`: none but the
   * root does; `preserve`: a folder's index ends in `/`, a clean `x.html` does not. @default 'preserve'
   */
  trailingSlash?: TrailingSlash;
}

const INDEX = /^index\.html?$/i;
const HTML = /\.html?$/i;

/** Error and fallback pages, which hosts serve for other URLs: `404.html`, `500.html`, `200.html` (an SPA fallback), `50x.html`, and `404/index.html` forms, at any depth. */
const ERROR_PAGE = /(?:^|\/)(?:200|[45]\d\d|50x)(?:\.html?|\/index\.html?)$/i;

export function isErrorPage(path: string): boolean {
  return ERROR_PAGE.test(path);
}

export function isHtmlPath(path: string): boolean {
  return HTML.test(path);
}

/** Names `encodeURIComponent` leaves as they are (most of a built site's). */
const PLAIN = /^[\w.!~*'()-]*$/;

/** A path segment in a URL: percent-encoded where a URL path needs it, `@`, `:` and sub-delimiters kept. */
function segment(name: string): string {
  if (PLAIN.test(name)) return name;
  return encodeURIComponent(name).replace(/%(?:40|3A|24|26|2B|2C|3B|3D)/gi, (e) => decodeURIComponent(e));
}

/** The URL a file (a `/`-separated path relative to the folder) is served at. */
export function urlOfPath(path: string, policy: UrlPolicy): string {
  const parts = path.split('/');
  const last = parts.pop() ?? '';
  const slash = policy.trailingSlash ?? 'preserve';
  if (INDEX.test(last)) {
    if (parts.length === 0) return policy.siteUrl;
    return policy.siteUrl + parts.map(segment).join('/') + (slash === 'never' ? '' : '/');
  }
  if (HTML.test(last) && policy.cleanUrls === true) {
    return policy.siteUrl + [...parts, last.replace(HTML, '')].map(segment).join('/') + (slash === 'always' ? '/' : '');
  }
  return policy.siteUrl + [...parts, last].map(segment).join('/');
}

/** A URL's page, whatever its spelling: path case, `/index.html`, `.html` and a trailing `/` left out. Undefined when it has a query. */
function pageKey(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.search !== '') return undefined;
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape compares as written.
  }
  path = path.toLowerCase().replace(/\/index\.html?$/, '/').replace(/\.html?$/, '').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** Whether two absolute URLs are one page under two spellings (or the same spelling). */
export function samePage(a: string, b: string): boolean {
  if (a === b) return true;
  const key = pageKey(a);
  return key !== undefined && key === pageKey(b);
}

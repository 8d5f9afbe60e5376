/**
 * The content fingerprint of an HTML page: a hash of what the page says, leaving out what a rebuild
 * changes without changing it (the rules are listed in README.md, "What the fingerprint ignores").
 * Whole-string regular expressions rather than parser events: a page's every tag through the
 * parser cost several times the rest of `build --dir` (bench/NOTES.md); pure.
 */
import { Hash128 } from './hash.ts';
import { type Compound, matchesAny } from './selector.ts';

export interface FingerprintRules {
  /** Elements left out with everything inside them (`--ignore-selector`). */
  ignoreSelectors?: readonly Compound[];
  /** Text removed from the page's text before hashing (`--ignore-pattern`); global regexes. */
  ignorePatterns?: readonly RegExp[];
}

/** Raised whenever the same page would get another fingerprint: a state then takes the new one without a new lastmod. */
export const FINGERPRINT_VERSION = 1;

/** `<meta name|property>` values that are build stamps or request tokens, not content. */
const IGNORED_META = /^(?:generator|csrf-token|csrf-param|xsrf-token|_csrf|build|build[-_]?(?:time|date|id|hash|stamp)|buildid|generated(?:[-_]?(?:at|on|time|date))?)$/i;

/** Hidden form fields holding CSRF tokens (Laravel, Rails, ASP.NET, Django and the like). */
const CSRF_FIELD = /^(?:_token|authenticity_token|__requestverificationtoken|csrfmiddlewaretoken|_?csrf.*|_?xsrf.*)$/i;

/** `<link rel>` tokens that say something about the page (others load code, styles, fonts, icons: presentation). */
const CONTENT_LINK = /(?:^|\s)(?:canonical|alternate|prev|next|amphtml|author|license)(?:\s|$)/i;

/** Query parameters whose only job is to defeat caches: `?v=123`, `?ver=`, `?t=`, `?_=`, `?hash=`… */
const CACHE_BUSTER = /([?&])(?:v|ver|version|t|ts|_|h|hash|build|rev|cb|cachebust|cachebuster|nocache)=[^&#\s"',]*&?/gi;
/** A query that is nothing but a number or a hex string: `?1700000000`, `?3f9a2c1b`. */
const BARE_BUSTER = /\?(?:\d+|[0-9a-f]{6,})(?=$|[#\s"',])/gi;
/**
 * A hashed code, style or font asset name: `app.3f9a2c1b.js`, `main-BX3k9.css`, `index.D-h3Kx9a.css`.
 * The piece before the extension is a hash when it has 5+ characters with a digit or both cases.
 * Images and documents keep their names: a content-hashed image changes name only when its bytes change.
 */
const HASHED_ASSET = /([.-])([A-Za-z0-9_]{5,64}|(?<=\.)[A-Za-z0-9_-]{5,64})(\.(?:js|mjs|cjs|css|map|woff2?|ttf|otf|eot|wasm)(?=$|[?#\s"',)]))/g;

/** A piece of a file name that is a build's hash: a digit in it, or both cases. */
function isHash(piece: string): boolean {
  return /\d/.test(piece) || (/[a-z]/.test(piece) && /[A-Z]/.test(piece));
}

/** An attribute value with cache busters and hashed code-asset names taken out. */
export function stableValue(value: string): string {
  let out = value;
  if (out.includes('?')) out = out.replace(CACHE_BUSTER, '$1').replace(/[?&](?=$|#)/g, '').replace(BARE_BUSTER, '');
  if (out.includes('.')) {
    out = out.replace(HASHED_ASSET, (whole, sep: string, piece: string, ext: string) => (isHash(piece) ? `${sep}*${ext}` : whole));
  }
  return out;
}

/** Object keys left out of JSON-LD: a generator's `dateModified` is mostly the build time. */
function withoutDateModified(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDateModified);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (key !== 'dateModified') out[key] = withoutDateModified(v);
  return out;
}

/** Elements the fingerprint drops or judges by their attributes, comments, and raw-text elements with their content, in one pass. */
const MARKUP = /<(?:!--[\s\S]*?(?:-->|$)|(script|style)\b([^>]*)>([\s\S]*?)(?:<\/\1\s*>|$)|(link|meta|input)\b([^>]*)>)/gi;
/** Attributes of a start tag: name, then the value double-quoted, single-quoted or bare. */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
/** What follows a place inside a tag: no `<` before the next `>` (so text that looks like an attribute is left alone). */
const IN_TAG = String.raw`(?=[^<>]*>)`;
/** An ignored attribute where it stands in a tag, with its value. */
const ATTRIBUTE_IN_TAG = new RegExp(
  String.raw`\s(?:nonce|integrity|class|data-build[\w-]*|data-generated[\w-]*|data-timestamp|data-reactroot|data-v-[0-9a-f]{6,}|data-astro-cid-[0-9a-z]+|data-astro-source-(?:file|loc))(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?(?=[\s/>])${IN_TAG}`,
  'gi',
);
/** The value rules of `stableValue`, for values where they stand in a page's tags. */
const CACHE_BUSTER_IN_TAG = new RegExp(String.raw`([?&])(?:v|ver|version|t|ts|_|h|hash|build|rev|cb|cachebust|cachebuster|nocache)=[^&#\s"'<>,]*&?${IN_TAG}`, 'gi');
const EMPTY_QUERY_IN_TAG = new RegExp(String.raw`[?&](?=[#\s"'>])${IN_TAG}`, 'g');
const BARE_BUSTER_IN_TAG = new RegExp(String.raw`\?(?:\d+|[0-9a-f]{6,})(?=[#\s"',>])${IN_TAG}`, 'gi');
const HASHED_ASSET_IN_TAG = new RegExp(String.raw`([.-])([A-Za-z0-9_]{5,64}|(?<=\.)[A-Za-z0-9_-]{5,64})(\.(?:js|mjs|cjs|css|map|woff2?|ttf|otf|eot|wasm)(?=[?#\s"',)>]))${IN_TAG}`, 'g');
const CODE_EXTENSIONS = ['.js', '.mjs', '.cjs', '.css', '.map', '.woff', '.ttf', '.otf', '.eot', '.wasm'];
/** Whitespace runs, and whitespace that is not a space. */
const SPACE_RUN = /[\t\n\f\r ]{2,}|[\t\n\f\r]/g;
/** Elements with no end tag. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** One attribute's value in a start tag's attribute text, as written (the first, if repeated). */
function attribute(text: string, pattern: RegExp): string | undefined {
  const m = pattern.exec(text);
  return m === null ? undefined : (m[1] ?? m[2] ?? m[3] ?? '');
}
const attributePattern = (name: string): RegExp => new RegExp(String.raw`(?:^|\s)${name}\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))`, 'i');
const TYPE = attributePattern('type');
const REL = attributePattern('rel');
const NAME = attributePattern('name');
const PROPERTY = attributePattern('property');
const HTTP_EQUIV = attributePattern('http-equiv');

/** Whether a `<link>`, `<meta>` or `<input>` with this attribute text is left out. */
function droppedElement(tag: string, text: string): boolean {
  switch (tag) {
    case 'link':
      return !CONTENT_LINK.test(attribute(text, REL) ?? '');
    case 'meta': {
      const name = attribute(text, NAME) ?? attribute(text, PROPERTY) ?? attribute(text, HTTP_EQUIV);
      return name !== undefined && IGNORED_META.test(name.trim());
    }
    default:
      return (attribute(text, TYPE) ?? '').toLowerCase() === 'hidden' && CSRF_FIELD.test(attribute(text, NAME) ?? '');
  }
}

function jsonLd(text: string): string {
  try {
    return `<ld>${JSON.stringify(withoutDateModified(JSON.parse(text)))}</ld>`;
  } catch {
    return `<ld>${text}</ld>`;
  }
}

export function attributesOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTRIBUTE)) {
    const name = (m[1] ?? '').toLowerCase();
    if (!(name in out)) out[name] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return out;
}

/** The page without the elements (and their content) the selectors match: start tags scanned, an end tag found by counting its kind. */
function withoutSelected(html: string, selectors: readonly Compound[]): string {
  const tags = selectors.some((c) => c.tag === undefined) ? undefined : new Set(selectors.map((c) => c.tag));
  let out = '';
  let from = 0;
  const start = /<([a-zA-Z][^\s/>]*)([^>]*)>/g;
  for (let m = start.exec(html); m !== null; m = start.exec(html)) {
    const tag = (m[1] ?? '').toLowerCase();
    if (tags !== undefined && !tags.has(tag)) continue;
    if (!matchesAny(selectors, tag, attributesOf(m[2] ?? ''))) continue;
    let end = m.index + m[0].length;
    if (!VOID.has(tag) && !(m[2] ?? '').endsWith('/')) {
      const same = new RegExp(`<(/?)${tag}(?=[\\s/>])[^>]*>`, 'gi');
      same.lastIndex = end;
      let depth = 1;
      for (let t = same.exec(html); t !== null; t = same.exec(html)) {
        depth += t[1] === '/' ? -1 : 1;
        if (depth === 0) break;
      }
      end = depth === 0 ? same.lastIndex : html.length;
    }
    out += html.slice(from, m.index);
    from = end;
    start.lastIndex = end;
  }
  return from === 0 ? html : out + html.slice(from);
}

/**
 * The text the fingerprint hashes: the page with comments, scripts and styles (JSON-LD kept, without
 * `dateModified`), presentational `<link>`s, build-stamp and token `<meta>`s, CSRF fields, the
 * elements `ignoreSelectors` match, build-varying attributes, cache busters and hashed code-asset
 * names taken out, whitespace at tags dropped and runs of it made one space, then `ignorePatterns`
 * taken out of the text between tags. Entities stay as written.
 */
export function contentOf(html: string, rules: FingerprintRules = {}): string {
  let text = html.replace(MARKUP, (whole, raw: string | undefined, rawAttributes: string | undefined, inner: string | undefined, tag: string | undefined, attributes: string | undefined) => {
    if (raw !== undefined) return /^\s*application\/ld\+json\s*$/i.test(attribute(rawAttributes ?? '', TYPE) ?? '') ? jsonLd(inner ?? '') : '';
    if (tag !== undefined) return droppedElement(tag.toLowerCase(), attributes ?? '') ? '' : whole;
    return '';
  });
  if (rules.ignoreSelectors !== undefined && rules.ignoreSelectors.length > 0) text = withoutSelected(text, rules.ignoreSelectors);
  text = text.replace(ATTRIBUTE_IN_TAG, '');
  if (text.includes('?')) text = text.replace(CACHE_BUSTER_IN_TAG, '$1').replace(EMPTY_QUERY_IN_TAG, '').replace(BARE_BUSTER_IN_TAG, '');
  // Scripts and styles are gone by now, so a code-asset name is rare: looked for by indexOf first, ~50 times cheaper than the regex's scan.
  if (CODE_EXTENSIONS.some((ext) => text.includes(ext))) text = text.replace(HASHED_ASSET_IN_TAG, (whole, sep: string, piece: string, ext: string) => (isHash(piece) ? `${sep}*${ext}` : whole));
  // Runs made one space first, so what is left next to a tag is one space, removed without a regular expression.
  text = text.replace(SPACE_RUN, ' ').replaceAll(' <', '<').replaceAll('> ', '>').trim();
  const patterns = rules.ignorePatterns ?? [];
  if (patterns.length > 0) {
    text = text.replace(/(^|>)([^<]+)/g, (_all, open: string, run: string) => {
      for (const pattern of patterns) run = run.replace(pattern, '');
      return open + run.replace(SPACE_RUN, ' ').replace(/ {2,}/g, ' ').trim();
    });
  }
  return text;
}

/** How the content is hashed: 32 hex digits of Hash128 by default; a caller may give a faster native hash (the same one on every run). */
export type ContentHash = (content: string) => string;

export const hash128: ContentHash = (content) => new Hash128().update(content).digest();

/** The page's content fingerprint. */
export function fingerprintHtml(html: string, rules: FingerprintRules = {}, hash: ContentHash = hash128): string {
  return hash(contentOf(html, rules));
}

/**
 * The content fingerprint of an HTML page: a 128-bit hash of what the page says, leaving out what a
 * rebuild changes without changing it (the rules are listed in README.md, "What the fingerprint
 * ignores"). Fed the parser's events by the page reader; pure.
 */
import { Hash128 } from './hash.ts';
import { type Compound, matchesAny } from './selector.ts';

export interface FingerprintRules {
  /** Elements left out with everything inside them (`--ignore-selector`). */
  ignoreSelectors?: readonly Compound[];
  /** Text removed from the page's text before hashing (`--ignore-pattern`); global regexes. */
  ignorePatterns?: readonly RegExp[];
}

/** Attributes that change on every build or carry no content: nonces, subresource hashes, build stamps, hashed scoped-style markers, classes. */
const IGNORED_ATTRIBUTE = /^(?:nonce|integrity|class|data-build.*|data-generated.*|data-timestamp|data-reactroot|data-v-[0-9a-f]{6,}|data-astro-cid-[0-9a-z]+|data-astro-source-(?:file|loc))$/;

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

/** An attribute value with cache busters and hashed code-asset names taken out. */
export function stableValue(value: string): string {
  let out = value;
  if (out.includes('?')) out = out.replace(CACHE_BUSTER, '$1').replace(/[?&](?=$|#)/g, '').replace(BARE_BUSTER, '');
  if (out.includes('.')) {
    out = out.replace(HASHED_ASSET, (whole, sep: string, piece: string, ext: string) =>
      /\d/.test(piece) || (/[a-z]/.test(piece) && /[A-Z]/.test(piece)) ? `${sep}*${ext}` : whole,
    );
  }
  return out;
}

/** Whitespace runs as one space, ends trimmed (HTML's ASCII whitespace; a no-break space is content). */
function collapse(text: string): string {
  return text.replace(/[\t\n\f\r ]+/g, ' ').trim();
}

/** Object keys left out of JSON-LD: a generator's `dateModified` is mostly the build time. */
function withoutDateModified(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDateModified);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (key !== 'dateModified') out[key] = withoutDateModified(v);
  return out;
}

const SEP = '\u0000';

export class ContentFingerprint {
  readonly #hash = new Hash128();
  readonly #selectors: readonly Compound[];
  readonly #patterns: readonly RegExp[];
  /** Open elements; the depth at which an ignored element opened, or -1. */
  #depth = 0;
  #skipFrom = -1;
  /** Text waiting for the next tag (the parser may hand one text node over in pieces). */
  #text = '';
  /** Inside `<script type="application/ld+json">`: its text, hashed as JSON when it closes. */
  #jsonLd: string | undefined;

  constructor(rules: FingerprintRules = {}) {
    this.#selectors = rules.ignoreSelectors ?? [];
    this.#patterns = rules.ignorePatterns ?? [];
  }

  open(tag: string, attributes: Readonly<Record<string, string>>): void {
    this.#flush();
    this.#depth++;
    if (this.#skipFrom !== -1) return;
    if (this.#ignored(tag, attributes)) {
      this.#skipFrom = this.#depth;
      return;
    }
    let token = `<${tag}`;
    for (const name in attributes) {
      if (IGNORED_ATTRIBUTE.test(name)) continue;
      token += ` ${name}=${stableValue(attributes[name] ?? '')}`;
    }
    this.#hash.update(token + SEP);
    if (tag === 'script') this.#jsonLd = '';
  }

  close(tag: string): void {
    if (this.#jsonLd !== undefined && tag === 'script') {
      this.#hash.update(this.#jsonLdToken(this.#jsonLd));
      this.#jsonLd = undefined;
    } else this.#flush();
    if (this.#skipFrom === this.#depth) this.#skipFrom = -1;
    else if (this.#skipFrom === -1) this.#hash.update(`</${tag}${SEP}`);
    this.#depth--;
  }

  text(data: string): void {
    if (this.#skipFrom !== -1) return;
    if (this.#jsonLd !== undefined) this.#jsonLd += data;
    else this.#text += data;
  }

  digest(): string {
    this.#flush();
    return this.#hash.digest();
  }

  #ignored(tag: string, attributes: Readonly<Record<string, string>>): boolean {
    switch (tag) {
      case 'script':
        return (attributes['type'] ?? '').trim().toLowerCase() !== 'application/ld+json';
      case 'style':
        return true;
      case 'link':
        return !CONTENT_LINK.test(attributes['rel'] ?? '');
      case 'meta': {
        const name = attributes['name'] ?? attributes['property'] ?? attributes['http-equiv'];
        if (name !== undefined && IGNORED_META.test(name.trim())) return true;
        break;
      }
      case 'input':
        if ((attributes['type'] ?? '').toLowerCase() === 'hidden' && CSRF_FIELD.test(attributes['name'] ?? '')) return true;
        break;
    }
    return this.#selectors.length > 0 && matchesAny(this.#selectors, tag, attributes);
  }

  #jsonLdToken(text: string): string {
    let value: string;
    try {
      value = JSON.stringify(withoutDateModified(JSON.parse(text)));
    } catch {
      value = collapse(text);
    }
    return `ld:${value}${SEP}`;
  }

  #flush(): void {
    if (this.#text === '') return;
    let text = collapse(this.#text);
    this.#text = '';
    for (const pattern of this.#patterns) text = collapse(text.replace(pattern, ''));
    if (text !== '') this.#hash.update(`"${text}${SEP}`);
  }
}

/**
 * The content fingerprint of an HTML page: a hash of what the page says, leaving out what a rebuild
 * changes without changing it (the rules are listed in README.md, "What the fingerprint ignores").
 * One pass over the page's tags with `indexOf` and char codes, rather than parser events (a page's
 * every tag through the parser cost several times the rest of `build --dir`) or a regular expression
 * a rule (each a pass over the whole page): figures in bench/NOTES.md. The same pass shows its tags
 * to a `TagWatcher` (head.ts reads the head's facts so), so a page is read once; pure.
 */
import { attributeOf, NO_ATTRIBUTES, type Attributes } from './attributes.ts';
import { Hash128 } from './hash.ts';
import { type Compound, matchesAny } from './selector.ts';

/** Which rules made a fingerprint: a store of fingerprints made under another version compares them as unknown, not as changed. */
export const FINGERPRINT_VERSION = 3;

/**
 * What a scan shows of the page's markup as it goes, for facts read in the same pass. Tags inside
 * comments and raw text (script, style, title, textarea, xmp, iframe, noembed, noframes) are not
 * tags; `ignoreSelectors` hide nothing from a watcher.
 */
export interface TagWatcher {
  /** Every start tag, end tag and piece of text is wanted; when false, only `<meta>`, `<base>` and `<template>` tags are. */
  readonly all: boolean;
  /**
   * A start tag: its name in lower case, its attributes (names in lower case, the first of each,
   * values as written: character references not decoded); `text`: a `<title>`'s content as written.
   */
  startTag(name: string, attributes: Attributes, text: string | undefined): void;
  /** An end tag's name, in lower case. */
  endTag(name: string): void;
  /** Text between tags, `html[from, to)` as written (may be whitespace alone). */
  text(html: string, from: number, to: number): void;
}

export interface FingerprintRules {
  /** Elements left out with everything inside them (`--ignore-selector`). */
  ignoreSelectors?: readonly Compound[];
  /** Text removed from the page's text before hashing (`--ignore-pattern`); global regexes. */
  ignorePatterns?: readonly RegExp[];
}

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

function jsonLd(text: string): string {
  try {
    return JSON.stringify(withoutDateModified(JSON.parse(text)));
  } catch {
    return text;
  }
}

/** Attribute names the fingerprint leaves out with their values (tested only on names of the lengths and first letters these have). */
const IGNORED_ATTRIBUTE = /^(?:nonce|integrity|class|data-build[\w-]*|data-generated[\w-]*|data-timestamp|data-reactroot|data-v-[0-9a-f]{6,}|data-astro-cid-[0-9a-z]+|data-astro-source-(?:file|loc))$/i;
/** The value rules of `stableValue`, on one attribute value where it stands in a tag (a srcset holds several URLs, so `,` and spaces end one too). */
const CACHE_BUSTER_IN_VALUE = /([?&])(?:v|ver|version|t|ts|_|h|hash|build|rev|cb|cachebust|cachebuster|nocache)=[^&#\s"',]*&?/gi;
const EMPTY_QUERY_IN_VALUE = /[?&](?=$|[#\s"',])/g;
const BARE_BUSTER_IN_VALUE = /\?(?:\d+|[0-9a-f]{6,})(?=$|[#\s"',])/gi;
/** Whether a value may need a value rule: a query, whitespace to make one space, a code asset's name; one test before the replacements' costlier scans. */
const VALUE_RULE = /[?\t\n\f\r]| {2}|\.(?:m?js|cjs|css|map|woff2?|ttf|otf|eot|wasm)(?=$|[?#\s"',)])/;
/** Whitespace runs, and whitespace that is not a space. */
const SPACE_RUN = /[\t\n\f\r ]{2,}|[\t\n\f\r]/g;
/** Whether a text has whitespace to make one space (a native scan: a loop over char codes costs several times more). */
const SPACE_FAULT = /[\t\n\f\r]| {2}/;
/** Elements with no end tag. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const SPACE = 0x20;

/** The strings `ContentScan.#find` looks for, each with its slot for where it is known to be absent. */
const GT_SOUGHT = 0;
const DOUBLE_QUOTE_SOUGHT = 1;
const SINGLE_QUOTE_SOUGHT = 2;
const COMMENT_END_SOUGHT = 3;
const BANG_END_SOUGHT = 4;
const END_TAG_SOUGHT = 5;

/** HTML's whitespace: space, tab, LF, FF, CR. */
export function isSpace(c: number): boolean {
  return c === SPACE || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c;
}

/** An ASCII letter (lower-casing by `| 0x20` maps exactly the capitals onto them). */
function isLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/** Whether `html[from, to)` is `name` (lower-case ASCII), in any case. */
function isName(html: string, from: number, to: number, name: string): boolean {
  if (to - from !== name.length) return false;
  for (let k = 0; k < name.length; k++) if ((html.charCodeAt(from + k) | 0x20) !== name.charCodeAt(k)) return false;
  return true;
}

/** Whether a short piece (an end tag, a doctype) has no whitespace but single spaces. */
function spaced(html: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = html.charCodeAt(k);
    if (c < SPACE || (c === SPACE && html.charCodeAt(k + 1) === SPACE)) return !isSpace(c);
  }
  return true;
}

/** Elements whose content is text up to their end tag, as HTML tokenizes them (`plaintext`: to the page's end). */
type RawText = 'script' | 'style' | 'title' | 'textarea' | 'xmp' | 'iframe' | 'noembed' | 'noframes' | 'plaintext';
/** Elements the fingerprint judges by their attributes or drops with their content, raw-text ones, and those a watcher always sees. */
type Special = RawText | 'link' | 'meta' | 'input' | 'base' | 'template' | undefined;

function special(html: string, from: number, to: number): Special {
  switch (to - from) {
    case 3:
      return isName(html, from, to, 'xmp') ? 'xmp' : undefined;
    case 4:
      return isName(html, from, to, 'link') ? 'link' : isName(html, from, to, 'meta') ? 'meta' : isName(html, from, to, 'base') ? 'base' : undefined;
    case 5:
      return isName(html, from, to, 'style') ? 'style' : isName(html, from, to, 'input') ? 'input' : isName(html, from, to, 'title') ? 'title' : undefined;
    case 6:
      return isName(html, from, to, 'script') ? 'script' : isName(html, from, to, 'iframe') ? 'iframe' : undefined;
    case 7:
      return isName(html, from, to, 'noembed') ? 'noembed' : undefined;
    case 8:
      return isName(html, from, to, 'textarea') ? 'textarea' : isName(html, from, to, 'noframes') ? 'noframes' : isName(html, from, to, 'template') ? 'template' : undefined;
    case 9:
      return isName(html, from, to, 'plaintext') ? 'plaintext' : undefined;
    default:
      return undefined;
  }
}

function isRawText(kind: Special): kind is RawText {
  switch (kind) {
    case 'script':
    case 'style':
    case 'title':
    case 'textarea':
    case 'xmp':
    case 'iframe':
    case 'noembed':
    case 'noframes':
    case 'plaintext':
      return true;
    default:
      return false;
  }
}

/** Whether the attribute named `html[from, to)` is left out (nonces, subresource hashes, build stamps, per-build class names). */
function ignoredAttribute(html: string, from: number, to: number): boolean {
  const length = to - from;
  const first = html.charCodeAt(from) | 0x20;
  // Most names are href, src, alt, id, rel, content…: the regex runs only on the few that could be one of these.
  if (length === 5 ? first !== 0x6e && first !== 0x63 : length === 9 ? first !== 0x69 && first !== 0x64 : length < 10 || first !== 0x64) return false;
  return IGNORED_ATTRIBUTE.test(html.slice(from, to));
}

/** Whether a `<link>`, `<meta>` or `<input>` with these attributes (lower-case names, first of each) is left out. */
function droppedElement(tag: Special, a: Attributes): boolean {
  switch (tag) {
    case 'link':
      return !CONTENT_LINK.test(attributeOf(a, 'rel') ?? '');
    case 'meta': {
      const name = attributeOf(a, 'name') ?? attributeOf(a, 'property') ?? attributeOf(a, 'http-equiv');
      return name !== undefined && IGNORED_META.test(name.trim());
    }
    case 'input':
      return (attributeOf(a, 'type') ?? '').toLowerCase() === 'hidden' && CSRF_FIELD.test(attributeOf(a, 'name') ?? '');
    default:
      return false;
  }
}

/** A value with cache busters and hashed code-asset names taken out and whitespace runs made one space. */
function valueOf(value: string): string {
  let out = value;
  if (out.includes('?')) out = out.replace(CACHE_BUSTER_IN_VALUE, '$1').replace(EMPTY_QUERY_IN_VALUE, '').replace(BARE_BUSTER_IN_VALUE, '');
  out = out.replace(HASHED_ASSET, (whole, sep: string, piece: string, ext: string) => (isHash(piece) ? `${sep}*${ext}` : whole));
  return out.replace(SPACE_RUN, ' ');
}

/**
 * The page read tag by tag into the fingerprint's text: tags kept are written (edited where a rule
 * says), text between tags is gathered into a run written at the next tag, trimmed, with its
 * whitespace runs made one space.
 */
class ContentScan {
  readonly #html: string;
  readonly #selectors: readonly Compound[];
  readonly #patterns: readonly RegExp[];
  out = '';
  /** What is written next, `html[#emitFrom, #emitTo)`: pieces of the page that follow each other in it are joined before one slice is taken. */
  #emitFrom = 0;
  #emitTo = 0;
  /** Text since the last tag written, `html[#runFrom, #runTo)` while it is one piece; comments, scripts and dropped elements inside it leave its pieces joined in `#run`. */
  #runFrom = 0;
  #runTo = 0;
  #run: string | undefined;
  /** Inside an element `ignoreSelectors` matched: its name and how many of its kind are open. */
  #skipping: string | undefined;
  #depth = 0;
  /** Where the last script or style's end tag starts (set by `#rawTextEnd`). */
  #rawTextStart = 0;
  /** Per searched string (its `Sought` index), where a search found nothing: a later search from past there finds nothing either, so a page of unclosed quotes stays linear. */
  readonly #none = [Infinity, Infinity, Infinity, Infinity, Infinity, Infinity];
  readonly #watcher: TagWatcher | undefined;
  /** Where the next `--!>` stands, as last found (-1: none from there on; set to 0 before the first search). */
  #bang = 0;

  constructor(html: string, rules: FingerprintRules, watcher?: TagWatcher) {
    this.#html = html;
    this.#selectors = rules.ignoreSelectors ?? [];
    this.#patterns = rules.ignorePatterns ?? [];
    this.#watcher = watcher;
  }

  scan(): void {
    const html = this.#html;
    const n = html.length;
    let at = 0;
    let textFrom = 0;
    for (let lt = html.indexOf('<', at); lt !== -1; lt = html.indexOf('<', at)) {
      const c = html.charCodeAt(lt + 1);
      let end = -1;
      if (c === BANG && html.startsWith('!--', lt + 1)) {
        // A comment goes, and the text either side of it joins; one never closed runs to the end.
        this.#watchText(textFrom, lt);
        this.#text(textFrom, lt);
        at = textFrom = this.#commentEnd(lt + 4);
        continue;
      }
      if (c === BANG || c === SLASH) {
        const gt = this.#find('>', GT_SOUGHT, lt + 2);
        if (gt !== -1) {
          this.#watchText(textFrom, lt);
          this.#text(textFrom, lt);
          if (c === SLASH) this.#endTag(lt, gt + 1);
          else if (spaced(html, lt, gt + 1)) this.#tagAt(lt, gt + 1);
          else this.#tag(html.slice(lt, gt + 1).replace(SPACE_RUN, ' '));
          end = gt + 1;
        }
      } else if (isLetter(c)) {
        end = this.#startTag(lt, textFrom);
      }
      // A `<` that opens no tag is text.
      if (end === -1) at = lt + 1;
      else at = textFrom = end;
    }
    this.#watchText(textFrom, n);
    this.#text(textFrom, n);
    this.#flush();
    this.#written();
  }

  /** Where a comment whose text starts at `from` ends, as HTML tokenizes it: `<!-->` and `<!--->` are whole, `--!>` closes one too. */
  #commentEnd(from: number): number {
    const html = this.#html;
    if (html.charCodeAt(from) === GT) return from + 1;
    if (html.startsWith('->', from)) return from + 2;
    const dashes = this.#find('-->', COMMENT_END_SOUGHT, from);
    // The `--!>` found last stands until the scan passes it, so a page of many comments is searched once for it.
    if (this.#bang !== -1 && this.#bang < from) this.#bang = this.#find('--!>', BANG_END_SOUGHT, from);
    const bang = this.#bang;
    if (bang !== -1 && (dashes === -1 || bang < dashes)) return bang + 4;
    return dashes === -1 ? html.length : dashes + 3;
  }

  /** Page text for the watcher, while it wants all. */
  #watchText(from: number, to: number): void {
    if (to > from && this.#watcher?.all === true) this.#watcher.text(this.#html, from, to);
  }

  /** `html.indexOf(what, from)`, remembering where nothing was found (in `sought`'s slot). */
  #find(what: string, sought: number, from: number): number {
    if (from >= (this.#none[sought] as number)) return -1;
    const at = this.#html.indexOf(what, from);
    if (at === -1) this.#none[sought] = from;
    return at;
  }

  #text(from: number, to: number): void {
    if (to <= from || this.#skipping !== undefined) return;
    if (this.#run === undefined && this.#runTo === this.#runFrom) {
      this.#runFrom = from;
      this.#runTo = to;
    } else {
      this.#run = (this.#run ?? this.#html.slice(this.#runFrom, this.#runTo)) + this.#html.slice(from, to);
      this.#runFrom = this.#runTo;
    }
  }

  /** A tag written (its whitespace made one space by the caller): the run before it goes first; whitespace next to a tag is not kept. */
  #tag(tag: string): void {
    if (this.#skipping !== undefined) return;
    this.#flush();
    this.#write(tag);
  }

  /** A tag written as it stands in the page. */
  #tagAt(from: number, to: number): void {
    if (this.#skipping !== undefined) return;
    this.#flush();
    this.#writeAt(from, to);
  }

  #writeAt(from: number, to: number): void {
    if (from !== this.#emitTo) {
      this.#written();
      this.#emitFrom = from;
    }
    this.#emitTo = to;
  }

  #write(piece: string): void {
    this.#written();
    this.out += piece;
  }

  /** The pieces of the page waiting to be written, written. */
  #written(): void {
    if (this.#emitTo === this.#emitFrom) return;
    this.out += this.#html.slice(this.#emitFrom, this.#emitTo);
    this.#emitFrom = this.#emitTo;
  }

  #flush(): void {
    let run = this.#run;
    if (run === undefined) {
      if (this.#runTo === this.#runFrom) return;
      // One piece: trimmed and checked where it stands in the page, copied only if text is left (most runs between tags are indentation).
      const html = this.#html;
      let from = this.#runFrom;
      let to = this.#runTo;
      this.#runFrom = this.#runTo;
      while (from < to && isSpace(html.charCodeAt(from))) from++;
      while (to > from && isSpace(html.charCodeAt(to - 1))) to--;
      if (from === to) return;
      if (this.#patterns.length === 0) {
        const text = html.slice(from, to);
        if (SPACE_FAULT.test(text)) this.#write(text.replace(SPACE_RUN, ' '));
        else this.#writeAt(from, to);
        return;
      }
      run = html.slice(from, to);
    }
    this.#run = undefined;
    let from = 0;
    let to = run.length;
    while (from < to && isSpace(run.charCodeAt(from))) from++;
    while (to > from && isSpace(run.charCodeAt(to - 1))) to--;
    if (from === to) return;
    let text = run.slice(from, to).replace(SPACE_RUN, ' ');
    if (this.#patterns.length > 0) {
      for (const pattern of this.#patterns) text = text.replace(pattern, '');
      text = text.replace(SPACE_RUN, ' ').replace(/ {2,}/g, ' ').trim();
    }
    if (text !== '') this.#write(text);
  }

  #endTag(from: number, to: number): void {
    const html = this.#html;
    const watcher = this.#watcher;
    // Past the head a watcher is told of `</template>` alone: other end tags are not looked at (a `t` first).
    if (watcher !== undefined && (watcher.all || (html.charCodeAt(from + 2) | 0x20) === 0x74)) {
      let nameEnd = from + 2;
      while (nameEnd < to - 1 && !isSpace(html.charCodeAt(nameEnd)) && html.charCodeAt(nameEnd) !== SLASH) nameEnd++;
      if (watcher.all || isName(html, from + 2, nameEnd, 'template')) watcher.endTag(html.slice(from + 2, nameEnd).toLowerCase());
    }
    if (this.#skipping !== undefined) {
      let nameEnd = from + 2;
      while (nameEnd < to - 1 && !isSpace(html.charCodeAt(nameEnd)) && html.charCodeAt(nameEnd) !== SLASH) nameEnd++;
      if (isName(html, from + 2, nameEnd, this.#skipping) && --this.#depth === 0) this.#skipping = undefined;
      return;
    }
    if (spaced(html, from, to)) this.#tagAt(from, to);
    else this.#tag(html.slice(from, to).replace(SPACE_RUN, ' '));
  }

  /**
   * The start tag at `lt`: its attributes read (quoted values may hold `>`), ignored ones left out,
   * values made stable, then the element kept, dropped, or skipped with its content. Returns where
   * the scan goes on, or -1 when the tag never closes (its `<` is then text).
   */
  #startTag(lt: number, textFrom: number): number {
    const html = this.#html;
    const n = html.length;
    let p = lt + 1;
    // A `<` outside quotes ends the try (its `<` is then text): each try reads no further than the next `<`, so `<a<a<a…` stays linear.
    for (; p < n; p++) {
      const c = html.charCodeAt(p);
      // Above a space, three tests; at or below, whitespace: most characters leave without a call (calls are dear in code not yet optimized).
      if (c > SPACE ? c === SLASH || c === GT || c === LT : isSpace(c)) break;
    }
    const nameEnd = p;
    const kind = special(html, lt + 1, nameEnd);
    const selecting = this.#selectors.length > 0 && this.#skipping === undefined;
    const watcher = this.#watcher;
    // `kind` is tested against undefined first: most tags have none, and a string compare each is no free test.
    const watched = watcher !== undefined && (watcher.all || (kind !== undefined && (kind === 'meta' || kind === 'base' || kind === 'template')));
    const attributes: string[] | undefined = kind !== undefined || selecting || watched ? [] : undefined;
    // The tag as written, but for edits: `copied` is how far `tag` has it.
    let tag = '';
    let copied = lt;
    let selfClosing = false;
    for (;;) {
      const spaceFrom = p;
      while (p < n && isSpace(html.charCodeAt(p))) p++;
      if (p >= n) return -1;
      // Whitespace between a tag's parts is one space, as anywhere (runs, and tabs or line ends).
      const badSpace = p - spaceFrom > 1 || (p > spaceFrom && html.charCodeAt(spaceFrom) !== SPACE);
      const c = html.charCodeAt(p);
      if (c === LT) return -1;
      if (c === GT || c === SLASH) {
        if (badSpace) {
          tag += `${html.slice(copied, spaceFrom)} `;
          copied = p;
        }
        if (c === GT) break;
        selfClosing = html.charCodeAt(p + 1) === GT;
        p++;
        continue;
      }
      const nameFrom = p;
      while (p < n) {
        const d = html.charCodeAt(p);
        if (d > SPACE ? d === EQUALS || d === GT || d === SLASH || d === LT : isSpace(d)) break;
        p++;
      }
      if (p === nameFrom) p++;
      const attributeNameEnd = p;
      let q = p;
      while (q < n && isSpace(html.charCodeAt(q))) q++;
      let valueFrom = -1;
      let valueTo = -1;
      if (html.charCodeAt(q) === EQUALS) {
        q++;
        while (q < n && isSpace(html.charCodeAt(q))) q++;
        const quote = html.charCodeAt(q);
        if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
          valueFrom = q + 1;
          valueTo = quote === DOUBLE_QUOTE ? this.#find('"', DOUBLE_QUOTE_SOUGHT, valueFrom) : this.#find("'", SINGLE_QUOTE_SOUGHT, valueFrom);
          if (valueTo === -1) return -1;
          p = valueTo + 1;
        } else {
          valueFrom = q;
          for (; q < n; q++) {
            const d = html.charCodeAt(q);
            if (d > SPACE ? d === GT || d === LT : isSpace(d)) break;
          }
          if (q >= n || html.charCodeAt(q) === LT) return -1;
          valueTo = p = q;
        }
      }
      if (attributes !== undefined) {
        const name = html.slice(nameFrom, attributeNameEnd).toLowerCase();
        if (attributeOf(attributes, name) === undefined) attributes.push(name, valueFrom === -1 ? '' : html.slice(valueFrom, valueTo));
      }
      if (ignoredAttribute(html, nameFrom, attributeNameEnd)) {
        // Left out with the whitespace before it.
        tag += html.slice(copied, spaceFrom);
        copied = p;
        continue;
      }
      if (badSpace) {
        tag += `${html.slice(copied, spaceFrom)} `;
        copied = nameFrom;
      }
      if (valueFrom === -1) continue;
      if (valueFrom - attributeNameEnd > 2) {
        // `name = "value"`: whitespace around `=` follows the same rule (rare, so a regex).
        const between = html.slice(attributeNameEnd, valueFrom);
        const stable = between.replace(SPACE_RUN, ' ');
        if (stable !== between) {
          tag += `${html.slice(copied, attributeNameEnd)}${stable}`;
          copied = valueFrom;
        }
      }
      const value = html.slice(valueFrom, valueTo);
      if (VALUE_RULE.test(value)) {
        const stable = valueOf(value);
        if (stable !== value) {
          tag += `${html.slice(copied, valueFrom)}${stable}`;
          copied = valueTo;
        }
      }
    }
    const end = p + 1;
    // Raw text: what follows is text up to the element's end tag (at `#rawTextStart`; the scan goes on at `close`, past it).
    let close = end;
    if (kind !== undefined) {
      if (kind === 'plaintext') close = this.#rawTextStart = n;
      else if (isRawText(kind)) close = this.#rawTextEnd(kind, end);
    }
    if (watcher !== undefined) {
      this.#watchText(textFrom, lt);
      if (watched) watcher.startTag(html.slice(lt + 1, nameEnd).toLowerCase(), attributes ?? NO_ATTRIBUTES, kind === 'title' ? html.slice(end, this.#rawTextStart) : undefined);
    }
    if (this.#skipping !== undefined) {
      if (isName(html, lt + 1, nameEnd, this.#skipping)) this.#depth++;
      return close;
    }
    if (kind !== undefined && (kind === 'script' || kind === 'style')) {
      if (kind === 'script' && /^\s*application\/ld\+json\s*$/i.test(attributeOf(attributes ?? NO_ATTRIBUTES, 'type') ?? '')) {
        // JSON-LD is content: kept as a tag of its own, without `dateModified`.
        this.#text(textFrom, lt);
        this.#tag('<ld>');
        this.#run = jsonLd(html.slice(end, this.#rawTextStart));
        this.#runFrom = this.#runTo;
        this.#tag('</ld>');
        return close;
      }
      this.#text(textFrom, lt);
      return close;
    }
    this.#text(textFrom, lt);
    if (kind !== undefined && droppedElement(kind, attributes ?? NO_ATTRIBUTES)) return end;
    if (selecting && attributes !== undefined) {
      const name = html.slice(lt + 1, nameEnd).toLowerCase();
      if (matchesAny(this.#selectors, name, attributes)) {
        // A raw-text element is skipped whole already (`close` is past its end tag).
        if (!VOID.has(name) && !selfClosing && close === end) {
          this.#skipping = name;
          this.#depth = 1;
        }
        return close;
      }
    }
    if (copied === lt) this.#tagAt(lt, end);
    else this.#tag(tag + html.slice(copied, end));
    if (close !== end) {
      // A title's, textarea's… content is the page's text; the scan goes on at its end tag, read as any.
      this.#text(end, this.#rawTextStart);
      return this.#rawTextStart;
    }
    return end;
  }

  /**
   * Where the raw text of an element starting at `from` ends, past its end tag (`#rawTextStart`: where
   * the end tag starts); the end of the page if never closed. As HTML tokenizes it, the end tag is
   * `</name` followed by whitespace, `/` or `>`, and runs to the next `>`.
   */
  #rawTextEnd(kind: RawText, from: number): number {
    const html = this.#html;
    for (let close = this.#find('</', END_TAG_SOUGHT, from); close !== -1; close = this.#find('</', END_TAG_SOUGHT, close + 2)) {
      const after = close + 2 + kind.length;
      if (!isName(html, close + 2, after, kind)) continue;
      const c = html.charCodeAt(after);
      if (!isSpace(c) && c !== SLASH && c !== GT) continue;
      this.#rawTextStart = close;
      const gt = this.#find('>', GT_SOUGHT, after);
      return gt === -1 ? html.length : gt + 1;
    }
    this.#rawTextStart = html.length;
    return html.length;
  }
}

/**
 * The text the fingerprint hashes: the page with comments, scripts and styles (JSON-LD kept, without
 * `dateModified`), presentational `<link>`s, build-stamp and token `<meta>`s, CSRF fields, the
 * elements `ignoreSelectors` match, build-varying attributes, cache busters and hashed code-asset
 * names taken out, whitespace at tags dropped and runs of it made one space, then `ignorePatterns`
 * taken out of the text between tags. Entities stay as written.
 */
export function contentOf(html: string, rules: FingerprintRules = {}, watcher?: TagWatcher): string {
  const scan = new ContentScan(html, rules, watcher);
  scan.scan();
  return scan.out;
}

/** How the content is hashed: 32 hex digits of Hash128 by default; a caller may give a faster native hash (the same one on every run). */
export type ContentHash = (content: string) => string;

export const hash128: ContentHash = (content) => new Hash128().update(content).digest();

/** The page's content fingerprint. */
export function fingerprintHtml(html: string, rules: FingerprintRules = {}, hash: ContentHash = hash128): string {
  return hash(contentOf(html, rules));
}

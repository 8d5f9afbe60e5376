/**
 * A streaming XML tokenizer specialised for the subset of XML that sitemaps are made of, with
 * `saxes` (a conforming parser) taking over for everything else.
 *
 * The fast path accepts only what it can prove well-formed: ASCII names with at most one prefix,
 * quoted attributes, text and attribute values with the five predefined entities and character
 * references, comments, CDATA, processing instructions and a plain version 1.0 XML declaration. On anything
 * else (a DOCTYPE, an unbound prefix, a stray `&`, a mismatched tag, a second root, truncation…) it
 * hands the rest of the document to saxes at the last token boundary, primed with the start tags
 * still open, and saxes reports the error (or accepts what the fast path merely did not cover).
 * So the events are those of a conforming parser on every input; the differential test proves it.
 */
import { SaxesParser, type SaxesOptions, type SaxesTagNS } from 'saxes';
import { NS } from '../../model/namespaces.ts';
import { positionIn } from './locate.ts';

export interface XmlAttribute {
  /** Namespace URI, '' for an unprefixed attribute. */
  ns: string;
  local: string;
  value: string;
}

export interface XmlName {
  /** Namespace URI, '' for none. */
  readonly ns: string;
  readonly local: string;
}

/**
 * What `EntryContent.kinds[i]` says of `names[i]`: a leaf of the entry, the start or end of a group,
 * a leaf of that group, or an empty element with attributes (`<xhtml:link … />`): its start, each
 * attribute (the name resolved, the value as text), its end.
 */
/**
 * The parts of an entry: leaves and groups of them; `<name a="…"/>` as EmptyStart, its Attributes
 * and EmptyEnd; a leaf with attributes in a group (`<video:price currency="…">text</…>`) as
 * AttributedStart, its Attributes and AttributedText.
 */
export const EntryPart = { Leaf: 0, GroupStart: 1, GroupLeaf: 2, GroupEnd: 3, EmptyStart: 4, Attribute: 5, EmptyEnd: 6, AttributedStart: 7, AttributedText: 8 } as const;
export type EntryPart = (typeof EntryPart)[keyof typeof EntryPart];

/** The content of one entry, in document order; reused from entry to entry, so read it during the call. */
export class EntryContent {
  count = 0;
  readonly kinds: EntryPart[] = [];
  readonly names: XmlName[] = [];
  /** The decoded text of a leaf or an attribute; '' for the start and end of a group or an empty element. */
  readonly texts: string[] = [];
  /**
   * Where each part's text is in the texts handed over with the content (`XmlEvents.entry`): its
   * own index in `texts`, or, for an entry matched by a template, its capture in the match, where
   * the decoded texts are put too. The match is new for each entry: storing a new string into an
   * array that has lived a while costs V8 a slow write barrier, one per text.
   */
  readonly textAt: number[] = [];
  /**
   * Where the text of each leaf and attribute is written in `source`, references not decoded: from
   * `bounds[2 * i]` to `bounds[2 * i + 1]`. What it looks like as written (its ends, a URL's scheme)
   * is read there, in the flat buffer: a decoded text may be a rope, which reading a character of
   * flattens, and a text as matched is a slice, each read of which goes through its parent.
   */
  readonly bounds: number[] = [];
  source = '';
  /** The consumer's own reading of `kinds` and `names`, kept for as long as they stay the same. */
  memo: unknown = undefined;

  push(kind: EntryPart, name: XmlName, text: string): void {
    const i = this.count++;
    this.kinds[i] = kind;
    this.names[i] = name;
    this.texts[i] = text;
    this.textAt[i] = i;
  }
}

export interface XmlPosition {
  line: number;
  column: number;
}

/** What the tokenizer tells its consumer. Text arrives only while `capturing` is true. */
export interface XmlEvents {
  readonly capturing: boolean;
  open(ns: string, local: string, attributes: readonly XmlAttribute[]): void;
  text(text: string): void;
  close(): void;
  /**
   * A whole element `<name>text</name>` with no attributes and nothing but text inside, `text`
   * decoded (possibly ''). Returns true when it took the element exactly as `open`, `text` (if
   * capturing) and `close` would have; false, having changed nothing, to get those events instead.
   */
  leaf(ns: string, local: string, text: string): boolean;
  /** True while a child of the root may be offered whole through `entry`. */
  readonly wantsEntries: boolean;
  /**
   * A whole child of the root, `<name>…</name>`, that holds only attribute-less leaves
   * `<field>text</field>`, groups of leaves (two deep; in a group a leaf may have attributes) and
   * empty elements with attributes (`<link a="…"/>`), with whitespace between: `content` lists
   * them in document order, their texts decoded in `texts` (at `content.textAt`). Returns true when it took the element exactly as the
   * `open`, `text` and `close` events would have; false, having changed nothing, to get those
   * instead.
   */
  entry(name: XmlName, content: EntryContent, texts: readonly (string | undefined)[]): boolean;
  /** A well-formedness error (R2); the reader recovers what it can after it. */
  malformed(message: string, position: XmlPosition): void;
  /** A DOCTYPE: never processed, so its entities are never expanded. */
  doctype(position: XmlPosition): void;
  /** True once the consumer wants nothing more (at its cap on findings): reading ends in the middle of a chunk. */
  readonly stopped: boolean;
  /**
   * How many entries, from the root's first child in, have ended early because the next one
   * opened inside them (every `</url>` missing nests each entry one deeper).
   */
  readonly endedEntries: number;
  /** Forgets the `count` outermost ended entries: the reader makes room at the depth cap, and their end tags, if they come, get no event. */
  forgetEndedEntries(count: number): void;
}

/** Bounds that keep hostile input from exhausting memory (checked on the fast path and after fallback). */
export const MAX_DEPTH = 64;
/** Past this depth reading stops: saxes slows down with the square of the depth, so a few MB of nesting would take minutes. */
export const MAX_PARSED_DEPTH = 1024;
/** Entries the reader forgets at the depth cap (see `#roomToOpen`) at most: a sitemap holds 50,000, each with groups. */
const MAX_FORGOTTEN = 200_000;
export const MAX_TOKEN_CHARS = 8 * 1024 * 1024;

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
/**
 * Characters XML 1.0 does not allow anywhere (§2.2), each one UTF-16 unit: read as U+FFFD, as the
 * decoder reads bytes that are no UTF-8, and each reported where it stands.
 */
const DISALLOWED_CHARS = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Past this many, the rest are replaced without a word (reading stops at the cap on well-formedness errors anyway). */
const MAX_DISALLOWED_CHAR_REPORTS = 100;

const disallowedCharMessage = (text: string, at: number): string =>
  `character U+${text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML; read as U+FFFD`;

/** Whether `chunk` may hold a DISALLOWED_CHARS; when the control characters are known to be absent, native searches rule out the rest. */
function mayHoldDisallowedChar(chunk: string, controlsChecked: boolean): boolean {
  return !controlsChecked || chunk.indexOf('\uFFFE') !== -1 || chunk.indexOf('\uFFFF') !== -1 || !chunk.isWellFormed();
}
/** `<!DOCTYPE name>`, with a system or public identifier or not (XML §2.8), its name ASCII. */
const PLAIN_DOCTYPE =
  /^<!DOCTYPE[ \t\r\n]+[A-Za-z_:][-A-Za-z0-9._:]*(?:[ \t\r\n]+(?:SYSTEM|PUBLIC[ \t\r\n]+(?:"[-'()+,./:=?;!*#@$_%a-zA-Z0-9 \r\n]*"|'[-()+,./:=?;!*#@$_%a-zA-Z0-9 \r\n]*'))[ \t\r\n]+(?:"[^"]*"|'[^']*'))?[ \t\r\n]*>$/;
/** Version 1.0 only: any other 1.x is read by the XML 1.1 rules (other characters, NEL and LS as line ends), which are saxes'. */
const XML_DECL = /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.0\1(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(["'])(?:yes|no)\3)?[ \t\r\n]*\?>/;
const ONLY_WHITESPACE = /^[ \t\r\n]*$/;
/** Declared namespace names are swapped for these constants, so consumers compare them by identity, not by 43 characters. */
const KNOWN_NAMESPACES = new Map<string, string>(Object.values(NS).map((ns) => [ns, ns]));
const PREDEFINED = new Map([['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"]]);

interface Scope {
  readonly prefixes: Map<string, string>;
  readonly parent: Scope | undefined;
}

/** An entry's markup as it was, texts left out: `markup[0]` text `markup[1]` … text `markup[n]`. */
interface EntryTemplate {
  readonly element: OpenElement;
  /** The entry's content with every text to be filled in, at `textSlots`. */
  readonly content: EntryContent;
  /** The markup, literally, and the pattern of each text between (`markup.length` is one more). */
  readonly markup: readonly string[];
  readonly textPatterns: readonly string[];
  readonly textSlots: readonly number[];
  /** Per text, whether it is an element's (a `]` there needs the usual path) rather than an attribute value's (where `]` means itself). */
  readonly inElement: readonly boolean[];
  /** In its set's pattern: the capture of each text, and the empty capture that says this template matched. */
  groups: number[];
  marker: number;
  /** Entries taken with it: the least used makes room for a new one. */
  hits: number;
}

/**
 * The templates of one element as one sticky pattern, their common beginnings merged: an entry is
 * matched once whatever its shape, and one with an image costs no failed match of the plain shape.
 */
interface TemplateSet {
  readonly element: OpenElement;
  readonly pattern: RegExp;
  /** The commonest first, to find which matched. */
  readonly templates: readonly EntryTemplate[];
}

interface OpenElement {
  readonly qname: string;
  /** The raw start tag, replayed to saxes if it takes over. */
  readonly raw: string;
  readonly scope: Scope;
  readonly ns: string;
  readonly local: string;
}

/** The shapes of entry remembered: a urlset has one or two (with and without an image), rarely more. */
const MAX_ENTRY_TEMPLATES = 4;
/** Templates stay in use while they take this many entries for each one scanned, after the first few. */
const TEMPLATE_MIN_HITS_PER_SCAN = 8;
const TEMPLATE_WARMUP = 64;
/** A text anything but markup or a CR (line ends to make LF); a `]` (which could end `]]>`) is looked for once per buffer instead, as a third character here would cost every character of every text. */
const TEMPLATE_TEXT = '[^<\\r]*';
/** An attribute value anything but markup, its quote or whitespace other than a space (which the value would turn into spaces). */
const TEMPLATE_VALUE = { '"': '[^<"\\t\\n\\r]*', "'": "[^<'\\t\\n\\r]*" } as const;
const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
/** Where building a merged pattern is in a template: `markup[part]` at `at`; the text `textPatterns[part]` comes after it. */
interface TemplateCursor {
  readonly template: EntryTemplate;
  part: number;
  at: number;
}

/** What comes next at a cursor: one character of markup, a text's pattern (longer), or '' at the end. */
function nextUnit({ template, part, at }: TemplateCursor): string {
  const literal = template.markup[part] as string;
  if (at < literal.length) return literal[at] as string;
  return part === template.textPatterns.length ? '' : (template.textPatterns[part] as string);
}

/**
 * One sticky pattern for `templates` (of one element): markup they share is written once, and
 * they part in an alternation where they first differ, the first listed tried first. Sets each
 * template's `groups` (its texts' captures) and `marker` (an empty capture at its end).
 */
function mergedPattern(templates: readonly EntryTemplate[]): RegExp {
  let captures = 0;
  const build = (cursors: TemplateCursor[]): string => {
    let source = '';
    for (;;) {
      const unit = nextUnit(cursors[0] as TemplateCursor);
      if (cursors.some((cursor) => nextUnit(cursor) !== unit)) {
        const parting = new Map<string, TemplateCursor[]>();
        for (const cursor of cursors) {
          const key = nextUnit(cursor);
          const same = parting.get(key);
          if (same === undefined) parting.set(key, [cursor]);
          else same.push(cursor);
        }
        // Built in order, so the captures are numbered as they appear.
        const alternatives: string[] = [];
        for (const same of parting.values()) alternatives.push(build(same));
        return `${source}(?:${alternatives.join('|')})`;
      }
      if (unit === '') {
        captures++;
        for (const cursor of cursors) cursor.template.marker = captures;
        return `${source}()`;
      }
      if (unit.length > 1) {
        captures++;
        source += `(${unit})`;
        for (const cursor of cursors) {
          cursor.template.groups.push(captures);
          cursor.part++;
          cursor.at = 0;
        }
        continue;
      }
      // The longest run of markup they all share from here.
      const first = cursors[0] as TemplateCursor;
      const literal = first.template.markup[first.part] as string;
      let end = first.at + 1;
      while (end < literal.length && cursors.every((cursor) => cursor.template.markup[cursor.part]?.charCodeAt(cursor.at + end - first.at) === literal.charCodeAt(end))) end++;
      const run = end - first.at;
      source += escapeRegExp(literal.slice(first.at, end));
      for (const cursor of cursors) cursor.at += run;
    }
  };
  for (const template of templates) template.groups = [];
  return new RegExp(build(templates.map((template) => ({ template, part: 0, at: 0 }))), 'y');
}

/** Groups in an entry nest this deep at most (`<news:news><news:publication>`). */
const MAX_ENTRY_GROUP_DEPTH = 2;
/** An entry cut by a chunk's end is awaited whole up to this long; a longer one goes tag by tag. */
const MAX_AWAITED_ENTRY_CHARS = 64 * 1024;
/** Any other token still open at a chunk's end waits for what can end it once it is this long: shorter ones cost little to join again. */
const MIN_AWAITED_TOKEN_CHARS = 4 * 1024;
/** The longest pause between tries of the whole-entry path after it was declined. */
const MAX_ENTRY_SKIPS = 256;
/**
 * Distinct element names a sitemap uses are few: slots keyed by a name's first two characters. The
 * names of one extension share their prefix (`video:` has 21 of them), so a slot holds that many.
 */
const INTERNED_SLOTS = 256;
const INTERNED_PER_SLOT = 24;
const internSlot = (first: number, second: number): number => (first * 31 + second) & (INTERNED_SLOTS - 1);

const ROOT_SCOPE: Scope = { prefixes: new Map([['xml', XML_NS], ['xmlns', XMLNS_NS]]), parent: undefined };

function lookup(scope: Scope | undefined, prefix: string): string | undefined {
  for (let s = scope; s !== undefined; s = s.parent) {
    const ns = s.prefixes.get(prefix);
    if (ns !== undefined) return ns;
  }
  return undefined;
}

const Char = {
  Tab: 9,
  LineFeed: 10,
  Return: 13,
  Space: 32,
  Bang: 33,
  Quote: 34,
  Apostrophe: 39,
  Hyphen: 45,
  Dot: 46,
  Slash: 47,
  Digit0: 48,
  Digit9: 57,
  Colon: 58,
  Less: 60,
  Equals: 61,
  Greater: 62,
  Question: 63,
  UpperA: 65,
  UpperZ: 90,
  Underscore: 95,
  LowerA: 97,
  LowerZ: 122,
} as const;

/** `buffer.startsWith(name, at)` for the short names of tags, without the call into the runtime. */
function matchesAt(buffer: string, at: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if (buffer.charCodeAt(at + k) !== name.charCodeAt(k)) return false;
  return true;
}

function indexOrLength(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? text.length : at;
}

const isSpace = (c: number): boolean => c === Char.Space || c === Char.LineFeed || c === Char.Tab || c === Char.Return;
const isNameStart = (c: number): boolean => (c >= Char.LowerA && c <= Char.LowerZ) || (c >= Char.UpperA && c <= Char.UpperZ) || c === Char.Underscore;
const isNameChar = (c: number): boolean =>
  isNameStart(c) || (c >= Char.Digit0 && c <= Char.Digit9) || c === Char.Hyphen || c === Char.Dot || c === Char.Colon;

/** A numeric reference to a character XML allows (§2.2), or undefined. */
function referencedChar(code: number): string | undefined {
  const allowed =
    code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
  return allowed ? String.fromCodePoint(code) : undefined;
}

/** Replaces the predefined entities and character references; undefined when any `&` is not one of those. */
export function decodeEntities(text: string): string | undefined {
  return decode(text, false, text.indexOf('&'));
}

/** An attribute value as written, decoded, if nothing in it needs more than a look: no `<`, no tab, LF or CR (§3.3.3 would make them spaces), only valid references. */
function attributeValueOnSight(raw: string): string | undefined {
  for (let k = 0; k < raw.length; k++) {
    const c = raw.charCodeAt(k);
    if (c === Char.Less || c === Char.Tab || c === Char.LineFeed || c === Char.Return) return undefined;
  }
  return raw.indexOf('&') === -1 ? raw : decodeEntities(raw);
}

/** Where the first `&` in `text` that starts no reference `decode` reads is, or -1. */
function bareAmpersand(text: string): number {
  for (let amp = text.indexOf('&'); amp !== -1; amp = text.indexOf('&', amp + 1)) {
    const semicolon = referenceEnd(text, amp);
    if (semicolon === -1 || resolveReference(text.slice(amp + 1, semicolon)) === undefined) return amp;
  }
  return -1;
}

/** Like `decodeEntities`, but an `&` that starts no valid reference stays a literal `&`. */
function decodeEntitiesLeniently(text: string): string {
  return decode(text, true, text.indexOf('&')) as string;
}

/**
 * Whether an `&amp;` starts at `amp` in `buffer`. A text the whole-entry path matched is followed by
 * `<` or its quote, so the five characters are the text's own when they match.
 */
const isAmpReferenceAt = (buffer: string, amp: number): boolean =>
  buffer.charCodeAt(amp + 1) === 97 /* a */ && buffer.charCodeAt(amp + 2) === 109 /* m */ && buffer.charCodeAt(amp + 3) === 112 /* p */ && buffer.charCodeAt(amp + 4) === 59; /* ; */

/** A hand loop rather than a regex replace: `&amp;` in every URL with a query makes this hot. */
/** The text with its references replaced, from `first`, where its first `&` is (-1 for none). */
function decode(text: string, lenient: boolean, first: number): string | undefined {
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
  if (text.charCodeAt(i) === 35 /* # */) {
    const hex = text.charCodeAt(++i) === 120; /* x */
    if (hex) i++;
    const start = i;
    while (hex ? isHexDigit(text.charCodeAt(i)) : isDigit(text.charCodeAt(i))) i++;
    if (i === start) return -1;
  } else {
    while (i - amp <= 4 && isAsciiLetter(text.charCodeAt(i))) i++;
  }
  return text.charCodeAt(i) === 59 /* ; */ ? i : -1;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function resolveReference(name: string): string | undefined {
  const predefined = PREDEFINED.get(name);
  if (predefined !== undefined) return predefined;
  if (name.charCodeAt(0) !== 35 /* # */) return undefined;
  const hex = name.charCodeAt(1) === 120; /* x */
  const digits = name.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9A-Fa-f]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  return referencedChar(Number.parseInt(digits, hex ? 16 : 10));
}

/** A short excerpt around the first `&` (or the one at `index`), for messages. */
function clipAround(text: string, ampersand = '&', index = text.indexOf(ampersand)): string {
  const at = Math.max(0, index - 20);
  return JSON.stringify(text.slice(at, at + 40).replaceAll(ampersand, '&'));
}

const lastChars = (text: string, n: number): string => (n === 0 ? '' : text.slice(-n));

/** Whether `text` between `from` and `to` holds a `<`, `>` or quote: a text or attribute value ends at each. */
function hasMarkupOrQuote(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === Char.Less || c === Char.Greater || c === Char.Quote || c === Char.Apostrophe) return true;
  }
  return false;
}

/** XML §2.11: CRLF and lone CR become LF before anything else sees the text. */
const normalizeNewlines = (text: string): string => (text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n'));

export class XmlTokenizer {
  readonly #events: XmlEvents;
  #buffer = '';
  #pos = 0;
  /** Offset of `#buffer` in the whole document, for positions. */
  #bufferOffset = 0;
  #stack: OpenElement[] = [];
  /** The document's outermost scope: besides `xml`, the prefixes it uses without declaring them (#assumePrefix). */
  readonly #rootScope: Scope = { prefixes: new Map(ROOT_SCOPE.prefixes), parent: undefined };
  #scope: Scope = this.#rootScope;
  readonly #internedNames: (OpenElement[] | undefined)[] = new Array<OpenElement[] | undefined>(INTERNED_SLOTS).fill(undefined);
  #rootClosed = false;
  /**
   * The names of the elements dropped from the stack at the depth cap (`#roomToOpen`), outermost
   * first. Should their end tags come after all, once only the root is open, they are taken silently.
   */
  readonly #forgotten: string[] = [];
  /** The innermost open element has had no child element yet (a misspelt end tag there is most likely its own). */
  #innermostHoldsOnlyText = false;
  /** ...and it has had text that is not whitespace (a field, not a container whose first child is to come). */
  #innermostHasText = false;
  #doctypeSeen = false;
  readonly #entryContent = new EntryContent();
  /** Where the text of each part (a leaf's, an attribute's value) starts and ends in the entry `#scanEntry` saw last, two per part. */
  readonly #entryTemplates: EntryTemplate[] = [];
  #templateSets: TemplateSet[] = [];
  /** Entries taken by a template, and entries scanned tag by tag (each teaching a template). */
  #templateHits = 0;
  #entryScans = 0;
  /** Consecutive children of the root `entry` declined, and how many to skip before trying again. */
  #entryMisses = 0;
  #entrySkips = 0;
  /** Where the entry awaited whole starts in the document (-1 for none), and how far its end tag was looked for. */
  #entryAwaitedAt = -1;
  #entrySearchedTo = 0;
  /** Where the entry no longer awaited starts (a finding came after it was cut): it goes tag by tag. */
  #entryGivenUpAt = -1;
  /**
   * For the awaited entry, or a long token still open (`#tokenAwaited`): what ends it, the last
   * characters it has (that end may be cut), its length so far and how long it may get, and input
   * kept aside.
   */
  #awaitedEndTag = '';
  /** Where in the chunk just looked at (#keepsForAwaited) the awaited entry's end tag ends, or -1. */
  #awaitedEndsAt = -1;
  #awaitedTail = '';
  #awaitedLength = 0;
  #awaitedLimit = MAX_AWAITED_ENTRY_CHARS;
  #tokenAwaited = false;
  /** In an awaited tag: the quote of the value it is in (0: none). */
  #awaitedQuote = 0;
  readonly #keptChunks: string[] = [];
  /** `end()` has been called: nothing more will come to wait for. */
  #ending = false;
  #atDocumentStart = true;
  #pendingText = '';
  /** Where the pending text starts: its line ends are counted by the time it is whole. */
  #pendingTextAt: XmlPosition = { line: 1, column: 1 };
  // Where the next `&`, CR and `]` are in the buffer (its length when there is none): text that holds
  // none of them needs no decoding and no check, and each is searched for once, not once per text.
  #nextAmpersand = -1;
  #nextReturn = -1;
  #nextBracket = -1;
  #saxes: SaxesParser<{ xmlns: true; position: true }> | undefined;
  /** Where saxes started, to map its positions back to the document's. */
  #saxesOrigin = { line: 1, column: 0, primed: 0 };
  #saxesPriming = false;
  /** While saxes' start tag is handed on: where its `<` is, as the fast path gives it. */
  #saxesTagAt: XmlPosition | undefined;
  /** Prefixes saxes found undeclared: their names read as the fast path reads them (assumedNamespace). */
  readonly #saxesUnbound = new Set<string>();
  /** saxes' line and column where its last markup ended: where a text starts. */
  #saxesTextLine = 1;
  #saxesTextColumn = 0;
  #saxesTextOffset = 0;
  /** How many characters the text since then has after its last line end (-1: none in it). */
  #saxesTextTail = -1;
  /**
   * Bare `&`s given to saxes, in order: where each stands, and how far saxes had read before it. The
   * first of each text or attribute value holding any is among them (#toSaxesPlacing): the text or
   * attribute is reported there.
   */
  readonly #saxesAmpersands: { offset: number; at: XmlPosition }[] = [];
  /** A `<`, `>` or quote has been given to saxes since the last bare `&` placed: the next one is in another text or value. */
  #saxesNewValue = true;
  /** How far saxes had read when the start tag it is reading, or its last attribute, ended: the next attribute starts after. */
  #saxesAttributeFrom = 0;
  /** Of #saxesAmpersands, how many lie before that. */
  #saxesAmpersandsSeen = 0;
  /** Where the first bare `&` of each attribute of that tag holding one stands, by its name as written. */
  readonly #saxesAttributeAmpersands = new Map<string, XmlPosition>();
  /** Input held back from saxes (UNDECIDED_AMPERSAND), as it came: a long reference cut small is not joined again on every write. */
  readonly #saxesHeld: string[] = [];
  /** Characters given to saxes, and where in them a U+FFFF stands for the document's own U+FDD0 (OWN_MARK_CHAR). */
  #saxesWritten = 0;
  /** saxes reads by XML 1.1's rules (the document declares a version other than 1.0). */
  #xml11 = false;
  /** The last character given to saxes was a CR, which it holds until it sees whether an LF follows. */
  #saxesCarriesReturn = false;
  readonly #ownMarks: number[] = [];
  #ownMarksPassed = 0;
  /** An OWN_MARK_CHAR may be in what saxes hands on (the document's U+FDD0, or a reference to it). */
  #ownMarksUsed = false;
  #saxesDepth = 0;
  /** Of `#saxesDepth`, the levels of entries forgotten at the depth cap: saxes has them open, the consumer does not. */
  #saxesForgotten = 0;
  #tooDeep = false;
  #abandoned = false;
  /** Characters written to the fast path so far. */
  #written = 0;
  #disallowedReports = 0;
  // Line counting is incremental and lazy: positions are needed only for diagnostics and records.
  #lineCountedTo = 0;
  #line = 1;
  #lineStart = 0;
  /** Where the next CR is from where line counting has got to (the buffer's length when there is none). */
  #nextCountedReturn = -1;
  /** The last character counted was a CR at the end of the buffer, whose LF (if any) had not arrived. */
  #countedReturnLast = false;
  /** #positionAhead's count: how far it got, and the line, its start and whether a CR ended the text there. */
  #aheadTo = 0;
  #aheadLine = 1;
  #aheadLineStart = 0;
  #aheadAfterReturn = false;

  constructor(events: XmlEvents) {
    this.#events = events;
  }

  /** True once reading has stopped for good (nesting past MAX_PARSED_DEPTH, or the consumer stopped it): what is written after is not read. */
  get stopped(): boolean {
    return this.#abandoned;
  }

  /** Feeds the next piece of decoded text; `controlsChecked` when the caller has made sure it holds no C0 control but tab, LF and CR. */
  write(chunk: string, controlsChecked = false): void {
    if (this.#abandoned) return;
    if (this.#saxes !== undefined) {
      this.#writeSaxes(chunk);
      return;
    }
    if (!mayHoldDisallowedChar(chunk, controlsChecked)) {
      this.#write(chunk);
      return;
    }
    const clean = chunk.replace(DISALLOWED_CHARS, '\uFFFD');
    if (clean === chunk || this.#disallowedReports >= MAX_DISALLOWED_CHAR_REPORTS) {
      this.#write(clean);
      return;
    }
    // Written in pieces, each report made once all before it is written: the findings come in the same order however the input was cut.
    let from = 0;
    DISALLOWED_CHARS.lastIndex = 0;
    for (let match = DISALLOWED_CHARS.exec(chunk); match !== null && this.#disallowedReports < MAX_DISALLOWED_CHAR_REPORTS; match = DISALLOWED_CHARS.exec(chunk)) {
      if (match.index > from) this.#write(clean.slice(from, match.index));
      from = match.index;
      this.#readKept();
      if (this.#abandoned) return;
      if (this.#saxes !== undefined) break;
      this.#disallowedReports++;
      this.#events.malformed(disallowedCharMessage(chunk, match.index), this.#positionAhead());
    }
    if (this.#saxes !== undefined) this.#writeSaxes(chunk.slice(from));
    else this.#write(clean.slice(from));
  }

  /** A chunk free of disallowed characters, on the fast path. */
  #write(chunk: string): void {
    this.#written += chunk.length;
    if (this.#entryAwaitedAt !== -1 || this.#tokenAwaited) {
      if (this.#keepsForAwaited(chunk)) return;
      // The awaited entry ends in this chunk: read up to its end first, then the rest on its own.
      // Joined whole to the entry's start, the chunk would be copied; this way only the entry's end is.
      const end = this.#awaitedEndsAt;
      if (end > 0 && end < chunk.length) {
        this.#read(chunk.slice(0, end));
        if (this.#abandoned) return;
        if (this.#saxes !== undefined) this.#writeSaxes(chunk.slice(end));
        else this.#read(chunk, end);
        return;
      }
    }
    this.#read(chunk);
  }

  /**
   * Reads what is kept aside for an awaited entry or token before a finding is placed after it: read
   * whole, the token could have been judged (handed to saxes, say) before that finding, and the
   * entry's own findings, which come before it in the document, would come after it. The entry
   * goes tag by tag from there, as one too long to wait for does, whichever way the input was cut.
   */
  #readKept(): void {
    if (this.#saxes !== undefined) return;
    if (this.#entryAwaitedAt !== -1) {
      this.#entryGivenUpAt = this.#entryAwaitedAt;
      this.#entryAwaitedAt = -1;
      this.#read('');
    } else if (this.#tokenAwaited) {
      this.#read('');
    }
  }

  /** Reads `chunk` from `from` on (what is before was read already). */
  #read(chunk: string, from = 0): void {
    this.#tokenAwaited = false;
    this.#countLines(this.#bufferOffset + this.#pos);
    this.#bufferOffset += this.#pos;
    if (this.#pos === this.#buffer.length && this.#keptChunks.length === 0) {
      // Read in place, not sliced: every character read from a slice takes a detour.
      this.#buffer = chunk;
      this.#bufferOffset -= from;
      this.#pos = from;
    } else {
      // Joined, not concatenated: `+` makes a rope, and every character read from a rope takes a detour.
      this.#buffer = [this.#buffer.slice(this.#pos), ...this.#keptChunks, from === 0 ? chunk : chunk.slice(from)].join('');
      this.#pos = 0;
    }
    this.#keptChunks.length = 0;
    this.#nextCountedReturn = -1;
    this.#nextAmpersand = -1;
    this.#nextReturn = -1;
    this.#nextBracket = -1;
    this.#run();
    if (this.#saxes === undefined && (this.#buffer.length - this.#pos > MAX_TOKEN_CHARS || this.#pendingText.length > MAX_TOKEN_CHARS)) {
      this.#fallback(this.#buffer.slice(this.#pos));
    } else if (this.#saxes === undefined && this.#entryAwaitedAt === -1 && this.#buffer.length - this.#pos > MIN_AWAITED_TOKEN_CHARS) {
      this.#awaitToken();
    }
  }

  /**
   * A long token still open at the buffer's end (a comment, a tag with a long value…) waits as an
   * awaited entry does: input cut small would otherwise copy the token again on every write.
   */
  #awaitToken(): void {
    const buffer = this.#buffer;
    const pos = this.#pos;
    // Only this can end it: in a tag, a `>` outside the quotes of its values.
    this.#awaitedEndTag = buffer.startsWith('<!--', pos) ? '-->' : buffer.startsWith('<![CDATA[', pos) ? ']]>' : buffer.startsWith('<?', pos) ? '?>' : '>';
    if (this.#awaitedEndTag === '>') {
      this.#awaitedQuote = 0;
      // A tag that stopped short of its end has none yet; if one is there after all, waiting would not help.
      if (this.#unquotedGreater(buffer, pos)) return;
    }
    this.#awaitedTail = lastChars(buffer, this.#awaitedEndTag.length - 1);
    this.#awaitedLength = buffer.length - pos;
    this.#awaitedLimit = MAX_TOKEN_CHARS;
    this.#tokenAwaited = true;
  }

  /** Ends the document: anything unfinished is an error that saxes names. */
  end(): void {
    if (this.#abandoned) return;
    this.#ending = true;
    // An entry awaited whole will not be: what there is of it goes tag by tag, as it would have without the wait.
    if (this.#saxes === undefined && (this.#entryAwaitedAt !== -1 || this.#tokenAwaited)) {
      this.#buffer = [this.#buffer, ...this.#keptChunks].join('');
      this.#keptChunks.length = 0;
      this.#tokenAwaited = false;
      // What was found next in the shorter buffer (its length when nothing) no longer holds.
      this.#nextCountedReturn = -1;
      this.#nextAmpersand = -1;
      this.#nextReturn = -1;
      this.#nextBracket = -1;
      this.#run();
    }
    if (this.#saxes === undefined) {
      const rest = this.#buffer.slice(this.#pos);
      if (this.#rootClosed && this.#pendingText === '' && ONLY_WHITESPACE.test(rest)) return;
      this.#fallback(rest);
    }
    this.#closeSaxes();
  }

  /** Line and column (1-based) of the token being handled. */
  position(): XmlPosition {
    if (this.#saxes !== undefined) return this.#saxesTagAt ?? this.#saxesPosition();
    return this.#positionAt(this.#bufferOffset + this.#pos);
  }

  /** The text held from the token being handled on (an entry taken whole is all there); none once saxes reads. */
  heldFromToken(): string | undefined {
    return this.#saxes === undefined ? this.#buffer.slice(this.#pos) : undefined;
  }

  /** Line and column (1-based) where the next character written will be. */
  writtenTo(): XmlPosition {
    this.#readKept();
    if (this.#saxes === undefined) return this.#positionAhead();
    const saxes = this.#saxes;
    // saxes keeps a CR at a write's end until it sees what follows: here, a line end.
    return this.#saxesCarriesReturn ? this.#saxesPositionAt(saxes.line + 1, 0) : this.#saxesPosition();
  }

  /**
   * Line and column at the end of all that was written, counted without moving the line count on:
   * a token still open there may yet need positions before it. The count ahead goes on from where it
   * last got to, so reports in a long open token do not each count it again.
   */
  #positionAhead(): XmlPosition {
    if (this.#aheadTo < this.#lineCountedTo) {
      this.#aheadTo = this.#lineCountedTo;
      this.#aheadLine = this.#line;
      this.#aheadLineStart = this.#lineStart;
      // A CR just before is part of the count only when #countLines counted it (then its LF is not).
      this.#aheadAfterReturn = this.#countedReturnLast;
    }
    this.#countAhead(this.#buffer, this.#bufferOffset);
    let start = this.#bufferOffset + this.#buffer.length;
    for (const kept of this.#keptChunks) {
      this.#countAhead(kept, start);
      start += kept.length;
    }
    return { line: this.#aheadLine, column: this.#written - this.#aheadLineStart + 1 };
  }

  /** Counts the line ends of `text`, which starts at offset `start`, past #aheadTo: a CR ends a line, and so does an LF not just after one. */
  #countAhead(text: string, start: number): void {
    const from = this.#aheadTo - start;
    if (from >= text.length) return;
    for (let i = text.indexOf('\n', Math.max(from, 0)); i !== -1; i = text.indexOf('\n', i + 1)) {
      if (i === from ? !this.#aheadAfterReturn : text.charCodeAt(i - 1) !== Char.Return) this.#aheadLine++;
      this.#aheadLineStart = Math.max(this.#aheadLineStart, start + i + 1);
    }
    for (let i = text.indexOf('\r', Math.max(from, 0)); i !== -1; i = text.indexOf('\r', i + 1)) {
      this.#aheadLine++;
      this.#aheadLineStart = Math.max(this.#aheadLineStart, start + i + 1);
    }
    this.#aheadAfterReturn = text.charCodeAt(text.length - 1) === Char.Return;
    this.#aheadTo = start + text.length;
  }

  #positionAt(offset: number): XmlPosition {
    this.#countLines(offset);
    return { line: this.#line, column: offset - this.#lineStart + 1 };
  }

  /**
   * Counts the line ends of the current buffer up to `offset`; every part of the document is counted
   * once, as it passes. A line ends at LF, CRLF or a lone CR (§2.11), as saxes counts them.
   */
  #countLines(offset: number): void {
    const buffer = this.#buffer;
    const from = this.#lineCountedTo - this.#bufferOffset;
    const to = offset - this.#bufferOffset;
    if (to <= from) return;
    let lastEnd = -1;
    for (let i = buffer.indexOf('\n', from); i !== -1 && i < to; i = buffer.indexOf('\n', i + 1)) {
      // The LF of a CRLF cut by a chunk end: its CR, the last character counted, ended the line.
      if (!(i === from && this.#countedReturnLast)) this.#line++;
      lastEnd = i;
    }
    // Counting goes forward through the buffer: the next CR is searched for once, not once per call.
    if (this.#nextCountedReturn < from) this.#nextCountedReturn = indexOrLength(buffer, '\r', from);
    for (; this.#nextCountedReturn < to; this.#nextCountedReturn = indexOrLength(buffer, '\r', this.#nextCountedReturn + 1)) {
      const i = this.#nextCountedReturn;
      if (buffer.charCodeAt(i + 1) !== Char.LineFeed) this.#line++;
      if (i > lastEnd) lastEnd = i;
    }
    if (lastEnd !== -1) this.#lineStart = this.#bufferOffset + lastEnd + 1;
    this.#countedReturnLast = to === buffer.length && buffer.charCodeAt(to - 1) === Char.Return;
    this.#lineCountedTo = offset;
  }

  #run(): void {
    const buffer = this.#buffer;
    const events = this.#events;
    let pos = this.#pos;
    while (pos < buffer.length) {
      // Tags mostly follow tags: look at the next character before searching.
      const lt = buffer.charCodeAt(pos) === Char.Less ? pos : buffer.indexOf('<', pos);
      if (lt === -1) {
        // Text runs on into the next chunk; keep what is captured, check the rest when it ends.
        if (!this.#text(pos, buffer.length, false)) return;
        pos = buffer.length;
        break;
      }
      if ((lt > pos || this.#pendingText !== '') && !this.#text(pos, lt, true)) return;
      this.#pos = lt;
      const next = buffer.charCodeAt(lt + 1);
      let end: number;
      if (next === Char.Slash) end = this.#closeTag(lt);
      else if (next === Char.Bang) end = this.#bang(lt);
      else if (next === Char.Question) end = this.#processingInstruction(lt);
      else end = this.#startTag(lt, events);
      if (end === INCOMPLETE) return;
      if (end === FOREIGN) {
        this.#fallback(buffer.slice(lt));
        return;
      }
      this.#atDocumentStart = false;
      pos = end;
    }
    this.#pos = pos;
  }

  /** Text between markup; `complete` when a `<` ends it. Returns false when saxes took over. */
  #text(start: number, end: number, complete: boolean): boolean {
    if (complete && this.#pendingText === '' && this.#stack.length > 0 && this.#plain(start, end)) {
      const capturing = this.#events.capturing;
      if (capturing || (this.#innermostHoldsOnlyText && !this.#innermostHasText)) {
        const text = this.#buffer.slice(start, end);
        this.#noteText(text);
        if (capturing) this.#events.text(text);
      }
      return true;
    }
    const raw = this.#buffer.slice(start, end);
    if (!complete) {
      // A text run split across chunks is judged whole; hold it until its end arrives.
      if (this.#pendingText === '') this.#pendingTextAt = this.#positionAt(this.#bufferOffset + start);
      this.#pendingText += raw;
      this.#pos = end;
      return true;
    }
    // Findings in a text are placed from its start, wherever the chunks were cut (counted only when needed).
    const pendingAt = this.#pendingText === '' ? undefined : this.#pendingTextAt;
    const whole = this.#pendingText === '' ? raw : this.#pendingText + raw;
    this.#pendingText = '';
    if (this.#stack.length === 0) {
      if (!ONLY_WHITESPACE.test(whole)) {
        this.#fallback(whole + this.#buffer.slice(end), pendingAt ?? this.#positionAt(this.#bufferOffset + start));
        return false;
      }
      this.#atDocumentStart = false;
      return true;
    }
    // One-character searches are the fast ones; `]` is rare in text. Before the references: saxes reports a bare `&` in it too.
    if (whole.indexOf(']') !== -1 && whole.indexOf(']]>') !== -1) {
      this.#fallback(whole + this.#buffer.slice(end), pendingAt ?? this.#positionAt(this.#bufferOffset + start));
      return false;
    }
    // Line ends first: a character reference to CR (`&#13;`) is a CR, not a line end.
    let text = normalizeNewlines(whole);
    if (text.indexOf('&') !== -1) {
      const decoded = decodeEntities(text);
      if (decoded === undefined) {
        // The commonest breakage in the wild: a bare `&` in a URL. Read it literally and go on.
        // Placed at the `&` from the text's start: its line ends are the document's, one LF for each.
        const bare = bareAmpersand(text);
        const at = positionIn(text, bare, pendingAt ?? this.#positionAt(this.#bufferOffset + start));
        this.#events.malformed(`"&" that starts no entity reference (${clipAround(text, '&', bare)}); read literally, write &amp;`, at);
        text = decodeEntitiesLeniently(text);
      } else {
        text = decoded;
      }
    }
    this.#noteText(text);
    if (this.#events.capturing) this.#events.text(text);
    return true;
  }

  /** The buffer's text from `start` to `end` holds no `&`, CR or `]`: it is its own value and well-formed. */
  #plain(start: number, end: number): boolean {
    const buffer = this.#buffer;
    if (this.#nextAmpersand < start) this.#nextAmpersand = indexOrLength(buffer, '&', start);
    if (this.#nextAmpersand < end) return false;
    if (this.#nextReturn < start) this.#nextReturn = indexOrLength(buffer, '\r', start);
    if (this.#nextReturn < end) return false;
    if (this.#nextBracket < start) this.#nextBracket = indexOrLength(buffer, ']', start);
    return this.#nextBracket >= end;
  }

  #startTag(lt: number, events: XmlEvents): number {
    const buffer = this.#buffer;
    if (this.#rootClosed) return FOREIGN;
    // The common case, `<name>` seen before in this scope: matched in place, no slice, no lookup, no allocation.
    const known = this.#seen(lt);
    if (known !== undefined) {
      if (!this.#roomToOpen()) return FOREIGN;
      const end = lt + 2 + known.qname.length;
      if (this.#stack.length === 1 && events.wantsEntries) {
        if (this.#entrySkips > 0) this.#entrySkips--;
        else {
          const entryEnd = this.#entry(known, lt, events);
          if (entryEnd === INCOMPLETE) return INCOMPLETE;
          if (entryEnd !== NOT_WHOLE) {
            this.#entryMisses = 0;
            return entryEnd;
          }
          // Entries this path cannot take tend to come in runs: back off, so they cost little more than the usual path.
          this.#entrySkips = Math.min(2 ** this.#entryMisses++ - 1, MAX_ENTRY_SKIPS);
        }
      }
      const leafEnd = this.#leaf(known, end, events);
      if (leafEnd !== -1) return leafEnd;
      events.open(known.ns, known.local, NO_ATTRIBUTES);
      this.#stack.push(known);
      this.#innermostHoldsOnlyText = true;
      this.#innermostHasText = false;
      return end;
    }
    const slot = internSlot(buffer.charCodeAt(lt + 1), buffer.charCodeAt(lt + 2));
    let i = lt + 1;
    if (!isNameStart(buffer.charCodeAt(i))) return i >= buffer.length ? INCOMPLETE : FOREIGN;
    while (isNameChar(buffer.charCodeAt(i))) i++;
    if (i >= buffer.length) return INCOMPLETE;
    const qname = buffer.slice(lt + 1, i);
    if (buffer.charCodeAt(i) === Char.Greater) {
      const element = this.#intern(slot, qname);
      if (element === undefined || !this.#roomToOpen()) return FOREIGN;
      events.open(element.ns, element.local, NO_ATTRIBUTES);
      this.#stack.push(element);
      this.#innermostHoldsOnlyText = true;
      this.#innermostHasText = false;
      return i + 1;
    }
    let attributes: { qname: string; value: string }[] | undefined;
    let qnames: Set<string> | undefined;
    /** Each bare `&`'s message, and where it stands in the buffer. */
    let bareAmpersands: { message: string; at: number }[] | undefined;
    let selfClosing = false;
    for (;;) {
      const afterName = i;
      while (isSpace(buffer.charCodeAt(i))) i++;
      if (i >= buffer.length) return INCOMPLETE;
      const c = buffer.charCodeAt(i);
      if (c === Char.Greater) {
        i++;
        break;
      }
      if (c === Char.Slash) {
        if (i + 1 >= buffer.length) return INCOMPLETE;
        if (buffer.charCodeAt(i + 1) !== Char.Greater) return FOREIGN;
        selfClosing = true;
        i += 2;
        break;
      }
      if (i === afterName || !isNameStart(c)) return FOREIGN;
      const nameStart = i;
      while (isNameChar(buffer.charCodeAt(i))) i++;
      const name = buffer.slice(nameStart, i);
      while (isSpace(buffer.charCodeAt(i))) i++;
      if (i >= buffer.length) return INCOMPLETE;
      if (buffer.charCodeAt(i) !== Char.Equals) return FOREIGN;
      i++;
      while (isSpace(buffer.charCodeAt(i))) i++;
      if (i >= buffer.length) return INCOMPLETE;
      const quote = buffer.charCodeAt(i);
      if (quote !== Char.Quote && quote !== Char.Apostrophe) return FOREIGN;
      const close = buffer.indexOf(quote === Char.Quote ? '"' : "'", i + 1);
      if (close === -1) return INCOMPLETE;
      let value = buffer.slice(i + 1, close);
      if (value.indexOf('<') !== -1) return FOREIGN;
      // §3.3.3: literal whitespace becomes a space; references are expanded after, and kept as they are.
      value = value.replace(/\r\n|[\t\n\r]/g, ' ');
      if (value.indexOf('&') !== -1) {
        const decoded = decodeEntities(value);
        if (decoded === undefined) {
          // Said once the tag is whole: a tag cut by a chunk end is read again, and would say it again.
          const bare = bareAmpersand(value);
          // Whitespace made spaces keeps its length but for a CRLF (one space): the raw value tells where the `&` is.
          const at = i + 1 + bareAmpersand(buffer.slice(i + 1, close));
          (bareAmpersands ??= []).push({ message: `"&" that starts no entity reference in an attribute (${clipAround(value, '&', bare)}); read literally, write &amp;`, at });
          value = decodeEntitiesLeniently(value);
        } else {
          value = decoded;
        }
      }
      attributes ??= [];
      // A tag may hold thousands: past a few, a set keeps the check for duplicates linear.
      if (attributes.length < FEW_ATTRIBUTES ? attributes.some((attribute) => attribute.qname === name) : (qnames ??= new Set(attributes.map((attribute) => attribute.qname))).has(name)) return FOREIGN;
      attributes.push({ qname: name, value });
      qnames?.add(name);
      i = close + 1;
    }
    if (!this.#roomToOpen()) return FOREIGN;

    let scope = this.#scope;
    if (attributes !== undefined) {
      let declared: Map<string, string> | undefined;
      for (const { qname: name, value } of attributes) {
        // saxes trims namespace names (and then judges what is left); such declarations are its to read.
        if ((name === 'xmlns' || name.startsWith('xmlns:')) && value !== value.trim()) return FOREIGN;
        if (name === 'xmlns') {
          if (value === XML_NS || value === XMLNS_NS) return FOREIGN;
          (declared ??= new Map()).set('', KNOWN_NAMESPACES.get(value) ?? value);
        } else if (name.startsWith('xmlns:')) {
          const prefix = name.slice(6);
          // Undeclaring a prefix, binding the reserved ones, or a malformed QName: saxes decides.
          if (value === '' || prefix === '' || prefix === 'xmlns' || prefix.indexOf(':') !== -1 || (prefix === 'xml') !== (value === XML_NS) || value === XMLNS_NS) return FOREIGN;
          (declared ??= new Map()).set(prefix, KNOWN_NAMESPACES.get(value) ?? value);
        }
      }
      if (declared !== undefined) scope = { prefixes: declared, parent: scope };
    }
    const element = this.#resolve(qname, scope, true);
    if (element === undefined) return FOREIGN;
    let resolved: readonly XmlAttribute[] = NO_ATTRIBUTES;
    if (attributes !== undefined) {
      const list: XmlAttribute[] = [];
      resolved = list;
      let expanded: Set<string> | undefined;
      for (const { qname: name, value } of attributes) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
        const attribute = this.#resolve(name, scope, false);
        if (attribute === undefined) return FOREIGN;
        if (list.length < FEW_ATTRIBUTES) {
          if (list.some((other) => other.ns === attribute.ns && other.local === attribute.local)) return FOREIGN;
        } else {
          expanded ??= new Set(list.map((other) => `${other.ns} ${other.local}`));
          const key = `${attribute.ns} ${attribute.local}`;
          if (expanded.has(key)) return FOREIGN;
          expanded.add(key);
        }
        list.push({ ns: attribute.ns, local: attribute.local, value });
      }
    }

    if (bareAmpersands !== undefined) {
      // Each placed from the one before, so a tag of many stays linear.
      let from = lt;
      let place = this.position();
      for (const { message, at } of bareAmpersands) {
        place = positionIn(buffer.slice(from, at), at - from, place);
        from = at;
        events.malformed(message, place);
      }
    }
    events.open(element.ns, element.local, resolved);
    if (selfClosing) {
      events.close();
      this.#innermostHoldsOnlyText = false;
      if (this.#stack.length === 0) this.#rootClosed = true;
    } else {
      this.#stack.push({ qname, raw: buffer.slice(lt, i), scope, ns: element.ns, local: element.local });
      this.#scope = scope;
      this.#innermostHoldsOnlyText = true;
      this.#innermostHasText = false;
    }
    return i;
  }

  /** The attribute-less start tag `<name>` at `lt`, if that name was seen before in this scope. */
  #seen(lt: number): OpenElement | undefined {
    const buffer = this.#buffer;
    const seen = this.#internedNames[internSlot(buffer.charCodeAt(lt + 1), buffer.charCodeAt(lt + 2))];
    if (seen === undefined) return undefined;
    for (const element of seen) {
      if (element.scope === this.#scope && buffer.charCodeAt(lt + 1 + element.qname.length) === Char.Greater && matchesAt(buffer, lt + 1, element.qname)) return element;
    }
    return undefined;
  }

  /**
   * The element whose start tag ends at `start`, if it is `<name>text</name>` with the end tag right
   * there (no space before its `>`) and text that is well-formed on sight (no CR, no `]`, only valid
   * references): offered to the consumer in one event. Returns the end, or -1 for the usual path.
   */
  #leaf(element: OpenElement, start: number, events: XmlEvents): number {
    const buffer = this.#buffer;
    const lt = buffer.indexOf('<', start);
    if (lt === -1) return -1;
    const text = this.#leafText(element, start, lt);
    if (text === undefined) return -1;
    if (!events.leaf(element.ns, element.local, text)) return -1;
    this.#innermostHoldsOnlyText = false;
    return lt + 3 + element.qname.length;
  }

  /** The decoded text from `start` to `lt` if `lt` starts the end tag of `element` and the text is well-formed on sight. */
  #leafText(element: OpenElement, start: number, lt: number): string | undefined {
    const buffer = this.#buffer;
    const qname = element.qname;
    if (buffer.charCodeAt(lt + 1) !== Char.Slash || buffer.charCodeAt(lt + 2 + qname.length) !== Char.Greater || !matchesAt(buffer, lt + 2, qname)) return undefined;
    return this.#plainText(start, lt);
  }

  /** The text from `start` to `end` (no `<` in it) decoded, if it is well-formed on sight: no CR, no `]`, only valid references. */
  #plainText(start: number, end: number): string | undefined {
    if (end === start) return '';
    const buffer = this.#buffer;
    if (this.#nextReturn < start) this.#nextReturn = indexOrLength(buffer, '\r', start);
    if (this.#nextBracket < start) this.#nextBracket = indexOrLength(buffer, ']', start);
    if (this.#nextReturn < end || this.#nextBracket < end) return undefined;
    const text = buffer.slice(start, end);
    if (this.#nextAmpersand < start) this.#nextAmpersand = indexOrLength(buffer, '&', start);
    return this.#nextAmpersand < end ? decodeEntities(text) : text;
  }

  /**
   * A whole child of the root starting at `lt`, offered to the consumer in one event: returns its
   * end, NOT_WHOLE (nothing taken) for the usual path, or INCOMPLETE when the entry runs on past
   * the buffer. Generated sitemaps repeat one or two shapes of entry, so the markup of each shape
   * is learnt once and later entries are matched against it literally, a few native compares
   * instead of tag after tag.
   */
  #entry(element: OpenElement, lt: number, events: XmlEvents): number {
    // Entries that keep changing shape miss every template and are scanned twice: then the usual path serves.
    if (this.#templateHits + TEMPLATE_WARMUP < this.#entryScans * TEMPLATE_MIN_HITS_PER_SCAN) return NOT_WHOLE;
    // Still waiting for the rest of this entry: nothing to try until its end tag has come.
    if (this.#bufferOffset + lt === this.#entryAwaitedAt && this.#runsPastBuffer(element, lt)) return INCOMPLETE;
    const end = this.#templateEntries(element, lt, events);
    if (end !== lt) return end;
    const scanned = this.#scanEntry(element, lt + 2 + element.qname.length);
    if (scanned !== -1) this.#entryContent.source = this.#buffer;
    if (scanned === -1 || !events.entry(element, this.#entryContent, this.#entryContent.texts)) {
      // The scan looked ahead of where reading resumes: what it found next holds only from there on.
      this.#nextAmpersand = -1;
      this.#nextReturn = -1;
      this.#nextBracket = -1;
      // An entry cut by the chunk's end is no other shape: it is tried whole again once it is all there.
      if (scanned === -1 && this.#runsPastBuffer(element, lt)) return INCOMPLETE;
      this.#entryScans++;
      return NOT_WHOLE;
    }
    this.#entryScans++;
    this.#learnTemplate(element, lt, scanned);
    return this.#templateEntries(element, scanned, events);
  }

  /**
   * True when the entry at `lt` has no end tag in the buffer and is short enough to wait for: it
   * is then awaited, and each later look searches only the text that came since.
   */
  #runsPastBuffer(element: OpenElement, lt: number): boolean {
    const buffer = this.#buffer;
    const at = this.#bufferOffset + lt;
    const endTag = `</${element.qname}>`;
    const from = at === this.#entryAwaitedAt ? Math.max(lt, this.#entrySearchedTo - this.#bufferOffset - endTag.length + 1) : lt;
    if (this.#ending || at === this.#entryGivenUpAt || buffer.length - lt > MAX_AWAITED_ENTRY_CHARS || buffer.indexOf(endTag, from) !== -1) {
      this.#entryAwaitedAt = -1;
      return false;
    }
    this.#entryAwaitedAt = at;
    this.#entrySearchedTo = this.#bufferOffset + buffer.length;
    this.#awaitedEndTag = endTag;
    this.#awaitedTail = buffer.slice(buffer.length - endTag.length + 1);
    this.#awaitedLength = buffer.length - lt;
    this.#awaitedLimit = MAX_AWAITED_ENTRY_CHARS;
    return true;
  }

  /**
   * Keeps `chunk` aside, unjoined, when it cannot end the awaited entry or token (not what ends it,
   * even across the seam) and that stays short enough to wait for: input cut small would otherwise
   * copy the text again on every write.
   */
  #keepsForAwaited(chunk: string): boolean {
    const endTag = this.#awaitedEndTag;
    this.#awaitedEndsAt = -1;
    if (this.#tokenAwaited && endTag === '>') {
      if (this.#awaitedLength + chunk.length > this.#awaitedLimit || this.#unquotedGreater(chunk, 0)) return false;
      this.#keptChunks.push(chunk);
      this.#awaitedLength += chunk.length;
      return true;
    }
    // Only the seam is put together: `tail + chunk` would be a rope, flattened (copied) by the search.
    const seam = this.#awaitedTail + chunk.slice(0, endTag.length - 1);
    const inSeam = seam.indexOf(endTag);
    const inChunk = inSeam === -1 ? chunk.indexOf(endTag) : -1;
    if (inSeam !== -1 || inChunk !== -1) {
      if (this.#entryAwaitedAt !== -1) this.#awaitedEndsAt = inSeam !== -1 ? inSeam + endTag.length - this.#awaitedTail.length : inChunk + endTag.length;
      return false;
    }
    if (this.#awaitedLength + chunk.length > this.#awaitedLimit) return false;
    this.#keptChunks.push(chunk);
    this.#awaitedLength += chunk.length;
    this.#awaitedTail = lastChars(chunk.length >= endTag.length - 1 ? chunk : seam, endTag.length - 1);
    return true;
  }

  /**
   * Whether `text` from `from` holds a `>` outside quotes, reading on from the quote the awaited tag
   * was in (#awaitedQuote, updated): one pass over each piece, however many `>` its values hold.
   */
  #unquotedGreater(text: string, from: number): boolean {
    let quote = this.#awaitedQuote;
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
    this.#awaitedQuote = quote;
    return false;
  }

  /**
   * Entries from `at` on, while each has the markup of a template: returns the end of the last
   * one taken, or `at`. The whitespace between them (CRLF line ends included) has nothing to report.
   */
  #templateEntries(element: OpenElement, at: number, events: XmlEvents): number {
    const buffer = this.#buffer;
    const sets = this.#templateSets;
    let taken = at;
    let p = at;
    next: for (;;) {
      let c = buffer.charCodeAt(p);
      while (c === Char.Space || c === Char.LineFeed || c === Char.Tab || c === Char.Return) c = buffer.charCodeAt(++p);
      // The entry's own start is where the consumer's `position()` must point.
      this.#pos = p;
      for (let k = 0; k < sets.length; k++) {
        const set = sets[k] as TemplateSet;
        if (set.element !== element) continue;
        const { pattern } = set;
        pattern.lastIndex = p;
        const match = pattern.exec(buffer);
        if (match === null) continue;
        const end = pattern.lastIndex;
        const { templates } = set;
        let template = templates[0] as EntryTemplate;
        for (let t = 1; match[template.marker] === undefined; t++) template = templates[t] as EntryTemplate;
        const ampersand = this.#fillTemplate(template, match, p);
        if (ampersand === -1 || !events.entry(element, template.content, match)) break;
        // Taken: reading resumes at its end, and no `&` is between that and this one.
        this.#nextAmpersand = ampersand;
        template.hits++;
        this.#templateHits++;
        taken = end;
        p = end;
        continue next;
      }
      this.#pos = taken;
      return taken;
    }
  }

  /**
   * Checks the texts the entry at `lt` matched (well-formed on sight but for references), puts
   * their bounds in the template's content and decodes them in `match`. Returns where the first `&` after its last text holding one is, or -1 when
   * the usual path must read the entry (a bad reference, a `]` in an element's text).
   */
  #fillTemplate(template: EntryTemplate, match: RegExpExecArray, lt: number): number {
    const { groups, textSlots, markup, inElement, content } = template;
    const { bounds } = content;
    const buffer = this.#buffer;
    if (content.source !== buffer) content.source = buffer;
    // The pattern keeps out `<` and CR; a `]` in an element's text (it could start `]]>`) is the usual path's to judge, and
    // references are what is left to check. Both are seldom there: each is searched for once, and placed from the texts' lengths.
    if (this.#nextBracket < lt) this.#nextBracket = indexOrLength(buffer, ']', lt);
    if (this.#nextAmpersand < lt) this.#nextAmpersand = indexOrLength(buffer, '&', lt);
    let ampersand = this.#nextAmpersand;
    let at = lt;
    for (let i = 0; i < textSlots.length; i++) {
      const group = groups[i] as number;
      const text = match[group] as string;
      const slot = textSlots[i] as number;
      at += (markup[i] as string).length;
      const textEnd = at + text.length;
      if (this.#nextBracket < textEnd && inElement[i] === true) {
        // Past those in attribute values before it; declined, reading resumes before them, so the position is looked for again.
        if (this.#nextBracket < at) this.#nextBracket = indexOrLength(buffer, ']', at);
        if (this.#nextBracket < textEnd) {
          this.#nextBracket = -1;
          return -1;
        }
      }
      bounds[2 * slot] = at;
      bounds[2 * slot + 1] = textEnd;
      // Learnt markup holds no `&`; this only keeps that from mattering.
      while (ampersand < at) ampersand = indexOrLength(buffer, '&', ampersand + 1);
      if (ampersand < textEnd) {
        // `&amp;` (every URL with a query has one) read in the buffer, where the search for the next `&` also finds the one after this text.
        const first = ampersand;
        let decoded = '';
        let from = at;
        while (ampersand < textEnd && isAmpReferenceAt(buffer, ampersand)) {
          decoded += buffer.slice(from, ampersand + 1);
          from = ampersand + 5;
          ampersand = indexOrLength(buffer, '&', from);
        }
        if (ampersand < textEnd) {
          // Another reference, or a bad one: the text decoded as a whole.
          const whole = decode(text, false, first - at);
          if (whole === undefined) return -1;
          match[group] = whole;
          ampersand = indexOrLength(buffer, '&', textEnd);
        } else match[group] = decoded + buffer.slice(from, textEnd);
      }
      at = textEnd;
    }
    return ampersand;
  }

  /** Remembers the markup of the entry just taken, from `lt` to `end`, with the text of each leaf and attribute left out. */
  #learnTemplate(element: OpenElement, lt: number, end: number): void {
    const buffer = this.#buffer;
    const scanned = this.#entryContent;
    const bounds = this.#entryContent.bounds;
    const content = new EntryContent();
    const markup: string[] = [];
    const textPatterns: string[] = [];
    const textSlots: number[] = [];
    // Markup matched literally; each text anything but markup or a CR (what would need more than a look; `]` is looked for apart).
    let from = lt;
    for (let i = 0; i < scanned.count; i++) {
      const kind = scanned.kinds[i] as EntryPart;
      content.push(kind, scanned.names[i] as XmlName, '');
      if (kind !== EntryPart.Leaf && kind !== EntryPart.GroupLeaf && kind !== EntryPart.Attribute && kind !== EntryPart.AttributedText) continue;
      const start = bounds[2 * i] as number;
      markup.push(buffer.slice(from, start));
      textPatterns.push(kind === EntryPart.Attribute ? TEMPLATE_VALUE[buffer[start - 1] as '"' | "'"] : TEMPLATE_TEXT);
      from = bounds[2 * i + 1] as number;
      textSlots.push(i);
    }
    if (textSlots.length === 0) return;
    markup.push(buffer.slice(from, end));
    const templates = this.#entryTemplates;
    // The least used makes room.
    templates.sort((x, y) => y.hits - x.hits);
    if (templates.length >= MAX_ENTRY_TEMPLATES) templates.pop();
    const inElement = textPatterns.map((pattern) => pattern === TEMPLATE_TEXT);
    templates.push({ element, content, markup, textPatterns, textSlots, inElement, groups: [], marker: 0, hits: 0 });
    const sets: TemplateSet[] = [];
    for (const template of templates) {
      if (sets.some((set) => set.element === template.element)) continue;
      const members = templates.filter((other) => other.element === template.element);
      sets.push({ element: template.element, pattern: mergedPattern(members), templates: members });
    }
    // Each text is read from its capture, whose number the merged pattern has just set.
    for (const template of templates) template.textSlots.forEach((slot, k) => (template.content.textAt[slot] = template.groups[k] as number));
    this.#templateSets = sets;
  }

  /**
   * The child of the root whose start tag ends at `start`, tag by tag: leaves, groups of leaves
   * two deep (attribute-less, seen before) and empty elements with attributes, whitespace between
   * (space, tab, LF, CR). Fills `#entryContent` (its texts and their bounds); returns the end, or -1.
   */
  #scanEntry(element: OpenElement, start: number): number {
    const buffer = this.#buffer;
    const content = this.#entryContent;
    const bounds = this.#entryContent.bounds;
    content.count = 0;
    content.memo = undefined;
    const groups: OpenElement[] = [];
    let p = start;
    for (;;) {
      let c = buffer.charCodeAt(p);
      while (c === Char.Space || c === Char.LineFeed || c === Char.Tab || c === Char.Return) c = buffer.charCodeAt(++p);
      if (c !== Char.Less) return -1;
      if (buffer.charCodeAt(p + 1) === Char.Slash) {
        const open = groups.pop() ?? element;
        const gt = p + 2 + open.qname.length;
        if (buffer.charCodeAt(gt) !== Char.Greater || !matchesAt(buffer, p + 2, open.qname)) return -1;
        p = gt + 1;
        if (open === element) return p;
        content.push(EntryPart.GroupEnd, open, '');
        continue;
      }
      const child = this.#seen(p);
      if (child === undefined) {
        p = this.#scanWithAttributes(p, groups.length > 0);
        if (p === -1) return -1;
        continue;
      }
      const after = p + 2 + child.qname.length;
      const lt = buffer.indexOf('<', after);
      if (lt === -1) return -1;
      if (buffer.charCodeAt(lt + 1) !== Char.Slash) {
        // A group holds leaves and groups of leaves (news:publication in news:news); it starts with whitespace or its first child.
        if (groups.length >= MAX_ENTRY_GROUP_DEPTH) return -1;
        content.push(EntryPart.GroupStart, child, '');
        groups.push(child);
        p = after;
        continue;
      }
      const text = this.#leafText(child, after, lt);
      if (text === undefined) return -1;
      bounds[2 * content.count] = after;
      bounds[2 * content.count + 1] = lt;
      content.push(groups.length === 0 ? EntryPart.Leaf : EntryPart.GroupLeaf, child, text);
      p = lt + 3 + child.qname.length;
    }
  }

  /**
   * A tag with at least one attribute at `lt`, each well-formed on sight (no namespace declaration,
   * no whitespace but spaces in a value, only valid references): outside groups an empty element
   * `<name a="…"/>` (its start, attributes and end), inside a group a leaf `<name a="…">text</name>`
   * (its start, attributes and text), pushed to `#entryContent`. Returns its end, or -1.
   */
  #scanWithAttributes(lt: number, inGroup: boolean): number {
    const buffer = this.#buffer;
    const content = this.#entryContent;
    const bounds = this.#entryContent.bounds;
    let i = lt + 1;
    if (!isNameStart(buffer.charCodeAt(i))) return -1;
    while (isNameChar(buffer.charCodeAt(i))) i++;
    const qname = buffer.slice(lt + 1, i);
    const name = resolveName(qname, this.#scope, true);
    if (name === undefined) return -1;
    const first = content.count + 1;
    content.push(inGroup ? EntryPart.AttributedStart : EntryPart.EmptyStart, name, '');
    for (;;) {
      const afterName = i;
      let c = buffer.charCodeAt(i);
      while (c === Char.Space || c === Char.LineFeed || c === Char.Tab || c === Char.Return) c = buffer.charCodeAt(++i);
      if (c === Char.Slash) {
        if (inGroup || buffer.charCodeAt(i + 1) !== Char.Greater || content.count === first) return -1;
        content.push(EntryPart.EmptyEnd, name, '');
        return i + 2;
      }
      if (c === Char.Greater) {
        if (!inGroup || content.count === first) return -1;
        // The text, then the end tag right there, as for a leaf.
        const textStart = i + 1;
        const end = buffer.indexOf('<', textStart);
        if (end === -1 || buffer.charCodeAt(end + 1) !== Char.Slash || buffer.charCodeAt(end + 2 + qname.length) !== Char.Greater || !matchesAt(buffer, end + 2, qname)) return -1;
        const text = this.#plainText(textStart, end);
        if (text === undefined) return -1;
        bounds[2 * content.count] = textStart;
        bounds[2 * content.count + 1] = end;
        content.push(EntryPart.AttributedText, name, text);
        return end + 3 + qname.length;
      }
      if (i === afterName || !isNameStart(c)) return -1;
      const nameStart = i;
      while (isNameChar(buffer.charCodeAt(i))) i++;
      const quote = buffer.charCodeAt(i + 1);
      if (buffer.charCodeAt(i) !== Char.Equals || (quote !== Char.Quote && quote !== Char.Apostrophe)) return -1;
      const attributeQname = buffer.slice(nameStart, i);
      if (attributeQname === 'xmlns' || attributeQname.startsWith('xmlns:')) return -1;
      const attribute = resolveName(attributeQname, this.#scope, false);
      if (attribute === undefined) return -1;
      for (let k = first; k < content.count; k++) {
        const other = content.names[k] as XmlName;
        if (other.ns === attribute.ns && other.local === attribute.local) return -1;
      }
      const start = i + 2;
      const close = buffer.indexOf(quote === Char.Quote ? '"' : "'", start);
      if (close === -1) return -1;
      const value = attributeValueOnSight(buffer.slice(start, close));
      if (value === undefined) return -1;
      bounds[2 * content.count] = start;
      bounds[2 * content.count + 1] = close;
      content.push(EntryPart.Attribute, attribute, value);
      i = close + 1;
    }
  }

  /** An attribute-less element, resolved in the current scope and remembered for the fast path. */
  #intern(slot: number, qname: string): OpenElement | undefined {
    const name = this.#resolve(qname, this.#scope, true);
    if (name === undefined) return undefined;
    const element: OpenElement = { qname, raw: `<${qname}>`, scope: this.#scope, ns: name.ns, local: name.local };
    const seen = (this.#internedNames[slot] ??= []);
    // A few names per slot; past that the oldest makes room (a miss costs only the slow path).
    if (seen.length >= INTERNED_PER_SLOT) seen.shift();
    seen.push(element);
    return element;
  }

  /** A name resolved in `scope`; a prefix never declared is taken as meant (#assumePrefix). */
  #resolve(qname: string, scope: Scope, isElement: boolean): XmlName | undefined {
    const name = resolveName(qname, scope, isElement);
    if (name !== undefined) return name;
    const colon = qname.indexOf(':');
    if (colon <= 0 || colon === qname.length - 1 || qname.indexOf(':', colon + 1) !== -1) return undefined;
    const prefix = qname.slice(0, colon);
    if (prefix === 'xmlns' || lookup(scope, prefix) !== undefined) return undefined;
    this.#assumePrefix(prefix);
    return resolveName(qname, scope, isElement);
  }

  /**
   * A prefix used without being declared (`<image:image>` with no `xmlns:image`, common by hand):
   * one R2, then read as the namespace it stands for in sitemaps, or (as saxes does) as a namespace
   * named by the prefix, which no extension has. saxes would report every such element and reach
   * the cap on findings after a few dozen entries.
   */
  #assumePrefix(prefix: string): void {
    this.#rootScope.prefixes.set(prefix, assumedNamespace(prefix));
    this.#events.malformed(unboundPrefixMessage(prefix), this.position());
  }

  /**
   * Whether an element may open at the current depth. At the cap, entries ended by the next one
   * opening inside them make room (with every `</url>` missing, each entry nests one deeper): they
   * leave the stack, if none of them declared a namespace (later lookups would walk their scopes).
   */
  #roomToOpen(): boolean {
    const stack = this.#stack;
    if (stack.length < MAX_DEPTH) return true;
    const ended = Math.min(this.#events.endedEntries, stack.length - 1);
    if (ended === 0 || stack[ended]?.scope !== stack[0]?.scope || this.#forgotten.length + ended > MAX_FORGOTTEN) return false;
    for (const { qname } of stack.splice(1, ended)) this.#forgotten.push(qname);
    this.#events.forgetEndedEntries(ended);
    return true;
  }

  #closeTag(lt: number): number {
    const buffer = this.#buffer;
    const top = this.#stack[this.#stack.length - 1];
    if (top === undefined) return FOREIGN;
    const nameEnd = lt + 2 + top.qname.length;
    // An end tag already whole though shorter than the open element's name (`</urlset>` at the very end, `<image:image>` open) is another's.
    if (nameEnd >= buffer.length) return buffer.indexOf('>', lt + 2) === -1 ? INCOMPLETE : this.#mismatchedCloseTag(lt);
    if (!matchesAt(buffer, lt + 2, top.qname) || isNameChar(buffer.charCodeAt(nameEnd))) return this.#mismatchedCloseTag(lt);
    let i = nameEnd;
    while (isSpace(buffer.charCodeAt(i))) i++;
    if (i >= buffer.length) return INCOMPLETE;
    if (buffer.charCodeAt(i) !== Char.Greater) return FOREIGN;
    if (this.#stack.length === 1 && this.#forgotten.length > 0) {
      // Entries forgotten at the depth cap are still open: their end tags are missing after all.
      this.#events.malformed(`</${top.qname}> comes before </${this.#forgotten[this.#forgotten.length - 1] ?? ''}>; read as if the elements inside <${top.qname}> had ended there`, this.position());
      this.#forgotten.length = 0;
    }
    this.#closeElement();
    return i + 1;
  }

  /** Notes text (from a `<loc>`, say) in the innermost element, as long as it has no child element. */
  #noteText(text: string): void {
    if (this.#innermostHoldsOnlyText && !this.#innermostHasText && !ONLY_WHITESPACE.test(text)) this.#innermostHasText = true;
  }

  #closeElement(): void {
    this.#stack.pop();
    this.#innermostHoldsOnlyText = false;
    this.#scope = this.#stack[this.#stack.length - 1]?.scope ?? this.#rootScope;
    this.#events.close();
    if (this.#stack.length === 0) this.#rootClosed = true;
  }

  /**
   * An end tag that is not the open element's: after a bare `&`, what hand-edited files get wrong
   * most. One naming an element further out closes those inside it too (their end tags were left
   * out); one naming no open element is ignored (a typo, a stray tag). saxes would take the root as
   * closed and drop every entry after it.
   */
  #mismatchedCloseTag(lt: number): number {
    const buffer = this.#buffer;
    let i = lt + 2;
    if (!isNameStart(buffer.charCodeAt(i))) return i >= buffer.length ? INCOMPLETE : FOREIGN;
    while (isNameChar(buffer.charCodeAt(i))) i++;
    const qname = buffer.slice(lt + 2, i);
    while (isSpace(buffer.charCodeAt(i))) i++;
    if (i >= buffer.length) return INCOMPLETE;
    if (buffer.charCodeAt(i) !== Char.Greater) return FOREIGN;
    const stack = this.#stack;
    const open = (stack[stack.length - 1] as OpenElement).qname;
    let depth = stack.length - 1;
    while (depth >= 0 && (stack[depth] as OpenElement).qname !== qname) depth--;
    if (depth === -1 && stack.length === 1 && this.#forgotten[this.#forgotten.length - 1] === qname) {
      // The end of an entry forgotten at the depth cap: the entries were nested after all.
      this.#forgotten.pop();
      return i + 1;
    }
    if (depth === -1 && stack.length > 2 && this.#innermostHoldsOnlyText && this.#innermostHasText) {
      // `<video:title>T</video:description>`: the end of the element that holds only text, misspelt; ignored, the next field would run into it.
      this.#events.malformed(`</${qname}> ends no open element; read as the end of <${open}>, which holds only text`, this.position());
      this.#closeElement();
      return i + 1;
    }
    if (depth === -1) {
      this.#events.malformed(`</${qname}> ends no open element (<${open}> is open); ignored`, this.position());
      return i + 1;
    }
    this.#events.malformed(`</${qname}> comes before </${open}>; read as if the elements inside <${qname}> had ended there`, this.position());
    // Those forgotten at the depth cap end with the root too.
    if (depth === 0) this.#forgotten.length = 0;
    while (stack.length > depth) this.#closeElement();
    return i + 1;
  }

  /** Comments and CDATA; a DOCTYPE and anything else goes to saxes. */
  #bang(lt: number): number {
    const buffer = this.#buffer;
    if (buffer.length - lt < 9) return INCOMPLETE;
    if (buffer.startsWith('<!--', lt)) {
      const close = buffer.indexOf('-->', lt + 4);
      if (close === -1) return INCOMPLETE;
      const content = buffer.slice(lt + 4, close);
      if (content.indexOf('--') !== -1 || content.endsWith('-')) return FOREIGN;
      return close + 3;
    }
    if (buffer.startsWith('<![CDATA[', lt)) {
      if (this.#stack.length === 0) return FOREIGN;
      const close = buffer.indexOf(']]>', lt + 9);
      if (close === -1) return INCOMPLETE;
      const text = normalizeNewlines(buffer.slice(lt + 9, close));
      this.#noteText(text);
      if (this.#events.capturing) this.#events.text(text);
      return close + 3;
    }
    if (buffer.startsWith('<!DOCTYPE', lt)) return this.#doctype(lt);
    return FOREIGN;
  }

  /**
   * A DOCTYPE with no internal subset, in the prolog: reported (it is never used) and read past.
   * One with an internal subset, where declarations could hide a `>`, or anything unusual, is saxes'.
   */
  #doctype(lt: number): number {
    if (this.#doctypeSeen || this.#rootClosed || this.#stack.length > 0) return FOREIGN;
    const buffer = this.#buffer;
    const close = buffer.indexOf('>', lt + 9);
    if (close === -1) return INCOMPLETE;
    if (!PLAIN_DOCTYPE.test(buffer.slice(lt, close + 1))) return FOREIGN;
    this.#doctypeSeen = true;
    // Where saxes places it too (at the end), for a DOCTYPE it reads.
    this.#events.doctype(this.#positionAt(this.#bufferOffset + close + 1));
    return close + 1;
  }

  #processingInstruction(lt: number): number {
    const buffer = this.#buffer;
    const close = buffer.indexOf('?>', lt + 2);
    if (close === -1) return INCOMPLETE;
    if (buffer.startsWith('<?xml', lt) && !isNameChar(buffer.charCodeAt(lt + 5))) {
      if (!this.#atDocumentStart || this.#bufferOffset + lt !== 0) return FOREIGN;
      const match = XML_DECL.exec(buffer.slice(lt, close + 2));
      return match === null ? FOREIGN : lt + match[0].length;
    }
    let i = lt + 2;
    if (!isNameStart(buffer.charCodeAt(i))) return FOREIGN;
    while (isNameChar(buffer.charCodeAt(i))) i++;
    const target = buffer.slice(lt + 2, i);
    if (target.indexOf(':') !== -1 || target.toLowerCase() === 'xml') return FOREIGN;
    if (i !== close && !isSpace(buffer.charCodeAt(i))) return FOREIGN;
    return close + 2;
  }

  /** Hands the rest of the document (`rest`, from a token boundary) to saxes. */
  /** Hands the rest of the document to saxes: `rest` starts at `origin`, by default where reading is (the pending text's start, if any). */
  #fallback(rest: string, origin: XmlPosition = this.#pendingText === '' ? this.#positionAt(this.#bufferOffset + this.#pos) : this.#pendingTextAt): void {
    const events = this.#events;
    const saxes = new FastSaxesParser();
    this.#xml11 = this.#atDocumentStart && XML_1_1_DECL.test(rest);
    this.#saxes = saxes;
    // Where the tag's `<` is: saxes has read its name and the character after it, which may be a line end
    // (attributes one to a line): then the `<` is on the line before, after the last markup or text line end.
    let tagAt: XmlPosition | undefined;
    saxes.on('opentagstart', (tag) => {
      this.#saxesAttributeFrom = saxes.position - tag.name.length - 2;
      this.#saxesAttributeAmpersands.clear();
      const column = saxes.columnIndex - tag.name.length - 2;
      if (column >= 0) tagAt = this.#saxesPositionAt(saxes.line, column);
      else if (this.#saxesTextTail !== -1) tagAt = this.#saxesPositionAt(saxes.line - 1, this.#saxesTextTail);
      else if (saxes.line - 1 === this.#saxesTextLine) tagAt = this.#saxesPositionAt(this.#saxesTextLine, this.#saxesTextColumn + saxes.position - tag.name.length - 2 - this.#saxesTextOffset);
      else tagAt = undefined;
    });
    // Told as each attribute ends: its first bare `&` is the first placed since the attribute before it ended.
    saxes.on('attribute', (attribute) => {
      const ampersands = this.#saxesAmpersands;
      // The attributes come in order: the search goes on from where the one before left it, so a tag of many stays linear.
      while (this.#saxesAmpersandsSeen < ampersands.length && (ampersands[this.#saxesAmpersandsSeen] as { offset: number }).offset < this.#saxesAttributeFrom) this.#saxesAmpersandsSeen++;
      const first = ampersands[this.#saxesAmpersandsSeen];
      if (first !== undefined && attribute.value.indexOf(BARE_AMPERSAND_MARK) !== -1) this.#saxesAttributeAmpersands.set(attribute.name, first.at);
      this.#saxesAttributeFrom = saxes.position;
    });
    saxes.on('opentag', (tag: SaxesTagNS) => {
      this.#saxesDepth++;
      this.#markupEnded();
      if (this.#saxesPriming) return;
      if (this.#saxesDepth > MAX_PARSED_DEPTH) {
        events.malformed(`elements nested deeper than ${MAX_PARSED_DEPTH} levels; reading stops here`, this.#saxesPosition());
        this.#abandoned = true;
        throw ABANDONED;
      }
      if (this.#saxesDepth - this.#saxesForgotten > MAX_DEPTH) {
        // As on the fast path, entries ended by the next one opening inside them make room; saxes keeps them open.
        const ended = events.endedEntries;
        events.forgetEndedEntries(ended);
        this.#saxesForgotten += ended;
      }
      if (this.#saxesDepth - this.#saxesForgotten > MAX_DEPTH) {
        if (!this.#tooDeep) events.malformed(`elements nested deeper than ${MAX_DEPTH} levels are not read`, this.#saxesPosition());
        this.#tooDeep = true;
        return;
      }
      this.#saxesTagAt = tagAt;
      const attributes: XmlAttribute[] = [];
      for (const attribute of Object.values(tag.attributes)) {
        let value = attribute.value;
        if (value.indexOf(BARE_AMPERSAND_MARK) !== -1) {
          events.malformed(`"&" that starts no entity reference in an attribute (${this.#unmarked(clipAround(value, BARE_AMPERSAND_MARK))}); read literally, write &amp;`, this.#saxesAttributeAmpersands.get(attribute.name) ?? this.position());
        }
        value = this.#unmarked(value);
        if (attribute.prefix === 'xmlns' || (attribute.prefix === '' && attribute.local === 'xmlns')) continue;
        attributes.push({ ns: this.#saxesNamespace(this.#unmarked(attribute.uri), attribute.prefix), local: attribute.local, value });
      }
      events.open(this.#saxesNamespace(this.#unmarked(tag.uri), tag.prefix), tag.local, attributes);
      this.#saxesTagAt = undefined;
    });
    saxes.on('closetag', (tag) => {
      this.#markupEnded();
      if (!this.#saxesPriming && this.#saxesForgotten > 0 && this.#saxesDepth - this.#saxesForgotten === 1) {
        // A forgotten entry's end (only the root is open to the consumer): the entries were nested after all.
        this.#saxesForgotten--;
        this.#saxesDepth--;
        return;
      }
      this.#saxesDepth--;
      if (this.#saxesPriming || this.#saxesDepth - this.#saxesForgotten >= MAX_DEPTH) return;
      // Where `</name>` starts, as the fast path places what closing finds (only `</name >` is a character off).
      const column = saxes.columnIndex - tag.name.length - 3;
      this.#saxesTagAt = column >= 0 ? this.#saxesPositionAt(saxes.line, column) : undefined;
      events.close();
      this.#saxesTagAt = undefined;
    });
    saxes.on('text', (text: string) => {
      const lineEnd = text.lastIndexOf('\n');
      this.#saxesTextTail = lineEnd === -1 ? -1 : text.length - lineEnd - 1;
      if (this.#saxesPriming || this.#saxesDepth - this.#saxesForgotten > MAX_DEPTH) return;
      if (text.indexOf(BARE_AMPERSAND_MARK) !== -1) {
        // Where the fast path puts it: at the `&` (its text is decoded here, so it was placed as it was written, #toSaxesPlacing).
        const first = this.#saxesAmpersands.find((ampersand) => ampersand.offset >= this.#saxesTextOffset);
        events.malformed(`"&" that starts no entity reference (${this.#unmarked(clipAround(text, BARE_AMPERSAND_MARK))}); read literally, write &amp;`, first?.at ?? this.#saxesPosition());
      }
      if (events.capturing) events.text(this.#unmarked(text));
    });
    saxes.on('cdata', (text: string) => {
      this.#markupEnded();
      if (!this.#saxesPriming && this.#saxesDepth - this.#saxesForgotten <= MAX_DEPTH && events.capturing) events.text(this.#unmarked(text));
    });
    saxes.on('comment', () => {
      // saxes tells of a comment at its `--`, before the `>` that must follow.
      this.#markupEnded();
      this.#saxesTextColumn++;
      this.#saxesTextOffset++;
    });
    saxes.on('processinginstruction', () => this.#markupEnded());
    saxes.on('xmldecl', () => this.#markupEnded());
    saxes.on('doctype', () => {
      this.#markupEnded();
      if (!this.#saxesPriming) events.doctype(this.#saxesPosition());
    });
    let unexpectedCloseAt = -1;
    saxes.on('error', (error: Error) => {
      if (this.#isOwnMark(error)) return;
      // As on the fast path: a prefix used without a declaration is reported once, where its first tag starts.
      const unbound = SAXES_UNBOUND_PREFIX.exec(error.message)?.[1];
      if (unbound !== undefined) {
        if (this.#saxesUnbound.has(unbound)) return;
        this.#saxesUnbound.add(unbound);
        if (!this.#saxesPriming) events.malformed(unboundPrefixMessage(unbound), tagAt ?? this.#saxesPosition());
        return;
      }
      if (this.#saxesPriming) return;
      // saxes says these for each element one end tag, or the end of the input, ends early (all the ended entries, with every </url> missing): once is enough.
      if (error.message.endsWith(UNEXPECTED_CLOSE_TAG) || error.message.includes(UNCLOSED_TAG)) {
        if (saxes.position === unexpectedCloseAt) return;
        unexpectedCloseAt = saxes.position;
      }
      // saxes says it where the text happens to end (a `<` or the end of a write): placed at the text's start, as the fast path places its findings in a text.
      const position = error.message.endsWith(TEXT_OUTSIDE_ROOT) ? this.#saxesPositionAt(this.#saxesTextLine, this.#saxesTextColumn) : this.#saxesPosition();
      events.malformed(stripPosition(error.message), position);
      // saxes makes an Error for each bad character: megabytes of binary would take it minutes.
      if (events.stopped) {
        this.#abandoned = true;
        throw ABANDONED;
      }
    });

    // Replay the open start tags on one line, so saxes is where the fast path was, then map its positions back.
    // In the prolog, past its start, an empty comment (saxes must not take an XML declaration or a BOM there), or the DOCTYPE read, so saxes knows there was one.
    const opened = this.#stack.map((element, depth) => this.#declaringAssumed(element.raw.replace(/[\t\n\r]/g, ' '), depth));
    if (this.#pendingText !== '') {
      rest = this.#pendingText + rest;
      this.#pendingText = '';
    }
    // Entries forgotten at the depth cap are open to saxes too, inside the root: their end tags may come.
    // At the end of the input with no end tag left, none can: saxes is given none of them.
    const replayed = this.#stack.length > 0 && !(this.#ending && rest.indexOf('</') === -1) ? this.#forgotten : [];
    const forgotten = replayed.map((qname) => `<${qname}>`).join('');
    this.#saxesForgotten = replayed.length;
    const priming = this.#rootClosed
      ? '<r/>'
      : this.#stack.length > 0
        ? `${opened[0] ?? ''}${forgotten}${opened.slice(1).join('')}`
        : this.#atDocumentStart
          ? ''
          : this.#doctypeSeen
            ? '<!DOCTYPE r>'
            : '<!---->';
    this.#saxesOrigin = { line: origin.line, column: origin.column, primed: priming.length };
    if (this.#stack.length + replayed.length > MAX_PARSED_DEPTH) {
      // saxes reads no deeper (its lookups walk every open tag), and without them their end tags would end the root.
      events.malformed(`elements nested deeper than ${MAX_PARSED_DEPTH} levels; reading stops here`, origin);
      this.#abandoned = true;
      this.#buffer = '';
      this.#pos = 0;
      this.#stack = [];
      return;
    }
    if (priming !== '') {
      this.#saxesPriming = true;
      // A start tag read by the fast path may hold a bare `&` in a value: saxes would read on from it into the document.
      this.#toSaxes(this.#marked(priming));
      this.#saxesPriming = false;
    }
    this.#markupEnded();
    this.#buffer = '';
    this.#pos = 0;
    this.#stack = [];
    this.#writeSaxes(rest);
  }

  /** The root's start tag replayed to saxes with the prefixes taken as meant declared, as the fast path read what it holds. */
  #declaringAssumed(raw: string, depth: number): string {
    if (depth > 0 || this.#rootScope.prefixes.size === ROOT_SCOPE.prefixes.size) return raw;
    let declarations = '';
    for (const [prefix, ns] of this.#rootScope.prefixes) if (!ROOT_SCOPE.prefixes.has(prefix)) declarations += ` xmlns:${prefix}="${ns}"`;
    return raw.replace(/^<[^\s/>]+/, (name) => name + declarations);
  }

  #writeSaxes(chunk: string): void {
    const held = this.#saxesHeld;
    if (held.length > 0 && !this.#ending && this.#continuesReference(chunk)) {
      held.push(chunk);
      return;
    }
    let text = held.length === 0 ? chunk : held.join('') + chunk;
    held.length = 0;
    if (!this.#ending && text.indexOf('&') !== -1) {
      const undecided = UNDECIDED_AMPERSAND.exec(text);
      if (undecided !== null) {
        held.push(undecided[0]);
        text = text.slice(0, undecided.index);
      }
    }
    // Forbidden characters first, so what saxes is given besides holds none but OWN_MARK_CHAR (all replacements keep the length).
    const clean = mayHoldDisallowedChar(text, false) ? text.replace(DISALLOWED_CHARS, '\uFFFD') : text;
    const marked = this.#marked(clean);
    try {
      if (clean === text) {
        this.#toSaxesPlacing(marked, 0, marked.length);
        return;
      }
      // As on the fast path: read as U+FFFD and reported where it stands, once saxes has read all before it.
      let from = 0;
      DISALLOWED_CHARS.lastIndex = 0;
      for (let match = DISALLOWED_CHARS.exec(text); match !== null; match = DISALLOWED_CHARS.exec(text)) {
        if (match.index > from) this.#toSaxesPlacing(marked, from, match.index);
        from = match.index;
        if (this.#disallowedReports < MAX_DISALLOWED_CHAR_REPORTS) {
          this.#disallowedReports++;
          this.#events.malformed(disallowedCharMessage(text, match.index), this.writtenTo());
          if (this.#events.stopped) {
            this.#abandoned = true;
            return;
          }
        }
      }
      this.#toSaxesPlacing(marked, from, marked.length);
    } catch (error) {
      // Thrown from our own handler to stop saxes in the middle of a chunk.
      if (error !== ABANDONED) throw error;
    }
  }

  /**
   * `text` as saxes is given it: each `&` that starts no reference as BARE_AMPERSAND_MARK, the
   * document's own U+FDD0 as OWN_MARK_CHAR. It holds no forbidden character.
   */
  #marked(text: string): string {
    let marked = text;
    if (marked.indexOf(BARE_AMPERSAND_MARK) !== -1) {
      for (let i = marked.indexOf(BARE_AMPERSAND_MARK); i !== -1; i = marked.indexOf(BARE_AMPERSAND_MARK, i + 1)) this.#ownMarks.push(this.#saxesWritten + i);
      this.#ownMarksUsed = true;
      marked = marked.replaceAll(BARE_AMPERSAND_MARK, OWN_MARK_CHAR);
    }
    if (marked.indexOf('&') === -1) return marked;
    return marked.replace(AMPERSAND, this.#markAmpersand);
  }

  /**
   * An `&` is bare when it starts no reference, or one to a character the version forbids (`&#0;`;
   * XML 1.1 allows references to the other control characters): the fast path reads both literally.
   * A reference to U+FDD0 (the mark itself) becomes one to an entity of the same length that saxes is
   * told stands for OWN_MARK_CHAR; no name of the document's reaches saxes unmarked but the five predefined.
   */
  readonly #markAmpersand = (match: string, decimal: string | undefined, hex: string | undefined): string => {
    if (match.length === 1) return BARE_AMPERSAND_MARK;
    if (decimal === undefined && hex === undefined) return match;
    const code = decimal === undefined ? Number.parseInt(hex as string, 16) : Number.parseInt(decimal, 10);
    if (code === 0xfdd0) {
      const name = 'z'.repeat(match.length - 2);
      (this.#saxes as SaxesParser<{ xmlns: true; position: true }>).ENTITIES[name] = OWN_MARK_CHAR;
      this.#ownMarksUsed = true;
      return `&${name};`;
    }
    const allowed = this.#xml11 ? code >= 1 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && code !== 0xfffe && code !== 0xffff : referencedChar(code) !== undefined;
    return allowed ? match : BARE_AMPERSAND_MARK + match.slice(1);
  };

  /**
   * Gives saxes `marked` from `from` to `to`, cut at a bare `&` (BARE_AMPERSAND_MARK) that may be the
   * first since markup last ended: written up to it, its place is where saxes has got to. Only a `>`
   * ends markup, so one after another in the same stretch needs no cut.
   */
  #toSaxesPlacing(marked: string, from: number, to: number): void {
    // A markup character or quote was looked for up to here.
    let scanned = from;
    for (let mark = marked.indexOf(BARE_AMPERSAND_MARK, from); mark !== -1 && mark < to; mark = marked.indexOf(BARE_AMPERSAND_MARK, mark + 1)) {
      if (!this.#saxesNewValue) this.#saxesNewValue = hasMarkupOrQuote(marked, scanned, mark);
      scanned = mark;
      // One is placed for each text or value: a later one with no markup or quote since is in the same.
      if (!this.#saxesNewValue) continue;
      this.#toSaxes(marked.slice(from, mark));
      from = mark;
      const saxes = this.#saxes as SaxesParser<{ xmlns: true; position: true }>;
      this.#saxesAmpersands.push({ offset: saxes.position, at: this.writtenTo() });
      this.#saxesNewValue = false;
    }
    if (!this.#saxesNewValue) this.#saxesNewValue = hasMarkupOrQuote(marked, scanned, to);
    this.#toSaxes(marked.slice(from, to));
  }

  #toSaxes(text: string): void {
    if (text === '') return;
    const saxes = this.#saxes as SaxesParser<{ xmlns: true; position: true }>;
    this.#saxesWritten += text.length;
    saxes.write(text);
    // Once a write returns, saxes' `position` counts the chunk twice until the next one starts.
    saxes.write('');
    this.#saxesCarriesReturn = text.charCodeAt(text.length - 1) === Char.Return;
  }

  /** Whether saxes' `error` is only its "disallowed character." for an OWN_MARK_CHAR, which is no error. */
  #isOwnMark(error: Error): boolean {
    const marks = this.#ownMarks;
    if (this.#ownMarksPassed === marks.length || !error.message.endsWith('disallowed character.')) return false;
    // saxes has read the character when it fails on it.
    const at = (this.#saxes as SaxesParser<{ xmlns: true; position: true }>).position - 1;
    while (this.#ownMarksPassed < marks.length && (marks[this.#ownMarksPassed] as number) < at) this.#ownMarksPassed++;
    // Not passed yet when it matches: saxes may read the character again (after an `unget`).
    if (this.#ownMarksPassed > 4096) {
      marks.splice(0, this.#ownMarksPassed);
      this.#ownMarksPassed = 0;
    }
    return marks[this.#ownMarksPassed] === at;
  }

  /** Whether `chunk` is all digits of the character reference held back, which may be of any length. */
  #continuesReference(chunk: string): boolean {
    const start = this.#saxesHeld[0] as string;
    // No limit on its length: the pieces are kept as they came, and joined once.
    if (chunk === '' || start[1] !== '#') return false;
    return (start[2] === 'x' ? HEX_DIGITS : DECIMAL_DIGITS).test(chunk);
  }

  #closeSaxes(): void {
    if (this.#saxesHeld.length > 0) this.#writeSaxes('');
    if (this.#abandoned) return;
    try {
      this.#saxes?.close();
    } catch (error) {
      if (error !== ABANDONED) throw error;
    }
  }

  #saxesPosition(): XmlPosition {
    const saxes = this.#saxes as SaxesParser<{ xmlns: true; position: true }>;
    return this.#saxesPositionAt(saxes.line, saxes.columnIndex);
  }

  /** The document's position for saxes' line and column (0-based, after priming). */
  #saxesPositionAt(saxesLine: number, saxesColumn: number): XmlPosition {
    const { line, column, primed } = this.#saxesOrigin;
    if (saxesLine === 1) return { line, column: column + saxesColumn - primed };
    return { line: line + saxesLine - 1, column: saxesColumn + 1 };
  }

  /** The namespace saxes gives a name, or what the fast path reads an undeclared prefix as (saxes gives the prefix). */
  #saxesNamespace(uri: string, prefix: string): string {
    return uri === prefix && this.#saxesUnbound.has(prefix) ? assumedNamespace(prefix) : uri;
  }

  /** What saxes read, with each mark (see #marked) back to what it stood for. */
  #unmarked(text: string): string {
    const unmarked = text.indexOf(BARE_AMPERSAND_MARK) === -1 ? text : text.replaceAll(BARE_AMPERSAND_MARK, '&');
    return !this.#ownMarksUsed || unmarked.indexOf(OWN_MARK_CHAR) === -1 ? unmarked : unmarked.replaceAll(OWN_MARK_CHAR, BARE_AMPERSAND_MARK);
  }

  #markupEnded(): void {
    const saxes = this.#saxes as SaxesParser<{ xmlns: true; position: true }>;
    this.#saxesTextLine = saxes.line;
    this.#saxesTextColumn = saxes.columnIndex;
    this.#saxesTextOffset = saxes.position;
    this.#saxesTextTail = -1;
    // Those read past belong to what has ended: dropped in one cut (one shift each would be quadratic in a hostile text of them).
    const ampersands = this.#saxesAmpersands;
    let passed = 0;
    while (passed < ampersands.length && (ampersands[passed] as { offset: number }).offset < saxes.position) passed++;
    if (passed > 0) ampersands.splice(0, passed);
    this.#saxesAmpersandsSeen = 0;
  }
}

/**
 * What saxes is given for an `&` that starts no reference, as the fast path reads it: saxes would
 * read on to the next `;` as an entity name, and lose every entry in between. One UTF-16 unit, as
 * the `&` was, so saxes' positions hold; a noncharacter, seldom in a document.
 */
const BARE_AMPERSAND_MARK = '\uFDD0';
/**
 * What saxes is given for the document's own U+FDD0: U+FFFF, forbidden in XML, reaches saxes from
 * no document (it is read as U+FFFD), so saxes' complaint about it is known to be about a mark.
 */
const OWN_MARK_CHAR = '\uFFFF';
/** An `&` that starts no reference the fast path would decode (see resolveReference). */
const AMPERSAND = /&(?:amp|lt|gt|quot|apos|#([0-9]+)|#x([0-9A-Fa-f]+));|&/g;
/** A declaration of a version other than 1.0: saxes reads the document by XML 1.1's rules. */
const XML_1_1_DECL = /^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])1\.(?!0\1)[0-9]+\1/;
/**
 * An `&` near the end of what was written, whose meaning depends on what comes next: kept back until
 * then. A name is one of five short ones; a character reference may have any number of leading zeros.
 */
const UNDECIDED_AMPERSAND = /&(?:#x[0-9A-Fa-f]*|#[0-9]*|[A-Za-z]{0,4})$/;
const DECIMAL_DIGITS = /^[0-9]+$/;
const HEX_DIGITS = /^[0-9A-Fa-f]+$/;

const TEXT_OUTSIDE_ROOT = 'text data outside of root node.';
const UNEXPECTED_CLOSE_TAG = 'unexpected close tag.';
const UNCLOSED_TAG = 'unclosed tag: ';
type HandlerSlot = 'xmldeclHandler' | 'textHandler' | 'piHandler' | 'doctypeHandler' | 'commentHandler' | 'openTagStartHandler' | 'attributeHandler' | 'openTagHandler' | 'closeTagHandler' | 'cdataHandler' | 'errorHandler' | 'endHandler' | 'readyHandler';

/**
 * saxes with its handler slots made in its constructor. `on()` adds each as a new property by a
 * keyed store, and past a dozen such V8 turns the parser into a dictionary, every field it reads a
 * hash lookup: with the ten handlers set here saxes ran 5× slower (436 against 81 ms for 50,000
 * URLs). Named stores in the constructor keep it fast; should saxes rename a slot, `on()` still
 * works, only slower.
 */
class FastSaxesParser extends SaxesParser<{ xmlns: true; position: true }> {
  constructor() {
    super({ xmlns: true, position: true } satisfies SaxesOptions);
    const slots = this as unknown as Record<HandlerSlot, undefined>;
    // One named store each: a loop would store by key, as on() does.
    slots.xmldeclHandler = undefined;
    slots.textHandler = undefined;
    slots.piHandler = undefined;
    slots.doctypeHandler = undefined;
    slots.commentHandler = undefined;
    slots.openTagStartHandler = undefined;
    slots.attributeHandler = undefined;
    slots.openTagHandler = undefined;
    slots.closeTagHandler = undefined;
    slots.cdataHandler = undefined;
    slots.errorHandler = undefined;
    slots.endHandler = undefined;
    slots.readyHandler = undefined;
  }

  /** saxes makes an Error for each complaint (one per OWN_MARK_CHAR too), whose stack no one reads: it is left out (2 M complaints: 7.5 s with, 1.3 s without). */
  override makeError(message: string): Error {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return super.makeError(message);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
  }
}

/** Thrown through saxes to stop it mid-chunk when the input is too deep to be worth reading. */
const ABANDONED = Symbol('abandoned');
const INCOMPLETE = -1;
const FOREIGN = -2;
/** A child of the root not taken whole: it goes tag by tag. */
const NOT_WHOLE = -3;
const FEW_ATTRIBUTES = 8;
const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]) as readonly XmlAttribute[];

function resolveName(qname: string, scope: Scope, isElement: boolean): { ns: string; local: string } | undefined {
  const colon = qname.indexOf(':');
  if (colon === -1) return { ns: isElement ? (lookup(scope, '') ?? '') : '', local: qname };
  if (colon === 0 || colon === qname.length - 1 || qname.indexOf(':', colon + 1) !== -1) return undefined;
  const prefix = qname.slice(0, colon);
  if (prefix === 'xmlns') return undefined;
  const ns = lookup(scope, prefix);
  return ns === undefined || ns === '' ? undefined : { ns, local: qname.slice(colon + 1) };
}

/** What an undeclared prefix is read as: its namespace in sitemaps, else one named by the prefix (as saxes names it). */
function assumedNamespace(prefix: string): string {
  return Object.hasOwn(NS, prefix) ? NS[prefix as keyof typeof NS] : prefix;
}

function unboundPrefixMessage(prefix: string): string {
  const ns = assumedNamespace(prefix);
  return `unbound namespace prefix "${prefix}" (no xmlns:${prefix} declares it); ${ns === prefix ? 'read as in an unknown namespace' : `read as ${ns}, its namespace in sitemaps`}`;
}

/** saxes' complaint about a prefix used without a declaration. */
const SAXES_UNBOUND_PREFIX = /unbound namespace prefix: "([^"]*)"\.$/;

/** saxes prefixes its messages with its own (primed, hence shifted) position; ours replaces it. */
function stripPosition(message: string): string {
  return message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
}

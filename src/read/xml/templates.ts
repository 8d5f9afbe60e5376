/** Entry templates: the markup of an entry's shape, learnt from one entry, merged into one pattern per element and filled from each later match. */
import { indexOrLength } from './chars.ts';
import { decode, isAmpReferenceAt } from './entities.ts';
import type { OpenElement, XmlName } from './names.ts';

/**
 * What `EntryContent.kinds[i]` says of `names[i]`: a leaf of the entry, the start or end of a group,
 * a leaf of that group; `<name a="…"/>` as EmptyStart, its Attributes (the name resolved, the value
 * as text) and EmptyEnd; a leaf with attributes in a group (`<video:price currency="…">text</…>`)
 * as AttributedStart, its Attributes and AttributedText.
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

/** An entry's markup as it was, texts left out: `markup[0]` text `markup[1]` … text `markup[n]`. */
export interface EntryTemplate {
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
export interface TemplateSet {
  readonly element: OpenElement;
  readonly pattern: RegExp;
  /** The commonest first, to find which matched. */
  readonly templates: readonly EntryTemplate[];
}

/** The shapes of entry remembered: a urlset has one or two (with and without an image), rarely more. */
const MAX_ENTRY_TEMPLATES = 4;
/** Templates stay in use while they take this many entries for each one scanned, after the first few. */
export const TEMPLATE_MIN_HITS_PER_SCAN = 8;
export const TEMPLATE_WARMUP = 64;
/** A text anything but markup or a CR (line ends to make LF); a `]` (which could end `]]>`) is looked for once per buffer instead, as a third character here would cost every character of every text. */
const TEMPLATE_TEXT = '[^<\\r]*';
/** An attribute value anything but markup, its quote or whitespace other than a space (which the value would turn into spaces). */
const TEMPLATE_VALUE = { '"': '[^<"\\t\\n\\r]*', "'": "[^<'\\t\\n\\r]*" } as const;
const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/**
 * Adds the shape of the entry just scanned (`scanned`, from `lt` to `end` in `buffer`) to
 * `templates`, the least used making room, and returns the sets they now make; undefined, nothing
 * changed, when the entry has no text to leave out.
 */
export function learnTemplate(templates: EntryTemplate[], element: OpenElement, scanned: EntryContent, buffer: string, lt: number, end: number): TemplateSet[] | undefined {
  const bounds = scanned.bounds;
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
  if (textSlots.length === 0) return undefined;
  markup.push(buffer.slice(from, end));
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
  return sets;
}

/**
 * Checks the texts the entry at `lt` in `buffer` matched (well-formed on sight but for
 * references), puts their bounds in the template's content and decodes them in `match`.
 * `nextBracket` and `nextAmpersand` are where the next `]` and `&` are from `lt` on (the buffer's
 * length for none). Returns where the first `&` after its last text holding one is, or -1 when the
 * usual path must read the entry (a bad reference, a `]` in an element's text).
 */
export function fillTemplate(template: EntryTemplate, match: RegExpExecArray, lt: number, buffer: string, nextBracket: number, nextAmpersand: number): number {
  const { groups, textSlots, markup, inElement, content } = template;
  const { bounds } = content;
  if (content.source !== buffer) content.source = buffer;
  // The pattern keeps out `<` and CR; a `]` in an element's text (it could start `]]>`) is the usual path's to judge, and
  // references are what is left to check. Both are seldom there: each is searched for once, and placed from the texts' lengths.
  let bracket = nextBracket;
  let ampersand = nextAmpersand;
  let at = lt;
  for (let i = 0; i < textSlots.length; i++) {
    const group = groups[i] as number;
    const text = match[group] as string;
    const slot = textSlots[i] as number;
    at += (markup[i] as string).length;
    const textEnd = at + text.length;
    if (bracket < textEnd && inElement[i] === true) {
      // Past those in attribute values before it.
      if (bracket < at) bracket = indexOrLength(buffer, ']', at);
      if (bracket < textEnd) return -1;
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

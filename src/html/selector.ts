/**
 * The CSS selectors `--ignore-selector` takes: compounds of a tag, `#id`, `.class`, `[attr]` and
 * `[attr=value]`, in a comma list. The page is read as a stream with no tree, so a selector can only
 * look at one element's own tag and attributes: combinators and pseudo-classes are refused.
 */
import { SitemapError } from '../errors.ts';
import { attributeOf, type Attributes } from './attributes.ts';

export interface Compound {
  tag?: string;
  id?: string;
  classes: string[];
  attributes: Array<{ name: string; value?: string }>;
}

const IDENT = String.raw`-?[_a-zA-Z\u00a0-\uffff][-_a-zA-Z0-9\u00a0-\uffff]*`;
const PART = new RegExp(
  String.raw`^(?:(${IDENT}|\*)|#(${IDENT})|\.(${IDENT})|\[\s*(${IDENT})\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|(${IDENT}))\s*)?\])`,
);

/** Parses a selector list; a selector outside the subset is one sentence naming it. */
export function parseSelectors(text: string): Compound[] {
  const list: Compound[] = [];
  for (const raw of text.split(',')) {
    const selector = raw.trim();
    if (selector === '') throw unsupported(text, 'it has an empty part');
    const compound: Compound = { classes: [], attributes: [] };
    let rest = selector;
    let first = true;
    while (rest !== '') {
      const m = PART.exec(rest);
      if (m === null || (m[1] !== undefined && !first)) throw unsupported(text, `"${rest}" is not a tag, #id, .class, [attr] or [attr=value]`);
      const [whole, tag, id, cls, attr, dq, sq, bare] = m;
      if (tag !== undefined && tag !== '*') compound.tag = tag.toLowerCase();
      if (id !== undefined) compound.id = id;
      if (cls !== undefined) compound.classes.push(cls);
      if (attr !== undefined) {
        const value = dq ?? sq ?? bare;
        compound.attributes.push(value === undefined ? { name: attr.toLowerCase() } : { name: attr.toLowerCase(), value });
      }
      rest = rest.slice(whole.length);
      first = false;
    }
    list.push(compound);
  }
  return list;
}

function unsupported(text: string, why: string): SitemapError {
  return new SitemapError(
    'SM_BAD_OPTION',
    `--ignore-selector "${text}" is not supported: ${why} (a selector is read against one element at a time: a tag, #id, .class, [attr] and [attr=value], joined like meta[name=date] or div.ad, in a comma list; no combinators or pseudo-classes)`,
  );
}

/** Whether an element (tag name and attributes, lower-cased names) matches any of the compounds. */
export function matchesAny(compounds: readonly Compound[], tag: string, attributes: Attributes): boolean {
  for (const c of compounds) if (matches(c, tag, attributes)) return true;
  return false;
}

function matches(c: Compound, tag: string, attributes: Attributes): boolean {
  if (c.tag !== undefined && c.tag !== tag) return false;
  if (c.id !== undefined && attributeOf(attributes, 'id') !== c.id) return false;
  if (c.classes.length > 0) {
    const classes = (attributeOf(attributes, 'class') ?? '').split(/[\t\n\f\r ]+/);
    for (const cls of c.classes) if (!classes.includes(cls)) return false;
  }
  for (const a of c.attributes) {
    const value = attributeOf(attributes, a.name);
    if (value === undefined || (a.value !== undefined && value !== a.value)) return false;
  }
  return true;
}

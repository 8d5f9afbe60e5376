/**
 * Where the element a record field was read from starts in its entry's source, so that a finding
 * about `images[2].loc` points at that `<image:loc>` rather than at the `<url>`. Elements are
 * matched by local name, in document order; a field with no element of its own (one that is
 * missing, or an attribute) goes to the nearest element holding it. Pure: text in, offset out.
 */
import type { SitemapKind } from '../types.ts';

/** A tag, or markup that holds none (comment, CDATA, processing instruction, declaration): groups are the end tag's slash, the name, and the empty tag's slash. */
const MARKUP = /<(?:!--[\s\S]*?-->|!\[CDATA\[[\s\S]*?\]\]>|\?[\s\S]*?\?>|!(?:[^>"']|"[^"]*"|'[^']*')*>|(\/?)([^\s/>]+)(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>)/g;
const CORE_FIELDS = new Set(['loc', 'lastmod', 'changefreq', 'priority']);
/** What the children of an RSS item and of an Atom entry are read as (R31, R32); an Atom `<published>` is no modification time, and is not read. */
const RSS_FIELDS: Record<string, string> = { link: 'loc', pubDate: 'lastmod' };
const ATOM_FIELDS: Record<string, string> = { link: 'loc', updated: 'lastmod', modified: 'lastmod' };
/** The path of a video's first price: it starts the list too. */
const FIRST_PRICE = '.prices[1]';

/** The offset in `source` (an entry's text, from its start tag on) of the element `field` was read from, or of the nearest one holding it. */
export function fieldOffset(source: string, field: string, kind: SitemapKind): number | undefined {
  const places = fieldPlaces(source, kind);
  for (let path: string | undefined = field; path !== undefined; path = fieldHolder(path)) {
    const at = places.get(path);
    if (at !== undefined) return at;
  }
  return undefined;
}

/** The first element of each field path in the entry, by offset. */
function fieldPlaces(source: string, kind: SitemapKind): Map<string, number> {
  const places = new Map<string, number>();
  const paths = new FieldPaths(kind);
  for (const match of source.matchAll(MARKUP)) {
    const [, endSlash, qname, emptySlash] = match;
    if (qname === undefined) continue;
    if (endSlash !== '/') {
      const path = paths.open(qname.slice(qname.indexOf(':') + 1));
      if (path !== undefined && !places.has(path)) noteFirstPlace(places, path, match.index);
      if (emptySlash !== '/') continue;
    }
    if (paths.close()) break;
  }
  return places;
}

/**
 * Notes where the first element of field path `path` starts. The first price of a video starts its
 * list as well: the finding that prices are deprecated (R36) names the list, `videos[1].prices`.
 */
export function noteFirstPlace<T>(places: Map<string, T>, path: string, at: T): void {
  places.set(path, at);
  if (path.endsWith(FIRST_PRICE)) places.set(path.slice(0, -'[1]'.length), at);
}

/** The field path of each element of an entry as it opens, the entry's own first (''): undefined inside what no field is read from. */
export class FieldPaths {
  readonly #kind: SitemapKind;
  readonly #open: (string | undefined)[] = [];
  #images = 0;
  #videos = 0;
  #alternates = 0;
  #prices = 0;

  constructor(kind: SitemapKind) {
    this.#kind = kind;
  }

  open(local: string): string | undefined {
    const open = this.#open;
    const parent = open[open.length - 1];
    const path = open.length === 0 ? '' : parent === '' ? this.#entryChild(local) : parent === undefined ? undefined : this.#groupChild(parent, local);
    open.push(path);
    return path;
  }

  /** True when this closes the entry. */
  close(): boolean {
    this.#open.pop();
    return this.#open.length === 0;
  }

  #entryChild(local: string): string | undefined {
    const kind = this.#kind;
    if (kind === 'rss') return Object.hasOwn(RSS_FIELDS, local) ? RSS_FIELDS[local] : undefined;
    if (kind === 'atom') return Object.hasOwn(ATOM_FIELDS, local) ? ATOM_FIELDS[local] : undefined;
    if (CORE_FIELDS.has(local)) return local;
    if (kind !== 'urlset') return undefined;
    switch (local) {
      case 'image':
        return `images[${++this.#images}]`;
      case 'video':
        this.#prices = 0;
        return `videos[${++this.#videos}]`;
      case 'news':
        return 'news';
      case 'link':
        return `alternates[${++this.#alternates}]`;
      default:
        return undefined;
    }
  }

  #groupChild(parent: string, local: string): string | undefined {
    if (parent.startsWith('videos[')) {
      if (local === 'tag') return `${parent}.tags`;
      if (local === 'price') return `${parent}.prices[${++this.#prices}]`;
    }
    if (parent === 'news' || parent === 'news.publication' || /^(?:images|videos)\[\d+\]$/.test(parent)) return `${parent}.${local}`;
    return undefined;
  }
}

/** The path one step up: `videos[1].uploader` for `videos[1].uploader.name`, `images` for `images[3]`. */
export function fieldHolder(path: string): string | undefined {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  return cut > 0 ? path.slice(0, cut) : undefined;
}

/**
 * XML events → entries. Recognises the file's kind from its root (urlset, sitemapindex, RSS 2.0,
 * Atom) and builds the writer's record shape, extensions included, matching elements by namespace
 * URI and local name, never by prefix. Structural faults are reported as they are met (R5, R6, R7,
 * R19, R23, R33); value rules are the validator's (validate.ts).
 */
import type { Diagnostic, DiagnosticLevel, RuleId } from '../../model/diagnostic.ts';
import { NS, UNDECLARED_PREFIX_NS } from '../../model/namespaces.ts';
import type { ImageRecord, NewsRecord, VideoRecord } from '../../model/record.ts';
import { hasScheme } from '../../rules/url.ts';
import { parseRfc822Date, parseW3cDatetime } from '../../rules/datetime.ts';
import { FieldPaths, noteFirstPlace } from './locate.ts';
import { Char } from './chars.ts';
import { MAX_MALFORMED_REPORTS, MAX_TOKEN_CHARS, type OversizedWhat, type XmlEvents } from './events.ts';
import type { XmlAttribute, XmlName } from './names.ts';
import type { XmlPosition } from './positions.ts';
import { type EntryContent, EntryPart } from './templates.ts';
import type { ParsedEntry, ParsedRecord, SitemapIndexEntry, SitemapKind } from '../types.ts';

const ATOM_NS = new Set(['http://www.w3.org/2005/Atom', 'http://purl.org/atom/ns#']);
export { MAX_MALFORMED_REPORTS };

/** `EndedEntry`: a `<url>` or `<sitemap>` ended early by the next one opening inside it (its end tag is missing). */
const Role = { Ignored: 0, Root: 1, Url: 2, Sitemap: 3, Field: 4, Image: 5, Video: 6, News: 7, Publication: 8, Channel: 9, Item: 10, Entry: 11, EndedEntry: 12 } as const;
type Role = (typeof Role)[keyof typeof Role];

/** Where a captured value goes: owner kind + key. */
const Owner = { Record: 0, Image: 1, Video: 2, News: 3, Publication: 4, Sitemap: 5 } as const;
type Owner = (typeof Owner)[keyof typeof Owner];

const CORE_URL_CHILDREN = ['loc', 'lastmod', 'changefreq', 'priority'];
/**
 * What `entry` does with each part of an entry: a core field (its index in CORE_URL_CHILDREN), the
 * start or end of an image, a video, news or its publication, an alternate's start, attributes or
 * end, a field of the group it is in (a `GroupField`), or nothing.
 */
const Step = {
  Loc: 0, Lastmod: 1, Changefreq: 2, Priority: 3, ImageStart: 4, ImageEnd: 5, Skip: 6, AlternateStart: 7, Rel: 8, Hreflang: 9, Href: 10, AlternateEnd: 11,
  VideoStart: 12, VideoEnd: 13, NewsStart: 14, PublicationStart: 15, VideoAttributesStart: 16,
} as const;
/** The extension groups an entry's content may hold, and which can hold which. */
const Group = { Image: 0, Video: 1, News: 2, Publication: 3 } as const;
type Group = (typeof Group)[keyof typeof Group];
interface GroupField {
  readonly group: Group;
  readonly key: string;
}
/** An attribute of a video field (`currency`, `relationship`…), passed on with the field's text as the usual path does. */
interface VideoAttribute {
  readonly attribute: XmlName;
}
const ALTERNATE_ATTRIBUTES: Record<string, (typeof Step)[keyof typeof Step]> = { rel: Step.Rel, hreflang: Step.Hreflang, href: Step.Href };
type EntryPlan = ((typeof Step)[keyof typeof Step] | GroupField | VideoAttribute)[];
/** A plan with its leading core fields apart: they are nearly every part read, and a few tests serve them better than the step switch. */
interface EntryReading {
  readonly plan: EntryPlan;
  /** The core field (0–3) of each part before the first step of another kind. */
  readonly core: readonly number[];
}
const NO_READING: EntryReading = { plan: [], core: [] };
/** Where a `<url>` can only open because the entry's `</url>` is missing: in it, or in a group in it. */
const IN_URL: ReadonlySet<Role> = new Set([Role.Url, Role.Image, Role.Video, Role.News, Role.Publication]);
const IMAGE_FIELDS = new Set(['loc', 'caption', 'geo_location', 'title', 'license']);
const VIDEO_FIELDS = new Set([
  'thumbnail_loc', 'title', 'description', 'content_loc', 'player_loc', 'duration', 'expiration_date', 'rating', 'view_count',
  'publication_date', 'tag', 'category', 'family_friendly', 'restriction', 'gallery_loc', 'price', 'requires_subscription',
  'uploader', 'platform', 'live',
]);
const NEWS_FIELDS = new Set(['access', 'genres', 'publication_date', 'title', 'keywords', 'stock_tickers']);
/** Deprecated in 2022 and ignored by Google (R36), and not in the record: said where they are met, as the validator cannot see them. */
const DEPRECATED_PLAYER_ATTRIBUTES = new Set(['allow_embed', 'autoplay']);
const DEPRECATED = 'is deprecated and ignored by Google since 2022; ignored here too';

/**
 * Where an entry starts, and where its fields do, to place findings about them: for an entry read
 * tag by tag, where each field path's first element starts; for one taken whole, its text from its
 * start on (located only when a finding asks, locate.ts).
 */
export interface EntryPlace {
  start: XmlPosition;
  fields?: ReadonlyMap<string, XmlPosition>;
  source?: string;
}

/** An RSS `<guid>` that is a permalink URL, and where it starts. */
interface Permalink {
  readonly url: string;
  readonly at: XmlPosition;
}

export interface AssemblerOptions {
  base: URL | undefined;
  report: (diagnostic: Diagnostic) => void;
  /** Findings counted but not listed. */
  count: (rule: RuleId, level: DiagnosticLevel, count: number) => void;
  position: () => XmlPosition;
  /** The text held from the token being handled on, if the tokenizer holds it. */
  source: () => string | undefined;
  /** Each entry, with its place when `trackPositions` is on. */
  emit: (entry: ParsedEntry, place: EntryPlace | undefined) => void;
  trackPositions: boolean;
  /** Called once the root tells what the file is. */
  onKind: (kind: SitemapKind) => void;
}

export class SitemapAssembler implements XmlEvents {
  readonly #options: AssemblerOptions;
  #kind: SitemapKind = 'unknown';
  /** The role of each open element. */
  #stack: Role[] = [];
  // The field being captured; fields hold no fields (their children are ignored), so one set of registers serves.
  #fieldOwner: Owner = Owner.Record;
  #fieldKey = '';
  /** For fields carrying attributes (video price, restriction, platform, uploader). */
  #fieldAttributes: readonly XmlAttribute[] = [];
  /** The namespace core elements are matched in: the sitemap one, or the root's when that is missing or wrong (R5). */
  #coreNs: string = NS.sitemap;
  #capture = false;
  #fieldStart: XmlPosition = { line: 0, column: 0 };
  #text = '';
  #record: ParsedRecord | undefined;
  #entry: SitemapIndexEntry | undefined;
  #image: ImageRecord | undefined;
  #video: Partial<VideoRecord> | undefined;
  #news: Partial<NewsRecord> | undefined;
  #seenInUrl = 0;
  /** An element after an entry nested in its own (see #nextEntryInside) has been reported. */
  #endedEntryContentReported = false;
  /** A core element in no namespace inside the sitemap's has been reported (R5, once a file). */
  #noNamespaceReported = false;
  #extensionSeenInUrl = false;
  #atomLinkRank = 0;
  /** The RSS item's `<guid>` when it is a permalink URL, and where it starts: its URL if the item has no `<link>`. */
  #permalink: Permalink | undefined;
  #entryStart: XmlPosition | undefined;
  /** With trackPositions, inside an entry read tag by tag: the field path of each open element, and where each path first starts. */
  #paths: FieldPaths | undefined;
  #fields = new Map<string, XmlPosition>();
  #entries = 0;
  /** Entry elements opened, read or skipped: a root with none has no entries; one whose entries were all skipped has had a finding for each. */
  #entriesOpened = 0;
  /** Where the entry's `<loc>` starts, read tag by tag. */
  #locStart: XmlPosition | undefined;
  #malformed = 0;
  #quiet = false;
  #unknownNamespaces = new Set<string>();
  #rootSeen = false;
  #afterRootReported = false;
  stopped = false;

  constructor(options: AssemblerOptions) {
    this.#options = options;
  }

  get kind(): SitemapKind {
    return this.#kind;
  }

  get capturing(): boolean {
    return this.#capture;
  }

  #report(rule: RuleId, level: DiagnosticLevel, message: string, url?: string, at?: XmlPosition, field?: string): void {
    // Once reading has stopped nothing more is reported, as nothing more is emitted: how much of the chunk at hand was read must not show.
    if (this.stopped) return;
    const { line, column } = at ?? this.#options.position();
    const diagnostic: Diagnostic = { rule, level, message, line, column };
    if (url !== undefined) diagnostic.url = url;
    if (field !== undefined) diagnostic.field = field;
    this.#options.report(diagnostic);
  }

  get listing(): boolean {
    return this.#quiet || this.#malformed < MAX_MALFORMED_REPORTS;
  }

  unlisted(count: number): void {
    if (this.stopped || count === 0) return;
    this.#malformed += count;
    this.#options.count('R2', 'error', count);
  }

  malformed(message: string, position: XmlPosition): void {
    if (this.stopped) return;
    if (!this.listing) {
      this.unlisted(1);
      return;
    }
    this.#malformed++;
    const diagnostic: Diagnostic = { rule: 'R2', level: 'error', message: `not well-formed XML: ${message}`, line: position.line, column: position.column };
    if (this.#quiet) {
      // Not a sitemap, and not well-formed either: said once, and reading stops.
      diagnostic.message += '; the file is not read further';
      this.#options.report(diagnostic);
      this.stopped = true;
      return;
    }
    this.#options.report(diagnostic);
  }

  oversized(what: OversizedWhat, chars: number, position: XmlPosition): void {
    this.#report('R3', 'error', `a ${what} of ${chars} characters, longer than any sitemap field holds (a URL at most 2,048): its first ${MAX_TOKEN_CHARS} are read, the rest is skipped unchecked`, undefined, position);
  }

  doctype(position: XmlPosition): void {
    if (this.stopped) return;
    this.#options.report({
      rule: 'R2',
      level: 'warn',
      message: 'DOCTYPE ignored: a sitemap has none, and its entity declarations are never expanded (no external entities, no entity expansion)',
      line: position.line,
      column: position.column,
    });
  }

  open(ns: string, local: string, attributes: readonly XmlAttribute[]): void {
    const parent = this.#stack[this.#stack.length - 1];
    this.#stack.push(parent === undefined ? (this.#rootSeen ? this.#afterRoot(local) : this.#root(ns, local)) : this.#child(parent, ns, local, attributes));
    if (this.#paths !== undefined) this.#enterField(local);
  }

  /**
   * An element after the root has ended (what a damaged stretch often leaves, or sitemaps pasted one
   * after another): said once what becomes of it (R2), so the file's kind stays what its root made
   * it. The parser's own complaint about each such element counts towards the cap on R2 findings.
   */
  #afterRoot(local: string): Role {
    if (!this.#afterRootReported && !this.stopped) {
      this.#afterRootReported = true;
      this.#report('R2', 'error', `<${local}> comes after the root element has ended; it and every element after it are ignored`);
    }
    return Role.Ignored;
  }

  text(text: string): void {
    this.#text += text;
  }

  /**
   * The fields that make up nearly every entry (`<loc>`, `<lastmod>`…, `<image:loc>`), taken in one
   * step. Only when nothing is to be reported: anything that would report goes the usual way, so
   * findings and their positions are those of `open`, `text` and `close`.
   */
  leaf(ns: string, local: string, text: string): boolean {
    if (!this.#takeLeaf(ns, local, text)) return false;
    if (this.#paths !== undefined) {
      this.#enterField(local);
      this.#paths.close();
    }
    return true;
  }

  #takeLeaf(ns: string, local: string, text: string): boolean {
    const parent = this.#stack[this.#stack.length - 1];
    if (parent === Role.Url || parent === Role.Sitemap) {
      if (ns !== this.#coreNs && ns !== NS.sitemap) return false;
      const index = coreUrlChild(local);
      const bit = 1 << index;
      // Unknown, repeated, out of order or after an extension: each has a finding.
      if (index === -1 || this.#seenInUrl >= bit || this.#extensionSeenInUrl || (parent === Role.Sitemap && index > 1)) return false;
      const value = trimmed(text);
      if (index === 0 && !isPlainLoc(value, text)) return false;
      // Whitespace around a lastmod or changefreq has a finding (R11, R13).
      if ((index === 1 || index === 2) && value !== text) return false;
      this.#seenInUrl |= bit;
      if (parent === Role.Sitemap) {
        const entry = this.#entry;
        if (entry === undefined) return true;
        if (index === 0) entry.loc = value;
        else entry.lastmod = value;
        return true;
      }
      const record = this.#record as ParsedRecord;
      // An empty field is kept as written (''), as validate reports it (R11, R13, R14).
      if (index === 0) record.loc = value;
      else if (index === 1) record.lastmod = value;
      else if (index === 2) record.changefreq = value;
      else record.priority = value;
      return true;
    }
    if (parent === Role.Image && ns === NS.image && IMAGE_FIELDS.has(local)) {
      if (this.#image !== undefined) (this.#image as unknown as Record<string, string>)[local] = trimmed(text);
      return true;
    }
    return false;
  }

  /** How many entries, from the root's first child in, were ended by the next one opening inside them (`#nextEntryInside`). */
  get endedEntries(): number {
    let count = 0;
    while (this.#stack[count + 1] === Role.EndedEntry) count++;
    return count;
  }

  /** Drops the `count` outermost ended entries, as the reader drops them from its own stack at the depth cap; their end tags, if they come, get no event. */
  forgetEndedEntries(count: number): void {
    this.#stack.splice(1, count);
  }

  get wantsEntries(): boolean {
    return this.#stack.length === 1 && !this.stopped && (this.#kind === 'urlset' || this.#kind === 'sitemapindex');
  }

  /**
   * A whole `<url>` or `<sitemap>` in one step, when it is the common shape: core fields once each
   * and in order, then image groups. Declines (false, nothing changed) whatever would report, as
   * `leaf` does, so findings always come from the usual events.
   */
  entry(name: XmlName, content: EntryContent, texts: readonly (string | undefined)[]): boolean {
    if (name.ns !== this.#coreNs && name.ns !== NS.sitemap) return false;
    const index = this.#kind === 'sitemapindex';
    if (name.local !== (index ? 'sitemap' : 'url')) return false;
    // The names in an entry's content repeat from entry to entry: what they mean is worked out once.
    const reading = (content.memo ??= this.#reading(content, index)) as EntryReading;
    if (reading.plan.length === 0) return false;
    const entry = index ? this.#indexEntry(reading.plan, content, texts) : this.#urlEntry(reading, content, texts);
    if (entry === undefined) return false;
    this.#entries++;
    this.#options.emit(entry, this.#options.trackPositions ? wholeEntryPlace(this.#options.position(), this.#options.source()) : undefined);
    return true;
  }

  #reading(content: EntryContent, index: boolean): EntryReading {
    const plan = this.#plan(content, index);
    if (plan.length === 0) return NO_READING;
    const core: number[] = [];
    while (core.length < plan.length && typeof plan[core.length] === 'number' && (plan[core.length] as number) <= Step.Priority) core.push(plan[core.length] as number);
    return { plan, core };
  }

  /** What each part of an entry's content is for, or an empty plan when its structure has a finding (unknown, repeated or misplaced fields, other extensions). */
  #plan(content: EntryContent, index: boolean): EntryPlan {
    const plan: EntryPlan = [];
    const groups: Group[] = [];
    let seen = 0;
    let extension = false;
    let news = false;
    // Inside a video field's start tag, its name: its attributes go with the field.
    let videoAttributes: string | undefined;
    // Which of the video fields that may come once the video at hand has had (videoFieldsSeen).
    let videoOnce = 0;
    for (let i = 0; i < content.count; i++) {
      const name = content.names[i] as XmlName;
      switch (content.kinds[i]) {
        case EntryPart.Leaf: {
          if (name.ns !== this.#coreNs && name.ns !== NS.sitemap) return [];
          const field = coreUrlChild(name.local);
          const bit = 1 << field;
          if (field === -1 || seen >= bit || extension || (index && field > 1)) return [];
          seen |= bit;
          plan.push(field as 0 | 1 | 2 | 3);
          break;
        }
        case EntryPart.GroupStart: {
          // Extensions only: an <image> in the root's own namespace is a core child (R6 on the usual path).
          if (index || name.ns === this.#coreNs) return [];
          const parent = groups[groups.length - 1];
          const group = parent === undefined ? extensionGroup(name) : parent === Group.News && name.ns === NS.news && name.local === 'publication' ? Group.Publication : undefined;
          // A second <news:news> is reported (R37) on the usual path.
          if (group === undefined || (group === Group.News && news)) return [];
          news ||= group === Group.News;
          if (group === Group.Video) videoOnce = 0;
          extension = true;
          groups.push(group);
          plan.push(GROUP_STARTS[group]);
          break;
        }
        case EntryPart.AttributedStart: {
          const group = groups[groups.length - 1] as Group;
          // As for a leaf <news:publication> below; attributes elsewhere are ignored, as on the usual path.
          if (group === Group.News && name.ns === NS.news && name.local === 'publication') return [];
          if (group === Group.Video && name.ns === NS.video && (videoOnce = videoFieldsSeen(videoOnce, name.local)) === -1) return [];
          videoAttributes = group === Group.Video ? groupField(group, name) : undefined;
          plan.push(videoAttributes === undefined ? Step.Skip : Step.VideoAttributesStart);
          break;
        }
        case EntryPart.AttributedText:
        case EntryPart.GroupLeaf: {
          videoAttributes = undefined;
          // Other children of a group are ignored without a word, as on the usual path.
          const group = groups[groups.length - 1] as Group;
          const field = groupField(group, name);
          // A leaf <news:publication> is a publication without fields on the usual path; not worth a step of its own.
          if (group === Group.News && name.ns === NS.news && name.local === 'publication') return [];
          // An attributed one was counted at its start.
          if (content.kinds[i] === EntryPart.GroupLeaf && group === Group.Video && name.ns === NS.video && (videoOnce = videoFieldsSeen(videoOnce, name.local)) === -1) return [];
          plan.push(field === undefined ? Step.Skip : { group, key: field });
          break;
        }
        case EntryPart.GroupEnd:
          plan.push(GROUP_ENDS[groups.pop() as Group]);
          break;
        case EntryPart.EmptyStart:
          if (index || name.ns === this.#coreNs || name.ns !== NS.xhtml || name.local !== 'link') return [];
          extension = true;
          plan.push(Step.AlternateStart);
          break;
        case EntryPart.Attribute:
          if (videoAttributes === 'player_loc' && name.ns === '' && DEPRECATED_PLAYER_ATTRIBUTES.has(name.local)) return [];
          if (videoAttributes !== undefined) plan.push({ attribute: name });
          else if (groups.length > 0) plan.push(Step.Skip);
          // On a link, as on the usual path, only rel, hreflang and href in no namespace count; the rest is ignored.
          else plan.push((name.ns === '' && Object.hasOwn(ALTERNATE_ATTRIBUTES, name.local) ? ALTERNATE_ATTRIBUTES[name.local] : undefined) ?? Step.Skip);
          break;
        case EntryPart.EmptyEnd:
          plan.push(Step.AlternateEnd);
      }
    }
    return plan;
  }

  #urlEntry({ plan, core }: EntryReading, { textAt, bounds, source }: EntryContent, texts: readonly (string | undefined)[]): ParsedRecord | undefined {
    const record = startedEntry<ParsedRecord>();
    for (let i = 0; i < core.length; i++) {
      const field = core[i] as number;
      const start = bounds[2 * i] as number;
      const end = bounds[2 * i + 1] as number;
      if (field === Step.Loc) {
        if (!isPlainLocAsWritten(source, start, end)) return undefined;
        record.loc = texts[textAt[i] as number] as string;
        continue;
      }
      const text = texts[textAt[i] as number] as string;
      const value = endsPlainAsWritten(source, start, end) ? text : trimmed(text);
      if (field === Step.Lastmod || field === Step.Changefreq) {
        // Whitespace around it has a finding (R11, R13).
        if (value !== text) return undefined;
        if (field === Step.Lastmod) record.lastmod = value;
        else record.changefreq = value;
      } else record.priority = value;
    }
    if (core.length === plan.length) return record.loc === '' ? undefined : record;
    let image: ImageRecord | undefined;
    let video: Partial<VideoRecord> | undefined;
    let news: Partial<NewsRecord> | undefined;
    let rel: string | undefined;
    let hreflang: string | undefined;
    let href: string | undefined;
    let attributes: XmlAttribute[] | undefined;
    for (let i = core.length; i < plan.length; i++) {
      const step = plan[i] as EntryPlan[number];
      const text = texts[textAt[i] as number] as string;
      switch (step) {
        case Step.ImageStart:
          image = { loc: '' };
          break;
        case Step.ImageEnd:
          if ((image as ImageRecord).loc === '') return undefined;
          (record.images ??= []).push(image as ImageRecord);
          break;
        case Step.Skip:
          break;
        case Step.AlternateStart:
          rel = hreflang = href = undefined;
          break;
        case Step.Rel:
          rel = text;
          break;
        case Step.Hreflang:
          hreflang = text;
          break;
        case Step.Href:
          href = text;
          break;
        case Step.AlternateEnd:
          // The usual path reports such a link (R38), or a relative href (R8).
          if (rel !== 'alternate' || hreflang === undefined || href === undefined || !isAbsolute(href)) return undefined;
          (record.alternates ??= []).push({ hreflang, href });
          break;
        case Step.VideoStart:
          video = {};
          break;
        case Step.VideoEnd:
          (record.videos ??= []).push(video as VideoRecord);
          break;
        case Step.NewsStart:
          // Where the usual path puts it: on the record as soon as it starts.
          news = {};
          record.news = news as NewsRecord;
          break;
        case Step.PublicationStart:
          (news as Partial<NewsRecord>).publication = { name: '', language: '' };
          break;
        case Step.VideoAttributesStart:
          attributes = [];
          break;
        default: {
          // Core fields are all in the leading part read above.
          const part = step as GroupField | VideoAttribute;
          if ('attribute' in part) {
            (attributes as XmlAttribute[]).push({ ns: part.attribute.ns, local: part.attribute.local, value: text });
            break;
          }
          const value = endsPlainAsWritten(source, bounds[2 * i] as number, bounds[2 * i + 1] as number) ? text : trimmed(text);
          const { group, key } = part;
          if (group === Group.Image) (image as unknown as Record<string, string>)[key] = value;
          else if (group === Group.Video) {
            videoField(video as Partial<VideoRecord>, key, value, attributes ?? NO_ATTRIBUTES);
            attributes = undefined;
          } else if (group === Group.News) (news as unknown as Record<string, string>)[key] = value;
          else (news as NewsRecord).publication[key as 'name' | 'language'] = value;
        }
      }
    }
    return record.loc === '' ? undefined : record;
  }

  #indexEntry(plan: EntryPlan, { textAt, bounds, source }: EntryContent, texts: readonly (string | undefined)[]): SitemapIndexEntry | undefined {
    const entry = startedEntry<SitemapIndexEntry>();
    for (let i = 0; i < plan.length; i++) {
      const text = texts[textAt[i] as number] as string;
      const start = bounds[2 * i] as number;
      const end = bounds[2 * i + 1] as number;
      if (plan[i] === Step.Loc) {
        if (!isPlainLocAsWritten(source, start, end)) return undefined;
        entry.loc = text;
      } else {
        // Whitespace around it has a finding (R11).
        if (!endsPlainAsWritten(source, start, end) && trimmed(text) !== text) return undefined;
        entry.lastmod = text;
      }
    }
    return entry.loc === '' ? undefined : entry;
  }

  close(): void {
    this.#paths?.close();
    switch (this.#stack.pop()) {
      case Role.Field:
        this.#capture = false;
        this.#field(trimmed(this.#text), this.#text);
        this.#text = '';
        return;
      case Role.Url:
      case Role.Item:
      case Role.Entry:
        this.#finishRecord();
        return;
      case Role.Sitemap:
        this.#finishEntry();
        return;
      case Role.Image:
        this.#finishImage();
        return;
      case Role.Video:
        if (this.#record !== undefined && this.#video !== undefined) (this.#record.videos ??= []).push(this.#video as VideoRecord);
        this.#video = undefined;
        return;
      case Role.Root:
        if (this.#entries === 0 && this.#entriesOpened === 0 && (this.#kind === 'urlset' || this.#kind === 'sitemapindex')) {
          this.#report(this.#kind === 'urlset' ? 'R6' : 'R19', 'error', `<${this.#kind}> has no entries; it needs at least one`);
        }
        return;
      default:
        return;
    }
  }

  /** The end of input: an entry cut off by truncation is kept if its `<loc>` was complete. */
  finish(): void {
    if (this.#record !== undefined && this.#record.loc !== '') this.#finishRecord();
    if (this.#entry !== undefined && this.#entry.loc !== '') this.#finishEntry();
  }

  #root(ns: string, local: string): Role {
    this.#rootSeen = true;
    if (local === 'urlset' || local === 'sitemapindex') {
      this.#setKind(local);
      if (ns !== NS.sitemap) {
        this.#coreNs = ns;
        this.#report('R5', 'error', `<${local}> must be in the namespace ${NS.sitemap}, found ${ns === '' ? 'none' : ns}; read by local names`);
      }
      return Role.Root;
    }
    if (local === 'rss' && ns === '') {
      this.#setKind('rss');
      return Role.Root;
    }
    if (local === 'feed' && ATOM_NS.has(ns)) {
      this.#setKind('atom');
      return Role.Root;
    }
    this.#setKind('unknown');
    const what = local.toLowerCase() === 'html' ? 'an HTML page, not a sitemap' : `root element <${local}>${ns === '' ? '' : ` in ${ns}`} is not a sitemap`;
    this.#report('R5', 'error', `${what}; expected <urlset> or <sitemapindex> (or an RSS or Atom feed)`);
    // Nothing more can come of this file: only its first well-formedness error, if any, is still worth a word.
    this.#quiet = true;
    return Role.Ignored;
  }

  #setKind(kind: SitemapKind): void {
    this.#kind = kind;
    this.#options.onKind(kind);
  }

  #child(parent: Role, ns: string, local: string, attributes: readonly XmlAttribute[]): Role {
    const core = ns === this.#coreNs || ns === NS.sitemap || (ns === '' && this.#coreInNoNamespace(parent, local));
    if (core && ((local === 'url' && IN_URL.has(parent)) || (local === 'sitemap' && parent === Role.Sitemap))) return this.#nextEntryInside(local);
    switch (parent) {
      case Role.Root:
        if (this.#kind === 'urlset' || this.#kind === 'sitemapindex') {
          const expected = this.#kind === 'urlset' ? 'url' : 'sitemap';
          if (core && local === expected) return this.#startEntry();
          if (core) {
            const mixed = local === 'url' || local === 'sitemap';
            this.#report(mixed ? 'R23' : this.#kind === 'urlset' ? 'R6' : 'R19', 'error', `<${local}> does not belong in <${this.#kind}>${mixed ? ': urls and sitemaps cannot be mixed' : ''}; ignored`);
          } else {
            this.#unknownNamespace(ns);
          }
          return Role.Ignored;
        }
        if (this.#kind === 'rss' && local === 'channel' && ns === '') return Role.Channel;
        if (this.#kind === 'atom' && local === 'entry' && ATOM_NS.has(ns)) return this.#startEntry();
        return Role.Ignored;
      case Role.Channel:
        return local === 'item' && ns === '' ? this.#startEntry() : Role.Ignored;
      case Role.Item:
        if (ns !== '') return Role.Ignored;
        if (local === 'link') return this.#capturing(Owner.Record, 'loc', attributes);
        if (local === 'pubDate') return this.#capturing(Owner.Record, 'pubDate', attributes);
        if (local === 'guid') return this.#capturing(Owner.Record, 'guid', attributes);
        return Role.Ignored;
      case Role.Entry:
        if (!ATOM_NS.has(ns)) return Role.Ignored;
        if (local === 'link') this.#atomLink(attributes);
        else if (local === 'updated' || local === 'modified') return this.#capturing(Owner.Record, local, attributes);
        return Role.Ignored;
      case Role.Sitemap:
        if (core && (local === 'loc' || local === 'lastmod')) return this.#coreField(Owner.Sitemap, local === 'loc' ? 0 : 1, attributes);
        if (core) this.#report('R19', 'error', `<${local}> does not belong in <sitemap> (only <loc> and <lastmod>); ignored`);
        else this.#unknownNamespace(ns);
        return Role.Ignored;
      case Role.Url:
        return this.#urlChild(ns, local, core, attributes);
      case Role.EndedEntry:
        // Each later entry opens inside it too, until the root closes it: read as the entries they are.
        if (core && local === (this.#kind === 'urlset' ? 'url' : 'sitemap')) return this.#startEntry();
        if (!this.#endedEntryContentReported) {
          this.#endedEntryContentReported = true;
          this.#report(this.#kind === 'urlset' ? 'R6' : 'R19', 'error', `<${local}> comes after an entry nested in the one it belongs to, which has ended; ignored`);
        }
        return Role.Ignored;
      case Role.Image:
        return ns === NS.image && IMAGE_FIELDS.has(local) ? this.#capturing(Owner.Image, local, attributes) : Role.Ignored;
      case Role.Video:
        return ns === NS.video ? this.#videoChild(local, attributes) : Role.Ignored;
      case Role.News:
        if (ns !== NS.news) return Role.Ignored;
        if (local === 'publication') {
          if (this.#news !== undefined) this.#news.publication = { name: '', language: '' };
          return Role.Publication;
        }
        return NEWS_FIELDS.has(local) ? this.#capturing(Owner.News, local, attributes) : Role.Ignored;
      case Role.Publication:
        return ns === NS.news && (local === 'name' || local === 'language') ? this.#capturing(Owner.Publication, local, attributes) : Role.Ignored;
      default:
        return Role.Ignored;
    }
  }

  /**
   * A core element whose default namespace was reset (`<url xmlns="">`, a `<loc>` in no namespace
   * inside a sitemap's `<urlset>`): read by local name as lenient readers read it, with one R5 error
   * for the file, since namespace-aware readers and the schema do not see it.
   */
  #coreInNoNamespace(parent: Role, local: string): boolean {
    const known =
      parent === Role.Root ? (this.#kind === 'urlset' && local === 'url') || (this.#kind === 'sitemapindex' && local === 'sitemap')
      : parent === Role.Url ? coreUrlChild(local) !== -1
      : parent === Role.Sitemap && (local === 'loc' || local === 'lastmod');
    if (!known) return false;
    if (!this.#noNamespaceReported) {
      this.#noNamespaceReported = true;
      this.#report('R5', 'error', `<${local}> is in no namespace (its default namespace reset, xmlns=""), not in ${this.#coreNs}; read by local name`);
    }
    return true;
  }

  #urlChild(ns: string, local: string, core: boolean, attributes: readonly XmlAttribute[]): Role {
    const record = this.#record as ParsedRecord;
    if (core) {
      const index = coreUrlChild(local);
      if (index === -1) {
        this.#report(local === 'sitemap' ? 'R23' : 'R6', 'error', `<${local}> does not belong in <url> (only loc, lastmod, changefreq, priority and extensions); ignored`);
        return Role.Ignored;
      }
      if (this.#extensionSeenInUrl) this.#report('R7', 'error', `<${local}> comes after an extension element; the schema wants loc, lastmod, changefreq, priority first`);
      return this.#coreField(Owner.Record, index, attributes);
    }
    this.#extensionSeenInUrl = true;
    if (ns === NS.image && local === 'image') {
      this.#image = { loc: '' };
      return Role.Image;
    }
    if (ns === NS.video && local === 'video') {
      this.#video = {};
      return Role.Video;
    }
    if (ns === NS.news && local === 'news') {
      if (record.news !== undefined) this.#report('R37', 'error', 'more than one <news:news> in a <url>; the first is kept');
      this.#news = {};
      if (record.news === undefined) record.news = this.#news as NewsRecord;
      return Role.News;
    }
    if (ns === NS.xhtml && local === 'link') {
      this.#alternate(attributes);
      return Role.Ignored;
    }
    this.#unknownNamespace(ns);
    return Role.Ignored;
  }

  /** A child of `<video:video>`. What R36 says of a repeat or a deprecated part is said here: the record keeps neither, so the validator cannot. */
  #videoChild(local: string, attributes: readonly XmlAttribute[]): Role {
    if (local === 'tvshow') {
      this.#videoFinding('warn', 'tvshow', (field) => `${field} ${DEPRECATED}`);
      return Role.Ignored;
    }
    if (!VIDEO_FIELDS.has(local)) return Role.Ignored;
    // The first is kept, as for a repeated <loc> or <news:news>: reading on would let a later one undo it.
    if ((local === 'restriction' || local === 'platform') && this.#video?.[local] !== undefined) {
      this.#videoFinding('error', local, () => `more than one <video:${local}> in a <video:video>; the first is kept`);
      return Role.Ignored;
    }
    if (local === 'player_loc') {
      for (const { ns, local: name } of attributes) {
        if (ns === '' && DEPRECATED_PLAYER_ATTRIBUTES.has(name)) this.#videoFinding('warn', 'player_loc', (field) => `the ${name} attribute of ${field} ${DEPRECATED}`);
      }
    }
    return this.#capturing(Owner.Video, local, attributes);
  }

  /** An R36 finding about `key` of the video being read (it joins the record at its end), at the element opening. */
  #videoFinding(level: DiagnosticLevel, key: string, message: (field: string) => string): void {
    const field = `videos[${(this.#record?.videos?.length ?? 0) + 1}].${key}`;
    this.#report('R36', level, message(field), this.#record?.loc || undefined, undefined, field);
  }

  /** A core field (loc, lastmod…): each at most once (R6/R19), in schema order (R7). */
  #coreField(owner: Owner, index: number, attributes: readonly XmlAttribute[]): Role {
    const local = CORE_URL_CHILDREN[index] as string;
    const bit = 1 << index;
    if (this.#seenInUrl & bit) {
      this.#report(owner === Owner.Sitemap ? 'R19' : 'R6', 'error', `more than one <${local}>; the first is kept`);
      return Role.Ignored;
    }
    if (this.#seenInUrl > bit) this.#report(owner === Owner.Sitemap ? 'R19' : 'R7', 'error', `<${local}> is out of order; the schema wants ${owner === Owner.Sitemap ? 'loc, lastmod' : 'loc, lastmod, changefreq, priority'}`);
    this.#seenInUrl |= bit;
    const role = this.#capturing(owner, local, attributes);
    if (index === 0) this.#locStart = this.#fieldStart;
    return role;
  }

  #capturing(owner: Owner, key: string, attributes: readonly XmlAttribute[]): Role {
    // Findings on the value (whitespace, a relative URL, a date) point at the element, not at its end tag where the value is known.
    this.#fieldStart = this.#options.position();
    this.#capture = true;
    this.#text = '';
    this.#fieldOwner = owner;
    this.#fieldKey = key;
    this.#fieldAttributes = attributes;
    return Role.Field;
  }

  /**
   * A `<url>` opening inside a `<url>` (or `<sitemap>` in `<sitemap>`): the outer one's end tag is
   * missing, the commonest break after a bare `&`. The outer entry ends here and the inner one is
   * read as the next; without this every entry after the break would be lost inside it.
   */
  #nextEntryInside(local: string): Role {
    this.#report(this.#kind === 'urlset' ? 'R6' : 'R19', 'error', `<${local}> opens inside <${local}> (its </${local}> is missing?); read as the next entry`);
    // The entry and the groups open in it (an <image:image> whose end is missing too) end as their end tags would end them.
    const stack = this.#stack;
    let depth = stack.length - 1;
    while (depth > 0 && stack[depth] !== Role.Url && stack[depth] !== Role.Sitemap) depth--;
    const ended = stack.length - depth;
    for (let i = 0; i < ended; i++) this.close();
    for (let i = 0; i < ended; i++) stack.push(Role.EndedEntry);
    this.#endedEntryContentReported = false;
    return this.#startEntry();
  }

  #startEntry(): Role {
    if (this.#options.trackPositions) {
      this.#entryStart = this.#options.position();
      this.#paths = new FieldPaths(this.#kind);
      this.#fields = new Map();
    }
    this.#seenInUrl = 0;
    this.#extensionSeenInUrl = false;
    this.#entriesOpened++;
    if (this.#kind === 'sitemapindex') {
      this.#entry = startedEntry<SitemapIndexEntry>();
      return Role.Sitemap;
    }
    this.#record = startedEntry<ParsedRecord>();
    this.#atomLinkRank = 0;
    this.#permalink = undefined;
    return this.#kind === 'urlset' ? Role.Url : this.#kind === 'rss' ? Role.Item : Role.Entry;
  }

  #field(value: string, raw: string): void {
    const key = this.#fieldKey;
    // The schema collapses whitespace around a date (tolerated, R11) but not around a changefreq (R13).
    if (value !== raw && value !== '' && (this.#kind === 'urlset' || this.#kind === 'sitemapindex')) {
      if (key === 'lastmod') this.#report('R11', 'warn', `whitespace around the lastmod "${value}"; tolerated, but write it without`, undefined, this.#fieldStart);
      else if (key === 'changefreq') this.#report('R13', 'error', `whitespace around the changefreq "${value}"; the schema wants the word alone`, undefined, this.#fieldStart);
    }
    switch (this.#fieldOwner) {
      case Owner.Record: {
        const record = this.#record;
        if (record === undefined) return;
        // Named stores, not record[key]: every record then shares one hidden class.
        if (key === 'loc') record.loc = this.#loc(value, raw);
        else if (key === 'lastmod') record.lastmod = value;
        else if (key === 'changefreq') record.changefreq = value;
        else if (key === 'priority') record.priority = value;
        else if (key === 'pubDate') this.#pubDate(record, value);
        else if (key === 'guid') this.#guid(value);
        // What is left is Atom's <updated> or <modified>.
        else this.#atomDate(record, key, value);
        return;
      }
      case Owner.Sitemap:
        if (this.#entry === undefined) return;
        if (key === 'loc') this.#entry.loc = this.#loc(value, raw);
        else this.#entry.lastmod = value;
        return;
      case Owner.Image:
        if (this.#image !== undefined) (this.#image as unknown as Record<string, string>)[key] = value;
        return;
      case Owner.Video:
        if (this.#video !== undefined) videoField(this.#video, key, value, this.#fieldAttributes);
        return;
      case Owner.News:
        if (this.#news !== undefined) (this.#news as unknown as Record<string, string>)[key] = value;
        return;
      case Owner.Publication:
        if (this.#news?.publication !== undefined) this.#news.publication[key as 'name' | 'language'] = value;
        return;
    }
  }

  /** A `<loc>` as found: trimmed (R8 warns about the whitespace), relative ones resolved against the base (R8). */
  #loc(value: string, raw: string): string {
    const at = this.#fieldStart;
    if (value.length !== raw.length && value !== '') this.#report('R8', 'warn', `whitespace around the URL in <${this.#kind === 'rss' ? 'link' : 'loc'}> (trimmed)`, value, at);
    if (value === '' || isAbsolute(value)) return value;
    const base = this.#options.base;
    if (base === undefined) {
      this.#report('R8', 'error', `"${value}" is a relative URL and the file's own URL is not known (--base) to resolve it`, value, at);
      return value;
    }
    try {
      const resolved = new URL(value, base).href;
      this.#report('R8', 'error', `"${value}" is a relative URL; resolved against ${base.href}`, resolved, at);
      return resolved;
    } catch {
      this.#report('R8', 'error', `"${value}" cannot be resolved against ${base.href}`, value, at);
      return value;
    }
  }

  /** RSS dates are RFC 822; records carry W3C Datetime (R31). */
  #pubDate(record: ParsedRecord, value: string): void {
    const url = record.loc || undefined;
    const date = parseRfc822Date(value);
    // Feeds often carry a W3C (ISO 8601) date instead; it is unambiguous, so it is read, with a word.
    const w3c = date === undefined ? parseW3cDatetime(value.trim()) : undefined;
    const epoch = date?.epoch ?? w3c?.epoch;
    if (epoch === undefined) {
      this.#report('R31', 'warn', `<pubDate> "${value}" is not an RFC 822 date; ignored`, url, this.#fieldStart);
      return;
    }
    for (const doubt of date?.doubts ?? []) this.#report('R31', 'warn', `<pubDate> "${value}" ${doubt}`, url, this.#fieldStart);
    if (w3c !== undefined) this.#report('R31', 'warn', `<pubDate> "${value}" is a W3C date, not RFC 822; read as such`, url, this.#fieldStart);
    record.lastmod = new Date(epoch).toISOString().replace(/\.000Z$/, 'Z');
  }

  /** An Atom date (RFC 3339) is checked as a sitemap's is, as a W3C Datetime (R11): one that is none is left out with a word, as a bad `<pubDate>` is (R32). */
  #atomDate(record: ParsedRecord, element: string, value: string): void {
    if (parseW3cDatetime(value) === undefined) {
      this.#report('R32', 'warn', `<${element}> "${value}" is not a W3C Datetime; ignored`, record.loc || undefined, this.#fieldStart);
      return;
    }
    record.lastmod = value;
  }

  /** RSS 2.0: a `<guid>` is its item's permanent URL unless isPermaLink says "false"; only one that is an http(s) URL can stand in for a missing `<link>`. */
  #guid(value: string): void {
    const isPermaLink = attributeValue(this.#fieldAttributes, 'isPermaLink');
    if (this.#permalink !== undefined || (isPermaLink !== undefined && isPermaLink !== 'true')) return;
    if (value.startsWith('https://') || value.startsWith('http://')) this.#permalink = { url: value, at: this.#fieldStart };
  }

  /**
   * An item with no `<link>` but a permalink `<guid>`: RSS 2.0 makes that its URL, so it is read.
   * R31 (and the search engines that read feeds as sitemaps) take an item's URL from `<link>` alone, though:
   * a warning, at the `<guid>`, where findings on the URL go too.
   */
  #urlFromGuid(record: ParsedRecord, { url, at }: Permalink): void {
    record.loc = url;
    this.#report('R31', 'warn', '<item> has no <link>: its permalink <guid> is read as its URL, but feed readers take the URL of an item from <link> (R31)', url, at);
    if (this.#options.trackPositions) this.#fields.set('loc', at);
  }

  /** Atom (R32): the entry's URL is a link with rel="alternate" or no rel, never self/edit/enclosure. */
  #atomLink(attributes: readonly XmlAttribute[]): void {
    const href = attributeValue(attributes, 'href');
    if (href === undefined || this.#record === undefined) return;
    const rel = attributeValue(attributes, 'rel');
    const rank = rel === undefined ? 2 : rel === 'alternate' ? 3 : 0;
    if (rank > this.#atomLinkRank) {
      this.#atomLinkRank = rank;
      this.#record.loc = this.#loc(href.trim(), href.trim());
      // Findings on the URL go to the link it came from, not to a rel="edit" link before it.
      if (this.#options.trackPositions) this.#fields.set('loc', this.#options.position());
    }
  }

  #alternate(attributes: readonly XmlAttribute[]): void {
    const rel = attributeValue(attributes, 'rel');
    const hreflang = attributeValue(attributes, 'hreflang');
    const href = attributeValue(attributes, 'href');
    if (rel !== 'alternate' || hreflang === undefined || href === undefined) {
      this.#report('R38', 'error', '<xhtml:link> needs rel="alternate", hreflang and href; ignored');
      return;
    }
    if (this.#record === undefined) return;
    const alternates = (this.#record.alternates ??= []);
    alternates.push({ hreflang, href: isAbsolute(href) ? href : this.#relativeHref(href, alternates.length + 1) });
  }

  /** An alternate's href must be absolute (R38), as a `<loc>`: relative, it is an R8 error, resolved against the base when there is one. */
  #relativeHref(href: string, place: number): string {
    const field = `alternates[${place}].href`;
    const base = this.#options.base;
    if (base === undefined) {
      this.#report('R8', 'error', `${field} "${href}" is a relative URL and the file's own URL is not known (--base) to resolve it`, href, undefined, field);
      return href;
    }
    if (!URL.canParse(href, base.href)) {
      this.#report('R8', 'error', `${field} "${href}" cannot be resolved against ${base.href}`, href, undefined, field);
      return href;
    }
    const resolved = new URL(href, base).href;
    this.#report('R8', 'error', `${field} "${href}" is a relative URL; resolved against ${base.href}`, resolved, undefined, field);
    return resolved;
  }

  #unknownNamespace(ns: string): void {
    if (this.#unknownNamespaces.has(ns)) return;
    this.#unknownNamespaces.add(ns);
    const what = ns === '' ? 'in no namespace' : ns.startsWith(UNDECLARED_PREFIX_NS) ? `with the undeclared prefix ${ns.slice(UNDECLARED_PREFIX_NS.length)}:` : `in the unknown namespace ${ns}`;
    this.#report('R33', 'warn', `elements ${what} ignored`);
  }

  #finishImage(): void {
    const image = this.#image;
    this.#image = undefined;
    if (image === undefined || this.#record === undefined) return;
    if (image.loc === '') {
      this.#report('R34', 'error', '<image:image> without <image:loc>; ignored', this.#record.loc || undefined);
      return;
    }
    (this.#record.images ??= []).push(image);
  }

  #finishRecord(): void {
    const record = this.#record;
    this.#record = undefined;
    this.#news = undefined;
    // The entry is over, emitted or not: elements after it belong to no field.
    this.#paths = undefined;
    if (record === undefined || this.stopped) return;
    if (record.loc === '' && this.#permalink !== undefined) this.#urlFromGuid(record, this.#permalink);
    if (record.loc === '' && this.#kind === 'urlset' && (this.#seenInUrl & 1) !== 0) {
      this.#report('R8', 'error', '<loc> is empty; the <url> is skipped', undefined, this.#locStart);
      return;
    }
    if (record.loc === '') {
      const what = this.#kind === 'rss' ? '<item> without <link>' : this.#kind === 'atom' ? '<entry> without a <link href>' : '<url> without <loc>';
      this.#report(this.#kind === 'urlset' ? 'R6' : this.#kind === 'rss' ? 'R31' : 'R32', 'error', `${what}; skipped`);
      return;
    }
    this.#entries++;
    this.#options.emit(record, this.#entryPlace());
  }

  #finishEntry(): void {
    const entry = this.#entry;
    this.#entry = undefined;
    this.#paths = undefined;
    if (entry === undefined || this.stopped) return;
    if (entry.loc === '' && (this.#seenInUrl & 1) !== 0) {
      this.#report('R8', 'error', '<loc> is empty; the <sitemap> is skipped', undefined, this.#locStart);
      return;
    }
    if (entry.loc === '') {
      this.#report('R19', 'error', '<sitemap> without <loc>; skipped');
      return;
    }
    this.#entries++;
    this.#options.emit(entry, this.#entryPlace());
  }

  #entryPlace(): EntryPlace | undefined {
    return this.#entryStart === undefined ? undefined : { start: this.#entryStart, fields: this.#fields };
  }

  /** With trackPositions, an element opening inside an entry read tag by tag: where its field path first starts is noted. */
  #enterField(local: string): void {
    const path = (this.#paths as FieldPaths).open(local);
    if (path !== undefined && !this.#fields.has(path)) noteFirstPlace(this.#fields, path, this.#options.position());
  }
}

function wholeEntryPlace(start: XmlPosition, source: string | undefined): EntryPlace {
  return source === undefined ? { start } : { start, source };
}

/** The index of a core `<url>` child in CORE_URL_CHILDREN (schema order), or -1. */
function coreUrlChild(local: string): number {
  switch (local) {
    case 'loc':
      return 0;
    case 'lastmod':
      return 1;
    case 'changefreq':
      return 2;
    case 'priority':
      return 3;
    default:
      return -1;
  }
}

/** The extension group an entry-level element starts, if it is one the whole-entry path reads. */
function extensionGroup(name: XmlName): Group | undefined {
  if (name.ns === NS.image && name.local === 'image') return Group.Image;
  if (name.ns === NS.video && name.local === 'video') return Group.Video;
  if (name.ns === NS.news && name.local === 'news') return Group.News;
  return undefined;
}

/** The key a leaf of `group` is stored under, or undefined for one the usual path ignores. */
function groupField(group: Group, name: XmlName): string | undefined {
  switch (group) {
    case Group.Image:
      return name.ns === NS.image && IMAGE_FIELDS.has(name.local) ? name.local : undefined;
    case Group.Video:
      return name.ns === NS.video && VIDEO_FIELDS.has(name.local) ? name.local : undefined;
    case Group.News:
      return name.ns === NS.news && NEWS_FIELDS.has(name.local) ? name.local : undefined;
    default:
      return name.ns === NS.news && (name.local === 'name' || name.local === 'language') ? name.local : undefined;
  }
}

/**
 * `seen` (bits of the video fields that may come once in a video: restriction, platform) with
 * `local` added, or -1 when the usual path reports it (R36): a second of those, or a tvshow.
 */
function videoFieldsSeen(seen: number, local: string): number {
  if (local === 'tvshow') return -1;
  const bit = local === 'restriction' ? 1 : local === 'platform' ? 2 : 0;
  return (seen & bit) === 0 ? seen | bit : -1;
}

const GROUP_STARTS = [Step.ImageStart, Step.VideoStart, Step.NewsStart, Step.PublicationStart] as const;
/** News and its publication need nothing at their end. */
const GROUP_ENDS = [Step.ImageEnd, Step.VideoEnd, Step.Skip, Step.Skip] as const;
const NO_ATTRIBUTES: readonly XmlAttribute[] = [];

function attributeValue(attributes: readonly XmlAttribute[], local: string): string | undefined {
  for (const attribute of attributes) if (attribute.ns === '' && attribute.local === local) return attribute.value;
  return undefined;
}

/**
 * A new entry, `loc` to be filled in. Every entry starts so, on the whole-entry path and the usual
 * one, so records of one shape share V8's hidden class and a consumer's reads of them stay fast
 * (one file's records once took six, and every read of a field was a megamorphic lookup). From an
 * empty literal, which V8 gives room for four fields in the object itself: `{ loc: '' }` would put
 * the next ones in a second allocation.
 */
function startedEntry<Entry extends { loc: string }>(): Entry {
  const entry = {} as Entry;
  entry.loc = '';
  return entry;
}

/** A `<loc>` with no finding: absolute http(s), nothing trimmed (a trimmed or relative one is reported, R8). */
const isPlainLoc = (value: string, raw: string): boolean => value.length === raw.length && (value.startsWith('https://') || value.startsWith('http://'));

const isVisibleAscii = (c: number): boolean => c > Char.Space && c < Char.Delete;

/**
 * Whether the text written in `source` from `start` to `end` has nothing to trim, told from its ends
 * as written: visible ASCII, and no reference there (which could decode to whitespace).
 */
function endsPlainAsWritten(source: string, start: number, end: number): boolean {
  if (end <= start) return false;
  const first = source.charCodeAt(start);
  const last = source.charCodeAt(end - 1);
  return isVisibleAscii(first) && first !== Char.Ampersand && isVisibleAscii(last) && last !== Char.Semicolon;
}

/**
 * `isPlainLoc(trimmed(text), text)` for a `<loc>` written in `source` from `start` to `end`: it
 * starts with a literal `http://` or `https://` and ends with a visible character that ends no
 * reference. (One that only decodes to such a URL goes the usual way, which says the same.)
 */
function isPlainLocAsWritten(source: string, start: number, end: number): boolean {
  const last = source.charCodeAt(end - 1);
  if (end - start < 7 || !isVisibleAscii(last) || last === Char.Semicolon) return false;
  if (source.charCodeAt(start) !== Char.LowerH || source.charCodeAt(start + 1) !== Char.LowerT || source.charCodeAt(start + 2) !== Char.LowerT || source.charCodeAt(start + 3) !== Char.LowerP) return false;
  const s = source.charCodeAt(start + 4) === Char.LowerS ? start + 1 : start;
  return source.charCodeAt(s + 4) === Char.Colon && source.charCodeAt(s + 5) === Char.Slash && source.charCodeAt(s + 6) === Char.Slash;
}

/** `text.trim()`, skipped when the ends are visible ASCII (trim would flatten a decoded value for nothing). */
function trimmed(text: string): string {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return isVisibleAscii(first) && isVisibleAscii(last) ? text : text.trim();
}

const splitList = (value: string): string[] => (value === '' ? [] : value.split(/\s+/));

/** Video fields in the writer's input shape: lists split, attributes folded in. */
function videoField(video: Partial<VideoRecord>, key: string, value: string, attributes: readonly XmlAttribute[]): void {
  const target = video as Record<string, unknown>;
  switch (key) {
    case 'tag':
      (video.tags ??= []).push(value);
      return;
    case 'price': {
      const price: Record<string, string> = { value, currency: attributeValue(attributes, 'currency') ?? '' };
      const type = attributeValue(attributes, 'type');
      const resolution = attributeValue(attributes, 'resolution');
      if (type !== undefined) price['type'] = type;
      if (resolution !== undefined) price['resolution'] = resolution;
      (video.prices ??= []).push(price as unknown as NonNullable<VideoRecord['prices']>[number]);
      return;
    }
    case 'restriction':
      target['restriction'] = { relationship: attributeValue(attributes, 'relationship') ?? '', countries: splitList(value) };
      return;
    case 'platform':
      target['platform'] = { relationship: attributeValue(attributes, 'relationship') ?? '', platforms: splitList(value) };
      return;
    case 'uploader': {
      const info = attributeValue(attributes, 'info');
      target['uploader'] = info === undefined ? { name: value } : { name: value, info };
      return;
    }
    default:
      target[key] = value;
  }
}

/** A URL with a scheme: tested by the usual two first, for speed. */
function isAbsolute(url: string): boolean {
  return url.startsWith('https://') || url.startsWith('http://') || hasScheme(url);
}

/**
 * A page's facts but its images: robots directives, canonical, meta refresh, hreflang alternates,
 * `<base href>` and title, read from the fingerprint's own pass over the page (a `TagWatcher`), so
 * a page is read once and its fingerprint made in the same pass; pure.
 */
import { attributeOf, type Attributes } from './attributes.ts';
import { contentOf, hash128, isSpace, type ContentHash, type FingerprintRules, type TagWatcher } from './fingerprint.ts';

export interface PageRobots {
  /** `noindex` or `none` in `<meta name="robots">` or `<meta name="googlebot">`. */
  noindex: boolean;
  /** `nofollow` or `none` there. */
  nofollow: boolean;
}

export interface PageFacts {
  robots: PageRobots;
  /** The first `<link rel="canonical">` of the head, absolute (resolved against `<base href>` and the page URL). */
  canonical?: string;
  /** The head's first `<meta http-equiv="refresh">`: its delay in seconds, and its target, absolute, when it names one. */
  refresh?: { delay: number; url?: string };
  /** The head's `<link rel="alternate" hreflang>`, absolute, in page order, each hreflang once. */
  alternates: Array<{ hreflang: string; href: string }>;
  /** Content images, absolute, each once, in page order (see `readPage`). */
  images: string[];
  /** The head's first `<title>`, character references decoded, whitespace collapsed. */
  title?: string;
  /** 32 hex digits; the same page rebuilt gives the same fingerprint (see ContentFingerprint). */
  fingerprint: string;
}

/**
 * Character references decoded as a parser decodes them, in an attribute value and in text (entities'
 * `decodeHTMLAttribute` and `decodeHTML`: `ENTITY_DECODERS` in page.ts). Given by the caller, so a
 * thread that meets no reference in the values it reads never loads them (~11 ms a thread).
 */
export interface Decoders {
  attribute(value: string): string;
  text(text: string): string;
}

export interface ReadHeadOptions extends FingerprintRules {
  /** The hash of the fingerprint's content. @default hash128 */
  hash?: ContentHash;
  decoders: Decoders;
}

/** Elements that belong in `<head>`; any other start tag, or text, starts the body, as a browser's parser has it. */
const HEAD_ELEMENTS = new Set(['html', 'head', 'title', 'meta', 'link', 'base', 'script', 'style', 'noscript', 'template', 'basefont', 'bgsound', 'noframes']);

/** Parses a `<meta http-equiv="refresh">` content: `5`, `0; url=/x/`, `0;URL='/x/'`. */
export function parseRefresh(content: string): { delay: number; url?: string } | undefined {
  const m = /^\s*(\d+(?:\.\d*)?)\s*(?:[;,]\s*(?:url\s*=\s*)?(?:"([^"]*)"?|'([^']*)'?|(.*?)))?\s*$/is.exec(content);
  if (m === null) return undefined;
  const url = (m[2] ?? m[3] ?? m[4] ?? '').trim();
  return url === '' ? { delay: Math.floor(Number(m[1])) } : { delay: Math.floor(Number(m[1])), url };
}

/** Robots tokens of one meta content: `noindex, nofollow`, `none`. */
function robotsTokens(content: string): string[] {
  return content.toLowerCase().split(/[\s,]+/).filter((t) => t !== '');
}

/**
 * The head's facts, told the page's tags by the fingerprint's scan. The head runs until the first
 * start tag that does not belong there or the first text that is not whitespace (as in a browser;
 * Google reads no head element past an invalid one either). Canonical, alternates and refresh count
 * only there; a robots `<meta>` counts anywhere (crawlers read a misplaced one), the first
 * `<base href>` anywhere (as the document's base URL). Nothing inside `<template>` counts (inert
 * content). Inside the head's `<noscript>`, which a browser running scripts reads as text, tags do not
 * end the head (a tag manager's `<iframe>` there is common); its refresh still counts, as redirect
 * stubs write one there for clients without scripts (sphinx-reredirects) and redirect with a script.
 */
export class HeadReader implements TagWatcher {
  all = true;
  readonly #pageUrl: string;
  readonly #decoders: Decoders;
  #template = 0;
  #noscript = 0;
  #base: string | undefined;
  readonly #robots: PageRobots = { noindex: false, nofollow: false };
  #canonical: string | undefined;
  #refresh: { delay: number; url?: string } | undefined;
  readonly #alternates: Array<{ hreflang: string; href: string }> = [];
  #title: string | undefined;

  constructor(pageUrl: string, decoders: Decoders) {
    this.#pageUrl = pageUrl;
    this.#decoders = decoders;
  }

  startTag(name: string, a: Attributes, text: string | undefined): void {
    if (name === 'template') {
      this.#template++;
      return;
    }
    if (this.#template > 0) return;
    if (name === 'noscript' && this.all) this.#noscript++;
    else if (this.all && this.#noscript === 0 && !HEAD_ELEMENTS.has(name)) this.all = false;
    switch (name) {
      case 'meta':
        this.#meta(a);
        break;
      case 'link':
        if (this.all) this.#link(a);
        break;
      case 'base':
        if (this.#base === undefined) {
          const href = attributeOf(a, 'href');
          if (href !== undefined) this.#base = this.#attribute(href)?.trim();
        }
        break;
      case 'title':
        if (this.all && this.#title === undefined && text !== undefined) this.#title = (text.includes('&') ? this.#decoders.text(text) : text).replace(/[\t\n\f\r ]+/g, ' ').trim();
        break;
    }
  }

  endTag(name: string): void {
    if (name === 'template') this.#template = Math.max(0, this.#template - 1);
    else if (name === 'noscript' && this.#template === 0) this.#noscript = Math.max(0, this.#noscript - 1);
  }

  text(html: string, from: number, to: number): void {
    if (this.#template > 0 || this.#noscript > 0) return;
    for (let i = from; i < to; i++) {
      if (!isSpace(html.charCodeAt(i))) {
        this.all = false;
        return;
      }
    }
  }

  /** The document's base URL: `<base href>` resolved against the page URL, else the page URL. */
  base(): string {
    if (this.#base === undefined) return this.#pageUrl;
    try {
      return new URL(this.#base, this.#pageUrl).href;
    } catch {
      return this.#pageUrl;
    }
  }

  /** The facts gathered, URLs made absolute; `images` empty. */
  facts(fingerprint: string): PageFacts {
    const facts: PageFacts = { robots: this.#robots, alternates: [], images: [], fingerprint };
    const base = this.base();
    // Each href parsed once: a page's canonical and its own hreflang links mostly name the same URL (~0.9 µs a parse).
    const parsed = new Map<string, string | undefined>();
    const absolute = (href: string): string | undefined => {
      if (parsed.has(href)) return parsed.get(href);
      let url: string | undefined;
      try {
        url = new URL(href, base).href;
      } catch {
        url = undefined;
      }
      parsed.set(href, url);
      return url;
    };
    const canonical = this.#canonical === undefined ? undefined : absolute(this.#canonical);
    if (canonical !== undefined) facts.canonical = canonical;
    if (this.#refresh !== undefined) {
      const url = this.#refresh.url === undefined ? undefined : absolute(this.#refresh.url);
      facts.refresh = url === undefined ? { delay: this.#refresh.delay } : { delay: this.#refresh.delay, url };
    }
    const languages = new Set<string>();
    for (const { hreflang, href } of this.#alternates) {
      const url = absolute(href);
      if (url === undefined || languages.has(hreflang.toLowerCase())) continue;
      languages.add(hreflang.toLowerCase());
      facts.alternates.push({ hreflang, href: url });
    }
    if (this.#title !== undefined) facts.title = this.#title;
    return facts;
  }

  /** An attribute value as a parser gives it: character references decoded (most values have none). */
  #attribute(value: string | undefined): string | undefined {
    return value === undefined || !value.includes('&') ? value : this.#decoders.attribute(value);
  }

  #meta(a: Attributes): void {
    const content = this.#attribute(attributeOf(a, 'content'));
    if (content === undefined) return;
    const name = (this.#attribute(attributeOf(a, 'name')) ?? '').trim().toLowerCase();
    if (name === 'robots' || name === 'googlebot') {
      const tokens = robotsTokens(content);
      if (tokens.includes('noindex') || tokens.includes('none')) this.#robots.noindex = true;
      if (tokens.includes('nofollow') || tokens.includes('none')) this.#robots.nofollow = true;
    } else if (this.all && this.#refresh === undefined && (this.#attribute(attributeOf(a, 'http-equiv')) ?? '').trim().toLowerCase() === 'refresh') {
      this.#refresh = parseRefresh(content);
    }
  }

  #link(a: Attributes): void {
    const rel = ` ${(this.#attribute(attributeOf(a, 'rel')) ?? '').toLowerCase().replace(/[\t\n\f\r ]+/g, ' ')} `;
    const href = this.#attribute(attributeOf(a, 'href'))?.trim();
    if (href === undefined) return;
    if (rel.includes(' canonical ') && this.#canonical === undefined) this.#canonical = href;
    const hreflang = this.#attribute(attributeOf(a, 'hreflang'))?.trim();
    if (rel.includes(' alternate ') && hreflang !== undefined && hreflang !== '') this.#alternates.push({ hreflang, href });
  }
}

/** A page's facts but its images (`images` is empty), and its content fingerprint, from one pass over it. */
export function readHead(html: string, pageUrl: string, options: ReadHeadOptions): PageFacts {
  const head = new HeadReader(pageUrl, options.decoders);
  const content = contentOf(html, options, head);
  return head.facts((options.hash ?? hash128)(content));
}

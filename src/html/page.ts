/**
 * Page facts from a page's HTML, read with htmlparser2's streaming parser (no tree is built, so a
 * large page costs little memory): robots directives, canonical, meta refresh, hreflang alternates,
 * content images, title and the content fingerprint.
 */
import { Parser } from 'htmlparser2';
import { fingerprintHtml, type ContentHash, type FingerprintRules } from './fingerprint.ts';

export interface PageRobots {
  /** `noindex` or `none` in `<meta name="robots">` or `<meta name="googlebot">`. */
  noindex: boolean;
  /** `nofollow` or `none` there. */
  nofollow: boolean;
}

export interface PageFacts {
  robots: PageRobots;
  /** The first `<link rel="canonical">` outside `<body>`, absolute (resolved against `<base href>` and the page URL). */
  canonical?: string;
  /** `<meta http-equiv="refresh">`: its delay in seconds, and its target, absolute, when it names one. */
  refresh?: { delay: number; url?: string };
  /** `<link rel="alternate" hreflang>` outside `<body>`, absolute, in page order, each hreflang once. */
  alternates: Array<{ hreflang: string; href: string }>;
  /** Content images, absolute, each once, in page order (see `readPage`). */
  images: string[];
  /** The first `<title>` outside SVG, whitespace collapsed. */
  title?: string;
  /** 32 hex digits; the same page rebuilt gives the same fingerprint (see ContentFingerprint). */
  fingerprint: string;
}

export interface ReadPageOptions extends FingerprintRules {
  /** At most this many images are kept (the image extension allows 1,000 a URL). @default 1000 */
  maxImages?: number;
  /** Read the body's images. Without them the parser stops where the body starts (the fingerprint reads the whole page apart). @default true */
  images?: boolean;
  /** The hash of the fingerprint's content. @default hash128 */
  hash?: ContentHash;
}

/** Elements that belong in `<head>`; any other starts the body. */
const HEAD_ELEMENTS = new Set(['html', 'head', 'title', 'meta', 'link', 'base', 'script', 'style', 'noscript', 'template']);
/** A robots meta in the body (misplaced, but crawlers read it): the body is read too. */
const ROBOTS_META = /^<meta\b[^>]*\b(?:robots|googlebot)\b/i;

/** Whether a `<meta>` naming robots or googlebot stands after `at`: found by `indexOf`, far cheaper than a case-blind regex over the body. */
function robotsMetaAfter(html: string, at: number): boolean {
  for (const open of ['<meta', '<META', '<Meta']) {
    for (let i = html.indexOf(open, at); i !== -1; i = html.indexOf(open, i + 5)) if (ROBOTS_META.test(html.slice(i, i + 400))) return true;
  }
  return false;
}

/** Elements whose images are site chrome (logos, icons), unless inside `<main>` or `<article>`. */
const CHROME = new Set(['header', 'footer']);

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

/** The URL a srcset asks for at its largest: the biggest `w`, else the biggest `x` (1x when none is given); parsed as HTML's srcset algorithm splits it. */
export function largestInSrcset(srcset: string): string | undefined {
  let best: string | undefined;
  let bestSize = -1;
  let at = 0;
  while (at < srcset.length) {
    while (at < srcset.length && /[\s,]/.test(srcset.charAt(at))) at++;
    const start = at;
    while (at < srcset.length && !/\s/.test(srcset.charAt(at))) at++;
    let url = srcset.slice(start, at);
    if (url === '') break;
    let descriptor = '';
    // A URL may hold commas of its own; commas at its end close the candidate.
    if (url.endsWith(',')) url = url.replace(/,+$/, '');
    else {
      const comma = srcset.indexOf(',', at);
      descriptor = srcset.slice(at, comma === -1 ? srcset.length : comma).trim();
      at = comma === -1 ? srcset.length : comma + 1;
    }
    const d = /^(\d+(?:\.\d+)?)([wx])$/i.exec(descriptor);
    // A w width outranks any density: w on its own scale above x.
    const size = d === null ? 1 : d[2]?.toLowerCase() === 'w' ? 1e6 + Number(d[1]) : Number(d[1]);
    if (size > bestSize) {
      best = url;
      bestSize = size;
    }
  }
  return best;
}

/** The parser's side of `readPage`: the facts from the elements as they open and close. */
class PageReader {
  readonly #parser: Parser;
  readonly #pageUrl: string;
  /** Read the whole page: images are wanted, or a robots meta stands in the body. */
  #whole: boolean;
  readonly #wantImages: boolean;
  /** Where the parser stopped, at the body's first element, when images are not read. */
  stoppedAt: number | undefined;
  readonly #maxImages: number;
  #base: string | undefined;
  #robots: PageRobots = { noindex: false, nofollow: false };
  #canonical: string | undefined;
  #refresh: { delay: number; url?: string } | undefined;
  readonly #alternates: Array<{ hreflang: string; href: string }> = [];
  readonly #sources: string[] = [];
  #title: string | undefined;
  #titleText: string | undefined;
  #inBody = 0;
  #svg = 0;
  #nav = 0;
  #chrome = 0;
  #content = 0;
  /** Tags opened that count in the depths above, so closing them undoes the count. */
  readonly #counted: boolean[] = [];

  constructor(pageUrl: string, options: ReadPageOptions = {}) {
    this.#pageUrl = pageUrl;
    this.#maxImages = options.maxImages ?? 1000;
    this.#wantImages = options.images ?? true;
    this.#whole = this.#wantImages;
    this.#parser = new Parser(
      {
        onopentag: (name, attributes) => this.#open(name, attributes),
        onclosetag: (name) => this.#close(name),
        ontext: (data) => {
          if (this.#titleText !== undefined) this.#titleText += data;
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
  }

  /** Reads the page; with images off, stops at the body's first element unless the rest holds a robots meta. */
  read(html: string): void {
    this.#parser.write(html);
    if (this.stoppedAt !== undefined && robotsMetaAfter(html, this.stoppedAt)) {
      this.stoppedAt = undefined;
      this.#whole = true;
      this.#parser.resume();
    }
    if (this.stoppedAt === undefined) this.#parser.end();
  }

  facts(fingerprint: string): PageFacts {
    const facts: PageFacts = { robots: this.#robots, alternates: [], images: [], fingerprint };
    const base = this.#resolve(this.#base) ?? this.#pageUrl;
    const absolute = (href: string): string | undefined => {
      try {
        return new URL(href, base).href;
      } catch {
        return undefined;
      }
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
    const seen = new Set<string>();
    for (const src of this.#sources) {
      const url = absolute(src);
      if (url === undefined || !/^https?:/.test(url) || seen.has(url)) continue;
      seen.add(url);
      facts.images.push(url);
      if (facts.images.length === this.#maxImages) break;
    }
    if (this.#title !== undefined) facts.title = this.#title;
    return facts;
  }

  /** `<base href>` resolved against the page URL. */
  #resolve(href: string | undefined): string | undefined {
    if (href === undefined) return undefined;
    try {
      return new URL(href, this.#pageUrl).href;
    } catch {
      return undefined;
    }
  }

  #open(tag: string, a: Record<string, string>): void {
    if (!this.#whole && !HEAD_ELEMENTS.has(tag)) {
      this.stoppedAt = this.#parser.startIndex;
      this.#parser.pause();
      return;
    }
    let counted = true;
    switch (tag) {
      case 'body':
        this.#inBody++;
        break;
      case 'svg':
        this.#svg++;
        break;
      case 'nav':
        this.#nav++;
        break;
      case 'main':
      case 'article':
        this.#content++;
        break;
      default:
        if (CHROME.has(tag) && this.#content === 0) this.#chrome++;
        else counted = false;
    }
    this.#counted.push(counted);
    switch (tag) {
      case 'meta':
        this.#meta(a);
        break;
      case 'link':
        if (this.#inBody === 0) this.#link(a);
        break;
      case 'base':
        if (this.#base === undefined && a['href'] !== undefined) this.#base = a['href'].trim();
        break;
      case 'title':
        if (this.#title === undefined && this.#svg === 0) this.#titleText = '';
        break;
      case 'img':
        this.#image(a);
        break;
    }
  }

  #close(tag: string): void {
    if (tag === 'title' && this.#titleText !== undefined) {
      this.#title = this.#titleText.replace(/[\t\n\f\r ]+/g, ' ').trim();
      this.#titleText = undefined;
    }
    if (this.#counted.pop() !== true) return;
    switch (tag) {
      case 'body':
        this.#inBody--;
        break;
      case 'svg':
        this.#svg--;
        break;
      case 'nav':
        this.#nav--;
        break;
      case 'main':
      case 'article':
        this.#content--;
        break;
      default:
        this.#chrome--;
    }
  }

  #meta(a: Record<string, string>): void {
    const name = (a['name'] ?? '').trim().toLowerCase();
    const content = a['content'];
    if (content === undefined) return;
    if (name === 'robots' || name === 'googlebot') {
      const tokens = robotsTokens(content);
      if (tokens.includes('noindex') || tokens.includes('none')) this.#robots.noindex = true;
      if (tokens.includes('nofollow') || tokens.includes('none')) this.#robots.nofollow = true;
    } else if ((a['http-equiv'] ?? '').trim().toLowerCase() === 'refresh' && this.#refresh === undefined) {
      this.#refresh = parseRefresh(content);
    }
  }

  #link(a: Record<string, string>): void {
    const rel = ` ${(a['rel'] ?? '').toLowerCase().replace(/[\t\n\f\r ]+/g, ' ')} `;
    const href = a['href']?.trim();
    if (href === undefined) return;
    if (rel.includes(' canonical ') && this.#canonical === undefined) this.#canonical = href;
    const hreflang = a['hreflang']?.trim();
    if (rel.includes(' alternate ') && hreflang !== undefined && hreflang !== '') this.#alternates.push({ hreflang, href });
  }

  #image(a: Record<string, string>): void {
    if (!this.#wantImages || this.#nav > 0 || this.#chrome > 0) return;
    if (a['width']?.trim() === '1' && a['height']?.trim() === '1') return;
    const candidates = [a['srcset'] === undefined ? undefined : largestInSrcset(a['srcset']), a['src'], a['data-src'], a['data-lazy-src']];
    const src = candidates.map((c) => c?.trim()).find((c) => c !== undefined && c !== '' && !/^data:/i.test(c));
    // Kept to a bound before the duplicates go: a page of a million <img>s costs no more than the cap.
    if (src !== undefined && this.#sources.length < 4 * this.#maxImages) this.#sources.push(src);
  }
}

/**
 * The facts of a page. `pageUrl` resolves relative URLs when the page has no `<base href>`. Images
 * are `<img>`s (the largest srcset candidate, else `src`, else a lazy loader's `data-src`), minus
 * `data:` URIs, 1×1 tracking pixels and those in `<nav>`, or in `<header>`/`<footer>` outside
 * `<main>`/`<article>`.
 */
export function readPage(html: string, pageUrl: string, options: ReadPageOptions = {}): PageFacts {
  const reader = new PageReader(pageUrl, options);
  reader.read(html);
  return reader.facts(fingerprintHtml(html, options, options.hash));
}

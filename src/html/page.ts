/**
 * Page facts from a page's HTML: the head's (head.ts, read in the fingerprint's pass) and, when
 * asked, its content images (images.ts, htmlparser2).
 */
import { decodeHTML, decodeHTMLAttribute } from 'entities/decode';
import { contentOf, hash128, type FingerprintRules, type ContentHash } from './fingerprint.ts';
import { HeadReader, type Decoders, type PageFacts } from './head.ts';
import { readImages } from './images.ts';

export { parseRefresh, readHead, type Decoders, type PageFacts, type PageRobots, type ReadHeadOptions } from './head.ts';
export { largestInSrcset, readImages } from './images.ts';

/** entities' decoders of character references, as htmlparser2 decodes them. */
export const ENTITY_DECODERS: Decoders = { attribute: decodeHTMLAttribute, text: decodeHTML };

export interface ReadPageOptions extends FingerprintRules {
  /** The hash of the fingerprint's content. @default hash128 */
  hash?: ContentHash;
  /** @default ENTITY_DECODERS */
  decoders?: Decoders;
  /** At most this many images are kept (the image extension allows 1,000 a URL). @default 1000 */
  maxImages?: number;
  /** Read the body's images (a second pass, with htmlparser2). @default true */
  images?: boolean;
}

/**
 * The facts of a page. `pageUrl` resolves relative URLs when the page has no `<base href>`. Images
 * are `<img>`s (the largest srcset candidate, else `src`, else a lazy loader's `data-src`), minus
 * `data:` URIs, 1×1 tracking pixels and those in `<nav>`, or in `<header>`/`<footer>` outside
 * `<main>`/`<article>`.
 */
export function readPage(html: string, pageUrl: string, options: ReadPageOptions = {}): PageFacts {
  const head = new HeadReader(pageUrl, options.decoders ?? ENTITY_DECODERS);
  const facts = head.facts((options.hash ?? hash128)(contentOf(html, options, head)));
  if (options.images ?? true) facts.images = readImages(html, head.base(), options.maxImages ?? 1000);
  return facts;
}

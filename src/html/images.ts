/**
 * A page's content images, read with htmlparser2's streaming parser (no tree is built, so a large
 * page costs little memory): the body's `<img>`s, less the site's chrome. Apart from head.ts so that
 * the parser loads only when images are asked for.
 */
import { Parser } from 'htmlparser2';

/** Elements whose images are site chrome (logos, icons), unless inside `<main>` or `<article>`. */
const CHROME = new Set(['header', 'footer']);

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

/**
 * The page's content images, absolute against `base` (the document's base URL), each once, in page
 * order, at most `maxImages`: `<img>`s (the largest srcset candidate, else `src`, else a lazy
 * loader's `data-src`), minus `data:` URIs, 1×1 tracking pixels and those in `<nav>`, or in
 * `<header>`/`<footer>` outside `<main>`/`<article>`.
 */
export function readImages(html: string, base: string, maxImages = 1000): string[] {
  const sources: string[] = [];
  let nav = 0;
  let chrome = 0;
  let content = 0;
  /** Tags opened that count in the depths above, so closing them undoes the count. */
  const counted: boolean[] = [];
  const image = (a: Record<string, string>): void => {
    if (nav > 0 || chrome > 0) return;
    if (a['width']?.trim() === '1' && a['height']?.trim() === '1') return;
    const candidates = [a['srcset'] === undefined ? undefined : largestInSrcset(a['srcset']), a['src'], a['data-src'], a['data-lazy-src']];
    const src = candidates.map((c) => c?.trim()).find((c) => c !== undefined && c !== '' && !/^data:/i.test(c));
    // Kept to a bound before the duplicates go: a page of a million <img>s costs no more than the cap.
    if (src !== undefined && sources.length < 4 * maxImages) sources.push(src);
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        let counts = true;
        if (name === 'nav') nav++;
        else if (name === 'main' || name === 'article') content++;
        else if (CHROME.has(name) && content === 0) chrome++;
        else counts = false;
        counted.push(counts);
        if (name === 'img') image(attributes);
      },
      onclosetag(name) {
        if (counted.pop() !== true) return;
        if (name === 'nav') nav--;
        else if (name === 'main' || name === 'article') content--;
        else chrome--;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  const images: string[] = [];
  const seen = new Set<string>();
  for (const src of sources) {
    let url: string;
    try {
      url = new URL(src, base).href;
    } catch {
      continue;
    }
    if (!/^https?:/.test(url) || seen.has(url)) continue;
    seen.add(url);
    images.push(url);
    if (images.length === maxImages) break;
  }
  return images;
}

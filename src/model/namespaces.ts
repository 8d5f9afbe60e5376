/** The only place namespace URIs appear. Elements are matched by URI, never by prefix. */
export const NS = {
  sitemap: 'http://www.sitemaps.org/schemas/sitemap/0.9',
  image: 'http://www.google.com/schemas/sitemap-image/1.1',
  video: 'http://www.google.com/schemas/sitemap-video/1.1',
  news: 'http://www.google.com/schemas/sitemap-news/0.9',
  xhtml: 'http://www.w3.org/1999/xhtml',
} as const;

/**
 * What an element or attribute whose prefix nothing declares (and that is no sitemap extension's) is
 * read in: this followed by the prefix. No file declares it, so it is never confused with a namespace
 * a file names, and a finding can name the prefix rather than call it a namespace.
 */
export const UNDECLARED_PREFIX_NS = 'urn:x-sitemapkit:undeclared-prefix:';

export type ExtensionPrefix = 'image' | 'video' | 'news' | 'xhtml';

/** Bit flags for the extension namespaces a file uses, so only those get declared (R24). */
export const NS_BIT: Readonly<Record<ExtensionPrefix, number>> = { image: 1, video: 2, news: 4, xhtml: 8 };
export const EXTENSION_PREFIXES: readonly ExtensionPrefix[] = ['image', 'video', 'news', 'xhtml'];

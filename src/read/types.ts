/** What the reader produces: the writer's record shape, plus what it learned about the file. */
import type { Diagnostic } from '../model/diagnostic.ts';
import type { SitemapIndexEntry, SitemapRecordInput } from '../model/record.ts';

/**
 * What a file turned out to be. `urlset`, `rss`, `atom` and `text` list pages; `sitemapindex` and
 * `robots` (robots.txt `Sitemap:` lines) list sitemaps. `unknown`: nothing a sitemap reader can use
 * (an HTML error page, an empty body…), with a diagnostic saying why.
 */
export type SitemapKind = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'text' | 'robots' | 'unknown';

export const LISTS_SITEMAPS: ReadonlySet<SitemapKind> = new Set(['sitemapindex', 'robots']);

/** A page entry as found in the file: every value is the trimmed text the file holds, unconverted. */
export type ParsedRecord = SitemapRecordInput;

/** An entry of a page list (`ParsedRecord`) or of a sitemap list (`SitemapIndexEntry`), as the kind says. */
export type ParsedEntry = ParsedRecord | SitemapIndexEntry;

export interface ParseOptions {
  /** The file's own URL: relative locs are resolved against it (and flagged R8). */
  base?: string | URL;
  /** Decompressed bytes read at most; a larger body stops there with an R3 diagnostic. @default 52428800 × 2 */
  maxBytes?: number;
  /** Every diagnostic listed, as it happens (well-formedness errors past the first 100 are only counted, in `counts`). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** How many diagnostics `ParsedSitemap.diagnostics` keeps. @default 1000 */
  maxDiagnostics?: number;
  /**
   * The body is Brotli-compressed, as a `.br` name or a `Content-Encoding: br` left undone says:
   * Brotli has no magic bytes, so it is never guessed from the content. gzip needs no hint.
   */
  compression?: 'br';
  /** Remember where each entry starts, for `ParsedSitemap.positionOf` (costs a little speed). @default false */
  trackPositions?: boolean;
}

export type { Diagnostic, SitemapIndexEntry, SitemapRecordInput };

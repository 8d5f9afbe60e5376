/**
 * The record shape shared by the writer's input, JSON Lines files and (later) the parser's output.
 * Field names are the protocol's own tag names, so a record reads like the XML it becomes.
 */

export const CHANGEFREQS = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'] as const;
export type Changefreq = (typeof CHANGEFREQS)[number];

export type YesNo = 'yes' | 'no';
export type Relationship = 'allow' | 'deny';
export type VideoPlatform = 'web' | 'mobile' | 'tv';

export interface ImageRecord {
  loc: string;
  /** Deprecated by Google in 2022 (R34); written only when given. */
  caption?: string;
  /** Deprecated by Google in 2022 (R34); written only when given. */
  geo_location?: string;
  /** Deprecated by Google in 2022 (R34); written only when given. */
  title?: string;
  /** Deprecated by Google in 2022 (R34); written only when given. */
  license?: string;
}

export interface VideoPrice {
  value: string | number;
  currency: string;
  type?: 'rent' | 'purchase';
  resolution?: 'hd' | 'sd';
}

export interface VideoRecord {
  thumbnail_loc: string;
  title: string;
  description: string;
  content_loc?: string;
  player_loc?: string;
  /** Seconds, 1–28,800. */
  duration?: number | string;
  expiration_date?: string | Date;
  /** 0.0–5.0 */
  rating?: number | string;
  view_count?: number | string;
  publication_date?: string | Date;
  /** At most 32. */
  tags?: string[];
  /** Deprecated (R36). */
  category?: string;
  family_friendly?: boolean | YesNo;
  restriction?: { relationship: Relationship; countries: string[] };
  /** Deprecated (R36). */
  gallery_loc?: string;
  /** Deprecated (R36). */
  prices?: VideoPrice[];
  requires_subscription?: boolean | YesNo;
  uploader?: { name: string; info?: string };
  platform?: { relationship: Relationship; platforms: VideoPlatform[] };
  live?: boolean | YesNo;
}

export interface NewsRecord {
  publication: { name: string; language: string };
  publication_date: string | Date;
  title: string;
  /** Deprecated (R37). */
  access?: 'Subscription' | 'Registration';
  /** Deprecated (R37). Comma-separated list, e.g. "Blog, OpEd". */
  genres?: string;
  /** Deprecated (R37). */
  keywords?: string;
  /** Deprecated (R37). Up to five "EXCHANGE:TICKER", comma-separated. */
  stock_tickers?: string;
}

export interface AlternateRecord {
  hreflang: string;
  href: string;
}

/** What a caller hands the writer: loose types (Date or string, number or string) that get normalized. */
export interface SitemapRecordInput {
  loc: string;
  lastmod?: string | Date;
  changefreq?: string;
  priority?: number | string;
  images?: ImageRecord[];
  videos?: VideoRecord[];
  news?: NewsRecord;
  alternates?: AlternateRecord[];
}

/** A record after normalization: every value is the exact text that will be written. */
export interface SitemapRecord {
  loc: string;
  lastmod?: string;
  changefreq?: Changefreq;
  priority?: string;
  images?: NormalizedImage[];
  videos?: NormalizedVideo[];
  news?: NormalizedNews;
  alternates?: AlternateRecord[];
}

export interface NormalizedImage {
  loc: string;
  caption?: string;
  geo_location?: string;
  title?: string;
  license?: string;
}

export interface NormalizedVideo {
  thumbnail_loc: string;
  title: string;
  description: string;
  content_loc?: string;
  player_loc?: string;
  duration?: string;
  expiration_date?: string;
  rating?: string;
  view_count?: string;
  publication_date?: string;
  tags?: string[];
  category?: string;
  family_friendly?: YesNo;
  restriction?: { relationship: Relationship; countries: string };
  gallery_loc?: string;
  prices?: { value: string; currency: string; type?: string; resolution?: string }[];
  requires_subscription?: YesNo;
  uploader?: { name: string; info?: string };
  platform?: { relationship: Relationship; platforms: string };
  live?: YesNo;
}

export interface NormalizedNews {
  publication: { name: string; language: string };
  publication_date: string;
  title: string;
  access?: string;
  genres?: string;
  keywords?: string;
  stock_tickers?: string;
}

/** One `<sitemap>` entry of a sitemap index. */
export interface SitemapIndexEntry {
  loc: string;
  lastmod?: string;
}

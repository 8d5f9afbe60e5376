/** Record → XML text. Pure string building; core elements in schema order (R7), extensions after. */
import { EXTENSION_PREFIXES, NS, NS_BIT } from '../model/namespaces.ts';
import type { NormalizedNews, NormalizedVideo, SitemapIndexEntry, SitemapRecord } from '../model/record.ts';
import { escapeUri, escapeXml, utf8Length } from './escape.ts';
import type { SerializedEntry } from './plan.ts';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

function prolog(stylesheet: string | undefined): string {
  return stylesheet === undefined
    ? XML_DECLARATION
    : `${XML_DECLARATION}<?xml-stylesheet type="text/xsl" href="${escapeXml(stylesheet)}"?>\n`;
}

/** The opening of a `<urlset>` declaring only the extension namespaces in `nsBits` (R24). */
export function urlsetOpen(nsBits: number, stylesheet?: string): string {
  let attributes = ` xmlns="${NS.sitemap}"`;
  for (const prefix of EXTENSION_PREFIXES) {
    if ((nsBits & NS_BIT[prefix]) !== 0) attributes += ` xmlns:${prefix}="${NS[prefix]}"`;
  }
  return `${prolog(stylesheet)}<urlset${attributes}>\n`;
}

/** Whether the record may carry non-ASCII text (URIs and the core values are ASCII after normalization). */
export function mayHaveNonAscii(record: SitemapRecord): boolean {
  return record.videos !== undefined || record.news !== undefined || (record.images?.some((i) => i.caption !== undefined || i.title !== undefined || i.geo_location !== undefined) ?? false);
}

export const URLSET_CLOSE = '</urlset>\n';

/** The namespaces a record's extensions need. */
export function namespacesOf(record: SitemapRecord): number {
  let bits = 0;
  if (record.images !== undefined) bits |= NS_BIT.image;
  if (record.videos !== undefined) bits |= NS_BIT.video;
  if (record.news !== undefined) bits |= NS_BIT.news;
  if (record.alternates !== undefined) bits |= NS_BIT.xhtml;
  return bits;
}

/** Fills `into` (one object, filled again for each entry) with the record's `<url>` element and what the file limits count. */
export function serializeEntry(record: SitemapRecord, lastmodEpoch: number | undefined, into: SerializedEntry): SerializedEntry {
  const xml = serializeRecord(record);
  into.loc = record.loc;
  into.xml = xml;
  into.bytes = mayHaveNonAscii(record) ? utf8Length(xml) : xml.length;
  into.nsBits = namespacesOf(record);
  into.hasNews = record.news !== undefined;
  into.lastmod = record.lastmod;
  into.lastmodEpoch = lastmodEpoch;
  return into;
}

/** One `<url>` element on one line. */
export function serializeRecord(record: SitemapRecord): string {
  const head = `<url><loc>${escapeUri(record.loc)}</loc>`;
  return record.lastmod === undefined ? head + serializeTail(record) : `${head}<lastmod>${record.lastmod}</lastmod>${serializeTail(record)}`;
}

/** The `<url>` element after its `<loc>` and `<lastmod>`, its end tag included: what the state compares between runs, the lastmod aside. */
export function serializeTail(record: SitemapRecord): string {
  let xml = '';
  if (record.changefreq !== undefined) xml += `<changefreq>${record.changefreq}</changefreq>`;
  if (record.priority !== undefined) xml += `<priority>${record.priority}</priority>`;
  if (record.images !== undefined) {
    for (const image of record.images) {
      xml += `<image:image>${element('image:loc', image.loc)}`;
      if (image.caption !== undefined) xml += element('image:caption', image.caption);
      if (image.geo_location !== undefined) xml += element('image:geo_location', image.geo_location);
      if (image.title !== undefined) xml += element('image:title', image.title);
      if (image.license !== undefined) xml += element('image:license', image.license);
      xml += '</image:image>';
    }
  }
  if (record.videos !== undefined) {
    for (const video of record.videos) xml += serializeVideo(video);
  }
  if (record.news !== undefined) xml += serializeNews(record.news);
  if (record.alternates !== undefined) {
    for (const { hreflang, href } of record.alternates) {
      xml += `<xhtml:link rel="alternate" hreflang="${escapeXml(hreflang)}" href="${escapeXml(href)}"/>`;
    }
  }
  return `${xml}</url>\n`;
}

function element(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

function serializeVideo(video: NormalizedVideo): string {
  let xml = '<video:video>';
  xml += element('video:thumbnail_loc', video.thumbnail_loc);
  xml += element('video:title', video.title);
  xml += element('video:description', video.description);
  if (video.content_loc !== undefined) xml += element('video:content_loc', video.content_loc);
  if (video.player_loc !== undefined) xml += element('video:player_loc', video.player_loc);
  if (video.duration !== undefined) xml += element('video:duration', video.duration);
  if (video.expiration_date !== undefined) xml += element('video:expiration_date', video.expiration_date);
  if (video.rating !== undefined) xml += element('video:rating', video.rating);
  if (video.view_count !== undefined) xml += element('video:view_count', video.view_count);
  if (video.publication_date !== undefined) xml += element('video:publication_date', video.publication_date);
  for (const tag of video.tags ?? []) xml += element('video:tag', tag);
  if (video.category !== undefined) xml += element('video:category', video.category);
  if (video.family_friendly !== undefined) xml += element('video:family_friendly', video.family_friendly);
  if (video.restriction !== undefined) {
    xml += `<video:restriction relationship="${video.restriction.relationship}">${video.restriction.countries}</video:restriction>`;
  }
  if (video.gallery_loc !== undefined) xml += element('video:gallery_loc', video.gallery_loc);
  for (const price of video.prices ?? []) {
    let attributes = ` currency="${price.currency}"`;
    if (price.type !== undefined) attributes += ` type="${price.type}"`;
    if (price.resolution !== undefined) attributes += ` resolution="${price.resolution}"`;
    xml += `<video:price${attributes}>${price.value}</video:price>`;
  }
  if (video.requires_subscription !== undefined) xml += element('video:requires_subscription', video.requires_subscription);
  if (video.uploader !== undefined) {
    const info = video.uploader.info === undefined ? '' : ` info="${escapeXml(video.uploader.info)}"`;
    xml += `<video:uploader${info}>${escapeXml(video.uploader.name)}</video:uploader>`;
  }
  if (video.platform !== undefined) {
    xml += `<video:platform relationship="${video.platform.relationship}">${video.platform.platforms}</video:platform>`;
  }
  if (video.live !== undefined) xml += element('video:live', video.live);
  return `${xml}</video:video>`;
}

function serializeNews(news: NormalizedNews): string {
  let xml = '<news:news><news:publication>';
  xml += element('news:name', news.publication.name);
  xml += element('news:language', news.publication.language);
  xml += '</news:publication>';
  if (news.access !== undefined) xml += element('news:access', news.access);
  if (news.genres !== undefined) xml += element('news:genres', news.genres);
  xml += element('news:publication_date', news.publication_date);
  xml += element('news:title', news.title);
  if (news.keywords !== undefined) xml += element('news:keywords', news.keywords);
  if (news.stock_tickers !== undefined) xml += element('news:stock_tickers', news.stock_tickers);
  return `${xml}</news:news>`;
}

export function serializeSitemapIndex(entries: readonly SitemapIndexEntry[], stylesheet?: string): string {
  let xml = `${prolog(stylesheet)}<sitemapindex xmlns="${NS.sitemap}">\n`;
  for (const entry of entries) {
    xml += `<sitemap><loc>${escapeUri(entry.loc)}</loc>`;
    if (entry.lastmod !== undefined) xml += `<lastmod>${entry.lastmod}</lastmod>`;
    xml += '</sitemap>\n';
  }
  return `${xml}</sitemapindex>\n`;
}

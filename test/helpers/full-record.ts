import type { SitemapRecordInput } from '../../src/index.ts';

/** Every field of every extension, deprecated ones included, with values that need escaping and encoding. */
export const FULL_RECORD: SitemapRecordInput = {
  loc: 'https://example.com/watch?v=1&list=2',
  lastmod: '2026-11-21T08:15+01:00',
  changefreq: 'hourly',
  priority: '0.9',
  images: [
    { loc: 'https://cdn.example.com/ä.jpg' },
    { loc: 'https://cdn.example.com/b.jpg', caption: 'A "quoted" <caption> & more', geo_location: 'Zürich', title: "It's", license: 'https://example.com/license' },
  ],
  videos: [
    {
      thumbnail_loc: 'https://cdn.example.com/t.jpg',
      title: 'Grilling steaks for summer',
      description: 'Alkis shows you how to get perfectly done steaks every time — & fast.',
      content_loc: 'https://cdn.example.com/video.mp4',
      player_loc: 'https://example.com/player?video=123',
      duration: 600,
      expiration_date: '2026-12-31T23:59:59+00:00',
      rating: '4.2',
      view_count: 12345,
      publication_date: new Date('2026-11-01T10:00:00Z'),
      tags: ['steak', 'meat'],
      category: 'Grilling',
      family_friendly: 'yes',
      restriction: { relationship: 'allow', countries: ['IE', 'GB', 'US', 'CA'] },
      gallery_loc: 'https://example.com/gallery',
      prices: [{ value: '1.99', currency: 'EUR', type: 'rent', resolution: 'hd' }, { value: 5, currency: 'USD' }],
      requires_subscription: false,
      uploader: { name: 'GrillyMcGrillerson', info: 'https://example.com/users/grilly' },
      platform: { relationship: 'allow', platforms: ['web', 'tv'] },
      live: 'no',
    },
  ],
  news: {
    publication: { name: 'The Example Times', language: 'zh-cn' },
    publication_date: '2026-11-21',
    title: 'Companies A, B in merger talks',
    access: 'Subscription',
    genres: 'PressRelease, Blog',
    keywords: 'business, merger',
    stock_tickers: 'NASDAQ:A, NASDAQ:B',
  },
  alternates: [
    { hreflang: 'en', href: 'https://example.com/watch?v=1&list=2' },
    { hreflang: 'de-CH', href: 'https://example.com/de/schauen?v=1' },
    { hreflang: 'x-default', href: 'https://example.com/watch?v=1&list=2' },
  ],
};

/** Protocol limits (docs/rules.md), enforced when writing and when reading. */

/** R15, R20: entries per sitemap or index file. */
export const MAX_URLS_PER_SITEMAP = 50_000;
export const MAX_SITEMAPS_PER_INDEX = 50_000;
/** R3: uncompressed bytes per file. */
export const MAX_SITEMAP_BYTES = 52_428_800;
/** R9: a generator keeps `<loc>` below 2,048 characters. */
export const MAX_LOC_LENGTH = 2_047;
/** R34 */
export const MAX_IMAGES_PER_URL = 1_000;
/** R37: news URLs per sitemap file. */
export const MAX_NEWS_PER_SITEMAP = 1_000;
/** R36 */
export const MAX_VIDEO_TITLE_LENGTH = 100;
export const MAX_VIDEO_DESCRIPTION_LENGTH = 2_048;
export const MAX_VIDEO_DURATION_SECONDS = 28_800;
export const MAX_VIDEO_TAGS = 32;
export const MAX_VIDEO_UPLOADER_LENGTH = 255;
export const MAX_VIDEO_CATEGORY_LENGTH = 256;
/** R37: only articles from the last two days belong in a news sitemap. */
export const NEWS_MAX_AGE_MS = 2 * 24 * 60 * 60 * 1000;

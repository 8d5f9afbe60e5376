/**
 * Record normalization: loose input (JSON Lines, CSV, API objects) → a SitemapRecord whose every
 * value is the exact text to write. A bad record never reaches the output: it is dropped with a
 * diagnostic, and a bad optional field is dropped while its URL stays (rules cited by id, docs/rules.md).
 */
import { excerpt, type Diagnostic, type DiagnosticLevel, type RuleId } from '../model/diagnostic.ts';
import type {
  AlternateRecord,
  NormalizedImage,
  NormalizedNews,
  NormalizedVideo,
  SitemapRecord,
} from '../model/record.ts';
import { normalizeDatetime } from '../rules/datetime.ts';
import {
  MAX_IMAGES_PER_URL,
  MAX_VIDEO_CATEGORY_LENGTH,
  MAX_VIDEO_DESCRIPTION_LENGTH,
  MAX_VIDEO_DURATION_SECONDS,
  MAX_VIDEO_TAGS,
  MAX_VIDEO_TITLE_LENGTH,
  MAX_VIDEO_UPLOADER_LENGTH,
  NEWS_MAX_AGE_MS,
} from '../rules/limits.ts';
import { checkScope, toSitemapUri, type Scope } from '../rules/url.ts';
import {
  isChangefreq,
  isCountryCode,
  isHreflang,
  isNewsGenres,
  isNewsLanguage,
  isStockTickers,
  normalizeDecimalInRange,
  normalizeInteger,
  normalizePriority,
  normalizeYesNo,
  toXmlText,
} from '../rules/values.ts';

export interface NormalizeOptions {
  /** Relative `loc` values are resolved against it (R8, reported). */
  base?: URL;
  /** Where the sitemap is served from; URLs outside it are reported (R16/R17). */
  scope?: Scope;
  /** Level of scope findings: `error` drops nothing but fails a strict run. @default 'warn' */
  scopeLevel?: DiagnosticLevel;
  /** Milliseconds since the epoch, for the news age check (R37). */
  now: number;
  /**
   * Validating, not writing: every field is checked even when the record or group holding it cannot
   * be written (a bad loc, a video without a title), so one fault hides no other. @default false
   */
  checkEverything?: boolean;
}

export interface NormalizedEntry {
  record: SitemapRecord;
  /** The record's lastmod as an instant, for the index's `<lastmod>`. */
  lastmodEpoch?: number;
}

/** `field`: the record field the finding is about, as a path (`lastmod`, `images[2].loc`). */
type Report = (rule: RuleId, level: DiagnosticLevel, message: string, field?: string) => void;

const RECORD_KEYS = new Set(['loc', 'lastmod', 'changefreq', 'priority', 'images', 'videos', 'news', 'alternates']);

export class RecordNormalizer {
  readonly #options: NormalizeOptions;
  readonly #emit: (diagnostic: Diagnostic) => void;
  #line = 0;
  #url: string | undefined;
  readonly #report: Report = (rule, level, message, field) => {
    const diagnostic: Diagnostic = { rule, level, message, line: this.#line };
    if (this.#url !== undefined) diagnostic.url = this.#url;
    if (field !== undefined) diagnostic.field = field;
    this.#emit(diagnostic);
  };

  constructor(options: NormalizeOptions, emit: (diagnostic: Diagnostic) => void) {
    this.#options = options;
    this.#emit = emit;
  }

  /** Returns the normalized record, or `undefined` when the record cannot be written at all. */
  normalize(input: unknown, line: number): NormalizedEntry | undefined {
    this.#line = line;
    this.#url = undefined;
    const report = this.#report;
    if (typeof input === 'string') input = { loc: input };
    if (!isObject(input)) {
      report('INPUT', 'error', `record dropped: expected an object with "loc", got ${describe(input)}`);
      return undefined;
    }
    if (typeof input['loc'] !== 'string') {
      report('R6', 'error', `record dropped: "loc" is ${input['loc'] === undefined ? 'missing' : `not a string (${describe(input['loc'])})`}`, 'loc');
      return undefined;
    }
    const loc = this.#uri(input['loc'], 'loc', true);
    if (loc === undefined && this.#options.checkEverything !== true) return undefined;
    if (loc !== undefined) this.#url = loc;
    const record: SitemapRecord = { loc: loc ?? '' };
    if (this.#options.scope !== undefined && loc !== undefined) {
      const scope = checkScope(loc, this.#options.scope);
      if (!scope.ok) report(scope.rule, this.#options.scopeLevel ?? 'warn', `URL ${scope.reason}`, 'loc');
    }
    for (const key in input) {
      if (!RECORD_KEYS.has(key)) report('INPUT', 'warn', `unknown field "${excerpt(key)}" ignored`);
    }

    let lastmodEpoch: number | undefined;
    const lastmod = input['lastmod'];
    if (lastmod !== undefined && lastmod !== null && lastmod !== '') {
      const date = this.#datetime(lastmod, 'lastmod');
      if (date !== undefined) {
        record.lastmod = date.value;
        lastmodEpoch = date.epoch;
      }
    }
    const changefreq = input['changefreq'];
    if (changefreq !== undefined && changefreq !== null && changefreq !== '') {
      if (typeof changefreq === 'string' && isChangefreq(changefreq)) record.changefreq = changefreq;
      else report('R13', 'error', `changefreq dropped: ${quote(changefreq)} is not one of always, hourly, daily, weekly, monthly, yearly, never`, 'changefreq');
    }
    const priority = input['priority'];
    if (priority !== undefined && priority !== null && priority !== '') {
      const value = typeof priority === 'number' || typeof priority === 'string' ? normalizePriority(priority) : undefined;
      if (value !== undefined) record.priority = value;
      else report('R14', 'error', `priority dropped: ${quote(priority)} is not a decimal from 0.0 to 1.0`, 'priority');
    }
    const images = this.#list(input['images'], 'images', (image, n) => this.#image(image, n));
    if (images !== undefined) {
      if (images.length > MAX_IMAGES_PER_URL) {
        const over = images.length - MAX_IMAGES_PER_URL;
        report('R34', 'error', `${over} ${over === 1 ? 'image' : 'images'} dropped: at most ${MAX_IMAGES_PER_URL} per URL`, `images[${MAX_IMAGES_PER_URL + 1}]`);
        images.length = MAX_IMAGES_PER_URL;
      }
      record.images = images;
    }
    const videos = this.#list(input['videos'], 'videos', (video, n) => this.#video(video, n, loc ?? ''));
    if (videos !== undefined) record.videos = videos;
    if (input['news'] !== undefined && input['news'] !== null) {
      const news = this.#news(input['news']);
      if (news !== undefined) record.news = news;
    }
    if (input['alternates'] !== undefined && input['alternates'] !== null) {
      const alternates = this.#alternates(input['alternates'], loc);
      if (alternates !== undefined) record.alternates = alternates;
    }
    if (loc === undefined) return undefined;
    return lastmodEpoch === undefined ? { record } : { record, lastmodEpoch };
  }

  /** Every URL field is resolved as `loc` is: a relative URL in the input is relative to the site. */
  #uri(value: string, field: string, isLoc: boolean): string | undefined {
    const result = toSitemapUri(value, this.#options.base);
    const what = isLoc ? 'record dropped' : `${field} dropped`;
    if (!result.ok) {
      this.#report(result.rule, 'error', `${what}: ${field} ${result.reason}`, field);
      return undefined;
    }
    if (result.resolved) {
      this.#report('R8', 'warn', `${field} "${excerpt(value.trim())}" is relative; resolved to ${result.uri}`, field);
    } else if (result.changed && /[\0-\x20"<>\\^`{|}]|%(?![0-9A-Fa-f]{2})/.test(value.trim())) {
      // Non-ASCII is an IRI being written as a URI, as asked; raw ASCII that URIs forbid was an input fault.
      this.#report('R10', 'warn', `${field} had characters URLs may not contain raw; written as ${result.uri}`, field);
    }
    return result.uri;
  }

  #datetime(value: unknown, field: string): { value: string; epoch: number } | undefined {
    if (typeof value !== 'string' && !(value instanceof Date)) {
      this.#report('R11', 'error', `${field} dropped: ${quote(value)} is not a date`, field);
      return undefined;
    }
    const result = normalizeDatetime(value);
    if (!result.ok) {
      this.#report(result.rule, 'error', `${field} dropped: ${result.reason}`, field);
      return undefined;
    }
    return { value: result.value, epoch: result.epoch };
  }

  #text(value: unknown, field: string, rule: RuleId, maxLength?: number): string | undefined {
    if (typeof value !== 'string' || value.trim() === '') {
      this.#report(rule, 'error', `${field} ${value === undefined ? 'is missing' : `must be a non-empty string, got ${quote(value)}`}`, field);
      return undefined;
    }
    const { text, changed } = toXmlText(value.trim());
    if (changed) this.#report('R2', 'warn', `${field}: characters XML cannot carry were removed`, field);
    if (maxLength !== undefined && [...text].length > maxLength) {
      this.#report(rule, 'error', `${field} is ${[...text].length} characters long; the limit is ${maxLength}`, field);
      return undefined;
    }
    return text;
  }

  #list<T>(value: unknown, field: string, each: (item: unknown, n: number) => T | undefined): T[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) {
      this.#report('INPUT', 'error', `${field} dropped: expected a list, got ${describe(value)}`, field);
      return undefined;
    }
    const out: T[] = [];
    for (let n = 0; n < value.length; n++) {
      const item = each(value[n], n + 1);
      if (item !== undefined) out.push(item);
    }
    return out.length > 0 ? out : undefined;
  }

  #image(input: unknown, n: number): NormalizedImage | undefined {
    const field = `images[${n}]`;
    if (!isObject(input) || typeof input['loc'] !== 'string') {
      this.#report('R34', 'error', `${field} dropped: an image needs a "loc" URL`, field);
      return undefined;
    }
    const loc = this.#uri(input['loc'], `${field}.loc`, false);
    if (loc === undefined) return undefined;
    const image: NormalizedImage = { loc };
    for (const key of ['caption', 'geo_location', 'title'] as const) {
      if (input[key] === undefined) continue;
      this.#report('R34', 'warn', `${field}.${key} is deprecated and ignored by Google since 2022`, `${field}.${key}`);
      const text = this.#text(input[key], `${field}.${key}`, 'R34');
      if (text !== undefined) image[key] = text;
    }
    if (typeof input['license'] === 'string') {
      this.#report('R34', 'warn', `${field}.license is deprecated and ignored by Google since 2022`, `${field}.license`);
      const license = this.#uri(input['license'], `${field}.license`, false);
      if (license !== undefined) image.license = license;
    }
    return image;
  }

  #video(input: unknown, n: number, pageLoc: string): NormalizedVideo | undefined {
    const field = `videos[${n}]`;
    if (!isObject(input)) {
      this.#report('R35', 'error', `${field} dropped: expected an object, got ${describe(input)}`, field);
      return undefined;
    }
    const report = this.#report;
    const thumbnail = typeof input['thumbnail_loc'] === 'string' ? this.#uri(input['thumbnail_loc'], `${field}.thumbnail_loc`, false) : undefined;
    // Missing is R35; present but too long is R36, reported by #text.
    const title = this.#text(input['title'], `${field}.title`, input['title'] === undefined ? 'R35' : 'R36', MAX_VIDEO_TITLE_LENGTH);
    const description = this.#text(input['description'], `${field}.description`, input['description'] === undefined ? 'R35' : 'R36', MAX_VIDEO_DESCRIPTION_LENGTH);
    const content = typeof input['content_loc'] === 'string' ? this.#uri(input['content_loc'], `${field}.content_loc`, false) : undefined;
    const player = typeof input['player_loc'] === 'string' ? this.#uri(input['player_loc'], `${field}.player_loc`, false) : undefined;
    const writable = thumbnail !== undefined && title !== undefined && description !== undefined && (content !== undefined || player !== undefined);
    if (!writable) {
      const missing = [
        thumbnail === undefined && 'a valid thumbnail_loc',
        title === undefined && 'a valid title',
        description === undefined && 'a valid description',
        content === undefined && player === undefined && 'a valid content_loc or player_loc',
      ].filter(Boolean);
      const checking = this.#options.checkEverything === true;
      // Validating, a field that is there but bad has had its finding: only what is absent is said again here.
      const absent = [
        thumbnail === undefined && typeof input['thumbnail_loc'] !== 'string' && 'thumbnail_loc',
        title === undefined && input['title'] === undefined && 'title',
        description === undefined && input['description'] === undefined && 'description',
        content === undefined && player === undefined && typeof input['content_loc'] !== 'string' && typeof input['player_loc'] !== 'string' && 'content_loc or player_loc',
      ].filter(Boolean);
      if (!checking) report('R35', 'error', `${field} dropped: a video needs ${missing.join(', ')}`, field);
      else if (absent.length > 0) report('R35', 'error', `${field} needs ${absent.join(', ')}`, field);
      if (!checking) return undefined;
    }
    const video: NormalizedVideo = { thumbnail_loc: thumbnail ?? '', title: title ?? '', description: description ?? '' };
    if (content !== undefined) video.content_loc = content;
    if (player !== undefined) video.player_loc = player;
    if (content === pageLoc || player === pageLoc) report('R36', 'warn', `${field}: content_loc/player_loc should not be the page URL itself`, content === pageLoc ? `${field}.content_loc` : `${field}.player_loc`);

    const value = <K extends keyof NormalizedVideo>(key: K, parse: (v: unknown) => NormalizedVideo[K] | undefined, expected: string): void => {
      const raw = input[key];
      if (raw === undefined || raw === null) return;
      const parsed = parse(raw);
      if (parsed === undefined) report('R36', 'error', `${field}.${key} dropped: ${quote(raw)} is not ${expected}`, `${field}.${key}`);
      else video[key] = parsed;
    };
    const numeric = (v: unknown): v is number | string => typeof v === 'number' || typeof v === 'string';
    value('duration', (v) => (numeric(v) ? normalizeInteger(v, MAX_VIDEO_DURATION_SECONDS) : undefined), `whole seconds from 1 to ${MAX_VIDEO_DURATION_SECONDS}`);
    if (video.duration === '0') report('R36', 'warn', `${field}.duration is 0; Google requires at least 1 second`, `${field}.duration`);
    value('rating', (v) => (numeric(v) ? normalizeDecimalInRange(v, 0, 5) : undefined), 'a decimal from 0.0 to 5.0');
    value('view_count', (v) => (numeric(v) ? normalizeInteger(v) : undefined), 'a non-negative integer');
    for (const key of ['expiration_date', 'publication_date'] as const) {
      if (input[key] === undefined || input[key] === null) continue;
      const date = this.#datetime(input[key], `${field}.${key}`);
      if (date !== undefined) video[key] = date.value;
    }
    if (input['tags'] !== undefined) {
      const tags = Array.isArray(input['tags']) ? input['tags'].filter((t): t is string => typeof t === 'string' && t.trim() !== '').map((t) => toXmlText(t.trim()).text) : [];
      const over = tags.length - MAX_VIDEO_TAGS;
      if (over > 0) report('R36', 'error', `${field}.tags: ${over} ${over === 1 ? 'tag' : 'tags'} dropped, at most ${MAX_VIDEO_TAGS} per video`, `${field}.tags`);
      if (tags.length > 0) video.tags = tags.slice(0, MAX_VIDEO_TAGS);
    }
    for (const key of ['family_friendly', 'requires_subscription', 'live'] as const) {
      value(key, (v) => (typeof v === 'boolean' || typeof v === 'string' ? normalizeYesNo(v) : undefined), 'yes/no or a boolean');
    }
    value(
      'restriction',
      (v) => {
        if (!isObject(v) || !isRelationship(v['relationship']) || !Array.isArray(v['countries'])) return undefined;
        const countries = v['countries'];
        if (!countries.every((c): c is string => typeof c === 'string' && isCountryCode(c))) return undefined;
        return { relationship: v['relationship'], countries: countries.join(' ') };
      },
      '{ relationship: "allow" | "deny", countries: ["US", ...] } with ISO 3166 upper-case codes',
    );
    value(
      'platform',
      (v) => {
        if (!isObject(v) || !isRelationship(v['relationship']) || !Array.isArray(v['platforms'])) return undefined;
        const platforms = v['platforms'];
        if (!platforms.every((p) => p === 'web' || p === 'mobile' || p === 'tv')) return undefined;
        return { relationship: v['relationship'], platforms: platforms.join(' ') };
      },
      '{ relationship: "allow" | "deny", platforms: ["web" | "mobile" | "tv", ...] }',
    );
    // The schema allows an empty list, but it is most likely a list that came out empty: allowing none plays the video nowhere, denying none restricts nothing.
    const noneListed = (key: 'restriction' | 'platform', relationship: 'allow' | 'deny', what: string): void =>
      report('R36', 'warn', relationship === 'allow' ? `${field}.${key} allows no ${what}: the video may be played nowhere (leave the ${key} out to allow every ${what})` : `${field}.${key} denies no ${what}, so it restricts nothing`, `${field}.${key}`);
    if (video.restriction?.countries === '') noneListed('restriction', video.restriction.relationship, 'country');
    if (video.platform?.platforms === '') noneListed('platform', video.platform.relationship, 'platform');
    if (input['uploader'] !== undefined) {
      const uploader = input['uploader'];
      const name = isObject(uploader) ? this.#text(uploader['name'], `${field}.uploader.name`, 'R36', MAX_VIDEO_UPLOADER_LENGTH) : undefined;
      if (name === undefined) {
        if (!isObject(uploader)) report('R36', 'error', `${field}.uploader dropped: expected { name, info? }`, `${field}.uploader`);
      } else {
        video.uploader = { name };
        const info = isObject(uploader) && typeof uploader['info'] === 'string' ? this.#uri(uploader['info'], `${field}.uploader.info`, false) : undefined;
        if (info !== undefined) video.uploader.info = info;
      }
    }
    if (input['category'] !== undefined) {
      report('R36', 'warn', `${field}.category is deprecated and ignored by Google since 2022`, `${field}.category`);
      const category = this.#text(input['category'], `${field}.category`, 'R36', MAX_VIDEO_CATEGORY_LENGTH);
      if (category !== undefined) video.category = category;
    }
    if (typeof input['gallery_loc'] === 'string') {
      report('R36', 'warn', `${field}.gallery_loc is deprecated and ignored by Google since 2022`, `${field}.gallery_loc`);
      const gallery = this.#uri(input['gallery_loc'], `${field}.gallery_loc`, false);
      if (gallery !== undefined) video.gallery_loc = gallery;
    }
    if (input['prices'] !== undefined) {
      report('R36', 'warn', `${field}.prices is deprecated and ignored by Google since 2022`, `${field}.prices`);
      const prices = this.#list(input['prices'], `${field}.prices`, (price, k) => this.#price(price, `${field}.prices[${k}]`));
      if (prices !== undefined) video.prices = prices;
    }
    return writable ? video : undefined;
  }

  #price(input: unknown, field: string): NonNullable<NormalizedVideo['prices']>[number] | undefined {
    const amount = isObject(input) && (typeof input['value'] === 'number' || typeof input['value'] === 'string') ? normalizeDecimalInRange(input['value'], 0, Number.MAX_SAFE_INTEGER) : undefined;
    const currency = isObject(input) ? input['currency'] : undefined;
    if (!isObject(input) || amount === undefined || typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
      this.#report('R36', 'error', `${field} dropped: a price needs a non-negative value and an ISO 4217 currency such as "EUR"`, field);
      return undefined;
    }
    const price: NonNullable<NormalizedVideo['prices']>[number] = { value: amount, currency };
    if (input['type'] === 'rent' || input['type'] === 'purchase') price.type = input['type'];
    if (input['resolution'] === 'hd' || input['resolution'] === 'sd') price.resolution = input['resolution'];
    return price;
  }

  #news(input: unknown): NormalizedNews | undefined {
    const report = this.#report;
    const publication = isObject(input) ? input['publication'] : undefined;
    if (!isObject(input) || !isObject(publication)) {
      report('R37', 'error', 'news dropped: expected { publication: { name, language }, publication_date, title }', 'news');
      return undefined;
    }
    const name = this.#text(publication['name'], 'news.publication.name', 'R37');
    const language = typeof publication['language'] === 'string' ? publication['language'].trim() : undefined;
    if (language !== undefined && !isNewsLanguage(language)) report('R37', 'error', `news.publication.language "${excerpt(language)}" is not a lower-case ISO 639 code (or zh-cn, zh-tw)`, 'news.publication.language');
    else if (language === undefined) report('R37', 'error', 'news.publication.language is missing', 'news.publication');
    const title = this.#text(input['title'], 'news.title', 'R37');
    const date = input['publication_date'] === undefined ? undefined : this.#datetime(input['publication_date'], 'news.publication_date');
    if (input['publication_date'] === undefined) report('R37', 'error', 'news.publication_date is missing', 'news');
    const writable = name !== undefined && language !== undefined && isNewsLanguage(language) && title !== undefined && date !== undefined;
    // Validating, each missing or bad part has had its own finding: nothing is dropped to be said.
    if (!writable && this.#options.checkEverything !== true) {
      report('R37', 'error', 'news dropped: it needs a publication name and language, a publication_date and a title', 'news');
      return undefined;
    }
    if (date !== undefined && this.#options.now - date.epoch > NEWS_MAX_AGE_MS) {
      const written = input['publication_date'] instanceof Date ? date.value : String(input['publication_date']).trim();
      report('R37', 'warn', `news.publication_date ${written} is more than two days old; news sitemaps are for recent articles`, 'news.publication_date');
    }
    const news: NormalizedNews = { publication: { name: name ?? '', language: language ?? '' }, publication_date: date?.value ?? '', title: title ?? '' };
    const deprecated = (key: 'access' | 'genres' | 'keywords' | 'stock_tickers', valid: (v: string) => boolean, expected: string): void => {
      const raw = input[key];
      if (raw === undefined || raw === null) return;
      report('R37', 'warn', `news.${key} is deprecated and ignored by Google since 2022`, `news.${key}`);
      if (typeof raw === 'string' && valid(raw.trim())) news[key] = toXmlText(raw.trim()).text;
      else report('R37', 'error', `news.${key} dropped: ${quote(raw)} is not ${expected}`, `news.${key}`);
    };
    deprecated('access', (v) => v === 'Subscription' || v === 'Registration', 'Subscription or Registration');
    deprecated('genres', isNewsGenres, 'a comma-separated list of PressRelease, Satire, Blog, OpEd, Opinion, UserGenerated');
    deprecated('keywords', (v) => v !== '', 'a non-empty string');
    deprecated('stock_tickers', isStockTickers, 'up to five EXCHANGE:TICKER, comma-separated');
    return writable ? news : undefined;
  }

  /** The list, checked as a set (R38): an hreflang given twice, and whether the URL lists itself. */
  #alternates(value: unknown, loc: string | undefined): AlternateRecord[] | undefined {
    const hrefs = new Map<string, string>();
    // Each kept alternate's place in the input, for its field path.
    const places: number[] = [];
    let listsItself = false;
    const alternates = this.#list(value, 'alternates', (item, n) => {
      const alternate = this.#alternate(item, n);
      if (alternate === undefined) return undefined;
      const key = alternate.hreflang.toLowerCase();
      const earlier = hrefs.get(key);
      if (earlier !== undefined && earlier !== alternate.href) this.#report('R38', 'warn', `hreflang "${alternate.hreflang}" is listed twice with different URLs`, `alternates[${n}].hreflang`);
      hrefs.set(key, alternate.href);
      // Both as the writer writes them (scheme and host in lower case, the empty path "/"): what still differs names another URL to a search engine.
      if (alternate.href === loc) listsItself = true;
      places.push(n);
      return alternate;
    });
    if (alternates === undefined || loc === undefined || listsItself) return alternates;
    // A trailing slash or letter case away is most likely the URL meant: named, since it looks the same at a glance.
    const loose = looseUrl(loc);
    const near = alternates.findIndex((alternate) => looseUrl(alternate.href) === loose);
    if (near === -1) this.#report('R38', 'warn', 'the URL is not listed among its own alternates', 'alternates');
    else this.#report('R38', 'warn', `the URL is not listed among its own alternates: ${alternates[near]?.href} differs from it only by a trailing slash or letter case, which makes it another URL`, `alternates[${places[near]}].href`);
    return alternates;
  }

  #alternate(input: unknown, n: number): AlternateRecord | undefined {
    const field = `alternates[${n}]`;
    if (!isObject(input) || typeof input['hreflang'] !== 'string' || typeof input['href'] !== 'string') {
      this.#report('R38', 'error', `${field} dropped: an alternate needs "hreflang" and "href"`, field);
      return undefined;
    }
    const hreflang = input['hreflang'].trim();
    if (!isHreflang(hreflang)) {
      this.#report('R38', 'error', `${field} dropped: hreflang "${excerpt(hreflang)}" is not a BCP 47 language tag (e.g. en, en-GB, zh-Hant) or x-default`, `${field}.hreflang`);
      return undefined;
    }
    const href = this.#uri(input['href'], `${field}.href`, false);
    return href === undefined ? undefined : { hreflang, href };
  }
}

/** A URL with letter case and a trailing slash on its path ignored: only to tell a near miss. */
function looseUrl(uri: string): string {
  return uri.toLowerCase().replace(/^([^?#]*?)\/?([?#]|$)/, '$1$2');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function isRelationship(value: unknown): value is 'allow' | 'deny' {
  return value === 'allow' || value === 'deny';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${quote(value)}`;
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? `"${value}"` : value instanceof Date ? String(value) : JSON.stringify(value) ?? String(value);
  return excerpt(text);
}


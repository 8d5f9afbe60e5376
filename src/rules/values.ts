/** Checks on the smaller values: changefreq (R13), priority (R14), extension values (R34–R38). */
import { CHANGEFREQS, type Changefreq } from '../model/record.ts';

const CHANGEFREQ_SET: ReadonlySet<string> = new Set(CHANGEFREQS);

export function isChangefreq(value: string): value is Changefreq {
  return CHANGEFREQ_SET.has(value);
}

const XSD_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** R14: an xsd:decimal in [0, 1], written with at least one digit after the point ("0.5", "1.0"). */
export function normalizePriority(value: number | string): string | undefined {
  let n: number;
  if (typeof value === 'number') {
    n = value;
  } else {
    const text = value.trim();
    if (!XSD_DECIMAL.test(text)) return undefined;
    n = Number(text);
  }
  if (!Number.isFinite(n) || n < 0 || n > 1) return undefined;
  return formatDecimal(n);
}

/** A decimal without exponent, with at least one digit after the point. */
export function formatDecimal(n: number): string {
  const tenths = n * 10;
  if (Number.isInteger(tenths) && tenths >= 0 && tenths <= 10) return TENTHS[tenths] ?? '';
  const text = plainDigits(String(n === 0 ? 0 : n));
  return text.includes('.') ? text : `${text}.0`;
}

/** `1.5e-7` as `0.00000015`, `1e+21` as `1000000000000000000000`: xsd:decimal has no exponent. The digits are JavaScript's shortest round trip, moved. */
function plainDigits(text: string): string {
  const e = text.indexOf('e');
  if (e === -1) return text;
  const exponent = Number(text.slice(e + 1));
  const [whole = '', fraction = ''] = text.slice(0, e).split('.');
  const digits = whole + fraction;
  const point = whole.length + exponent;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  return point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Nearly every priority is a multiple of 0.1: skip number formatting for those. */
const TENTHS = ['0.0', '0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9', '1.0'];

/** R36: a decimal in [min, max]. */
export function normalizeDecimalInRange(value: number | string, min: number, max: number): string | undefined {
  const n = typeof value === 'number' ? value : XSD_DECIMAL.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isFinite(n) || n < min || n > max) return undefined;
  return formatDecimal(n);
}

/** R36: a non-negative integer, at most `max`. */
export function normalizeInteger(value: number | string, max = Number.MAX_SAFE_INTEGER): string | undefined {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^\+?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n <= max ? String(n) : undefined;
}

export function normalizeYesNo(value: boolean | string): 'yes' | 'no' | undefined {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const lower = value.trim().toLowerCase();
  return lower === 'yes' || lower === 'no' ? lower : undefined;
}

/** R38: BCP 47 language, optional script and region, or x-default. */
const HREFLANG = /^(?:x-default|[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?)$/i;
export function isHreflang(value: string): boolean {
  return HREFLANG.test(value);
}

/** R37: ISO 639 code, lower case, or zh-cn / zh-tw. */
const NEWS_LANGUAGE = /^(?:zh-cn|zh-tw|[a-z]{2,3})$/;
export function isNewsLanguage(value: string): boolean {
  return NEWS_LANGUAGE.test(value);
}

/** R36: ISO 3166-1 alpha-2 country codes, upper case. */
export function isCountryCode(value: string): boolean {
  return /^[A-Z]{2}$/.test(value);
}

const NEWS_GENRES = /^(?:PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated)(?:, *(?:PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated))*$/;
export function isNewsGenres(value: string): boolean {
  return NEWS_GENRES.test(value);
}

const STOCK_TICKERS = /^\w+:\w+(?:, *\w+:\w+){0,4}$/;
export function isStockTickers(value: string): boolean {
  return STOCK_TICKERS.test(value);
}

/** Characters XML 1.0 forbids (R2), including unpaired surrogates. */
const INVALID_XML_CHAR = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes what XML 1.0 cannot carry; `changed` tells the caller to report R2. */
export function toXmlText(value: string): { text: string; changed: boolean } {
  const text = value.replace(INVALID_XML_CHAR, '');
  return { text, changed: text.length !== value.length };
}

/** W3C Datetime (R11) and the XSD date/dateTime forms (R12). */
import { excerpt } from '../model/diagnostic.ts';

export type W3cForm = 'year' | 'month' | 'date' | 'minutes' | 'seconds';

export interface W3cDatetime {
  form: W3cForm;
  /** Milliseconds since the epoch of the instant the value denotes (its start, for a date). */
  epoch: number;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** Parses a W3C Datetime value; `undefined` when the text is not one (R11). Hand-rolled: it runs once per record. */
export function parseW3cDatetime(text: string): W3cDatetime | undefined {
  const length = text.length;
  if (length < 4) return undefined;
  const year = digits(text, 0, 4);
  if (year < 0) return undefined;
  if (length === 4) return { form: 'year', epoch: utc(year, 0, 1) };
  if (text.charCodeAt(4) !== DASH || length < 7) return undefined;
  const month = digits(text, 5, 2);
  if (month < 1 || month > 12) return undefined;
  if (length === 7) return { form: 'month', epoch: utc(year, month - 1, 1) };
  if (text.charCodeAt(7) !== DASH || length < 10) return undefined;
  const day = digits(text, 8, 2);
  if (day < 1 || day > daysInMonth(year, month)) return undefined;
  if (length === 10) return { form: 'date', epoch: utc(year, month - 1, day) };
  // hh:mm, then optional :ss and fraction, then the zone, which a time requires.
  if (text.charCodeAt(10) !== LETTER_T || length < 17 || text.charCodeAt(13) !== COLON) return undefined;
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  let at = 16;
  let second = 0;
  let millis = 0;
  let form: W3cForm = 'minutes';
  if (text.charCodeAt(at) === COLON) {
    second = digits(text, 17, 2);
    if (second < 0 || second > 59) return undefined;
    form = 'seconds';
    at = 19;
    if (text.charCodeAt(at) === DOT) {
      const start = ++at;
      while (at < length && isDigit(text.charCodeAt(at))) at++;
      if (at === start) return undefined;
      millis = Math.floor(Number(`0.${text.slice(start, at)}`) * 1000);
    }
  }
  let offsetMinutes = 0;
  const zone = text.charCodeAt(at);
  if (zone === LETTER_Z) {
    if (at + 1 !== length) return undefined;
  } else if (zone === PLUS || zone === DASH) {
    if (at + 6 !== length || text.charCodeAt(at + 3) !== COLON) return undefined;
    const zoneHours = digits(text, at + 1, 2);
    const zoneMinutes = digits(text, at + 4, 2);
    if (zoneHours < 0 || zoneMinutes < 0 || zoneMinutes > 59 || zoneHours * 60 + zoneMinutes > 14 * 60) return undefined;
    offsetMinutes = (zone === DASH ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  } else {
    return undefined;
  }
  return { form, epoch: utc(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000 };
}

const RFC822_DATE =
  /^\s*(?:([A-Za-z]{3}),\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{2,4})\s+(\d{2}):(\d{2})(?::(\d{2}))?(?:\s+([+-]\d{4}|[A-Za-z]{1,5}))?\s*$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** RFC 822's named zones (and UTC), in hours from UTC. */
const NAMED_ZONES: Record<string, number> = { ut: 0, utc: 0, gmt: 0, z: 0, est: -5, edt: -4, cst: -6, cdt: -5, mst: -7, mdt: -6, pst: -8, pdt: -7 };

export interface Rfc822Date {
  epoch: number;
  /** What a careful reader let pass: no zone, or one it does not know (both read as UTC), a weekday that is not the date's. */
  doubts: string[];
}

/**
 * An RSS `<pubDate>` (RFC 822, with RFC 2822's years): `[Day, ] DD Mon YY[YY] hh:mm[:ss] zone`.
 * Parsed by hand, never by `Date.parse`, whose reading of a date without a zone depends on the
 * machine's time zone and which takes year 0099 for 1999. As RFC 2822 §4.3 asks, two- and
 * three-digit years are completed, and an unknown zone (a military letter, CET…) is read as UTC.
 */
export function parseRfc822Date(text: string): Rfc822Date | undefined {
  const match = RFC822_DATE.exec(text);
  if (match === null) return undefined;
  const [, weekdayText, dayText, monthText, yearText, hourText, minuteText, secondText, zoneText] = match as unknown as [
    string,
    string | undefined,
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  const month = MONTHS.indexOf(monthText.toLowerCase()) + 1;
  let year = Number(yearText);
  if (yearText.length === 2) year += year < 50 ? 2000 : 1900;
  else if (yearText.length === 3) year += 1900;
  const day = Number(dayText);
  const hour = Number(hourText);
  const minute = Number(minuteText);
  const second = secondText === undefined ? 0 : Number(secondText);
  // A leap second only ends a day (23:59:60), and is read as the second before.
  const leap = second === 60 && hour === 23 && minute === 59;
  if (month === 0 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || (second > 59 && !leap)) return undefined;
  const doubts: string[] = [];
  let offsetMinutes = 0;
  if (zoneText === undefined) doubts.push('has no time zone; read as UTC');
  else if (/^[+-]\d{4}$/.test(zoneText)) {
    const hours = Number(zoneText.slice(1, 3));
    const minutes = Number(zoneText.slice(3, 5));
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (zoneText[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  } else {
    const named = NAMED_ZONES[zoneText.toLowerCase()];
    if (named === undefined) doubts.push(`has a time zone RFC 822 does not name (${zoneText}); read as UTC`);
    else offsetMinutes = named * 60;
  }
  const epoch = utc(year, month - 1, day, hour, minute, leap ? 59 : second) - offsetMinutes * 60_000;
  // Years 0000–9999 only, as a W3C date can say them.
  if (epoch < utc(0, 0, 1) || epoch >= utc(10_000, 0, 1)) return undefined;
  if (weekdayText !== undefined && WEEKDAYS[new Date(utc(year, month - 1, day)).getUTCDay()] !== weekdayText.toLowerCase()) {
    doubts.push(`names the wrong weekday (${weekdayText}) for the date`);
  }
  return { epoch, doubts };
}

/** Milliseconds since the epoch, proleptic Gregorian, any year (Date.UTC maps 0–99 to 1900–1999 and is slower). */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  return daysFromCivil(year, month + 1, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

/** Days since 1970-01-01 of a date with month 1–12 (H. Hinnant's days_from_civil: years counted from March). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

const DASH = 0x2d;
const PLUS = 0x2b;
const COLON = 0x3a;
const DOT = 0x2e;
const LETTER_T = 0x54;
const LETTER_Z = 0x5a;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** The number written by `count` ASCII digits at `at`, or -1. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + (code - 0x30);
  }
  return value;
}

const XSD_DATE = /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/;
const XSD_DATETIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/** Whether the XSD's `xsd:date | xsd:dateTime` union accepts the lexical form (R12); calendar checks are R11's. */
export function isXsdDateOrDateTime(text: string): boolean {
  return XSD_DATE.test(text) || XSD_DATETIME.test(text);
}

/** W3C Datetime allows it; xsd:dateTime (XML Schema 1.0), which the sitemap schema uses, has no year zero. */
const YEAR_ZERO = 'year 0000 is valid W3C Datetime, but the sitemap schema (xsd:dateTime) has no year zero';

export type DatetimeNormalization =
  | { ok: true; value: string; epoch: number }
  | { ok: false; rule: 'R11' | 'R12'; reason: string };

/**
 * The form a generator writes: the intersection of W3C Datetime and the XSD types (R12),
 * keeping the given offset. Minutes get `:00` (exact); a bare year or month cannot be written
 * without inventing a day, so it is refused rather than made up.
 */
export function normalizeDatetime(value: string | Date): DatetimeNormalization {
  if (value instanceof Date) {
    const epoch = value.getTime();
    if (Number.isNaN(epoch)) return { ok: false, rule: 'R11', reason: 'the Date object is invalid (its time is NaN)' };
    const iso = value.toISOString();
    if (iso.length !== 24) return { ok: false, rule: 'R11', reason: 'is outside the years 0000–9999' };
    if (iso.startsWith('0000')) return { ok: false, rule: 'R12', reason: YEAR_ZERO };
    return { ok: true, value: `${iso.slice(0, 19)}Z`, epoch: Math.floor(epoch / 1000) * 1000 };
  }
  const text = value.trim();
  const parsed = parseW3cDatetime(text);
  if (parsed === undefined) {
    return { ok: false, rule: 'R11', reason: `"${excerpt(text, 60)}" is not a W3C Datetime (e.g. 2024-05-31 or 2024-05-31T12:00:00+02:00)` };
  }
  if (text.startsWith('0000')) return { ok: false, rule: 'R12', reason: `"${text}": ${YEAR_ZERO}` };
  switch (parsed.form) {
    case 'year':
    case 'month':
      return { ok: false, rule: 'R12', reason: `"${text}" has no day; the sitemap schema needs at least YYYY-MM-DD` };
    case 'minutes': {
      const t = text.indexOf('T');
      return { ok: true, value: `${text.slice(0, t + 6)}:00${text.slice(t + 6)}`, epoch: parsed.epoch };
    }
    default:
      return { ok: true, value: text, epoch: parsed.epoch };
  }
}


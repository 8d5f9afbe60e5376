/** W3C Datetime (R11) and the XSD date/dateTime forms (R12). */

const W3C_DATETIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

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

/** Parses a W3C Datetime value; `undefined` when the text is not one (R11). */
export function parseW3cDatetime(text: string): W3cDatetime | undefined {
  const m = W3C_DATETIME.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = m[2] === undefined ? 1 : Number(m[2]);
  const day = m[3] === undefined ? 1 : Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (m[4] === undefined) {
    const form: W3cForm = m[3] !== undefined ? 'date' : m[2] !== undefined ? 'month' : 'year';
    return { form, epoch: Date.UTC(year, month - 1, day) };
  }
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = m[8] ?? 'Z';
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const zoneHours = Number(zone.slice(1, 3));
    const zoneMinutes = Number(zone.slice(4, 6));
    if (zoneMinutes > 59 || zoneHours * 60 + zoneMinutes > 14 * 60) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  }
  const fraction = m[7] === undefined ? 0 : Math.floor(Number(m[7]) * 1000);
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
  return { form: m[6] === undefined ? 'minutes' : 'seconds', epoch: utc - offsetMinutes * 60_000 };
}

const XSD_DATE = /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/;
const XSD_DATETIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/** Whether the XSD's `xsd:date | xsd:dateTime` union accepts the lexical form (R12); calendar checks are R11's. */
export function isXsdDateOrDateTime(text: string): boolean {
  return XSD_DATE.test(text) || XSD_DATETIME.test(text);
}

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
    if (Number.isNaN(epoch)) return { ok: false, rule: 'R11', reason: 'is an invalid Date' };
    const iso = value.toISOString();
    if (iso.length !== 24) return { ok: false, rule: 'R11', reason: 'is outside the years 0000–9999' };
    return { ok: true, value: `${iso.slice(0, 19)}Z`, epoch: Math.floor(epoch / 1000) * 1000 };
  }
  const text = value.trim();
  const parsed = parseW3cDatetime(text);
  if (parsed === undefined) {
    return { ok: false, rule: 'R11', reason: `"${clip(text)}" is not a W3C Datetime (e.g. 2024-05-31 or 2024-05-31T12:00:00+02:00)` };
  }
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

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

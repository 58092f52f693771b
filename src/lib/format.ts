import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Dates, times and numbers for the user's language and time zone, through Intl (spec §1:
 * localisation and time zones). The server stores and sends UTC; the browser shows local
 * time. Every function takes the locale (the UI language) and, for dates, the time zone
 * (default: the zone of the user's clock). Formatters are cached: building one is costly.
 */

export type DateInput = Date | string | number;
export type DateStyle = 'short' | 'medium' | 'long' | 'full';

export interface DateFormatOptions {
  /** BCP 47 locale; the UI language. */
  locale: string;
  /** IANA zone, e.g. 'Asia/Kolkata'; default the zone of the user's clock. */
  timeZone?: string;
}

let clockZone: string | undefined;

/**
 * The IANA time zone of the user's clock ('UTC' when the browser does not say). Read once per
 * page: every date shown without an explicit zone asks for it, and each ask built a new
 * Intl.DateTimeFormat (issue 22).
 */
export function userTimeZone(): string {
  return (clockZone ??= new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

// An ISO date-time without a zone designator: the server's UTC, not local time.
const isoWithoutZone = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** A Date from an API value, or null when it is not a valid moment. Zone-less ISO strings are UTC. */
export function toDate(value: DateInput | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  let date: Date;
  if (value instanceof Date) date = new Date(value.getTime());
  else if (typeof value === 'number') date = new Date(value);
  else date = new Date(isoWithoutZone.test(value.trim()) ? `${value.trim().replace(' ', 'T')}Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(key: string, create: () => T): T {
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = create();
    cache.set(key, formatter);
  }
  return formatter;
}

/** A cached Intl.DateTimeFormat; `timeZone` undefined is the zone of the user's clock. */
export function dateTimeFormat(locale: string, timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const zone = timeZone ?? userTimeZone();
  return cached(`dt|${locale}|${zone}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, { ...options, timeZone: zone }));
}

/** '22 Nov 2026' (en-IN, medium). Empty string for a missing or invalid value. */
export function formatDate(value: DateInput | null | undefined, { locale, timeZone, style = 'medium' }: DateFormatOptions & { style?: DateStyle }): string {
  const date = toDate(value);
  return date ? dateTimeFormat(locale, timeZone, { dateStyle: style }).format(date) : '';
}

/** '2:05 pm' (en-IN, short). */
export function formatTime(value: DateInput | null | undefined, { locale, timeZone, style = 'short' }: DateFormatOptions & { style?: DateStyle }): string {
  const date = toDate(value);
  return date ? dateTimeFormat(locale, timeZone, { timeStyle: style }).format(date) : '';
}

/** '22 Nov 2026, 2:05 pm' (en-IN, medium date and short time). */
export function formatDateTime(
  value: DateInput | null | undefined,
  { locale, timeZone, dateStyle = 'medium', timeStyle = 'short' }: DateFormatOptions & { dateStyle?: DateStyle; timeStyle?: DateStyle },
): string {
  const date = toDate(value);
  return date ? dateTimeFormat(locale, timeZone, { dateStyle, timeStyle }).format(date) : '';
}

/** '1,23,456.7' (en-IN), '123 456,7' (fr). */
export function formatNumber(value: number | bigint | null | undefined, { locale, ...options }: { locale: string } & Intl.NumberFormatOptions): string {
  if (value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value))) return '';
  // A count below 1000 is its plain digits in every language the app speaks (Latin digits, no
  // grouping yet): the first Intl formatter of a page loads the browser's locale data, about
  // 40 ms on a phone, which a page of small counts need not pay (issue 22).
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1000 && Object.keys(options).length === 0) return String(value);
  return cached(`n|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options)).format(value);
}

const relativeUnits: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** '3 hours ago', 'in 2 days' — relative to `now` (pass the app's clock in tests). */
export function formatRelativeTime(value: DateInput | null | undefined, { locale, now = new Date() }: { locale: string; now?: Date }): string {
  const date = toDate(value);
  if (!date) return '';
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const [unit, size] = relativeUnits.find(([, length]) => Math.abs(seconds) >= length) ?? ['second', 1];
  return cached(`r|${locale}`, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })).format(Math.round(seconds / size), unit);
}

/** Minutes east of UTC of the user's clock at `date` (India: 330). */
export function utcOffsetMinutes(date: Date = new Date(), timeZone?: string): number {
  if (!timeZone) return -date.getTimezoneOffset();
  // The wall-clock time in that zone, read back as if it were UTC, minus the real instant.
  const parts = Object.fromEntries(
    dateTimeFormat('en-US', timeZone, {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
}

/** '+05:30', '-04:00', '+00:00': the UTC offset of the user's clock (or of `timeZone`). */
export function formatUtcOffset(date: Date = new Date(), timeZone?: string): string {
  const minutes = utcOffsetMinutes(date, timeZone);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Formatters bound to the current UI language and the user's time zone. */
export function useFormat(timeZone?: string) {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(
    () => ({
      locale,
      // Read when asked: the first look at the clock's zone loads the browser's zone data, about
      // 40 ms on a phone, which a page that shows no date (a filter's counts) need not pay (issue 22).
      get timeZone() {
        return timeZone ?? userTimeZone();
      },
      date: (value: DateInput | null | undefined, style?: DateStyle) => formatDate(value, { locale, timeZone, style }),
      time: (value: DateInput | null | undefined, style?: DateStyle) => formatTime(value, { locale, timeZone, style }),
      dateTime: (value: DateInput | null | undefined) => formatDateTime(value, { locale, timeZone }),
      number: (value: number | null | undefined, options?: Intl.NumberFormatOptions) => formatNumber(value, { locale, ...options }),
      relative: (value: DateInput | null | undefined, now?: Date) => formatRelativeTime(value, { locale, now }),
    }),
    [locale, timeZone],
  );
}

import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { locales } from '#src/lib/config.ts';
import {
  formatDate,
  formatDateTime,
  formatNumber,
  formatRelativeTime,
  formatTime,
  formatUtcOffset,
  toDate,
  useFormat,
  userTimeZone,
  utcOffsetMinutes,
} from '#src/lib/format.ts';

// Intl separates time and am/pm (and French digit groups) with narrow no-break spaces.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
const instant = '2026-11-22T10:00:00Z';

describe('toDate', () => {
  it('should read ISO strings, epoch milliseconds and Dates, and treat zone-less server times as UTC', () => {
    expect(toDate('2026-11-22T10:00:00Z')?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(toDate('2026-11-22T10:00:00')?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(toDate('2026-11-22 10:00:00.250')?.toISOString()).toBe('2026-11-22T10:00:00.250Z');
    expect(toDate('2026-11-22T10:00:00+05:30')?.toISOString()).toBe('2026-11-22T04:30:00.000Z');
    expect(toDate(0)?.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(toDate(new Date(instant))?.toISOString()).toBe('2026-11-22T10:00:00.000Z');
  });

  it('should give null for missing or invalid values', () => {
    expect(toDate(null)).toBeNull();
    expect(toDate(undefined)).toBeNull();
    expect(toDate('')).toBeNull();
    expect(toDate('not a date')).toBeNull();
  });
});

describe('date and time formatting', () => {
  it('should show one UTC moment in the user’s time zone and language', () => {
    expect(plain(formatDateTime(instant, { locale: 'en-IN', timeZone: 'Asia/Kolkata' }))).toBe('22 Nov 2026, 3:30 pm');
    expect(plain(formatDateTime(instant, { locale: 'en-US', timeZone: 'America/New_York' }))).toBe('Nov 22, 2026, 5:00 AM');
    expect(formatDate('2026-11-22T23:30:00Z', { locale: 'fr', timeZone: 'Europe/Paris', style: 'long' })).toBe('23 novembre 2026');
    expect(formatDate(instant, { locale: 'hi', timeZone: 'Asia/Kolkata' })).toBe('22 नव॰ 2026');
    expect(formatDate(instant, { locale: 'gu', timeZone: 'Asia/Kolkata', style: 'long' })).toBe('22 નવેમ્બર, 2026');
    expect(plain(formatTime(instant, { locale: 'es', timeZone: 'Europe/Madrid' }))).toBe('11:00');
  });

  it('should default to the zone of the user’s clock', () => {
    expect(formatDateTime(instant, { locale: 'en-IN' })).toBe(formatDateTime(instant, { locale: 'en-IN', timeZone: userTimeZone() }));
    expect(userTimeZone()).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('should show nothing for a missing or invalid date', () => {
    expect(formatDate(null, { locale: 'en-IN' })).toBe('');
    expect(formatTime('garbage', { locale: 'en-IN' })).toBe('');
    expect(formatDateTime(undefined, { locale: 'en-IN' })).toBe('');
  });

  it('should say how long ago or ahead a moment is, relative to the given now', () => {
    const now = new Date(instant);
    expect(formatRelativeTime('2026-11-22T07:00:00Z', { locale: 'en-IN', now })).toBe('3 hours ago');
    expect(formatRelativeTime('2026-11-21T10:00:00Z', { locale: 'en-IN', now })).toBe('yesterday');
    expect(formatRelativeTime('2026-11-24T10:00:00Z', { locale: 'fr', now })).toBe('après-demain');
    expect(formatRelativeTime(instant, { locale: 'en-US', now })).toBe('now');
  });
});

describe('number formatting', () => {
  it('should group digits the way each language does', () => {
    expect(formatNumber(1234567.891, { locale: 'en-IN' })).toBe('12,34,567.891');
    expect(formatNumber(1234567.891, { locale: 'en-US' })).toBe('1,234,567.891');
    expect(plain(formatNumber(1234567.891, { locale: 'fr' }))).toBe('1 234 567,891');
    expect(formatNumber(1234567.891, { locale: 'es' })).toBe('1.234.567,891');
    expect(formatNumber(0.256, { locale: 'hi', style: 'percent' })).toBe('26%');
    expect(formatNumber(null, { locale: 'en-IN' })).toBe('');
    expect(formatNumber(Number.NaN, { locale: 'en-IN' })).toBe('');
  });

  it('should write a count below 1000 as Intl does in every language the app speaks, though without it', () => {
    for (const locale of locales)
      for (const value of [0, 7, 42, 999, 1000, 1234])
        expect(formatNumber(value, { locale }), `${value} in ${locale}`).toBe(new Intl.NumberFormat(locale).format(value));
    // Options, fractions and negatives still take Intl.
    expect(formatNumber(5, { locale: 'hi', style: 'percent' })).toBe('500%');
    expect(formatNumber(2.5, { locale: 'fr' })).toBe('2,5');
  });
});

describe('UTC offset', () => {
  it('should give the offset of a zone at a moment, daylight saving included', () => {
    expect(formatUtcOffset(new Date(instant), 'Asia/Kolkata')).toBe('+05:30');
    expect(formatUtcOffset(new Date('2026-01-15T12:00:00Z'), 'America/New_York')).toBe('-05:00');
    expect(formatUtcOffset(new Date('2026-07-15T12:00:00Z'), 'America/New_York')).toBe('-04:00');
    expect(formatUtcOffset(new Date(instant), 'UTC')).toBe('+00:00');
    expect(utcOffsetMinutes(new Date(instant), 'Asia/Kathmandu')).toBe(345);
  });

  it('should use the user’s clock when no zone is given', () => {
    const date = new Date(instant);
    expect(utcOffsetMinutes(date)).toBe(-date.getTimezoneOffset());
    expect(formatUtcOffset(date)).toBe(formatUtcOffset(date, userTimeZone()));
  });
});

function Sample() {
  const format = useFormat('Asia/Kolkata');
  return (
    <p data-testid="sample">
      {format.locale} | {format.date(instant)} | {format.number(1234567.5)}
    </p>
  );
}

describe('useFormat', () => {
  beforeAll(async () => {
    await initI18n('en-IN');
  });
  afterAll(async () => {
    await i18n.changeLanguage('en-IN');
  });

  it('should follow the UI language when it changes', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <Sample />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('sample')).toHaveTextContent('en-IN | 22 Nov 2026 | 12,34,567.5');
    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByTestId('sample')).toHaveTextContent('es | 22 nov 2026 | 1.234.567,5');
  });
});

/**
 * The `TimeZoneOffset` request header (spec §7; docs/decisions/0010 and 0101): the UTC offset of
 * the user's clock as `+05:30`. The server uses it where it renders a date itself, so the file
 * or message reads in the user's local time (the API's JSON stays UTC).
 */

/** Offsets in use run from -12:00 to +14:00. */
const MIN_OFFSET = -12 * 60;
const MAX_OFFSET = 14 * 60;

/**
 * Minutes east of UTC from a `TimeZoneOffset` header value, or null when it is absent or not
 * of the form ±HH:MM within -12:00…+14:00 (a bad header never fails a request: dates are then
 * written in UTC).
 */
export function parseTimeZoneOffset(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(value?.trim() ?? '');
  if (!match) return null;
  const [, sign, hours, minutes] = match;
  if (Number(minutes) > 59) return null;
  const total = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  return total < MIN_OFFSET || total > MAX_OFFSET ? null : total;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A moment as the user's wall-clock time with its offset, RFC 3339 to the second:
 * `2026-11-25T15:30:00+05:30` (`…Z` for UTC or no offset). Unambiguous, and sorts as text
 * within one offset.
 */
export function formatAtOffset(moment: Date | string, offsetMinutes: number | null): string {
  const date = new Date(moment);
  if (Number.isNaN(date.getTime())) return '';
  const offset = offsetMinutes ?? 0;
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const sign = offset < 0 ? '-' : '+';
  const size = Math.abs(offset);
  return `${local}${sign}${two(Math.floor(size / 60))}:${two(size % 60)}`;
}

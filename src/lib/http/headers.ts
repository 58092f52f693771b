/** Spec §9: the tenant header unauthenticated calls send. */
export const DEFAULT_TENANT = 'root';
/** Spec §7/§9: accept-language when no locale is stored. */
export const DEFAULT_ACCEPT_LANGUAGE = 'en-US';

/**
 * The UTC offset of the user's clock at `date` as ISO 8601, e.g. "+05:30", "-03:00", "+00:00"
 * (docs/decisions/0010). Computed per request, so a change of daylight saving time shows.
 */
export function timeZoneOffset(date: Date = new Date()): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export interface HeaderInput {
  /** The access token; null when signed out. */
  token: string | null;
  /** An unauthenticated call (sign-in, forgot password, self-registration …). */
  anonymous: boolean;
  /** An upload: multipart instead of JSON. */
  multipart: boolean;
  /** The stored locale (the localization slice), null when none is stored. */
  language: string | null;
  now: Date;
}

/**
 * The request headers of spec §7. Authenticated calls: bearer token, content type, accept-
 * language, TimeZoneOffset, and nothing at all without a token. Unauthenticated calls:
 * `tenant: root`, content type, accept-language, TimeZoneOffset.
 */
export function requestHeaders({ token, anonymous, multipart, language, now }: HeaderInput): Record<string, string> {
  const common = {
    'Content-Type': multipart ? 'multipart/form-data' : 'application/json',
    'accept-language': language || DEFAULT_ACCEPT_LANGUAGE,
    TimeZoneOffset: timeZoneOffset(now),
  };
  if (anonymous) return { tenant: DEFAULT_TENANT, ...common };
  if (!token) return {};
  return { Authorization: `Bearer ${token}`, ...common };
}

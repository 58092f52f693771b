import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ACCEPT_LANGUAGE, DEFAULT_TENANT, requestHeaders, timeZoneOffset } from '#src/lib/http/headers.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

function clockAt(offsetMinutesEastOfUtc: number) {
  const date = new Date('2026-11-22T10:00:00Z');
  vi.spyOn(date, 'getTimezoneOffset').mockReturnValue(-offsetMinutesEastOfUtc);
  return date;
}

describe('timeZoneOffset', () => {
  it.each([
    [330, '+05:30'],
    [345, '+05:45'],
    [0, '+00:00'],
    [-180, '-03:00'],
    [-570, '-09:30'],
    [840, '+14:00'],
  ])('should write %i minutes east of UTC as %s', (minutes, expected) => {
    expect(timeZoneOffset(clockAt(minutes))).toBe(expected);
  });
});

describe('requestHeaders', () => {
  let now: Date;
  beforeEach(() => {
    now = clockAt(330);
  });

  it('should send the bearer token, JSON, the stored locale and the offset on an authenticated call', () => {
    expect(requestHeaders({ token: 'abc', anonymous: false, multipart: false, language: 'fr', now })).toEqual({
      Authorization: 'Bearer abc',
      'Content-Type': 'application/json',
      'accept-language': 'fr',
      TimeZoneOffset: '+05:30',
    });
  });

  it('should send multipart for an upload', () => {
    expect(requestHeaders({ token: 'abc', anonymous: false, multipart: true, language: 'hi', now })['Content-Type']).toBe('multipart/form-data');
  });

  it('should send nothing on an authenticated call without a token', () => {
    expect(requestHeaders({ token: null, anonymous: false, multipart: false, language: 'fr', now })).toEqual({});
  });

  it('should send tenant root and en-US by default on an unauthenticated call', () => {
    expect(DEFAULT_TENANT).toBe('root');
    expect(DEFAULT_ACCEPT_LANGUAGE).toBe('en-US');
    expect(requestHeaders({ token: null, anonymous: true, multipart: false, language: null, now })).toEqual({
      tenant: 'root',
      'Content-Type': 'application/json',
      'accept-language': 'en-US',
      TimeZoneOffset: '+05:30',
    });
  });

  it('should not send a token on an unauthenticated call even when signed in', () => {
    expect(requestHeaders({ token: 'abc', anonymous: true, multipart: false, language: 'gu', now })).not.toHaveProperty('Authorization');
  });
});

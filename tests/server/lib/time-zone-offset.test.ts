import { describe, expect, it } from 'vitest';
import { formatAtOffset, parseTimeZoneOffset } from '#server/lib/time-zone-offset.ts';

describe('TimeZoneOffset (docs/decisions/0010, 0101)', () => {
  it('should read ±HH:MM as minutes east of UTC', () => {
    expect(['+05:30', '-03:00', '+00:00', '+05:45', '+14:00', '-12:00', ' +01:00 ', ['+02:00', '+03:00']].map((v) => parseTimeZoneOffset(v))).toEqual([
      330, -180, 0, 345, 840, -720, 60, 120,
    ]);
  });

  it('should ignore a missing or malformed header rather than fail the request', () => {
    expect([undefined, '', '330', '-330', '5:30', '+5:30', '+05:60', '+14:30', '-12:30', 'UTC', '+05:30:00'].map((v) => parseTimeZoneOffset(v))).toEqual(
      Array(11).fill(null),
    );
  });

  it('should write a moment as the wall-clock time at that offset, with the offset', () => {
    const moment = '2026-11-25T23:10:05.900Z';
    expect(formatAtOffset(moment, 330)).toBe('2026-11-26T04:40:05+05:30');
    expect(formatAtOffset(moment, -180)).toBe('2026-11-25T20:10:05-03:00');
    expect(formatAtOffset(moment, 345)).toBe('2026-11-26T04:55:05+05:45');
    expect(formatAtOffset(moment, 0)).toBe('2026-11-25T23:10:05Z');
    expect(formatAtOffset(moment, null)).toBe('2026-11-25T23:10:05Z');
    expect(formatAtOffset('not a date', 330)).toBe('');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustMark, distributionOf, isDoubleMarked, settleMarks } from '#machines/results/marking.ts';

const mark = fc.integer({ min: 0, max: 40 }).map((n) => n / 4); // 0 … 10 in quarter marks
const threshold = fc.integer({ min: 0, max: 20 }).map((n) => n / 4);

describe('double marking and the third marker (property)', () => {
  it('should settle a single-marked answer on its one mark', () => {
    fc.assert(
      fc.property(mark, threshold, (m, t) => {
        expect(settleMarks({ 1: m }, false, t)).toEqual({ kind: 'final', marks: m, by: 'single' });
      }),
    );
  });

  it('should wait for the second, blind mark of a double-marked answer', () => {
    fc.assert(
      fc.property(mark, threshold, (m, t) => {
        expect(settleMarks({ 1: m }, true, t)).toEqual({ kind: 'awaiting', round: 2 });
      }),
    );
  });

  it('should send two marks further apart than the threshold to a third marker, and only those', () => {
    fc.assert(
      fc.property(mark, mark, threshold, (a, b, t) => {
        const state = settleMarks({ 1: a, 2: b }, true, t);
        if (Math.abs(a - b) > t) expect(state).toEqual({ kind: 'thirdMarker', difference: Math.abs(a - b) });
        else expect(state).toEqual({ kind: 'final', marks: (a + b) / 2, by: 'agreed' });
      }),
    );
  });

  it("should take the third marker's mark as final whatever the first two were", () => {
    fc.assert(
      fc.property(mark, mark, mark, threshold, (a, b, c, t) => {
        fc.pre(Math.abs(a - b) > t);
        expect(settleMarks({ 1: a, 2: b, 3: c }, true, t)).toEqual({ kind: 'final', marks: c, by: 'third' });
      }),
    );
  });

  it('should never ask for a mark before round 1 is in', () => {
    fc.assert(
      fc.property(fc.boolean(), threshold, (double, t) => {
        expect(settleMarks({}, double, t)).toEqual({ kind: 'awaiting', round: 1 });
      }),
    );
  });

  it('should double-mark about the configured share, the same answers every time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), (percent) => {
        const ids = Array.from({ length: 2000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
        const chosen = ids.filter((id) => isDoubleMarked(id, 1, percent)).length;
        expect(Math.abs(chosen / ids.length - percent / 100)).toBeLessThan(0.05);
        expect(ids.filter((id) => isDoubleMarked(id, 1, percent)).length).toBe(chosen);
      }),
      { numRuns: 20 },
    );
    expect(isDoubleMarked('x', 1, 0)).toBe(false);
    expect(isDoubleMarked('x', 1, 100)).toBe(true);
  });
});

describe('moderation', () => {
  it('should shift or scale within 0 … the maximum', () => {
    expect(adjustMark(6, 10, { kind: 'shift', value: 1.5 })).toBe(7.5);
    expect(adjustMark(9.5, 10, { kind: 'shift', value: 1 })).toBe(10);
    expect(adjustMark(0.5, 10, { kind: 'shift', value: -1 })).toBe(0);
    expect(adjustMark(6, 10, { kind: 'scale', value: 1.1 })).toBe(6.6);
    expect(adjustMark(6, 10, { kind: 'scale', value: 2 })).toBe(10);
  });

  it('should give count, mean and SD of a marker’s shares, worked by hand', () => {
    // 0.2, 0.4, 0.6: mean 0.4, variance (0.04 + 0 + 0.04) / 3 = 0.02667, SD 0.1633
    expect(distributionOf([0.2, 0.4, 0.6])).toEqual({ count: 3, mean: 0.4, sd: 0.1633 });
    expect(distributionOf([])).toEqual({ count: 0, mean: 0, sd: 0 });
  });
});

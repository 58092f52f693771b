import { readFileSync } from 'node:fs';
import path from 'node:path';
import arial from '@capsizecss/metrics/arial';
import publicSans from '@capsizecss/metrics/publicSans';
import { describe, expect, it } from 'vitest';
import { withMetricFallback } from '#src/fonts/font-stack.ts';

const css = readFileSync(path.resolve(import.meta.dirname, '../../../src/fonts/public-sans-fallback.css'), 'utf8');
const declared = (property: string) => Number(new RegExp(`${property}:\\s*([\\d.]+)%`).exec(css)?.[1]);

describe('the shaped fallback of Public Sans (issue 22)', () => {
  it('should scale Arial to the average width of Public Sans and give it its vertical metrics', () => {
    const sizeAdjust = publicSans.xWidthAvg / publicSans.unitsPerEm / (arial.xWidthAvg / arial.unitsPerEm);
    const percent = (x: number) => Number((x * 100).toFixed(2));
    expect(declared('size-adjust')).toBe(percent(sizeAdjust));
    expect(declared('ascent-override')).toBe(percent(publicSans.ascent / (publicSans.unitsPerEm * sizeAdjust)));
    expect(declared('descent-override')).toBe(percent(Math.abs(publicSans.descent) / (publicSans.unitsPerEm * sizeAdjust)));
    expect(declared('line-gap-override')).toBe(percent(publicSans.lineGap / (publicSans.unitsPerEm * sizeAdjust)));
    expect(css).toMatch(/src: local\('Arial'\)/);
  });

  it('should put the fallback right after Public Sans in a font list, and leave other lists alone', () => {
    expect(withMetricFallback(`'Public Sans', sans-serif`)).toBe(`'Public Sans', 'Public Sans Fallback', sans-serif`);
    expect(withMetricFallback(`"Public Sans", system-ui`)).toBe(`"Public Sans", 'Public Sans Fallback', system-ui`);
    expect(withMetricFallback(`'Public Sans', 'Public Sans Fallback', sans-serif`)).toBe(`'Public Sans', 'Public Sans Fallback', sans-serif`);
    expect(withMetricFallback(`Georgia, serif`)).toBe(`Georgia, serif`);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import arial from '@capsizecss/metrics/arial';
import publicSans from '@capsizecss/metrics/publicSans';
import { describe, expect, it } from 'vitest';
import { appFontStack, withMetricFallback, withScriptFaces } from '#src/fonts/font-stack.ts';

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

describe('the script faces in a font list (issue 23)', () => {
  it('should put the shipped Devanagari and Gujarati faces before the first generic family', () => {
    expect(withScriptFaces(`'Public Sans', 'Public Sans Fallback', sans-serif`)).toBe(
      `'Public Sans', 'Public Sans Fallback', 'Noto Sans Devanagari', 'Noto Sans Gujarati', sans-serif`,
    );
    // The system UI font keeps Latin text: the faces come after it, before the per-script generic.
    expect(withScriptFaces(`system-ui, -apple-system, 'Segoe UI', sans-serif`)).toBe(
      `system-ui, -apple-system, 'Segoe UI', 'Noto Sans Devanagari', 'Noto Sans Gujarati', sans-serif`,
    );
    expect(withScriptFaces(`Georgia, 'Noto Serif', serif`)).toBe(`Georgia, 'Noto Serif', 'Noto Sans Devanagari', 'Noto Sans Gujarati', serif`);
  });

  it('should append the faces to a list without a generic family, and leave a list that names them alone', () => {
    expect(withScriptFaces(`Inter`)).toBe(`Inter, 'Noto Sans Devanagari', 'Noto Sans Gujarati'`);
    expect(withScriptFaces(`Inter, "Noto Sans Devanagari", 'Noto Sans Gujarati', sans-serif`)).toBe(
      `Inter, "Noto Sans Devanagari", 'Noto Sans Gujarati', sans-serif`,
    );
  });

  it('should build the body stack from a configured font: fallback, then the faces, then the generic family', () => {
    expect(appFontStack(`'Public Sans', sans-serif`)).toBe(`'Public Sans', 'Public Sans Fallback', 'Noto Sans Devanagari', 'Noto Sans Gujarati', sans-serif`);
  });

  it('should declare the body token with the faces before sans-serif', () => {
    const config = readFileSync(path.resolve(import.meta.dirname, '../../../panda.config.ts'), 'utf8');
    const body = /body: \{ value: "([^"]+)" \}/.exec(config)?.[1] ?? '';
    expect(body.indexOf("'Noto Sans Devanagari'")).toBeGreaterThan(-1);
    expect(body.indexOf("'Noto Sans Devanagari'")).toBeLessThan(body.indexOf('sans-serif)'));
    expect(body.endsWith('sans-serif)')).toBe(true);
  });
});

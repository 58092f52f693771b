import { describe, expect, it } from 'vitest';
import { colourDistance, contrastRatio, oklchToHex, relativeLuminance, parseHex } from '#src/app/settings/color.ts';
import { neutrals, presetDefinitions, presetPalette, scaleSteps, statusPalette, textBackgrounds } from '#src/app/settings/presets.ts';
import { presetColors, type ThemeMode } from '#src/lib/config.ts';

const modes: ThemeMode[] = ['light', 'dark'];
const statuses = ['error', 'success', 'warning', 'info'] as const;
// WCAG 2 AA: 4.5:1 for text, 3:1 for borders of controls (1.4.11).
const AA_TEXT = 4.5;
const AA_NON_TEXT = 3;

describe('colour arithmetic', () => {
  it('should convert OKLCH white, black and a mid grey to the expected sRGB hex', () => {
    expect(oklchToHex(1, 0, 0)).toBe('#ffffff');
    expect(oklchToHex(0, 0, 0)).toBe('#000000');
    expect(oklchToHex(0.5, 0, 0)).toBe('#636363');
  });

  it('should keep an out-of-gamut colour inside sRGB by dropping chroma only', () => {
    const hex = oklchToHex(0.5, 0.5, 145);
    expect(hex).toMatch(/^#[0-9a-f]{6}$/);
    expect(parseHex(hex)[1]).toBeGreaterThan(parseHex(hex)[0]);
  });

  it('should compute the WCAG contrast ratio of known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(relativeLuminance([255, 255, 255])).toBe(1);
  });

  it('should reject a colour that is not #rrggbb', () => {
    expect(() => parseHex('red')).toThrow('Not a #rrggbb colour: red');
  });
});

describe('theme presets', () => {
  it('should define default and theme1 … theme8, each with its own name key', () => {
    expect(Object.keys(presetDefinitions)).toEqual(['default', 'theme1', 'theme2', 'theme3', 'theme4', 'theme5', 'theme6', 'theme7', 'theme8']);
    expect(presetColors.map((p) => presetDefinitions[p].nameKey)).toEqual(presetColors.map((p) => `preset.${p}`));
  });

  it.each(modes)('should give every preset an 11-step scale from quiet to strong in %s mode', (mode) => {
    for (const preset of presetColors) {
      const { scale } = presetPalette(preset, mode);
      expect(Object.keys(scale)).toEqual([...scaleSteps]);
      const canvas = relativeLuminance(parseHex(neutrals[mode].bg.canvas));
      // Contrast with the canvas grows step by step: 50 is a quiet tint, 950 the strongest.
      const contrasts = scaleSteps.map((step) => {
        const l = relativeLuminance(parseHex(scale[step]));
        return (Math.max(l, canvas) + 0.05) / (Math.min(l, canvas) + 0.05);
      });
      for (let i = 1; i < contrasts.length; i += 1) expect(contrasts[i], `${preset} ${mode} step ${scaleSteps[i]}`).toBeGreaterThan(contrasts[i - 1]);
    }
  });

  it.each(modes)('should keep every preset and status colour AA-readable in %s mode', (mode) => {
    const failures: string[] = [];
    const check = (name: string, fg: string, bg: string, min: number) => {
      const ratio = contrastRatio(fg, bg);
      if (ratio < min) failures.push(`${name}: ${fg} on ${bg} = ${ratio.toFixed(2)} < ${min}`);
    };
    const palettes = [
      ...presetColors.map((p) => [`primary(${p})`, presetPalette(p, mode)] as const),
      ...statuses.map((s) => [s, statusPalette(s, mode)] as const),
    ];
    for (const [name, p] of palettes) {
      for (const [bgName, bg] of Object.entries(textBackgrounds(mode))) check(`${name}.main on bg.${bgName}`, p.main, bg, AA_TEXT);
      for (const fill of ['main', 'dark', 'darker'] as const) check(`${name}.contrast on ${fill}`, p.contrast, p[fill], AA_TEXT);
      for (const tint of ['lighter', 'light'] as const) {
        check(`${name}.dark on ${tint}`, p.dark, p[tint], AA_TEXT);
        check(`${name}.main on ${tint}`, p.main, p[tint], AA_TEXT);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(modes)('should keep neutral text AA-readable and control borders at 3:1 in %s mode', (mode) => {
    const { fg, border } = neutrals[mode];
    const failures: string[] = [];
    for (const [bgName, bg] of Object.entries(textBackgrounds(mode))) {
      for (const name of ['default', 'muted', 'subtle'] as const) {
        if (contrastRatio(fg[name], bg) < AA_TEXT) failures.push(`fg.${name} on bg.${bgName}`);
      }
      if (contrastRatio(border.strong, bg) < AA_NON_TEXT) failures.push(`border.strong on bg.${bgName}`);
    }
    expect(contrastRatio(fg.inverted, neutrals[mode].bg.inverted)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(failures).toEqual([]);
  });

  it.each(modes)('should make every preset visibly distinct from every other in %s mode', (mode) => {
    const close: string[] = [];
    for (const a of presetColors) {
      for (const b of presetColors) {
        if (a >= b) continue;
        const distance = colourDistance(presetPalette(a, mode).main, presetPalette(b, mode).main);
        // 0.02 is a just-noticeable difference in OKLab; 0.05 is plainly another colour.
        if (distance < 0.05) close.push(`${a}/${b}: ${distance.toFixed(3)}`);
      }
    }
    expect(close).toEqual([]);
  });

  it('should give each mode its own colours (dark mode is not light mode)', () => {
    for (const preset of presetColors) {
      expect(presetPalette(preset, 'dark').main).not.toBe(presetPalette(preset, 'light').main);
      expect(presetPalette(preset, 'light').contrast).toBe('#ffffff');
      expect(relativeLuminance(parseHex(presetPalette(preset, 'dark').contrast))).toBeLessThan(0.03);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { neutrals, presetPalette, statusPalette } from '#src/app/settings/presets.ts';
import { presetConditions, semanticColors } from '#src/app/settings/theme-tokens.ts';

type Value = { base: string; _dark: string } & Record<string, { base: string; _dark: string } | string>;
const tokenValue = (group: string, name: string) => (semanticColors as unknown as Record<string, Record<string, { value: Value }>>)[group][name].value;

describe('theme tokens', () => {
  it('should define one Panda condition per non-default preset, matching data-preset', () => {
    expect(presetConditions).toEqual({
      presetTheme1: '[data-preset=theme1] &',
      presetTheme2: '[data-preset=theme2] &',
      presetTheme3: '[data-preset=theme3] &',
      presetTheme4: '[data-preset=theme4] &',
      presetTheme5: '[data-preset=theme5] &',
      presetTheme6: '[data-preset=theme6] &',
      presetTheme7: '[data-preset=theme7] &',
      presetTheme8: '[data-preset=theme8] &',
    });
  });

  it('should resolve primary.main per preset and per mode to the palette', () => {
    const main = tokenValue('primary', 'main');
    expect(main.base).toBe(presetPalette('default', 'light').main);
    expect(main._dark).toBe(presetPalette('default', 'dark').main);
    expect(main._presetTheme4).toEqual({ base: presetPalette('theme4', 'light').main, _dark: presetPalette('theme4', 'dark').main });
    expect(main._presetTheme8).toEqual({ base: presetPalette('theme8', 'light').main, _dark: presetPalette('theme8', 'dark').main });
  });

  it('should name the complete set of roles and the scale for primary and every status', () => {
    const names = ['50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950', 'lighter', 'light', 'main', 'dark', 'darker', 'contrast'];
    for (const intent of ['primary', 'error', 'success', 'warning', 'info']) {
      expect(Object.keys((semanticColors as unknown as Record<string, object>)[intent]).sort()).toEqual([...names].sort());
    }
    expect(tokenValue('error', 'contrast')).toEqual({ base: statusPalette('error', 'light').contrast, _dark: statusPalette('error', 'dark').contrast });
  });

  it('should expose bg, fg and border tokens with light and dark values', () => {
    expect(Object.keys(semanticColors.bg)).toEqual(['canvas', 'surface', 'muted', 'subtle', 'hover', 'active', 'inverted', 'overlay']);
    expect(Object.keys(semanticColors.fg)).toEqual(['default', 'muted', 'subtle', 'disabled', 'inverted']);
    expect(Object.keys(semanticColors.border)).toEqual(['DEFAULT', 'strong']);
    expect(tokenValue('bg', 'canvas')).toEqual({ base: neutrals.light.bg.canvas, _dark: neutrals.dark.bg.canvas });
    expect(tokenValue('border', 'DEFAULT')).toEqual({ base: neutrals.light.border.default, _dark: neutrals.dark.border.default });
    expect(semanticColors.focusRing.value.base).toBe(presetPalette('default', 'light').main);
  });
});

import type { PresetColor, ThemeMode } from '#src/lib/config.ts';
import { oklchToHex } from './color.ts';

/**
 * The colour presets of spec §9 (`default`, `theme1` … `theme8`) and the status colours,
 * generated from a hue and a chroma on one OKLCH lightness ladder, so every preset has the
 * same visual weight and the same contrast guarantees (docs/decisions/0020). The scale is
 * mode-aware: low steps are quiet backgrounds and high steps strong foregrounds in light
 * and in dark mode alike, so `primary.100` is a tinted background in both.
 */

export const scaleSteps = ['50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950'] as const;
export type ScaleStep = (typeof scaleSteps)[number];

/** OKLCH lightness per step in light mode; dark mode walks the same ladder backwards. */
const ladder = [0.975, 0.94, 0.885, 0.81, 0.72, 0.62, 0.5, 0.43, 0.37, 0.31, 0.25] as const;
/** Share of the hue's chroma per step: quiet at the ends, full in the middle. */
const chromaShape = [0.1, 0.2, 0.38, 0.62, 0.86, 1, 0.96, 0.86, 0.74, 0.6, 0.46] as const;

export interface HueDefinition {
  hue: number;
  chroma: number;
}

export interface PresetDefinition extends HueDefinition {
  /** Key of the preset's name in the settings namespace. */
  nameKey: `preset.${PresetColor}`;
}

export const presetDefinitions: Record<PresetColor, PresetDefinition> = {
  default: { hue: 255, chroma: 0.19, nameKey: 'preset.default' }, // blue
  theme1: { hue: 281, chroma: 0.2, nameKey: 'preset.theme1' }, // indigo
  theme2: { hue: 312, chroma: 0.2, nameKey: 'preset.theme2' }, // purple
  theme3: { hue: 184, chroma: 0.12, nameKey: 'preset.theme3' }, // teal
  theme4: { hue: 145, chroma: 0.17, nameKey: 'preset.theme4' }, // green
  theme5: { hue: 45, chroma: 0.18, nameKey: 'preset.theme5' }, // orange
  theme6: { hue: 8, chroma: 0.2, nameKey: 'preset.theme6' }, // rose
  theme7: { hue: 222, chroma: 0.14, nameKey: 'preset.theme7' }, // cyan
  theme8: { hue: 258, chroma: 0.045, nameKey: 'preset.theme8' }, // slate
};

/** Status colours, the same in every preset. */
export const statusDefinitions = {
  error: { hue: 25, chroma: 0.2 },
  success: { hue: 148, chroma: 0.16 },
  warning: { hue: 68, chroma: 0.16 },
  info: { hue: 232, chroma: 0.13 },
} satisfies Record<string, HueDefinition>;
export type StatusIntent = keyof typeof statusDefinitions;
export const intents = ['primary', 'error', 'success', 'warning', 'info'] as const;
export type Intent = (typeof intents)[number];

export type Scale = Record<ScaleStep, string>;

/**
 * One intent's colours in one mode. Roles (what components use):
 * - `lighter`: tinted background (selected row, alert); `light`: its hover
 * - `main`: solid fill, and text or icons on bg.canvas / bg.surface / bg.muted (≥ 4.5:1)
 * - `dark`: hover fill of `main`, and text on `lighter` / `light` (≥ 4.5:1)
 * - `darker`: pressed fill, strongest text
 * - `contrast`: text and icons on `main`, `dark` and `darker` (≥ 4.5:1)
 */
export interface IntentPalette {
  scale: Scale;
  lighter: string;
  light: string;
  main: string;
  dark: string;
  darker: string;
  contrast: string;
}

export function buildScale({ hue, chroma }: HueDefinition, mode: ThemeMode): Scale {
  const order = mode === 'light' ? ladder.map((_, i) => i) : ladder.map((_, i) => ladder.length - 1 - i);
  return Object.fromEntries(scaleSteps.map((step, i) => [step, oklchToHex(ladder[order[i]], chroma * chromaShape[order[i]], hue)])) as Scale;
}

export function buildIntent(definition: HueDefinition, mode: ThemeMode): IntentPalette {
  const scale = buildScale(definition, mode);
  return {
    scale,
    lighter: scale['50'],
    light: scale['100'],
    main: scale['600'],
    dark: scale['700'],
    darker: scale['800'],
    // White on the light-mode fills; a near-black of the same hue on the bright dark-mode fills.
    contrast: mode === 'light' ? '#ffffff' : oklchToHex(0.17, Math.min(definition.chroma, 0.04), definition.hue),
  };
}

/** Neutral colours: surfaces, text and borders, per mode (shared by every preset). */
export const neutrals = {
  light: {
    bg: {
      canvas: '#f4f5f7',
      surface: '#ffffff',
      muted: '#f9fafb',
      subtle: '#eceef1',
      hover: 'rgba(15, 23, 42, 0.05)',
      active: 'rgba(15, 23, 42, 0.09)',
      inverted: '#23272f',
      overlay: 'rgba(15, 23, 42, 0.45)',
    },
    fg: {
      default: '#1f2329',
      muted: '#555b66',
      subtle: '#646a75',
      disabled: '#9aa0aa',
      inverted: '#f6f7f9',
    },
    border: { default: '#e3e7ec', strong: '#7b828d' },
  },
  dark: {
    bg: {
      canvas: '#121316',
      surface: '#1c1e22',
      muted: '#24272c',
      subtle: '#2c3036',
      hover: 'rgba(255, 255, 255, 0.06)',
      active: 'rgba(255, 255, 255, 0.1)',
      inverted: '#eef0f3',
      overlay: 'rgba(0, 0, 0, 0.6)',
    },
    fg: {
      default: '#eef0f3',
      muted: '#b8bdc6',
      subtle: '#a2a8b2',
      disabled: '#6b717b',
      inverted: '#1f2329',
    },
    border: { default: '#363a41', strong: '#878e99' },
  },
} as const satisfies Record<ThemeMode, unknown>;

/** Backgrounds that text is placed on, per mode (contrast checks walk these). */
export const textBackgrounds = (mode: ThemeMode) => {
  const { bg } = neutrals[mode];
  return { canvas: bg.canvas, surface: bg.surface, muted: bg.muted, subtle: bg.subtle };
};

export const presetPalette = (preset: PresetColor, mode: ThemeMode) => buildIntent(presetDefinitions[preset], mode);
export const statusPalette = (intent: StatusIntent, mode: ThemeMode) => buildIntent(statusDefinitions[intent], mode);

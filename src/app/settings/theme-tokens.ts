import { presetColors, type PresetColor, type ThemeMode } from '#src/lib/config.ts';
import { intents, neutrals, presetPalette, scaleSteps, statusPalette, type Intent, type IntentPalette } from './presets.ts';

/**
 * Turns the presets into Panda semantic tokens (used by panda.config.ts). Every colour
 * token is a CSS variable whose value follows `data-mode` and `data-preset` on the nearest
 * element that carries them (normally <html>, see applyLayoutToDocument; a preview swatch
 * can carry its own). See docs/decisions/0020 for the names and the guarantees.
 */

const presetCondition = (preset: Exclude<PresetColor, 'default'>) => `preset${preset[0].toUpperCase()}${preset.slice(1)}`;

/** Panda conditions: one per non-default preset (`_presetTheme1` …). */
export const presetConditions = Object.fromEntries(
  presetColors.filter((p) => p !== 'default').map((p) => [presetCondition(p as Exclude<PresetColor, 'default'>), `[data-preset=${p}] &`]),
) as Record<string, string>;

type ModeValue = { base: string; _dark: string };
type TokenValue = { value: ModeValue & Record<string, ModeValue | string> };

const byMode = (pick: (mode: ThemeMode) => string): ModeValue => ({ base: pick('light'), _dark: pick('dark') });

/** A token that differs per preset and per mode. */
function perPreset(pick: (palette: IntentPalette) => string): TokenValue {
  const value: TokenValue['value'] = byMode((mode) => pick(presetPalette('default', mode)));
  for (const preset of presetColors) {
    if (preset === 'default') continue;
    value[`_${presetCondition(preset)}`] = byMode((mode) => pick(presetPalette(preset, mode)));
  }
  return { value };
}

const roles = ['lighter', 'light', 'main', 'dark', 'darker', 'contrast'] as const;

function intentTokens(intent: Intent) {
  const pickers = {
    ...Object.fromEntries(scaleSteps.map((step) => [step, (p: IntentPalette) => p.scale[step]])),
    ...Object.fromEntries(roles.map((role) => [role, (p: IntentPalette) => p[role]])),
  } as Record<string, (p: IntentPalette) => string>;
  if (intent === 'primary') return Object.fromEntries(Object.entries(pickers).map(([name, pick]) => [name, perPreset(pick)]));
  return Object.fromEntries(Object.entries(pickers).map(([name, pick]) => [name, { value: byMode((mode) => pick(statusPalette(intent, mode))) }]));
}

const neutralTokens = <G extends 'bg' | 'fg' | 'border'>(group: G) =>
  Object.fromEntries(
    Object.keys(neutrals.light[group]).map((name) => [
      // `border` itself is the default border colour (Panda's DEFAULT key); `fg.default` keeps its name.
      group === 'border' && name === 'default' ? 'DEFAULT' : name,
      { value: byMode((mode) => (neutrals[mode][group] as Record<string, string>)[name]) },
    ]),
  );

/** `colors` of the semantic tokens: bg.*, fg.*, border(.strong), primary.*, error.*, success.*, warning.*, info.*, focusRing. */
export const semanticColors = {
  bg: neutralTokens('bg'),
  fg: neutralTokens('fg'),
  border: neutralTokens('border'),
  focusRing: perPreset((p) => p.main),
  ...Object.fromEntries(intents.map((intent) => [intent, intentTokens(intent)])),
};

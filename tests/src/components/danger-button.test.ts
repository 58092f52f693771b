import { describe, expect, it } from 'vitest';
import { colourDistance, contrastRatio } from '#src/app/settings/color.ts';
import { neutrals, presetPalette, statusPalette } from '#src/app/settings/presets.ts';
import { buttonRecipe } from '#src/components/ui/button.tsx';
import { presetColors, type ThemeMode } from '#src/lib/config.ts';

/** The colour a recipe token names, for one preset and mode. */
function resolve(token: string, preset: (typeof presetColors)[number], mode: ThemeMode): string {
  const [group, role] = token.split('.') as [string, string];
  if (group === 'primary') return presetPalette(preset, mode)[role as 'main'];
  if (group === 'error') return statusPalette('error', mode)[role as 'main'];
  if (group === 'bg') return neutrals[mode].bg[role as 'surface'];
  throw new Error(`unknown token ${token}`);
}

describe('danger and primary buttons (issue 23: alike under Rose)', () => {
  const solid = buttonRecipe.raw({ variant: 'solid' }) as { background: string; color: string };
  const danger = buttonRecipe.raw({ variant: 'danger' }) as { background: string; color: string; borderColor: string };

  it.each(presetColors.flatMap((preset) => (['light', 'dark'] as const).map((mode) => [preset, mode] as const)))(
    'should look clearly different under %s in %s mode, with readable danger text',
    (preset, mode) => {
      const primaryFill = resolve(solid.background, preset, mode);
      const dangerFill = resolve(danger.background, preset, mode);
      // OKLab distance; ≈ 0.02 is just noticeable. Before the fix Rose's fills were 0.05 apart.
      expect(colourDistance(primaryFill, dangerFill)).toBeGreaterThan(0.3);
      expect(contrastRatio(resolve(danger.color, preset, mode), dangerFill)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(resolve(danger.borderColor, preset, mode), dangerFill)).toBeGreaterThanOrEqual(3);
    },
  );
});

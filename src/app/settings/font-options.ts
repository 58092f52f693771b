import { appConfig } from '#src/lib/config.ts';

/** One choice of the font setting. `labelKey` (settings namespace) or, for named fonts, the family's own name. */
export interface FontOption {
  value: string;
  labelKey?: 'font.system' | 'font.serif';
  isDefault: boolean;
}

export const publicSans = `'Public Sans', sans-serif`;
export const systemFonts = `system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Liberation Sans', sans-serif`;
export const serifFonts = `Georgia, 'Noto Serif', 'DejaVu Serif', 'Liberation Serif', serif`;

/** The first family of a font-family list, without quotes: the name people know a font by. */
export function familyName(fontFamily: string): string {
  return (fontFamily.split(',')[0] ?? '').trim().replace(/^['"]|['"]$/g, '');
}

const same = (a: string, b: string) => a.replace(/\s+/g, '').toLowerCase() === b.replace(/\s+/g, '').toLowerCase();

/**
 * The configured font (runtime configuration, the default), Public Sans (ships with the app),
 * the platform's UI font and a serif; plus the current value when it is none of these
 * (e.g. a font set by an earlier configuration), so the choice on screen is always the real one.
 */
export function fontOptions(current: string, configured: string = appConfig.fontFamily): FontOption[] {
  const options: FontOption[] = [{ value: configured, isDefault: true }];
  const add = (option: FontOption) => {
    if (!options.some((o) => same(o.value, option.value))) options.push(option);
  };
  add({ value: publicSans, isDefault: false });
  add({ value: systemFonts, labelKey: 'font.system', isDefault: false });
  add({ value: serifFonts, labelKey: 'font.serif', isDefault: false });
  add({ value: current, isDefault: false });
  return options;
}

export const isSameFont = same;

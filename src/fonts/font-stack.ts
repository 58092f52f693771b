/** The family name of the metric-matched fallback of Public Sans (src/fonts/public-sans-fallback.css). */
export const PUBLIC_SANS_FALLBACK = "'Public Sans Fallback'";

/**
 * A font-family list with the shaped fallback right after Public Sans, so the browser lays
 * text out in it until the web font has loaded (and no later family, such as the generic
 * `sans-serif`, gets there first). Other lists are returned as they are.
 */
export function withMetricFallback(fontFamily: string): string {
  if (fontFamily.includes('Public Sans Fallback')) return fontFamily;
  return fontFamily.replace(/(['"])Public Sans\1/, (match) => `${match}, ${PUBLIC_SANS_FALLBACK}`);
}

/** The shipped Devanagari (hi) and Gujarati (gu) faces (src/i18n/script-fonts.ts loads them). */
export const SCRIPT_FACES = ["'Noto Sans Devanagari'", "'Noto Sans Gujarati'"] as const;

/**
 * The CSS generic families that fall back per script to whatever the machine has: each of them
 * can answer Devanagari from an installed font. `system-ui` and its kin name one UI font (no
 * Devanagari or Gujarati in it) and stay before the faces: the faces also carry Latin glyphs,
 * which must not replace the system UI font.
 */
const GENERIC_FAMILIES = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'math', 'emoji', 'fangsong']);

const unquoted = (family: string) =>
  family
    .trim()
    .replace(/^['"]|['"]$/g, '')
    .toLowerCase();

/**
 * A font-family list with the shipped script faces before the first generic family (issue 23).
 * A generic family such as `sans-serif` can answer Devanagari or Gujarati from the machine's own
 * fonts (Debian's fonts-noto-core), so a script face listed after it would never be used and the
 * same page would render differently from machine to machine. Named families before the generic
 * one keep their place: Latin text still uses the configured font. Lists that already name the
 * faces are returned as they are.
 */
export function withScriptFaces(fontFamily: string): string {
  const families = fontFamily
    .split(',')
    .map((family) => family.trim())
    .filter(Boolean);
  const named = new Set(families.map(unquoted));
  const missing = SCRIPT_FACES.filter((face) => !named.has(unquoted(face)));
  if (missing.length === 0) return families.join(', ');
  const generic = families.findIndex((family) => GENERIC_FAMILIES.has(unquoted(family)));
  const at = generic === -1 ? families.length : generic;
  return [...families.slice(0, at), ...missing, ...families.slice(at)].join(', ');
}

/** The body font list for a configured font: the metric-matched fallback, then the script faces. */
export function appFontStack(fontFamily: string): string {
  return withScriptFaces(withMetricFallback(fontFamily));
}

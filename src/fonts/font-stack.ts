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

/**
 * Colour arithmetic for the theme presets: OKLCH (a perceptual space, so one lightness ladder
 * gives every hue the same visual weight) to sRGB hex, and the WCAG 2 contrast ratio that
 * the presets are checked against. Runs at build time (panda.config.ts) and in tests.
 */

export type Rgb = readonly [number, number, number];

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/** OKLCH → linear sRGB (may fall outside 0…1 when the colour is out of gamut). */
function oklchToLinearRgb(lightness: number, chroma: number, hueDegrees: number): Rgb {
  const hue = (hueDegrees * Math.PI) / 180;
  const a = chroma * Math.cos(hue);
  const b = chroma * Math.sin(hue);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

const inGamut = (rgb: Rgb) => rgb.every((channel) => channel >= -1e-6 && channel <= 1 + 1e-6);

const encode = (linear: number) => {
  const c = clamp01(linear);
  return c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
};

const decode = (channel: number) => (channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4);

/**
 * The sRGB hex of an OKLCH colour. Out-of-gamut colours keep their lightness and hue and
 * lose chroma until they fit (binary search), which keeps the lightness ladder intact.
 */
export function oklchToHex(lightness: number, chroma: number, hueDegrees: number): string {
  let rgb = oklchToLinearRgb(lightness, chroma, hueDegrees);
  if (!inGamut(rgb)) {
    let low = 0;
    let high = chroma;
    for (let i = 0; i < 24; i += 1) {
      const mid = (low + high) / 2;
      if (inGamut(oklchToLinearRgb(lightness, mid, hueDegrees))) low = mid;
      else high = mid;
    }
    rgb = oklchToLinearRgb(lightness, low, hueDegrees);
  }
  return `#${rgb
    .map((channel) =>
      Math.round(encode(channel) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** '#rrggbb' → [r, g, b] in 0…255. */
export function parseHex(hex: string): Rgb {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`Not a #rrggbb colour: ${hex}`);
  return [parseInt(match[1], 16), parseInt(match[2], 16), parseInt(match[3], 16)];
}

/** WCAG 2 relative luminance of an sRGB colour (0…255 channels). */
export function relativeLuminance([r, g, b]: Rgb): number {
  return 0.2126 * decode(r / 255) + 0.7152 * decode(g / 255) + 0.0722 * decode(b / 255);
}

/** WCAG 2 contrast ratio between two '#rrggbb' colours (1…21). */
export function contrastRatio(foreground: string, background: string): number {
  const a = relativeLuminance(parseHex(foreground));
  const b = relativeLuminance(parseHex(background));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** Straight-line distance in OKLab between two '#rrggbb' colours (≈ 0.02 is just noticeable). */
export function colourDistance(first: string, second: string): number {
  const lab = (hex: string) => {
    const [r, g, b] = parseHex(hex).map((c) => decode(c / 255));
    const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
    const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
    const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
    return [
      0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
      1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
      0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
    ];
  };
  const [a, b] = [lab(first), lab(second)];
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

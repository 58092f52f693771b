import { defineConfig } from '@pandacss/dev';
import { presetConditions, semanticColors } from './src/app/settings/theme-tokens.ts';

/**
 * Design tokens and breakpoints (spec §9). The breakpoints replace Panda's defaults so
 * `{ base, xsm, sm, md, lg, xl, xxl }` in a style object mean the spec's widths.
 */
export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  outdir: 'styled-system',
  // .d.mts beside .mjs so TypeScript finds the types through package.json "imports".
  forceConsistentTypeExtension: true,
  jsxFramework: 'react',
  strictTokens: false,
  conditions: {
    extend: {
      dark: '[data-mode=dark] &',
      light: '[data-mode=light] &',
      rtl: '[dir=rtl] &',
      ltr: '[dir=ltr] &',
      ...presetConditions,
    },
  },
  theme: {
    breakpoints: {
      xs: '0px',
      xsm: '500px',
      sm: '768px',
      md: '1024px',
      lg: '1266px',
      xl: '1440px',
      xxl: '1921px',
    },
    extend: {
      // The indeterminate progress bar's sweep (src/components/ui/progress.tsx).
      keyframes: {
        progressSlide: { '0%': { transform: 'translateX(-100%)' }, '100%': { transform: 'translateX(250%)' } },
      },
      tokens: {
        sizes: {
          drawer: { value: '260px' },
          miniDrawer: { value: '60px' },
          toolbar: { value: '60px' },
        },
        fonts: {
          // The configured family first; Devanagari and Gujarati text falls through to the shipped Noto faces,
          // listed before any generic family (issue 23: a generic `sans-serif` would let the machine's own
          // Noto fonts answer first). --app-font-family is built by appFontStack (src/fonts/font-stack.ts).
          // 'Public Sans Fallback' is Arial shaped like Public Sans (src/fonts/public-sans-fallback.css): no shift on swap.
          body: { value: "var(--app-font-family, 'Public Sans', 'Public Sans Fallback', 'Noto Sans Devanagari', 'Noto Sans Gujarati', sans-serif)" },
        },
        durations: {
          enter: { value: '225ms' },
          exit: { value: '195ms' },
        },
        // One stacking scale for the whole app (issue 13): without these tokens Panda writes
        // `z-index: sticky` literally and the browser drops it. Higher layers open above lower
        // ones: a menu inside a dialog, a tooltip over a menu, a toast over everything but the
        // skip link, which must be reachable from the first Tab.
        zIndex: {
          hide: { value: -1 },
          base: { value: 0 },
          raised: { value: 1 },
          sticky: { value: 1100 },
          banner: { value: 1200 },
          drawer: { value: 1300 },
          overlay: { value: 1400 },
          modal: { value: 1410 },
          dropdown: { value: 1500 },
          popover: { value: 1600 },
          tooltip: { value: 1700 },
          toast: { value: 1800 },
          skipLink: { value: 1900 },
        },
      },
      semanticTokens: {
        colors: semanticColors,
      },
    },
  },
  globalCss: {
    'html, body': {
      fontFamily: 'body',
      color: 'fg.default',
      bg: 'bg.canvas',
      lineHeight: '1.5',
    },
    // Right-to-left mirrors the layout and right-aligns text, while each block of text keeps the
    // direction of its own script (docs/decisions/0023): 'Welcome.' keeps its full stop at the end.
    '[dir=rtl] :where(p, h1, h2, h3, h4, h5, h6, li, dt, dd, legend, label, caption, figcaption, blockquote, td, th, div, span, a, button, small, strong, em, output, summary)':
      {
        unicodeBidi: 'plaintext',
        // start/end against the layout's direction (the parent's), not the text's own; centred stays centred.
        // Chromium and WebKit know only the prefixed keyword.
        textAlign: '-webkit-match-parent',
        '@supports (text-align: match-parent)': { textAlign: 'match-parent' },
      },
    ':focus-visible': {
      outline: '2px solid',
      outlineColor: 'focusRing',
      outlineOffset: '2px',
    },
  },
});

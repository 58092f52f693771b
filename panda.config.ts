import { defineConfig } from '@pandacss/dev';

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
      tokens: {
        sizes: {
          drawer: { value: '260px' },
          miniDrawer: { value: '60px' },
          toolbar: { value: '60px' },
        },
        fonts: {
          body: { value: "var(--app-font-family, 'Public Sans', sans-serif)" },
        },
        durations: {
          enter: { value: '225ms' },
          exit: { value: '195ms' },
        },
      },
      semanticTokens: {
        colors: {
          bg: {
            canvas: { value: { base: '#f5f5f5', _dark: '#121212' } },
            surface: { value: { base: '#ffffff', _dark: '#1e1e1e' } },
            muted: { value: { base: '#fafafa', _dark: '#262626' } },
            hover: { value: { base: 'rgba(0,0,0,0.04)', _dark: 'rgba(255,255,255,0.06)' } },
          },
          fg: {
            default: { value: { base: '#262626', _dark: '#f0f0f0' } },
            muted: { value: { base: '#595959', _dark: '#bfbfbf' } },
          },
          border: { value: { base: '#e6ebf1', _dark: '#3a3a3a' } },
          primary: {
            main: { value: { base: '#1565c0', _dark: '#64b5f6' } },
            lighter: { value: { base: '#e3f2fd', _dark: '#0d2a47' } },
            dark: { value: { base: '#0d47a1', _dark: '#90caf9' } },
            contrast: { value: { base: '#ffffff', _dark: '#0a1929' } },
          },
          error: {
            main: { value: { base: '#c62828', _dark: '#ef9a9a' } },
            lighter: { value: { base: '#fdecea', _dark: '#3b1414' } },
            contrast: { value: { base: '#ffffff', _dark: '#1a0000' } },
          },
          success: {
            main: { value: { base: '#2e7d32', _dark: '#81c784' } },
            lighter: { value: { base: '#edf7ed', _dark: '#13301a' } },
          },
          warning: {
            main: { value: { base: '#8a5300', _dark: '#ffb74d' } },
            lighter: { value: { base: '#fff4e5', _dark: '#3a2500' } },
          },
        },
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
    ':focus-visible': {
      outline: '2px solid',
      outlineColor: 'primary.main',
      outlineOffset: '2px',
    },
  },
});

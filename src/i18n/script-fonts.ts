/**
 * Devanagari (hi) and Gujarati (gu) faces. Debian's Chromium and many desktops have no font
 * for these scripts, so they ship with the app (no external font host). Each @font-face
 * carries a unicode-range: the browser downloads a file only when the page shows text in
 * that script (docs/decisions/0022). The body font stack lists these families before the
 * first generic family (`withScriptFaces`, panda.config.ts `fonts.body`), so a machine's own
 * Noto fonts never answer first.
 */
import '@fontsource/noto-sans-devanagari/400.css';
import '@fontsource/noto-sans-devanagari/600.css';
import '@fontsource/noto-sans-devanagari/700.css';
import '@fontsource/noto-sans-gujarati/400.css';
import '@fontsource/noto-sans-gujarati/600.css';
import '@fontsource/noto-sans-gujarati/700.css';

import '@fontsource/public-sans/latin-400.css';
import '@fontsource/public-sans/latin-600.css';
import '@fontsource/public-sans/latin-700.css';
import './fonts/public-sans-fallback.css';
import './index.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { attachAppStylesheets } from './app/app-stylesheets.ts';
import { Root } from './app/root.tsx';
import { startVersionCheck } from './app/start-version-check.ts';
import { startLayoutConfigSync } from './app/stores/layout-config-store.ts';
import { rehydrateClientState } from './app/stores/persisted-state.ts';
import { startLanguageSync } from './i18n/language.ts';

async function start() {
  // The built page only preloads its style sheet, so the boot splash paints without waiting for
  // it (docs/decisions/0295); it is attached now and the first render waits for it.
  const styled = attachAppStylesheets();
  // The router (./app/root.tsx) started its first navigation when this module was imported: the
  // main application chunk and the current route's code load while the saved state is restored (issue 22).
  startLayoutConfigSync();
  // Spec §4: the app renders once the saved state is restored (or after 5000 ms); the
  // restored localization slice then decides the language.
  await rehydrateClientState();
  await startLanguageSync();
  await styled;
  // A transition, so React renders the first screen in slices of a few milliseconds and the
  // browser stays responsive: rendered in one piece, the shell and a data page held the main
  // thread for about 180 ms (700 ms on Lighthouse's slowed phone), most of the page's blocking
  // time (issue 22, docs/decisions/0289). The boot splash stays until the render commits.
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <Root />
      </StrictMode>,
    ),
  );
  startVersionCheck();
}

void start();

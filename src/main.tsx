import '@fontsource/public-sans/latin-400.css';
import '@fontsource/public-sans/latin-600.css';
import '@fontsource/public-sans/latin-700.css';
import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './app/root.tsx';
import { startVersionCheck } from './app/start-version-check.ts';
import { startLayoutConfigSync } from './app/stores/layout-config-store.ts';
import { localizationStore } from './app/stores/localization-store.ts';
import { rehydrateClientState } from './app/stores/persisted-state.ts';
import { initI18n } from './i18n/i18n.ts';
import { appConfig } from './lib/config.ts';

async function start() {
  startLayoutConfigSync();
  // Spec §4: the app renders once the saved state is restored (or after 5000 ms).
  await rehydrateClientState();
  await initI18n(localizationStore.getSnapshot().context.i18n ?? appConfig.i18n);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
  startVersionCheck();
}

void start();

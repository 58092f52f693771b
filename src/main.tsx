import '@fontsource/public-sans/latin-400.css';
import '@fontsource/public-sans/latin-600.css';
import '@fontsource/public-sans/latin-700.css';
import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './app/root.tsx';
import { startLayoutConfigSync } from './app/stores/layout-config-store.ts';
import { initI18n } from './i18n/i18n.ts';

async function start() {
  startLayoutConfigSync();
  await initI18n();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
}

void start();

import '@fontsource/public-sans/latin-400.css';
import '@fontsource/public-sans/latin-600.css';
import '@fontsource/public-sans/latin-700.css';
import './index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './app/root.tsx';
import { startLayoutConfigSync } from './app/stores/layout-config-store.ts';
import { startLanguageSync } from './i18n/language.ts';

async function start() {
  startLayoutConfigSync();
  await startLanguageSync();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root />
    </StrictMode>,
  );
}

void start();

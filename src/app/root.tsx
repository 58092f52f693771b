import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { i18n } from '#src/i18n/i18n.ts';
import { lazyChunk } from '#src/lib/lazy-chunk.ts';
import { AppErrorBoundary } from './error-boundary.tsx';
import { NotificationsHost } from './notifications/notifications-host.tsx';

/** Spec §8: the main application chunk failing raises 'Chunk loading failed.' */
export const MAIN_CHUNK_ERROR = 'Chunk loading failed.';
const App = lazyChunk(() => import('./app.tsx'), MAIN_CHUNK_ERROR);

/** Spec §2: one main application, loaded lazily and rendered inside the router (docs/decisions/0080). */
export function Root() {
  return (
    <I18nextProvider i18n={i18n}>
      <NotificationsHost />
      <BrowserRouter>
        <AppErrorBoundary>
          <Suspense fallback={null}>
            <App />
          </Suspense>
        </AppErrorBoundary>
      </BrowserRouter>
    </I18nextProvider>
  );
}

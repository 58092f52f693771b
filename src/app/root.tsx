import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '#src/i18n/i18n.ts';
import { lazyChunk } from '#src/lib/lazy-chunk.ts';
import { AppErrorBoundary } from './error-boundary.tsx';
import { NotificationsHost } from './notifications/notifications-host.tsx';

/** Spec §8: the main application chunk failing raises 'Chunk loading failed.' */
export const MAIN_CHUNK_ERROR = 'Chunk loading failed.';
const App = lazyChunk(() => import('./app.tsx'), MAIN_CHUNK_ERROR);

export function Root() {
  return (
    <I18nextProvider i18n={i18n}>
      <NotificationsHost />
        <AppErrorBoundary>
          <Suspense fallback={null}>
            <App />
          </Suspense>
        </AppErrorBoundary>
    </I18nextProvider>
  );
}

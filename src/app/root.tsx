import { lazy, Suspense, useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider, useRouteError } from 'react-router';
import { i18n } from '#src/i18n/i18n.ts';
import { loadChunk } from '#src/lib/lazy-chunk.ts';
import { ContentRendered, whenContentRendered } from './content-rendered.tsx';
import { ErrorScreen } from './error-screen.tsx';

/** Spec §8: the main application chunk failing raises 'Chunk loading failed.' */
export const MAIN_CHUNK_ERROR = 'Chunk loading failed.';

/** The main application: its own chunk, with the route table (docs/decisions/0180). */
const loadApp = () => loadChunk(() => import('./app.tsx'), MAIN_CHUNK_ERROR);

/** Any error below the router — a failed chunk, a page that threw while rendering — shows the error screen (spec §2, §8). */
function RouteErrorScreen() {
  const error = useRouteError();
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  console.error('Rendering error', name, message);
  return (
    <ContentRendered>
      <ErrorScreen />
    </ContentRendered>
  );
}

const NotificationsHost = lazy(async () => ({ default: (await import('./notifications/notifications-host.tsx')).NotificationsHost }));

/**
 * The banner, toasts and snackbar (their host) join once the first content is on screen: what
 * was raised before waits in the notifications stores and shows then (docs/decisions/0180).
 */
function DeferredNotificationsHost() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    let current = true;
    void whenContentRendered().then(() => current && setShow(true));
    return () => {
      current = false;
    };
  }, []);
  return show ? (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  ) : null;
}

/**
 * The data router (docs/decisions/0180). Spec §2: one main application, loaded lazily and
 * rendered inside the router — the root route's component is the main chunk's `App`, and the
 * route table joins the router from there, the part an address needs when it first needs it
 * (`patchRoutesOnNavigation`). Every page is a lazy route module of that table, loaded by the
 * router before the page renders.
 */
const router = createBrowserRouter(
  [
    {
      id: 'app',
      lazy: async () => ({ Component: (await loadApp()).App }),
      ErrorBoundary: RouteErrorScreen,
      // Nothing before the first route is ready: the boot splash from index.html covers it.
      HydrateFallback: () => null,
    },
  ],
  { patchRoutesOnNavigation: async ({ path, patch }) => (await loadApp()).patchRoutes(path, patch) },
);

export function Root() {
  return (
    <I18nextProvider i18n={i18n}>
      <DeferredNotificationsHost />
      <RouterProvider router={router} />
    </I18nextProvider>
  );
}

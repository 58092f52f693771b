import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider, useRouteError } from 'react-router-dom';
import { i18n } from '#src/i18n/i18n.ts';
import { loadChunk } from '#src/lib/lazy-chunk.ts';
import { ErrorScreen } from './error-screen.tsx';
import { NotificationsHost } from './notifications/notifications-host.tsx';

/** Spec §8: the main application chunk failing raises 'Chunk loading failed.' */
export const MAIN_CHUNK_ERROR = 'Chunk loading failed.';

/** The main application: its own chunk, with the route table (docs/decisions/0180). */
const loadApp = () => loadChunk(() => import('./app.tsx'), MAIN_CHUNK_ERROR);

/** Any error below the router — a failed chunk, a page that threw while rendering — shows the error screen (spec §2, §8). */
function RouteErrorScreen() {
  const error = useRouteError();
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  console.error('Rendering error', name, message);
  return <ErrorScreen />;
}

let routesPatched = false;

/**
 * The data router (docs/decisions/0180). Spec §2: one main application, loaded lazily and
 * rendered inside the router — the root route's component is the main chunk's `App`, and the
 * route table, which lives in that chunk, joins the router on the first navigation
 * (`patchRoutesOnNavigation`). Every page is a lazy route module of that table; the router
 * loads the layout's and the page's code together before the page renders.
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
  {
    async patchRoutesOnNavigation({ patch }) {
      if (routesPatched) return;
      const { routes } = await loadApp();
      if (!routesPatched) patch('app', routes);
      routesPatched = true;
    },
  },
);

export function Root() {
  return (
    <I18nextProvider i18n={i18n}>
      <NotificationsHost />
      <RouterProvider router={router} />
    </I18nextProvider>
  );
}

import { Suspense } from 'react';
import { matchRoutes, Outlet, type RouteObject } from 'react-router-dom';
import { loadChunk } from '#src/lib/lazy-chunk.ts';
import { loadAuthSession } from './auth/auth-session-loader.ts';
import { afterFirstContent } from './content-rendered.tsx';
import { authRoutes } from './routing/auth-routes.tsx';
import { loadPageModules } from './routing/lazy-route.ts';
import { DocumentTitle } from './routing/document-title.tsx';
import { PageLoader } from './page-loader.tsx';
import { ScrollToTop } from './scroll-to-top.tsx';

let dashboardRoutes: Promise<RouteObject> | undefined;
const patched = { auth: false, dashboard: false };

/**
 * Gives the router the part of the route table that `path` needs (its `patchRoutesOnNavigation`,
 * docs/decisions/0180): the sign-in screens come with this chunk; the dashboard layout and its
 * pages (../routing/routes.tsx, one chunk with the shell) the first time an address is not a
 * sign-in screen. Each part joins the router once.
 */
export async function patchRoutes(path: string, patch: (routeId: string, children: RouteObject[]) => void): Promise<void> {
  if (!patched.auth) {
    patch('app', authRoutes);
    patched.auth = true;
  }
  if (patched.dashboard || matchRoutes(authRoutes, path)) return;
  // Any page but the dashboard itself loads through the page table: fetch it alongside.
  if (path !== '/') void loadPageModules().catch(() => undefined);
  const dashboard = await (dashboardRoutes ??= loadChunk(() => import('./routing/routes.tsx')).then((module) => module.dashboardRoute));
  if (patched.dashboard) return;
  patch('app', [dashboard]);
  patched.dashboard = true;
}

// The auth actor's code follows the first screen on every route (docs/decisions/0006): it keeps
// the tabs in step and refreshes tokens.
afterFirstContent(() => void loadAuthSession());
// Real-time pushes (issue 8): their code loads after the first content; the socket opens once someone is signed in.
afterFirstContent(
  () =>
    void import('./realtime/realtime-boot.ts')
      .then(({ bootRealtime }) => bootRealtime())
      .catch((error: unknown) => console.warn('The realtime connection could not start', error)),
);

/** The main application (spec §2): the root route's component, loaded lazily inside the router; the route table's pages render in its outlet. */
export function App() {
  return (
    <>
      <ScrollToTop />
      <DocumentTitle />
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </>
  );
}

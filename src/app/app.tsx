import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { loadAuthSession } from './auth/auth-session-loader.ts';
import { afterFirstContent } from './content-rendered.tsx';
import { DocumentTitle } from './routing/document-title.tsx';
import { PageLoader } from './page-loader.tsx';
import { ScrollToTop } from './scroll-to-top.tsx';

export { routes } from './routing/routes.tsx';

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

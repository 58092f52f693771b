import { Suspense } from 'react';
import { useRoutes } from 'react-router-dom';
import { loadAuthSession } from './auth/auth-session-loader.ts';
import { afterFirstContent } from './content-rendered.tsx';
import { DocumentTitle } from './routing/document-title.tsx';
import { PageLoader } from './page-loader.tsx';
import { preloadRoute, routes } from './routing/routes.tsx';
import { ScrollToTop } from './scroll-to-top.tsx';

// The layout and page of the address the app opens on load together, as soon as this chunk runs.
preloadRoute(window.location.pathname);

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

/** The main application: the lazily loaded chunk rendered inside the router (spec §2); it renders the route table's page. */
export default function App() {
  const page = useRoutes(routes);
  return (
    <>
      <ScrollToTop />
      <DocumentTitle />
      <Suspense fallback={<PageLoader />}>{page}</Suspense>
    </>
  );
}

import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { isValidElement, Suspense, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Route, Routes } from 'react-router-dom';
import { i18n } from '#src/i18n/i18n.ts';
import { testRouter } from './test-router.tsx';

/** Route patterns and what each renders; anything else renders "elsewhere". */
export type ScreenRoutes = Record<string, ReactNode>;

function isRouteTable(content: ReactNode | ScreenRoutes): content is ScreenRoutes {
  return typeof content === 'object' && content !== null && !isValidElement(content) && !Array.isArray(content) && !(Symbol.iterator in content);
}

/**
 * Renders a screen as the app would: translations, an in-memory router at `path` that records
 * each URL it visits, and a Suspense boundary for lazy parts. `content` is either the screen
 * itself, or a table of route patterns (so `useParams` and links between screens work; an
 * unmatched URL renders the text "elsewhere", which a test can wait for after a redirect).
 */
export function renderAt(path: string, content: ReactNode | ScreenRoutes) {
  const location = testRouter(path);
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <location.Router>
        <Suspense fallback={null}>
          {isRouteTable(content) ? (
            <Routes>
              {Object.entries(content).map(([pattern, node]) => (
                <Route key={pattern} path={pattern} element={node} />
              ))}
              <Route path="*" element={<p>elsewhere</p>} />
            </Routes>
          ) : (
            content
          )}
        </Suspense>
      </location.Router>
    </I18nextProvider>,
  );
  return { user, location };
}

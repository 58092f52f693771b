import { act } from '@testing-library/react';
import { type ReactNode, useLayoutEffect } from 'react';
import { MemoryRouter, useLocation, useNavigate, type NavigateFunction } from 'react-router-dom';

/**
 * An in-memory router for screen tests: starts at `path`, records every URL it visits
 * (pathname and search) and can be driven from the test, as a person would with the
 * address bar and the back and forward buttons.
 */
export function testRouter(path: string) {
  const history: string[] = [path];
  let navigate: NavigateFunction | null = null;

  function Recorder() {
    const location = useLocation();
    navigate = useNavigate();
    const url = `${location.pathname}${location.search}`;
    // A layout effect, not a passive one: it runs inside the commit, so a test that has just
    // found the new screen in the DOM also sees its URL (a passive effect can lag behind on a
    // busy machine, and did in CI).
    useLayoutEffect(() => {
      if (history.at(-1) !== url) history.push(url);
    }, [url]);
    return null;
  }

  return {
    history,
    /** The URL the router is at now. */
    current: () => history.at(-1)!,
    /** Goes to a URL (a string) or back and forward (-1, 1), as the browser would. */
    go: (to: string | number) =>
      act(() => {
        if (!navigate) throw new Error('the router has not rendered yet');
        void (typeof to === 'number' ? navigate(to) : navigate(to));
      }),
    Router: ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={[path]}>
        <Recorder />
        {children}
      </MemoryRouter>
    ),
  };
}

import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { afterFirstContent } from '../content-rendered.tsx';
import { loadAuthSession, rememberRedirect } from './auth-session-loader.ts';
import { authUserStore, hasSession } from './auth-user-store.ts';

// The actor's code follows the first screen on every route (docs/decisions/0006): it keeps the
// tabs in step and refreshes tokens.
afterFirstContent(() => void loadAuthSession());

/**
 * Protected routes: without a session, go to /login and remember where the user wanted to go
 * (honoured after sign-in). A session that ends while here (logout, here or in another tab)
 * also leads to /login, without remembering: logout sets the redirect URL to null (spec §4).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const signedIn = useStoreValue(authUserStore, (s) => hasSession(s.context));
  const [location] = useLocation();
  const search = useSearch();
  const wasSignedIn = useRef(signedIn);
  const target = `${location}${search ? `?${search}` : ''}`;

  useEffect(() => {
    if (signedIn) wasSignedIn.current = true;
    else if (!wasSignedIn.current) rememberRedirect(target);
  }, [signedIn, target]);

  if (!signedIn) return <Redirect to="/login" replace />;
  return children;
}

const protectedCache = new WeakMap<object, ComponentType<never>>();

/** A route component that needs a session (docs/decisions/0062); the same wrapper per component, so routes keep their state. */
export function protectedRoute<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  let wrapped = protectedCache.get(Component) as ComponentType<P> | undefined;
  if (!wrapped) {
    wrapped = function Protected(props: P) {
      return (
        <RequireSession>
          <Component {...props} />
        </RequireSession>
      );
    };
    protectedCache.set(Component, wrapped as ComponentType<never>);
  }
  return wrapped;
}

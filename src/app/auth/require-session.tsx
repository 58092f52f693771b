import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { rememberRedirect } from './auth-session-loader.ts';
import { authUserStore, hasSession } from './auth-user-store.ts';

/**
 * Protected routes: without a session, go to /login and remember where the user wanted to go
 * (honoured after sign-in). A session that ends while here (logout, here or in another tab)
 * also leads to /login, without remembering: logout sets the redirect URL to null (spec §4).
 * Which routes need it is said by the route table (`handle.session`, `handle.permission`).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const signedIn = useStoreValue(authUserStore, (s) => hasSession(s.context));
  const { pathname, search } = useLocation();
  const wasSignedIn = useRef(signedIn);
  const target = `${pathname}${search}`;

  useEffect(() => {
    if (signedIn) wasSignedIn.current = true;
    else if (!wasSignedIn.current) rememberRedirect(target);
  }, [signedIn, target]);

  if (!signedIn) return <Navigate to="/login" replace />;
  return children;
}

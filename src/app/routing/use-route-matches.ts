import { useMemo } from 'react';
import { matchRoutes, useLocation } from 'react-router-dom';
import type { MatchLike } from './route-handle.ts';
import { routes } from './routes.tsx';

/** The route table's matches for the current location, outermost first, each with its route's `handle`. */
export function useRouteMatches(): MatchLike[] {
  const { pathname } = useLocation();
  return useMemo(() => (matchRoutes(routes, pathname) ?? []).map((match) => ({ pathname: match.pathname, handle: match.route.handle as unknown })), [pathname]);
}

import { useMatches } from 'react-router-dom';
import type { MatchLike } from './route-handle.ts';

/** The data router's matches for the current location, outermost first, each with its route's `handle` (docs/decisions/0180). */
export function useRouteMatches(): MatchLike[] {
  return useMatches();
}

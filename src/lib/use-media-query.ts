import { useSyncExternalStore } from 'react';

/** Spec §9 breakpoints, in pixels. */
export const breakpoints = { xs: 0, xsm: 500, sm: 768, md: 1024, lg: 1266, xl: 1440, xxl: 1921 } as const;

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** True from the lg breakpoint up: the drawer is persistent there, temporary below. */
export const useIsLargeScreen = () => useMediaQuery(`(min-width: ${breakpoints.lg}px)`);

/** True below the sm breakpoint (phones, 390 px): tables become cards, filters fold away (issue 23). */
export const useIsPhone = () => useMediaQuery(`(max-width: ${breakpoints.sm - 0.02}px)`);

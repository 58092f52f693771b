import { useEffect } from 'react';
import { useLocation } from 'wouter';

/** Spec §2: on every route change the window scrolls smoothly to the top. */
export function ScrollToTop() {
  const [pathname] = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [pathname]);
  return null;
}

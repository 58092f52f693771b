import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** Spec §2: on every route change the window scrolls smoothly to the top (a list's search params changing is not a route change). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [pathname]);
  return null;
}

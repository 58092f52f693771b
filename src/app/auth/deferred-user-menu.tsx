import { lazy, Suspense, useEffect, useState } from 'react';
import { whenContentRendered } from '../content-rendered.tsx';

const UserMenu = lazy(() => import('./user-menu.tsx').then((module) => ({ default: module.UserMenu })));

/** The header's user menu, loaded once the page's content is on screen (docs/decisions/0006). */
export function DeferredUserMenu() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    let current = true;
    void whenContentRendered().then(() => current && setShow(true));
    return () => {
      current = false;
    };
  }, []);
  return show ? (
    <Suspense fallback={null}>
      <UserMenu />
    </Suspense>
  ) : null;
}

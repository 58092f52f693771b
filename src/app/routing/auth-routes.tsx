import type { RouteObject } from 'react-router-dom';
import { page } from './lazy-route.ts';
import type { RouteHandle } from './route-handle.ts';

type Handle = RouteHandle;

/**
 * The sign-in screens of the route table (./routes.tsx): the part the router gets first, with
 * the main application chunk, so `/login` does not carry the dashboard's routes (docs/decisions/0180).
 */
export const authRoutes: RouteObject[] = [
  {
    path: 'login',
    lazy: page(() => import('#src/features/auth/sign-in-page.tsx')),
    handle: { title: { key: 'signIn.title', ns: 'auth' } } satisfies Handle,
  },
  {
    path: 'forgot-password',
    lazy: page(() => import('#src/features/auth/forgot-password-page.tsx')),
    handle: { title: { key: 'forgot.title', ns: 'auth' } } satisfies Handle,
  },
  {
    path: 'reset-password',
    lazy: page(() => import('#src/features/auth/reset-password-page.tsx')),
    handle: { title: { key: 'reset.title', ns: 'auth' } } satisfies Handle,
  },
  {
    path: 'first-login',
    lazy: page(() => import('#src/features/auth/first-login-page.tsx')),
    handle: { title: { key: 'firstLogin.title', ns: 'auth' } } satisfies Handle,
  },
  {
    path: 'confirm-email',
    lazy: page(() => import('#src/features/auth/confirm-email-page.tsx')),
    handle: { title: { key: 'confirm.title', ns: 'auth' } } satisfies Handle,
  },
  {
    path: 'register',
    lazy: page(() => import('#src/features/auth/register-page.tsx')),
    handle: { title: { key: 'register.title', ns: 'auth' } } satisfies Handle,
  },
];

import { createMemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';

/**
 * The data router gets the route table in two parts (docs/decisions/0180): the sign-in screens
 * with the main chunk, the dashboard's part the first time an address needs it — each once.
 */
describe('patchRoutes', () => {
  it('should give the router the sign-in screens for /login and the dashboard once for any other address', async () => {
    const { patchRoutes } = await import('#src/app/app.tsx');
    const patches: string[][] = [];
    const router = createMemoryRouter([{ id: 'app', path: '/', children: [] }], {
      initialEntries: ['/login'],
      patchRoutesOnNavigation: ({ path, patch }) =>
        patchRoutes(path, (id, children) => {
          patches.push(children.map((route) => route.path ?? route.id ?? '?'));
          patch(id, children);
        }),
    });
    await router.initialize();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
    expect(router.state.matches.map((m) => m.route.path ?? m.route.id)).toEqual(['/', 'login']);
    expect(patches).toEqual([['login', 'forgot-password', 'reset-password', 'first-login', 'confirm-email', 'register']]);

    await router.navigate('/roles');
    expect(router.state.matches.map((m) => m.route.path ?? m.route.id)).toEqual(['/', 'dashboard-layout', 'roles']);
    await router.navigate('/users/u-7/login-history');
    await router.navigate('/no/such/page');
    expect(router.state.matches.at(-1)!.route.path).toBe('*');
    expect(patches.slice(1)).toEqual([['dashboard-layout']]);
    router.dispose();
  }, 60_000);
});

import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { routes } from '#src/app/routing/routes.tsx';
import { ChunkLoadError } from '#src/lib/lazy-chunk.ts';

/** Every route of the table with its own code, by path ("/users/bulk-upload", "/tickets/:ticketId"). */
function lazyRoutes(table: RouteObject[], base = ''): Array<{ path: string; lazy: () => Promise<Record<string, unknown>> }> {
  return table.flatMap((route) => {
    const path = route.index ? base || '/' : `${base.replace(/\/$/, '')}/${route.path ?? ''}`.replace(/\/$/, '') || '/';
    const own = typeof route.lazy === 'function' ? [{ path: route.path || route.index ? path : `(layout ${route.id})`, lazy: route.lazy as () => Promise<Record<string, unknown>> }] : [];
    return [...own, ...lazyRoutes(route.children ?? [], route.path ? path : base)];
  });
}

describe('the route table’s lazy route modules (docs/decisions/0180)', () => {
  it('should give every page and the dashboard layout a lazy module and no eagerly bundled component', () => {
    const all = lazyRoutes(routes);
    expect(all.length).toBeGreaterThan(30);
    expect(all.map((r) => r.path)).toEqual(expect.arrayContaining(['/login', '(layout dashboard-layout)', '/', '/users', '/support/tickets/:ticketId', '/machines/:machineId?']));
    const eager: string[] = [];
    const walk = (table: RouteObject[]) =>
      table.forEach((route) => {
        if (route.Component || route.element) eager.push(String(route.path ?? route.id));
        walk(route.children ?? []);
      });
    walk(routes);
    expect(eager).toEqual([]);
  });

  it('should resolve a page’s module to its component', async () => {
    const signIn = lazyRoutes(routes).find((r) => r.path === '/login')!;
    const module = await signIn.lazy();
    expect(Object.keys(module)).toEqual(['Component']);
    expect(typeof module.Component).toBe('function');
    const layout = lazyRoutes(routes).find((r) => r.path === '(layout dashboard-layout)')!;
    const { DashboardLayout } = await import('#src/app/shell/dashboard-layout.tsx');
    expect((await layout.lazy()).Component).toBe(DashboardLayout);
  }, 30_000);

  it('should fail with a ChunkLoadError when the chunk cannot be fetched', async () => {
    const { loadChunk } = await import('#src/lib/lazy-chunk.ts');
    await expect(loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')))).rejects.toBeInstanceOf(ChunkLoadError);
  });
});

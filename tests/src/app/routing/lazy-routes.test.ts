import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { authRoutes } from '#src/app/routing/auth-routes.tsx';
import { pageModuleKey, pageModules, pageNamespaces } from '#src/app/routing/page-modules.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { dashboardRoute, routes } from '#src/app/routing/routes.tsx';
import { DashboardLayout } from '#src/app/shell/dashboard-layout.tsx';
import { ChunkLoadError, loadChunk } from '#src/lib/lazy-chunk.ts';

type Lazy = (() => Promise<Record<string, unknown>>) & { file?: string; exportName?: string };

/** Every route of the table with its own code, by full path ("/users/bulk-upload", "/tickets/:ticketId"). */
function lazyRoutes(table: RouteObject[], base = ''): Array<{ path: string; lazy: Lazy }> {
  return table.flatMap((route) => {
    const path = route.index ? base || '/' : `${base.replace(/\/$/, '')}/${route.path ?? ''}`.replace(/\/$/, '') || '/';
    const own = typeof route.lazy === 'function' ? [{ path, lazy: route.lazy as Lazy }] : [];
    return [...own, ...lazyRoutes(route.children ?? [], route.path ? path : base)];
  });
}

describe('the route table’s lazy route modules (docs/decisions/0180)', () => {
  it('should give every page a lazy module, and render only the dashboard layout from the table’s own chunk', () => {
    const all = lazyRoutes(routes);
    expect(all.length).toBeGreaterThan(30);
    expect(all.map((r) => r.path)).toEqual(expect.arrayContaining(['/login', '/', '/users', '/support/tickets/:ticketId', '/machines/:machineId?', '/*']));
    const eager: string[] = [];
    const walk = (table: RouteObject[]) =>
      table.forEach((route) => {
        if (route.Component || route.element) eager.push(String(route.id ?? route.path));
        walk(route.children ?? []);
      });
    walk(routes);
    expect(eager).toEqual(['dashboard-layout']);
    expect(dashboardRoute.Component).toBe(DashboardLayout);
    expect(routes).toEqual([...authRoutes, dashboardRoute]);
  });

  it('should name, for every page loaded through the page table, a file of the glob that exports the component', () => {
    const throughTable = lazyRoutes([dashboardRoute]).filter((r) => r.lazy.file);
    expect(throughTable.length).toBeGreaterThan(25);
    for (const { path: route, lazy } of throughTable) {
      expect(Object.keys(pageModules), route).toContain(pageModuleKey(lazy.file!));
      const source = readFileSync(path.join(import.meta.dirname, '../../../../src/features', lazy.file!), 'utf8');
      const exported = lazy.exportName === 'default' ? /export default function/ : new RegExp(`export (function|const) ${lazy.exportName}\\b`);
      expect(source, `${route}: ${lazy.file} ${lazy.exportName}`).toMatch(exported);
    }
    // The first screen of `/` and the not-found page load directly, without the table.
    const direct = lazyRoutes([dashboardRoute]).filter((r) => !r.lazy.file);
    expect(direct.map((r) => r.path)).toEqual(['/', '/*']);
  });

  it('should resolve a page’s module to its component, directly or through the page table', async () => {
    const signIn = lazyRoutes(routes).find((r) => r.path === '/login')!;
    const module = await signIn.lazy();
    expect(Object.keys(module)).toEqual(['Component']);
    expect(typeof module.Component).toBe('function');
    const roles = lazyRoutes(routes).find((r) => r.path === '/roles')!;
    const { default: RolesPage } = await import('#src/features/users/roles-page.tsx');
    expect((await roles.lazy()).Component).toBe(RolesPage);
  }, 60_000);

  it('should fetch a page’s translations with its code, so the page does not suspend on each namespace in turn (issue 22)', async () => {
    await initI18n('en-IN');
    const usersPage = lazyRoutes(routes).find((r) => r.path === '/users')!;
    expect(usersPage.lazy.file).toBe('users/users-page.tsx');
    expect(pageNamespaces(usersPage.lazy.file!)).toEqual(['users', 'ui', 'errors']);
    for (const namespace of ['users', 'ui', 'errors']) expect(i18n.hasResourceBundle('en-IN', namespace), namespace).toBe(false);
    await usersPage.lazy();
    for (const namespace of ['users', 'ui', 'errors']) expect(i18n.hasResourceBundle('en-IN', namespace), namespace).toBe(true);
  }, 60_000);

  it('should fail with a ChunkLoadError when the chunk cannot be fetched', async () => {
    await expect(loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')))).rejects.toBeInstanceOf(ChunkLoadError);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultRolePermissions, roleNames } from '#machines/permissions.ts';
import { isGranted, type Principal } from '#server/plugins/access.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser } from '#tests/setup/test-users.ts';
import { routeMatrix } from './route-matrix.ts';

const ACCESS_DENIED = 'You are not allowed to do this.';
const concrete = (url: string) => url.replace(/:userId|:id/g, randomUUID()).replace(':ticketId', '987654');
const apiRoutes = (routes: Array<{ method: string; url: string; access: unknown }>) =>
  routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs'));

describeEachDatabase('role × route matrix', (get) => {
  it('should list every registered /api route in the matrix with the access it declares, and nothing else', () => {
    const registered = apiRoutes(get().app.routeAccess).map((r) => [r.method, r.url, r.access]);
    expect(registered).toEqual(expect.arrayContaining(routeMatrix.map((r) => [...r])));
    const known = new Set(routeMatrix.map(([method, url]) => `${method} ${url}`));
    const missing = registered.filter(([method, url]) => !known.has(`${method} ${url}`)).map(([m, u]) => `${m} ${u}`);
    expect(missing).toEqual([]);
    expect(registered).toHaveLength(routeMatrix.length);
  });

  it('should answer 401 without a token on every route that is not public', async () => {
    const { app } = get();
    const statuses = [];
    for (const [method, url, access] of routeMatrix) {
      if (access === 'public') continue;
      const res = await app.inject({ method: method as 'GET', url: concrete(url), payload: method === 'GET' || method === 'DELETE' ? undefined : {} });
      statuses.push(`${method} ${url} ${res.statusCode}`);
    }
    expect(statuses.filter((s) => !s.endsWith(' 401'))).toEqual([]);
  });

  for (const role of roleNames) {
    it(`should let a ${role} through exactly the routes its permissions grant`, async () => {
      const { app } = get();
      const user = await createSignedInUser(app, { roles: [role], userType: null });
      const principal = { permissions: new Set<string>(defaultRolePermissions[role]) } as unknown as Principal;
      const wrong: string[] = [];
      for (const [method, url, access] of routeMatrix) {
        if (access === 'public') continue;
        const res = await app.inject({
          method: method as 'GET',
          url: concrete(url),
          headers: as(user),
          payload: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        const deniedByAccess = res.statusCode === 403 && (res.json() as { messages: string[] }).messages[0] === ACCESS_DENIED;
        const granted = isGranted(access, principal);
        if (res.statusCode === 401 || res.statusCode >= 500 || granted === deniedByAccess) {
          wrong.push(`${method} ${url}: ${res.statusCode} (${granted ? 'should pass' : 'should be refused'})`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

describe('route matrix file', () => {
  it('should not list a route twice', () => {
    const keys = routeMatrix.map(([method, url]) => `${method} ${url}`);
    expect(keys.length).toBe(new Set(keys).size);
  });
});

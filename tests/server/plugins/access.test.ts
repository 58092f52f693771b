import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { P } from '#machines/permissions.ts';
import { accessPlugin, type Principal } from '#server/plugins/access.ts';
import { errorsPlugin } from '#server/plugins/errors.ts';

const principal = (permissions: string[]): Principal => ({
  userId: 'u1',
  tenantId: 'root',
  email: 'a@b.test',
  firstName: 'A',
  lastName: 'B',
  userType: null,
  resellerId: null,
  instituteId: null,
  permissions: new Set(permissions),
  roles: [],
});

describe('access plugin', () => {
  it('should refuse to start when an /api route declares no access', async () => {
    const app = Fastify();
    await app.register(accessPlugin, {});
    expect(() => app.get('/api/forgotten', async () => 'x')).toThrow('Route GET /api/forgotten declares no access (config.access); deny by default.');
  });

  it('should deny every non-public route when no authenticator is configured', async () => {
    const app = Fastify();
    await app.register(errorsPlugin);
    await app.register(accessPlugin, {});
    app.get('/api/open', { config: { access: 'public' } }, async () => 'open');
    app.get('/api/closed', { config: { access: 'authenticated' } }, async () => 'closed');
    expect((await app.inject({ method: 'GET', url: '/api/open' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/closed' })).statusCode).toBe(401);
  });

  it('should grant a permission route only to callers holding that permission', async () => {
    const app = Fastify();
    await app.register(errorsPlugin);
    await app.register(accessPlugin, {
      authenticator: async (request) =>
        principal(
          String(request.headers['x-perms'] ?? '')
            .split(',')
            .filter(Boolean),
        ),
    });
    app.get('/api/users', { config: { access: P.Users.Search } }, async (request) => request.principal?.userId);
    app.get('/api/either', { config: { access: { anyOf: [P.Users.View, P.Roles.View] } } }, async () => 'ok');
    const denied = await app.inject({ method: 'GET', url: '/api/users', headers: { 'x-perms': P.Users.View } });
    expect(denied.statusCode).toBe(403);
    const granted = await app.inject({ method: 'GET', url: '/api/users', headers: { 'x-perms': P.Users.Search } });
    expect(granted.statusCode).toBe(200);
    expect(granted.body).toBe('u1');
    expect((await app.inject({ method: 'GET', url: '/api/either', headers: { 'x-perms': P.Roles.View } })).statusCode).toBe(200);
    expect(app.routeAccess).toContainEqual({ method: 'GET', url: '/api/users', access: P.Users.Search });
  });
});

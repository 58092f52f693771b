import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Permission } from '#machines/permissions.ts';
import { forbidden, unauthorized } from '#server/lib/errors.ts';

/**
 * What a route needs, declared in its `config.access` (SECURITY.md "Access control"):
 * - 'public': anyone (sign-in, forgot password, health…)
 * - 'authenticated': any signed-in user; the handler scopes the data to the caller
 * - a permission string, or `{ anyOf: [...] }`: the caller's roles must grant it
 * A route under /api without a declaration makes start-up fail: deny by default.
 */
export type Access = 'public' | 'authenticated' | Permission | { anyOf: readonly Permission[] };

/** The signed-in caller, built from a verified access token and the current database row. */
export interface Principal {
  userId: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  userType: string | null;
  resellerId: string | null;
  instituteId: string | null;
  permissions: ReadonlySet<string>;
  roles: readonly string[];
}

export type Authenticator = (request: FastifyRequest) => Promise<Principal>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** Every route registered with its declared access, for the role × route matrix test. */
    routeAccess: Array<{ method: string; url: string; access: Access | undefined }>;
  }
}

export function needsCheck(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

export function isGranted(access: Access, principal: Principal): boolean {
  if (access === 'public' || access === 'authenticated') return true;
  if (typeof access === 'string') return principal.permissions.has(access);
  return access.anyOf.some((permission) => principal.permissions.has(permission));
}

/** Request-scoped helper for handlers: the principal, or 401 when the route is public. */
export function requirePrincipal(request: FastifyRequest) {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

const denyEveryone: Authenticator = async () => {
  throw unauthorized();
};

export const accessPlugin = fp(async function access(app: FastifyInstance, options: { authenticator?: Authenticator }) {
  const authenticator = options.authenticator ?? denyEveryone;
  app.decorateRequest('principal', null);
  app.decorate('routeAccess', []);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.routeAccess.push({ method, url: route.url, access: route.config?.access });
    }
    if (needsCheck(route.url) && !route.config?.access) {
      throw new Error(`Route ${methods.join(',')} ${route.url} declares no access (config.access); deny by default.`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access) {
      // Only non-API routes (SPA, docs, mailbox) and the not-found handler get here.
      if (needsCheck(request.routeOptions.url ?? '')) throw forbidden();
      return;
    }
    if (access === 'public') return;
    const principal = await authenticator(request);
    request.principal = principal;
    if (!isGranted(access, principal)) throw forbidden();
  });
});

import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { RoleName } from '#machines/permissions.ts';
import type { Queryable } from '#server/db/client.ts';
import { unauthorized } from '#server/lib/errors.ts';
import type { Authenticator, Principal } from '#server/plugins/access.ts';

export interface TestUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: RoleName[];
}

/** Creates an active, confirmed user with the given roles (and support-group memberships). */
export async function createUser(
  db: Queryable,
  options: { roles: RoleName[]; groups?: number[]; firstName?: string; lastName?: string; email?: string; tenantId?: string },
): Promise<TestUser> {
  const suffix = randomUUID().slice(0, 8);
  const firstName = options.firstName ?? `Test${suffix}`;
  const lastName = options.lastName ?? options.roles.join('');
  const email = options.email ?? `${firstName.toLowerCase()}.${suffix}@example.test`;
  const { rows } = await db.query<{ id: string }>(
    `insert into users (tenant_id, first_name, last_name, email, user_name, email_confirmed)
     values ($1, $2, $3, $4, $5, true) returning id`,
    [options.tenantId ?? 'root', firstName, lastName, email, `${firstName.toLowerCase()}-${suffix}`],
  );
  const id = rows[0].id;
  await db.query(
    `insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = $2 and name = any($3::text[])`,
    [id, options.tenantId ?? 'root', options.roles],
  );
  for (const group of options.groups ?? []) {
    await db.query(`insert into support_group_members (group_id, user_id) values ($1, $2)`, [group, id]);
  }
  return { id, email, firstName, lastName, roles: options.roles };
}

/** Loads the principal of a user from the database the way the authenticator does. */
export async function loadPrincipal(db: Queryable, userId: string): Promise<Principal | undefined> {
  const { rows } = await db.query<{
    id: string;
    tenant_id: string;
    email: string;
    first_name: string;
    last_name: string;
    user_type: string | null;
    reseller_id: string | null;
    institute_id: string | null;
    is_active: boolean;
    roles: string[];
    permissions: string[];
  }>(
    `select u.id, u.tenant_id, u.email, u.first_name, u.last_name, u.user_type, u.reseller_id, u.institute_id, u.is_active,
            coalesce(array(select r.name from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id), '{}') as roles,
            coalesce(array(select distinct rp.permission from user_roles ur join role_permissions rp on rp.role_id = ur.role_id where ur.user_id = u.id), '{}') as permissions
     from users u where u.id = $1`,
    [userId],
  );
  const u = rows[0];
  if (!u || !u.is_active) return undefined;
  return {
    userId: u.id,
    tenantId: u.tenant_id,
    email: u.email,
    firstName: u.first_name,
    lastName: u.last_name,
    userType: u.user_type,
    resellerId: u.reseller_id,
    instituteId: u.institute_id,
    permissions: new Set(u.permissions),
    roles: u.roles,
  };
}

/**
 * Authenticates by the `x-test-user` header (a user id), loading the real principal from the
 * database: roles, permissions and activity are real; only the token step is skipped.
 */
export function headerAuthenticator(db: Queryable): Authenticator {
  return async (request: FastifyRequest) => {
    const userId = request.headers['x-test-user'];
    if (typeof userId !== 'string') throw unauthorized();
    const principal = await loadPrincipal(db, userId);
    if (!principal) throw unauthorized();
    return principal;
  };
}

export const as = (user: { id: string }) => ({ 'x-test-user': user.id });

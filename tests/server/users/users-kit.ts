import type { FastifyInstance } from 'fastify';
import type { Permission } from '#machines/permissions.ts';
import type { Queryable } from '#server/db/client.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';

/** A second tenant with an Admin role holding the given permissions (seed makes only root). */
export async function createTenant(db: Queryable, id: string, adminPermissions: readonly Permission[]): Promise<void> {
  await db.query(`insert into tenants (id, name) values ($1, $1) on conflict do nothing`, [id]);
  for (const [name, permissions] of [
    ['Admin', adminPermissions],
    ['Candidate', []],
  ] as const) {
    const { rows } = await db.query<{ id: string }>(
      `insert into roles (tenant_id, name, description, is_system) values ($1, $2, '', true)
       on conflict (tenant_id, name) do update set is_system = true returning id`,
      [id, name],
    );
    await db.query(`insert into role_permissions (role_id, permission) select $1, unnest($2::text[]) on conflict do nothing`, [rows[0].id, permissions]);
  }
}

/** A custom role of the root tenant with exactly these permissions. */
export async function createRole(db: Queryable, name: string, permissions: readonly Permission[]): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`insert into roles (tenant_id, name, description) values ('root', $1, 'test role') returning id`, [name]);
  await db.query(`insert into role_permissions (role_id, permission) select $1, unnest($2::text[])`, [rows[0].id, permissions]);
  return rows[0].id;
}

export async function roleId(db: Queryable, name: string, tenantId = 'root'): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`select id from roles where tenant_id = $1 and name = $2`, [tenantId, name]);
  return rows[0].id;
}

export async function grantRole(db: Queryable, userId: string, roleIdValue: string) {
  await db.query(`insert into user_roles (user_id, role_id) values ($1, $2)`, [userId, roleIdValue]);
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A JSON call as a signed-in user. */
export function callAs(app: FastifyInstance, user: TestUser, method: Method, url: string, payload?: unknown) {
  return app.inject({ method, url, headers: as(user), payload: payload as never });
}

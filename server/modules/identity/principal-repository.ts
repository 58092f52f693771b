import type { Queryable } from '#server/db/client.ts';
import type { Principal } from '#server/plugins/access.ts';

type PrincipalRow = Omit<Principal, 'roles' | 'permissions'> & { roles: string[]; permissions: string[]; sessionExpiresAt: Date };

/** The statement's name: PostgreSQL plans it once per connection instead of on every request. */
const PRINCIPAL_STATEMENT = 'principal.load';
const principalSql = `select u.id as "userId", u.tenant_id as "tenantId", u.email, u.first_name as "firstName", u.last_name as "lastName",
            u.user_type as "userType", u.reseller_id as "resellerId", u.institute_id as "instituteId",
            coalesce(array_agg(distinct r.name) filter (where r.name is not null), '{}'::text[]) as roles,
            coalesce(array_agg(distinct rp.permission) filter (where rp.permission is not null), '{}'::text[]) as permissions,
            f.expires_at as "sessionExpiresAt"
     from users u
     join tenants t on t.id = u.tenant_id and t.is_active
     join refresh_token_families f on f.id = $4 and f.user_id = u.id and f.revoked_at is null and f.expires_at > $5
     left join user_roles ur on ur.user_id = u.id
     left join roles r on r.id = ur.role_id and r.tenant_id = u.tenant_id
     left join role_permissions rp on rp.role_id = r.id
     where u.id = $1 and u.tenant_id = $2 and u.is_active and u.token_version = $3
     group by u.id, f.expires_at`;

/**
 * The caller of one request, in ONE query: the user must be active in an active tenant,
 * still at the token's version, and the token's session (refresh family) still open.
 * Roles and permissions come from the tenant's roles only. `sessionExpiresAt` says until when
 * the answer can hold without a write (the principal cache keeps it no longer).
 */
export async function loadPrincipalWithExpiry(
  db: Queryable,
  claims: { userId: string; tenantId: string; tokenVersion: number; sessionId: string },
  now: Date,
): Promise<{ principal: Principal; sessionExpiresAt: Date } | undefined> {
  const { rows } = await db.query<PrincipalRow>(principalSql, [claims.userId, claims.tenantId, claims.tokenVersion, claims.sessionId, now], {
    name: PRINCIPAL_STATEMENT,
  });
  const row = rows[0];
  if (!row) return undefined;
  const { sessionExpiresAt, roles, permissions, ...rest } = row;
  return { principal: { ...rest, roles: [...roles].sort(), permissions: new Set(permissions) }, sessionExpiresAt: new Date(sessionExpiresAt) };
}

export async function loadPrincipal(
  db: Queryable,
  claims: { userId: string; tenantId: string; tokenVersion: number; sessionId: string },
  now: Date,
): Promise<Principal | undefined> {
  return (await loadPrincipalWithExpiry(db, claims, now))?.principal;
}

import type { Queryable } from '#server/db/client.ts';
import type { Principal } from '#server/plugins/access.ts';

/**
 * Issue 23, authorization rule 1: a caller may edit, deactivate, confirm, reset, sign out or
 * invite another user only when every permission that user holds is one the caller holds too
 * (the rule role assignment already follows). Otherwise a role with Users.Update could change
 * an Admin's e-mail, confirm it, reset the password and sign in as Admin.
 *
 * Scope (tenant, institute, reseller) is checked by the caller's query; this adds the
 * permission comparison, in one statement for any number of users.
 */
export async function usersBeyondReach(db: Queryable, principal: Principal, userIds: readonly string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const { rows } = await db.query<{ userId: string }>(
    `select distinct ur.user_id as "userId"
     from user_roles ur
     join role_permissions rp on rp.role_id = ur.role_id
     where ur.user_id = any($1::uuid[]) and not (rp.permission = any($2::text[]))`,
    [userIds, [...principal.permissions]],
  );
  return new Set(rows.map((r) => r.userId));
}

export async function isWithinReach(db: Queryable, principal: Principal, userId: string): Promise<boolean> {
  if (userId === principal.userId) return true;
  return !(await usersBeyondReach(db, principal, [userId])).has(userId);
}

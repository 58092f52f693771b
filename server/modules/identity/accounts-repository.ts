import type { Queryable } from '#server/db/client.ts';
import type { LoginType } from './password-verifiers.ts';

/** A user row as sign-in and the account flows need it, with its lockout counters. */
export interface Account {
  id: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  userName: string;
  passwordHash: string | null;
  loginType: LoginType;
  isActive: boolean;
  emailConfirmed: boolean;
  isFirstTimeLogin: boolean;
  preferredLanguage: string | null;
  userType: string | null;
  resellerId: string | null;
  instituteId: string | null;
  tokenVersion: number;
  consecutiveFailures: number;
  lockedUntil: Date | null;
}

const accountColumns = `
  u.id, u.tenant_id as "tenantId", u.email, u.first_name as "firstName", u.last_name as "lastName",
  u.user_name as "userName", u.password_hash as "passwordHash", u.login_type as "loginType",
  u.is_active as "isActive", u.email_confirmed as "emailConfirmed", u.is_first_time_login as "isFirstTimeLogin",
  u.preferred_language as "preferredLanguage", u.user_type as "userType", u.reseller_id as "resellerId",
  u.institute_id as "instituteId", u.token_version as "tokenVersion",
  coalesce(f.consecutive_failures, 0) as "consecutiveFailures", f.locked_until as "lockedUntil"`;

const accountFrom = `
  from users u
  join tenants t on t.id = u.tenant_id and t.is_active
  left join sign_in_failures f on f.user_id = u.id`;

/** The account with this e-mail in an active tenant (e-mails are unique per tenant, case-insensitively). */
export async function findAccountByEmail(db: Queryable, tenantId: string, email: string): Promise<Account | undefined> {
  const { rows } = await db.query<Account>(`select ${accountColumns} ${accountFrom} where u.tenant_id = $1 and lower(u.email) = lower($2)`, [
    tenantId,
    email.trim(),
  ]);
  return rows[0];
}

export async function findAccountById(db: Queryable, tenantId: string, userId: string): Promise<Account | undefined> {
  const { rows } = await db.query<Account>(`select ${accountColumns} ${accountFrom} where u.tenant_id = $1 and u.id = $2`, [tenantId, userId]);
  return rows[0];
}

export async function isActiveTenant(db: Queryable, tenantId: string): Promise<boolean> {
  const { rows } = await db.query(`select 1 from tenants where id = $1 and is_active`, [tenantId]);
  return rows.length > 0;
}

export async function isUserNameTaken(db: Queryable, tenantId: string, userName: string): Promise<boolean> {
  const { rows } = await db.query(`select 1 from users where tenant_id = $1 and lower(user_name) = lower($2)`, [tenantId, userName.trim()]);
  return rows.length > 0;
}

/**
 * Counts one more consecutive password failure. The tenth locks the account until
 * `now + lockSeconds` and starts the count again, all in one statement so concurrent
 * attempts cannot skip the lock.
 */
export async function recordPasswordFailure(
  db: Queryable,
  userId: string,
  now: Date,
  limits: { maxConsecutiveFailures: number; lockSeconds: number },
): Promise<{ consecutiveFailures: number; lockedUntil: Date | null }> {
  const { rows } = await db.query<{ consecutiveFailures: number; lockedUntil: Date | null }>(
    `insert into sign_in_failures as f (user_id, consecutive_failures, last_failure_at, locked_until)
     values ($1, case when $3::int <= 1 then 0 else 1 end, $2,
             case when $3::int <= 1 then $2::timestamptz + make_interval(secs => $4) end)
     on conflict (user_id) do update set
       consecutive_failures = case when f.consecutive_failures + 1 >= $3 then 0 else f.consecutive_failures + 1 end,
       locked_until = case when f.consecutive_failures + 1 >= $3 then $2::timestamptz + make_interval(secs => $4) else f.locked_until end,
       last_failure_at = $2
     returning consecutive_failures as "consecutiveFailures", locked_until as "lockedUntil"`,
    [userId, now, limits.maxConsecutiveFailures, limits.lockSeconds],
  );
  return rows[0];
}

export async function clearPasswordFailures(db: Queryable, userId: string): Promise<void> {
  await db.query(`delete from sign_in_failures where user_id = $1`, [userId]);
}

/**
 * Stores a new password hash, ends the first-time-login state and bumps the token version
 * (every access token issued before stops working). Returns the new version.
 */
export async function setPassword(db: Queryable, userId: string, passwordHash: string, now: Date, options: { confirmEmail: boolean }): Promise<number> {
  const { rows } = await db.query<{ tokenVersion: number }>(
    `update users set password_hash = $2, is_first_time_login = false, token_version = token_version + 1,
            email_confirmed = email_confirmed or $4, updated_at = $3
     where id = $1 returning token_version as "tokenVersion"`,
    [userId, passwordHash, now, options.confirmEmail],
  );
  return rows[0].tokenVersion;
}

export async function bumpTokenVersion(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.query(`update users set token_version = token_version + 1, updated_at = $2 where id = $1`, [userId, now]);
}

export async function markEmailConfirmed(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.query(`update users set email_confirmed = true, updated_at = $2 where id = $1`, [userId, now]);
}

export async function setFirstTimeLogin(db: Queryable, userId: string, value: boolean, now: Date): Promise<void> {
  await db.query(`update users set is_first_time_login = $2, updated_at = $3 where id = $1`, [userId, value, now]);
}

export interface NewCandidate {
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  phoneNumber: string | null;
  dateOfBirth: string | null;
  passwordHash: string;
  preferredLanguage: string;
  userType: string;
  roleName: string;
  now: Date;
}

/** Inserts a self-registered user with an unconfirmed e-mail and the given role. */
export async function insertSelfRegisteredUser(db: Queryable, user: NewCandidate): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into users (tenant_id, first_name, last_name, email, user_name, phone_number, date_of_birth, password_hash,
                        login_type, user_type, email_confirmed, is_first_time_login, preferred_language, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7::date, $8, 'local', $9, false, false, $10, $11, $11)
     returning id`,
    [
      user.tenantId,
      user.firstName,
      user.lastName,
      user.email,
      user.userName,
      user.phoneNumber,
      user.dateOfBirth,
      user.passwordHash,
      user.userType,
      user.preferredLanguage,
      user.now,
    ],
  );
  const id = rows[0].id;
  const role = await db.query(`insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = $2 and name = $3`, [
    id,
    user.tenantId,
    user.roleName,
  ]);
  if (role.rowCount !== 1) throw new Error(`role ${user.roleName} is missing in tenant ${user.tenantId}`);
  return id;
}

/** Users of a tenant (optionally within an institute or reseller scope) by id. */
export async function findAccountsByIds(
  db: Queryable,
  tenantId: string,
  userIds: readonly string[],
  scope: { instituteId: string | null; resellerId: string | null },
): Promise<Account[]> {
  const { rows } = await db.query<Account>(
    `select ${accountColumns} ${accountFrom}
     where u.tenant_id = $1 and u.id = any($2::uuid[])
       and ($3::uuid is null or u.institute_id = $3) and ($4::uuid is null or u.reseller_id = $4)`,
    [tenantId, userIds, scope.instituteId, scope.resellerId],
  );
  return rows;
}

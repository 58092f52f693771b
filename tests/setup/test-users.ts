import type { FastifyInstance } from 'fastify';
import type { RoleName } from '#machines/permissions.ts';
import type { Queryable } from '#server/db/client.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { findAccountById } from '#server/modules/identity/accounts-repository.ts';
import { startSession } from '#server/modules/identity/sessions-service.ts';

let counter = 0;

/** A client address no other test uses, so each test starts below every per-address rate limit. */
export function freshIp(): string {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
}

export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${counter}-${process.pid}@example.test`;
}

/** A password that passes every rule of the policy. */
export const GOOD_PASSWORD = 'lantern orbit velvet 42';
export const OTHER_GOOD_PASSWORD = 'quiet harbour pebble 77';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  userName: string;
  roles: RoleName[];
  /** Set once signed in (`signInDirect`); `as(user)` sends it. */
  token?: string;
}

export interface UserOptions {
  email?: string;
  /** `null` creates a user without a local password (invitations, directory users). */
  password?: string | null;
  firstName?: string;
  lastName?: string;
  userName?: string;
  roles?: RoleName[];
  /** Support groups the user works in. */
  groups?: number[];
  tenantId?: string;
  emailConfirmed?: boolean;
  isActive?: boolean;
  isFirstTimeLogin?: boolean;
  loginType?: 'local' | 'directory';
  preferredLanguage?: string | null;
  userType?: string | null;
  instituteId?: string | null;
  resellerId?: string | null;
}

/** Creates a user straight in the database (the users API has its own tests). */
export async function createUser(db: Queryable, options: UserOptions = {}): Promise<TestUser> {
  const roles = options.roles ?? ['Candidate'];
  const email = options.email ?? uniqueEmail(roles[0]?.toLowerCase() ?? 'user');
  const password = options.password === undefined ? GOOD_PASSWORD : options.password;
  const firstName = options.firstName ?? 'Asha';
  const lastName = options.lastName ?? 'Patel';
  const userName = options.userName ?? email.split('@')[0];
  const tenantId = options.tenantId ?? 'root';
  const { rows } = await db.query<{ id: string }>(
    `insert into users (tenant_id, first_name, last_name, email, user_name, password_hash, login_type, is_active,
                        email_confirmed, is_first_time_login, preferred_language, user_type, institute_id, reseller_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning id`,
    [
      tenantId,
      firstName,
      lastName,
      email,
      userName,
      password ? await hashPassword(password) : null,
      options.loginType ?? 'local',
      options.isActive ?? true,
      options.emailConfirmed ?? true,
      options.isFirstTimeLogin ?? false,
      options.preferredLanguage ?? null,
      options.userType === undefined ? 'candidate' : options.userType,
      options.instituteId ?? null,
      options.resellerId ?? null,
    ],
  );
  const id = rows[0].id;
  await db.query(`insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = $2 and name = any($3::text[])`, [id, tenantId, roles]);
  for (const group of options.groups ?? []) {
    await db.query(`insert into support_group_members (group_id, user_id) values ($1, $2)`, [group, id]);
  }
  return { id, email, password: password ?? '', firstName, lastName, userName, roles };
}

/**
 * Opens a real session for the user (refresh family + signed access token, as a sign-in
 * does) without the e-mailed code round trip, which the identity tests cover. The token is
 * verified by the real authenticator on every request.
 */
export async function signInDirect<T extends TestUser>(app: FastifyInstance, user: T, tenantId = 'root'): Promise<T & { token: string }> {
  const account = await findAccountById(app.db, tenantId, user.id);
  if (!account) throw new Error(`no account ${user.id}`);
  const session = await startSession(app.identity, { tenantId, ip: freshIp(), userAgent: 'vitest', acceptLanguage: undefined }, account);
  user.token = session.token;
  return user as T & { token: string };
}

/** Creates a user and signs them in. */
export async function createSignedInUser(app: FastifyInstance, options: UserOptions = {}) {
  return signInDirect(app, await createUser(app.db, options), options.tenantId);
}

/** The headers of a request made as this (signed-in) user. */
export function as(user: { token?: string }) {
  if (!user.token) throw new Error('as(user): sign the user in first (signInDirect / createSignedInUser)');
  return { authorization: `Bearer ${user.token}` };
}

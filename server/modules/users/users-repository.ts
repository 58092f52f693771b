import type { Queryable } from '#server/db/client.ts';
import { orderByClause, pageWindow, searchKeyword, type PageWindow } from '#server/lib/paging.ts';
import type { UserSearchBody } from './users-schemas.ts';

/**
 * Whom an administrator may see: their tenant, and within it their institute and/or reseller
 * when they have one (SECURITY.md "Institute and reseller scope"). Null means unscoped.
 */
export interface UserScope {
  tenantId: string;
  instituteId: string | null;
  resellerId: string | null;
}

export interface UserRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  phoneNumber: string | null;
  dateOfBirth: string | null;
  loginType: 'local' | 'directory';
  userType: string | null;
  resellerId: string | null;
  instituteId: string | null;
  isActive: boolean;
  emailConfirmed: boolean;
  isFirstTimeLogin: boolean;
  preferredLanguage: string | null;
  roles: Array<{ roleId: string; roleName: string }>;
  createdOn: Date;
}

const userColumns = `
  u.id, u.first_name as "firstName", u.last_name as "lastName", u.email, u.user_name as "userName",
  u.phone_number as "phoneNumber", to_char(u.date_of_birth, 'YYYY-MM-DD') as "dateOfBirth", u.login_type as "loginType",
  u.user_type as "userType", u.reseller_id as "resellerId", u.institute_id as "instituteId", u.is_active as "isActive",
  u.email_confirmed as "emailConfirmed", u.is_first_time_login as "isFirstTimeLogin", u.preferred_language as "preferredLanguage",
  coalesce((select json_agg(json_build_object('roleId', r.id, 'roleName', r.name) order by r.name)
            from user_roles ur join roles r on r.id = ur.role_id and r.tenant_id = u.tenant_id
            where ur.user_id = u.id), '[]'::json) as roles,
  u.created_at as "createdOn"`;

/** The scope condition on `u`, with parameters starting at `$first`. */
export function scopeSql(scope: UserScope, first: number): { sql: string; params: unknown[] } {
  return {
    sql: `u.tenant_id = $${first} and ($${first + 1}::uuid is null or u.institute_id = $${first + 1})
          and ($${first + 2}::uuid is null or u.reseller_id = $${first + 2})`,
    params: [scope.tenantId, scope.instituteId, scope.resellerId],
  };
}

const orderColumns = {
  firstName: 'lower(u.first_name)',
  lastName: 'lower(u.last_name)',
  email: 'lower(u.email)',
  userName: 'lower(u.user_name)',
  createdOn: 'u.created_at',
  isActive: 'u.is_active',
  emailConfirmed: 'u.email_confirmed',
};

const keywordFields: Record<string, string> = {
  firstname: 'lower(u.first_name)',
  lastname: 'lower(u.last_name)',
  email: 'lower(u.email)',
  username: 'lower(u.user_name)',
  phonenumber: "lower(coalesce(u.phone_number, ''))",
};

/** `%` and `_` typed by the caller are literal characters, not wildcards. */
export const likePattern = (keyword: string) => `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type UserFilters = Pick<UserSearchBody, 'keyword' | 'advancedSearch' | 'isActive' | 'emailConfirmed' | 'roleId' | 'loginType'>;

/** The where clause of a user search (shared by the paged search and the export). */
export function userWhere(scope: UserScope, filters: UserFilters): { sql: string; params: unknown[] } {
  const { sql, params } = scopeSql(scope, 1);
  const parts = [sql];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    parts.push(clause(`$${params.length}`));
  };
  const keyword = searchKeyword(filters);
  if (keyword) {
    const fields = (filters.advancedSearch?.fields ?? []).map((f) => keywordFields[f.toLowerCase()]).filter(Boolean);
    if (fields.length) add((n) => `(${fields.map((f) => `${f} like ${n}`).join(' or ')})`, likePattern(keyword));
    // The same expression as users_search_trgm_idx, so the trigram index answers it.
    else add((n) => `lower(u.first_name || ' ' || u.last_name || ' ' || u.email || ' ' || u.user_name) like ${n}`, likePattern(keyword));
  }
  if (typeof filters.isActive === 'boolean') add((n) => `u.is_active = ${n}`, filters.isActive);
  if (typeof filters.emailConfirmed === 'boolean') add((n) => `u.email_confirmed = ${n}`, filters.emailConfirmed);
  if (filters.loginType) add((n) => `u.login_type = ${n}`, filters.loginType);
  if (filters.roleId) add((n) => `exists (select 1 from user_roles ur where ur.user_id = u.id and ur.role_id = ${n}::uuid)`, filters.roleId);
  return { sql: parts.join(' and '), params };
}

export async function searchUsers(db: Queryable, scope: UserScope, request: UserSearchBody): Promise<{ rows: UserRow[]; total: number; window: PageWindow }> {
  const window = pageWindow(request);
  const { sql, params } = userWhere(scope, request);
  const order = orderByClause(request.orderBy, orderColumns, 'u.created_at desc', 'u.id desc');
  // Limit and offset are parameters, so the text has few variants and stays prepared.
  const pageParams = [...params, window.limit, window.offset];
  const limits = `limit $${params.length + 1} offset $${params.length + 2}`;
  if (keptCountAnswers(request)) {
    // One round trip: the kept total rides along as a column (an InitPlan, computed once). An
    // empty page carries no total, so then it is asked for on its own.
    const kept = keptCountSql(pageParams.length + 1);
    const { rows } = await db.query<UserRow & { totalCount?: number }>(
      `select ${userColumns}, (${kept}) as "totalCount" from users u where ${sql} order by ${order} ${limits}`,
      [...pageParams, ...keptCountParams(scope, request)],
      { prepare: true },
    );
    if (!rows.length) return { rows: [], total: await countUsers(db, scope, request), window };
    const total = rows[0].totalCount!;
    for (const row of rows) delete row.totalCount;
    return { rows, total, window };
  }
  const [page, total] = await Promise.all([
    db.query<UserRow>(`select ${userColumns} from users u where ${sql} order by ${order} ${limits}`, pageParams, { prepare: true }),
    countUsers(db, scope, request),
  ]);
  return { rows: page.rows, total, window };
}

/** Whether the trigger-kept `user_counts` answer the count (no keyword, role or login type). */
function keptCountAnswers(filters: UserFilters): boolean {
  return !searchKeyword(filters) && !filters.roleId && !filters.loginType;
}

function keptCountSql(first: number): string {
  const n = (i: number) => `$${first + i}`;
  return `select coalesce(sum(n), 0)::int as n from user_counts
       where tenant_id = ${n(0)} and (${n(1)}::uuid is null or institute_key = ${n(1)}) and (${n(2)}::uuid is null or reseller_key = ${n(2)})
         and (${n(3)}::boolean is null or is_active = ${n(3)}) and (${n(4)}::boolean is null or email_confirmed = ${n(4)})`;
}

function keptCountParams(scope: UserScope, filters: UserFilters): unknown[] {
  return [scope.tenantId, scope.instituteId, scope.resellerId, filters.isActive ?? null, filters.emailConfirmed ?? null];
}

/**
 * How many users match. With only scope, status and e-mail filters the exact figure comes from
 * the trigger-kept `user_counts` (a handful of rows instead of every user); a keyword, a role
 * or a login type counts the matching rows (the keyword through the trigram index).
 */
export async function countUsers(db: Queryable, scope: UserScope, filters: UserFilters): Promise<number> {
  if (keptCountAnswers(filters)) {
    const { rows } = await db.query<{ n: number }>(keptCountSql(1), keptCountParams(scope, filters), { prepare: true });
    return rows[0].n;
  }
  const { sql, params } = userWhere(scope, filters);
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from users u where ${sql}`, params);
  return rows[0].n;
}

/** Rows of the export, in pages of `batch` (keyset on created_at, id) so memory stays flat. */
export async function* exportUsers(db: Queryable, scope: UserScope, filters: UserFilters, batch = 1000): AsyncGenerator<UserRow[]> {
  const { sql, params } = userWhere(scope, filters);
  let after: { createdOn: Date; id: string } | undefined;
  for (;;) {
    const keyset = after ? ` and (u.created_at, u.id) < ($${params.length + 1}::timestamptz, $${params.length + 2}::uuid)` : '';
    const { rows } = await db.query<UserRow>(
      `select ${userColumns} from users u where ${sql}${keyset} order by u.created_at desc, u.id desc limit ${batch}`,
      after ? [...params, after.createdOn, after.id] : params,
    );
    if (!rows.length) return;
    yield rows;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1];
    after = { createdOn: last.createdOn, id: last.id };
  }
}

export async function findUser(db: Queryable, scope: UserScope, id: string): Promise<UserRow | undefined> {
  const { sql, params } = scopeSql(scope, 2);
  const { rows } = await db.query<UserRow>(`select ${userColumns} from users u where u.id = $1 and ${sql}`, [id, ...params]);
  return rows[0];
}

export async function findUsersByIds(db: Queryable, scope: UserScope, ids: readonly string[]): Promise<UserRow[]> {
  const { sql, params } = scopeSql(scope, 2);
  const { rows } = await db.query<UserRow>(
    `select ${userColumns} from users u where u.id = any($1::uuid[]) and ${sql} order by lower(u.first_name), lower(u.last_name), u.id`,
    [ids, ...params],
  );
  return rows;
}

/** Which of these e-mails and user names are taken in the tenant (lower-cased). */
export async function takenIdentifiers(
  db: Queryable,
  tenantId: string,
  emails: readonly string[],
  userNames: readonly string[],
  exceptUserId: string | null = null,
): Promise<{ emails: Set<string>; userNames: Set<string> }> {
  const { rows } = await db.query<{ email: string; userName: string }>(
    `select lower(email) as email, lower(user_name) as "userName" from users
     where tenant_id = $1 and (lower(email) = any($2::text[]) or lower(user_name) = any($3::text[]))
       and ($4::uuid is null or id <> $4)`,
    [tenantId, emails.map((e) => e.toLowerCase()), userNames.map((u) => u.toLowerCase()), exceptUserId],
  );
  const lowerEmails = new Set(emails.map((e) => e.toLowerCase()));
  const lowerNames = new Set(userNames.map((u) => u.toLowerCase()));
  return {
    emails: new Set(rows.map((r) => r.email).filter((e) => lowerEmails.has(e))),
    userNames: new Set(rows.map((r) => r.userName).filter((u) => lowerNames.has(u))),
  };
}

export interface NewUser {
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  phoneNumber: string | null;
  dateOfBirth: string | null;
  passwordHash: string | null;
  loginType: 'local' | 'directory';
  userType: string | null;
  resellerId: string | null;
  instituteId: string | null;
  emailConfirmed: boolean;
  isFirstTimeLogin: boolean;
  roleIds: readonly string[];
  now: Date;
}

export async function insertUser(db: Queryable, user: NewUser): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into users (tenant_id, first_name, last_name, email, user_name, phone_number, date_of_birth, password_hash, login_type,
                        user_type, reseller_id, institute_id, email_confirmed, is_first_time_login, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7::date, $8, $9, $10, $11, $12, $13, $14, $15, $15) returning id`,
    [
      user.tenantId,
      user.firstName,
      user.lastName,
      user.email,
      user.userName,
      user.phoneNumber,
      user.dateOfBirth,
      user.passwordHash,
      user.loginType,
      user.userType,
      user.resellerId,
      user.instituteId,
      user.emailConfirmed,
      user.isFirstTimeLogin,
      user.now,
    ],
  );
  const id = rows[0].id;
  if (user.roleIds.length) {
    await db.query(`insert into user_roles (user_id, role_id) select $1, unnest($2::uuid[])`, [id, user.roleIds]);
  }
  return id;
}

/**
 * Many users in one statement (bulk upload): returns the ids in input order. Roles are
 * given per user as one role id.
 */
export async function insertUsers(db: Queryable, users: readonly NewUser[]): Promise<string[]> {
  if (!users.length) return [];
  const col = <K extends keyof NewUser>(key: K) => users.map((u) => u[key]);
  const { rows } = await db.query<{ id: string; ord: number }>(
    `with input as (
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::text[], $8::bool[], $9::bool[],
                            $10::text[], $11::uuid[], $12::uuid[]) with ordinality
         as t(first_name, last_name, email, user_name, phone_number, date_of_birth, password_hash, email_confirmed, is_first_time_login,
              user_type, reseller_id, institute_id, ord)
     ), inserted as (
       insert into users (tenant_id, first_name, last_name, email, user_name, phone_number, date_of_birth, password_hash, login_type,
                          user_type, reseller_id, institute_id, email_confirmed, is_first_time_login, created_at, updated_at)
       select $13, first_name, last_name, email, user_name, phone_number, date_of_birth, password_hash, 'local',
              user_type, reseller_id, institute_id, email_confirmed, is_first_time_login, $14, $14
       from input order by ord
       returning id, lower(email) as email
     )
     select i.id, t.ord::int as ord from inserted i join input t on lower(t.email) = i.email order by t.ord`,
    [
      col('firstName'),
      col('lastName'),
      col('email'),
      col('userName'),
      col('phoneNumber'),
      col('dateOfBirth'),
      col('passwordHash'),
      col('emailConfirmed'),
      col('isFirstTimeLogin'),
      col('userType'),
      col('resellerId'),
      col('instituteId'),
      users[0].tenantId,
      users[0].now,
    ],
  );
  const ids = rows.map((r) => r.id);
  await db.query(`insert into user_roles (user_id, role_id) select unnest($1::uuid[]), unnest($2::uuid[])`, [ids, users.map((u) => u.roleIds[0])]);
  return ids;
}

export interface ProfileChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  userName?: string;
  phoneNumber?: string | null;
  dateOfBirth?: string | null;
  preferredLanguage?: string | null;
  emailConfirmed?: boolean;
}

export async function updateProfile(db: Queryable, userId: string, changes: ProfileChanges, now: Date): Promise<void> {
  const columns: Record<keyof ProfileChanges, string> = {
    firstName: 'first_name',
    lastName: 'last_name',
    email: 'email',
    userName: 'user_name',
    phoneNumber: 'phone_number',
    dateOfBirth: 'date_of_birth',
    preferredLanguage: 'preferred_language',
    emailConfirmed: 'email_confirmed',
  };
  const sets: string[] = [];
  const params: unknown[] = [userId, now];
  for (const [key, column] of Object.entries(columns) as Array<[keyof ProfileChanges, string]>) {
    if (changes[key] === undefined) continue;
    params.push(changes[key]);
    sets.push(`${column} = $${params.length}${key === 'dateOfBirth' ? '::date' : ''}`);
  }
  if (!sets.length) return;
  await db.query(`update users set ${sets.join(', ')}, updated_at = $2 where id = $1`, params);
}

export async function setActive(db: Queryable, userId: string, active: boolean, now: Date): Promise<void> {
  await db.query(`update users set is_active = $2, updated_at = $3 where id = $1`, [userId, active, now]);
}

export async function setEmailConfirmed(db: Queryable, userId: string, confirmed: boolean, now: Date): Promise<void> {
  await db.query(`update users set email_confirmed = $2, updated_at = $3 where id = $1`, [userId, confirmed, now]);
}

// ---- roles -----------------------------------------------------------------------------------

export interface RoleRow {
  id: string;
  name: string;
  description: string;
  isSystem: boolean;
  permissions: string[];
  userCount: number;
}

const roleColumns = `r.id, r.name, r.description, r.is_system as "isSystem",
  coalesce((select array_agg(rp.permission order by rp.permission) from role_permissions rp where rp.role_id = r.id), '{}'::text[]) as permissions`;

export async function tenantRoles(db: Queryable, tenantId: string): Promise<Omit<RoleRow, 'userCount'>[]> {
  const { rows } = await db.query<Omit<RoleRow, 'userCount'>>(`select ${roleColumns} from roles r where r.tenant_id = $1 order by r.name`, [tenantId]);
  return rows;
}

export async function searchRoles(
  db: Queryable,
  tenantId: string,
  request: { keyword?: string | null; advancedSearch?: { keyword?: string | null } | null; orderBy?: string[] | null; pageNumber?: number; pageSize?: number },
  scope: UserScope,
): Promise<{ rows: RoleRow[]; total: number; window: PageWindow }> {
  const window = pageWindow(request);
  const keyword = searchKeyword(request);
  const params: unknown[] = [tenantId, keyword ? likePattern(keyword) : null, scope.instituteId, scope.resellerId];
  const where = `r.tenant_id = $1 and ($2::text is null or lower(r.name || ' ' || r.description) like $2)`;
  const order = orderByClause(request.orderBy, { name: 'lower(r.name)', userCount: '"userCount"' }, 'lower(r.name)', 'r.id');
  const [page, count] = await Promise.all([
    db.query<RoleRow>(
      `select ${roleColumns},
              (select count(*)::int from user_roles ur join users u on u.id = ur.user_id
               where ur.role_id = r.id and ($3::uuid is null or u.institute_id = $3) and ($4::uuid is null or u.reseller_id = $4)) as "userCount"
       from roles r where ${where} order by ${order} limit ${window.limit} offset ${window.offset}`,
      params,
    ),
    db.query<{ n: number }>(`select count(*)::int as n from roles r where ${where}`, params.slice(0, 2)),
  ]);
  return { rows: page.rows, total: count.rows[0].n, window };
}

export async function roleIdsOf(db: Queryable, userId: string): Promise<Set<string>> {
  const { rows } = await db.query<{ roleId: string }>(`select role_id as "roleId" from user_roles where user_id = $1`, [userId]);
  return new Set(rows.map((r) => r.roleId));
}

export async function setUserRoles(db: Queryable, userId: string, add: readonly string[], remove: readonly string[]): Promise<void> {
  if (remove.length) await db.query(`delete from user_roles where user_id = $1 and role_id = any($2::uuid[])`, [userId, remove]);
  if (add.length) {
    await db.query(`insert into user_roles (user_id, role_id) select $1, unnest($2::uuid[]) on conflict do nothing`, [userId, add]);
  }
}

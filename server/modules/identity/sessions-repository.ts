import type { Queryable } from '#server/db/client.ts';

export type RevokeReason = 'logout' | 'refreshTokenReuse' | 'passwordChanged' | 'passwordReset' | 'sessionsEnded';

export interface NewFamily {
  userId: string;
  tenantId: string;
  createdAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  dpopJkt?: string;
}

export async function createFamily(db: Queryable, family: NewFamily): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into refresh_token_families (user_id, tenant_id, created_at, expires_at, ip, user_agent, dpop_jkt)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [family.userId, family.tenantId, family.createdAt, family.expiresAt, family.ip, family.userAgent, family.dpopJkt ?? null],
  );
  return rows[0].id;
}

export async function insertRefreshToken(db: Queryable, tokenHash: string, familyId: string, now: Date): Promise<void> {
  await db.query(`insert into refresh_tokens (token_hash, family_id, created_at) values ($1, $2, $3)`, [tokenHash, familyId, now]);
}

/** Families that ended more than a day ago serve nothing; dropping them keeps the tables small. */
export async function pruneEndedFamilies(db: Queryable, userId: string, before: Date): Promise<void> {
  await db.query(`delete from refresh_token_families where user_id = $1 and (expires_at < $2 or revoked_at < $2)`, [userId, before]);
}

export interface StoredRefreshToken {
  familyId: string;
  usedAt: Date | null;
  familyExpiresAt: Date;
  familyRevokedAt: Date | null;
  userId: string;
  tenantId: string;
  userUsable: boolean;
  /** Set when the family is bound to a DPoP key. */
  dpopJkt: string | null;
}

/** The token, its family and whether its user may still sign in; the token row stays locked until commit. */
export async function findRefreshTokenForUpdate(db: Queryable, tokenHash: string): Promise<StoredRefreshToken | undefined> {
  const { rows } = await db.query<StoredRefreshToken>(
    `select rt.family_id as "familyId", rt.used_at as "usedAt", f.expires_at as "familyExpiresAt",
            f.revoked_at as "familyRevokedAt", f.user_id as "userId", f.tenant_id as "tenantId",
            (u.is_active and t.is_active) as "userUsable", f.dpop_jkt as "dpopJkt"
     from refresh_tokens rt
     join refresh_token_families f on f.id = rt.family_id
     join users u on u.id = f.user_id
     join tenants t on t.id = u.tenant_id
     where rt.token_hash = $1
     for update of rt`,
    [tokenHash],
  );
  return rows[0];
}

export async function markRefreshTokenUsed(db: Queryable, tokenHash: string, now: Date): Promise<boolean> {
  const { rowCount } = await db.query(`update refresh_tokens set used_at = $2 where token_hash = $1 and used_at is null`, [tokenHash, now]);
  return rowCount === 1;
}

export async function revokeFamily(db: Queryable, familyId: string, reason: RevokeReason, now: Date): Promise<void> {
  await db.query(`update refresh_token_families set revoked_at = $3, revoked_reason = $2 where id = $1 and revoked_at is null`, [familyId, reason, now]);
}

/** Ends every open session of the user, or every one but `exceptFamilyId`. Returns how many. */
export async function revokeUserFamilies(
  db: Queryable,
  userId: string,
  reason: RevokeReason,
  now: Date,
  exceptFamilyId: string | null = null,
): Promise<number> {
  const { rowCount } = await db.query(
    `update refresh_token_families set revoked_at = $3, revoked_reason = $2
     where user_id = $1 and revoked_at is null and expires_at > $3 and ($4::uuid is null or id <> $4)`,
    [userId, reason, now, exceptFamilyId],
  );
  return rowCount;
}

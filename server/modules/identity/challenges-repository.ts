import type { Queryable } from '#server/db/client.ts';

export interface CodeIssueStats {
  issuedInWindow: number;
  oldestInWindow: Date | null;
  latest: Date | null;
}

/** How many codes the account got since `windowStart`, the oldest of them and the newest code ever. */
export async function codeIssueStats(db: Queryable, userId: string, windowStart: Date): Promise<CodeIssueStats> {
  const { rows } = await db.query<CodeIssueStats>(
    `select count(*) filter (where created_at > $2)::int as "issuedInWindow",
            min(created_at) filter (where created_at > $2) as "oldestInWindow",
            max(created_at) as latest
     from sign_in_challenges where user_id = $1`,
    [userId, windowStart],
  );
  return rows[0];
}

/** Serialises code issuing per account (cap and cooldown are checked under this lock). */
export async function lockAccountRow(db: Queryable, userId: string): Promise<void> {
  await db.query(`select id from users where id = $1 for update`, [userId]);
}

/** A new code kills every code of the account that is still open. */
export async function replaceOpenChallenges(db: Queryable, userId: string, now: Date): Promise<void> {
  await db.query(
    `update sign_in_challenges set replaced_at = $2
     where user_id = $1 and consumed_at is null and replaced_at is null and expires_at > $2`,
    [userId, now],
  );
}

export interface NewChallenge {
  id: string;
  userId: string;
  tenantId: string;
  codeHash: string;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertChallenge(db: Queryable, challenge: NewChallenge): Promise<void> {
  await db.query(
    `insert into sign_in_challenges (id, user_id, tenant_id, code_hash, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6)`,
    [challenge.id, challenge.userId, challenge.tenantId, challenge.codeHash, challenge.createdAt, challenge.expiresAt],
  );
}

/** Rows older than the hourly window serve no rule any more. */
export async function pruneChallenges(db: Queryable, userId: string, before: Date): Promise<void> {
  await db.query(`delete from sign_in_challenges where user_id = $1 and created_at < $2`, [userId, before]);
}

export interface StoredChallenge {
  id: string;
  userId: string;
  tenantId: string;
  email: string;
  codeHash: string;
  wrongAttempts: number;
  expiresAt: Date;
  consumedAt: Date | null;
  replacedAt: Date | null;
}

export async function findChallenge(db: Queryable, id: string): Promise<StoredChallenge | undefined> {
  const { rows } = await db.query<StoredChallenge>(
    `select c.id, c.user_id as "userId", c.tenant_id as "tenantId", u.email, c.code_hash as "codeHash",
            c.wrong_attempts as "wrongAttempts", c.expires_at as "expiresAt", c.consumed_at as "consumedAt",
            c.replaced_at as "replacedAt"
     from sign_in_challenges c join users u on u.id = c.user_id
     where c.id = $1`,
    [id],
  );
  return rows[0];
}

/** One more wrong code; undefined when the code was already used or burnt by a concurrent request. */
export async function registerWrongCode(db: Queryable, id: string, maxWrongAttempts: number): Promise<number | undefined> {
  const { rows } = await db.query<{ wrongAttempts: number }>(
    `update sign_in_challenges set wrong_attempts = wrong_attempts + 1
     where id = $1 and consumed_at is null and wrong_attempts < $2
     returning wrong_attempts as "wrongAttempts"`,
    [id, maxWrongAttempts],
  );
  return rows[0]?.wrongAttempts;
}

/** Single use: true for exactly one caller, and only while the code is still open. */
export async function consumeChallenge(db: Queryable, id: string, now: Date, maxWrongAttempts: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `update sign_in_challenges set consumed_at = $2
     where id = $1 and consumed_at is null and replaced_at is null and expires_at > $2 and wrong_attempts < $3`,
    [id, now, maxWrongAttempts],
  );
  return rowCount === 1;
}

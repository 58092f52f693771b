import type { Queryable } from '#server/db/client.ts';

export type AccountTokenPurpose = 'resetPassword' | 'confirmEmail' | 'invitation';

/** Stores a new token's hash; earlier unused tokens of the same purpose stop working. */
export async function storeAccountToken(
  db: Queryable,
  token: { hash: string; userId: string; purpose: AccountTokenPurpose; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.query(`delete from account_tokens where user_id = $1 and purpose = $2 and used_at is null`, [token.userId, token.purpose]);
  await db.query(`insert into account_tokens (token_hash, user_id, purpose, created_at, expires_at) values ($1, $2, $3, $4, $5)`, [
    token.hash,
    token.userId,
    token.purpose,
    token.createdAt,
    token.expiresAt,
  ]);
}

export interface StoredAccountToken {
  userId: string;
  purpose: AccountTokenPurpose;
  expiresAt: Date;
  usedAt: Date | null;
}

export async function findAccountToken(db: Queryable, hash: string, purpose: AccountTokenPurpose): Promise<StoredAccountToken | undefined> {
  const { rows } = await db.query<StoredAccountToken>(
    `select user_id as "userId", purpose, expires_at as "expiresAt", used_at as "usedAt"
     from account_tokens where token_hash = $1 and purpose = $2`,
    [hash, purpose],
  );
  return rows[0];
}

/** Single use: true for exactly one caller, only before expiry. */
export async function consumeAccountToken(db: Queryable, hash: string, purpose: AccountTokenPurpose, now: Date): Promise<boolean> {
  const { rowCount } = await db.query(`update account_tokens set used_at = $3 where token_hash = $1 and purpose = $2 and used_at is null and expires_at > $3`, [
    hash,
    purpose,
    now,
  ]);
  return rowCount === 1;
}

/** After a password is set, no other reset or invitation link of the user may set it again. */
export async function dropOpenPasswordTokens(db: Queryable, userId: string): Promise<void> {
  await db.query(`delete from account_tokens where user_id = $1 and used_at is null and purpose in ('resetPassword', 'invitation')`, [userId]);
}

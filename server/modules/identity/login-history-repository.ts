import type { Queryable } from '#server/db/client.ts';

export type LoginEvent = 'login' | 'loginFailed' | 'logout' | 'sessionRevoked';

export type LoginFailureReason =
  | 'unknownAccount'
  | 'invalidPassword'
  | 'locked'
  | 'deactivated'
  | 'emailNotConfirmed'
  | 'invalidCode'
  | 'expiredCode'
  | 'usedCode'
  | 'replacedCode'
  | 'codeAttemptsExceeded';

export interface LoginHistoryEntry {
  tenantId: string;
  userId: string | null;
  email: string;
  event: LoginEvent;
  reason?: LoginFailureReason | 'refreshTokenReuse' | null;
  ip: string | null;
  userAgent: string | null;
  at: Date;
}

/** One row of login history; an unknown tenant is kept as null rather than refused. */
export async function recordLoginEvent(db: Queryable, entry: LoginHistoryEntry): Promise<void> {
  await db.query(
    `insert into login_history (tenant_id, user_id, email, event, reason, ip, user_agent, occurred_at)
     values ((select id from tenants where id = $1), $2, $3, $4, $5, $6, $7, $8)`,
    [entry.tenantId, entry.userId, entry.email.slice(0, 320), entry.event, entry.reason ?? null, entry.ip, entry.userAgent, entry.at],
  );
}

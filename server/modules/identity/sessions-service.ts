import { matchLanguage } from '#server/mail/mail-language.ts';
import type { Queryable } from '#server/db/client.ts';
import { AppError } from '#server/lib/errors.ts';
import { bumpTokenVersion, findAccountById, type Account } from './accounts-repository.ts';
import { addSeconds, type IdentityContext, type RequestMeta } from './identity-context.ts';
import { identityLimits } from './identity-limits.ts';
import { identityMessages } from './identity-messages.ts';
import type { AccessClaims } from './jwt-tokens.ts';
import { recordLoginEvent } from './login-history-repository.ts';
import {
  createFamily,
  findRefreshTokenForUpdate,
  insertRefreshToken,
  markRefreshTokenUsed,
  pruneEndedFamilies,
  revokeFamily,
  revokeUserFamilies,
  type RevokeReason,
} from './sessions-repository.ts';
import { dpopMessages } from './dpop.ts';
import { randomToken, tokenHash } from './token-crypto.ts';

/** The answer of verifyotp and refresh (spec §7). */
export interface TokenPair {
  token: string;
  refreshToken: string;
  refreshTokenExpiryTime: string;
  /** On sign-in: the user's saved language (issue 21), which the client applies on any device. */
  preferredLanguage?: string | null;
}

type AccountClaims = Pick<
  Account,
  'id' | 'tenantId' | 'email' | 'firstName' | 'lastName' | 'userName' | 'userType' | 'resellerId' | 'instituteId' | 'isFirstTimeLogin' | 'tokenVersion'
>;

export function claimsOf(account: AccountClaims, sessionId: string): AccessClaims {
  return {
    userId: account.id,
    tenantId: account.tenantId,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    userName: account.userName,
    userType: account.userType,
    resellerId: account.resellerId,
    instituteId: account.instituteId,
    isFirstTimeLogin: account.isFirstTimeLogin,
    tokenVersion: account.tokenVersion,
    sessionId,
  };
}

export function signAccessToken(ctx: IdentityContext, account: AccountClaims, sessionId: string, now: Date): Promise<string> {
  return ctx.jwt.signAccessToken(claimsOf(account, sessionId), now, ctx.config.accessTokenSeconds);
}

/** A new sign-in session: a refresh family with an absolute expiry, its first refresh token and an access token. */
export async function startSession(
  ctx: IdentityContext,
  meta: RequestMeta,
  account: AccountClaims & { preferredLanguage?: string | null },
): Promise<TokenPair> {
  const now = ctx.clock.now();
  const expiresAt = addSeconds(now, identityLimits.refreshToken.absoluteLifetimeSeconds);
  const refreshToken = randomToken(identityLimits.refreshToken.bytes);
  const familyId = await ctx.db.transaction(async (tx) => {
    await pruneEndedFamilies(tx, account.id, addSeconds(now, -24 * 60 * 60));
    const id = await createFamily(tx, {
      userId: account.id,
      tenantId: account.tenantId,
      createdAt: now,
      expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent,
      dpopJkt: meta.dpopJkt,
    });
    await insertRefreshToken(tx, tokenHash(refreshToken), id, now);
    return id;
  });
  return {
    token: await signAccessToken(ctx, account, familyId, now),
    refreshToken,
    refreshTokenExpiryTime: expiresAt.toISOString(),
    preferredLanguage: matchLanguage(account.preferredLanguage) ?? null,
  };
}

const refreshRefused = (message: string, reason: string) => new AppError(401, message, { extra: { reason } });

/**
 * Rotation (RFC 9700 §4.14.2): every refresh token works once and is replaced; the family's
 * expiry never moves. Presenting a token that was already rotated revokes the whole family,
 * the newest token included, and the access tokens of that session stop working at once.
 */
export async function refreshSession(ctx: IdentityContext, meta: RequestMeta, input: { token: string; refreshToken: string }): Promise<TokenPair> {
  const now = ctx.clock.now();
  let claims: AccessClaims;
  try {
    claims = await ctx.jwt.readExpiredAccessToken(input.token);
  } catch {
    throw refreshRefused(identityMessages.invalidRefreshToken, 'invalidToken');
  }
  const presented = tokenHash(input.refreshToken);
  const next = randomToken(identityLimits.refreshToken.bytes);

  type Outcome =
    { ok: true; familyId: string; expiresAt: Date } | { ok: false; message: string; reason: string; reused?: { userId: string; tenantId: string } };
  const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
    const stored = await findRefreshTokenForUpdate(tx, presented);
    if (!stored || stored.userId !== claims.userId || stored.familyId !== claims.sessionId) {
      return { ok: false, message: identityMessages.invalidRefreshToken, reason: 'invalidRefreshToken' };
    }
    if (stored.familyRevokedAt) return { ok: false, message: identityMessages.sessionEnded, reason: 'sessionEnded' };
    // A family bound to a browser key refreshes only with a proof from that key (RFC 9449). The
    // token is not consumed: whoever lifted it cannot burn the owner's session either.
    if (stored.dpopJkt && stored.dpopJkt !== meta.dpopJkt) {
      return { ok: false, message: dpopMessages.invalidProof, reason: 'invalidDpopProof' };
    }
    if (stored.usedAt) {
      await revokeFamily(tx, stored.familyId, 'refreshTokenReuse', now);
      return {
        ok: false,
        message: identityMessages.refreshTokenReused,
        reason: 'refreshTokenReused',
        reused: { userId: stored.userId, tenantId: stored.tenantId },
      };
    }
    if (stored.familyExpiresAt.getTime() <= now.getTime()) {
      return { ok: false, message: identityMessages.sessionExpired, reason: 'sessionExpired' };
    }
    if (!stored.userUsable) return { ok: false, message: identityMessages.sessionEnded, reason: 'sessionEnded' };
    if (!(await markRefreshTokenUsed(tx, presented, now))) {
      return { ok: false, message: identityMessages.invalidRefreshToken, reason: 'invalidRefreshToken' };
    }
    await insertRefreshToken(tx, tokenHash(next), stored.familyId, now);
    return { ok: true, familyId: stored.familyId, expiresAt: stored.familyExpiresAt };
  });

  if (!outcome.ok) {
    if (outcome.reused) {
      await recordLoginEvent(ctx.db, {
        tenantId: outcome.reused.tenantId,
        userId: outcome.reused.userId,
        email: claims.email,
        event: 'sessionRevoked',
        reason: 'refreshTokenReuse',
        ip: meta.ip,
        userAgent: meta.userAgent,
        at: now,
      });
    }
    throw refreshRefused(outcome.message, outcome.reason);
  }
  // Fresh claims: a changed name, role scope or first-time flag shows in the new access token.
  const account = await findAccountById(ctx.db, claims.tenantId, claims.userId);
  if (!account || !account.isActive) throw refreshRefused(identityMessages.sessionEnded, 'sessionEnded');
  return {
    token: await signAccessToken(ctx, account, outcome.familyId, now),
    refreshToken: next,
    refreshTokenExpiryTime: outcome.expiresAt.toISOString(),
  };
}

/**
 * Ends sessions of a user: every refresh family (but `exceptFamilyId`) is revoked and the
 * token version bumped, so access tokens already issued fail on their next request. Used by
 * logout, password change and reset; the users module calls it on deactivation.
 */
export async function endSessions(
  db: Queryable,
  userId: string,
  reason: RevokeReason,
  now: Date,
  options: { exceptFamilyId?: string; bumpVersion?: boolean } = {},
): Promise<void> {
  if (options.bumpVersion !== false) await bumpTokenVersion(db, userId, now);
  await revokeUserFamilies(db, userId, reason, now, options.exceptFamilyId ?? null);
}

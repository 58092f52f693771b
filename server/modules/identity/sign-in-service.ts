import { randomUUID } from 'node:crypto';
import { AppError } from '#server/lib/errors.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { accountMail } from '#server/mail/account-mails.ts';
import { pickMailLanguage } from '#server/mail/mail-language.ts';
import { clearPasswordFailures, findAccountByEmail, recordPasswordFailure, type Account } from './accounts-repository.ts';
import {
  codeIssueStats,
  consumeChallenge,
  findChallenge,
  insertChallenge,
  lockAccountRow,
  pruneChallenges,
  registerWrongCode,
  replaceOpenChallenges,
} from './challenges-repository.ts';
import { addSeconds, type IdentityContext, type RequestMeta } from './identity-context.ts';
import { identityLimits } from './identity-limits.ts';
import { identityMessages } from './identity-messages.ts';
import { InvalidTokenError } from './jwt-tokens.ts';
import { recordLoginEvent, type LoginFailureReason } from './login-history-repository.ts';
import { startSession, type TokenPair } from './sessions-service.ts';
import { constantTimeEqual, newSignInCode, randomToken, signInCodeHash } from './token-crypto.ts';

/** The answer of POST /tokens and POST /tokens/resendotp. */
export interface ChallengeIssued {
  token: string;
  otpExpiresAt: string;
  resendAfterSeconds: number;
}

const HOUR_SECONDS = 60 * 60;

/** The same status and body for an unknown e-mail, a wrong password and a locked account. */
export const credentialsRefused = () => new AppError(401, identityMessages.invalidCredentials, { extra: { reason: 'invalidCredentials' } });

let dummyHash: Promise<string> | undefined;
/** A hash to verify against when there is no account, so both cases cost one argon2 verification. */
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomToken(24));
  return dummyHash;
}

async function recordFailure(ctx: IdentityContext, meta: RequestMeta, email: string, userId: string | null, reason: LoginFailureReason, at: Date) {
  await recordLoginEvent(ctx.db, {
    tenantId: meta.tenantId,
    userId,
    email,
    event: 'loginFailed',
    reason,
    ip: meta.ip,
    userAgent: meta.userAgent,
    at,
  });
}

/**
 * The password step of sign-in (and of a resend): finds the account in the tenant chosen by
 * the `tenant` header, refuses locked accounts without saying so, asks the verifier of the
 * account's login type, counts consecutive failures per account and locks after 10.
 * A right password resets the count; only then may deactivation or an unconfirmed e-mail be told.
 */
export async function authenticatePassword(ctx: IdentityContext, meta: RequestMeta, email: string, password: string): Promise<Account> {
  const now = ctx.clock.now();
  const account = await findAccountByEmail(ctx.db, meta.tenantId, email);
  if (!account) {
    await ctx.verifiers.local.verify({ userId: '', tenantId: meta.tenantId, email, userName: '', passwordHash: await dummyPasswordHash() }, password);
    await recordFailure(ctx, meta, email, null, 'unknownAccount', now);
    throw credentialsRefused();
  }
  if (account.lockedUntil && account.lockedUntil.getTime() > now.getTime()) {
    // Same work as a real check, without asking a directory during the lock.
    await ctx.verifiers.local.verify({ ...subjectOf(account), passwordHash: await dummyPasswordHash() }, password);
    await recordFailure(ctx, meta, account.email, account.id, 'locked', now);
    throw credentialsRefused();
  }
  const verified = await ctx.verifiers[account.loginType].verify(subjectOf(account), password);
  if (!verified) {
    await recordPasswordFailure(ctx.db, account.id, now, identityLimits.lockout);
    await recordFailure(ctx, meta, account.email, account.id, 'invalidPassword', now);
    throw credentialsRefused();
  }
  if (account.consecutiveFailures > 0 || account.lockedUntil) await clearPasswordFailures(ctx.db, account.id);
  if (!account.isActive) {
    await recordFailure(ctx, meta, account.email, account.id, 'deactivated', now);
    throw new AppError(403, identityMessages.accountDeactivated, { extra: { reason: 'accountDeactivated' } });
  }
  if (!account.emailConfirmed) {
    await recordFailure(ctx, meta, account.email, account.id, 'emailNotConfirmed', now);
    throw new AppError(403, identityMessages.emailNotConfirmed, { extra: { reason: 'emailNotConfirmed' } });
  }
  return account;
}

export function subjectOf(account: Account) {
  return {
    userId: account.id,
    tenantId: account.tenantId,
    email: account.email,
    userName: account.userName,
    passwordHash: account.passwordHash,
  };
}

function tooManyCodes(message: string, retryAfterSeconds: number, reason: string): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(429, message, { headers: { 'retry-after': String(seconds) }, extra: { reason, retryAfterSeconds: seconds } });
}

/**
 * E-mails a new 6-digit code bound to a new challenge and returns the challenge token.
 * Under a per-account lock: at most 10 codes per account per rolling hour, and a resend
 * within 30 s of the previous code is refused with Retry-After. The new code kills every
 * open code of the account.
 */
export async function issueSignInCode(ctx: IdentityContext, meta: RequestMeta, account: Account, options: { resend: boolean }): Promise<ChallengeIssued> {
  const now = ctx.clock.now();
  const limits = identityLimits.code;
  const challengeId = randomUUID();
  const code = newSignInCode();
  const expiresAt = addSeconds(now, limits.lifetimeSeconds);

  const refusal = await ctx.db.transaction(async (tx) => {
    await lockAccountRow(tx, account.id);
    const stats = await codeIssueStats(tx, account.id, addSeconds(now, -HOUR_SECONDS));
    if (options.resend && stats.latest) {
      const elapsed = (now.getTime() - stats.latest.getTime()) / 1000;
      if (elapsed < limits.resendCooldownSeconds) {
        const wait = Math.ceil(limits.resendCooldownSeconds - elapsed);
        return tooManyCodes(identityMessages.resendCooldown(wait), wait, 'resendCooldown');
      }
    }
    if (stats.issuedInWindow >= limits.maxPerAccountPerHour && stats.oldestInWindow) {
      const wait = (stats.oldestInWindow.getTime() + HOUR_SECONDS * 1000 - now.getTime()) / 1000;
      return tooManyCodes(identityMessages.hourlyCodeCap(Math.max(1, Math.ceil(wait / 60))), wait, 'hourlyCodeCap');
    }
    await replaceOpenChallenges(tx, account.id, now);
    await insertChallenge(tx, {
      id: challengeId,
      userId: account.id,
      tenantId: account.tenantId,
      codeHash: signInCodeHash(ctx.codeKey, challengeId, code),
      createdAt: now,
      expiresAt,
    });
    await pruneChallenges(tx, account.id, addSeconds(now, -2 * HOUR_SECONDS));
    return undefined;
  });
  if (refusal) throw refusal;

  const language = pickMailLanguage(account.preferredLanguage, meta.acceptLanguage);
  ctx.mail.dispatch(
    accountMail('signInCode', language, { email: account.email, name: account.firstName }, { code, minutes: Math.round(limits.lifetimeSeconds / 60) }),
  );
  return {
    token: await ctx.jwt.signChallengeToken({ challengeId, userId: account.id, tenantId: account.tenantId }, now, expiresAt),
    otpExpiresAt: expiresAt.toISOString(),
    resendAfterSeconds: limits.resendCooldownSeconds,
  };
}

const codeRefused = (message: string, reason: string, extra: Record<string, unknown> = {}) => new AppError(401, message, { extra: { reason, ...extra } });

/**
 * The code step: the challenge token must be valid and name this e-mail; the code must be the
 * newest of the account, unexpired, unused and have fewer than 5 wrong tries. A right code is
 * consumed atomically (single use) and starts a session.
 */
export async function verifySignInCode(
  ctx: IdentityContext,
  meta: RequestMeta,
  input: { email: string; enteredOTP: string; token: string },
): Promise<TokenPair> {
  const now = ctx.clock.now();
  const limits = identityLimits.code;
  let claims;
  try {
    claims = await ctx.jwt.verifyChallengeToken(input.token, now);
  } catch (error) {
    if (error instanceof InvalidTokenError && error.reason === 'expired') {
      throw codeRefused(identityMessages.codeExpired, 'codeExpired');
    }
    throw codeRefused(identityMessages.invalidChallenge, 'invalidChallenge');
  }
  const challenge = await findChallenge(ctx.db, claims.challengeId);
  if (
    !challenge ||
    challenge.userId !== claims.userId ||
    challenge.tenantId !== claims.tenantId ||
    challenge.email.toLowerCase() !== input.email.trim().toLowerCase()
  ) {
    throw codeRefused(identityMessages.invalidChallenge, 'invalidChallenge');
  }
  const fail = async (reason: LoginFailureReason, error: AppError) => {
    await recordFailure(ctx, { ...meta, tenantId: challenge.tenantId }, challenge.email, challenge.userId, reason, now);
    return error;
  };
  if (challenge.consumedAt) throw await fail('usedCode', codeRefused(identityMessages.codeUsed, 'codeUsed'));
  if (challenge.replacedAt) throw await fail('replacedCode', codeRefused(identityMessages.codeReplaced, 'codeReplaced'));
  if (challenge.wrongAttempts >= limits.maxWrongAttempts) {
    throw await fail('codeAttemptsExceeded', codeRefused(identityMessages.codeAttemptsExceeded, 'codeAttemptsExceeded'));
  }
  if (challenge.expiresAt.getTime() <= now.getTime()) {
    throw await fail('expiredCode', codeRefused(identityMessages.codeExpired, 'codeExpired'));
  }

  const entered = input.enteredOTP.replace(/\s+/g, ''); // '042 917' as pasted from a mail client
  if (!constantTimeEqual(signInCodeHash(ctx.codeKey, challenge.id, entered), challenge.codeHash)) {
    const attempts = await registerWrongCode(ctx.db, challenge.id, limits.maxWrongAttempts);
    const remaining = attempts === undefined ? 0 : limits.maxWrongAttempts - attempts;
    const message = remaining > 0 ? identityMessages.codeWrong : `${identityMessages.codeWrong} ${identityMessages.codeAttemptsExceeded}`;
    throw await fail('invalidCode', codeRefused(message, 'codeWrong', { remainingAttempts: remaining }));
  }
  if (!(await consumeChallenge(ctx.db, challenge.id, now, limits.maxWrongAttempts))) {
    throw await fail('usedCode', codeRefused(identityMessages.codeUsed, 'codeUsed'));
  }

  const account = await findAccountByEmail(ctx.db, challenge.tenantId, challenge.email);
  if (!account || account.id !== challenge.userId || !account.isActive) {
    throw await fail('deactivated', new AppError(403, identityMessages.accountDeactivated, { extra: { reason: 'accountDeactivated' } }));
  }
  const session = await startSession(ctx, meta, account);
  await recordLoginEvent(ctx.db, {
    tenantId: account.tenantId,
    userId: account.id,
    email: account.email,
    event: 'login',
    ip: meta.ip,
    userAgent: meta.userAgent,
    at: now,
  });
  return session;
}

import { P } from '#machines/permissions.ts';
import { AppError, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { accountMail } from '#server/mail/account-mails.ts';
import { pickMailLanguage } from '#server/mail/mail-language.ts';
import { clientLink, clientRoutes, sameOriginPath } from '#server/mail/mail-links.ts';
import type { Principal } from '#server/plugins/access.ts';
import type { Mail } from '#server/plugins/mail.ts';
import {
  clearPasswordFailures,
  findAccountByEmail,
  findAccountById,
  findAccountsByIds,
  insertSelfRegisteredUser,
  isActiveTenant,
  isUserNameTaken,
  markEmailConfirmed,
  recordPasswordFailure,
  setFirstTimeLogin,
  setPassword,
  type Account,
} from './accounts-repository.ts';
import { consumeAccountToken, dropOpenPasswordTokens, findAccountToken, storeAccountToken, type AccountTokenPurpose } from './account-tokens-repository.ts';
import { addSeconds, type IdentityContext, type RequestMeta } from './identity-context.ts';
import { identityLimits } from './identity-limits.ts';
import { identityMessages } from './identity-messages.ts';
import type { AccessClaims } from './jwt-tokens.ts';
import { recordLoginEvent } from './login-history-repository.ts';
import { passwordMessages, passwordProblems } from './password-policy.ts';
import { endSessions, signAccessToken } from './sessions-service.ts';
import { randomToken, tokenHash } from './token-crypto.ts';
import { isWithinReach, usersBeyondReach } from './user-reach.ts';

/** Role and user type of self-registered accounts (docs/decisions/0030). */
export const SELF_REGISTERED_ROLE = 'Candidate';
export const SELF_REGISTERED_USER_TYPE = 'candidate';

const lifetimes: Record<AccountTokenPurpose, number> = {
  resetPassword: identityLimits.accountToken.resetPasswordSeconds,
  confirmEmail: identityLimits.accountToken.confirmEmailSeconds,
  invitation: identityLimits.accountToken.invitationSeconds,
};

async function newAccountToken(ctx: IdentityContext, userId: string, purpose: AccountTokenPurpose): Promise<string> {
  const now = ctx.clock.now();
  const token = randomToken(identityLimits.accountToken.bytes);
  await ctx.db.transaction((tx) =>
    storeAccountToken(tx, { hash: tokenHash(token), userId, purpose, createdAt: now, expiresAt: addSeconds(now, lifetimes[purpose]) }),
  );
  return token;
}

const languageOf = (account: Pick<Account, 'preferredLanguage'>, meta: RequestMeta) => pickMailLanguage(account.preferredLanguage, meta.acceptLanguage);

const recipient = (account: Pick<Account, 'email' | 'firstName'>) => ({ email: account.email, name: account.firstName });

/**
 * A new single-use token of `purpose` for the account (earlier ones stop working) and the mail
 * carrying its link: confirmation /confirm-email?tenant=&userId=&code= (24 h), invitation
 * /first-login?tenant=&email=&token= (72 h), reset /reset-password?tenant=&email=&token= (30 min).
 */
export async function sendAccountLink(
  ctx: IdentityContext,
  meta: RequestMeta,
  account: Account,
  purpose: AccountTokenPurpose,
  redirectUrl?: string,
): Promise<void> {
  const token = await newAccountToken(ctx, account.id, purpose);
  ctx.mail.dispatch(accountLinkMail(ctx, meta, account, purpose, token, redirectUrl));
}

/** Lifetime in seconds of each kind of account token. */
export const accountTokenLifetimes: Readonly<Record<AccountTokenPurpose, number>> = lifetimes;

/** The mail carrying an account token's link (also used by the bulk upload, which stores its tokens in batches). */
export function accountLinkMail(
  ctx: Pick<IdentityContext, 'config'>,
  meta: Pick<RequestMeta, 'acceptLanguage'>,
  account: Pick<Account, 'id' | 'tenantId' | 'email' | 'firstName' | 'preferredLanguage'>,
  purpose: AccountTokenPurpose,
  token: string,
  redirectUrl?: string,
): Mail {
  const base = ctx.config.publicUrl;
  const redirectPath = sameOriginPath(base, redirectUrl);
  const language = pickMailLanguage(account.preferredLanguage, meta.acceptLanguage);
  const to = recipient(account);
  const seconds = lifetimes[purpose];
  const byEmail = { tenant: account.tenantId, email: account.email, token, redirectUrl: redirectPath };
  switch (purpose) {
    case 'confirmEmail': {
      const params = { tenant: account.tenantId, userId: account.id, code: token, redirectUrl: redirectPath };
      return accountMail('confirmEmail', language, to, { link: clientLink(base, clientRoutes.confirmEmail, params), hours: seconds / 3600 });
    }
    case 'invitation':
      return accountMail('invitation', language, to, { link: clientLink(base, clientRoutes.firstLogin, byEmail), hours: seconds / 3600 });
    case 'resetPassword':
      return accountMail('resetPassword', language, to, { link: clientLink(base, clientRoutes.resetPassword, byEmail), minutes: seconds / 60 });
  }
}

const canUsePassword = (account: Account) => account.isActive && account.loginType === 'local';

/** POST /users/forgot-password: a reset link (30 min) when a local, active account exists; the same answer otherwise. */
export async function forgotPassword(ctx: IdentityContext, meta: RequestMeta, input: { email: string; redirectUrl?: string }) {
  const account = await findAccountByEmail(ctx.db, meta.tenantId, input.email);
  if (account && canUsePassword(account)) await sendAccountLink(ctx, meta, account, 'resetPassword', input.redirectUrl);
  return { message: identityMessages.forgotPasswordSent };
}

/** POST /users/resend-verification: a new confirmation link when the account still waits for one. */
export async function resendVerification(ctx: IdentityContext, meta: RequestMeta, input: { email: string; redirectUrl?: string }) {
  const account = await findAccountByEmail(ctx.db, meta.tenantId, input.email);
  if (account && account.isActive && !account.emailConfirmed) await sendAccountLink(ctx, meta, account, 'confirmEmail', input.redirectUrl);
  return { message: identityMessages.verificationSent };
}

/** POST /users/resendemailtofirsttime: a new invitation when the account has not chosen a password yet. */
export async function resendFirstTimeEmail(ctx: IdentityContext, meta: RequestMeta, input: { email: string; redirectUrl?: string }) {
  const account = await findAccountByEmail(ctx.db, meta.tenantId, input.email);
  if (account && canUsePassword(account) && account.isFirstTimeLogin) await sendAccountLink(ctx, meta, account, 'invitation', input.redirectUrl);
  return { message: identityMessages.invitationResent };
}

const invalidResetLink = () => new AppError(400, identityMessages.invalidResetLink, { extra: { reason: 'invalidToken' } });

/**
 * POST /users/reset-password: sets the password with a reset token (30 min) or, with
 * `isFirstTimeLogin`, an invitation token (72 h). The token works once; the link proved the
 * mailbox, so the e-mail counts as confirmed; every session ends and the lockout is lifted.
 */
export async function resetPassword(
  ctx: IdentityContext,
  meta: RequestMeta,
  input: { email: string; password: string; token: string; isFirstTimeLogin?: boolean },
) {
  const now = ctx.clock.now();
  const purpose: AccountTokenPurpose = input.isFirstTimeLogin ? 'invitation' : 'resetPassword';
  const hash = tokenHash(input.token);
  const stored = await findAccountToken(ctx.db, hash, purpose);
  const account = await findAccountByEmail(ctx.db, meta.tenantId, input.email);
  if (!stored || !account || stored.userId !== account.id || stored.usedAt || stored.expiresAt.getTime() <= now.getTime() || !canUsePassword(account)) {
    throw invalidResetLink();
  }
  const problems = await passwordProblems(input.password, account);
  if (problems.length) throw new ValidationFailure({ password: problems });
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    if (!(await consumeAccountToken(tx, hash, purpose, now))) throw invalidResetLink();
    await setPassword(tx, account.id, passwordHash, now, { confirmEmail: true });
    await dropOpenPasswordTokens(tx, account.id);
    await endSessions(tx, account.id, 'passwordReset', now, { bumpVersion: false });
    await clearPasswordFailures(tx, account.id);
  });
  return { message: identityMessages.passwordReset };
}

/** GET /users/confirm-email: the link of the confirmation mail (24 h, single use). */
export async function confirmEmail(ctx: IdentityContext, input: { tenant: string; userId: string; code: string }) {
  const now = ctx.clock.now();
  const hash = tokenHash(input.code);
  const stored = await findAccountToken(ctx.db, hash, 'confirmEmail');
  const account = stored ? await findAccountById(ctx.db, input.tenant, input.userId) : undefined;
  if (!stored || !account || stored.userId !== account.id) {
    throw new AppError(400, identityMessages.invalidConfirmationLink, { extra: { reason: 'invalidToken' } });
  }
  if (stored.usedAt && account.emailConfirmed) return { message: identityMessages.emailAlreadyConfirmed };
  const confirmed = await ctx.db.transaction(async (tx) => {
    if (!(await consumeAccountToken(tx, hash, 'confirmEmail', now))) return false;
    await markEmailConfirmed(tx, account.id, now);
    return true;
  });
  if (!confirmed) throw new AppError(400, identityMessages.invalidConfirmationLink, { extra: { reason: 'invalidToken' } });
  return { message: identityMessages.emailConfirmed };
}

/**
 * POST /users/change-password: the caller's own password, proven by the current one. Wrong
 * current passwords count towards the lockout like sign-in failures. Every other session ends;
 * the caller's session continues with the access token returned here.
 */
export async function changePassword(
  ctx: IdentityContext,
  meta: RequestMeta,
  caller: { principal: Principal; token: AccessClaims },
  input: { userId: string; currentPassword: string; newPassword: string; confirmNewPassword: string },
) {
  const now = ctx.clock.now();
  if (input.userId !== caller.principal.userId) throw forbidden(identityMessages.changeOwnPasswordOnly);
  const account = await findAccountById(ctx.db, caller.principal.tenantId, caller.principal.userId);
  if (!account) throw notFound(identityMessages.userNotFound);
  if (account.loginType !== 'local') throw ValidationFailure.field('newPassword', identityMessages.directoryPassword);

  const locked = account.lockedUntil !== null && account.lockedUntil.getTime() > now.getTime();
  const verified = !locked && (await ctx.verifiers.local.verify({ ...account, userId: account.id }, input.currentPassword));
  if (!verified) {
    if (!locked) await recordPasswordFailure(ctx.db, account.id, now, identityLimits.lockout);
    throw ValidationFailure.field('currentPassword', identityMessages.currentPasswordWrong);
  }
  if (account.consecutiveFailures > 0 || account.lockedUntil) await clearPasswordFailures(ctx.db, account.id);

  const errors: Record<string, string[]> = {};
  const problems = await passwordProblems(input.newPassword, account);
  if (problems.length) errors.newPassword = problems;
  else if (input.newPassword === input.currentPassword) errors.newPassword = [passwordMessages.sameAsCurrent];
  if (input.newPassword !== input.confirmNewPassword) errors.confirmNewPassword = [passwordMessages.mismatch];
  if (Object.keys(errors).length) throw new ValidationFailure(errors);

  const passwordHash = await hashPassword(input.newPassword);
  const tokenVersion = await ctx.db.transaction(async (tx) => {
    const version = await setPassword(tx, account.id, passwordHash, now, { confirmEmail: false });
    await dropOpenPasswordTokens(tx, account.id);
    await endSessions(tx, account.id, 'passwordChanged', now, { exceptFamilyId: caller.token.sessionId, bumpVersion: false });
    return version;
  });
  ctx.mail.dispatch(
    accountMail('passwordChanged', languageOf(account, meta), recipient(account), {
      forgotPasswordLink: clientLink(ctx.config.publicUrl, clientRoutes.forgotPassword, {
        tenant: account.tenantId,
        email: account.email,
      }),
    }),
  );
  const token = await signAccessToken(ctx, { ...account, tokenVersion, isFirstTimeLogin: false }, caller.token.sessionId, now);
  return { message: identityMessages.passwordChanged, token };
}

/**
 * POST /users/{userId}/invalidatepermission (logout): revokes every refresh family of the user
 * and bumps the token version, so every tab and device is signed out. Only oneself, unless
 * the caller may update users.
 */
export async function logout(ctx: IdentityContext, meta: RequestMeta, principal: Principal, userId: string) {
  const now = ctx.clock.now();
  const isSelf = userId === principal.userId;
  // Another user: Users.Update, in the caller's scope and within reach (issue 23 rule 2). Anything
  // else answers exactly as an unknown id, so the route cannot be used to learn which ids exist.
  const [account] =
    isSelf || principal.permissions.has(P.Users.Update)
      ? await findAccountsByIds(ctx.db, principal.tenantId, [userId], {
          instituteId: isSelf ? null : principal.instituteId,
          resellerId: isSelf ? null : principal.resellerId,
        })
      : [];
  if (!account || !(await isWithinReach(ctx.db, principal, account.id))) throw notFound(identityMessages.userNotFound);
  await ctx.db.transaction((tx) => endSessions(tx, account.id, 'logout', now));
  await recordLoginEvent(ctx.db, {
    tenantId: account.tenantId,
    userId: account.id,
    email: account.email,
    event: 'logout',
    ip: meta.ip,
    userAgent: meta.userAgent,
    at: now,
  });
  return { message: identityMessages.signedOut };
}

export interface SelfRegistration {
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  password: string;
  confirmPassword: string;
  phoneNumber?: string;
  dateOfBirth?: string;
  redirectUrl?: string;
}

/**
 * POST /users/self-register: a Candidate with an unconfirmed e-mail, and the confirmation mail.
 * The answer never tells whether the e-mail already has an account: its owner gets a mail
 * instead (a new confirmation link, or "you already have an account").
 */
export async function selfRegister(ctx: IdentityContext, meta: RequestMeta, input: SelfRegistration) {
  const now = ctx.clock.now();
  if (!(await isActiveTenant(ctx.db, meta.tenantId))) throw new AppError(400, identityMessages.unknownTenant);
  const owner = { firstName: input.firstName, lastName: input.lastName, userName: input.userName, email: input.email };
  const errors: Record<string, string[]> = {};
  const problems = await passwordProblems(input.password, owner);
  if (problems.length) errors.password = problems;
  if (input.password !== input.confirmPassword) errors.confirmPassword = [passwordMessages.mismatch];
  if (input.dateOfBirth) {
    if (input.dateOfBirth > now.toISOString().slice(0, 10)) errors.dateOfBirth = [identityMessages.dateOfBirthInFuture];
    else if (input.dateOfBirth < '1900-01-01') errors.dateOfBirth = [identityMessages.dateOfBirthTooEarly];
  }
  // Checked before the e-mail, whoever owns it, so this answer says nothing about the e-mail.
  if (await isUserNameTaken(ctx.db, meta.tenantId, input.userName)) errors.userName = [identityMessages.userNameTaken];
  if (Object.keys(errors).length) throw new ValidationFailure(errors);

  const existing = await findAccountByEmail(ctx.db, meta.tenantId, input.email);
  if (existing) {
    await notifyExistingAccount(ctx, meta, existing, input.redirectUrl);
    return { message: identityMessages.registered };
  }
  const passwordHash = await hashPassword(input.password);
  let userId: string;
  try {
    userId = await ctx.db.transaction((tx) =>
      insertSelfRegisteredUser(tx, {
        tenantId: meta.tenantId,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
        email: input.email.trim(),
        userName: input.userName.trim(),
        phoneNumber: input.phoneNumber?.trim() || null,
        dateOfBirth: input.dateOfBirth || null,
        passwordHash,
        preferredLanguage: pickMailLanguage(null, meta.acceptLanguage),
        userType: SELF_REGISTERED_USER_TYPE,
        roleName: SELF_REGISTERED_ROLE,
        now,
      }),
    );
  } catch (error) {
    // A concurrent registration won the unique index: answer as for an existing account.
    if ((error as { code?: string }).code !== '23505') throw error;
    if (await isUserNameTaken(ctx.db, meta.tenantId, input.userName)) {
      const raced = await findAccountByEmail(ctx.db, meta.tenantId, input.email);
      if (!raced || raced.userName.toLowerCase() !== input.userName.trim().toLowerCase()) {
        throw ValidationFailure.field('userName', identityMessages.userNameTaken);
      }
    }
    return { message: identityMessages.registered };
  }
  const account = await findAccountById(ctx.db, meta.tenantId, userId);
  if (account) await sendAccountLink(ctx, meta, account, 'confirmEmail', input.redirectUrl);
  return { message: identityMessages.registered };
}

async function notifyExistingAccount(ctx: IdentityContext, meta: RequestMeta, account: Account, redirectUrl?: string) {
  if (!account.isActive) return;
  if (!account.emailConfirmed) {
    await sendAccountLink(ctx, meta, account, 'confirmEmail', redirectUrl);
    return;
  }
  const base = ctx.config.publicUrl;
  ctx.mail.dispatch(
    accountMail('accountExists', languageOf(account, meta), recipient(account), {
      signInLink: clientLink(base, clientRoutes.signIn, { tenant: account.tenantId }),
      forgotPasswordLink: clientLink(base, clientRoutes.forgotPassword, { tenant: account.tenantId, email: account.email }),
    }),
  );
}

/**
 * POST /users/updatefirsttimelogin. Users who may update users set the flag for accounts in
 * their scope (true forces a new password at the next sign-in). For oneself, the flag is
 * cleared by choosing a password (change or reset), so a self call may only confirm `false`
 * once that happened; directory accounts, which have no local password, may clear it.
 */
export async function updateFirstTimeLogin(ctx: IdentityContext, principal: Principal, input: { userId: string; isFirstTimeLogin: boolean }) {
  const now = ctx.clock.now();
  const isSelf = input.userId === principal.userId;
  const mayUpdateUsers = principal.permissions.has(P.Users.Update);
  if (!isSelf && !mayUpdateUsers) throw forbidden(identityMessages.firstTimeLoginOthersForbidden);
  const [account] = await findAccountsByIds(ctx.db, principal.tenantId, [input.userId], {
    instituteId: isSelf ? null : principal.instituteId,
    resellerId: isSelf ? null : principal.resellerId,
  });
  if (!account) throw notFound(identityMessages.userNotFound);
  if (!isSelf && !(await isWithinReach(ctx.db, principal, account.id))) throw forbidden(identityMessages.beyondReach);
  if (isSelf && !mayUpdateUsers) {
    if (input.isFirstTimeLogin) throw forbidden(identityMessages.firstTimeLoginOthersForbidden);
    if (account.isFirstTimeLogin && account.loginType === 'local') {
      throw new AppError(409, identityMessages.firstTimeLoginNeedsPassword, { extra: { reason: 'passwordRequired' } });
    }
  }
  if (account.isFirstTimeLogin !== input.isFirstTimeLogin) await setFirstTimeLogin(ctx.db, account.id, input.isFirstTimeLogin, now);
  return { userId: account.id, isFirstTimeLogin: input.isFirstTimeLogin, message: identityMessages.firstTimeLoginUpdated };
}

export type InvitationOutcome = 'invitationSent' | 'confirmationSent' | 'nothingToSend' | 'notFound';

/**
 * POST /users/sendinvitationorconfirmation: for each user in the caller's tenant and scope,
 * an invitation when the account has not chosen a password yet, a confirmation link when
 * its e-mail is unconfirmed, nothing otherwise.
 */
export async function sendInvitationOrConfirmation(
  ctx: IdentityContext,
  meta: RequestMeta,
  principal: Principal,
  input: { userIds: string[]; redirectUrl?: string },
) {
  const ids = [...new Set(input.userIds.map((id) => id.toLowerCase()))];
  const accounts = await findAccountsByIds(ctx.db, principal.tenantId, ids, {
    instituteId: principal.instituteId,
    resellerId: principal.resellerId,
  });
  const beyondReach = await usersBeyondReach(
    ctx.db,
    principal,
    accounts.map((a) => a.id).filter((id) => id !== principal.userId),
  );
  // Users holding permissions the caller lacks are answered as unknown (issue 23 rule 1).
  const byId = new Map(accounts.filter((a) => !beyondReach.has(a.id)).map((a) => [a.id, a]));
  const results: Array<{ userId: string; outcome: InvitationOutcome }> = [];
  for (const userId of ids) {
    const account = byId.get(userId);
    let outcome: InvitationOutcome = 'notFound';
    if (account && !account.isActive) outcome = 'nothingToSend';
    else if (account && account.isFirstTimeLogin && account.loginType === 'local') {
      await sendAccountLink(ctx, meta, account, 'invitation', input.redirectUrl);
      outcome = 'invitationSent';
    } else if (account && !account.emailConfirmed) {
      await sendAccountLink(ctx, meta, account, 'confirmEmail', input.redirectUrl);
      outcome = 'confirmationSent';
    } else if (account) outcome = 'nothingToSend';
    results.push({ userId, outcome });
  }
  return { results };
}

/** The e-mail syntax this API accepts (the same rule as the `email` format of every schema). */
const emailPattern = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/**
 * POST /users/validateemail: whether an address is acceptable to this API (syntax and length),
 * normalised. It never says whether an account uses it (SECURITY.md "enumeration").
 */
export function validateEmail(email: string) {
  const normalised = email.trim().toLowerCase();
  const isValid = normalised.length <= 320 && emailPattern.test(normalised);
  return { email: normalised, isValid, message: isValid ? identityMessages.validEmail : identityMessages.invalidEmail };
}

/**
 * For user administrators (Users.Create / Users.Update, who learn it from a save anyway): whether
 * no other user of their tenant has this address (issue 23, docs/decisions/0282).
 */
export async function emailAvailability(ctx: IdentityContext, tenantId: string, verdict: ReturnType<typeof validateEmail>, exceptUserId?: string) {
  const { rows } = await ctx.db.query<{ n: number }>(
    `select count(*)::int as n from users where tenant_id = $1 and lower(email) = $2 and ($3::uuid is null or id <> $3::uuid)`,
    [tenantId, verdict.email, exceptUserId?.toLowerCase() ?? null],
  );
  const isAvailable = rows[0].n === 0;
  return { ...verdict, isAvailable, message: isAvailable ? identityMessages.availableEmail : identityMessages.takenEmail };
}

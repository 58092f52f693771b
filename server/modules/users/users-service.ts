import { AppError, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { P } from '#machines/permissions.ts';
import type { Principal } from '#server/plugins/access.ts';
import { findAccountById } from '#server/modules/identity/accounts-repository.ts';
import { sendAccountLink } from '#server/modules/identity/account-service.ts';
import type { IdentityContext, RequestMeta } from '#server/modules/identity/identity-context.ts';
import { recordLoginEvent } from '#server/modules/identity/login-history-repository.ts';
import { passwordMessages, passwordProblems } from '#server/modules/identity/password-policy.ts';
import { endSessions } from '#server/modules/identity/sessions-service.ts';
import { isWithinReach } from '#server/modules/identity/user-reach.ts';
import type { DirectoryService } from './users-directory.ts';
import * as repo from './users-repository.ts';
import type { CreateUserBody, EditUserBody } from './users-schemas.ts';

export const DEFAULT_ROLE = 'Candidate';

export const usersMessages = {
  userNotFound: 'The user was not found.',
  emailTaken: 'An account with this e-mail address already exists.',
  userNameTaken: 'This user name is already taken.',
  roleNotFound: 'The role was not found.',
  roleNotGrantable: 'You cannot grant or remove a role that has permissions you do not have.',
  ownRoles: 'You cannot change your own roles.',
  ownStatus: 'You cannot deactivate your own account.',
  ownEmailStatus: 'You cannot confirm or unconfirm your own e-mail address.',
  beyondReach: 'You cannot manage a user who holds permissions you do not have.',
  outsideScope: 'You can only manage users of your own institute or reseller.',
  passwordOrInvitation: 'Set a password (with confirmPassword) or send an invitation.',
  emailRequired: 'The email field is required.',
  directoryImportForbidden: 'Importing directory users needs the permission Permissions.DirectoryUsers.Import.',
  directoryUserNotFound: 'No directory user has this user name.',
  directoryNoEmail: 'The directory entry has no e-mail address; send the email field.',
  directoryNoPassword: 'Directory users sign in with their directory password; do not send a password.',
  dateOfBirthInFuture: 'The date of birth cannot be in the future.',
  dateOfBirthTooEarly: 'The date of birth must be after 1900-01-01.',
  bodyUserIdMismatch: 'The userId in the body must match the id in the path.',
  userActivated: 'The user has been activated.',
  userDeactivated: 'The user has been deactivated and signed out everywhere.',
  emailConfirmed: 'The e-mail address is now confirmed.',
  emailUnconfirmed: 'The e-mail address is now unconfirmed.',
  rolesUpdated: 'The roles have been updated.',
} as const;

export interface UsersDeps {
  identity: IdentityContext;
  directory: DirectoryService | undefined;
}

export const scopeOf = (p: Principal): repo.UserScope => ({ tenantId: p.tenantId, instituteId: p.instituteId, resellerId: p.resellerId });

/** A user of the caller's tenant and scope, or 404 (never 403: that would confirm the user exists elsewhere). */
export async function loadInScope(deps: UsersDeps, p: Principal, userId: string): Promise<repo.UserRow> {
  const user = await repo.findUser(deps.identity.db, scopeOf(p), userId);
  if (!user) throw notFound(usersMessages.userNotFound);
  return user;
}

/**
 * A user the caller may manage: in tenant and scope (else 404) and holding no permission the
 * caller lacks (else 403; issue 23 rule 1, see identity/user-reach.ts).
 */
export async function loadManageable(deps: UsersDeps, p: Principal, userId: string): Promise<repo.UserRow> {
  const user = await loadInScope(deps, p, userId);
  if (!(await isWithinReach(deps.identity.db, p, user.id))) throw forbidden(usersMessages.beyondReach);
  return user;
}

export function toUserDto(row: repo.UserRow) {
  return { ...row, createdOn: new Date(row.createdOn).toISOString() };
}

function checkDateOfBirth(errors: Record<string, string[]>, dateOfBirth: string | null | undefined, now: Date) {
  if (!dateOfBirth) return;
  if (dateOfBirth > now.toISOString().slice(0, 10)) errors.dateOfBirth = [usersMessages.dateOfBirthInFuture];
  else if (dateOfBirth < '1900-01-01') errors.dateOfBirth = [usersMessages.dateOfBirthTooEarly];
}

/**
 * The scope a new user gets: a scoped administrator's own institute / reseller (naming
 * another one is refused); an unscoped one may choose.
 */
export function scopeForNewUser(p: Principal, wanted: { instituteId?: string | null; resellerId?: string | null }) {
  const pick = (own: string | null, asked: string | null | undefined, field: string) => {
    if (own === null) return asked ?? null;
    if (asked && asked.toLowerCase() !== own.toLowerCase()) throw ValidationFailure.field(field, usersMessages.outsideScope);
    return own;
  };
  return { instituteId: pick(p.instituteId, wanted.instituteId, 'instituteId'), resellerId: pick(p.resellerId, wanted.resellerId, 'resellerId') };
}

/**
 * A role the caller may hand out or take away: one of the tenant's roles whose permissions
 * the caller holds, so nobody grants more than they have (no escalation through roles).
 */
export function assertGrantable(p: Principal, role: { permissions: readonly string[] }) {
  if (!role.permissions.every((permission) => p.permissions.has(permission))) throw forbidden(usersMessages.roleNotGrantable);
}

async function roleForNewUser(deps: UsersDeps, p: Principal, roleId: string | null | undefined) {
  const roles = await repo.tenantRoles(deps.identity.db, p.tenantId);
  const role = roleId ? roles.find((r) => r.id === roleId.toLowerCase()) : roles.find((r) => r.name === DEFAULT_ROLE);
  if (!role) throw ValidationFailure.field('roleId', usersMessages.roleNotFound);
  assertGrantable(p, role);
  return role;
}

/**
 * POST /users. Local users get a password now (policy checked, e-mail to confirm) or, with
 * isSendInvitation, an invitation to choose one (the invitation link confirms the e-mail).
 * Directory users are looked up in the directory by user name and sign in with their
 * directory password; the directory vouches for their e-mail.
 */
export async function createUser(deps: UsersDeps, meta: RequestMeta, p: Principal, body: CreateUserBody) {
  const { db, clock } = deps.identity;
  const now = clock.now();
  const loginType = body.loginType ?? 'local';
  const errors: Record<string, string[]> = {};
  let email = body.email?.trim();
  let firstName = body.firstName?.trim() ?? '';
  let lastName = body.lastName?.trim() ?? '';
  const userName = body.userName.trim();

  if (loginType === 'directory') {
    if (!p.permissions.has(P.DirectoryUsers.Import)) throw forbidden(usersMessages.directoryImportForbidden);
    if (body.password || body.confirmPassword) throw ValidationFailure.field('password', usersMessages.directoryNoPassword);
    const directory = requireDirectory(deps);
    const entry = await directory.findUser(userName);
    if (!entry) throw ValidationFailure.field('userName', usersMessages.directoryUserNotFound);
    email = email || entry.email || undefined;
    firstName = firstName || entry.firstName || '';
    lastName = lastName || entry.lastName || '';
    if (!email) throw ValidationFailure.field('email', usersMessages.directoryNoEmail);
  } else {
    if (!email) errors.email = [usersMessages.emailRequired];
    if (!firstName) errors.firstName = ['The firstName field is required.'];
    if (!lastName) errors.lastName = ['The lastName field is required.'];
    if (!body.isSendInvitation) {
      if (!body.password) errors.password = [usersMessages.passwordOrInvitation];
      else {
        const problems = await passwordProblems(body.password, { firstName, lastName, userName, email });
        if (problems.length) errors.password = problems;
        if (body.password !== body.confirmPassword) errors.confirmPassword = [passwordMessages.mismatch];
      }
    }
  }
  checkDateOfBirth(errors, body.dateOfBirth, now);
  const taken = await repo.takenIdentifiers(db, p.tenantId, email ? [email] : [], [userName]);
  if (email && taken.emails.size) errors.email = [usersMessages.emailTaken];
  if (taken.userNames.size) errors.userName = [usersMessages.userNameTaken];
  if (Object.keys(errors).length) throw new ValidationFailure(errors);

  const role = await roleForNewUser(deps, p, body.roleId);
  const scope = scopeForNewUser(p, body);
  const invite = loginType === 'local' && body.isSendInvitation === true;
  const passwordHash = loginType === 'local' && !invite ? await hashPassword(body.password!) : null;
  let id: string;
  try {
    id = await db.transaction((tx) =>
      repo.insertUser(tx, {
        tenantId: p.tenantId,
        firstName,
        lastName,
        email: email!,
        userName,
        phoneNumber: body.phoneNumber?.trim() || null,
        dateOfBirth: body.dateOfBirth || null,
        passwordHash,
        loginType,
        userType: body.userType ?? null,
        resellerId: scope.resellerId,
        instituteId: scope.instituteId,
        emailConfirmed: loginType === 'directory',
        isFirstTimeLogin: loginType === 'local' && (invite || (body.isFirstTimeLogin ?? true)),
        roleIds: [role.id],
        now,
      }),
    );
  } catch (error) {
    // Two creations racing for one e-mail or user name: the unique index decides.
    if ((error as { code?: string }).code === '23505') throw new ValidationFailure({ email: [usersMessages.emailTaken] });
    throw error;
  }
  if (loginType === 'local') {
    const account = (await findAccountById(db, p.tenantId, id))!;
    await sendAccountLink(deps.identity, meta, account, invite ? 'invitation' : 'confirmEmail', body.redirectUrl);
  }
  return toUserDto((await repo.findUser(db, scopeOf(p), id))!);
}

export function requireDirectory(deps: UsersDeps): DirectoryService {
  if (!deps.directory) {
    throw new AppError(
      400,
      'The enterprise directory is not configured. Set LDAP_URL (with LDAP_BIND_DN, LDAP_BIND_PASSWORD and LDAP_BASE_DN) on the server.',
      {
        extra: { reason: 'directoryNotConfigured' },
      },
    );
  }
  return deps.directory;
}

/** PUT /users/edituser: profile fields only (SECURITY.md: generic updates cannot set role, tenant, scope or status). */
export async function editUser(deps: UsersDeps, meta: RequestMeta, p: Principal, body: EditUserBody) {
  const { db, clock } = deps.identity;
  const now = clock.now();
  const userId = body.id ?? body.userId;
  if (!userId) throw ValidationFailure.field('id', 'The id field is required.');
  if (body.id && body.userId && body.id.toLowerCase() !== body.userId.toLowerCase()) throw ValidationFailure.field('userId', usersMessages.bodyUserIdMismatch);
  const user = await loadManageable(deps, p, userId);
  const errors: Record<string, string[]> = {};
  checkDateOfBirth(errors, body.dateOfBirth, now);
  const email = body.email?.trim();
  const userName = body.userName?.trim();
  const emailChanged = email !== undefined && email.toLowerCase() !== user.email.toLowerCase();
  if (emailChanged && user.loginType === 'directory') errors.email = ['The e-mail of a directory user comes from the directory.'];
  // The user name is how the directory entry is found at sign-in.
  if (userName && user.loginType === 'directory' && userName.toLowerCase() !== user.userName.toLowerCase()) {
    errors.userName = ['The user name of a directory user is the directory user name and cannot change.'];
  }
  const taken = await repo.takenIdentifiers(db, p.tenantId, emailChanged ? [email] : [], userName ? [userName] : [], user.id);
  if (taken.emails.size) errors.email = [usersMessages.emailTaken];
  if (taken.userNames.size) errors.userName = [usersMessages.userNameTaken];
  if (Object.keys(errors).length) throw new ValidationFailure(errors);
  try {
    await repo.updateProfile(
      db,
      user.id,
      {
        firstName: body.firstName?.trim(),
        lastName: body.lastName?.trim(),
        email: emailChanged ? email : undefined,
        userName,
        phoneNumber: body.phoneNumber === undefined ? undefined : body.phoneNumber?.trim() || null,
        dateOfBirth: body.dateOfBirth === undefined ? undefined : body.dateOfBirth || null,
        preferredLanguage: body.preferredLanguage,
        emailConfirmed: emailChanged ? false : undefined,
      },
      now,
    );
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new ValidationFailure({ email: [usersMessages.emailTaken] });
    throw error;
  }
  if (emailChanged) {
    const account = (await findAccountById(db, p.tenantId, user.id))!;
    await sendAccountLink(deps.identity, meta, account, 'confirmEmail');
  }
  return toUserDto((await repo.findUser(db, scopeOf(p), user.id))!);
}

/** GET /users/{id}/roles: every role of the tenant, `enabled` when the user has it. */
export async function userRoles(deps: UsersDeps, p: Principal, userId: string) {
  const user = await loadInScope(deps, p, userId);
  const has = await repo.roleIdsOf(deps.identity.db, user.id);
  const roles = await repo.tenantRoles(deps.identity.db, p.tenantId);
  return roles.map((r) => ({ roleId: r.id, roleName: r.name, description: r.description, enabled: has.has(r.id) }));
}

/** GET /users/{id}/activeroles: the roles the user has. Oneself always; others need UserRoles.View and scope. */
export async function activeRoles(deps: UsersDeps, p: Principal, userId: string) {
  if (userId.toLowerCase() !== p.userId && !p.permissions.has(P.UserRoles.View)) throw notFound(usersMessages.userNotFound);
  const user = userId.toLowerCase() === p.userId ? { id: p.userId } : await loadInScope(deps, p, userId);
  const has = await repo.roleIdsOf(deps.identity.db, user.id);
  const roles = await repo.tenantRoles(deps.identity.db, p.tenantId);
  return roles.filter((r) => has.has(r.id)).map((r) => ({ roleId: r.id, roleName: r.name, description: r.description }));
}

/**
 * POST /users/{id}/roles {userRoles}: enables and disables the listed roles. Nobody changes
 * their own roles, and only roles within the caller's own permissions can be given or taken.
 * Permissions are read per request, so the change applies to the user's next call.
 */
export async function setRoles(deps: UsersDeps, p: Principal, userId: string, entries: Array<{ roleId: string; enabled: boolean }>) {
  const user = await loadInScope(deps, p, userId);
  if (user.id === p.userId) throw forbidden(usersMessages.ownRoles);
  if (!(await isWithinReach(deps.identity.db, p, user.id))) throw forbidden(usersMessages.beyondReach);
  const roles = new Map((await repo.tenantRoles(deps.identity.db, p.tenantId)).map((r) => [r.id, r]));
  const current = await repo.roleIdsOf(deps.identity.db, user.id);
  const add: string[] = [];
  const remove: string[] = [];
  for (const entry of entries) {
    const role = roles.get(entry.roleId.toLowerCase());
    if (!role) throw ValidationFailure.field('userRoles', `${usersMessages.roleNotFound} (${entry.roleId})`);
    if (entry.enabled === current.has(role.id)) continue;
    assertGrantable(p, role);
    (entry.enabled ? add : remove).push(role.id);
  }
  await deps.identity.db.transaction((tx) => repo.setUserRoles(tx, user.id, add, remove));
  return { message: usersMessages.rolesUpdated, userId: user.id, roles: await userRoles(deps, p, user.id) };
}

/** POST /users/{id}/toggle-status: deactivation ends every session of the user at once. */
export async function toggleStatus(deps: UsersDeps, meta: RequestMeta, p: Principal, userId: string, activate: boolean) {
  const { db, clock } = deps.identity;
  const now = clock.now();
  const user = await loadInScope(deps, p, userId);
  // Never one's own activation, in either direction.
  if (user.id === p.userId) throw conflict(usersMessages.ownStatus, { reason: 'ownAccount' });
  if (!(await isWithinReach(db, p, user.id))) throw forbidden(usersMessages.beyondReach);
  if (user.isActive !== activate) {
    await db.transaction(async (tx) => {
      await repo.setActive(tx, user.id, activate, now);
      if (!activate) await endSessions(tx, user.id, 'sessionsEnded', now);
    });
    if (!activate) {
      await recordLoginEvent(db, {
        tenantId: p.tenantId,
        userId: user.id,
        email: user.email,
        event: 'sessionRevoked',
        reason: 'deactivated',
        ip: meta.ip,
        userAgent: meta.userAgent,
        at: now,
      });
    }
  }
  return {
    userId: user.id,
    isActive: activate,
    emailConfirmed: user.emailConfirmed,
    message: activate ? usersMessages.userActivated : usersMessages.userDeactivated,
  };
}

/** POST /users/{id}/toggle-email-status. */
export async function toggleEmailStatus(deps: UsersDeps, p: Principal, userId: string, confirmed: boolean) {
  const user = await loadInScope(deps, p, userId);
  // Confirming one's own (possibly just changed) address would skip the mailed proof of owning it.
  if (user.id === p.userId) throw forbidden(usersMessages.ownEmailStatus);
  if (!(await isWithinReach(deps.identity.db, p, user.id))) throw forbidden(usersMessages.beyondReach);
  if (user.emailConfirmed !== confirmed) await repo.setEmailConfirmed(deps.identity.db, user.id, confirmed, deps.identity.clock.now());
  return {
    userId: user.id,
    isActive: user.isActive,
    emailConfirmed: confirmed,
    message: confirmed ? usersMessages.emailConfirmed : usersMessages.emailUnconfirmed,
  };
}

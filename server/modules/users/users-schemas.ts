import { Type, type Static } from 'typebox';
import { PagedResult, searchRequestProperties } from '#server/lib/paging.ts';
import { Email, NewPassword, RedirectUrl } from '#server/modules/identity/identity-schemas.ts';

/**
 * Request and response schemas of spec §7 "Users and roles", "Bulk upload and export",
 * "User languages" and "Login history". They are the OpenAPI document the client reads.
 */

/**
 * true, false or null ("any"). One JSON-schema type list rather than a union: with type
 * coercion on, a union would turn null into false (or false into null); a list coerces only
 * when the value matches none of its types.
 */
const BooleanOrAny = (description: string) => Type.Unsafe<boolean | null>({ type: ['boolean', 'null'], description });

export const Uuid = Type.String({ format: 'uuid' });
const NullableUuid = Type.Optional(Type.Union([Uuid, Type.Null()]));
const Name = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
const Timestamp = Type.String({ format: 'date-time' });
const DateOnly = Type.String({ format: 'date', description: 'yyyy-mm-dd' });
const Phone = Type.String({ maxLength: 32, pattern: '^[0-9+()\\- .]*$', description: 'Digits, spaces and + ( ) - .' });
const UserNameText = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\s<>"\'`]+$',
  description: 'Unique in the tenant (case-insensitive); no spaces.',
});
export const LoginType = Type.Union([Type.Literal('local'), Type.Literal('directory')], {
  description: 'local: password kept here; directory: the password is checked by an LDAP bind against the directory.',
});
const UserType = Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9_-]*$', description: 'e.g. platform, reseller, institute, candidate' });

export const IdParams = Type.Object({ id: Uuid });

export const RoleRef = Type.Object({ roleId: Uuid, roleName: Type.String() });

export const UserDetail = Type.Object(
  {
    id: Uuid,
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    userName: Type.String(),
    phoneNumber: Type.Union([Type.String(), Type.Null()]),
    dateOfBirth: Type.Union([Type.String(), Type.Null()]),
    loginType: LoginType,
    userType: Type.Union([Type.String(), Type.Null()]),
    resellerId: Type.Union([Uuid, Type.Null()]),
    instituteId: Type.Union([Uuid, Type.Null()]),
    isActive: Type.Boolean(),
    emailConfirmed: Type.Boolean(),
    isFirstTimeLogin: Type.Boolean(),
    preferredLanguage: Type.Union([Type.String(), Type.Null()]),
    roles: Type.Array(RoleRef),
    createdOn: Timestamp,
  },
  { description: 'A user as the administration screens show it (never a password or hash).' },
);

export const UserSearchBody = Type.Object(
  {
    ...searchRequestProperties,
    isActive: Type.Optional(BooleanOrAny('Status filter; null means any')),
    emailConfirmed: Type.Optional(BooleanOrAny('E-mail confirmed filter; null means any')),
    roleId: NullableUuid,
    loginType: Type.Optional(Type.Union([LoginType, Type.Null()])),
  },
  {
    description:
      'keyword (or advancedSearch.keyword) matches first name, last name, e-mail and user name; advancedSearch.fields narrows it to ' +
      'firstName, lastName, email, userName or phoneNumber. orderBy: firstName, lastName, email, userName, createdOn, isActive, emailConfirmed.',
  },
);
export type UserSearchBody = Static<typeof UserSearchBody>;
export const UserPage = PagedResult(UserDetail, 'One page of users; totalCount counts every row that matches the filters.');

export const CreateUserBody = Type.Object(
  {
    firstName: Type.Optional(Name('First name (required for local users)')),
    lastName: Type.Optional(Name('Last name (required for local users)')),
    email: Type.Optional(Email),
    userName: UserNameText,
    password: Type.Optional(NewPassword),
    confirmPassword: Type.Optional(Type.String({ maxLength: 1024 })),
    phoneNumber: Type.Optional(Type.Union([Phone, Type.Null()])),
    dateOfBirth: Type.Optional(Type.Union([DateOnly, Type.Null()])),
    roleId: NullableUuid,
    loginType: Type.Optional(LoginType),
    isSendInvitation: Type.Optional(Type.Boolean({ description: 'Mail an invitation (72 h) to choose a password instead of setting one.' })),
    redirectUrl: RedirectUrl,
    isFirstTimeLogin: Type.Optional(Type.Boolean({ description: 'Ask for a new password at the first sign-in (default true when a password is set).' })),
    userType: Type.Optional(Type.Union([UserType, Type.Null()])),
    resellerId: NullableUuid,
    instituteId: NullableUuid,
  },
  {
    description:
      'The User entity of spec §3. Local users get either a password (password + confirmPassword) or, with isSendInvitation, an ' +
      'e-mailed invitation. loginType "directory" imports the directory entry named by userName (e-mail and names come from the ' +
      'directory when not given); it needs Permissions.DirectoryUsers.Import. Without roleId the user gets the Candidate role. ' +
      'An administrator scoped to an institute or reseller creates users in that scope only.',
  },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const EditUserBody = Type.Object(
  {
    id: Type.Optional(Uuid),
    userId: Type.Optional(Uuid),
    firstName: Type.Optional(Name('First name')),
    lastName: Type.Optional(Name('Last name')),
    email: Type.Optional(Email),
    userName: Type.Optional(UserNameText),
    phoneNumber: Type.Optional(Type.Union([Phone, Type.Null()])),
    dateOfBirth: Type.Optional(Type.Union([DateOnly, Type.Null()])),
    preferredLanguage: Type.Optional(Type.Union([Type.String({ maxLength: 16 }), Type.Null()])),
  },
  {
    description:
      'Profile fields only (id or userId names the user). Roles, tenant, scope, status and e-mail confirmation are changed by their ' +
      'own calls and are ignored here. A changed e-mail becomes unconfirmed and gets a confirmation link.',
  },
);
export type EditUserBody = Static<typeof EditUserBody>;

export const UserRoleEntry = Type.Object({
  roleId: Uuid,
  roleName: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  enabled: Type.Boolean(),
});
export const UserRolesBody = Type.Object(
  { userRoles: Type.Array(UserRoleEntry, { maxItems: 100 }) },
  { description: 'Roles to enable or disable; roles not listed keep their state.' },
);
export const UserRoleList = Type.Array(Type.Object({ roleId: Uuid, roleName: Type.String(), description: Type.String(), enabled: Type.Boolean() }));
export const ActiveRoleList = Type.Array(Type.Object({ roleId: Uuid, roleName: Type.String(), description: Type.String() }));

export const UserIdsBody = Type.Object({ userIds: Type.Array(Uuid, { minItems: 1, maxItems: 100 }) });

export const ToggleStatusBody = Type.Object({ userId: Type.Optional(Uuid), activateUser: Type.Boolean() });
export const ToggleEmailBody = Type.Object({ userId: Type.Optional(Uuid), activateEmail: Type.Boolean() });
export const ToggleResult = Type.Object({
  userId: Uuid,
  isActive: Type.Boolean(),
  emailConfirmed: Type.Boolean(),
  message: Type.String(),
});

export const RoleSummary = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  isSystem: Type.Boolean(),
  permissions: Type.Array(Type.String()),
  userCount: Type.Integer(),
});
export const RolePage = PagedResult(RoleSummary);
export const RoleSearchBody = Type.Object(searchRequestProperties, { description: 'keyword matches the role name and description; orderBy: name, userCount.' });

// ---- login history -----------------------------------------------------------------------------

export const LoginHistorySearchBody = Type.Object({
  ...searchRequestProperties,
  userId: NullableUuid,
  event: Type.Optional(Type.Union([Type.Literal('login'), Type.Literal('loginFailed'), Type.Literal('logout'), Type.Literal('sessionRevoked'), Type.Null()])),
});
export type LoginHistorySearchBody = Static<typeof LoginHistorySearchBody>;
export const LoginHistoryRow = Type.Object({
  id: Uuid,
  userId: Type.Union([Uuid, Type.Null()]),
  email: Type.String(),
  userName: Type.Union([Type.String(), Type.Null()]),
  time: Timestamp,
  event: Type.String({ description: 'login, loginFailed, logout or sessionRevoked' }),
  outcome: Type.String({ description: 'success or failure' }),
  reason: Type.Union([Type.String(), Type.Null()]),
  ipAddress: Type.Union([Type.String(), Type.Null()]),
  userAgent: Type.Union([Type.String(), Type.Null()]),
});
export const LoginHistoryPage = PagedResult(LoginHistoryRow);

// ---- user languages ----------------------------------------------------------------------------

export const LanguageCode = Type.String({
  minLength: 2,
  maxLength: 35,
  pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
  description: 'A BCP 47 language tag, e.g. en-IN, hi, gu, fr',
});
export const UserLanguageBody = Type.Object({ userId: NullableUuid, languageCode: LanguageCode });
export const UserLanguageSearchBody = Type.Object({ userId: NullableUuid });
export const UserLanguage = Type.Object({ id: Uuid, userId: Uuid, languageCode: Type.String(), createdOn: Timestamp });

// ---- bulk upload and export --------------------------------------------------------------------

export const UploadQuery = Type.Object({ RedirectUrl: Type.Optional(Type.String({ maxLength: 2048 })) });
export const UploadAccepted = Type.Object({
  jobId: Uuid,
  fileName: Type.String(),
  state: Type.String(),
  message: Type.String(),
});
export const JobStatus = Type.Object({
  jobId: Uuid,
  fileName: Type.String(),
  state: Type.String({ description: 'queued, running, finished or failed' }),
  message: Type.Union([Type.String(), Type.Null()]),
  totalRows: Type.Integer(),
  processedRows: Type.Integer(),
  createdCount: Type.Integer(),
  failedCount: Type.Integer(),
  hasErrorFile: Type.Boolean(),
  uploadedBy: Type.Union([Uuid, Type.Null()]),
  createdOn: Timestamp,
  finishedOn: Type.Union([Timestamp, Type.Null()]),
});
export const JobStatusSearchBody = Type.Object({
  ...searchRequestProperties,
  jobId: NullableUuid,
  state: Type.Optional(Type.Union([Type.String({ maxLength: 16 }), Type.Null()])),
});
export const JobStatusPage = PagedResult(JobStatus);
export const ErrorFileBody = Type.Object({ jobId: Type.Optional(Uuid) });
export const ErrorFileQuery = Type.Object({ jobId: Type.Optional(Uuid) });
export const BinaryFile = Type.Any({ description: 'An .xlsx workbook (attachment)' });

// ---- directory ---------------------------------------------------------------------------------

export const DirectoryUser = Type.Object({
  userName: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  displayName: Type.Union([Type.String(), Type.Null()]),
  alreadyImported: Type.Boolean(),
});
export const DirectoryLookupQuery = Type.Object({ userName: Type.String({ minLength: 1, maxLength: 100 }) });
export const DirectorySearchBody = Type.Object({ ...searchRequestProperties });
export const DirectoryPage = PagedResult(DirectoryUser);

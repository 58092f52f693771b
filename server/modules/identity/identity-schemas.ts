import { Type } from 'typebox';
import { identityLimits } from './identity-limits.ts';

/**
 * Request and response schemas of the identity API. They validate requests, serialise
 * responses and are the OpenAPI document at /api/docs, so descriptions and examples here
 * are what the client engineer reads.
 */

const exampleToken = 'eyJhbGciOiJIUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl';

export const Email = Type.String({
  format: 'email',
  maxLength: 320,
  description: 'E-mail address of the account (compared case-insensitively).',
  examples: ['asha.patel@example.com'],
});

/** Sign-in compares exactly what was typed: no trimming, no truncation, no case folding. */
export const Password = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: 'The password, compared exactly as typed.',
  examples: ['lantern orbit velvet 42'],
});

export const NewPassword = Type.String({
  minLength: 1,
  maxLength: 1024,
  description:
    `A new password: ${identityLimits.password.minLength} to ${identityLimits.password.maxLength} characters, any characters, ` +
    'not a common or breached password, not containing the name, user name or e-mail, and not easy to guess. ' +
    'A refusal is a 400 with the reason under the field name.',
  examples: ['lantern orbit velvet 42'],
});

export const RedirectUrl = Type.Optional(
  Type.String({
    maxLength: 2048,
    description:
      'Where the client wants to land after the link is used. Only a path of this application (or an absolute URL on PUBLIC_URL) ' +
      'is kept, passed on as the `redirectUrl` parameter of the e-mailed link; anything else is ignored. Links always start with PUBLIC_URL.',
    examples: ['/exams'],
  }),
);

export const UserId = Type.String({ format: 'uuid', description: 'Id of the user.', examples: ['1b4e28ba-2fa1-11d2-883f-0016d3cca427'] });

export const TenantHeader = Type.Object({
  tenant: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,64}$',
      description: 'Chooses the tenant before sign-in (default `root`). Ignored once signed in: the token names the tenant.',
      examples: ['root'],
    }),
  ),
});

export const MessageResponse = Type.Object(
  { message: Type.String({ description: 'A sentence to show to the user.' }) },
  { description: 'The outcome, as a sentence to show.' },
);

export const ErrorResponse = Type.Object(
  {
    messages: Type.Array(Type.String()),
    source: Type.String({ examples: ['POST /api/tokens'] }),
    exception: Type.String(),
    errorId: Type.String({ format: 'uuid' }),
    supportMessage: Type.String(),
    statusCode: Type.Integer(),
    reason: Type.Optional(
      Type.String({
        description:
          'Machine-readable cause, for the client to choose a screen or a translation: invalidCredentials, accountDeactivated, ' +
          'emailNotConfirmed, invalidChallenge, codeWrong, codeExpired, codeUsed, codeReplaced, codeAttemptsExceeded, resendCooldown, ' +
          'hourlyCodeCap, invalidRefreshToken, refreshTokenReused, sessionEnded, sessionExpired, invalidToken, passwordRequired, rateLimited.',
      }),
    ),
    remainingAttempts: Type.Optional(Type.Integer({ description: 'Wrong codes still allowed before the code is burnt.' })),
    retryAfterSeconds: Type.Optional(Type.Integer({ description: 'Same value as the Retry-After header.' })),
  },
  { additionalProperties: true, description: 'The error body of the spec (§8).' },
);

export const ProblemDetailsResponse = Type.Object(
  {
    type: Type.String(),
    title: Type.String({ examples: ['One or more validation errors occurred.'] }),
    status: Type.Literal(400),
    errors: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'Messages per field, e.g. {"password": ["Passwords must be at least 12 characters long."]}',
    }),
    traceId: Type.String(),
  },
  { description: 'A field was refused (validation or password rules).' },
);

const errors = (codes: number[]) =>
  Object.fromEntries(codes.map((code) => [code, code === 400 ? Type.Union([ProblemDetailsResponse, ErrorResponse]) : ErrorResponse]));

/** Response schemas: the success body and the error bodies this route can answer with. */
export const responses = <T>(ok: T, codes: number[]) => ({ 200: ok, ...errors(codes) });

export const ChallengeResponse = Type.Object(
  {
    token: Type.String({
      description: 'Challenge token of this sign-in attempt (type sign-in-challenge+jwt): send it to /tokens/verifyotp. It is not an access token.',
      examples: [exampleToken],
    }),
    otpExpiresAt: Type.String({ format: 'date-time', description: 'When the e-mailed code expires (10 minutes).' }),
    resendAfterSeconds: Type.Integer({ description: 'Seconds before /tokens/resendotp is accepted (30).', examples: [30] }),
  },
  { description: 'The password was right: a 6-digit code has been e-mailed.' },
);

export const TokenPairResponse = Type.Object(
  {
    token: Type.String({
      description:
        'Access token (JWT, HS256, typ at+jwt, 15 minutes). Claims: the .NET claim types nameidentifier (user id), emailaddress, ' +
        'name (first name) and surname, plus fullName, userName, tenant, userType, resellerId, instituteId, isFirstTimeLogin, ' +
        'tokenVersion and sid (session).',
      examples: [exampleToken],
    }),
    refreshToken: Type.String({ description: 'Refresh token: works once, replaced on every refresh.', examples: ['q3Hn0W…'] }),
    refreshTokenExpiryTime: Type.String({
      format: 'date-time',
      description: 'Absolute end of the session (7 days after sign-in); refreshing never moves it.',
    }),
    preferredLanguage: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'On sign-in: the language the user chose (kept on the server); the client switches to it. Null: none chosen.',
      }),
    ),
  },
  { description: 'Signed in.' },
);

export const SignInBody = Type.Object({ email: Email, password: Password });

export const VerifyCodeBody = Type.Object({
  email: Email,
  enteredOTP: Type.String({ minLength: 1, maxLength: 32, description: 'The 6-digit code from the e-mail.', examples: ['042917'] }),
  token: Type.String({ minLength: 1, maxLength: 4096, description: 'The challenge token of /tokens or /tokens/resendotp.' }),
});

export const RefreshBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 8192, description: 'The last access token of the session (it may have expired).' }),
  refreshToken: Type.String({ minLength: 1, maxLength: 512, description: 'The current refresh token.' }),
});

export const UserIdParams = Type.Object({ userId: UserId });

export const LogoutBody = Type.Union([Type.Object({ userId: Type.Optional(UserId) }), Type.Null()], {
  description: 'Optional; when present, userId must match the path.',
});

export const PermissionsResponse = Type.Array(Type.String({ examples: ['Permissions.SupportTickets.Create'] }), {
  description: 'The permission strings of the caller (from all its roles), sorted.',
});

export const EmailAndRedirectBody = Type.Object({ email: Email, redirectUrl: RedirectUrl });

export const ValidateEmailQuery = Type.Object({
  email: Type.String({ maxLength: 1024, description: 'The address to check.', examples: ['asha.patel@example.com'] }),
  userId: Type.Optional(Type.String({ format: 'uuid', description: 'User administrators: the user being edited (their own address counts as available).' })),
});

export const ValidateEmailResponse = Type.Object(
  {
    email: Type.String({ description: 'The address trimmed and lower-cased.' }),
    isValid: Type.Boolean(),
    isAvailable: Type.Optional(Type.Boolean({ description: 'Only to callers with Users.Create or Users.Update: no other user of their tenant has it.' })),
    message: Type.String(),
  },
  { description: 'Whether the address is acceptable. To anonymous callers it never tells whether an account uses it.' },
);

export const ResetPasswordBody = Type.Object({
  email: Email,
  password: NewPassword,
  token: Type.String({ minLength: 1, maxLength: 256, description: 'The token of the reset or invitation link.' }),
  isFirstTimeLogin: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'true when the token comes from an invitation (/first-login link, 72 h); false for a reset link (30 min).',
    }),
  ),
});

export const ChangePasswordQuery = Type.Object({ userId: UserId });

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: 1024, description: 'The password in use now (required).' }),
  newPassword: NewPassword,
  confirmNewPassword: Type.String({ maxLength: 1024, description: 'The new password again.' }),
});

export const ChangePasswordResponse = Type.Object(
  {
    message: Type.String(),
    token: Type.String({
      description: 'A new access token for this session (the old one stops working); the refresh token stays valid.',
    }),
  },
  { description: 'Password changed; every other session has ended.' },
);

export const ConfirmEmailQuery = Type.Object({
  tenant: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', examples: ['root'] }),
  userId: UserId,
  code: Type.String({ minLength: 1, maxLength: 256, description: 'The code of the confirmation link.' }),
});

export const UpdateFirstTimeLoginBody = Type.Object({
  isFirstTimeLogin: Type.Boolean({ description: 'true: the user must choose a new password at the next sign-in.' }),
  userId: UserId,
});

export const UpdateFirstTimeLoginResponse = Type.Object({
  userId: UserId,
  isFirstTimeLogin: Type.Boolean(),
  message: Type.String(),
});

export const SendInvitationBody = Type.Object({
  userIds: Type.Array(UserId, { minItems: 1, maxItems: 100, description: 'Users of the caller’s tenant and scope.' }),
  redirectUrl: RedirectUrl,
});

export const SendInvitationResponse = Type.Object({
  results: Type.Array(
    Type.Object({
      userId: UserId,
      outcome: Type.Union([Type.Literal('invitationSent'), Type.Literal('confirmationSent'), Type.Literal('nothingToSend'), Type.Literal('notFound')], {
        description:
          'invitationSent: the account has no password of its own yet (72 h link); confirmationSent: the e-mail is unconfirmed ' +
          '(24 h link); nothingToSend: active and confirmed, or deactivated; notFound: not in the caller’s tenant or scope.',
      }),
    }),
  ),
});

export const SelfRegisterBody = Type.Object({
  firstName: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', examples: ['Asha'] }),
  lastName: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', examples: ['Patel'] }),
  email: Email,
  userName: Type.String({
    minLength: 3,
    maxLength: 64,
    pattern: '^[A-Za-z0-9][A-Za-z0-9._@+-]*$',
    description: 'Letters, digits and . _ @ + - (unique in the tenant).',
    examples: ['asha.patel'],
  }),
  password: NewPassword,
  confirmPassword: Type.String({ maxLength: 1024 }),
  phoneNumber: Type.Optional(
    Type.String({ maxLength: 32, pattern: '^$|^\\+?[0-9 ()-]{6,31}$', description: 'Digits with an optional leading +.', examples: ['+91 98765 43210'] }),
  ),
  dateOfBirth: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD', examples: ['2001-04-17'] })),
  redirectUrl: RedirectUrl,
});

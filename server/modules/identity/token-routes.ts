import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { logout } from './account-service.ts';
import { requestMeta } from './identity-context.ts';
import { identityMessages } from './identity-messages.ts';
import { identityRateLimits } from './identity-rate-limits.ts';
import {
  ChallengeResponse,
  LogoutBody,
  MessageResponse,
  PermissionsResponse,
  RefreshBody,
  responses,
  SignInBody,
  TenantHeader,
  TokenPairResponse,
  UserIdParams,
  VerifyCodeBody,
} from './identity-schemas.ts';
import { refreshSession } from './sessions-service.ts';
import { dpopThumbprint } from './dpop.ts';
import { authenticatePassword, issueSignInCode, verifySignInCode } from './sign-in-service.ts';

const tags = ['identity: tokens and session'];
const bearer = [{ bearer: [] }];

/** Spec §7 "Tokens and session". */
export async function tokenRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/tokens',
    {
      config: { access: 'public', rateLimit: identityRateLimits.signIn },
      schema: {
        tags,
        summary: 'Sign in, step 1: e-mail and password',
        description:
          'A right password e-mails a 6-digit code (valid 10 minutes, at most 10 per account per hour) and answers a challenge token. ' +
          'An unknown e-mail, a wrong password and a locked account (10 consecutive failures lock it for 15 minutes) get the same 401. ' +
          'Only after a right password: 403 `accountDeactivated` or `emailNotConfirmed`, 429 `hourlyCodeCap`.',
        headers: TenantHeader,
        body: SignInBody,
        response: responses(ChallengeResponse, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const meta = requestMeta(request);
      const account = await authenticatePassword(app.identity, meta, request.body.email, request.body.password);
      return issueSignInCode(app.identity, meta, account, { resend: false });
    },
  );

  api.post(
    '/tokens/verifyotp',
    {
      config: { access: 'public', rateLimit: identityRateLimits.verifyCode },
      schema: {
        tags,
        summary: 'Sign in, step 2: the e-mailed code',
        description:
          'The code works once, for 10 minutes, only with the challenge token it was sent for, and only if it is the newest code. ' +
          '5 wrong codes burn it (401 `codeWrong` with `remainingAttempts`, then `codeAttemptsExceeded`).',
        headers: TenantHeader,
        body: VerifyCodeBody,
        response: responses(TokenPairResponse, [400, 401, 403, 429]),
      },
    },
    async (request) =>
      verifySignInCode(app.identity, { ...requestMeta(request), dpopJkt: await dpopThumbprint(request, app.config.publicUrl, app.clock.now()) }, request.body),
  );

  api.post(
    '/tokens/resendotp',
    {
      config: { access: 'public', rateLimit: identityRateLimits.resendCode },
      schema: {
        tags,
        summary: 'Send a new code (the old one stops working)',
        description:
          'Checks the password again (same rules and answers as POST /tokens) and e-mails a new code with a new challenge token. ' +
          'Within 30 seconds of the previous code: 429 `resendCooldown` with Retry-After.',
        headers: TenantHeader,
        body: SignInBody,
        response: responses(ChallengeResponse, [400, 401, 403, 429]),
      },
    },
    async (request) => {
      const meta = requestMeta(request);
      const account = await authenticatePassword(app.identity, meta, request.body.email, request.body.password);
      return issueSignInCode(app.identity, meta, account, { resend: true });
    },
  );

  api.post(
    '/tokens/refresh',
    {
      config: { access: 'public', rateLimit: identityRateLimits.refresh },
      schema: {
        tags,
        summary: 'New access and refresh tokens',
        description:
          'The refresh token works once and is replaced; the session ends 7 days after sign-in whatever happens. Presenting a refresh ' +
          'token that was already used ends the whole session (401 `refreshTokenReused`), the newest tokens included.',
        body: RefreshBody,
        response: responses(TokenPairResponse, [400, 401, 429]),
      },
    },
    async (request) =>
      refreshSession(app.identity, { ...requestMeta(request), dpopJkt: await dpopThumbprint(request, app.config.publicUrl, app.clock.now()) }, request.body),
  );

  api.post(
    '/users/:userId/invalidatepermission',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Sign out (every tab and device)',
        description:
          'Ends every session of the user and makes every access token already issued fail. Yourself, or with ' +
          'Permissions.Users.Update a user of your scope whose permissions you all hold; anyone else answers 404 like an unknown id.',
        security: bearer,
        params: UserIdParams,
        body: LogoutBody,
        response: responses(MessageResponse, [400, 401, 404]),
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const bodyUserId = request.body?.userId;
      if (bodyUserId && bodyUserId.toLowerCase() !== request.params.userId.toLowerCase()) {
        throw badRequest(identityMessages.bodyUserIdMismatch);
      }
      return logout(app.identity, requestMeta(request), principal, request.params.userId.toLowerCase());
    },
  );

  api.get(
    '/personal/permissions',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'The permissions of the caller',
        description: 'Send the access token as `Authorization: Bearer <token>` (right after sign-in, before it is stored, as well).',
        security: bearer,
        response: responses(PermissionsResponse, [401]),
      },
    },
    async (request) => [...requirePrincipal(request).permissions].sort(),
  );
}

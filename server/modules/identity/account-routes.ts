import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { P } from '#machines/permissions.ts';
import { unauthorized } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import {
  changePassword,
  confirmEmail,
  forgotPassword,
  resendFirstTimeEmail,
  resendVerification,
  resetPassword,
  selfRegister,
  sendInvitationOrConfirmation,
  updateFirstTimeLogin,
  validateEmail,
  emailAvailability,
} from './account-service.ts';
import { requestMeta } from './identity-context.ts';
import { identityRateLimits } from './identity-rate-limits.ts';
import {
  ChangePasswordBody,
  ChangePasswordQuery,
  ChangePasswordResponse,
  ConfirmEmailQuery,
  EmailAndRedirectBody,
  MessageResponse,
  ResetPasswordBody,
  responses,
  SelfRegisterBody,
  SendInvitationBody,
  SendInvitationResponse,
  TenantHeader,
  UpdateFirstTimeLoginBody,
  UpdateFirstTimeLoginResponse,
  ValidateEmailQuery,
  ValidateEmailResponse,
} from './identity-schemas.ts';

const tags = ['identity: passwords and e-mail'];
const bearer = [{ bearer: [] }];

/** Spec §7 "Passwords and e-mail" and POST /users/self-register. */
export async function accountRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/users/forgot-password',
    {
      config: { access: 'public', rateLimit: identityRateLimits.accountMail },
      schema: {
        tags,
        summary: 'E-mail a link to reset the password',
        description:
          'When an active account with a local password exists, it gets a link to PUBLIC_URL/reset-password?tenant=&email=&token= ' +
          '(30 minutes, single use). The answer is the same for every e-mail. Works while the account is locked.',
        headers: TenantHeader,
        body: EmailAndRedirectBody,
        response: responses(MessageResponse, [400, 429]),
      },
    },
    async (request) => forgotPassword(app.identity, requestMeta(request), request.body),
  );

  api.post(
    '/users/reset-password',
    {
      config: { access: 'public', rateLimit: identityRateLimits.resetPassword },
      schema: {
        tags,
        summary: 'Set a password with a reset or invitation token',
        description:
          'With isFirstTimeLogin=false the token of a reset link (30 minutes), with true the token of an invitation link (72 hours). ' +
          'The token works once. Sets the password, confirms the e-mail, ends every session and lifts a lockout.',
        headers: TenantHeader,
        body: ResetPasswordBody,
        response: responses(MessageResponse, [400, 429]),
      },
    },
    async (request) => resetPassword(app.identity, requestMeta(request), request.body),
  );

  // The spec's path has a trailing slash (`change-password/?userId=`); the path without it works too.
  for (const [path, hide] of [
    ['/users/change-password/', false],
    ['/users/change-password', true],
  ] as const) {
    api.post(
      path,
      {
        config: { access: 'authenticated' },
        schema: {
          hide,
          tags,
          summary: 'Change one’s own password',
          description:
            'Needs the current password (wrong ones count towards the lockout). Every other session ends; this one continues with ' +
            'the access token in the answer (the refresh token stays valid).',
          security: bearer,
          querystring: ChangePasswordQuery,
          body: ChangePasswordBody,
          response: responses(ChangePasswordResponse, [400, 401, 403, 404]),
        },
      },
      async (request) => {
        const principal = requirePrincipal(request);
        if (!request.accessToken) throw unauthorized();
        return changePassword(
          app.identity,
          requestMeta(request),
          { principal, token: request.accessToken },
          { ...request.body, userId: request.query.userId.toLowerCase() },
        );
      },
    );
  }

  api.post(
    '/users/validateemail',
    {
      config: { access: 'public', rateLimit: identityRateLimits.validateEmail },
      schema: {
        tags,
        summary: 'Check that an e-mail address is acceptable',
        description:
          'Syntax and length only, normalised to lower case; to anonymous callers it never tells whether an account uses the address. ' +
          'A caller signed in with `Users.Create` or `Users.Update` also gets `isAvailable`: whether no other user of their tenant has it ' +
          '(`userId`: the user being edited, whose own address is available to them). A token that does not verify is treated as no token.',
        querystring: ValidateEmailQuery,
        response: responses(ValidateEmailResponse, [400, 429]),
      },
    },
    async (request) => {
      const verdict = validateEmail(request.query.email);
      if (!verdict.isValid || !request.headers.authorization) return verdict;
      const principal = await app.authenticate(request).catch(() => undefined);
      if (!principal || !(principal.permissions.has(P.Users.Create) || principal.permissions.has(P.Users.Update))) return verdict;
      return emailAvailability(app.identity, principal.tenantId, verdict, request.query.userId);
    },
  );

  api.post(
    '/users/resend-verification',
    {
      config: { access: 'public', rateLimit: identityRateLimits.accountMail },
      schema: {
        tags,
        summary: 'E-mail a new confirmation link',
        description:
          'When an active account with an unconfirmed e-mail exists, it gets a new link to ' +
          'PUBLIC_URL/confirm-email?tenant=&userId=&code= (24 hours; older links stop working). The answer is the same for every e-mail.',
        headers: TenantHeader,
        body: EmailAndRedirectBody,
        response: responses(MessageResponse, [400, 429]),
      },
    },
    async (request) => resendVerification(app.identity, requestMeta(request), request.body),
  );

  api.post(
    '/users/resendemailtofirsttime',
    {
      config: { access: 'public', rateLimit: identityRateLimits.accountMail },
      schema: {
        tags,
        summary: 'E-mail a new invitation (first-time password) link',
        description:
          'When an active account has not chosen its password yet (isFirstTimeLogin), it gets a new link to ' +
          'PUBLIC_URL/first-login?tenant=&email=&token= (72 hours; older links stop working). The answer is the same for every e-mail.',
        headers: TenantHeader,
        body: EmailAndRedirectBody,
        response: responses(MessageResponse, [400, 429]),
      },
    },
    async (request) => resendFirstTimeEmail(app.identity, requestMeta(request), request.body),
  );

  api.get(
    '/users/confirm-email',
    {
      config: { access: 'public', rateLimit: identityRateLimits.confirmEmail },
      schema: {
        tags,
        summary: 'Confirm an e-mail address (the link of the confirmation mail)',
        description: 'The code works once within 24 hours. Opening a used link again after confirming answers 200 "already confirmed".',
        querystring: ConfirmEmailQuery,
        response: responses(MessageResponse, [400, 429]),
      },
    },
    async (request) => confirmEmail(app.identity, request.query),
  );

  api.post(
    '/users/updatefirsttimelogin',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        summary: 'Set or clear the first-time-login flag',
        description:
          'Holders of Permissions.Users.Update set it for users in their tenant and scope (true: a new password is required at the ' +
          'next sign-in). For oneself it is cleared by choosing a password (change-password or reset-password); a self call with ' +
          'false is accepted once that happened (409 `passwordRequired` before).',
        security: bearer,
        body: UpdateFirstTimeLoginBody,
        response: responses(UpdateFirstTimeLoginResponse, [400, 401, 403, 404, 409]),
      },
    },
    async (request) => updateFirstTimeLogin(app.identity, requirePrincipal(request), { ...request.body, userId: request.body.userId.toLowerCase() }),
  );

  api.post(
    '/users/sendinvitationorconfirmation',
    {
      config: { access: { anyOf: [P.Users.Create, P.Users.Update] } },
      schema: {
        tags,
        summary: 'Send invitations or confirmation links to users',
        description:
          'For each user: an invitation when the account has not chosen a password yet, else a confirmation link when its e-mail is ' +
          'unconfirmed, else nothing.',
        security: bearer,
        body: SendInvitationBody,
        response: responses(SendInvitationResponse, [400, 401, 403]),
      },
    },
    async (request) => sendInvitationOrConfirmation(app.identity, requestMeta(request), requirePrincipal(request), request.body),
  );

  api.post(
    '/users/self-register',
    {
      config: { access: 'public', rateLimit: identityRateLimits.selfRegister },
      schema: {
        tags,
        summary: 'Register as a candidate',
        description:
          'Creates a Candidate with an unconfirmed e-mail and mails a confirmation link; sign-in works once the e-mail is confirmed. ' +
          'The answer is the same when the e-mail already has an account (its owner is told by e-mail). A taken user name is a 400.',
        headers: TenantHeader,
        body: SelfRegisterBody,
        response: responses(MessageResponse, [400, 429]),
      },
    },
    async (request) => selfRegister(app.identity, requestMeta(request), request.body),
  );
}

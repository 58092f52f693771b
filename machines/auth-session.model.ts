import { __unsafe_getAllOwnEventDescriptors, type EventObject } from 'xstate';
import { authSessionMachine, sessionOf, type AuthSessionContext, type AuthSessionEvent, type TokenPair } from './auth-session.machine.ts';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';

const base64url = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** An unsigned JWT with these claims: enough for jwt-decode, which never checks signatures. */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${base64url(JSON.stringify({ alg: 'HS256', typ: 'at+jwt' }))}.${base64url(JSON.stringify(claims))}.c2lnbmF0dXJl`;
}

const claimUri = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';

/** The claims the server puts in an access token (docs/decisions/0032). */
export function accessClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    [`${claimUri}nameidentifier`]: '7f1c4a52-0d7e-4c8e-9a51-3f2b6c1d9e01',
    [`${claimUri}emailaddress`]: 'asha.patel@example.com',
    [`${claimUri}name`]: 'Asha',
    [`${claimUri}surname`]: 'Patel',
    tenant: 'root',
    userType: 'candidate',
    resellerId: null,
    instituteId: 'inst-1',
    isFirstTimeLogin: false,
    exp: 4_102_444_800,
    ...overrides,
  };
}

export const modelTokens = {
  first: { token: fakeJwt(accessClaims({ jti: 'a' })), refreshToken: 'refresh-a', refreshTokenExpiryTime: '2099-11-29T10:00:00.000Z' },
  /** The refreshed pair: the new token says userType 'staff', which the refresh must not take over. */
  second: {
    token: fakeJwt(accessClaims({ jti: 'b', userType: 'staff', instituteId: null })),
    refreshToken: 'refresh-b',
    refreshTokenExpiryTime: '2099-11-29T10:00:00.000Z',
  },
} satisfies Record<string, TokenPair>;

const error = (statusCode: number, reason: string, extra: Record<string, unknown> = {}) => ({
  messages: ['…'],
  statusCode,
  reason,
  ...extra,
});

/** Every event the model tries, with the answers the fake API may give. */
export const authSessionModelEvents: Array<AuthSessionEvent | (EventObject & Record<string, unknown>)> = [
  // The saved session: none, a live one, one whose access token expired (a refresh token only).
  { type: 'session.restore', session: null },
  { type: 'session.restore', session: { isLoggedIn: true, authenticated: true, ...modelTokens.first, user: null } },
  {
    type: 'session.restore',
    session: {
      isLoggedIn: false,
      token: null,
      refreshToken: 'refresh-a',
      refreshTokenExpiryTime: '2099-11-29T10:00:00.000Z',
      expiredToken: modelTokens.first.token,
    },
  },
  { type: 'login.submit', email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' },
  { type: 'login.cancel' },
  { type: 'otp.submit', code: '042917' },
  { type: 'otp.resend' },
  { type: 'token.refresh' },
  { type: 'session.expired' },
  { type: 'token.replaced', token: modelTokens.second.token },
  { type: 'session.synced', session: modelTokens.second },
  { type: 'session.ended' },
  { type: 'session.reset' },
  { type: 'logout' },
  { type: 'user.update', user: { name: 'Asha R.' } },
  { type: 'signalr.data', data: { unread: 2 } },
  { type: 'error.set', errorText: 'Something happened' },
  { type: 'redirect.remember', url: '/tickets' },
  { type: 'xstate.done.actor.requestCode', output: { token: 'challenge-1', otpExpiresAt: '2026-11-22T10:10:00.000Z', resendAfterSeconds: 30 } },
  { type: 'xstate.error.actor.requestCode', error: error(401, 'invalidCredentials') },
  { type: 'xstate.done.actor.resendCode', output: { token: 'challenge-2', otpExpiresAt: '2026-11-22T10:11:00.000Z', resendAfterSeconds: 30 } },
  { type: 'xstate.error.actor.resendCode', error: error(429, 'resendCooldown', { retryAfterSeconds: 30 }) },
  { type: 'xstate.error.actor.resendCode', error: error(401, 'invalidCredentials') },
  { type: 'xstate.done.actor.verifyCode', output: modelTokens.first },
  { type: 'xstate.error.actor.verifyCode', error: error(401, 'codeWrong', { remainingAttempts: 4 }) },
  { type: 'xstate.done.actor.refreshTokens', output: modelTokens.second },
  { type: 'xstate.error.actor.refreshTokens', error: error(401, 'refreshTokenReused') },
  { type: 'xstate.error.actor.refreshTokens', error: new Error('Network Error') },
  { type: 'xstate.done.actor.invalidateSession', output: { message: 'Signed out.' } },
  { type: 'xstate.error.actor.invalidateSession', error: new Error('Network Error') },
];

/**
 * Keeps the graph finite and small: events that change nothing but data (real-time data, error
 * text, redirect URL, user update) are tried once in a signed-out and once in a signed-in state.
 */
const dataEvents = new Set(['signalr.data', 'error.set', 'redirect.remember', 'user.update', 'session.reset', 'token.replaced']);

/**
 * What makes two snapshots one node: the state and the session fields. The sign-in flow's
 * working values (challenge token, remaining attempts, cooldown length) do not decide any
 * transition the model takes, so they are left out to keep the graph small.
 */
export function authSessionProjection(snapshot: { value: unknown; context: AuthSessionContext }) {
  return { value: snapshot.value, session: sessionOf(snapshot.context), signingIn: snapshot.context.email !== null };
}

export function authSessionModel() {
  return createMachineTestModel(authSessionMachine, {
    exhaustive: true,
    serializeState: (snapshot) => JSON.stringify(authSessionProjection(snapshot)),
    events: (snapshot) => {
      const ctx = snapshot.context;
      // Data events only from clean contexts, so they add edges, not whole copies of the graph.
      const clean = Object.keys(ctx.signalRData).length === 0 && ctx.redirectUrl === null && ctx.errorText === null && ctx.user?.name !== 'Asha R.';
      const concrete = authSessionModelEvents.filter((event) => {
        if (dataEvents.has(event.type)) return clean && (snapshot.matches('signedOut') || snapshot.matches('signedIn'));
        return snapshot.can(event as AuthSessionEvent);
      });
      const delayed = __unsafe_getAllOwnEventDescriptors(snapshot)
        .filter((type) => type.startsWith('xstate.after.'))
        .map((type) => ({ type }));
      return [...concrete, ...delayed] as AuthSessionEvent[];
    },
  });
}

/** Paths taking every edge of the auth session's graph. */
export function authSessionTestPaths() {
  return transitionCoveringPaths(authSessionModel());
}

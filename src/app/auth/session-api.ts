import type { Challenge, TokenPair } from '#machines/auth-session.machine.ts';
import { appConfig } from '#src/lib/config.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import { dpopProof } from '#src/lib/security/device-keys.ts';
import { applySignInLanguage } from '../settings/server-language.ts';

/**
 * The calls of spec §7 "Tokens and session". The token calls are unauthenticated and show no
 * toast: the sign-in screens say what went wrong (docs/decisions/0011).
 */
const users = () => serviceApi('userService');
const quiet = { anonymous: true, showErrors: false } as const;

/**
 * The calls that start or continue a session carry a DPoP proof of this browser's key, which
 * binds the session to it: a refresh token lifted from storage does not refresh elsewhere.
 */
async function withProof(path: string) {
  const url = new URL(`${appConfig.userService.replace(/\/+$/, '')}${path}`, globalThis.location?.origin ?? 'http://localhost').href;
  const proof = await dpopProof('POST', url).catch(() => undefined);
  return proof ? { ...quiet, headers: { DPoP: proof } } : quiet;
}

export const sessionApi = {
  requestCode: (body: { email: string; password: string }) => users().post<Challenge>('/tokens', body, quiet),
  resendCode: (body: { email: string; password: string }) => users().post<Challenge>('/tokens/resendotp', body, quiet),
  verifyCode: async (body: { email: string; enteredOTP: string; token: string }) => {
    const answer = await users().post<TokenPair & { preferredLanguage?: string | null }>('/tokens/verifyotp', body, await withProof('/tokens/verifyotp'));
    // The language the person keeps on the server follows them to this device (issue 21).
    applySignInLanguage(answer);
    return answer;
  },
  refreshTokens: async (body: { token: string; refreshToken: string }) => users().post<TokenPair>('/tokens/refresh', body, await withProof('/tokens/refresh')),
  /** Logout: sent with the session's token explicitly, which the actor is about to forget. */
  invalidateSession: ({ userId, token }: { userId: string | null; token: string | null }) =>
    userId && token
      ? users().post<{ message: string }>(`/users/${encodeURIComponent(userId)}/invalidatepermission`, { userId }, { accessToken: token, showErrors: false })
      : Promise.resolve({ message: '' }),
  /** GET /personal/permissions with an explicit bearer token (spec §7). */
  permissions: (token: string) => users().get<string[]>('/personal/permissions', { accessToken: token, showErrors: false }),
};

export type SessionApi = typeof sessionApi;

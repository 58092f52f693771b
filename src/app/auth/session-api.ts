import type { Challenge, TokenPair } from '#machines/auth-session.machine.ts';
import { serviceApi } from '#src/lib/http/api.ts';

/**
 * The calls of spec §7 "Tokens and session". The token calls are unauthenticated and show no
 * toast: the sign-in screens say what went wrong (docs/decisions/0011).
 */
const users = () => serviceApi('userService');
const quiet = { anonymous: true, showErrors: false } as const;

export const sessionApi = {
  requestCode: (body: { email: string; password: string }) => users().post<Challenge>('/tokens', body, quiet),
  resendCode: (body: { email: string; password: string }) => users().post<Challenge>('/tokens/resendotp', body, quiet),
  verifyCode: (body: { email: string; enteredOTP: string; token: string }) => users().post<TokenPair>('/tokens/verifyotp', body, quiet),
  refreshTokens: (body: { token: string; refreshToken: string }) => users().post<TokenPair>('/tokens/refresh', body, quiet),
  /** Logout: sent with the session's token explicitly, which the actor is about to forget. */
  invalidateSession: ({ userId, token }: { userId: string | null; token: string | null }) =>
    userId && token
      ? users().post<{ message: string }>(`/users/${encodeURIComponent(userId)}/invalidatepermission`, { userId }, { accessToken: token, showErrors: false })
      : Promise.resolve({ message: '' }),
  /** GET /personal/permissions with an explicit bearer token (spec §7). */
  permissions: (token: string) => users().get<string[]>('/personal/permissions', { accessToken: token, showErrors: false }),
};

export type SessionApi = typeof sessionApi;

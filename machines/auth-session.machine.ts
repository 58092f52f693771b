import { jwtDecode } from 'jwt-decode';
import { assign, fromPromise, not, setup, stateIn } from 'xstate';

/**
 * The signed-in user, built from the access token's claims (spec §3 "Auth session"): claim
 * names shortened to their last path segment, the name-identifier claim becoming `user_id`.
 */
export interface AuthUser {
  user_id: string;
  emailaddress?: string;
  name?: string;
  surname?: string;
  userType?: string | null;
  resellerId?: string | null;
  instituteId?: string | null;
  isFirstTimeLogin?: boolean;
  tenant?: string;
  [claim: string]: unknown;
}

/** The auth session of spec §3 (the persisted `authUser` slice), plus the remembered redirect URL. */
export interface AuthSession {
  isLoggedIn: boolean;
  authenticated: boolean;
  token: string | null;
  refreshToken: string | null;
  refreshTokenExpiryTime: string | null;
  user: AuthUser | null;
  signalRData: Record<string, unknown>;
  errorText: string | null;
  /** Where to go after sign-in (a protected route the user asked for). Logout sets it to null. */
  redirectUrl: string | null;
  /**
   * The access token an expiry cleared: the refresh call must still present the session's last
   * access token (docs/decisions/0032), while spec §4 says expiry clears `token`.
   */
  expiredToken: string | null;
}

export interface TokenPair {
  token: string;
  refreshToken: string;
  refreshTokenExpiryTime: string;
}

/** Answer of POST /tokens and /tokens/resendotp (docs/decisions/0030). */
export interface Challenge {
  token: string;
  otpExpiresAt: string;
  resendAfterSeconds: number;
}

export interface AuthSessionContext extends AuthSession {
  /** The sign-in in progress: kept in memory only (resendotp needs the password again, spec §7). */
  email: string | null;
  password: string | null;
  challengeToken: string | null;
  resendAfterSeconds: number;
  /** Wrong codes still allowed (after a wrong code). */
  remainingAttempts: number | null;
}

export type AuthSessionEvent =
  | { type: 'login.submit'; email: string; password: string }
  | { type: 'login.cancel' }
  | { type: 'otp.submit'; code: string }
  | { type: 'otp.resend' }
  | { type: 'session.restore'; session: Partial<AuthSession> | null }
  | { type: 'token.refresh' }
  | { type: 'session.expired' }
  | { type: 'token.replaced'; token: string }
  | { type: 'session.synced'; session: TokenPair & { user?: AuthUser | null } }
  | { type: 'session.ended' }
  | { type: 'session.reset' }
  | { type: 'logout' }
  | { type: 'user.update'; user: Partial<AuthUser> }
  | { type: 'signalr.data'; data: Record<string, unknown> }
  | { type: 'error.set'; errorText: string | null }
  | { type: 'redirect.remember'; url: string | null };

export const RESEND_AFTER_SECONDS = 30;

const NAME_IDENTIFIER = 'nameidentifier';

/** Spec §3: the user from a token: claim names shortened to their last path segment; name identifier → user_id. */
export function userFromToken(token: string): AuthUser {
  const claims = jwtDecode<Record<string, unknown>>(token);
  const user: Record<string, unknown> = {};
  for (const [claim, value] of Object.entries(claims)) {
    const short = claim.split('/').pop() || claim;
    user[short === NAME_IDENTIFIER ? 'user_id' : short] = value;
  }
  return user as AuthUser;
}

/** Seconds since the epoch at which the token expires, or null when it has no readable `exp`. */
export function tokenExpiry(token: string | null): number | null {
  if (!token) return null;
  try {
    const { exp } = jwtDecode<{ exp?: unknown }>(token);
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

export const emptySession: AuthSession = {
  isLoggedIn: false,
  authenticated: false,
  token: null,
  refreshToken: null,
  refreshTokenExpiryTime: null,
  user: null,
  signalRData: {},
  errorText: null,
  redirectUrl: null,
  expiredToken: null,
};

const emptyFlow = { email: null, password: null, challengeToken: null, resendAfterSeconds: RESEND_AFTER_SECONDS, remainingAttempts: null };

/** The session fields of a context: what is persisted and shared with other tabs. */
export function sessionOf(context: AuthSessionContext): AuthSession {
  const { isLoggedIn, authenticated, token, refreshToken, refreshTokenExpiryTime, user, signalRData, errorText, redirectUrl, expiredToken } = context;
  return { isLoggedIn, authenticated, token, refreshToken, refreshTokenExpiryTime, user, signalRData, errorText, redirectUrl, expiredToken };
}

/** What a failed call says: the `reason` of the error body (docs/decisions/0030), its status, the numbers. */
export interface AuthFailure {
  reason: string;
  status: number | null;
  remainingAttempts: number | null;
  retryAfterSeconds: number | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export function failureOf(error: unknown): AuthFailure {
  const body = isRecord(error) ? error : {};
  const response = isRecord(body.response) ? body.response : null;
  const status =
    typeof body.statusCode === 'number'
      ? body.statusCode
      : typeof body.status === 'number'
        ? body.status
        : typeof response?.status === 'number'
          ? response.status
          : null;
  let reason = typeof body.reason === 'string' ? body.reason : null;
  if (!reason) reason = status === 400 ? 'invalidInput' : status === 429 ? 'rateLimited' : status === null ? 'network' : 'failed';
  return {
    reason,
    status,
    remainingAttempts: typeof body.remainingAttempts === 'number' ? body.remainingAttempts : null,
    retryAfterSeconds: typeof body.retryAfterSeconds === 'number' ? body.retryAfterSeconds : null,
  };
}

const errorOf = (event: unknown) => (event as { error: unknown }).error;
const outputOf = <T>(event: unknown) => (event as { output: T }).output;

/** Calls the actor makes; the app provides them over the HTTP layer, tests with a fake API. */
const notProvided = (name: string) => () => Promise.reject(new Error(`auth-session: ${name} is not provided`));

export const authSessionMachine = setup({
  types: {
    context: {} as AuthSessionContext,
    events: {} as AuthSessionEvent,
    /** busy: a call is in flight (forms show their loading state). session: a session exists (maybe expired). */
    tags: {} as 'busy' | 'session',
  },
  actors: {
    /** POST /tokens {email,password} → a challenge; the code is e-mailed. */
    requestCode: fromPromise<Challenge, { email: string; password: string }>(notProvided('requestCode')),
    /** POST /tokens/resendotp {email,password} → a new challenge; the old code dies. */
    resendCode: fromPromise<Challenge, { email: string; password: string }>(notProvided('resendCode')),
    /** POST /tokens/verifyotp {email,enteredOTP,token} → the token pair. */
    verifyCode: fromPromise<TokenPair, { email: string; enteredOTP: string; token: string }>(notProvided('verifyCode')),
    /** POST /tokens/refresh {token,refreshToken} → the next token pair. */
    refreshTokens: fromPromise<TokenPair, { token: string; refreshToken: string }>(notProvided('refreshTokens')),
    /** POST /users/{userId}/invalidatepermission (logout). */
    invalidateSession: fromPromise<unknown, { userId: string | null; token: string | null }>(notProvided('invalidateSession')),
  },
  delays: {
    resendCooldown: ({ context }) => context.resendAfterSeconds * 1000,
  },
  guards: {
    isLiveSession: ({ event }) => {
      const saved = (event as Extract<AuthSessionEvent, { type: 'session.restore' }>).session;
      return Boolean(saved?.isLoggedIn && typeof saved.token === 'string' && saved.token);
    },
    isResumableSession: ({ event }) => {
      const saved = (event as Extract<AuthSessionEvent, { type: 'session.restore' }>).session;
      return Boolean(saved && typeof saved.refreshToken === 'string' && saved.refreshToken);
    },
    // Every way into a session sets isLoggedIn and a token together, and expiry clears both
    // together, so the token alone says whether an access token is left.
    hasAccessToken: ({ context }) => context.token !== null,
    /** The refresh call was refused: spec §4, a 401 on refresh logs the user out. */
    isUnauthorized: ({ event }) => failureOf(errorOf(event)).status === 401,
    isResendCooldown: ({ event }) => failureOf(errorOf(event)).status === 429,
  },
  actions: {
    restoreSession: assign(({ event }) => {
      const saved = (event as Extract<AuthSessionEvent, { type: 'session.restore' }>).session ?? {};
      return { ...emptySession, ...saved, signalRData: saved.signalRData ?? {} };
    }),
    /** Nothing to resume; only a remembered redirect URL survives. */
    restoreSignedOut: assign(({ event }) => {
      const saved = (event as Extract<AuthSessionEvent, { type: 'session.restore' }>).session;
      return { ...emptySession, redirectUrl: typeof saved?.redirectUrl === 'string' ? saved.redirectUrl : null };
    }),
    startSignIn: assign(({ event }) => {
      const { email, password } = event as Extract<AuthSessionEvent, { type: 'login.submit' }>;
      return { ...emptyFlow, email, password, errorText: null };
    }),
    storeChallenge: assign(({ event }) => {
      const challenge = outputOf<Challenge>(event);
      return {
        challengeToken: challenge.token,
        resendAfterSeconds: challenge.resendAfterSeconds > 0 ? challenge.resendAfterSeconds : RESEND_AFTER_SECONDS,
        errorText: null,
        remainingAttempts: null,
      };
    }),
    /** Spec §4: a login failure is recorded (the screen chooses the words from the reason). */
    loginFailure: assign(({ event }) => ({ ...emptyFlow, errorText: failureOf(errorOf(event)).reason })),
    codeFailure: assign(({ event }) => {
      const failure = failureOf(errorOf(event));
      return { errorText: failure.reason, remainingAttempts: failure.remainingAttempts };
    }),
    resendFailure: assign(({ event }) => {
      const failure = failureOf(errorOf(event));
      return { errorText: failure.reason, resendAfterSeconds: failure.retryAfterSeconds ?? RESEND_AFTER_SECONDS };
    }),
    clearFlow: assign(() => ({ ...emptyFlow })),
    /** Spec §4: login success sets logged-in and authenticated and stores token, refresh token, expiry and user. */
    loginSuccess: assign(({ event }) => {
      const pair = outputOf<TokenPair>(event);
      return {
        ...emptyFlow,
        isLoggedIn: true,
        authenticated: true,
        token: pair.token,
        refreshToken: pair.refreshToken,
        refreshTokenExpiryTime: pair.refreshTokenExpiryTime,
        user: userFromToken(pair.token),
        errorText: null,
        expiredToken: null,
      };
    }),
    /** Spec §4: refresh replaces the tokens and user but keeps userType, resellerId and instituteId. */
    tokenRefreshed: assign(({ context, event }) => {
      const pair = outputOf<TokenPair>(event);
      const fresh = userFromToken(pair.token);
      const previous = context.user;
      return {
        isLoggedIn: true,
        authenticated: true,
        token: pair.token,
        refreshToken: pair.refreshToken,
        refreshTokenExpiryTime: pair.refreshTokenExpiryTime,
        user: previous ? { ...fresh, userType: previous.userType, resellerId: previous.resellerId, instituteId: previous.instituteId } : fresh,
        expiredToken: null,
      };
    }),
    /** A password change answers a new access token for this session; the refresh token stays (docs/decisions/0030). */
    tokenReplaced: assign(({ context, event }) => {
      const { token } = event as Extract<AuthSessionEvent, { type: 'token.replaced' }>;
      const previous = context.user;
      const fresh = userFromToken(token);
      return {
        token,
        user: previous ? { ...fresh, userType: previous.userType, resellerId: previous.resellerId, instituteId: previous.instituteId } : fresh,
      };
    }),
    /** Another tab signed in or refreshed: the same tokens here, so two tabs never refresh one token twice. */
    sessionSynced: assign(({ context, event }) => {
      const { session } = event as Extract<AuthSessionEvent, { type: 'session.synced' }>;
      return {
        ...emptyFlow,
        isLoggedIn: true,
        authenticated: true,
        token: session.token,
        refreshToken: session.refreshToken,
        refreshTokenExpiryTime: session.refreshTokenExpiryTime,
        user: session.user ?? context.user ?? userFromToken(session.token),
        expiredToken: null,
        errorText: null,
      };
    }),
    /** Spec §4: expiry clears the login flags, the token and the user, and keeps the refresh token. */
    tokenExpired: assign(({ context }) => ({
      isLoggedIn: false,
      authenticated: false,
      token: null,
      user: null,
      expiredToken: context.token ?? context.expiredToken,
    })),
    /** Spec §4: logout clears flags, tokens, expiry and user and sets the stored redirect URL to null. */
    logout: assign(() => ({
      ...emptyFlow,
      isLoggedIn: false,
      authenticated: false,
      token: null,
      refreshToken: null,
      refreshTokenExpiryTime: null,
      user: null,
      redirectUrl: null,
      expiredToken: null,
    })),
    /** "…and destroys the session": the app forgets the saved client state and tells the other tabs. */
    destroySession: () => {},
    /** Spec §6: the permissions of the signed-in user are fetched after sign-in. */
    loadPermissions: () => {},
    updateUser: assign(({ context, event }) => {
      const { user } = event as Extract<AuthSessionEvent, { type: 'user.update' }>;
      return { user: context.user ? { ...context.user, ...user } : context.user };
    }),
    mergeSignalRData: assign(({ context, event }) => ({
      signalRData: { ...context.signalRData, ...(event as Extract<AuthSessionEvent, { type: 'signalr.data' }>).data },
    })),
    setErrorText: assign(({ event }) => ({ errorText: (event as Extract<AuthSessionEvent, { type: 'error.set' }>).errorText })),
    rememberRedirect: assign(({ event }) => ({ redirectUrl: (event as Extract<AuthSessionEvent, { type: 'redirect.remember' }>).url })),
    reset: assign(() => ({ ...emptySession, ...emptyFlow })),
  },
}).createMachine({
  id: 'auth-session',
  context: () => ({ ...emptySession, ...emptyFlow }),
  initial: 'restoring',
  on: {
    'signalr.data': { actions: 'mergeSignalRData' },
    'error.set': { actions: 'setErrorText' },
    'redirect.remember': { actions: 'rememberRedirect' },
    'session.reset': { target: '.signedOut', actions: ['reset', 'destroySession'] },
  },
  states: {
    /** Waits for the saved session (the persisted authUser slice): signed in, expired (a refresh token only) or signed out. */
    restoring: {
      on: {
        'session.restore': [
          { guard: 'isLiveSession', target: 'signedIn', actions: 'restoreSession' },
          { guard: 'isResumableSession', target: 'expired', actions: ['restoreSession', 'tokenExpired'] },
          { target: 'signedOut', actions: 'restoreSignedOut' },
        ],
      },
    },
    signedOut: {
      on: {
        'login.submit': { target: 'submittingCredentials', actions: 'startSignIn' },
        'session.synced': { target: 'signedIn', actions: 'sessionSynced' },
      },
    },
    submittingCredentials: {
      tags: 'busy',
      invoke: {
        src: 'requestCode',
        id: 'requestCode',
        input: ({ context }) => ({ email: context.email ?? '', password: context.password ?? '' }),
        onDone: { target: 'awaitingCode', actions: 'storeChallenge' },
        onError: { target: 'signedOut', actions: 'loginFailure' },
      },
      on: { 'login.cancel': { target: 'signedOut', actions: 'clearFlow' } },
    },
    /** The e-mailed code is awaited; a resend waits out its cooldown. */
    awaitingCode: {
      type: 'parallel',
      on: { 'login.cancel': { target: 'signedOut', actions: 'clearFlow' } },
      states: {
        code: {
          initial: 'editing',
          states: {
            editing: { on: { 'otp.submit': 'verifying' } },
            verifying: {
              tags: 'busy',
              invoke: {
                src: 'verifyCode',
                id: 'verifyCode',
                input: ({ context, event }) => ({
                  email: context.email ?? '',
                  enteredOTP: (event as Extract<AuthSessionEvent, { type: 'otp.submit' }>).code,
                  token: context.challengeToken ?? '',
                }),
                onDone: { target: '#auth-session.signedIn', actions: ['loginSuccess', 'loadPermissions'] },
                onError: { target: 'editing', actions: 'codeFailure' },
              },
            },
          },
        },
        resend: {
          initial: 'coolingDown',
          states: {
            coolingDown: { after: { resendCooldown: 'ready' } },
            // Not while a code is being checked: the new code would replace the one under test.
            ready: { on: { 'otp.resend': { guard: not(stateIn('#auth-session.awaitingCode.code.verifying')), target: 'sending' } } },
            sending: {
              invoke: {
                src: 'resendCode',
                id: 'resendCode',
                input: ({ context }) => ({ email: context.email ?? '', password: context.password ?? '' }),
                onDone: { target: 'coolingDown', actions: 'storeChallenge' },
                onError: [
                  { guard: 'isResendCooldown', target: 'coolingDown', actions: 'resendFailure' },
                  { target: 'ready', actions: 'resendFailure' },
                ],
              },
            },
          },
        },
      },
    },
    signedIn: {
      tags: 'session',
      on: {
        'token.refresh': 'refreshing',
        'session.expired': { target: 'expired', actions: 'tokenExpired' },
        'session.synced': { actions: 'sessionSynced' },
        'session.ended': { target: 'signedOut', actions: ['logout', 'destroySession'] },
        'user.update': { actions: 'updateUser' },
        'token.replaced': { actions: 'tokenReplaced' },
        logout: 'signingOut',
      },
    },
    /** One refresh at a time (spec §4 "Token refresh"); the HTTP layer queues the 401s behind it. */
    refreshing: {
      tags: ['session', 'busy'],
      invoke: {
        src: 'refreshTokens',
        id: 'refreshTokens',
        input: ({ context }) => ({ token: context.token ?? context.expiredToken ?? '', refreshToken: context.refreshToken ?? '' }),
        onDone: { target: 'signedIn', actions: 'tokenRefreshed' },
        onError: [
          { guard: 'isUnauthorized', target: 'signedOut', actions: ['logout', 'destroySession'] },
          { guard: 'hasAccessToken', target: 'signedIn' },
          { target: 'expired' },
        ],
      },
      on: {
        'session.synced': { target: 'signedIn', actions: 'sessionSynced' },
        'session.ended': { target: 'signedOut', actions: ['logout', 'destroySession'] },
      },
    },
    /** The access token is gone, the refresh token kept: the next call refreshes. */
    expired: {
      tags: 'session',
      on: {
        'token.refresh': 'refreshing',
        'session.synced': { target: 'signedIn', actions: 'sessionSynced' },
        'session.ended': { target: 'signedOut', actions: ['logout', 'destroySession'] },
        'login.submit': { target: 'submittingCredentials', actions: 'startSignIn' },
        logout: 'signingOut',
      },
    },
    signingOut: {
      tags: 'busy',
      invoke: {
        src: 'invalidateSession',
        id: 'invalidateSession',
        input: ({ context }) => ({ userId: context.user?.user_id ?? null, token: context.token ?? context.expiredToken }),
        // Signed out here whatever the server says: the tokens are forgotten either way.
        onDone: { target: 'signedOut', actions: ['logout', 'destroySession'] },
        onError: { target: 'signedOut', actions: ['logout', 'destroySession'] },
      },
    },
  },
});

export type AuthSessionMachine = typeof authSessionMachine;

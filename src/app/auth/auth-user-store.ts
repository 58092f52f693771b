import { createStore } from '@xstate/store';
import type { AuthSession, AuthUser } from '#machines/auth-session.machine.ts';
import { isRecord } from '../stores/storable.ts';

/**
 * The persisted `authUser` slice (spec §4 "Persistence"): the auth session of spec §3 as the
 * auth-session actor last had it. It is in the first render (no XState), so routes can tell at
 * once whether someone is signed in; the actor, loaded later, is its only writer once it runs
 * (docs/decisions/0060).
 */
export const emptyAuthUser: AuthSession = {
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

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A saved value made safe: wrong types become the empty values. */
export function authUserFrom(value: unknown): AuthSession {
  if (!isRecord(value)) return emptyAuthUser;
  return {
    isLoggedIn: value.isLoggedIn === true,
    authenticated: value.authenticated === true,
    token: text(value.token),
    refreshToken: text(value.refreshToken),
    refreshTokenExpiryTime: text(value.refreshTokenExpiryTime),
    user: isRecord(value.user) && typeof value.user.user_id === 'string' ? (value.user as AuthUser) : null,
    signalRData: isRecord(value.signalRData) ? value.signalRData : {},
    errorText: text(value.errorText),
    redirectUrl: safeRedirect(value.redirectUrl),
    expiredToken: text(value.expiredToken),
  };
}

export const authUserStore = createStore({
  context: emptyAuthUser,
  on: {
    set: (_context, event: { session: AuthSession }) => event.session,
    rememberRedirect: (context, event: { url: string | null }) => ({ ...context, redirectUrl: safeRedirect(event.url) }),
    hydrate: (_context, event: { state: unknown }) => authUserFrom(event.state),
    reset: () => emptyAuthUser,
  },
});

/**
 * A path of this app to go to after sign-in, or null: only same-origin paths (`/…`, not `//…`),
 * never the auth screens themselves.
 */
export function safeRedirect(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  const path = value.split(/[?#]/)[0];
  if (authPaths.includes(path)) return null;
  return value;
}

/** Screens that are for people who are not signed in (or are signing in). */
export const authPaths = ['/login', '/forgot-password', '/reset-password', '/first-login', '/confirm-email', '/register'];

/**
 * Whether a session exists: signed in, or expired with a refresh token whose session has not
 * ended (the next call refreshes it).
 */
export function hasSession(session: AuthSession, now = Date.now()): boolean {
  if (session.isLoggedIn && session.token) return true;
  if (!session.refreshToken) return false;
  const end = session.refreshTokenExpiryTime ? Date.parse(session.refreshTokenExpiryTime) : NaN;
  return Number.isNaN(end) || end > now;
}

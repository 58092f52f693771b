import { describe, expect, it, vi } from 'vitest';
import { createStore } from '@xstate/store';
import { accessClaims, fakeJwt } from '#machines/auth-session.model.ts';
import type { TabSync } from '#src/app/auth/tab-sync.ts';
import { authUserFrom, emptyAuthUser } from '#src/app/auth/auth-user-store.ts';

vi.mock('#src/app/auth/session-api.ts', () => ({ sessionApi: {} }));
const { startAuthSession } = await import('#src/app/auth/auth-session.ts');

const nowSeconds = () => Math.floor(Date.now() / 1000);
const token = (jti: string, exp = nowSeconds() + 900) => fakeJwt(accessClaims({ jti, exp }));

function memoryStore(initial = emptyAuthUser) {
  return createStore({
    context: initial,
    on: {
      set: (_c, event: { session: typeof emptyAuthUser }) => event.session,
      rememberRedirect: (c, event: { url: string | null }) => ({ ...c, redirectUrl: event.url }),
      hydrate: (_c, event: { state: unknown }) => authUserFrom(event.state),
      reset: () => emptyAuthUser,
    },
  });
}

function loneTab(): TabSync & { announced: unknown[]; ended: number } {
  const tab = {
    announced: [] as unknown[],
    ended: 0,
    announce: (session: unknown) => void tab.announced.push(session),
    announceEnded: () => void (tab.ended += 1),
    listen: () => {},
    exclusive: <T,>(task: (other: boolean) => Promise<T>) => task(false),
  };
  return tab;
}

function api(overrides: Record<string, unknown> = {}) {
  return {
    requestCode: vi.fn(),
    resendCode: vi.fn(),
    verifyCode: vi.fn(),
    refreshTokens: vi.fn(async () => ({ token: token('fresh'), refreshToken: 'refresh-2', refreshTokenExpiryTime: new Date(Date.now() + 86_400_000).toISOString() })),
    invalidateSession: vi.fn(async () => ({ message: 'ok' })),
    permissions: vi.fn(async () => ['Permissions.Users.Search']),
    ...overrides,
  };
}

describe('the auth session runtime', () => {
  it('should restore an expired session as expired and refresh it with the last access token', async () => {
    const old = token('old', nowSeconds() - 10);
    const store = memoryStore({ ...emptyAuthUser, isLoggedIn: true, authenticated: true, token: old, refreshToken: 'refresh-1', refreshTokenExpiryTime: new Date(Date.now() + 86_400_000).toISOString(), user: { user_id: 'u1', userType: 'candidate', resellerId: null, instituteId: null } });
    const calls = api();
    const tabs = loneTab();
    const { actor, refreshSession } = startAuthSession({ api: calls as never, store, tabs, destroy: vi.fn(), setPermissions: vi.fn() });
    expect(actor.getSnapshot().value).toBe('expired');
    expect(store.getSnapshot().context).toMatchObject({ token: null, user: null, refreshToken: 'refresh-1' });
    const next = await refreshSession();
    expect(calls.refreshTokens).toHaveBeenCalledWith({ token: old, refreshToken: 'refresh-1' });
    expect(next).toBe(store.getSnapshot().context.token);
    expect(store.getSnapshot().context).toMatchObject({ isLoggedIn: true, refreshToken: 'refresh-2' });
    expect(tabs.announced).toHaveLength(1);
  });
});

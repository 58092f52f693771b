import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { createStore } from '@xstate/store';
import { accessClaims, fakeJwt } from '#machines/auth-session.model.ts';
import { createTabSync, type TabSync } from '#src/app/auth/tab-sync.ts';
import { defaultConfig } from '#src/lib/config.ts';
import { createHttpClients } from '#src/lib/http/clients.ts';
import { fakeServer, lowerKeys, type FakeReply } from '../../lib/http/support/fake-server.ts';
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
    exclusive: <T>(task: (other: boolean) => Promise<T>) => task(false),
  };
  return tab;
}

function api(overrides: Record<string, unknown> = {}) {
  return {
    requestCode: vi.fn(),
    resendCode: vi.fn(),
    verifyCode: vi.fn(),
    refreshTokens: vi.fn(async () => ({
      token: token('fresh'),
      refreshToken: 'refresh-2',
      refreshTokenExpiryTime: new Date(Date.now() + 86_400_000).toISOString(),
    })),
    invalidateSession: vi.fn(async () => ({ message: 'ok' })),
    permissions: vi.fn(async () => ['Permissions.Users.Search']),
    ...overrides,
  };
}

describe('the auth session runtime', () => {
  it('should restore an expired session as expired and refresh it with the last access token', async () => {
    const old = token('old', nowSeconds() - 10);
    const store = memoryStore({
      ...emptyAuthUser,
      isLoggedIn: true,
      authenticated: true,
      token: old,
      refreshToken: 'refresh-1',
      refreshTokenExpiryTime: new Date(Date.now() + 86_400_000).toISOString(),
      user: { user_id: 'u1', userType: 'candidate', resellerId: null, instituteId: null },
    });
    const calls = api();
    const tabs = loneTab();
    const seen: string[] = [];
    store.subscribe((s) => seen.push(`${s.context.isLoggedIn} ${s.context.token === null} ${s.context.refreshToken}`));
    const { actor, refreshSession } = startAuthSession({ api: calls as never, store, tabs, destroy: vi.fn(), setPermissions: vi.fn() });
    // Expired on restore (token and user cleared, refresh token kept), and refreshed at once.
    expect(seen[0]).toBe('false true refresh-1');
    expect(actor.getSnapshot().value).toBe('refreshing');
    const next = await refreshSession();
    expect(calls.refreshTokens).toHaveBeenCalledTimes(1);
    expect(calls.refreshTokens).toHaveBeenCalledWith({ token: old, refreshToken: 'refresh-1' });
    expect(next).toBe(store.getSnapshot().context.token);
    expect(store.getSnapshot().context).toMatchObject({ isLoggedIn: true, refreshToken: 'refresh-2' });
    expect(tabs.announced).toHaveLength(1);
  });
});

const live = () => ({
  ...emptyAuthUser,
  isLoggedIn: true,
  authenticated: true,
  token: token('live'),
  refreshToken: 'refresh-1',
  refreshTokenExpiryTime: new Date(Date.now() + 86_400_000).toISOString(),
  user: { user_id: 'u1', userType: 'candidate', resellerId: null, instituteId: 'inst-1' },
});

describe('the auth session runtime, signing in and out', () => {
  it('should fetch the permissions with the new token after sign-in and tell the other tabs', async () => {
    const store = memoryStore();
    const pair = { token: token('signed-in'), refreshToken: 'refresh-1', refreshTokenExpiryTime: new Date(Date.now() + 86_400_000).toISOString() };
    const calls = api({
      requestCode: vi.fn(async () => ({ token: 'challenge', otpExpiresAt: '', resendAfterSeconds: 30 })),
      verifyCode: vi.fn(async () => pair),
    });
    const setPermissions = vi.fn();
    const tabs = loneTab();
    const { actor } = startAuthSession({ api: calls as never, store, tabs, destroy: vi.fn(), setPermissions });
    expect(actor.getSnapshot().value).toBe('signedOut');
    actor.send({ type: 'login.submit', email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('awaitingCode')).toBe(true));
    actor.send({ type: 'otp.submit', code: '123456' });
    await vi.waitFor(() => expect(setPermissions).toHaveBeenCalledWith(['Permissions.Users.Search']));
    expect(calls.permissions).toHaveBeenCalledWith(pair.token);
    expect(store.getSnapshot().context).toMatchObject({ isLoggedIn: true, token: pair.token, refreshToken: 'refresh-1' });
    expect(tabs.announced).toEqual([{ ...pair, user: store.getSnapshot().context.user }]);
  });

  it('should call invalidate-permission with the token, destroy the session and sign out the other tabs on logout', async () => {
    const store = memoryStore(live());
    const calls = api();
    const destroy = vi.fn();
    const tabs = loneTab();
    const { actor } = startAuthSession({ api: calls as never, store, tabs, destroy, setPermissions: vi.fn() });
    const sent = store.getSnapshot().context.token;
    actor.send({ type: 'logout' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('signedOut'));
    expect(calls.invalidateSession).toHaveBeenCalledWith({ userId: 'u1', token: sent });
    expect(destroy).toHaveBeenCalledTimes(1);
    expect(tabs.ended).toBe(1);
    expect(store.getSnapshot().context).toMatchObject({ isLoggedIn: false, token: null, refreshToken: null, user: null, redirectUrl: null });
  });

  it('should take over tokens and logouts from other tabs without echoing them back', () => {
    const store = memoryStore(live());
    const tabs = loneTab();
    let handlers: Parameters<TabSync['listen']>[0] | undefined;
    tabs.listen = (h) => void (handlers = h);
    startAuthSession({ api: api() as never, store, tabs, destroy: vi.fn(), setPermissions: vi.fn() });
    const other = { token: token('other-tab'), refreshToken: 'refresh-9', refreshTokenExpiryTime: new Date(Date.now() + 86_400_000).toISOString() };
    handlers!.synced(other);
    expect(store.getSnapshot().context).toMatchObject({ token: other.token, refreshToken: 'refresh-9' });
    handlers!.ended();
    expect(store.getSnapshot().context.refreshToken).toBeNull();
    expect(tabs.announced).toEqual([]);
    expect(tabs.ended).toBe(0);
  });

  it('should end the session when the refresh call is refused with 401', async () => {
    const store = memoryStore(live());
    const calls = api({ refreshTokens: vi.fn(async () => Promise.reject({ statusCode: 401, reason: 'refreshTokenReused' })) });
    const destroy = vi.fn();
    const { refreshSession } = startAuthSession({ api: calls as never, store, tabs: loneTab(), destroy, setPermissions: vi.fn() });
    await expect(refreshSession()).rejects.toThrow('The session could not be refreshed');
    expect(store.getSnapshot().context.refreshToken).toBeNull();
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it('should end a saved session whose refresh token has expired, at start', () => {
    const store = memoryStore({ ...live(), refreshTokenExpiryTime: new Date(Date.now() - 1000).toISOString() });
    const { actor } = startAuthSession({ api: api() as never, store, tabs: loneTab(), destroy: vi.fn(), setPermissions: vi.fn() });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(store.getSnapshot().context.refreshToken).toBeNull();
  });
});

/** Two tabs on one fake BroadcastChannel and one storage. */
function twoTabs() {
  const storage = new Map<string, string>();
  const fakeStorage = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) } as unknown as Storage;
  const listeners: Array<Array<(event: MessageEvent) => void>> = [[], []];
  const channel = (me: number) =>
    ({
      postMessage: (data: unknown) => listeners[1 - me].forEach((l) => l({ data } as MessageEvent)),
      addEventListener: (_type: string, l: (event: MessageEvent) => void) => listeners[me].push(l),
    }) as unknown as BroadcastChannel;
  return [0, 1].map((me) => createTabSync('exam-portal', { storage: fakeStorage, locks: null, channel: channel(me) }));
}

describe('tab sync', () => {
  it('should carry tokens and logouts to the other tab and say when another tab refreshed meanwhile', async () => {
    const [a, b] = twoTabs();
    const seen: string[] = [];
    b.listen({ synced: (s) => seen.push(`synced ${s.refreshToken}`), ended: () => seen.push('ended') });
    await expect(b.exclusive(async (other) => other)).resolves.toBe(false);
    a.announce({ token: 't2', refreshToken: 'r2', refreshTokenExpiryTime: '' });
    a.announceEnded();
    expect(seen).toEqual(['synced r2', 'ended']);
    // b heard both messages: nothing new.
    await expect(b.exclusive(async (other) => other)).resolves.toBe(false);
    // Another tab refreshes and this one has not had the message yet (still in flight).
    const storage = new Map<string, string>();
    const shared = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) } as unknown as Storage;
    const late = createTabSync('exam-portal', { storage: shared, locks: null, channel: null });
    const refresher = createTabSync('exam-portal', { storage: shared, locks: null, channel: null });
    await expect(late.exclusive(async (other) => other)).resolves.toBe(false);
    refresher.announce({ token: 't3', refreshToken: 'r3', refreshTokenExpiryTime: '' });
    await expect(late.exclusive(async (other) => other)).resolves.toBe(true);
    await expect(refresher.exclusive(async (other) => other)).resolves.toBe(false);
  });
});

describe('token refresh through the HTTP layer and the actor', () => {
  it('should make exactly one refresh call and answer every request with the new token, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 8 }), async (s, count) => {
        let valid = token('valid-before');
        const expired = token('expired', nowSeconds() + 900);
        let refreshCalls = 0;
        const { adapter } = fakeServer((request) => {
          let reply: FakeReply;
          if (request.url === '/tokens/refresh') {
            refreshCalls += 1;
            valid = token(`refreshed-${refreshCalls}`);
            reply = {
              status: 200,
              data: { token: valid, refreshToken: `refresh-${refreshCalls + 1}`, refreshTokenExpiryTime: new Date(Date.now() + 86_400_000).toISOString() },
            };
          } else {
            const auth = lowerKeys(request.headers).authorization;
            reply = auth === `Bearer ${valid}` ? { status: 200, data: { auth } } : { status: 401, data: { messages: ['Token expired.'], statusCode: 401 } };
          }
          return s.schedule(Promise.resolve(reply), `${request.url} → ${reply.status}`);
        });
        const store = memoryStore({ ...live(), token: expired });
        let runtime: ReturnType<typeof startAuthSession> | undefined;
        const clients = createHttpClients(defaultConfig, {
          adapter,
          auth: () => ({
            getAccessToken: () => store.getSnapshot().context.token,
            refreshSession: () => runtime!.refreshSession(),
            onSessionExpired: () => {},
          }),
          language: () => null,
          now: () => new Date(0),
          showError: () => {},
          banner: { show: () => {}, clear: () => {}, unreachable: () => {} },
        });
        const users = clients.userService;
        runtime = startAuthSession({
          api: {
            refreshTokens: async (body: unknown) => (await users.post('/tokens/refresh', body, { anonymous: true })).data,
          } as never,
          store,
          tabs: loneTab(),
          destroy: () => {},
          setPermissions: () => {},
        });
        const calls = Array.from({ length: count }, (_, n) => s.schedule(Promise.resolve(), `start #${n}`).then(() => users.get(`/users/${n}`)));
        const results = await s.waitFor(Promise.allSettled(calls));
        expect(refreshCalls).toBe(1);
        const fresh = store.getSnapshot().context.token;
        expect(results.map((r) => (r.status === 'fulfilled' ? r.value.data : r.reason))).toEqual(calls.map(() => ({ auth: `Bearer ${fresh}` })));
        expect(runtime.actor.getSnapshot().value).toBe('signedIn');
      }),
      { numRuns: 60 },
    );
  });
});

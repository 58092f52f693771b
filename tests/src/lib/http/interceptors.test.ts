import { isCancel } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { defaultConfig, serviceKeys } from '#src/lib/config.ts';
import type { HttpAuth } from '#src/lib/http/auth-bridge.ts';
import { createHttpClients } from '#src/lib/http/clients.ts';
import { toastText } from '#tests/src/support/english.ts';
import { fakeServer, lowerKeys, type FakeHandler, type SeenRequest } from './support/fake-server.ts';

const INVALID = 'Invalid end point, Please try again later or contact Admin';
const GENERIC = 'Something went wrong, Please try again later or contact Admin';

const unauthorizedBody = {
  messages: ['Authentication failed.'],
  source: 'access',
  exception: 'UnauthorizedException',
  errorId: 'e-401',
  supportMessage: 'Sign in again.',
  statusCode: 401,
};

/** A session that refreshes through the layer itself, as the auth-session actor will. */
function session(initial: string | null) {
  let token = initial;
  let refreshes = 0;
  let expired = 0;
  const auth = (post: (url: string, data: unknown) => Promise<{ data: { token: string } }>): HttpAuth => ({
    getAccessToken: () => token,
    async refreshSession() {
      refreshes += 1;
      const { data } = await post('/tokens/refresh', { token, refreshToken: 'refresh-1' });
      token = data.token;
      return token;
    },
    onSessionExpired: () => {
      expired += 1;
      token = null;
    },
  });
  return {
    auth,
    get token() {
      return token;
    },
    get refreshes() {
      return refreshes;
    },
    get expired() {
      return expired;
    },
  };
}

function setup(handler: FakeHandler, options: { token?: string | null; language?: string | null; withAuth?: boolean } = {}) {
  const server = fakeServer(handler);
  const shown: unknown[] = [];
  const banner = {
    shown: false,
    unreachableShown: false,
    show: vi.fn(() => (banner.shown = true)),
    clear: vi.fn(() => ((banner.shown = false), (banner.unreachableShown = false))),
    unreachable: vi.fn(() => (banner.unreachableShown = true)),
  };
  const user = session(options.token === undefined ? 'token-1' : options.token);
  let authObject: HttpAuth | null = null;
  const clients = createHttpClients(defaultConfig, {
    adapter: server.adapter,
    auth: () => authObject,
    language: () => (options.language === undefined ? 'fr' : options.language),
    now: () => new Date('2026-11-22T10:00:00Z'),
    showError: (subject) => shown.push(subject),
    banner,
  });
  if (options.withAuth !== false) {
    authObject = user.auth((url, data) => clients.userService.post(url, data, { anonymous: true, showErrors: false }));
  }
  return { client: clients.userService, clients, server, shown, banner, user };
}

/**
 * A server that accepts one bearer token (`valid`; null: none, the session expired) and issues
 * token-2, token-3 … on refresh (or answers the refresh with 401 and `refreshBody`).
 */
interface TokenState {
  valid: string | null;
  next?: number;
  refreshBody?: unknown;
  unauthorizedBody?: unknown;
}
function tokenServer(state: TokenState): FakeHandler {
  return (request) => {
    if (request.url === '/tokens/refresh') {
      if (state.refreshBody !== undefined) return { status: 401, data: state.refreshBody };
      state.next = (state.next ?? 2) + 1;
      state.valid = `token-${state.next - 1}`;
      return { status: 200, data: { token: state.valid, refreshToken: 'refresh-2', refreshTokenExpiryTime: '2099-11-29T10:00:00Z' } };
    }
    const auth = lowerKeys(request.headers).authorization;
    if (!state.valid || auth !== `Bearer ${state.valid}`) return { status: 401, data: state.unauthorizedBody ?? unauthorizedBody };
    return { status: 200, data: { url: request.url, auth } };
  };
}

const authHeaderOf = (request: SeenRequest) => lowerKeys(request.headers).authorization;

describe('HTTP clients', () => {
  it('should make one instance per service with its base URL and no time-out', async () => {
    const { clients, server } = setup(() => ({ status: 200, data: {} }));
    expect(Object.keys(clients)).toEqual([...serviceKeys]);
    expect(new Set(Object.values(clients)).size).toBe(12);
    expect(clients.examService.defaults.baseURL).toBe('/api');
    await clients.paperService.get('/papers');
    expect(server.seen[0].timeout).toBe(0);
  });

  it('should send the headers of an authenticated call', async () => {
    const { client, server } = setup(() => ({ status: 200, data: {} }), { language: 'hi' });
    await client.get('/users/7');
    expect(lowerKeys(server.seen[0].headers)).toMatchObject({
      authorization: 'Bearer token-1',
      'content-type': 'application/json',
      'accept-language': 'hi',
      timezoneoffset: '+00:00',
    });
    expect(lowerKeys(server.seen[0].headers)).not.toHaveProperty('tenant');
  });

  it('should send accept-language en-US when no locale is stored', async () => {
    const { client, server } = setup(() => ({ status: 200, data: {} }), { language: null });
    await client.get('/users/7');
    expect(lowerKeys(server.seen[0].headers)['accept-language']).toBe('en-US');
  });

  it('should send tenant root and no token on an unauthenticated call', async () => {
    const { client, server } = setup(() => ({ status: 200, data: {} }));
    await client.post('/tokens', { email: 'a@b.c', password: 'x' }, { anonymous: true });
    const headers = lowerKeys(server.seen[0].headers);
    expect(headers).toMatchObject({ tenant: 'root', 'content-type': 'application/json', 'accept-language': 'fr', timezoneoffset: '+00:00' });
    expect(headers).not.toHaveProperty('authorization');
  });

  it('should send none of the session headers on an authenticated call without a token', async () => {
    const { client, server } = setup(() => ({ status: 200, data: {} }), { token: null });
    await client.get('/users/7');
    const headers = lowerKeys(server.seen[0].headers);
    for (const name of ['authorization', 'accept-language', 'timezoneoffset', 'tenant']) expect(headers).not.toHaveProperty(name);
  });

  it('should ask for multipart when the body is a form', async () => {
    const { client, server } = setup(() => ({ status: 200, data: {} }));
    const form = new FormData();
    form.append('file', new Blob(['a,b']), 'users.csv');
    await client.post('/users/uploadusers', form);
    expect(lowerKeys(server.seen[0].headers)['content-type']).toBe('multipart/form-data');
  });

  it('should use an explicit bearer token when the call brings one', async () => {
    const { client, server } = setup(() => ({ status: 200, data: {} }), { token: null });
    await client.get('/personal/permissions', { accessToken: 'fresh-token' });
    expect(authHeaderOf(server.seen[0])).toBe('Bearer fresh-token');
  });
});

describe('401 handling', () => {
  it('should refresh once and retry with the new token', async () => {
    const state: TokenState = { valid: null };
    const { client, server, user, shown } = setup(tokenServer(state));
    const response = await client.get('/users/7');
    expect(response.data).toEqual({ url: '/users/7', auth: 'Bearer token-2' });
    expect(user.refreshes).toBe(1);
    expect(server.seen.map((r) => `${r.url} ${authHeaderOf(r) ?? '-'}`)).toEqual(['/users/7 Bearer token-1', '/tokens/refresh -', '/users/7 Bearer token-2']);
    expect(shown).toEqual([]);
  });

  it('should queue concurrent 401s behind one refresh and replay them with the new token', async () => {
    const state: TokenState = { valid: null };
    let releaseRefresh!: () => void;
    const gate = new Promise<void>((resolve) => (releaseRefresh = resolve));
    const handler = tokenServer(state);
    const { client, user, server } = setup(async (request, config) => {
      if (request.url === '/tokens/refresh') await gate;
      return handler(request, config);
    });
    const calls = ['/a', '/b', '/c', '/d'].map((url) => client.get(url));
    await vi.waitFor(() => expect(server.seen.filter((r) => r.url === '/tokens/refresh')).toHaveLength(1));
    releaseRefresh();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.data.auth)).toEqual(['Bearer token-2', 'Bearer token-2', 'Bearer token-2', 'Bearer token-2']);
    expect(user.refreshes).toBe(1);
  });

  it('should retry a request whose token went stale while it was in flight without refreshing again', async () => {
    const state: TokenState = { valid: 'token-1' };
    const handler = tokenServer(state);
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    const { client, user, server } = setup(async (request, config) => {
      if (request.url === '/slow') await slow;
      return handler(request, config);
    });
    const slowCall = client.get('/slow');
    await vi.waitFor(() => expect(server.seen.map((r) => r.url)).toEqual(['/slow']));
    // The access token expires while /slow is on its way; /first finds out and refreshes.
    state.valid = null;
    await expect(client.get('/first')).resolves.toMatchObject({ data: { auth: 'Bearer token-2' } });
    releaseSlow();
    await expect(slowCall).resolves.toMatchObject({ data: { auth: 'Bearer token-2' } });
    expect(user.refreshes).toBe(1);
    expect(server.seen.map((r) => `${r.url} ${authHeaderOf(r) ?? '-'}`)).toEqual([
      '/slow Bearer token-1',
      '/first Bearer token-1',
      '/tokens/refresh -',
      '/first Bearer token-2',
      '/slow Bearer token-2',
    ]);
  });

  it.each(['/tokens', '/tokens/verifyotp', '/tokens/resendotp', '/users/7/invalidatepermission'])(
    'should not retry a 401 on %s and reject with its body',
    async (url) => {
      const { client, user, shown, banner } = setup(() => ({ status: 401, data: unauthorizedBody }));
      await expect(client.post(url, {})).rejects.toEqual(unauthorizedBody);
      expect(user.refreshes).toBe(0);
      expect(shown).toEqual([]);
      expect(banner.show).not.toHaveBeenCalled();
    },
  );

  it('should log out on a 401 of the refresh call and reject the waiting request with its own body', async () => {
    const state: TokenState = { valid: null, refreshBody: { messages: ['Refresh token expired.'], statusCode: 401 } };
    const { client, user, server } = setup(tokenServer(state));
    await expect(client.get('/users/7')).rejects.toEqual(unauthorizedBody);
    expect(user.expired).toBe(1);
    expect(user.token).toBeNull();
    expect(server.seen.map((r) => r.url)).toEqual(['/users/7', '/tokens/refresh']);
  });

  it('should not retry a second time when the retry gets a 401 too', async () => {
    const { client, user, server } = setup((request) =>
      request.url === '/tokens/refresh' ? { status: 200, data: { token: 'token-2' } } : { status: 401, data: unauthorizedBody },
    );
    await expect(client.get('/users/7')).rejects.toEqual(unauthorizedBody);
    expect(user.refreshes).toBe(1);
    expect(user.expired).toBe(0);
    expect(server.seen.map((r) => r.url)).toEqual(['/users/7', '/tokens/refresh', '/users/7']);
  });

  it('should not refresh for an unauthenticated call', async () => {
    const { client, user, server } = setup(() => ({ status: 401, data: unauthorizedBody }));
    await expect(client.post('/users/self-register', {}, { anonymous: true })).rejects.toEqual(unauthorizedBody);
    expect(user.refreshes).toBe(0);
    expect(server.seen.map((r) => r.url)).toEqual(['/users/self-register']);
  });

  it('should refresh and retry a call that went out without a token once the token expired (the refresh token is kept)', async () => {
    const state: TokenState = { valid: null };
    const { client, user } = setup(tokenServer(state), { token: null });
    await expect(client.get('/users/7')).resolves.toMatchObject({ data: { auth: 'Bearer token-2' } });
    expect(user.refreshes).toBe(1);
  });

  it('should not retry without a response', async () => {
    const { client, user } = setup(() => 'network');
    const error = await client.get('/users/7').catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('ERR_NETWORK');
    expect(user.refreshes).toBe(0);
  });

  it('should say a network failure once, in the offline banner, and no toast per call (issue 23)', async () => {
    let reachable = false;
    const { client, shown, banner } = setup(() => (reachable ? { status: 200, data: {} } : 'network'));
    await Promise.all([client.get('/users/7').catch(() => {}), client.get('/users/8').catch(() => {}), client.post('/tokens', {}).catch(() => {})]);
    expect(shown).toEqual([]);
    expect(banner.unreachable).toHaveBeenCalledTimes(3);
    expect(banner.unreachableShown).toBe(true);
    // The server answers again: the next answered call takes the banner away.
    reachable = true;
    await client.get('/users/7');
    expect(banner.unreachableShown).toBe(false);
  });

  it('should reject a 401 as is when no session is plugged in', async () => {
    const { client, user } = setup(() => ({ status: 401, data: unauthorizedBody }), { withAuth: false });
    await expect(client.get('/users/7')).rejects.toEqual(unauthorizedBody);
    expect(user.refreshes).toBe(0);
  });
});

describe('the banner', () => {
  it('should say "technical difficulties" after a 401 with a body that a refresh did not cure, and clear on the next success', async () => {
    let healthy = false;
    const state: TokenState = { valid: null };
    const handler = tokenServer(state);
    const { client, banner } = setup((request, config) => {
      if (request.url === '/tokens/refresh') return handler(request, config);
      return healthy ? { status: 200, data: {} } : { status: 401, data: unauthorizedBody };
    });
    await expect(client.get('/users/7')).rejects.toEqual(unauthorizedBody);
    expect(banner.shown).toBe(true);
    healthy = true;
    await client.get('/users/7');
    expect(banner.shown).toBe(false);
  });

  it('should be cleared after a 401 without a body', async () => {
    const { client, banner } = setup(() => ({ status: 401, data: '' }), { withAuth: false });
    banner.shown = true;
    await expect(client.get('/users/7')).rejects.toBeInstanceOf(Error);
    expect(banner.clear).toHaveBeenCalled();
    expect(banner.shown).toBe(false);
  });

  it('should be cleared by any other failure', async () => {
    const { client, banner } = setup(() => ({ status: 500, data: '' }));
    banner.shown = true;
    await client.get('/users/7').catch(() => {});
    expect(banner.shown).toBe(false);
  });

  it('should stay as it is after a token call (a wrong password is not a technical difficulty)', async () => {
    const { client, banner } = setup(() => ({ status: 401, data: unauthorizedBody }));
    await client.post('/tokens', {}, { anonymous: true }).catch(() => {});
    expect(banner.show).not.toHaveBeenCalled();
    expect(banner.clear).not.toHaveBeenCalled();
  });
});

describe('failed-call messages', () => {
  const errorBody = (statusCode: number) => ({
    messages: ['Ticket 7 is Closed.'],
    source: 'tickets',
    exception: 'ConflictException',
    errorId: 'e-1',
    supportMessage: 'Quote e-1.',
    statusCode,
  });

  it.each([
    [400, 'Email is not valid.', 'Email is not valid.'],
    [
      400,
      { title: 'One or more validation errors occurred.', status: 400, errors: { email: ['Required.', 'Not an e-mail.'], phoneNumber: ['Too long.'] } },
      'One or more validation errors occurred. | Required. Not an e-mail. | Too long.',
    ],
    [400, { detail: 'nothing useful' }, INVALID],
    [400, '', INVALID],
    [404, errorBody(404), 'Ticket 7 is Closed.'],
    [404, 'No such ticket.', 'No such ticket.'],
    [404, '', INVALID],
    [405, { title: 'Method Not Allowed' }, 'Method Not Allowed'],
    [405, '', GENERIC],
    [415, { title: 'Unsupported Media Type' }, 'Unsupported Media Type'],
    [415, 'x', GENERIC],
    [403, errorBody(403), 'Ticket 7 is Closed.'],
    [403, { exception: 'Not your ticket.' }, 'Not your ticket.'],
    [403, '', GENERIC],
    [409, errorBody(409), 'Ticket 7 is Closed.'],
    [409, { ...errorBody(409), messages: [] }, 'ConflictException'],
    [409, '', GENERIC],
    [500, errorBody(500), 'Ticket 7 is Closed.'],
    [500, '', GENERIC],
  ])('should show for a %i with %j: %s', async (status, body, expected) => {
    const { client, shown } = setup(() => ({ status, data: body }));
    const rejected = await client.get('/v1/supportticket?ticketId=7').catch((e: unknown) => e);
    expect(await Promise.all(shown.map(toastText))).toEqual([expected]);
    // Spec §8: the rejected value is the body, or the error itself.
    if (body === '') expect(rejected).toBeInstanceOf(Error);
    else expect(rejected).toEqual(body);
  });

  it.each([401, 402, 422, 429, 502, 503])('should show nothing itself for a %i', async (status) => {
    const { client, shown } = setup(() => ({ status, data: errorBody(status) }), { withAuth: false });
    await client.get('/users/7').catch(() => {});
    expect(shown).toEqual([]);
  });

  it('should parse a blob body as JSON to find the title, and reject with the blob', async () => {
    const blob = new Blob([JSON.stringify({ title: 'The template is invalid.' })], { type: 'application/json' });
    const { client, shown } = setup(() => ({ status: 400, data: blob }));
    const rejected = await client.post('/users/downloadusertemplate', {}, { responseType: 'blob' }).catch((e: unknown) => e);
    expect(rejected).toBe(blob);
    expect(await Promise.all(shown.map(toastText))).toEqual(['The template is invalid.']);
  });

  it('should never show a blob that is not JSON as a message', async () => {
    const { client, shown } = setup(() => ({ status: 400, data: new Blob(['%PDF-1.7 binary']) }));
    await client.post('/users/downloaderrorfile', {}, { responseType: 'blob' }).catch(() => {});
    expect(await Promise.all(shown.map(toastText))).toEqual([INVALID]);
  });

  it('should read a streamed error body (a download) into a blob', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(errorBody(404))));
        controller.close();
      },
    });
    const { client, shown } = setup(() => ({ status: 404, data: stream, headers: { 'content-type': 'application/json' } }));
    const rejected = await client.post('/v1/supportticket/downloaddocument?documentId=3', {}, { responseType: 'stream' }).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(Blob);
    expect(JSON.parse(await (rejected as Blob).text())).toEqual(errorBody(404));
    expect(await Promise.all(shown.map(toastText))).toEqual(['Ticket 7 is Closed.']);
  });

  it('should show nothing when the caller shows errors itself', async () => {
    const { client, shown } = setup(() => ({ status: 500, data: '' }));
    await client.get('/users/7', { showErrors: false }).catch(() => {});
    expect(shown).toEqual([]);
  });

  it('should ignore a cancelled request silently and still reject it', async () => {
    const { client, shown, banner } = setup(() => ({ status: 200, data: {} }));
    const controller = new AbortController();
    controller.abort();
    const rejected = await client.get('/users/7', { signal: controller.signal }).catch((e: unknown) => e);
    expect(isCancel(rejected)).toBe(true);
    expect(shown).toEqual([]);
    expect(banner.show).not.toHaveBeenCalled();
    expect(banner.clear).not.toHaveBeenCalled();
  });
});

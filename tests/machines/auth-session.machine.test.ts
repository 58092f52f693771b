import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, toPromise, waitFor, type AnyActorLogic, type EventObject } from 'xstate';
import { authSessionMachine, failureOf, sessionOf, tokenExpiry, userFromToken, type Challenge } from '#machines/auth-session.machine.ts';
import { accessClaims, authSessionProjection, authSessionTestPaths, fakeJwt, modelTokens } from '#machines/auth-session.model.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { authSessionExpectation, freshAuthSessionFacts } from '#tests/fixtures/expectations/auth-session.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

afterEach(() => {
  vi.useRealTimers();
});

const challenge: Challenge = { token: 'challenge-1', otpExpiresAt: '2026-11-22T10:10:00.000Z', resendAfterSeconds: 30 };

/** A fake API: each call is recorded and answered by the function given (default: success). */
function fakeApi(
  overrides: Partial<Record<'requestCode' | 'resendCode' | 'verifyCode' | 'refreshTokens' | 'invalidateSession', (input: never) => Promise<unknown>>> = {},
) {
  const calls: Array<{ name: string; input: unknown }> = [];
  const destroy = vi.fn();
  const loadPermissions = vi.fn();
  const actor = (name: string, fallback: (input: never) => Promise<unknown>) =>
    fromPromise(({ input }: { input: never }) => {
      calls.push({ name, input });
      return (overrides[name as keyof typeof overrides] ?? fallback)(input);
    });
  const machine = authSessionMachine.provide({
    actors: {
      requestCode: actor('requestCode', async () => challenge) as never,
      resendCode: actor('resendCode', async () => ({ ...challenge, token: 'challenge-2' })) as never,
      verifyCode: actor('verifyCode', async () => modelTokens.first) as never,
      refreshTokens: actor('refreshTokens', async () => modelTokens.second) as never,
      invalidateSession: actor('invalidateSession', async () => ({ message: 'Signed out.' })) as never,
    },
    actions: { destroySession: destroy, loadPermissions },
  });
  return { machine, calls, destroy, loadPermissions };
}

async function signedInActor(api = fakeApi()) {
  const actor = createActor(api.machine).start();
  actor.send({ type: 'session.restore', session: null });
  actor.send({ type: 'login.submit', email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' });
  await waitFor(actor, (s) => s.matches('awaitingCode'));
  actor.send({ type: 'otp.submit', code: '042917' });
  await waitFor(actor, (s) => s.matches('signedIn'));
  return { actor, ...api };
}

describe('userFromToken', () => {
  it('should shorten claim names to their last path segment and make the name identifier user_id', () => {
    const user = userFromToken(fakeJwt(accessClaims()));
    expect(user.user_id).toBe('7f1c4a52-0d7e-4c8e-9a51-3f2b6c1d9e01');
    expect(user.emailaddress).toBe('asha.patel@example.com');
    expect(user.name).toBe('Asha');
    expect(user.surname).toBe('Patel');
    expect(user.userType).toBe('candidate');
    expect(user.instituteId).toBe('inst-1');
    expect(Object.keys(user).some((key) => key.includes('/'))).toBe(false);
  });
});

describe('failureOf', () => {
  it('should read the reason and numbers of an error body, and name a failure without a response a network one', () => {
    expect(failureOf({ statusCode: 401, reason: 'codeWrong', remainingAttempts: 3 })).toEqual({
      reason: 'codeWrong',
      status: 401,
      remainingAttempts: 3,
      retryAfterSeconds: null,
    });
    expect(failureOf({ status: 400, title: 'One or more validation errors occurred.' }).reason).toBe('invalidInput');
    expect(failureOf(new Error('Network Error'))).toEqual({ reason: 'network', status: null, remainingAttempts: null, retryAfterSeconds: null });
  });
});

describe('auth-session machine', () => {
  it('should sign in with the password and the e-mailed code, storing token, refresh token, expiry and user (spec §4)', async () => {
    const { actor, calls, loadPermissions } = await signedInActor();
    const { context } = actor.getSnapshot();
    expect(calls.map((c) => c.name)).toEqual(['requestCode', 'verifyCode']);
    expect(calls[0].input).toEqual({ email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' });
    expect(calls[1].input).toEqual({ email: 'asha.patel@example.com', enteredOTP: '042917', token: 'challenge-1' });
    expect(context.isLoggedIn).toBe(true);
    expect(context.authenticated).toBe(true);
    expect(context.token).toBe(modelTokens.first.token);
    expect(context.refreshToken).toBe('refresh-a');
    expect(context.refreshTokenExpiryTime).toBe('2099-11-29T10:00:00.000Z');
    expect(context.user?.user_id).toBe('7f1c4a52-0d7e-4c8e-9a51-3f2b6c1d9e01');
    // The password does not outlive the sign-in.
    expect(context.password).toBeNull();
    expect(loadPermissions).toHaveBeenCalledTimes(1);
  });

  it('should record a refused password and stay signed out', async () => {
    const api = fakeApi({ requestCode: async () => Promise.reject({ statusCode: 401, reason: 'invalidCredentials' }) });
    const actor = createActor(api.machine).start();
    actor.send({ type: 'session.restore', session: null });
    actor.send({ type: 'login.submit', email: 'asha.patel@example.com', password: 'wrong one' });
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut') && s.context.errorText !== null);
    expect(snapshot.context.errorText).toBe('invalidCredentials');
    expect(snapshot.context.isLoggedIn).toBe(false);
  });

  it('should keep the code step after a wrong code and say how many tries are left', async () => {
    const api = fakeApi({ verifyCode: async () => Promise.reject({ statusCode: 401, reason: 'codeWrong', remainingAttempts: 4 }) });
    const actor = createActor(api.machine).start();
    actor.send({ type: 'session.restore', session: null });
    actor.send({ type: 'login.submit', email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' });
    await waitFor(actor, (s) => s.matches('awaitingCode'));
    actor.send({ type: 'otp.submit', code: '000000' });
    const snapshot = await waitFor(actor, (s) => s.matches({ awaitingCode: { code: 'editing' } }) && s.context.errorText !== null);
    expect(snapshot.context.errorText).toBe('codeWrong');
    expect(snapshot.context.remainingAttempts).toBe(4);
  });

  it('should allow a resend only after the cooldown, and resend with the email and password', async () => {
    vi.useFakeTimers();
    const api = fakeApi();
    const actor = createActor(api.machine).start();
    actor.send({ type: 'session.restore', session: null });
    actor.send({ type: 'login.submit', email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().can({ type: 'otp.resend' })).toBe(false);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'coolingDown' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().can({ type: 'otp.resend' })).toBe(true);
    actor.send({ type: 'otp.resend' });
    await vi.advanceTimersByTimeAsync(0);
    expect(api.calls.at(-1)).toEqual({ name: 'resendCode', input: { email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' } });
    expect(actor.getSnapshot().context.challengeToken).toBe('challenge-2');
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'coolingDown' } })).toBe(true);
  });

  /** Signs in up to the code step with fake timers; `requestCode` answers `first`. */
  async function atCodeStep(api: ReturnType<typeof fakeApi>) {
    const actor = createActor(api.machine).start();
    actor.send({ type: 'session.restore', session: null });
    actor.send({ type: 'login.submit', email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'coolingDown' } })).toBe(true);
    return actor;
  }

  // Issue 14 survivors: the fallback when a challenge has no usable resendAfterSeconds, and a
  // 429 that says how long is left. Spec numbers written here as literals (30 s), not imported.
  it('should fall back to a 30-second cooldown when the challenge has no resendAfterSeconds', async () => {
    vi.useFakeTimers();
    const api = fakeApi({ requestCode: async () => ({ token: 'challenge-1', otpExpiresAt: '2026-11-22T10:10:00.000Z' }) });
    const actor = await atCodeStep(api);
    expect(actor.getSnapshot().context.resendAfterSeconds).toBe(30);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'coolingDown' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'ready' } })).toBe(true);
  });

  it('should fall back to 30 seconds for a zero or negative resendAfterSeconds too', async () => {
    vi.useFakeTimers();
    for (const resendAfterSeconds of [0, -5]) {
      const actor = await atCodeStep(fakeApi({ requestCode: async () => ({ ...challenge, resendAfterSeconds }) }));
      expect(actor.getSnapshot().context.resendAfterSeconds).toBe(30);
      actor.stop();
    }
  });

  it('should take the cooldown the challenge gives', async () => {
    vi.useFakeTimers();
    const actor = await atCodeStep(fakeApi({ requestCode: async () => ({ ...challenge, resendAfterSeconds: 5 }) }));
    expect(actor.getSnapshot().context.resendAfterSeconds).toBe(5);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'coolingDown' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'ready' } })).toBe(true);
  });

  it('should cool down for the seconds a 429 says are left, not a fresh 30', async () => {
    vi.useFakeTimers();
    const api = fakeApi({
      requestCode: async () => ({ ...challenge, resendAfterSeconds: 1 }),
      resendCode: async () => {
        throw { statusCode: 429, reason: 'resendCooldown', retryAfterSeconds: 12, messages: ['Wait 12 seconds before asking for another code.'] };
      },
    });
    const actor = await atCodeStep(api);
    await vi.advanceTimersByTimeAsync(1_000);
    actor.send({ type: 'otp.resend' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'coolingDown' } })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ resendAfterSeconds: 12, errorText: 'resendCooldown' });
    await vi.advanceTimersByTimeAsync(11_999);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'coolingDown' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'ready' } })).toBe(true);
  });

  it('should cool down 30 seconds after a 429 that does not say how long', async () => {
    vi.useFakeTimers();
    const api = fakeApi({
      requestCode: async () => ({ ...challenge, resendAfterSeconds: 1 }),
      resendCode: async () => {
        throw { statusCode: 429, messages: ['Too many requests.'] };
      },
    });
    const actor = await atCodeStep(api);
    await vi.advanceTimersByTimeAsync(1_000);
    actor.send({ type: 'otp.resend' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context).toMatchObject({ resendAfterSeconds: 30, errorText: 'rateLimited' });
  });

  it('should let the user try again at once after a resend that failed for another reason', async () => {
    vi.useFakeTimers();
    const api = fakeApi({
      requestCode: async () => ({ ...challenge, resendAfterSeconds: 1 }),
      resendCode: async () => {
        throw new Error('Network Error');
      },
    });
    const actor = await atCodeStep(api);
    await vi.advanceTimersByTimeAsync(1_000);
    actor.send({ type: 'otp.resend' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'ready' } })).toBe(true);
    expect(actor.getSnapshot().context.errorText).toBe('network');
  });

  it('should replace tokens and user on refresh but keep userType, resellerId and instituteId (spec §4)', async () => {
    const { actor, calls } = await signedInActor();
    actor.send({ type: 'token.refresh' });
    const { context } = await waitFor(actor, (s) => s.matches('signedIn') && s.context.token === modelTokens.second.token);
    expect(calls.at(-1)).toEqual({ name: 'refreshTokens', input: { token: modelTokens.first.token, refreshToken: 'refresh-a' } });
    expect(context.refreshToken).toBe('refresh-b');
    // The new token says staff and no institute; the session keeps what it had.
    expect(context.user?.userType).toBe('candidate');
    expect(context.user?.instituteId).toBe('inst-1');
    expect(context.user?.resellerId).toBeNull();
  });

  it('should log out when the refresh call is refused with 401 (spec §4)', async () => {
    const api = fakeApi({ refreshTokens: async () => Promise.reject({ statusCode: 401, reason: 'refreshTokenReused' }) });
    const { actor, destroy } = await signedInActor(api);
    actor.send({ type: 'token.refresh' });
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut'));
    expect(sessionOf(snapshot.context)).toMatchObject({ isLoggedIn: false, token: null, refreshToken: null, user: null });
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it('should clear flags, token and user on expiry but keep the refresh token, then refresh with the last token (spec §4)', async () => {
    const { actor, calls } = await signedInActor();
    actor.send({ type: 'session.expired' });
    const expired = actor.getSnapshot();
    expect(expired.value).toBe('expired');
    expect(sessionOf(expired.context)).toMatchObject({ isLoggedIn: false, authenticated: false, token: null, user: null, refreshToken: 'refresh-a' });
    actor.send({ type: 'token.refresh' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(calls.at(-1)).toEqual({ name: 'refreshTokens', input: { token: modelTokens.first.token, refreshToken: 'refresh-a' } });
  });

  it('should call invalidate-permission on logout, then clear everything, forget the redirect URL and destroy the session (spec §4)', async () => {
    const { actor, calls, destroy } = await signedInActor();
    actor.send({ type: 'redirect.remember', url: '/tickets' });
    actor.send({ type: 'signalr.data', data: { unread: 1 } });
    actor.send({ type: 'logout' });
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut'));
    expect(calls.at(-1)).toEqual({ name: 'invalidateSession', input: { userId: '7f1c4a52-0d7e-4c8e-9a51-3f2b6c1d9e01', token: modelTokens.first.token } });
    expect(snapshot.context).toMatchObject({
      isLoggedIn: false,
      authenticated: false,
      token: null,
      refreshToken: null,
      refreshTokenExpiryTime: null,
      user: null,
      redirectUrl: null,
    });
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it('should merge user updates and real-time data, store an error text and reset the whole store', async () => {
    const { actor, destroy } = await signedInActor();
    actor.send({ type: 'user.update', user: { name: 'Asha R.', phoneNumber: '+91 98765 43210' } });
    actor.send({ type: 'signalr.data', data: { unread: 1 } });
    actor.send({ type: 'signalr.data', data: { online: true } });
    actor.send({ type: 'error.set', errorText: 'Something happened' });
    const { context } = actor.getSnapshot();
    expect(context.user).toMatchObject({ name: 'Asha R.', phoneNumber: '+91 98765 43210', surname: 'Patel' });
    expect(context.signalRData).toEqual({ unread: 1, online: true });
    expect(context.errorText).toBe('Something happened');
    actor.send({ type: 'session.reset' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ token: null, refreshToken: null, signalRData: {}, errorText: null, user: null });
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it('should take over the tokens another tab obtained, and end when another tab logs out', async () => {
    const { actor, calls } = await signedInActor();
    actor.send({ type: 'session.synced', session: modelTokens.second });
    expect(actor.getSnapshot().context.token).toBe(modelTokens.second.token);
    actor.send({ type: 'session.ended' });
    expect(actor.getSnapshot().value).toBe('signedOut');
    // The other tab already told the server; this one makes no call.
    expect(calls.map((c) => c.name)).toEqual(['requestCode', 'verifyCode']);
  });
});

describe('auth-session model', () => {
  const paths = authSessionTestPaths();
  const recorder = replayRecorder(authSessionMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it('should walk every path of the graph against the actor with a fake API', async () => {
    for (const path of paths) {
      const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
      const controlled = (name: string) => fromPromise(() => new Promise((resolve, reject) => pending.set(name, { resolve, reject })));
      await recorder.run(path, () =>
        replayPath(path, {
          independent: new IndependentExpectation(authSessionExpectation, freshAuthSessionFacts()),
          start: () =>
            createActor(
              authSessionMachine.provide({
                actors: {
                  requestCode: controlled('requestCode') as never,
                  resendCode: controlled('resendCode') as never,
                  verifyCode: controlled('verifyCode') as never,
                  refreshTokens: controlled('refreshTokens') as never,
                  invalidateSession: controlled('invalidateSession') as never,
                },
              }),
            ).start(),
          delays: { resendCooldown: 30_000 },
          settle: (event: EventObject) => {
            const [, kind, , id] = event.type.split('.');
            const waiting = pending.get(id);
            if (!waiting) return false;
            pending.delete(id);
            if (kind === 'done') waiting.resolve((event as EventObject & { output: unknown }).output);
            else waiting.reject((event as EventObject & { error: unknown }).error);
            return true;
          },
          expectSame: (live, model) => {
            expect(authSessionProjection(live as never)).toEqual(authSessionProjection(model as never));
          },
        }),
      );
    }
  }, 120_000);

  it('should take every rule of the independent expectation on some path', () => {
    expect(rulesNoPathTakes(authSessionExpectation, freshAuthSessionFacts, paths as never)).toEqual([]);
  });

  it('should reach every state and transition of the auth session', () => {
    const report = reportMachineCoverage(authSessionMachine, paths, { pathsWalked: paths.map((p) => p.description) });
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

// Issue 14 survivors: expiry reading, failure bodies, restored sessions of odd shapes, refresh
// failures that are not a 401, and the calls the app must provide.
describe('tokenExpiry', () => {
  it('should read the exp claim of a token as seconds since the epoch', () => {
    expect(tokenExpiry(fakeJwt(accessClaims({ exp: 4_102_444_800 })))).toBe(4_102_444_800);
  });

  it('should answer null for no token, a token without a numeric exp, and a token that is not a JWT', () => {
    expect(tokenExpiry(null)).toBeNull();
    expect(tokenExpiry('')).toBeNull();
    expect(tokenExpiry(fakeJwt({ sub: 'no-exp' }))).toBeNull();
    expect(tokenExpiry(fakeJwt(accessClaims({ exp: '4102444800' })))).toBeNull();
    expect(tokenExpiry('not-a-jwt')).toBeNull();
  });
});

describe('failureOf, the shapes an HTTP error can take', () => {
  it('should take the status of the response an HTTP client error carries', () => {
    expect(failureOf({ message: 'Request failed', response: { status: 503 } })).toEqual({
      reason: 'failed',
      status: 503,
      remainingAttempts: null,
      retryAfterSeconds: null,
    });
  });

  it('should name a 429 without a reason rateLimited and any other status failed', () => {
    expect(failureOf({ statusCode: 429 }).reason).toBe('rateLimited');
    expect(failureOf({ statusCode: 500 }).reason).toBe('failed');
    expect(failureOf({ status: 404 }).reason).toBe('failed');
  });

  it('should ignore a reason that is not a string and fall back to the status', () => {
    expect(failureOf({ statusCode: 429, reason: 42 }).reason).toBe('rateLimited');
    expect(failureOf({ statusCode: 400, reason: { code: 'x' } }).reason).toBe('invalidInput');
  });

  it('should call a rejection with null, undefined or a plain string a network failure', () => {
    const network = { reason: 'network', status: null, remainingAttempts: null, retryAfterSeconds: null };
    expect(failureOf(null)).toEqual(network);
    expect(failureOf(undefined)).toEqual(network);
    expect(failureOf('timeout')).toEqual(network);
    expect(failureOf({ response: null })).toEqual(network);
  });
});

describe('auth-session machine, restored sessions and refresh failures', () => {
  it('should keep only the remembered redirect URL of a saved session that cannot be resumed', () => {
    const actor = createActor(fakeApi().machine).start();
    actor.send({ type: 'session.restore', session: { isLoggedIn: false, token: null, refreshToken: null, redirectUrl: '/tickets', errorText: 'old' } });
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('signedOut');
    expect(snapshot.context.redirectUrl).toBe('/tickets');
    expect(snapshot.context.errorText).toBeNull();
  });

  it('should drop a saved redirect URL that is not a string', () => {
    const actor = createActor(fakeApi().machine).start();
    actor.send({ type: 'session.restore', session: { redirectUrl: 7 as never } });
    expect(actor.getSnapshot().context.redirectUrl).toBeNull();
  });

  it('should not resume a saved session whose token or refresh token is not a string', () => {
    const live = createActor(fakeApi().machine).start();
    live.send({ type: 'session.restore', session: { isLoggedIn: true, token: 42 as never, refreshToken: null } });
    expect(live.getSnapshot().value).toBe('signedOut');

    const resumable = createActor(fakeApi().machine).start();
    resumable.send({ type: 'session.restore', session: { isLoggedIn: false, token: null, refreshToken: 7 as never } });
    expect(resumable.getSnapshot().value).toBe('signedOut');
  });

  it('should refresh a session saved with only a refresh token, presenting an empty access token', async () => {
    const api = fakeApi();
    const actor = createActor(api.machine).start();
    actor.send({ type: 'session.restore', session: { isLoggedIn: false, refreshToken: 'refresh-a' } });
    expect(actor.getSnapshot().value).toBe('expired');
    actor.send({ type: 'token.refresh' });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(api.calls.at(-1)).toEqual({ name: 'refreshTokens', input: { token: '', refreshToken: 'refresh-a' } });
  });

  it('should refresh a saved live session without a refresh token by presenting an empty one', async () => {
    const api = fakeApi();
    const actor = createActor(api.machine).start();
    actor.send({ type: 'session.restore', session: { isLoggedIn: true, token: modelTokens.first.token } });
    expect(actor.getSnapshot().value).toBe('signedIn');
    actor.send({ type: 'token.refresh' });
    await waitFor(actor, (s) => s.matches('signedIn') && s.context.token === modelTokens.second.token);
    expect(api.calls.at(-1)).toEqual({ name: 'refreshTokens', input: { token: modelTokens.first.token, refreshToken: '' } });
  });

  it('should stay signed in with the old token when a refresh fails for a reason other than 401', async () => {
    const api = fakeApi({ refreshTokens: async () => Promise.reject({ statusCode: 503 }) });
    const { actor, destroy } = await signedInActor(api);
    actor.send({ type: 'token.refresh' });
    await waitFor(actor, (s) => !s.matches('refreshing'));
    expect(actor.getSnapshot().value).toBe('signedIn');
    expect(actor.getSnapshot().context).toMatchObject({ isLoggedIn: true, token: modelTokens.first.token, refreshToken: 'refresh-a' });
    expect(destroy).not.toHaveBeenCalled();
  });

  it('should stay expired when a refresh of an expired session fails for a reason other than 401', async () => {
    const api = fakeApi({ refreshTokens: async () => Promise.reject(new Error('Network Error')) });
    const { actor } = await signedInActor(api);
    actor.send({ type: 'session.expired' });
    actor.send({ type: 'token.refresh' });
    await waitFor(actor, (s) => !s.matches('refreshing'));
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().context).toMatchObject({ isLoggedIn: false, token: null, refreshToken: 'refresh-a' });
  });

  it('should fail loudly, naming the call, when the app does not provide one', async () => {
    const names = ['requestCode', 'resendCode', 'verifyCode', 'refreshTokens', 'invalidateSession'] as const;
    for (const name of names) {
      const logic = authSessionMachine.implementations.actors[name] as AnyActorLogic;
      await expect(toPromise(createActor(logic, { input: {} }).start())).rejects.toThrow(`auth-session: ${name} is not provided`);
    }
  });
});

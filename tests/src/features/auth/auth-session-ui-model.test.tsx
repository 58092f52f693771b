import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useSyncExternalStore } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useNavigate, type NavigateFunction } from 'react-router-dom';
import type { EventObject } from 'xstate';
import { authSessionMachine } from '#machines/auth-session.machine.ts';
import { authSessionTestPaths } from '#machines/auth-session.model.ts';
import { computeCoverage, transitionsTakenBy } from '#machines/graph-coverage.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import {
  IndependentExpectation,
  pathName,
  rulesNoPathTakes,
  sampleTakingEveryRule,
  stepName,
  tableEvent,
} from '#tests/fixtures/expectations/expectation-table.ts';
import { authSessionExpectation, freshAuthSessionFacts, type AuthSessionFacts } from '#tests/fixtures/expectations/auth-session.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';

/**
 * The auth session's generated paths walked through the sign-in screens in jsdom (issue 14):
 * the runtime the app starts (`startAuthSession`: the persisted slice, the tab sync over a real
 * BroadcastChannel), the /login page with its code step, and a protected page with Sign out.
 * A person's events are typed and clicked; another tab's sign-in or sign-out is a message on the
 * channel; a refresh is the call the HTTP layer makes on a 401 (`refreshSession`); the resend
 * cooldown is the clock. Each call waits until the path says how it ends, and its arguments are
 * checked then. After every step the live actor, the saved slice and the screen are checked
 * against the independent table (tests/fixtures/expectations/auth-session.ts), never against the
 * machine's own state.
 */
type Runtime = ReturnType<(typeof import('#src/app/auth/auth-session.ts'))['startAuthSession']>;
type CallName = 'requestCode' | 'resendCode' | 'verifyCode' | 'refreshTokens' | 'invalidateSession';
interface Call {
  name: CallName;
  input: Record<string, unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const holder = vi.hoisted(() => ({
  current: null as null | { authSession: { send(e: unknown): void; getSnapshot(): unknown; subscribe(l: () => void): { unsubscribe(): void } } },
}));

vi.mock('#src/app/auth/session-api.ts', () => ({ sessionApi: {} }));
// The loader's singleton runtime would be one actor for every path; each path gets its own.
vi.mock('#src/app/auth/auth-session-loader.ts', () => ({
  loadAuthSession: async () => holder.current,
  loadedAuthSession: () => holder.current,
  useAuthSnapshot: () =>
    useSyncExternalStore(
      (listener) => {
        const subscription = holder.current!.authSession.subscribe(listener);
        return () => subscription.unsubscribe();
      },
      () => holder.current!.authSession.getSnapshot(),
    ),
  rememberRedirect: (url: string | null) => holder.current?.authSession.send({ type: 'redirect.remember', url }),
  signOut: async () => holder.current?.authSession.send({ type: 'logout' }),
}));

const { startAuthSession } = await import('#src/app/auth/auth-session.ts');
const { createTabSync } = await import('#src/app/auth/tab-sync.ts');
const { authUserStore, emptyAuthUser } = await import('#src/app/auth/auth-user-store.ts');
const { RequireSession } = await import('#src/app/auth/require-session.tsx');
const { signOut } = await import('#src/app/auth/auth-session-loader.ts');
const { default: SignInPage } = await import('#src/features/auth/sign-in-page.tsx');

/** The user id a token names (spec §3: the name identifier claim), read here without the app's helper. */
const userIdOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>)[
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier'
  ];

/** The real clock, kept before the fake one replaces it: polling must not move the fake time. */
const realSetTimeout = globalThis.setTimeout;

/**
 * Where a step can be taken on the system, by the table's state. The rest have no control and
 * no sender in the app, or only one this replay does not drive; paths with them are not sampled:
 * - `session.expired` mid-session: the app sends it only while restoring a saved session whose
 *   token has run out (the HTTP layer's 401 refreshes instead);
 * - `session.reset`, `user.update`, `error.set`: nothing in the app sends them;
 * - `token.replaced` (the change-password page) and `signalr.data` (the realtime source): their
 *   screens are replayed by their own tests;
 * - `redirect.remember` while signed in: a protected page remembers nothing then.
 */
function offered(state: string, event: EventObject, facts: AuthSessionFacts): boolean {
  const name = tableEvent(event);
  // A call's answer or a delay running out: the replay gives these (not `error.set`, a sent event).
  if (/^xstate\.(done|error)\.actor\./.test(event.type) || name.startsWith('after.')) return true;
  switch (name) {
    case 'login.submit':
      // Expired, the person still has a session (its refresh token) and stays on the app's pages.
      return state === 'signedOut';
    case 'login.cancel':
      return state.startsWith('awaitingCode.');
    case 'otp.submit':
      return state.startsWith('awaitingCode.code.editing');
    case 'otp.resend':
      return state === 'awaitingCode.code.editing|resend.ready';
    case 'token.refresh':
      return state === 'signedIn' || state === 'expired';
    case 'logout':
      return (state === 'signedIn' || state === 'expired') && facts.refresh !== null;
    case 'session.synced':
    case 'session.ended':
      return true;
    case 'redirect.remember':
      return state === 'signedOut';
    default:
      return false;
  }
}

/** Restored as expired, the runtime refreshes at once: that path's next step is the runtime's. */
const restoredExpired = (event: EventObject) => {
  const session = (event as { session?: { isLoggedIn?: boolean; refreshToken?: string | null } | null }).session;
  return Boolean(session && !session.isLoggedIn && session.refreshToken);
};

function replayable(path: { steps: ReadonlyArray<{ event: EventObject }> }): boolean {
  const walk = new IndependentExpectation(authSessionExpectation, freshAuthSessionFacts());
  const steps = path.steps.slice(1);
  if (steps[0]?.event.type !== 'session.restore') return false;
  if (restoredExpired(steps[0].event) && steps[1] && steps[1].event.type !== 'token.refresh') return false;
  walk.next(steps[0].event);
  for (const { event } of steps.slice(1)) {
    if (!offered(walk.state, event, walk.facts)) return false;
    walk.next(event);
  }
  return true;
}

const generated = authSessionTestPaths();
const systemPaths = generated.filter(replayable);
const paths = sampleTakingEveryRule(authSessionExpectation, freshAuthSessionFacts, systemPaths, (path) => transitionsTakenBy(authSessionMachine, [path]));
const recorder = replayRecorder(authSessionMachine, 'jsdom', true);

const navigation = vi.hoisted(() => ({ navigate: null as null | ((to: string) => void) }));
function NavigationProbe() {
  const navigate: NavigateFunction = useNavigate();
  navigation.navigate = (to) => void navigate(to);
  return null;
}

function Home() {
  return (
    <>
      <h1>Home</h1>
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </>
  );
}

/** Polls with the real clock until `check` passes (the fake one only moves when a step says so). */
async function until(check: () => void, where: string) {
  let last: unknown;
  // Up to about 10 s: a loaded CI machine may take seconds to import the code step's chunk.
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    await act(async () => {
      await new Promise((resolve) => realSetTimeout(resolve, attempt < 20 ? 0 : 10));
    });
    try {
      check();
      return;
    } catch (error) {
      last = error;
    }
  }
  throw new Error(`${where}: ${(last as Error).message}`);
}

/**
 * A person's action with user-event. Testing Library ends each one with a zero-delay timer,
 * which the fake clock holds: timers due now are run (the clock does not move) until it is done.
 */
async function person(action: () => Promise<unknown>) {
  let done = false;
  const running = action().finally(() => {
    done = true;
  });
  while (!done) {
    await act(async () => {
      vi.advanceTimersByTime(0);
      await new Promise((resolve) => realSetTimeout(resolve, 0));
    });
  }
  await running;
}

/** What the screen and the saved slice must show in the table's state, from its facts only. */
function expectSystem(state: string, facts: AuthSessionFacts, failure: string | null) {
  const saved = authUserStore.getSnapshot().context;
  if (state !== 'signingOut') expect(saved.refreshToken, 'the saved refresh token').toBe(facts.refresh);
  if (state === 'signedIn' || state === 'expired' || state === 'signedOut') expect(saved.token, 'the saved access token').toBe(facts.access);
  const heading = (name: string) => screen.getByRole('heading', { level: 1, name });
  if (state === 'signedIn' || state === 'expired' || state === 'refreshing') {
    // A session, even one holding only its refresh token, keeps the person on the app's pages.
    heading('Home');
    return;
  }
  if (state === 'signedOut' || state === 'submittingCredentials') {
    heading('Sign in');
    const submit = screen.getByRole('button', { name: /^(Continue|Checking…)$/ });
    expect(submit.getAttribute('aria-busy'), 'the credentials are being checked').toBe(state === 'submittingCredentials' ? 'true' : null);
    if (state === 'signedOut' && failure === 'invalidCredentials')
      expect(screen.getByRole('alert').textContent).toBe('The e-mail address or password is incorrect.');
    return;
  }
  if (state.startsWith('awaitingCode.')) {
    heading('Enter your code');
    const verifying = state.includes('code.verifying');
    const verify = screen.getByRole('button', { name: /^(Sign in|Checking the code…)$/ });
    expect(verify.getAttribute('aria-busy'), 'the code is being checked').toBe(verifying ? 'true' : null);
    const resend = screen.getByRole('button', { name: /Send a new code/ }) as HTMLButtonElement;
    // A new code only once the cooldown is over, and not while a code is being checked.
    expect(resend.disabled, 'the resend button').toBe(!state.endsWith('resend.ready') || verifying);
    if (state.endsWith('resend.coolingDown')) expect(resend.textContent).toMatch(/\d+/);
    if (failure === 'codeWrong' && !verifying) expect(screen.getByRole('alert').textContent).toBe('That code is not right. 4 tries left.');
  }
}

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['auth', 'ui', 'errors']);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
afterAll(() => void recorder.write());

describe('auth session paths through the sign-in screens (jsdom)', () => {
  it('should sample paths that take every rule of the table the screens offer, and every transition', () => {
    // A rule no generated path takes is one the machine lacks.
    expect(rulesNoPathTakes(authSessionExpectation, freshAuthSessionFacts, generated)).toEqual([]);
    // The rules only events without a control or sender in the app reach (see `offered`).
    expect(rulesNoPathTakes(authSessionExpectation, freshAuthSessionFacts, paths)).toEqual([
      'signedIn --session.expired--> expired',
      'signedOut,signedIn --session.reset--> signedOut',
      'signedIn --redirect.remember--> signedIn',
      'signedIn --token.replaced--> signedIn',
    ]);
    // Every transition some replayable path takes, the sample takes.
    expect(computeCoverage(authSessionMachine, paths).transitions.covered.sort()).toEqual(
      computeCoverage(authSessionMachine, systemPaths).transitions.covered.sort(),
    );
    expect(paths.length).toBeLessThan(80);
  });

  it.each(paths.map((path, index) => [pathName(path), path, index] as const))(
    'should walk %s',
    (_name, path, index) =>
      recorder.run(path, async () => {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
        const user = userEvent.setup({ delay: null });
        const calls: Call[] = [];
        const waiting = (name: CallName) => (input: Record<string, unknown>) => new Promise((resolve, reject) => calls.push({ name, input, resolve, reject }));
        // A channel of its own per path, and the other tab's end of it.
        const productKey = `auth-paths-${index}`;
        const otherTab = new BroadcastChannel(`${productKey}:auth`);
        const independent = new IndependentExpectation(authSessionExpectation, freshAuthSessionFacts());
        let runtime: Runtime | null = null;
        let typed = { email: '', password: '' };
        let challenge: string | null = null;
        /** The access token the session last held: a refresh presents it (docs/decisions/0032). */
        let lastAccess: string | null = null;
        let code = '';
        /** The reason of the call that failed in the step just taken (the screen says it then). */
        let failure: string | null = null;
        const trail: string[] = [];
        try {
          for (const { event: step } of path.steps.slice(1)) {
            const event = step as EventObject & Record<string, unknown>;
            const name = tableEvent(event);
            trail.push(stepName(event));
            const where = trail.join(' → ');
            const state = independent.state;
            failure = null;
            if (name === 'session.restore') {
              const saved = event.session as Record<string, unknown> | null;
              authUserStore.trigger.set({ session: { ...emptyAuthUser, ...(saved ?? {}) } as never });
              lastAccess = (saved?.token as string | undefined) ?? (saved?.expiredToken as string | undefined) ?? null;
              runtime = startAuthSession({
                api: {
                  requestCode: waiting('requestCode'),
                  resendCode: waiting('resendCode'),
                  verifyCode: waiting('verifyCode'),
                  refreshTokens: waiting('refreshTokens'),
                  invalidateSession: waiting('invalidateSession'),
                  permissions: async () => [],
                } as never,
                store: authUserStore,
                tabs: createTabSync(productKey, { storage: null, locks: null }),
                destroy: () => {},
                setPermissions: () => {},
              });
              holder.current = { authSession: runtime.actor } as never;
              render(
                <I18nextProvider i18n={i18n}>
                  <MemoryRouter initialEntries={['/login']}>
                    <NavigationProbe />
                    <Suspense fallback={null}>
                      <Routes>
                        <Route path="/login" element={<SignInPage />} />
                        {['/', '/tickets'].map((route) => (
                          <Route
                            key={route}
                            path={route}
                            element={
                              <RequireSession>
                                <Home />
                              </RequireSession>
                            }
                          />
                        ))}
                      </Routes>
                    </Suspense>
                  </MemoryRouter>
                </I18nextProvider>,
              );
              independent.next(event);
              // Restored as expired, the runtime asks for fresh tokens on its own: the path's next step.
              if (restoredExpired(event)) continue;
            } else if (name === 'token.refresh' && state === 'expired' && trail.length === 2) {
              // Already sent by the runtime right after the restore.
            } else if (name === 'login.submit') {
              typed = { email: event.email as string, password: event.password as string };
              await until(() => screen.getByLabelText(/E-mail address/), where);
              const email = screen.getByLabelText(/E-mail address/) as HTMLInputElement;
              await person(() => user.clear(email));
              await person(() => user.type(email, typed.email));
              const password = screen.getByLabelText(/^Password/) as HTMLInputElement;
              await person(() => user.clear(password));
              await person(() => user.type(password, typed.password));
              await person(() => user.click(screen.getByRole('button', { name: 'Continue' })));
            } else if (name === 'otp.submit') {
              await until(() => screen.getByRole('textbox', { name: 'Code, digit 1 of 6' }), where);
              // Typed digit by digit from the first box: the sixth digit sends the code.
              await person(() => user.click(screen.getByRole('textbox', { name: 'Code, digit 1 of 6' })));
              code = event.code as string;
              await person(() => user.keyboard(code));
            } else if (name === 'otp.resend') {
              await person(() => user.click(screen.getByRole('button', { name: 'Send a new code' })));
            } else if (name === 'login.cancel') {
              await person(() => user.click(screen.getByRole('button', { name: 'Use another account' })));
            } else if (name === 'logout') {
              await person(() => user.click(screen.getByRole('button', { name: 'Sign out' })));
            } else if (name === 'token.refresh') {
              // What the HTTP layer does on a 401; its promise ends with the path's answer.
              void runtime!.refreshSession().catch(() => {});
            } else if (name === 'session.synced') {
              otherTab.postMessage({ type: 'synced', rev: `other-${trail.length}`, session: event.session });
            } else if (name === 'session.ended') {
              otherTab.postMessage({ type: 'ended', rev: `other-${trail.length}` });
            } else if (name === 'redirect.remember') {
              // A protected page visited while signed out remembers itself and sends the person to /login.
              act(() => navigation.navigate!('/tickets'));
            } else if (name.startsWith('after.')) {
              const ms = independent.delay(name.slice('after.'.length))!;
              // Not a moment early: 1 ms before the spec's time nothing may have moved.
              await act(async () => void vi.advanceTimersByTime(ms - 1));
              expect(independent.state, `${where}: before the delay ran out`).toBe(state);
              independent.check({ type: 'xstate.init' }, runtime!.actor.getSnapshot(), `${where} (1 ms early)`);
              await act(async () => void vi.advanceTimersByTime(1));
            } else {
              // An answer: the waiting call of that name ends as the path says; its input is checked first.
              const [kind, id] = name.split('.') as ['done' | 'error', CallName];
              await until(() => expect(calls.some((c) => c.name === id)).toBe(true), `${where}: a ${id} call`);
              const call = calls.splice(
                calls.findIndex((c) => c.name === id),
                1,
              )[0];
              const facts = independent.facts;
              const expectedInput: Record<CallName, Record<string, unknown>> = {
                requestCode: typed,
                resendCode: typed,
                verifyCode: { email: typed.email, enteredOTP: code, token: challenge },
                refreshTokens: { token: lastAccess, refreshToken: facts.refresh },
                // Signed out on the server as the user the token names; with no user held, nobody.
                invalidateSession: { userId: facts.access && facts.savedUser !== null ? userIdOf(facts.access) : null, token: facts.access },
              };
              expect(call.input, `${where}: what the ${id} call sent`).toEqual(expectedInput[id]);
              if (kind === 'done' && (id === 'requestCode' || id === 'resendCode')) challenge = (event.output as { token: string }).token;
              if (kind === 'error') failure = ((event.error as { reason?: string }) ?? {}).reason ?? null;
              await act(async () => {
                if (kind === 'done') call.resolve(event.output);
                else call.reject(event.error);
              });
            }
            if (name !== 'session.restore') independent.next(event);
            const expected = independent.state;
            await until(() => {
              independent.check({ type: 'xstate.init' }, runtime!.actor.getSnapshot(), where);
              expectSystem(expected, independent.facts, failure);
            }, where);
            if (independent.facts.access) lastAccess = independent.facts.access;
          }
        } finally {
          cleanup();
          otherTab.close();
          runtime?.actor.stop();
          holder.current = null;
          authUserStore.trigger.reset();
        }
      }),
    60_000,
  );
});

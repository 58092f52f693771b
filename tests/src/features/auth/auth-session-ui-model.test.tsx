import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useSyncExternalStore } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { authSessionMachine, sessionOf, type AuthSessionEvent } from '#machines/auth-session.machine.ts';
import { authSessionTestPaths } from '#machines/auth-session.model.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { computeCoverage, coverageLine } from '#machines/graph-coverage.ts';

/**
 * The auth-session graph walked through the UI: sign-in screen, code step and a protected page
 * with Sign out. Events a person causes are done with the keyboard and mouse; the API's answers
 * settle a fake API; the rest (another tab, the HTTP layer's refresh) are sent as the app sends
 * them. After every step the screen must show what the model's state means.
 */
type Runtime = ReturnType<(typeof import('#src/app/auth/auth-session.ts'))['startAuthSession']>;
const holder = vi.hoisted(() => ({
  current: null as null | { authSession: { send(e: unknown): void; getSnapshot(): unknown; subscribe(l: () => void): { unsubscribe(): void } } },
}));

vi.mock('#src/app/auth/session-api.ts', () => ({ sessionApi: {} }));
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
const { authUserStore, hasSession } = await import('#src/app/auth/auth-user-store.ts');
const { RequireSession } = await import('#src/app/auth/require-session.tsx');
const { signOut } = await import('#src/app/auth/auth-session-loader.ts');
const { default: SignInPage } = await import('#src/features/auth/sign-in-page.tsx');

const uiEvents = new Set(['login.submit', 'otp.submit', 'otp.resend', 'login.cancel', 'logout']);

/** Whether the screen shown offers the event to a person (else the app sends it, e.g. a sign-in from an expired session elsewhere). */
function offeredOnScreen(type: string): boolean {
  if (type === 'login.submit') return screen.queryByRole('button', { name: 'Continue' }) !== null;
  if (type === 'logout') return screen.queryByRole('button', { name: 'Sign out' }) !== null;
  return screen.queryByRole('heading', { level: 1, name: 'Enter your code' }) !== null;
}

/** One path per transition of the graph (its shortest). */
function uiPaths() {
  const chosen = new Map<string, ReturnType<typeof authSessionTestPaths>[number]>();
  for (const path of authSessionTestPaths()) {
    const last = path.steps[path.steps.length - 1];
    const before = path.steps[path.steps.length - 2]?.state as AnyMachineSnapshot | undefined;
    const key = `${JSON.stringify(before?.value)} ${last.event.type} ${JSON.stringify(last.state.value)}`;
    const known = chosen.get(key);
    if (!known || known.steps.length > path.steps.length) chosen.set(key, path);
  }
  return [...chosen.values()];
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
function ProtectedHome() {
  return (
    <RequireSession>
      <Home />
    </RequireSession>
  );
}

/** What the screen shows for a state of the model. */
async function expectScreen(model: AnyMachineSnapshot) {
  await waitFor(
    () => {
      // A session (even one that only has its refresh token) keeps the person on the app's pages.
      if (hasSession(sessionOf(model.context))) {
        expect(screen.getByRole('heading', { level: 1, name: 'Home' })).toBeTruthy();
      } else if (model.matches('awaitingCode')) {
        expect(screen.getByRole('heading', { level: 1, name: 'Enter your code' })).toBeTruthy();
        const verify = screen.getByRole('button', { name: /^(Sign in|Checking the code…)$/ });
        expect(verify.getAttribute('aria-busy')).toBe(model.matches({ awaitingCode: { code: 'verifying' } }) ? 'true' : null);
        const resend = screen.getByRole('button', { name: /Send a new code/ }) as HTMLButtonElement;
        // No resend while the code is being checked.
        expect(resend.disabled).toBe(!model.matches({ awaitingCode: { resend: 'ready' } }) || model.matches({ awaitingCode: { code: 'verifying' } }));
        if (model.context.errorText === 'codeWrong') expect(screen.getByRole('alert').textContent).toBe('That code is not right. 4 tries left.');
      } else {
        expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
        const submit = screen.getByRole('button', { name: /^(Continue|Checking…)$/ });
        expect(submit.getAttribute('aria-busy')).toBe(model.matches('submittingCredentials') ? 'true' : null);
        if (model.matches('signedOut') && model.context.errorText === 'invalidCredentials') {
          expect(screen.getByRole('alert').textContent).toBe('The e-mail address or password is incorrect.');
        }
      }
    },
    { timeout: 3000 },
  );
}

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['auth', 'ui', 'errors']);
});
afterAll(() => cleanup());

describe('auth-session model against the UI', () => {
  const paths = uiPaths();

  it(`should show the right screen at every step of ${paths.length} paths`, async () => {
    for (const path of paths) {
      const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
      const controlled = (name: string) => (input: unknown) => new Promise((resolve, reject) => pending.set(name, { resolve, reject, input } as never));
      let runtime: Runtime | null = null;
      const user = userEvent.setup();
      try {
        for (const step of path.steps) {
          const event = step.event as EventObject & Record<string, unknown>;
          if (event.type === 'xstate.init') continue;
          if (event.type === 'session.restore') {
            authUserStore.trigger.set({ session: { ...authUserStore.getSnapshot().context, ...emptyish, ...((event.session as object) ?? {}) } as never });
            runtime = startAuthSession({
              api: {
                requestCode: controlled('requestCode'),
                resendCode: controlled('resendCode'),
                verifyCode: controlled('verifyCode'),
                refreshTokens: controlled('refreshTokens'),
                invalidateSession: controlled('invalidateSession'),
                permissions: async () => [],
              } as never,
              store: authUserStore,
              tabs: { announce: () => {}, announceEnded: () => {}, listen: () => {}, exclusive: (task) => task(false) },
              destroy: () => {},
              setPermissions: () => {},
              // The cooldown ends when the path says so (the delayed event is sent below), never by itself.
              delays: { resendCooldown: 3_600_000 },
              refreshExpiredAtStart: false,
            });
            holder.current = { authSession: runtime.actor } as never;
            const path = (step.state as AnyMachineSnapshot).matches('signedOut') ? '/login' : '/home';
            render(
              <I18nextProvider i18n={i18n}>
                <MemoryRouter initialEntries={[path]}>
                  <Suspense fallback={null}>
                    <Routes>
                      <Route path="/login" element={<SignInPage />} />
                      <Route path="/" element={<ProtectedHome />} />
                      <Route path="/home" element={<ProtectedHome />} />
                    </Routes>
                  </Suspense>
                </MemoryRouter>
              </I18nextProvider>,
            );
          } else if (uiEvents.has(event.type) && offeredOnScreen(event.type)) {
            await act(async () => {
              const e = event as AuthSessionEvent;
              if (e.type === 'login.submit') {
                const email = screen.getByLabelText(/E-mail address/) as HTMLInputElement;
                await user.clear(email);
                await user.type(email, e.email);
                const password = screen.getByLabelText(/^Password/) as HTMLInputElement;
                await user.clear(password);
                await user.type(password, e.password);
                await user.click(screen.getByRole('button', { name: 'Continue' }));
              } else if (e.type === 'otp.submit') {
                // A complete code, pasted into the first box, is sent at once.
                await user.click(screen.getByRole('textbox', { name: 'Code, digit 1 of 6' }));
                await user.paste(e.code);
              } else if (e.type === 'otp.resend') {
                await user.click(screen.getByRole('button', { name: 'Send a new code' }));
              } else if (e.type === 'login.cancel') {
                await user.click(screen.getByRole('button', { name: 'Use another account' }));
              } else if (e.type === 'logout') {
                await user.click(screen.getByRole('button', { name: 'Sign out' }));
              }
            });
          } else if (event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.')) {
            const [, kind, , id] = event.type.split('.');
            await waitFor(() => expect(pending.has(id)).toBe(true));
            const waiting = pending.get(id)!;
            pending.delete(id);
            await act(async () => {
              if (kind === 'done') waiting.resolve(event.output);
              else waiting.reject(event.error);
            });
          } else {
            act(() => runtime!.actor.send(event as AuthSessionEvent));
          }
          const live = runtime!.actor.getSnapshot();
          await waitFor(() => expect(runtime!.actor.getSnapshot().value).toEqual((step.state as AnyMachineSnapshot).value));
          expect(live).toBeTruthy();
          await expectScreen(step.state as AnyMachineSnapshot);
        }
      } catch (error) {
        throw new Error(`path "${path.description}": ${(error as Error).message}`);
      } finally {
        cleanup();
        runtime?.actor.stop();
        holder.current = null;
      }
    }
  }, 240_000);

  it('should walk every state and every transition through the UI', () => {
    // Reported, not written: coverage/machines/auth-session.json belongs to the machine's own model test.
    const report = computeCoverage(authSessionMachine, paths);
    console.log(`[machine coverage, UI] ${coverageLine(report)}`);
    expect(report.states.covered.sort()).toEqual(report.states.total.sort());
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

const emptyish = {
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

import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { authSessionMachine, type Challenge } from '#machines/auth-session.machine.ts';
import { CodeStep } from '#src/features/auth/components/code-step.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

/**
 * Issue 14 survivors on the code step: the button counts down the seconds the server said are
 * left after a 429 (not a fresh 30), and a challenge without `resendAfterSeconds` still gets the
 * 30-second cooldown of spec §4. The texts are the en-US ones, written out.
 */
beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['auth', 'ui', 'errors']);
});

afterEach(() => {
  vi.useRealTimers();
});

const challenge: Challenge = { token: 'challenge-1', otpExpiresAt: '2026-11-22T10:10:00.000Z', resendAfterSeconds: 1 };

function codeStepActor(requestCode: () => Promise<unknown>, resendCode: () => Promise<unknown>) {
  const machine = authSessionMachine.provide({
    actors: { requestCode: fromPromise(requestCode) as never, resendCode: fromPromise(resendCode) as never },
  });
  const actor = createActor(machine).start();
  actor.send({ type: 'session.restore', session: null });
  actor.send({ type: 'login.submit', email: 'asha.patel@example.com', password: 'lantern orbit velvet 42' });
  return actor;
}

function show(actor: ReturnType<typeof codeStepActor>) {
  const view = render(
    <I18nextProvider i18n={i18n}>
      <CodeStep snapshot={actor.getSnapshot()} />
    </I18nextProvider>,
  );
  return () =>
    view.rerender(
      <I18nextProvider i18n={i18n}>
        <CodeStep snapshot={actor.getSnapshot()} />
      </I18nextProvider>,
    );
}

describe('code step cooldown', () => {
  it('should show the seconds left that a 429 gives and the cooldown message', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const actor = codeStepActor(
      async () => challenge,
      async () => {
        throw { statusCode: 429, reason: 'resendCooldown', retryAfterSeconds: 12, messages: ['Wait 12 seconds.'] };
      },
    );
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(actor.getSnapshot().matches({ awaitingCode: { resend: 'ready' } })).toBe(true);
    actor.send({ type: 'otp.resend' });
    await act(() => vi.advanceTimersByTimeAsync(0));
    show(actor);
    expect(screen.getByRole('button', { name: 'Send a new code in 12 seconds' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Please wait a little before asking for another code.');
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(screen.getByRole('button', { name: 'Send a new code in 7 seconds' })).toBeTruthy();
    actor.stop();
  });

  it('should count down from 30 seconds when the challenge has no resendAfterSeconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const actor = codeStepActor(
      async () => ({ token: 'challenge-1', otpExpiresAt: '2026-11-22T10:10:00.000Z' }),
      async () => challenge,
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    show(actor);
    expect(screen.getByRole('button', { name: 'Send a new code in 30 seconds' })).toBeTruthy();
    actor.stop();
  });
});

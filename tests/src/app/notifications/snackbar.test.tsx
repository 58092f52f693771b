import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { snackbarTransitions } from '#machines/snackbar.machine.ts';
import { NotificationsHost } from '#src/app/notifications/notifications-host.tsx';
import { closeSnackbar, openSnackbar } from '#src/app/notifications/snackbar.ts';
import { transitionKeyframes } from '#src/app/notifications/snackbar-view.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

/** jsdom has no Web Animations: record what the snackbar asks to play. */
const played: Array<{ keyframes: Keyframe[]; options: KeyframeAnimationOptions }> = [];

beforeAll(async () => {
  await initI18n('en-US');
  HTMLElement.prototype.animate = function animate(keyframes: Keyframe[], options: KeyframeAnimationOptions) {
    played.push({ keyframes, options });
    return { cancel: () => {} } as Animation;
  } as typeof HTMLElement.prototype.animate;
});

beforeEach(() => {
  played.length = 0;
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(async () => {
  await act(async () => {
    await closeSnackbar();
    await vi.advanceTimersByTimeAsync(500);
  });
  vi.useRealTimers();
});

function renderPage() {
  return render(
    <I18nextProvider i18n={i18n}>
      <main>
        <p>Page content</p>
      </main>
      <NotificationsHost />
    </I18nextProvider>,
  );
}

describe('the snackbar', () => {
  it('should open with the defaults: Note archived, bottom right, default variant, Fade, close button, no action', async () => {
    renderPage();
    await act(() => openSnackbar());
    const snackbar = await screen.findByTestId('snackbar');
    expect(snackbar).toHaveTextContent('Note archived');
    expect(snackbar).toHaveAttribute('data-variant', 'default');
    expect(snackbar).toHaveAttribute('data-transition', 'Fade');
    expect(screen.getByTestId('snackbar-anchor').dataset).toMatchObject({ vertical: 'bottom', horizontal: 'right' });
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'UNDO' })).toBeNull();
  });

  it('should show the alert variant with its colour and the UNDO action, and call back on UNDO', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const onAction = vi.fn();
    renderPage();
    await act(() =>
      openSnackbar({
        message: 'Ticket archived',
        variant: 'alert',
        alert: { color: 'success' },
        anchorOrigin: { vertical: 'top', horizontal: 'center' },
        actionButton: true,
        onAction,
      }),
    );
    const snackbar = await screen.findByTestId('snackbar');
    expect(snackbar).toHaveTextContent('Ticket archived');
    expect(snackbar).toHaveAttribute('data-alert', 'success filled');
    expect(screen.getByTestId('snackbar-anchor').dataset).toMatchObject({ vertical: 'top', horizontal: 'center' });
    await user.click(screen.getByRole('button', { name: 'UNDO' }));
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(snackbar).toHaveAttribute('data-state', 'closing');
    await act(() => vi.advanceTimersByTimeAsync(195));
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it('should not close on a click away', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderPage();
    await act(() => openSnackbar({ message: 'Saved' }));
    await screen.findByTestId('snackbar');
    await user.click(screen.getByText('Page content'));
    await user.click(document.body);
    expect(screen.getByTestId('snackbar')).toHaveAttribute('data-state', 'opened');
  });

  it('should close with its close button', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderPage();
    await act(() => openSnackbar());
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    await act(() => vi.advanceTimersByTimeAsync(195));
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it('should close by itself after 6000 ms', async () => {
    // Pure fake time here: no real time may leak into the measured 6000 ms.
    await import('#src/app/notifications/snackbar-view.tsx');
    vi.useRealTimers();
    vi.useFakeTimers();
    renderPage();
    await act(() => openSnackbar({ message: 'Autosaved' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByTestId('snackbar')).toHaveAttribute('data-state', 'opened');
    await act(() => vi.advanceTimersByTimeAsync(5990));
    expect(screen.getByTestId('snackbar')).toHaveAttribute('data-state', 'opened');
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByTestId('snackbar')).toHaveAttribute('data-state', 'closing');
    await act(() => vi.advanceTimersByTimeAsync(195));
    expect(screen.queryByTestId('snackbar')).toBeNull();
  });

  it.each(snackbarTransitions)('should play %s for 225 ms in and backwards for 195 ms out', async (transition) => {
    renderPage();
    await act(() => openSnackbar({ transition }));
    await screen.findByTestId('snackbar');
    expect(played.at(-1)).toEqual({ keyframes: transitionKeyframes[transition], options: { duration: 225, easing: 'cubic-bezier(0, 0, 0.2, 1)' } });
    await act(() => closeSnackbar());
    expect(played.at(-1)).toEqual({
      keyframes: [...transitionKeyframes[transition]].reverse(),
      options: { duration: 195, easing: 'cubic-bezier(0.4, 0, 1, 1)', fill: 'forwards' },
    });
  });

  it('should have six distinct transitions', () => {
    expect(new Set(Object.values(transitionKeyframes).map((k) => JSON.stringify(k))).size).toBe(6);
  });

  it('should translate the default message and the action label', async () => {
    renderPage();
    await act(async () => {
      await i18n.changeLanguage('es');
      await openSnackbar({ actionButton: true });
    });
    expect(await screen.findByText('Nota archivada')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'DESHACER' })).toBeInTheDocument();
    await act(() => i18n.changeLanguage('en-US'));
  });
});

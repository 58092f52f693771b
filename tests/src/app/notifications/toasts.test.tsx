import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationsHost } from '#src/app/notifications/notifications-host.tsx';
import { notify } from '#src/app/notifications/notify.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

beforeAll(async () => {
  await initI18n('en-US');
  // jsdom has no pointer capture; sonner's swipe handling asks for it on pointer down.
  Element.prototype.setPointerCapture ??= () => {};
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.hasPointerCapture ??= () => false;
});

let toastActor: (typeof import('#src/app/notifications/toast-runtime.ts'))['toastActor'];
beforeEach(async () => {
  ({ toastActor } = await import('#src/app/notifications/toast-runtime.ts'));
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(async () => {
  await act(async () => {
    await notify.clear();
    await vi.advanceTimersByTimeAsync(1000);
  });
  vi.useRealTimers();
});

function renderHost() {
  return render(
    <I18nextProvider i18n={i18n}>
      <NotificationsHost />
    </I18nextProvider>,
  );
}

const shownTexts = () => toastActor.getSnapshot().context.visible.map((t) => (t.content as { message?: string }).message);
const liveToasts = () => [...document.querySelectorAll('[data-sonner-toast]:not([data-removed="true"])')];

const serverError = {
  messages: ['Ticket 7 cannot be claimed: it is Closed.'],
  source: 'tickets',
  exception: 'ConflictException',
  errorId: '3f6b1c7e-9d2a-4e55-8a49-6c1f2a6b7d10',
  supportMessage: 'Quote this error id to the support team.',
  statusCode: 409,
};

describe('toasts', () => {
  it('should render a toast at the top centre when a feature calls notify', async () => {
    renderHost();
    await act(() => notify.success('Profile saved'));
    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
    const list = document.querySelector('[data-sonner-toaster]')!;
    expect([list.getAttribute('data-y-position'), list.getAttribute('data-x-position')]).toEqual(['top', 'center']);
    expect(screen.getByRole('region', { name: /Notifications/ })).toBeInTheDocument();
  });

  it('should show at most 3 and dismiss the oldest when a fourth arrives', async () => {
    renderHost();
    for (const n of [1, 2, 3, 4]) await act(() => notify.info(`Message ${n}`));
    expect(shownTexts()).toEqual(['Message 2', 'Message 3', 'Message 4']);
    await vi.waitFor(() =>
      expect(
        liveToasts()
          .map((t) => t.textContent?.replace('Information: ', ''))
          .sort(),
      ).toEqual(['Message 2', 'Message 3', 'Message 4']),
    );
    await vi.waitFor(() => expect(screen.queryByText('Message 1')).not.toBeInTheDocument());
  });

  it('should hide a toast after 5000 ms', async () => {
    // Pure fake time here: no real time may leak into the measured 5000 ms.
    await import('#src/app/notifications/toaster.tsx');
    vi.useRealTimers();
    vi.useFakeTimers();
    renderHost();
    await act(() => notify.warning('Disk almost full'));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('Disk almost full')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(shownTexts()).toEqual(['Disk almost full']);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(shownTexts()).toEqual([]);
    // sonner plays its exit, then unmounts (its timers start from React effects: two rounds).
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByText('Disk almost full')).not.toBeInTheDocument();
  });

  it('should close a toast with its close button', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderHost();
    await act(() => notify.success('Saved'));
    const toast = (await screen.findByText('Saved')).closest('[data-testid="success-toast"]') as HTMLElement;
    await user.click(within(toast).getByRole('button', { name: 'Close' }));
    expect(shownTexts()).toEqual([]);
  });

  it('should update a toast in place when it is pushed again with its id', async () => {
    renderHost();
    await act(() => notify.info('Uploading 1 of 3', { id: 'upload' }));
    await screen.findByText('Uploading 1 of 3');
    await act(() => notify.info('Uploading 2 of 3', { id: 'upload' }));
    expect(await screen.findByText('Uploading 2 of 3')).toBeInTheDocument();
    expect(screen.queryByText('Uploading 1 of 3')).toBeNull();
    expect(liveToasts()).toHaveLength(1);
  });

  it('should translate catalogue texts in the current language', async () => {
    renderHost();
    await act(async () => {
      await i18n.changeLanguage('fr');
      await notify.error({ catalogue: 'network' });
    });
    expect(
      await screen.findByText("Erreur ! Le serveur est injoignable. Veuillez réessayer plus tard ou contacter l'administrateur du serveur !"),
    ).toBeInTheDocument();
    await act(() => i18n.changeLanguage('en-US'));
    expect(await screen.findByText("Error! Server can't be reached. Please try again later or contact server administrator!")).toBeInTheDocument();
  });
});

describe('the error toast', () => {
  it('should show the messages, a close button, and details with error id, status code and support message', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderHost();
    await act(() => notify.error(serverError));
    const toast = (await screen.findByText('Ticket 7 cannot be claimed: it is Closed.')).closest('[data-testid="error-toast"]') as HTMLElement;
    expect(within(toast).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    const toggle = within(toast).getByRole('button', { name: 'Show details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(toast).queryByText('Error id')).not.toBeVisible();
    await user.click(toggle);
    // Ark's Collapsible reports the change in a microtask; let it reach React.
    await act(async () => {});
    expect(within(toast).getByRole('button', { name: 'Hide details' })).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('aria-controls', within(toast).getAllByRole('term')[0]!.closest('[data-part="content"]')!.id);
    const terms = within(toast)
      .getAllByRole('term')
      .map((t) => t.textContent);
    const definitions = within(toast)
      .getAllByRole('definition')
      .map((d) => d.textContent);
    expect(terms).toEqual(['Error id', 'Status code', 'Support message']);
    expect(definitions).toEqual(['3f6b1c7e-9d2a-4e55-8a49-6c1f2a6b7d10', '409', 'Quote this error id to the support team.']);
  });

  it('should stay while its details are expanded and close 5 s after they are collapsed', async () => {
    renderHost();
    await act(() => notify.error(serverError));
    const toast = (await screen.findByText('Ticket 7 cannot be claimed: it is Closed.')).closest('[data-testid="error-toast"]') as HTMLElement;
    // Keyboard only, so no pointer rests on it.
    const toggle = within(toast).getByRole('button', { name: 'Show details' });
    await act(async () => toggle.click());
    act(() => toggle.blur());
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(toastActor.getSnapshot().context.visible).toHaveLength(1);
    expect(toastActor.getSnapshot().context.visible[0].paused).toBe(true);
    await act(async () => within(toast).getByRole('button', { name: 'Hide details' }).click());
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(toastActor.getSnapshot().context.visible).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(toastActor.getSnapshot().context.visible).toHaveLength(0);
  });

  it('should close after 5 s when nobody opens its details', async () => {
    await import('#src/app/notifications/toaster.tsx');
    vi.useRealTimers();
    vi.useFakeTimers();
    renderHost();
    await act(() => notify.error('Upload failed.'));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('Upload failed.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(toastActor.getSnapshot().context.visible).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(toastActor.getSnapshot().context.visible).toHaveLength(0);
  });

  it('should offer no details toggle when there are none', async () => {
    renderHost();
    await act(() => notify.error(['Row 3: e-mail missing.', 'Row 9: duplicate user.']));
    const toast = (await screen.findByText('Row 3: e-mail missing.')).closest('[data-testid="error-toast"]') as HTMLElement;
    expect(within(toast).getByText('Row 9: duplicate user.')).toBeInTheDocument();
    expect(within(toast).queryByRole('button', { name: 'Show details' })).toBeNull();
  });

  it('should show one network toast however many calls fail', async () => {
    renderHost();
    for (let i = 0; i < 5; i++) await act(() => notify.error({ catalogue: 'network' }));
    expect(toastActor.getSnapshot().context.visible.map((t) => t.id)).toEqual(['error-network']);
  });

  it('should show nothing for a value the error display leaves out', async () => {
    renderHost();
    await expect(notify.error({ statusCode: 499, status: 'cancelled', code: 'ERR_CANCELED' })).resolves.toBeNull();
    expect(toastActor.getSnapshot().context.visible).toEqual([]);
  });
});

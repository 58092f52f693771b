import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { NotificationsHost, Quiet } from '#src/app/notifications/notifications-host.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { bannerStore } from '#src/lib/http/banner-store.ts';

beforeAll(async () => {
  await initI18n('en-US');
});

describe('the banner', () => {
  it('should say the spec text while set, and go when cleared or dismissed', async () => {
    const user = userEvent.setup();
    render(
      <I18nextProvider i18n={i18n}>
        <NotificationsHost />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => bannerStore.trigger.show({ message: 'technicalDifficulties' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("We're currently experiencing technical difficulties. Please try again later.");
    act(() => bannerStore.trigger.clear());
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => bannerStore.trigger.show({ message: 'technicalDifficulties' }));
    await user.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(bannerStore.getSnapshot().context.message).toBeNull();
  });
});

describe('the offline banner (issue 23)', () => {
  it('should show the network message while the browser is offline, and go when it is back online', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <NotificationsHost />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent("Error! Server can't be reached. Please try again later or contact server administrator!");
    expect(banner).toHaveAttribute('data-message', 'network');
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('should leave the 401 banner alone when the browser comes back online', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <NotificationsHost />
      </I18nextProvider>,
    );
    act(() => bannerStore.trigger.show({ message: 'technicalDifficulties' }));
    await screen.findByRole('alert');
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.getByRole('alert')).toHaveTextContent("We're currently experiencing technical difficulties.");
    act(() => bannerStore.trigger.clear());
  });
});

describe('a notification surface whose code does not come', () => {
  it('should stay quiet while offline, and try again once the browser is back online', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    let chunkArrived = false;
    function Surface() {
      if (!chunkArrived) throw new TypeError('Failed to fetch dynamically imported module');
      return <p>the banner</p>;
    }
    try {
      render(
        <Quiet>
          <Surface />
        </Quiet>,
      );
      expect(screen.queryByText('the banner')).toBeNull();
      expect(errors.mock.calls.filter(([first]) => first === 'Notifications could not load')).toEqual([]);
      online.mockReturnValue(true);
      chunkArrived = true;
      act(() => {
        window.dispatchEvent(new Event('online'));
      });
      expect(screen.getByText('the banner')).toBeInTheDocument();
    } finally {
      errors.mockRestore();
      online.mockRestore();
    }
  });

  it('should report a failure while online', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(): never {
      throw new TypeError('Failed to fetch dynamically imported module');
    }
    try {
      render(
        <Quiet>
          <Broken />
        </Quiet>,
      );
      expect(errors).toHaveBeenCalledWith('Notifications could not load', 'TypeError', 'Failed to fetch dynamically imported module');
    } finally {
      errors.mockRestore();
    }
  });
});

import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NotificationDto } from '#machines/notification-center.machine.ts';
import { modelNotification } from '#machines/notification-center.model.ts';
import { NotificationsHost } from '#src/app/notifications/notifications-host.tsx';
import { closeSnackbar } from '#src/app/notifications/snackbar.ts';
import { setUnreadCount } from '#src/app/notifications/unread-count.ts';
import { NotificationBell } from '#src/app/shell/notification-bell.tsx';
import { createInboxActor, feedFromRealtime, type InboxApi } from '#src/features/inbox/inbox-runtime.ts';
import { NotificationList } from '#src/features/inbox/inbox-page.tsx';
import { dayKey } from '#src/features/inbox/notification-title.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['tickets', 'notifications']);
  HTMLElement.prototype.animate = function animate() {
    return { cancel: () => {} } as Animation;
  } as typeof HTMLElement.prototype.animate;
});

afterEach(async () => {
  await act(async () => {
    await closeSnackbar();
  });
  setUnreadCount(null);
});

const now = new Date();
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000 - 60_000).toISOString();
/** An hour ago, or a second ago in the first hour after midnight: still today on the reader's clock. */
const earlierToday = () => (dayKey(hoursAgo(1)) === dayKey(now.toISOString()) ? hoursAgo(1) : new Date(now.getTime() - 1000).toISOString());

/** The model's ticket reply, at the time and read state this test needs. */
const reply = (id: number, createdOn: string, readOn: string | null = null): NotificationDto => ({ ...modelNotification(id, 0), createdOn, readOn });

function fakeApi(items: NotificationDto[]) {
  let rows = [...items];
  const unread = () => rows.filter((n) => !n.readOn && !n.archivedOn).length;
  const archived = new Map<number, NotificationDto>();
  const api = {
    unreadCount: vi.fn(async () => ({ unreadCount: unread() })),
    search: vi.fn(async () => ({
      data: rows.filter((n) => !n.archivedOn),
      hasNextPage: false,
      unreadCount: unread(),
      currentPage: 1,
      totalPages: 1,
      totalCount: rows.length,
    })),
    markRead: vi.fn(async (id: number) => {
      rows = rows.map((n) => (n.id === id ? { ...n, readOn: new Date().toISOString() } : n));
      return { notification: rows.find((n) => n.id === id)!, unreadCount: unread() };
    }),
    markAllRead: vi.fn(async () => {
      rows = rows.map((n) => ({ ...n, readOn: n.readOn ?? new Date().toISOString() }));
      return { updated: 1, unreadCount: 0 };
    }),
    archive: vi.fn(async (id: number) => {
      const n = rows.find((r) => r.id === id)!;
      archived.set(id, n);
      rows = rows.filter((r) => r.id !== id);
      return { notification: { ...n, archivedOn: new Date().toISOString() }, unreadCount: unread() };
    }),
    unarchive: vi.fn(async (id: number) => {
      const n = archived.get(id)!;
      rows = [...rows, n];
      return { notification: n, unreadCount: unread() };
    }),
  };
  return api;
}

function renderList(api: ReturnType<typeof fakeApi>) {
  const actor = createInboxActor(api as unknown as InboxApi);
  actor.on('count.changed', ({ unreadCount }) => setUnreadCount(unreadCount));
  actor.start();
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/account/notifications']}>
        <NotificationBell />
        <Routes>
          <Route path="/account/notifications" element={<NotificationList actor={actor} />} />
          <Route path="/tickets/:id" element={<p>ticket page</p>} />
        </Routes>
      </MemoryRouter>
      <NotificationsHost />
    </I18nextProvider>,
  );
  return { actor, user };
}

describe('the notification bell', () => {
  it('should show no badge until the count is known, then the count in its name', async () => {
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <NotificationBell />
        </MemoryRouter>
      </I18nextProvider>,
    );
    const bell = screen.getByRole('link', { name: 'Notifications' });
    expect(bell).toHaveAttribute('href', '/account?view=notifications');
    expect(screen.queryByTestId('notification-count')).toBeNull();
    act(() => setUnreadCount(3));
    expect(screen.getByRole('link', { name: 'Notifications: 3 unread' })).toBeInTheDocument();
    expect(screen.getByTestId('notification-count')).toHaveTextContent('3');
    act(() => setUnreadCount(250));
    expect(screen.getByTestId('notification-count')).toHaveTextContent('99+');
    act(() => setUnreadCount(0));
    expect(screen.queryByTestId('notification-count')).toBeNull();
  });
});

describe('the notification list', () => {
  it('should group by day, newest first, with titles in the reader’s language, and follow a live push', async () => {
    const api = fakeApi([reply(1, daysAgo(1), hoursAgo(20)), reply(2, earlierToday()), reply(3, daysAgo(5))]);
    const { actor } = renderList(api);
    const days = await screen.findAllByTestId('notification-day');
    expect(days).toHaveLength(3);
    expect(screen.getByRole('heading', { name: 'Today' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Yesterday' })).toBeInTheDocument();
    expect(within(days[0]).getByRole('button', { name: 'Unread: Chen Agent replied on ticket #2: Hall ticket 2' })).toBeInTheDocument();
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2');

    act(() =>
      feedFromRealtime(actor, {
        type: 'event',
        frame: {
          type: 'event',
          cursor: 9,
          kind: 'notification.created',
          ticketId: null,
          at: now.toISOString(),
          data: { notification: reply(4, now.toISOString()), unreadCount: 3 },
        },
      }),
    );
    expect(within(screen.getAllByTestId('notification-day')[0]).getAllByTestId('notification-item')[0]).toHaveTextContent('Hall ticket 4');
    expect(screen.getByTestId('notification-count')).toHaveTextContent('3');
  });

  it('should mark one read, mark all read, and open the linked record', async () => {
    const api = fakeApi([reply(1, hoursAgo(2)), reply(2, hoursAgo(1))]);
    const { user } = renderList(api);
    await user.click(await screen.findByRole('button', { name: 'Mark read: Chen Agent replied on ticket #1: Hall ticket 1' }));
    expect(api.markRead).toHaveBeenCalledWith(1);
    expect(screen.getByTestId('notification-count')).toHaveTextContent('1');
    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(api.markAllRead).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('notification-count')).toBeNull();
    expect(screen.getAllByTestId('notification-item').every((li) => li.dataset.unread === 'false')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Chen Agent replied on ticket #2: Hall ticket 2' }));
    expect(await screen.findByText('ticket page')).toBeInTheDocument();
  });

  it('should archive with the spec’s snackbar and bring the notification back on UNDO', async () => {
    const api = fakeApi([reply(1, hoursAgo(2)), reply(2, hoursAgo(1))]);
    const { user } = renderList(api);
    await user.click(await screen.findByRole('button', { name: 'Archive: Chen Agent replied on ticket #1: Hall ticket 1' }));
    expect(screen.getAllByTestId('notification-item')).toHaveLength(1);
    const snackbar = await screen.findByTestId('snackbar');
    expect(snackbar).toHaveTextContent('Note archived');
    expect(screen.getByTestId('snackbar-anchor').dataset).toMatchObject({ vertical: 'bottom', horizontal: 'right' });
    expect(api.archive).toHaveBeenCalledWith(1);
    await user.click(within(snackbar).getByRole('button', { name: 'UNDO' }));
    expect(api.unarchive).toHaveBeenCalledWith(1);
    expect(screen.getAllByTestId('notification-item').map((li) => li.textContent)).toEqual([
      expect.stringContaining('Hall ticket 2'),
      expect.stringContaining('Hall ticket 1'),
    ]);
  });

  it('should say when there is nothing, and offer a retry when loading fails', async () => {
    const api = fakeApi([]);
    api.search.mockRejectedValueOnce(new Error('offline'));
    const { user } = renderList(api);
    await user.click(await screen.findByRole('button', { name: /retry|try again/i }));
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
  });
});

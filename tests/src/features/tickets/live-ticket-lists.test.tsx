/**
 * Lists and counts that follow other users' changes (issue 8): pushes published on the realtime
 * notice bus reload them; unread chat counts per ticket show in the rows and follow chat pushes.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import { publishRealtime } from '#src/app/realtime/realtime-events.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import type { TicketSummary } from '#src/features/tickets/api/tickets-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';

const api = vi.hoisted(() => ({
  search: vi.fn(),
  counts: vi.fn(),
  perform: vi.fn(),
  create: vi.fn(),
  list: vi.fn(),
  mine: vi.fn(),
  update: vi.fn(),
  agents: vi.fn(),
  setMembers: vi.fn(),
  createGroup: vi.fn(),
}));

const chat = vi.hoisted(() => ({ history: vi.fn(), send: vi.fn(), markRead: vi.fn(), unreadCounts: vi.fn() }));
vi.mock('#src/features/chat/api/chat-api.ts', () => ({ chatApi: chat, CHAT_PAGE_SIZE: 20, MAX_MESSAGE_LENGTH: 4000 }));

vi.mock('#src/features/tickets/api/tickets-api.ts', () => ({
  ticketsApi: { search: api.search, counts: api.counts, perform: api.perform, create: api.create },
  supportGroupsApi: { list: api.list, mine: api.mine, update: api.update, agents: api.agents, setMembers: api.setMembers, create: api.createGroup },
}));

const { default: MyTicketsPage } = await import('#src/features/tickets/my-tickets-page.tsx');
const { default: SupportDeskPage } = await import('#src/features/tickets/support-desk-page.tsx');

const summary = (id: number, overrides: Partial<TicketSummary> = {}): TicketSummary => ({
  ticketId: id,
  title: `Ticket number ${id}`,
  description: 'd',
  statusId: 1,
  status: 'Open',
  supportTicketPriorityId: 2,
  supportGroupId: 1,
  supportGroupName: 'General Support',
  loginUserId: 'u1',
  requesterName: 'Asha Candidate',
  requesterEmail: 'a@example.test',
  createdBy: 'u1',
  assigneeId: null,
  assigneeName: null,
  parentSupportTicketId: null,
  createdOn: '2026-11-20T10:00:00.000Z',
  lastModifiedOn: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const page = (rows: TicketSummary[], query: PagedQuery, total = rows.length) => ({
  data: rows,
  currentPage: query.pageNumber,
  totalPages: Math.ceil(total / query.pageSize),
  totalCount: total,
  pageSize: query.pageSize,
  hasPreviousPage: query.pageNumber > 1,
  hasNextPage: query.pageNumber * query.pageSize < total,
});

const counts = {
  total: 3,
  byStatus: [1, 2, 3, 4, 5, 6, 7].map((statusId) => ({ statusId, status: String(statusId), count: statusId === 1 ? 2 : statusId === 5 ? 1 : 0 })),
};

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['tickets', 'chat', 'ui', 'errors']);
});
beforeEach(() => {
  api.counts.mockResolvedValue(counts);
  api.list.mockResolvedValue([{ supportGroupId: 1, name: 'General Support', description: 'Anything', isActive: true, sortOrder: 1, memberCount: 1 }]);
  api.mine.mockResolvedValue([{ supportGroupId: 1, name: 'General Support', description: 'Anything', isActive: true, sortOrder: 1, memberCount: 1 }]);
});
afterEach(() => {
  vi.resetAllMocks();
  userPermissionsStore.trigger.update({ permissions: [] });
});

const AT = '2026-11-22T10:00:00.000Z';
const ticketChanged = (cursor: number, ticketId: number) =>
  publishRealtime({ type: 'event', frame: { type: 'event', cursor, kind: 'ticket.changed', ticketId, data: { ticketId, change: 'ticket.claim' }, at: AT } });
const chatMessage = (cursor: number, ticketId: number) =>
  publishRealtime({ type: 'event', frame: { type: 'event', cursor, kind: 'chat.message', ticketId, data: { ticketId, seq: cursor }, at: AT } });

const rowOf = (id: number) => screen.getByRole('link', { name: `Ticket number ${id}` }).closest('tr')!;

describe('live ticket lists', () => {
  it('should reload my tickets and their counts once when others change tickets', async () => {
    let claimed = false;
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) =>
      page([summary(1, claimed ? { statusId: 2, status: 'InProgress', assigneeName: 'Ravi Kumar' } : {}), summary(2)], query),
    );
    chat.unreadCounts.mockResolvedValue({ items: [] });
    renderAt('/tickets', <MyTicketsPage />);
    await screen.findByTestId('ticket-list');
    expect(within(rowOf(1)).getByText('Open')).toBeInTheDocument();
    const searches = api.search.mock.calls.length;
    const countCalls = api.counts.mock.calls.length;

    claimed = true;
    act(() => {
      ticketChanged(5, 1);
      ticketChanged(6, 2);
    });
    await waitFor(() => expect(within(rowOf(1)).getByText('In progress')).toBeInTheDocument());
    // A burst of changes is one reload of the list and one of the counts.
    expect(api.search.mock.calls.length).toBe(searches + 1);
    expect(api.counts.mock.calls.length).toBe(countCalls + 1);
  });

  it('should reload after a resumed connection or a resync, and not for chat pushes', async () => {
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([summary(1)], query));
    chat.unreadCounts.mockResolvedValue({ items: [] });
    renderAt('/tickets', <MyTicketsPage />);
    await screen.findByTestId('ticket-list');
    const searches = api.search.mock.calls.length;
    act(() => {
      publishRealtime({ type: 'connected', resumed: false });
      chatMessage(9, 1);
    });
    await new Promise((r) => setTimeout(r, 400));
    expect(api.search.mock.calls.length).toBe(searches);
    act(() => publishRealtime({ type: 'connected', resumed: true }));
    await waitFor(() => expect(api.search.mock.calls.length).toBe(searches + 1));
    act(() => publishRealtime({ type: 'resync' }));
    await waitFor(() => expect(api.search.mock.calls.length).toBe(searches + 2));
  });

  it('should show unread chat messages per ticket and follow new messages live', async () => {
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page([summary(1), summary(2), summary(3)], query));
    chat.unreadCounts
      .mockResolvedValueOnce({
        items: [
          { ticketId: 1, lastSeq: 4, lastReadSeq: 2, unreadCount: 2 },
          { ticketId: 2, lastSeq: 1, lastReadSeq: 1, unreadCount: 0 },
        ],
      })
      .mockResolvedValueOnce({
        items: [
          { ticketId: 1, lastSeq: 4, lastReadSeq: 2, unreadCount: 2 },
          { ticketId: 3, lastSeq: 1, lastReadSeq: 0, unreadCount: 1 },
        ],
      });
    renderAt('/tickets', <MyTicketsPage />);
    await waitFor(() => expect(within(rowOf(1)).getByTestId('unread-count')).toHaveTextContent('2 unread messages'));
    expect(chat.unreadCounts).toHaveBeenCalledWith([1, 2, 3]);
    expect(within(rowOf(2)).queryByTestId('unread-count')).toBeNull();
    expect(within(rowOf(3)).queryByTestId('unread-count')).toBeNull();

    act(() => chatMessage(20, 3));
    await waitFor(() => expect(within(rowOf(3)).getByTestId('unread-count')).toHaveTextContent('1 unread message'));
    expect(chat.unreadCounts).toHaveBeenCalledTimes(2);
    // A message on a ticket this list does not show asks nothing.
    act(() => chatMessage(21, 99));
    await new Promise((r) => setTimeout(r, 400));
    expect(chat.unreadCounts).toHaveBeenCalledTimes(2);
  });

  it('should take a ticket claimed by someone else out of the desk queue live', async () => {
    userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportTickets.Work'] });
    let queue = [summary(1), summary(2)];
    api.search.mockImplementation(async (_kind: string, query: PagedQuery) => page(queue, query));
    chat.unreadCounts.mockResolvedValue({ items: [] });
    renderAt('/support', <SupportDeskPage />);
    await screen.findByRole('link', { name: 'Ticket number 2' });
    queue = [summary(1)];
    act(() => ticketChanged(30, 2));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Ticket number 2' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Ticket number 1' })).toBeInTheDocument();
  });
});

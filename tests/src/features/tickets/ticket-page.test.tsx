import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { TicketDetail } from '#src/features/tickets/api/tickets-api.ts';
import { ticketStore, userPermissionsStore } from '#src/app/stores/slices.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { chooseOption } from '#tests/src/support/select.ts';

const api = vi.hoisted(() => ({
  get: vi.fn(),
  perform: vi.fn(),
  history: vi.fn(),
  list: vi.fn(),
  agents: vi.fn(),
}));

const chat = vi.hoisted(() => ({ history: vi.fn(), send: vi.fn(), markRead: vi.fn(), unreadCounts: vi.fn() }));
vi.mock('#src/features/chat/api/chat-api.ts', () => ({ chatApi: chat, CHAT_PAGE_SIZE: 20, MAX_MESSAGE_LENGTH: 4000 }));

vi.mock('#src/features/tickets/api/tickets-api.ts', () => ({
  ticketsApi: { get: api.get, perform: api.perform, history: api.history },
  supportGroupsApi: { list: api.list, agents: api.agents },
}));

const { default: TicketPage } = await import('#src/features/tickets/ticket-page.tsx');

function ticket(overrides: Partial<TicketDetail> = {}): TicketDetail {
  return {
    ticketId: 42,
    title: 'Exam timer stops at zero',
    description: 'The submit button stays disabled.',
    statusId: 1,
    status: 'Open',
    supportTicketPriorityId: 3,
    supportGroupId: 1,
    supportGroupName: 'General Support',
    loginUserId: 'u-requester',
    requesterName: 'Asha Candidate',
    requesterEmail: 'asha@example.test',
    createdBy: 'u-requester',
    assigneeId: null,
    assigneeName: null,
    parentSupportTicketId: null,
    createdOn: '2026-11-20T10:00:00.000Z',
    lastModifiedOn: '2026-11-20T10:00:00.000Z',
    answer: null,
    resolvedOn: null,
    closedOn: null,
    version: 1,
    supportTicketBotId: null,
    botSuggestion: null,
    documents: [],
    children: [],
    viewer: { requester: false, agent: true, assignee: false, supportAdmin: false },
    ...overrides,
  };
}

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['tickets', 'chat', 'ui', 'errors']);
});

beforeEach(() => {
  userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportTickets.View', 'Permissions.SupportTickets.Work'] });
  api.history.mockResolvedValue([]);
  api.list.mockResolvedValue([
    { supportGroupId: 1, name: 'General Support', description: '', isActive: true, sortOrder: 1, memberCount: 2 },
    { supportGroupId: 3, name: 'Exam Administration', description: '', isActive: true, sortOrder: 3, memberCount: 1 },
  ]);
  api.agents.mockResolvedValue([]);
});

afterEach(() => {
  vi.clearAllMocks();
});

function renderPage() {
  const user = userEvent.setup();
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={['/tickets/42']}>
        <Suspense fallback={null}>
          <Routes>
            <Route path="/tickets/:ticketId" element={<TicketPage />} />
          </Routes>
        </Suspense>
      </MemoryRouter>
    </I18nextProvider>,
  );
  return user;
}

const actionButtons = () =>
  within(screen.getByTestId('ticket-actions'))
    .getAllByRole('button')
    .map((b) => b.textContent);

const chatPage = (messages: Array<{ seq: number; from: string; name: string; to: string | null; at: string; text: string }>) => ({
  data: [...messages]
    .sort((a, b) => b.seq - a.seq)
    .map((m) => ({
      messageId: `10000000-0000-4000-8000-${String(m.seq).padStart(12, '0')}`,
      ticketId: 42,
      seq: m.seq,
      fromUserId: m.from,
      fromUserName: m.name,
      toUserId: m.to,
      message: m.text,
      createdOn: m.at,
    })),
  currentPage: 1,
  totalPages: 1,
  totalCount: messages.length,
  pageSize: 20,
  hasPreviousPage: false,
  hasNextPage: false,
  lastSeq: messages.length,
  lastReadSeq: messages.length,
  unreadCount: 0,
  readOnly: false,
});

describe('the ticket page with its chat (issue 23)', () => {
  const requesterView = ticket({
    statusId: 2,
    status: 'InProgress',
    assigneeId: 'u-agent',
    assigneeName: 'Chen Agent',
    viewer: { requester: true, agent: false, assignee: false, supportAdmin: false },
  });
  const history = [
    {
      id: 1,
      event: 'ticket.created',
      fromStatusId: null,
      fromStatus: null,
      toStatusId: 1,
      toStatus: 'Open',
      actorId: 'u-requester',
      actorName: 'Asha Candidate',
      actorKind: 'user',
      reason: null,
      details: {},
      createdOn: '2026-11-20T10:00:00.000Z',
    },
    {
      id: 2,
      event: 'ticket.claim',
      fromStatusId: 1,
      fromStatus: 'Open',
      toStatusId: 2,
      toStatus: 'InProgress',
      actorId: 'u-agent',
      actorName: 'Chen Agent',
      actorKind: 'user',
      reason: null,
      details: {},
      createdOn: '2026-11-20T10:10:00.000Z',
    },
  ];
  const messages = [
    { seq: 1, from: 'u-requester', name: 'Asha Candidate', to: null, at: '2026-11-20T10:05:00.000Z', text: 'Any news?' },
    { seq: 2, from: 'u-agent', name: 'Chen Agent', to: 'u-requester', at: '2026-11-20T10:15:00.000Z', text: 'Looking at it.' },
    { seq: 3, from: 'u-admin', name: 'Priya Admin', to: 'u-requester', at: '2026-11-20T10:20:00.000Z', text: 'I am following this one too.' },
  ];

  beforeEach(() => {
    userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportTickets.View', 'Permissions.SupportChat.Use'] });
    api.get.mockResolvedValue(requesterView);
    api.history.mockResolvedValue(history);
    chat.history.mockResolvedValue(chatPage(messages));
    chat.markRead.mockResolvedValue({ ticketId: 42, lastSeq: 3, lastReadSeq: 3, unreadCount: 0 });
  });

  it('should show the chat and the history as one timeline, each change at its moment between the messages', async () => {
    renderPage();
    const log = await screen.findByRole('log', { name: 'Messages and ticket changes' });
    await within(log).findByText('Any news?');
    // The ticket open is the ticket slice (spec §4).
    expect(ticketStore.getSnapshot().context.selected).toMatchObject({ ticketId: expect.any(Number), version: expect.any(Number) });
    await waitFor(() => expect(within(log).getAllByTestId('timeline-event')).toHaveLength(2));
    const order = [...log.querySelectorAll('[data-testid="chat-text"], [data-testid="timeline-event"]')].map((el) =>
      el.getAttribute('data-testid') === 'timeline-event' ? `event: ${el.querySelector('strong')?.textContent}` : el.textContent,
    );
    expect(order).toEqual(['event: Asha Candidate', 'Any news?', 'event: Chen Agent', 'Looking at it.', 'I am following this one too.']);
    expect(screen.getByRole('heading', { level: 2, name: 'Conversation' })).toBeInTheDocument();
    // Not a second list of the same history below.
    expect(screen.queryByRole('region', { name: 'History' })).toBeNull();
    expect(api.history).toHaveBeenCalledTimes(1);
  });

  it('should let the requester address one of several staff who take part (toUserId), the assignee by default', async () => {
    chat.send.mockImplementation(async (ticketId: number, message: string, messageId: string, toUserId?: string) => ({
      messageId,
      ticketId,
      seq: 4,
      fromUserId: 'u-requester',
      fromUserName: 'Asha Candidate',
      toUserId: toUserId ?? 'u-agent',
      message,
      createdOn: '2026-11-20T10:30:00.000Z',
    }));
    const user = renderPage();
    const log = await screen.findByRole('log');
    await within(log).findByText('I am following this one too.');
    // Messages name whom they were for, now that more than two people take part.
    expect(
      within(log)
        .getAllByTestId('chat-to')
        .map((el) => el.textContent),
    ).toEqual(['to You', 'to You']);
    const to = screen.getByRole('combobox', { name: 'To' });
    expect(to).toHaveTextContent('Chen Agent');
    await chooseOption(user, to, 'Priya Admin');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Thank you, Priya{Enter}');
    await waitFor(() => expect(chat.send).toHaveBeenCalledWith(42, 'Thank you, Priya', expect.any(String), 'u-admin'));
    expect(await within(log).findByText('to Priya Admin')).toBeInTheDocument();
  });

  it('should offer no choice of recipient while only two people take part', async () => {
    chat.history.mockResolvedValue(chatPage(messages.slice(0, 2)));
    renderPage();
    const log = await screen.findByRole('log');
    await within(log).findByText('Looking at it.');
    expect(screen.queryByRole('combobox', { name: 'To' })).toBeNull();
    expect(within(log).queryByTestId('chat-to')).toBeNull();
  });
});

describe('the ticket page', () => {
  it('should put the conversation (history here, chat with its permission) beside the details (issue 23)', async () => {
    api.get.mockResolvedValue(ticket());
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Exam timer stops at zero' });
    expect(within(screen.getByTestId('ticket-conversation')).getByRole('region', { name: 'History' })).toBeInTheDocument();
    expect(within(screen.getByTestId('ticket-details')).getByText('The submit button stays disabled.')).toBeInTheDocument();
    // No chat permission: no Reply.
    expect(screen.queryByTestId('ticket-reply')).toBeNull();
  });

  it('should show the ticket and exactly the actions the lifecycle machine allows an agent of its group', async () => {
    api.get.mockResolvedValue(ticket());
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Exam timer stops at zero' })).toBeInTheDocument();
    expect(screen.getByTestId('ticket-status')).toHaveTextContent('Open');
    expect(actionButtons()).toEqual(['Claim']);
    expect(api.get).toHaveBeenCalledWith(42, 'staff');
  });

  it('should claim at once, then offer the assignee’s actions', async () => {
    api.get.mockResolvedValue(ticket());
    api.perform.mockResolvedValue(
      ticket({
        statusId: 2,
        status: 'InProgress',
        assigneeId: 'u-agent',
        assigneeName: 'Chen Agent',
        version: 2,
        viewer: { requester: false, agent: true, assignee: true, supportAdmin: false },
      }),
    );
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(screen.getByTestId('ticket-status')).toHaveTextContent('In progress'));
    expect(api.perform).toHaveBeenCalledWith(42, 'ticket.claim', {});
    expect(actionButtons()).toEqual(['Release', 'Put on hold', 'Reassign', 'Escalate', 'Resolve', 'Edit']);
    expect(screen.getByText('Chen Agent')).toBeInTheDocument();
  });

  it('should ask for the hold reason, show the server’s field error, and hold once given', async () => {
    api.get.mockResolvedValue(
      ticket({ statusId: 2, status: 'InProgress', assigneeId: 'u-agent', viewer: { requester: false, agent: true, assignee: true, supportAdmin: false } }),
    );
    api.perform
      .mockRejectedValueOnce({
        status: 400,
        title: 'One or more validation errors occurred.',
        errors: { onHoldReason: ['The onHoldReason field is required.'] },
      })
      .mockResolvedValueOnce(ticket({ statusId: 3, status: 'OnHold', viewer: { requester: false, agent: true, assignee: true, supportAdmin: false } }));
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Put on hold' }));
    const dialog = await screen.findByTestId('ticket-action-dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Put on hold' }));
    expect(await within(dialog).findByText('The onHoldReason field is required.')).toBeInTheDocument();
    const reason = within(dialog).getByRole('textbox', { name: /What is the ticket waiting for/ });
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    await user.type(reason, 'Waiting for a screenshot');
    await user.click(within(dialog).getByRole('button', { name: 'Put on hold' }));
    await waitFor(() => expect(screen.getByTestId('ticket-status')).toHaveTextContent('On hold'));
    expect(api.perform).toHaveBeenLastCalledWith(42, 'ticket.hold', { onHoldReason: 'Waiting for a screenshot' });
    expect(screen.queryByTestId('ticket-action-dialog')).toBeNull();
  });

  it('should reload and say what changed when someone else was faster (409)', async () => {
    api.get
      .mockResolvedValueOnce(ticket())
      .mockResolvedValueOnce(ticket({ statusId: 2, status: 'InProgress', assigneeId: 'u-other', assigneeName: 'Dana Agent', version: 2 }));
    api.perform.mockRejectedValue({ statusCode: 409, messages: ['Ticket 42 was changed by someone else; it is now InProgress.'], currentStatus: 'InProgress' });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('This ticket was changed by someone else. It is now: In progress.')).toBeInTheDocument();
    expect(screen.getByTestId('ticket-status')).toHaveTextContent('In progress');
    expect(screen.getByText('Dana Agent')).toBeInTheDocument();
    expect(screen.queryByTestId('ticket-actions')).toBeNull();
  });

  it('should let the requester cancel with a reason but not claim', async () => {
    userPermissionsStore.trigger.update({ permissions: ['Permissions.SupportTickets.View'] });
    api.get.mockResolvedValue(ticket({ viewer: { requester: true, agent: false, assignee: false, supportAdmin: false } }));
    renderPage();
    await screen.findByRole('heading', { level: 1 });
    expect(actionButtons()).toEqual(['Cancel ticket', 'Edit']);
    expect(api.get).toHaveBeenCalledWith(42, 'requester');
  });

  it('should offer the bot’s answer to agents and resolve with it after confirmation', async () => {
    const bot = { supportTicketBotId: 'b-1', answer: 'Clear the cache and sign in again.', sourceTicketId: 7, score: 0.8, accepted: false };
    api.get.mockResolvedValue(ticket({ botSuggestion: bot, supportTicketBotId: 'b-1' }));
    api.perform.mockResolvedValue(ticket({ statusId: 5, status: 'Resolved', answer: bot.answer, botSuggestion: { ...bot, accepted: true } }));
    const user = renderPage();
    const card = await screen.findByTestId('bot-suggestion');
    expect(card).toHaveTextContent('From solved ticket #7 (80 % match)');
    await user.click(within(card).getByRole('button', { name: 'Resolve with this answer' }));
    const dialog = await screen.findByTestId('ticket-action-dialog');
    expect(dialog).toHaveTextContent(bot.answer);
    await user.click(within(dialog).getByRole('button', { name: 'Resolve with this answer' }));
    await waitFor(() => expect(screen.getByTestId('ticket-answer')).toHaveTextContent(bot.answer));
    expect(api.perform).toHaveBeenCalledWith(42, 'ticket.acceptBotAnswer', { supportTicketBotId: 'b-1' });
  });

  it('should say when the ticket cannot be shown, and retry', async () => {
    api.get.mockRejectedValue({ statusCode: 404, messages: ['Ticket 42 was not found.'] });
    const user = renderPage();
    expect(await screen.findByRole('heading', { name: 'Ticket #42 is not available' })).toBeInTheDocument();
    expect(await screen.findByText('Ticket 42 was not found.')).toBeInTheDocument();
    api.get.mockResolvedValue(ticket());
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Exam timer stops at zero' })).toBeInTheDocument();
  });
});

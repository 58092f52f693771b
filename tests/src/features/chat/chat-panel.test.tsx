import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessageData, EventFrame } from '#machines/realtime-protocol.ts';
import { publishRealtime, setRealtimeStatus } from '#src/app/realtime/realtime-events.ts';
import type { ChatPage } from '#src/features/chat/api/chat-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

const api = vi.hoisted(() => ({ history: vi.fn(), send: vi.fn(), markRead: vi.fn(), unreadCounts: vi.fn() }));
vi.mock('#src/features/chat/api/chat-api.ts', () => ({ chatApi: api, CHAT_PAGE_SIZE: 20, MAX_MESSAGE_LENGTH: 4000 }));

const { ChatPanel } = await import('#src/features/chat/chat-panel.tsx');

const ME = '00000000-0000-4000-8000-000000000001';
const AGENT = '00000000-0000-4000-8000-000000000002';

const message = (seq: number, from = AGENT, text = `Message ${seq}`): ChatMessageData => ({
  messageId: `10000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  ticketId: 7,
  seq,
  fromUserId: from,
  fromUserName: from === ME ? 'Meera Iyer' : 'Ravi Kumar',
  toUserId: null,
  message: text,
  createdOn: `2026-11-22T10:${String(seq % 60).padStart(2, '0')}:00.000Z`,
});

/** A page as chatdetails answers it: newest first. */
const page = (messages: ChatMessageData[], total = messages.length, extra: Partial<ChatPage> = {}): ChatPage => ({
  data: [...messages].sort((a, b) => b.seq - a.seq),
  currentPage: 1,
  totalPages: 1,
  totalCount: total,
  pageSize: 20,
  hasPreviousPage: false,
  hasNextPage: total > messages.length,
  lastSeq: Math.max(0, ...messages.map((m) => m.seq)),
  lastReadSeq: 0,
  unreadCount: 0,
  readOnly: false,
  ...extra,
});

const push = (cursor: number, data: ChatMessageData): EventFrame => ({
  type: 'event',
  cursor,
  kind: 'chat.message',
  ticketId: data.ticketId,
  data: data as never,
  at: data.createdOn,
});

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['chat', 'ui', 'errors']);
});
beforeEach(() => {
  api.markRead.mockImplementation(async (ticketId: number, seq: number) => ({ ticketId, lastSeq: seq, lastReadSeq: seq, unreadCount: 0 }));
});
afterEach(() => {
  vi.resetAllMocks();
  setRealtimeStatus('off');
});

function renderPanel(status = 'InProgress') {
  return render(
    <I18nextProvider i18n={i18n}>
      <Suspense fallback={null}>
        <ChatPanel ticketId={7} status={status} userId={ME} userName="Meera Iyer" />
      </Suspense>
    </I18nextProvider>,
  );
}

const texts = () => screen.queryAllByTestId('chat-text').map((el) => el.textContent);

describe('ChatPanel', () => {
  it('should show the newest page oldest-first, and mark what it shows as read', async () => {
    api.history.mockResolvedValueOnce(page([message(1), message(2, ME), message(3)]));
    renderPanel();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the chat…');
    await waitFor(() => expect(texts()).toEqual(['Message 1', 'Message 2', 'Message 3']));
    expect(api.history).toHaveBeenCalledWith(7, null);
    const mine = screen.getAllByTestId('chat-message')[1];
    expect(within(mine).getByText('You')).toBeInTheDocument();
    expect(within(mine).getByTestId('chat-delivery')).toHaveTextContent('Sent');
    await waitFor(() => expect(api.markRead).toHaveBeenCalledWith(7, 3));
  });

  it('should say when there are no messages yet, and show a failed load with a retry', async () => {
    api.history.mockRejectedValueOnce({ statusCode: 500, title: 'Server broke' }).mockResolvedValueOnce(page([]));
    renderPanel();
    const alert = await screen.findByRole('alert');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('No messages yet');
    expect(api.history).toHaveBeenCalledTimes(2);
  });

  it('should send on Enter with a new line on Shift+Enter, marking the message sending then sent', async () => {
    api.history.mockResolvedValueOnce(page([]));
    let answer!: (m: ChatMessageData) => void;
    api.send.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    renderPanel();
    const box = await screen.findByLabelText('Message');
    await userEvent.type(box, 'First line{Shift>}{Enter}{/Shift}second line');
    expect(box).toHaveValue('First line\nsecond line');
    expect(api.send).not.toHaveBeenCalled();
    await userEvent.type(box, '{Enter}');
    expect(box).toHaveValue('');
    expect(api.send).toHaveBeenCalledTimes(1);
    const [ticketId, text, messageId] = api.send.mock.calls[0];
    expect([ticketId, text]).toEqual([7, 'First line\nsecond line']);
    expect(messageId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(screen.getByTestId('chat-delivery')).toHaveTextContent('Sending…');

    // The push of one's own message may arrive before the answer: still one message.
    act(() => publishRealtime({ type: 'event', frame: push(50, { ...message(4, ME, 'First line\nsecond line'), messageId }) }));
    await act(async () => answer({ ...message(4, ME, 'First line\nsecond line'), messageId }));
    expect(screen.getAllByTestId('chat-message')).toHaveLength(1);
    expect(screen.getByTestId('chat-delivery')).toHaveTextContent('Sent');
  });

  it('should mark a failed send and retry it with the same message id', async () => {
    api.history.mockResolvedValueOnce(page([message(1)]));
    api.send
      .mockRejectedValueOnce(new Error('Network Error'))
      .mockImplementationOnce(async (_t: number, text: string, messageId: string) => ({ ...message(2, ME, text), messageId }));
    renderPanel();
    const box = await screen.findByLabelText('Message');
    await userEvent.type(box, 'Are you there?{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('chat-delivery').at(-1)).toHaveTextContent('Not sent'));
    await userEvent.click(screen.getByRole('button', { name: 'Retry: Are you there?' }));
    await waitFor(() => expect(screen.getAllByTestId('chat-delivery').at(-1)).toHaveTextContent('Sent'));
    expect(api.send).toHaveBeenCalledTimes(2);
    expect(api.send.mock.calls[1][2]).toBe(api.send.mock.calls[0][2]);
    expect(texts()).toEqual(['Message 1', 'Are you there?']);
  });

  it("should show the other side's messages live, once each, in order", async () => {
    api.history.mockResolvedValueOnce(page([message(1)]));
    renderPanel();
    await waitFor(() => expect(texts()).toEqual(['Message 1']));
    act(() => {
      publishRealtime({ type: 'event', frame: push(11, message(3)) });
      publishRealtime({ type: 'event', frame: push(10, message(2)) });
      publishRealtime({ type: 'event', frame: push(12, message(3)) });
      // Another ticket's chat is not this one.
      publishRealtime({ type: 'event', frame: push(13, { ...message(9), ticketId: 8 }) });
    });
    expect(texts()).toEqual(['Message 1', 'Message 2', 'Message 3']);
    await waitFor(() => expect(api.markRead).toHaveBeenLastCalledWith(7, 3));
  });

  it('should load earlier messages above, before the oldest one shown', async () => {
    api.history.mockResolvedValueOnce(page([message(21), message(22)], 22)).mockResolvedValueOnce(page([message(19), message(20)], 20));
    renderPanel();
    const earlier = await screen.findByRole('button', { name: 'Load earlier messages' });
    await userEvent.click(earlier);
    await waitFor(() => expect(texts()).toEqual(['Message 19', 'Message 20', 'Message 21', 'Message 22']));
    expect(api.history).toHaveBeenLastCalledWith(7, 21);
    // 18 more are older still.
    expect(screen.getByRole('button', { name: 'Load earlier messages' })).toBeInTheDocument();
  });

  it('should reload the history after a resumed connection (catching up what it missed)', async () => {
    api.history.mockResolvedValueOnce(page([message(1)])).mockResolvedValueOnce(page([message(1), message(2)]));
    renderPanel();
    await waitFor(() => expect(texts()).toEqual(['Message 1']));
    act(() => setRealtimeStatus('offline'));
    // Offline is the app banner's to say (issue 23), not a second copy in the panel.
    expect(screen.queryByTestId('chat-connection')).toBeNull();
    act(() => setRealtimeStatus('reconnecting'));
    expect(screen.getByTestId('chat-connection')).toHaveTextContent('Reconnecting');
    act(() => {
      setRealtimeStatus('live');
      publishRealtime({ type: 'connected', resumed: true });
    });
    await waitFor(() => expect(texts()).toEqual(['Message 1', 'Message 2']));
    expect(screen.queryByTestId('chat-connection')).toBeNull();
  });

  it('should be read-only with a note once the ticket is Closed', async () => {
    api.history.mockResolvedValueOnce(page([message(1)], 1, { readOnly: true }));
    renderPanel('Closed');
    await screen.findByText('This ticket is Closed; its chat is read-only.');
    expect(screen.queryByLabelText('Message')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
  });

  it('should keep the composer and the log reachable by keyboard', async () => {
    api.history.mockResolvedValueOnce(page([message(1)]));
    renderPanel();
    await screen.findByText('Message 1');
    await userEvent.tab();
    expect(screen.getByRole('log', { name: 'Chat messages' })).toHaveFocus();
    await userEvent.tab();
    expect(screen.getByLabelText('Message')).toHaveFocus();
  });

  it('should keep an unsent message as a draft when the page is left and opened again (issue 23)', async () => {
    api.history.mockResolvedValue(page([]));
    api.send.mockImplementation(() => new Promise(() => {}));
    const first = renderPanel();
    await userEvent.type(await screen.findByLabelText('Message'), 'Half a thought');
    first.unmount();
    // Someone else signed in in this tab never sees it.
    const stranger = render(
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={null}>
          <ChatPanel ticketId={7} status="InProgress" userId="someone-else" userName="Other Person" />
        </Suspense>
      </I18nextProvider>,
    );
    expect(await screen.findByLabelText('Message')).toHaveValue('');
    stranger.unmount();
    const again = renderPanel();
    expect(await screen.findByLabelText('Message')).toHaveValue('Half a thought');
    // Sending empties the draft for good.
    await userEvent.type(screen.getByLabelText('Message'), '{Enter}');
    await waitFor(() => expect(api.send).toHaveBeenCalled());
    again.unmount();
    renderPanel();
    expect(await screen.findByLabelText('Message')).toHaveValue('');
  }, 20_000);
});

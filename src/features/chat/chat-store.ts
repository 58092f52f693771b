import { createStore } from '@xstate/store';
import type { ChatMessage, ChatPage } from './api/chat-api.ts';

/**
 * One ticket chat as the panel shows it (docs/decisions/0057). Messages come from three
 * places — history pages, pushes, and this tab's own sends — and are merged by `messageId`, so
 * a message pushed while its send is still pending, a push repeated by a replay, or a history
 * page overlapping the pushes never shows twice. Ordered by the ticket's `seq`; messages
 * without one yet (pending or failed sends) follow, in the order they were written.
 */
export type DeliveryState = 'pending' | 'sent' | 'failed';

export interface ChatEntry {
  messageId: string;
  seq: number | null;
  fromUserId: string | null;
  fromUserName: string;
  /** Who the message was addressed to (spec §3 toUserId); null: not known yet. */
  toUserId: string | null;
  message: string;
  createdOn: string;
  /** Written in this tab (or by this user in another one). */
  mine: boolean;
  delivery: DeliveryState;
  /** Local order of sends without a seq. */
  local: number;
  error: unknown;
}

export interface ChatState {
  status: 'loading' | 'ready' | 'failed';
  loadError: unknown;
  entries: ChatEntry[];
  older: 'idle' | 'loading' | 'failed';
  /** More history before the oldest message shown. */
  hasOlder: boolean;
  readOnly: boolean;
  /** Messages of others up to this seq are read (server's marker, moved by markRead). */
  lastReadSeq: number;
  userId: string | null;
  nextLocal: number;
}

export function initialChatState(userId: string | null): ChatState {
  return { status: 'loading', loadError: null, entries: [], older: 'idle', hasOlder: false, readOnly: false, lastReadSeq: 0, userId, nextLocal: 0 };
}

function order(a: ChatEntry, b: ChatEntry): number {
  if (a.seq !== null && b.seq !== null) return a.seq - b.seq;
  if (a.seq !== null) return -1;
  if (b.seq !== null) return 1;
  return a.local - b.local;
}

/** Merges server messages in by id (a known id takes the server's seq and becomes sent). */
export function mergeMessages(state: ChatState, messages: readonly ChatMessage[]): ChatEntry[] {
  const byId = new Map(state.entries.map((entry) => [entry.messageId, entry]));
  for (const m of messages) {
    const known = byId.get(m.messageId);
    byId.set(m.messageId, {
      messageId: m.messageId,
      seq: m.seq,
      fromUserId: m.fromUserId,
      fromUserName: m.fromUserName,
      toUserId: m.toUserId,
      message: m.message,
      createdOn: m.createdOn,
      mine: known?.mine || (state.userId !== null && m.fromUserId === state.userId),
      delivery: 'sent',
      local: known?.local ?? -1,
      error: null,
    });
  }
  return [...byId.values()].sort(order);
}

export function oldestSeq(state: ChatState): number | null {
  const first = state.entries.find((entry) => entry.seq !== null);
  return first?.seq ?? null;
}

export function newestSeq(state: ChatState): number {
  let max = 0;
  for (const entry of state.entries) if (entry.seq !== null && entry.seq > max) max = entry.seq;
  return max;
}

/** Messages of others after the read marker. */
export function unreadOf(state: ChatState): number {
  return state.entries.filter((entry) => !entry.mine && entry.seq !== null && entry.seq > state.lastReadSeq).length;
}

export function createChatStore(userId: string | null) {
  return createStore({
    context: initialChatState(userId),
    on: {
      loading: (context) => ({ ...context, status: 'loading' as const, loadError: null }),
      loaded: (context, event: { page: ChatPage }) => {
        const next = {
          ...context,
          status: 'ready' as const,
          readOnly: event.page.readOnly,
          lastReadSeq: Math.max(context.lastReadSeq, event.page.lastReadSeq),
        };
        const entries = mergeMessages(next, event.page.data);
        // Whether the first page left older messages out is only known the first time.
        const hasOlder = context.status === 'ready' ? context.hasOlder : event.page.totalCount > event.page.data.length;
        return { ...next, entries, hasOlder };
      },
      loadFailed: (context, event: { error: unknown }) => ({ ...context, status: 'failed' as const, loadError: event.error }),
      olderLoading: (context) => ({ ...context, older: 'loading' as const }),
      olderLoaded: (context, event: { page: ChatPage }) => ({
        ...context,
        older: 'idle' as const,
        entries: mergeMessages(context, event.page.data),
        hasOlder: event.page.totalCount > event.page.data.length,
      }),
      olderFailed: (context) => ({ ...context, older: 'failed' as const }),
      received: (context, event: { message: ChatMessage }) => ({ ...context, entries: mergeMessages(context, [event.message]) }),
      sending: (context, event: { messageId: string; message: string; at: string; userName: string; toUserId?: string | null }) => {
        const known = context.entries.find((entry) => entry.messageId === event.messageId);
        if (known && known.delivery === 'sent') return context;
        const entry: ChatEntry = known
          ? { ...known, delivery: 'pending', error: null }
          : {
              messageId: event.messageId,
              seq: null,
              fromUserId: context.userId,
              fromUserName: event.userName,
              toUserId: event.toUserId ?? null,
              message: event.message,
              createdOn: event.at,
              mine: true,
              delivery: 'pending',
              local: context.nextLocal,
              error: null,
            };
        const entries = [...context.entries.filter((e) => e.messageId !== event.messageId), entry].sort(order);
        return { ...context, entries, nextLocal: known ? context.nextLocal : context.nextLocal + 1 };
      },
      sent: (context, event: { message: ChatMessage }) => ({ ...context, entries: mergeMessages(context, [event.message]) }),
      sendFailed: (context, event: { messageId: string; error: unknown }) => ({
        ...context,
        entries: context.entries.map((entry) =>
          entry.messageId === event.messageId && entry.delivery === 'pending' ? { ...entry, delivery: 'failed' as const, error: event.error } : entry,
        ),
      }),
      read: (context, event: { lastReadSeq: number }) => (event.lastReadSeq > context.lastReadSeq ? { ...context, lastReadSeq: event.lastReadSeq } : context),
      user: (context, event: { userId: string | null }) =>
        context.userId === event.userId
          ? context
          : {
              ...context,
              userId: event.userId,
              entries: context.entries.map((entry) => ({ ...entry, mine: entry.mine || (event.userId !== null && entry.fromUserId === event.userId) })),
            },
      readOnly: (context, event: { readOnly: boolean }) => (context.readOnly === event.readOnly ? context : { ...context, readOnly: event.readOnly }),
    },
  });
}

export type ChatStore = ReturnType<typeof createChatStore>;

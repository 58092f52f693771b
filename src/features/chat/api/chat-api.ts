import type { PagedResult } from '#machines/paged-search.machine.ts';
import type { ChatMessageData } from '#machines/realtime-protocol.ts';
import { serviceApi } from '#src/lib/http/api.ts';

/**
 * Spec §7 "Chat" (docs/decisions/0051): chat belongs to the notification service. Sends carry a
 * client-generated `messageId`, repeated on every retry, so a retried send stores one message.
 */
const api = serviceApi('notificationService');

export type ChatMessage = ChatMessageData;

export interface ChatPage extends PagedResult<ChatMessage> {
  lastSeq: number;
  lastReadSeq: number;
  unreadCount: number;
  readOnly: boolean;
}

export interface UnreadState {
  ticketId: number;
  lastSeq: number;
  lastReadSeq: number;
  unreadCount: number;
}

export const CHAT_PAGE_SIZE = 20;
export const MAX_MESSAGE_LENGTH = 4000;

export const chatApi = {
  /** Newest page first, each page newest first; `beforeSeq` pages further back from a fixed point. */
  history: (ticketId: number, beforeSeq: number | null, pageSize = CHAT_PAGE_SIZE) =>
    api.post<ChatPage>('/supportchat/chatdetails', {
      supportTicketId: ticketId,
      pageNumber: 1,
      pageSize,
      keyword: '',
      advancedSearch: null,
      ...(beforeSeq ? { beforeSeq } : {}),
    }),
  /** The failure is shown on the message itself (failed, with retry), not in a toast. */
  /** toUserId (spec §3): a participant the message is addressed to; omitted, the server picks the assignee or the requester. */
  send: (ticketId: number, message: string, messageId: string, toUserId?: string | null) =>
    api.post<ChatMessage>('/supportchat', toUserId ? { toUserId, ticketId, message, messageId } : { ticketId, message, messageId }, { showErrors: false }),
  markRead: (ticketId: number, seq: number) => api.post<UnreadState>('/supportchat/markread', { ticketId, seq }, { showErrors: false }),
  unreadCounts: (ticketIds: number[]) =>
    api.post<{ items: UnreadState[] }>('/supportchat/unreadcounts', { ticketIds: [...new Set(ticketIds)].slice(0, 100) }, { showErrors: false }),
};

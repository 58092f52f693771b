/** What a pushed event is about. */
export type RealtimeKind =
  'chat.message' | 'chat.read' | 'ticket.changed' | 'notification.created' | 'notification.count' | 'delivery.changed' | 'delivery.room';

/**
 * The wire protocol of `/api/hubs/notifications` (docs/decisions/0050). JSON text frames.
 * Plain types and constants, no XState: it lives beside the machines because the server hub
 * and the client's realtime-connection actor both import it.
 *
 * Client → server
 * - `{type:'auth', token, after?}` first, within 10 s: the access token (not in the URL, so it
 *   never lands in access logs); `after` is the cursor of the last event the client processed,
 *   and the server replays everything after it before going live. Sent again on an open socket
 *   after a token refresh (same user only) to keep it open past the old token's expiry.
 * - `{type:'ping'}` → `{type:'pong'}`.
 *
 * Server → client
 * - `{type:'ready', userId, cursor, expiresAt}` once authenticated; `cursor` is the newest event
 *   id at that moment (a fresh client stores it as its starting point).
 * - `{type:'event', cursor, kind, ticketId, data, at}`: cursors only increase; a client keeps
 *   the last one it processed and ignores any frame at or below it.
 * - `{type:'resync', cursor}`: more was missed than a replay carries; reload the views, then
 *   continue from `cursor`.
 * - `{type:'permissions.changed', permissions}`, `{type:'reauthenticated', expiresAt}`, `{type:'pong'}`.
 *
 * Close codes: see CloseCodes.
 */
export type ClientMessage = { type: 'auth'; token: string; after?: number | null } | { type: 'ping' };

export interface EventFrame {
  type: 'event';
  cursor: number;
  kind: RealtimeKind;
  ticketId: number | null;
  data: Record<string, unknown>;
  at: string;
}

/** The `data` of a `chat.message` event: a chat message as POST /api/supportchat answers it. */
export interface ChatMessageData {
  messageId: string;
  ticketId: number;
  seq: number;
  fromUserId: string;
  fromUserName: string;
  toUserId: string | null;
  message: string;
  createdOn: string;
}

/** The `data` of a `chat.read` event: the caller's read marker on one ticket moved. */
export interface ChatReadData {
  ticketId: number;
  lastSeq: number;
  lastReadSeq: number;
  unreadCount: number;
}

/** The `data` of a `ticket.changed` event (server/lib/domain-events.ts TicketChanged). */
export interface TicketChangedData {
  tenantId: string;
  ticketId: number;
  change: string;
  statusId: number;
  previousStatusId: number | null;
  requesterId: string;
  supportGroupId: number;
  previousSupportGroupId: number | null;
  assigneeId: string | null;
  previousAssigneeId: string | null;
  actorId: string | null;
  at: string;
}

/**
 * What a user can be notified of (issue 21, docs/decisions/0260). `results.published` and
 * `reevaluation.outcome` are raised by the results module through `notify()`.
 */
export const notificationKinds = [
  'ticket.reply',
  'ticket.assigned',
  'ticket.status',
  'ticket.resolved',
  'registration.approved',
  'registration.rejected',
  'admitcard.issued',
  'results.published',
  'reevaluation.outcome',
  'bulkjob.finished',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** One notification as the list and the hub give it. `titleKey` is a key of the `notifications` namespace. */
export interface NotificationDto {
  id: number;
  kind: NotificationKind;
  titleKey: string;
  params: Record<string, string | number>;
  link: string | null;
  createdOn: string;
  readOn: string | null;
  archivedOn: string | null;
}

/** The `data` of a `notification.created` event (to the notified user only). */
export interface NotificationCreatedData {
  notification: NotificationDto;
  unreadCount: number;
}

/** The `data` of a `notification.count` event: read, read all, archived or restored elsewhere. */
export interface NotificationCountData {
  unreadCount: number;
}

/**
 * The `data` of a `delivery.changed` event, to the candidate only: an invigilator admitted,
 * paused, resumed, extended or terminated their delivery; the screen reads it again at once
 * (issue 19, docs/decisions/0245).
 */
export interface DeliveryChangedData {
  deliveryId: number;
  event: string;
  status: string;
}

/**
 * The `data` of a `delivery.room` event, to the invigilators of the exam (docs/decisions/0248):
 * a delivery of this season paper at this center started, saved, beat, raised an alert, was
 * acted on or ended. Pushes are coalesced per room, so the console reads the room again.
 */
export interface DeliveryRoomData {
  seasonPaperId: number;
  centerId: number | null;
  deliveryId: number;
  cause: string;
}

export type ServerFrame =
  | EventFrame
  | { type: 'ready'; userId: string; cursor: number; expiresAt: string }
  | { type: 'resync'; cursor: number }
  | { type: 'permissions.changed'; permissions: string[] }
  | { type: 'reauthenticated'; expiresAt: string }
  | { type: 'pong' };

export const CloseCodes = {
  /** Server restart or shutdown: reconnect (to any instance) and resume. */
  goingAway: 1001,
  internalError: 1011,
  /** A frame the protocol does not know: a client bug, do not retry blindly. */
  badMessage: 4400,
  /** No, a bad or an expired token: refresh the token, reconnect, resume. */
  unauthenticated: 4401,
  /** The session was revoked (logout, password change, deactivation): sign in again. */
  sessionEnded: 4403,
  /** The socket fell too far behind: reconnect and resume from the cursor. */
  tooSlow: 4408,
} as const;

export const protocolDescription = [
  'Real-time pushes (WebSocket; JSON text frames). Authenticate with the first frame',
  '`{"type":"auth","token":"<access token>","after":<cursor?>}` within 10 s — the token is never put in the URL.',
  'The server answers `{"type":"ready","userId","cursor","expiresAt"}`, replays every event after `after` (if given) and then pushes live:',
  '`{"type":"event","cursor","kind","ticketId","data","at"}` with kind `chat.message` (data: a chat message as POST /api/supportchat answers it),',
  '`ticket.changed` (data: ticketId, change, statusId, previousStatusId, supportGroupId, assigneeId, actorId, at …), `chat.read` (your own read marker moved),',
  '`notification.created` (data: notification, unreadCount — a notification for you) or `notification.count` (data: unreadCount — your unread count changed),',
  'or `delivery.changed` (data: deliveryId, event, status — an invigilator acted on your delivery),',
  'or `delivery.room` (data: seasonPaperId, centerId, deliveryId, cause — to the invigilators of the exam: a delivery of that room changed).',
  'Cursors only increase: keep the last one processed, ignore frames at or below it, and send it as `after` when reconnecting — nothing is lost or doubled.',
  '`{"type":"resync","cursor"}` means more was missed than a replay carries: reload the open views and continue from `cursor`.',
  '`{"type":"permissions.changed","permissions"}` when your roles, permissions or support groups change.',
  'After a token refresh send `{"type":"auth","token":"<new token>"}` on the open socket; without it the socket closes when the token expires (4401).',
  'Close codes: 1001 server going away (reconnect and resume), 4400 unknown frame, 4401 no/invalid/expired token (refresh, reconnect, resume),',
  "4403 session ended (sign in again), 4408 too slow (reconnect and resume). Only events about tickets you may see (requester, agents of the ticket's",
  'group, support admins) reach you. `GET /api/hubs/notifications/missed?after=` returns the same events over HTTP.',
].join(' ');

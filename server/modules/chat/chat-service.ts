import { notifyTicketReply } from '#server/modules/notifications/ticket-notifications.ts';
import { createHash, randomUUID } from 'node:crypto';
import { ticketStatuses, statusName } from '#machines/ticket-lifecycle.machine.ts';
import type { Db } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { conflict, ValidationFailure } from '#server/lib/errors.ts';
import type { Principal } from '#server/plugins/access.ts';
import { appendEvent } from '#server/modules/realtime/realtime-repository.ts';
import { loadInReach } from '#server/modules/tickets/tickets-service.ts';
import * as repo from './chat-repository.ts';

export interface ChatDeps {
  db: Db;
  clock: Clock;
}

const READ_ONLY_STATUSES: number[] = [ticketStatuses.Closed, ticketStatuses.Cancelled];

export const isReadOnly = (statusId: number) => READ_ONLY_STATUSES.includes(statusId);

export function toChatMessage(m: repo.ChatMessageRow) {
  return {
    messageId: m.id,
    ticketId: m.ticket_id,
    seq: m.seq,
    fromUserId: m.from_user_id,
    fromUserName: m.from_user_name,
    toUserId: m.to_user_id,
    message: m.message,
    createdOn: new Date(m.created_at).toISOString(),
  };
}
export type ChatMessageDto = ReturnType<typeof toChatMessage>;

export interface SendInput {
  ticketId: number;
  message: string;
  toUserId?: string | null;
  messageId?: string | null;
}

class IdTaken extends Error {}

/** The stored message answers a retry only if it is the same send: same sender, ticket and text. */
function replayOf(existing: repo.ChatMessageRow, p: Principal, input: SendInput, text: string): ChatMessageDto {
  const same = existing.tenant_id === p.tenantId && existing.from_user_id === p.userId && existing.ticket_id === input.ticketId && existing.message === text;
  if (!same) throw conflict(`Message id ${input.messageId} is already used by another message; generate a new id for a new message.`);
  return toChatMessage(existing);
}

/**
 * The id a message is stored under when the client's messageId is already another sender's.
 * Answering 409 there would confirm that someone else's message has that id (issue 23 rule 3),
 * so the send goes on as for an unknown id, under an id derived from the sender and the
 * client's id: a retry of the same send finds it again, and the answer carries the client's id.
 */
function senderAlias(p: Principal, messageId: string): string {
  const hex = createHash('sha256').update(`chat-message-id\u0000${p.tenantId}\u0000${p.userId}\u0000${messageId.toLowerCase()}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const isOtherSenders = (row: repo.ChatMessageRow, p: Principal) => row.tenant_id !== p.tenantId || row.from_user_id !== p.userId;

/**
 * Stores one chat message and its push in one transaction; the answer (the acknowledgement)
 * is sent only after the commit. A retry with the same messageId finds the stored row and
 * gets the same answer; the first of two concurrent retries wins, the other reads its row.
 */
export async function sendMessage(deps: ChatDeps, p: Principal, input: SendInput): Promise<{ message: ChatMessageDto; replayed: boolean }> {
  const text = input.message.trim();
  if (!text) throw ValidationFailure.field('message', 'The message field is required.');
  let id = input.messageId ?? randomUUID();
  if (input.messageId) {
    let existing = await repo.findMessage(deps.db, id);
    if (existing && isOtherSenders(existing, p)) {
      id = senderAlias(p, input.messageId);
      existing = await repo.findMessage(deps.db, id);
    }
    if (existing) return { message: asSent(replayOf(existing, p, input, text), input), replayed: true };
  }
  const result = await store(deps, p, input, text, id).catch(async (error: unknown) => {
    // Another sender took this id between the look-up and the insert: go on under the alias.
    if (!(error instanceof IdTakenByOther) || !input.messageId) throw error;
    return store(deps, p, input, text, senderAlias(p, input.messageId));
  });
  return { message: asSent(result.message, input), replayed: result.replayed };
}

class IdTakenByOther extends Error {}

/** The answer names the id the client sent, also when the row is stored under the sender's alias. */
const asSent = (message: ChatMessageDto, input: SendInput): ChatMessageDto =>
  input.messageId ? { ...message, messageId: input.messageId.toLowerCase() } : message;

async function store(deps: ChatDeps, p: Principal, input: SendInput, text: string, id: string): Promise<{ message: ChatMessageDto; replayed: boolean }> {
  try {
    const message = await deps.db.transaction(async (tx) => {
      const ticket = await loadInReach(tx, p, input.ticketId, 'any');
      if (isReadOnly(ticket.status_id)) {
        throw conflict(`Ticket ${ticket.id} is ${statusName(ticket.status_id)}; its chat is read-only.`, {
          ticketId: ticket.id,
          currentStatus: statusName(ticket.status_id),
          currentStatusId: ticket.status_id,
        });
      }
      let toUserId = input.toUserId ?? null;
      if (toUserId) {
        if (!(await repo.isInAudience(tx, ticket.id, toUserId))) {
          throw ValidationFailure.field('toUserId', `User ${toUserId} cannot read the chat of ticket ${ticket.id}.`);
        }
      } else {
        toUserId = p.userId === ticket.requester_id ? ticket.assignee_id : ticket.requester_id;
      }
      const now = deps.clock.now();
      const seq = await repo.nextSeq(tx, ticket.id);
      const row = await repo.insertMessage(tx, {
        id,
        tenantId: p.tenantId,
        ticketId: ticket.id,
        seq,
        fromUserId: p.userId,
        toUserId,
        message: text,
        now,
        fromUserName: `${p.firstName} ${p.lastName}`.trim(),
      });
      // Rolling back also returns the sequence number, so a ticket's numbers have no holes.
      if (!row) throw new IdTaken();
      await repo.markRead(tx, ticket.id, p.userId, seq, now);
      const dto = toChatMessage(row);
      await appendEvent(tx, { tenantId: p.tenantId, kind: 'chat.message', ticketId: ticket.id, payload: dto });
      // The other side hears of the reply in their notification center (issue 21).
      await notifyTicketReply(tx, ticket, { userId: p.userId, name: row.from_user_name });
      return dto;
    });
    return { message, replayed: false };
  } catch (error) {
    if (!(error instanceof IdTaken) && !isUniqueViolation(error)) throw error;
    const existing = await repo.findMessage(deps.db, id);
    if (!existing) throw error;
    if (isOtherSenders(existing, p) && id === input.messageId) throw new IdTakenByOther();
    return { message: replayOf(existing, p, input, text), replayed: true };
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/** Moves the caller's read marker forward (never back) and tells the caller's other screens. */
export async function markRead(deps: ChatDeps, p: Principal, ticketId: number, seq: number | null | undefined) {
  const ticket = await loadInReach(deps.db, p, ticketId, 'any');
  return deps.db.transaction(async (tx) => {
    const [state] = await repo.unreadStates(tx, p.tenantId, p.userId, [ticket.id]);
    const upTo = Math.min(seq ?? state.last_seq, state.last_seq);
    await repo.markRead(tx, ticket.id, p.userId, upTo, deps.clock.now());
    const [after] = await repo.unreadStates(tx, p.tenantId, p.userId, [ticket.id]);
    const answer = { ticketId: ticket.id, lastSeq: after.last_seq, lastReadSeq: after.last_read_seq, unreadCount: after.unread_count };
    if (after.last_read_seq !== state.last_read_seq) {
      await appendEvent(tx, { tenantId: p.tenantId, kind: 'chat.read', userId: p.userId, payload: answer });
    }
    return answer;
  });
}

import { randomUUID } from 'node:crypto';
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
 * Stores one chat message and its push in one transaction; the answer (the acknowledgement)
 * is sent only after the commit. A retry with the same messageId finds the stored row and
 * gets the same answer; the first of two concurrent retries wins, the other reads its row.
 */
export async function sendMessage(deps: ChatDeps, p: Principal, input: SendInput): Promise<{ message: ChatMessageDto; replayed: boolean }> {
  const text = input.message.trim();
  if (!text) throw ValidationFailure.field('message', 'The message field is required.');
  const id = input.messageId ?? randomUUID();
  if (input.messageId) {
    const existing = await repo.findMessage(deps.db, id);
    if (existing) return { message: replayOf(existing, p, input, text), replayed: true };
  }
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
      const row = await repo.insertMessage(tx, { id, tenantId: p.tenantId, ticketId: ticket.id, seq, fromUserId: p.userId, toUserId, message: text, now, fromUserName: `${p.firstName} ${p.lastName}`.trim() });
      // Rolling back also returns the sequence number, so a ticket's numbers have no holes.
      if (!row) throw new IdTaken();
      await repo.markRead(tx, ticket.id, p.userId, seq, now);
      const dto = toChatMessage(row);
      await appendEvent(tx, { tenantId: p.tenantId, kind: 'chat.message', ticketId: ticket.id, payload: dto });
      return dto;
    });
    return { message, replayed: false };
  } catch (error) {
    if (!(error instanceof IdTaken) && !isUniqueViolation(error)) throw error;
    const existing = await repo.findMessage(deps.db, id);
    if (!existing) throw error;
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

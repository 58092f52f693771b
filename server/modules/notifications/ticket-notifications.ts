import { statusName } from '#machines/ticket-lifecycle.machine.ts';
import type { NotificationKind } from '#machines/realtime-protocol.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import type { DomainEventBus, TicketChanged } from '#server/lib/domain-events.ts';
import type { FastifyBaseLogger } from 'fastify';
import { notify } from './notify.ts';

/** Where a person opens a ticket: the requester in "My tickets", everyone else on the desk. */
export const ticketLink = (ticketId: number, forRequester: boolean) => (forRequester ? `/tickets/${ticketId}` : `/support/tickets/${ticketId}`);

/**
 * A chat reply on a ticket (docs/decisions/0260): the requester's reply goes to the assignee
 * (nobody while unassigned: the group's queue shows it), anyone else's to the requester. Called
 * inside the transaction that stores the message, so a rolled-back message tells nobody.
 */
export async function notifyTicketReply(
  tx: Queryable,
  ticket: { id: number; title: string; requester_id: string; assignee_id: string | null },
  from: { userId: string; name: string },
) {
  const fromRequester = from.userId === ticket.requester_id;
  const to = fromRequester ? ticket.assignee_id : ticket.requester_id;
  if (!to || to === from.userId) return null;
  return notify(tx, to, 'ticket.reply', {
    params: { ticketId: ticket.id, title: ticket.title, from: from.name },
    link: ticketLink(ticket.id, !fromRequester),
  });
}

/** Who hears of a ticket change, and as what: never the person who made it. */
export function ticketChangeNotices(change: TicketChanged): Array<{ userId: string; kind: NotificationKind }> {
  const notices: Array<{ userId: string; kind: NotificationKind }> = [];
  const add = (userId: string | null, kind: NotificationKind) => {
    if (userId && userId !== change.actorId && !notices.some((n) => n.userId === userId)) notices.push({ userId, kind });
  };
  if (change.change === 'ticket.created' || change.change === 'ticket.edited' || change.change.startsWith('document.')) return [];
  if (change.assigneeId && change.assigneeId !== change.previousAssigneeId) add(change.assigneeId, 'ticket.assigned');
  const statusChanged = change.previousStatusId !== null && change.previousStatusId !== change.statusId;
  if (change.change === 'ticket.resolve' || change.change === 'ticket.acceptBotAnswer') add(change.requesterId, 'ticket.resolved');
  else if (statusChanged) add(change.requesterId, 'ticket.status');
  return notices;
}

async function notifyTicketChange(db: Db, change: TicketChanged) {
  const notices = ticketChangeNotices(change);
  if (!notices.length) return;
  const { rows } = await db.query<{ title: string }>('select title from support_tickets where id = $1', [change.ticketId]);
  const title = rows[0]?.title ?? '';
  for (const { userId, kind } of notices) {
    await notify(db, userId, kind, {
      params: { ticketId: change.ticketId, title, status: statusName(change.statusId) ?? String(change.statusId) },
      link: ticketLink(change.ticketId, userId === change.requesterId),
    });
  }
}

/** Follows the tickets' domain events (after commit) for the assignment, status and resolution notifications. */
export function startTicketNotifications(deps: { db: Db; events: DomainEventBus; log: FastifyBaseLogger }): () => void {
  const pending = new Set<Promise<void>>();
  const listener = (change: TicketChanged) => {
    const run = notifyTicketChange(deps.db, change)
      .catch((error) => deps.log.error({ err: error, ticketId: change.ticketId }, 'notifications: ticket change not notified'))
      .finally(() => pending.delete(run));
    pending.add(run);
  };
  deps.events.on('ticket.changed', listener);
  return () => deps.events.off('ticket.changed', listener);
}

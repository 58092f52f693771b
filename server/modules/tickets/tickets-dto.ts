import { statusName } from '#machines/ticket-lifecycle.machine.ts';
import type { Queryable } from '#server/db/client.ts';
import type { Principal } from '#server/plugins/access.ts';
import * as repo from './tickets-repository.ts';
import { openableTickets, partiesFor, seesAsStaff } from './tickets-service.ts';

export function toSummary(t: repo.TicketListRow) {
  return {
    ticketId: t.id,
    title: t.title,
    description: t.description,
    statusId: t.status_id,
    status: statusName(t.status_id)!,
    supportTicketPriorityId: t.priority_id,
    supportGroupId: t.support_group_id,
    supportGroupName: t.support_group_name,
    loginUserId: t.requester_id,
    requesterName: t.requester_name,
    requesterEmail: t.requester_email,
    createdBy: t.created_by,
    assigneeId: t.assignee_id,
    assigneeName: t.assignee_name,
    parentSupportTicketId: t.parent_ticket_id,
    createdOn: t.created_at.toISOString(),
    lastModifiedOn: t.updated_at.toISOString(),
  };
}

export function toDocument(d: repo.DocumentRow) {
  return {
    documentId: d.id,
    supportTicketDocumentId: d.id,
    ticketId: d.ticket_id,
    fileName: d.file_name,
    contentType: d.content_type,
    sizeBytes: d.size_bytes,
    uploadedBy: d.uploaded_by,
    uploadedByName: d.uploaded_by_name,
    uploadedOn: d.created_at.toISOString(),
  };
}

/** The full ticket as the caller sees it, with how they relate to it. */
export async function toDetail(db: Queryable, p: Principal, ticketId: number) {
  const t = await repo.findTicket(db, p.tenantId, ticketId);
  if (!t) throw new Error(`ticket ${ticketId} vanished`);
  const [documents, bot, allChildren, viewer, staff] = await Promise.all([
    repo.listDocuments(db, t.id),
    repo.botAnswerFor(db, t.id),
    repo.childrenOf(db, t.id),
    partiesFor(db, p, t),
    seesAsStaff(db, p, t),
  ]);
  // A child ticket is listed only to those who may open it (issue 23).
  const openable = await openableTickets(
    db,
    p,
    allChildren.map((c) => c.id),
  );
  const children = allChildren.filter((c) => openable.has(c.id));
  return {
    ...toSummary(t),
    answer: t.answer,
    resolvedOn: t.resolved_at?.toISOString() ?? null,
    closedOn: t.closed_at?.toISOString() ?? null,
    version: t.version,
    supportTicketBotId: bot?.id ?? null,
    botSuggestion: bot
      ? {
          supportTicketBotId: bot.id,
          answer: bot.answer,
          sourceTicketId: staff ? bot.source_ticket_id : null,
          score: bot.score,
          accepted: bot.accepted_at !== null,
        }
      : null,
    documents: documents.map(toDocument),
    children: children.map((c) => ({
      ticketId: c.id,
      title: c.title,
      statusId: c.status_id,
      status: statusName(c.status_id)!,
      supportGroupId: c.support_group_id,
      supportGroupName: c.support_group_name,
    })),
    viewer: {
      requester: viewer.requester === true,
      agent: viewer.agent === true,
      assignee: viewer.assignee === true,
      supportAdmin: viewer.supportAdmin === true,
    },
  };
}

export function toHistory(h: repo.HistoryRow) {
  return {
    id: h.id,
    event: h.event,
    fromStatusId: h.from_status,
    fromStatus: h.from_status ? statusName(h.from_status)! : null,
    toStatusId: h.to_status,
    toStatus: h.to_status ? statusName(h.to_status)! : null,
    actorId: h.actor_id,
    actorName: h.actor_name,
    actorKind: h.actor_kind,
    reason: h.reason,
    details: h.details,
    createdOn: h.created_at.toISOString(),
  };
}

type HistoryDto = ReturnType<typeof toHistory>;

/**
 * What the requester may not read in a ticket's history (issue 23): the escalation instruction
 * (written for the other group), which agents a ticket moved between, and other tickets' ids.
 * The entries themselves stay, so the requester still sees every status change.
 */
const STAFF_ONLY_REASONS = new Set(['ticket.escalate']);
const STAFF_ONLY_DETAILS = ['childTicketId', 'sourceTicketId', 'fromAssigneeId', 'toSupportUserId', 'supportTicketBotId', 'escalatedFrom'];
const TICKET_LINKS = ['childTicketId', 'escalatedFrom'];

/**
 * The history as this caller may read it: desk staff in reach see it all except links to
 * tickets they cannot open; everyone else (the requester) gets it without staff-only content.
 */
export async function historyFor(db: Queryable, p: Principal, t: repo.TicketRow, history: HistoryDto[]): Promise<HistoryDto[]> {
  if (await seesAsStaff(db, p, t)) {
    const linked = history.flatMap((h) => TICKET_LINKS.map((key) => h.details[key]).filter((v): v is number => typeof v === 'number'));
    const openable = await openableTickets(db, p, [...new Set(linked)]);
    return history.map((h) => {
      const hidden = TICKET_LINKS.filter((key) => typeof h.details[key] === 'number' && !openable.has(h.details[key] as number));
      return hidden.length ? { ...h, details: Object.fromEntries(Object.entries(h.details).filter(([key]) => !hidden.includes(key))) } : h;
    });
  }
  return history.map((h) => ({
    ...h,
    reason: STAFF_ONLY_REASONS.has(h.event) ? null : h.reason,
    details: Object.fromEntries(Object.entries(h.details).filter(([key]) => !STAFF_ONLY_DETAILS.includes(key))),
  }));
}

import { P } from '#machines/permissions.ts';
import {
  decide,
  statusName,
  ticketStatuses,
  type TicketActor,
  type TicketEvent,
  type TicketEventFields,
  type TicketStatus,
} from '#machines/ticket-lifecycle.machine.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { DomainEventBus, TicketChanged } from '#server/lib/domain-events.ts';
import { AppError, badRequest, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import type { Principal } from '#server/plugins/access.ts';
import { findBotMatch, storeBotSuggestion } from './answer-bot.ts';
import * as repo from './tickets-repository.ts';
import type { TicketListRow, TicketReach, TicketRow } from './tickets-repository.ts';

export interface TicketsDeps {
  db: Db;
  clock: Clock;
  events: DomainEventBus;
}

/** Which view a route serves: the requester's own (`/v1/supportticket…`) or the desk's (`…byadmin`, `supportticketadmin/…`). */
export type TicketView = 'requester' | 'staff' | 'any';

const DONE_STATUSES: number[] = [ticketStatuses.Resolved, ticketStatuses.Closed, ticketStatuses.Cancelled];

const isSupportAdmin = (p: Principal) => p.permissions.has(P.SupportTickets.Administer);
const isAgent = (p: Principal) => p.permissions.has(P.SupportTickets.Work);

/** The desk reach of a principal: every ticket of the tenant, the queues of their groups, or none. */
export function staffReach(p: Principal): TicketReach | undefined {
  if (isSupportAdmin(p)) return { kind: 'tenant', tenantId: p.tenantId };
  if (isAgent(p)) return { kind: 'groups', tenantId: p.tenantId, userId: p.userId };
  return undefined;
}

/** Whether the caller sees this ticket as desk staff: a support admin, or an agent of its group or its assignee. */
export const seesAsStaff = (db: Queryable, p: Principal, t: TicketRow) => isInStaffReach(db, p, t);

/** The ids among these tickets that the caller may open (the others would answer 404). */
export async function openableTickets(db: Queryable, p: Principal, ids: readonly number[]): Promise<Set<number>> {
  const open = new Set<number>();
  for (const id of ids) {
    const reachable = await loadInReach(db, p, id, 'any').then(
      () => true,
      () => false,
    );
    if (reachable) open.add(id);
  }
  return open;
}

async function isInStaffReach(db: Queryable, p: Principal, t: TicketRow): Promise<boolean> {
  if (isSupportAdmin(p)) return true;
  if (!isAgent(p)) return false;
  return t.assignee_id === p.userId || (await repo.isGroupMember(db, t.support_group_id, p.userId));
}

const isOwn = (p: Principal, t: TicketRow) => t.requester_id === p.userId || t.created_by === p.userId;

/** How the caller relates to the ticket, for the lifecycle machine's rules. */
export async function partiesFor(db: Queryable, p: Principal, t: TicketRow): Promise<TicketActor> {
  const member = isAgent(p) ? await repo.isGroupMember(db, t.support_group_id, p.userId) : false;
  return {
    requester: t.requester_id === p.userId,
    agent: isAgent(p) && member,
    assignee: isAgent(p) && t.assignee_id === p.userId,
    supportAdmin: isSupportAdmin(p),
  };
}

/** The ticket if the caller may see it through this view; otherwise 404 (never reveal it exists). */
export async function loadInReach(db: Queryable, p: Principal, ticketId: number, view: TicketView): Promise<TicketListRow> {
  const t = await repo.findTicket(db, p.tenantId, ticketId);
  if (!t) throw ticketNotFound(ticketId);
  const own = isOwn(p, t);
  const staff = view !== 'requester' && (await isInStaffReach(db, p, t));
  const visible = view === 'requester' ? own : view === 'staff' ? staff : own || staff;
  if (!visible) throw ticketNotFound(ticketId);
  return t;
}

export const ticketNotFound = (id: number) => notFound(`Ticket ${id} was not found.`);

export function changeOf(before: TicketRow | null, after: TicketRow, change: string, actorId: string | null, at: Date): TicketChanged {
  return {
    tenantId: after.tenant_id,
    ticketId: after.id,
    change,
    statusId: after.status_id,
    previousStatusId: before?.status_id ?? null,
    requesterId: after.requester_id,
    supportGroupId: after.support_group_id,
    previousSupportGroupId: before?.support_group_id ?? null,
    assigneeId: after.assignee_id,
    previousAssigneeId: before?.assignee_id ?? null,
    actorId,
    at: at.toISOString(),
  };
}

/** Collects the changes of one transaction; they are announced only after it commits. */
class Outbox {
  readonly changes: TicketChanged[] = [];
  add(change: TicketChanged) {
    this.changes.push(change);
  }
  flush(events: DomainEventBus) {
    for (const change of this.changes) events.emit('ticket.changed', change);
  }
}

async function activeGroup(db: Queryable, tenantId: string, groupId: number): Promise<{ id: number; name: string }> {
  const { rows } = await db.query<{ id: number; name: string }>(`select id, name from support_groups where id = $1 and tenant_id = $2 and is_active`, [
    groupId,
    tenantId,
  ]);
  if (!rows[0]) throw ValidationFailure.field('supportGroupId', `Support group ${groupId} does not exist or is inactive.`);
  return rows[0];
}

async function assertTenantUser(db: Queryable, tenantId: string, userId: string, field: string) {
  const { rows } = await db.query(`select 1 from users where id = $1 and tenant_id = $2 and is_active`, [userId, tenantId]);
  if (!rows.length) throw ValidationFailure.field(field, `User ${userId} does not exist or is inactive.`);
}

export interface CreateTicketInput {
  title: string;
  description: string;
  loginUserId?: string | null;
  supportTicketPriorityId: number;
  supportGroupId: number;
}

/** Raises a ticket; staff may raise one for someone else (tickets for others). */
export async function createTicket(deps: TicketsDeps, p: Principal, input: CreateTicketInput): Promise<TicketRow> {
  const now = deps.clock.now();
  const outbox = new Outbox();
  const ticket = await deps.db.transaction(async (tx) => {
    const requesterId = input.loginUserId || p.userId;
    if (requesterId !== p.userId) {
      if (!isAgent(p) && !isSupportAdmin(p)) throw forbidden('Only support staff may raise a ticket for someone else.');
      await assertTenantUser(tx, p.tenantId, requesterId, 'loginUserId');
    }
    await activeGroup(tx, p.tenantId, input.supportGroupId);
    const created = await repo.insertTicket(tx, {
      tenantId: p.tenantId,
      title: input.title.trim(),
      description: input.description.trim(),
      requesterId,
      createdBy: p.userId,
      priorityId: input.supportTicketPriorityId,
      supportGroupId: input.supportGroupId,
      parentTicketId: null,
      now,
    });
    await repo.insertHistory(tx, {
      ticketId: created.id,
      event: 'ticket.created',
      fromStatus: null,
      toStatus: created.status_id,
      actorId: p.userId,
      actorKind: 'user',
      details: requesterId === p.userId ? {} : { raisedFor: requesterId },
      at: now,
    });
    await suggestAnswer(tx, created, now);
    outbox.add(changeOf(null, created, 'ticket.created', p.userId, now));
    return created;
  });
  outbox.flush(deps.events);
  return ticket;
}

async function suggestAnswer(tx: Queryable, ticket: TicketRow, now: Date) {
  const match = await findBotMatch(tx, ticket.tenant_id, ticket.id, `${ticket.title} ${ticket.description}`);
  if (!match) return;
  const id = await storeBotSuggestion(tx, ticket.id, match, now);
  await repo.insertHistory(tx, {
    ticketId: ticket.id,
    event: 'bot.suggested',
    fromStatus: null,
    toStatus: null,
    actorId: null,
    actorKind: 'system',
    details: { supportTicketBotId: id, sourceTicketId: match.sourceTicketId, score: match.score },
    at: now,
  });
}

type LifecycleEventType = Exclude<TicketEvent['type'], 'ticket.edit'>;

export interface TransitionRequest extends TicketEventFields {
  type: LifecycleEventType;
  /** On resolve: the agent offers the answer to the answer bot for similar tickets. */
  reusableAnswer?: boolean;
}

const verbs: Record<LifecycleEventType, string> = {
  'ticket.claim': 'claimed',
  'ticket.release': 'released',
  'ticket.hold': 'put on hold',
  'ticket.resume': 'resumed',
  'ticket.reassign': 'reassigned',
  'ticket.escalate': 'escalated',
  'ticket.childrenDone': 'returned from escalation',
  'ticket.resolve': 'resolved',
  'ticket.acceptBotAnswer': 'resolved with the suggested answer',
  'ticket.close': 'closed',
  'ticket.reopen': 'reopened',
  'ticket.cancel': 'cancelled',
};

function refusal(decision: Exclude<ReturnType<typeof decide>, { accepted: true }>, request: { type: TicketEvent['type'] }, ticketId: number): Error {
  const current = decision.from;
  const extra = { currentStatus: current, currentStatusId: ticketStatuses[current], ticketId };
  const verb = request.type === 'ticket.edit' ? 'edited' : verbs[request.type];
  switch (decision.reason) {
    case 'status':
      return conflict(`Ticket ${ticketId} is ${current}; it cannot be ${verb}.`, extra);
    case 'window':
      return conflict(`Ticket ${ticketId} was closed more than 30 days ago; it cannot be reopened.`, extra);
    case 'role':
      return new AppError(403, `You may not do this: ticket ${ticketId} cannot be ${verb} by you.`, { extra });
    case 'fields':
      // The fields are named as in the request bodies. (An escalation's target group, which its
      // body calls supportGroupId, is never missing here: the body's schema requires it.)
      return new ValidationFailure(Object.fromEntries((decision.missing ?? []).map((field) => [field, [`The ${field} field is required.`]])));
  }
}

export interface TransitionResult {
  ticket: TicketRow;
  from: TicketStatus;
  to: TicketStatus;
  childTicketId?: number;
}

/**
 * Applies one lifecycle event for the caller: the machine, restored at the stored status,
 * decides; the change is a conditional update on (id, status, version) in one transaction with
 * its history row; 409 when someone changed the ticket first.
 */
export async function applyTransition(
  deps: TicketsDeps,
  p: Principal | 'system',
  ticketId: number,
  request: TransitionRequest,
  options: { view?: TicketView; tenantId?: string } = {},
): Promise<TransitionResult> {
  const outbox = new Outbox();
  const result = await deps.db.transaction((tx) => transitionInTx(tx, deps, p, ticketId, request, outbox, options));
  outbox.flush(deps.events);
  return result;
}

async function transitionInTx(
  tx: Queryable,
  deps: TicketsDeps,
  p: Principal | 'system',
  ticketId: number,
  request: TransitionRequest,
  outbox: Outbox,
  options: { view?: TicketView; tenantId?: string },
): Promise<TransitionResult> {
  const now = deps.clock.now();
  const system = p === 'system';
  const ticket = system ? await repo.findTicket(tx, options.tenantId!, ticketId) : await loadInReach(tx, p, ticketId, options.view ?? 'any');
  if (!ticket) throw ticketNotFound(ticketId);
  const from = statusName(ticket.status_id)!;
  const by: TicketActor = system ? { system: true } : await partiesFor(tx, p, ticket);
  const event = { ...request, by, at: now.toISOString() } as TicketEvent;
  const decision = decide(from, event, { closedAt: ticket.closed_at?.toISOString() ?? null });
  if (!decision.accepted) throw refusal(decision, request, ticketId);
  const to = decision.to;
  const actorId = system ? null : p.userId;

  const changes: repo.TicketChanges = { status_id: ticketStatuses[to] };
  let reason: string | null = null;
  const details: Record<string, unknown> = {};
  let childTicketId: number | undefined;

  switch (request.type) {
    case 'ticket.claim':
      changes.assignee_id = actorId;
      break;
    case 'ticket.release':
      changes.assignee_id = null;
      break;
    case 'ticket.hold':
      reason = request.onHoldReason!.trim();
      break;
    case 'ticket.reassign': {
      if (request.toSupportGroupId) {
        const group = await activeGroup(tx, ticket.tenant_id, request.toSupportGroupId);
        changes.support_group_id = group.id;
        details.toSupportGroupId = group.id;
        details.toSupportGroupName = group.name;
      }
      const groupId = changes.support_group_id ?? ticket.support_group_id;
      if (request.toSupportUserId) {
        await assertAgentOfGroup(tx, ticket.tenant_id, groupId, request.toSupportUserId);
        changes.assignee_id = request.toSupportUserId;
        details.toSupportUserId = request.toSupportUserId;
      } else {
        changes.assignee_id = null;
      }
      details.fromSupportGroupId = ticket.support_group_id;
      details.fromAssigneeId = ticket.assignee_id;
      break;
    }
    case 'ticket.escalate': {
      const group = await activeGroup(tx, ticket.tenant_id, request.targetSupportGroupId!);
      if (group.id === ticket.support_group_id) {
        throw ValidationFailure.field('supportGroupId', 'Escalate to a different support group than the ticket is in.');
      }
      const child = await repo.insertTicket(tx, {
        tenantId: ticket.tenant_id,
        title: ticket.title,
        description: request.description!.trim(),
        requesterId: actorId ?? ticket.requester_id,
        createdBy: actorId ?? ticket.requester_id,
        priorityId: ticket.priority_id,
        supportGroupId: group.id,
        parentTicketId: ticket.id,
        now,
      });
      childTicketId = child.id;
      details.childTicketId = child.id;
      details.toSupportGroupId = group.id;
      details.toSupportGroupName = group.name;
      reason = request.description!.trim();
      await repo.insertHistory(tx, {
        ticketId: child.id,
        event: 'ticket.created',
        fromStatus: null,
        toStatus: child.status_id,
        actorId,
        actorKind: system ? 'system' : 'user',
        details: { escalatedFrom: ticket.id },
        at: now,
      });
      outbox.add(changeOf(null, child, 'ticket.created', actorId, now));
      break;
    }
    case 'ticket.resolve':
      changes.answer = request.answer!.trim();
      changes.answer_reusable = request.reusableAnswer === true;
      changes.resolved_at = now;
      reason = changes.answer;
      break;
    case 'ticket.acceptBotAnswer': {
      const bot = await repo.findBotAnswer(tx, ticket.tenant_id, request.supportTicketBotId!);
      if (!bot || bot.ticket_id !== ticket.id) throw notFound(`Suggested answer ${request.supportTicketBotId} was not found for ticket ${ticket.id}.`);
      if (bot.accepted_at) throw conflict('This suggested answer was already accepted.');
      await tx.query(`update support_ticket_bot_answers set accepted_at = $2, accepted_by = $3 where id = $1`, [bot.id, now, actorId]);
      changes.answer = bot.answer;
      changes.answer_reusable = false;
      changes.resolved_at = now;
      if (!ticket.assignee_id) changes.assignee_id = actorId;
      reason = bot.answer;
      details.supportTicketBotId = bot.id;
      details.sourceTicketId = bot.source_ticket_id;
      break;
    }
    case 'ticket.close':
      changes.closed_at = now;
      break;
    case 'ticket.reopen':
      reason = request.reopenReason!.trim();
      changes.assignee_id = null;
      changes.answer = null;
      changes.answer_reusable = false;
      changes.resolved_at = null;
      changes.closed_at = null;
      break;
    case 'ticket.cancel':
      reason = request.cancelReason!.trim();
      break;
    case 'ticket.resume':
    case 'ticket.childrenDone':
      break;
  }

  const updated = await repo.updateTicketIf(tx, ticket.id, { statusId: ticket.status_id, version: ticket.version }, changes, now);
  if (!updated) {
    const current = await repo.findTicket(tx, ticket.tenant_id, ticket.id);
    const status = statusName(current?.status_id ?? ticket.status_id)!;
    throw conflict(`Ticket ${ticket.id} was changed by someone else; it is now ${status}.`, {
      currentStatus: status,
      currentStatusId: ticketStatuses[status],
      ticketId: ticket.id,
    });
  }
  await repo.insertHistory(tx, {
    ticketId: ticket.id,
    event: request.type,
    fromStatus: ticket.status_id,
    toStatus: updated.status_id,
    actorId,
    actorKind: system ? 'system' : 'user',
    reason,
    details,
    at: now,
  });
  outbox.add(changeOf(ticket, updated, request.type, actorId, now));

  // A child that is done may release its parent from escalation.
  if (updated.parent_ticket_id && DONE_STATUSES.includes(updated.status_id)) {
    const siblings = await repo.childrenOf(tx, updated.parent_ticket_id);
    const parent = await repo.findTicket(tx, updated.tenant_id, updated.parent_ticket_id);
    if (parent?.status_id === ticketStatuses.Escalated && siblings.every((c) => DONE_STATUSES.includes(c.status_id))) {
      await transitionInTx(tx, deps, 'system', parent.id, { type: 'ticket.childrenDone' }, outbox, { tenantId: updated.tenant_id });
    }
  }
  return { ticket: updated, from, to, childTicketId };
}

async function assertAgentOfGroup(db: Queryable, tenantId: string, groupId: number, userId: string) {
  const { rows } = await db.query(
    `select 1 from users u
     join support_group_members m on m.user_id = u.id and m.group_id = $3
     where u.id = $1 and u.tenant_id = $2 and u.is_active
       and exists (select 1 from user_roles ur join role_permissions rp on rp.role_id = ur.role_id
                   where ur.user_id = u.id and rp.permission = $4)`,
    [userId, tenantId, groupId, P.SupportTickets.Work],
  );
  if (!rows.length) throw ValidationFailure.field('toSupportUserId', 'The chosen person is not an active agent of that support group.');
}

export interface EditTicketInput {
  title?: string;
  description?: string;
  supportTicketPriorityId?: number;
}

/** Edits title, description and priority (requester while Open; assignee or support admin until final). */
export async function editTicket(deps: TicketsDeps, p: Principal, ticketId: number, input: EditTicketInput): Promise<TicketRow> {
  const outbox = new Outbox();
  const result = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const ticket = await loadInReach(tx, p, ticketId, 'any');
    const from = statusName(ticket.status_id)!;
    const by = await partiesFor(tx, p, ticket);
    const decision = decide(from, { type: 'ticket.edit', by, at: now.toISOString() });
    if (!decision.accepted) throw refusal(decision, { type: 'ticket.edit' }, ticketId);
    const changes: repo.TicketChanges = {};
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    if (input.title !== undefined && input.title.trim() !== ticket.title) {
      changes.title = input.title.trim();
      changed.title = { from: ticket.title, to: changes.title };
    }
    if (input.description !== undefined && input.description.trim() !== ticket.description) {
      changes.description = input.description.trim();
      changed.description = { from: ticket.description, to: changes.description };
    }
    if (input.supportTicketPriorityId !== undefined && input.supportTicketPriorityId !== ticket.priority_id) {
      changes.priority_id = input.supportTicketPriorityId;
      changed.supportTicketPriorityId = { from: ticket.priority_id, to: input.supportTicketPriorityId };
    }
    if (!Object.keys(changes).length) return ticket;
    const updated = await repo.updateTicketIf(tx, ticket.id, { statusId: ticket.status_id, version: ticket.version }, changes, now);
    if (!updated) throw conflict(`Ticket ${ticket.id} was changed by someone else; reload it and try again.`, { ticketId: ticket.id });
    await repo.insertHistory(tx, {
      ticketId: ticket.id,
      event: 'ticket.edited',
      fromStatus: ticket.status_id,
      toStatus: ticket.status_id,
      actorId: p.userId,
      actorKind: 'user',
      details: { changed },
      at: now,
    });
    outbox.add(changeOf(ticket, updated, 'ticket.edited', p.userId, now));
    return updated;
  });
  outbox.flush(deps.events);
  return result;
}

/** Escalation arrives as POST /v1/supportticket with parentSupportTicketId: it escalates the parent. */
export async function escalateTicket(
  deps: TicketsDeps,
  p: Principal,
  input: { parentSupportTicketId: number; supportGroupId: number; description: string },
): Promise<TransitionResult> {
  return applyTransition(deps, p, input.parentSupportTicketId, {
    type: 'ticket.escalate',
    targetSupportGroupId: input.supportGroupId,
    description: input.description,
  });
}

/**
 * Closes tickets that have been Resolved for `days` days, as the system. Safe to run on
 * several instances: each close is a conditional update, and the caller makes sure only one
 * run happens per interval.
 */
export async function autoCloseResolved(deps: TicketsDeps, days: number, batch = 200): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - days * 24 * 60 * 60 * 1000);
  const { rows } = await deps.db.query<{ id: number; tenant_id: string }>(
    `select id, tenant_id from support_tickets where status_id = $1 and resolved_at <= $2 order by resolved_at limit $3`,
    [ticketStatuses.Resolved, cutoff, batch],
  );
  let closed = 0;
  for (const row of rows) {
    try {
      await applyTransition(deps, 'system', row.id, { type: 'ticket.close' }, { tenantId: row.tenant_id });
      closed += 1;
    } catch (error) {
      // Someone reopened or closed it meanwhile: nothing to do for this one.
      if (!(error instanceof AppError && error.statusCode === 409)) throw error;
    }
  }
  return closed;
}

export function assertSameUser(p: Principal, value: string | null | undefined, field: string) {
  if (value && value !== p.userId) throw badRequest(`${field} must be your own user id; actions are always taken as the signed-in user.`);
}

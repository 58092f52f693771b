import { EventEmitter } from 'node:events';

/**
 * In-process domain events: modules announce what changed; the real-time hub fans them out
 * to sockets (and across instances through LISTEN/NOTIFY). Emitted only after the change is
 * committed.
 */
export interface TicketChanged {
  tenantId: string;
  ticketId: number;
  /** What happened: a lifecycle event (`ticket.claim` …), 'ticket.created', 'ticket.edited', 'document.added', 'document.deleted'. */
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

/** A result was published (issue 20): the notification centre (issue 21) tells the candidate. */
export interface ResultPublished {
  tenantId: string;
  resultId: number;
  examId: number;
  candidateId: string;
  at: string;
}

export interface DomainEvents {
  'ticket.changed': [TicketChanged];
  'result.published': [ResultPublished];
}

export class DomainEventBus extends EventEmitter<DomainEvents> {}

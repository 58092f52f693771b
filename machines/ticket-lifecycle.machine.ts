import { and, assign, setup, transition, type SnapshotFrom } from 'xstate';

/**
 * The support-ticket lifecycle of TICKETS.md, defined once. The server restores this
 * machine at a ticket's stored status and accepts a request only when the machine can take
 * that event for that caller; the UI enables exactly the actions the machine allows.
 *
 * Two tables hold the rules and nothing else repeats them:
 * - the machine below: which status each event leaves from and where it goes;
 * - `ticketEventRules`: who may send each event and which fields it must carry.
 */

export const ticketStatuses = {
  Open: 1,
  InProgress: 2,
  OnHold: 3,
  Escalated: 4,
  Resolved: 5,
  Closed: 6,
  Cancelled: 7,
} as const;
export type TicketStatus = keyof typeof ticketStatuses;
export type TicketStatusId = (typeof ticketStatuses)[TicketStatus];
export const ticketStatusNames = Object.keys(ticketStatuses) as TicketStatus[];

export function statusName(id: number): TicketStatus | undefined {
  return ticketStatusNames.find((name) => ticketStatuses[name] === id);
}

export const ticketPriorities = { Low: 1, Medium: 2, High: 3, Urgent: 4 } as const;
export type TicketPriority = keyof typeof ticketPriorities;

/** A resolved ticket closes by itself after this many days (a scheduled job sends ticket.close as system). */
export const AUTO_CLOSE_AFTER_DAYS = 7;
/** A closed ticket may be reopened within this many days of closing. */
export const REOPEN_WINDOW_DAYS = 30;

/** How the caller relates to the ticket; one person can hold several parts at once. */
export type TicketParty = 'requester' | 'agent' | 'assignee' | 'supportAdmin' | 'system';
export type TicketActor = Partial<Record<TicketParty, boolean>>;

export interface TicketEventFields {
  onHoldReason?: string;
  cancelReason?: string;
  reopenReason?: string;
  answer?: string;
  toSupportGroupId?: number | null;
  toSupportUserId?: string | null;
  targetSupportGroupId?: number;
  description?: string;
  supportTicketBotId?: string;
}

type WithActor<T extends string, F extends keyof TicketEventFields = never> = {
  type: T;
  by: TicketActor;
  /** When the event happens (ISO time); the reopen window is measured against it. */
  at?: string;
} & Pick<TicketEventFields, F>;

export type TicketEvent =
  | WithActor<'ticket.claim'>
  | WithActor<'ticket.release'>
  | WithActor<'ticket.hold', 'onHoldReason'>
  | WithActor<'ticket.resume'>
  | WithActor<'ticket.reassign', 'toSupportGroupId' | 'toSupportUserId'>
  | WithActor<'ticket.escalate', 'targetSupportGroupId' | 'description'>
  | WithActor<'ticket.childrenDone'>
  | WithActor<'ticket.resolve', 'answer'>
  | WithActor<'ticket.acceptBotAnswer', 'supportTicketBotId'>
  | WithActor<'ticket.close'>
  | WithActor<'ticket.reopen', 'reopenReason'>
  | WithActor<'ticket.cancel', 'cancelReason'>
  | WithActor<'ticket.edit'>;
export type TicketEventType = TicketEvent['type'];

export interface TicketEventRule {
  who: readonly TicketParty[];
  /** Fields that must be present and non-blank; `anyOf` needs at least one of them. */
  requires?: readonly (keyof TicketEventFields)[];
  requiresAnyOf?: readonly (keyof TicketEventFields)[];
}

/** Who may send each event, and what it must carry (TICKETS.md "Transitions"). */
export const ticketEventRules: Record<TicketEventType, TicketEventRule> = {
  'ticket.claim': { who: ['agent', 'supportAdmin'] },
  'ticket.release': { who: ['assignee', 'supportAdmin'] },
  'ticket.hold': { who: ['assignee', 'supportAdmin'], requires: ['onHoldReason'] },
  'ticket.resume': { who: ['assignee', 'supportAdmin'] },
  'ticket.reassign': { who: ['assignee', 'supportAdmin'], requiresAnyOf: ['toSupportGroupId', 'toSupportUserId'] },
  'ticket.escalate': { who: ['assignee', 'supportAdmin'], requires: ['targetSupportGroupId', 'description'] },
  'ticket.childrenDone': { who: ['system'] },
  'ticket.resolve': { who: ['assignee', 'supportAdmin'], requires: ['answer'] },
  'ticket.acceptBotAnswer': { who: ['agent', 'supportAdmin'], requires: ['supportTicketBotId'] },
  'ticket.close': { who: ['requester', 'assignee', 'supportAdmin', 'system'] },
  'ticket.reopen': { who: ['requester', 'supportAdmin'], requires: ['reopenReason'] },
  'ticket.cancel': { who: ['requester', 'supportAdmin'], requires: ['cancelReason'] },
  // Edits of title, description and priority: the requester only while Open (see `isRequesterEdit`).
  'ticket.edit': { who: ['requester', 'assignee', 'supportAdmin'] },
};

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim().length > 0;
  return true;
}

export function isAllowedParty(event: TicketEvent): boolean {
  return ticketEventRules[event.type].who.some((party) => event.by[party] === true);
}

/** The required fields the event lacks (empty when it carries everything). */
export function missingFields(event: TicketEvent): (keyof TicketEventFields)[] {
  const rule = ticketEventRules[event.type];
  const fields = event as unknown as TicketEventFields;
  const missing = (rule.requires ?? []).filter((field) => !isPresent(fields[field]));
  if (rule.requiresAnyOf && !rule.requiresAnyOf.some((field) => isPresent(fields[field]))) missing.push(...rule.requiresAnyOf);
  return missing;
}

export interface TicketLifecycleContext {
  /** When the ticket was closed (ISO); the reopen window is measured from it. */
  closedAt: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const ticketLifecycleMachine = setup({
  types: {
    context: {} as TicketLifecycleContext,
    events: {} as TicketEvent,
  },
  guards: {
    isPermitted: ({ event }) => isAllowedParty(event) && missingFields(event).length === 0,
    isReassignToUser: ({ event }) => event.type === 'ticket.reassign' && isPresent(event.toSupportUserId),
    /** The requester edits only while the ticket is Open; staff edit until it is final. */
    isStaffEdit: ({ event }) => event.by.assignee === true || event.by.supportAdmin === true,
    isWithinReopenWindow: ({ context, event }) => {
      if (!context.closedAt) return true;
      const at = event.at ? Date.parse(event.at) : Number.NaN;
      return Number.isFinite(at) && at - Date.parse(context.closedAt) <= REOPEN_WINDOW_DAYS * DAY_MS;
    },
  },
  actions: {
    recordClosedAt: assign({ closedAt: ({ event }) => event.at ?? null }),
    clearClosedAt: assign({ closedAt: null }),
  },
}).createMachine({
  id: 'ticketLifecycle',
  context: { closedAt: null },
  initial: 'Open',
  // Edits keep the status; they are self-transitions so `can()` reports them (a transition
  // with neither target nor actions counts as no transition).
  states: {
    Open: {
      tags: ['active', 'chatOpen', 'unassigned'],
      on: {
        'ticket.claim': { target: 'InProgress', guard: 'isPermitted' },
        'ticket.reassign': [
          { target: 'InProgress', guard: and(['isPermitted', 'isReassignToUser']) },
          { target: 'Open', guard: 'isPermitted', reenter: true },
        ],
        'ticket.acceptBotAnswer': { target: 'Resolved', guard: 'isPermitted' },
        'ticket.cancel': { target: 'Cancelled', guard: 'isPermitted' },
        'ticket.edit': { target: 'Open', guard: 'isPermitted' },
      },
    },
    InProgress: {
      tags: ['active', 'chatOpen', 'assigned'],
      on: {
        'ticket.release': { target: 'Open', guard: 'isPermitted' },
        'ticket.hold': { target: 'OnHold', guard: 'isPermitted' },
        'ticket.reassign': [
          { target: 'InProgress', guard: and(['isPermitted', 'isReassignToUser']), reenter: true },
          { target: 'Open', guard: 'isPermitted' },
        ],
        'ticket.escalate': { target: 'Escalated', guard: 'isPermitted' },
        'ticket.resolve': { target: 'Resolved', guard: 'isPermitted' },
        'ticket.acceptBotAnswer': { target: 'Resolved', guard: 'isPermitted' },
        'ticket.cancel': { target: 'Cancelled', guard: 'isPermitted' },
        'ticket.edit': { target: 'InProgress', guard: and(['isPermitted', 'isStaffEdit']) },
      },
    },
    OnHold: {
      tags: ['active', 'chatOpen', 'assigned'],
      on: {
        'ticket.resume': { target: 'InProgress', guard: 'isPermitted' },
        'ticket.reassign': [
          { target: 'InProgress', guard: and(['isPermitted', 'isReassignToUser']) },
          { target: 'Open', guard: 'isPermitted' },
        ],
        'ticket.escalate': { target: 'Escalated', guard: 'isPermitted' },
        'ticket.cancel': { target: 'Cancelled', guard: 'isPermitted' },
        'ticket.edit': { target: 'OnHold', guard: and(['isPermitted', 'isStaffEdit']) },
      },
    },
    Escalated: {
      tags: ['active', 'chatOpen', 'assigned'],
      on: {
        'ticket.childrenDone': { target: 'InProgress', guard: 'isPermitted' },
        'ticket.edit': { target: 'Escalated', guard: and(['isPermitted', 'isStaffEdit']) },
      },
    },
    Resolved: {
      tags: ['chatOpen', 'assigned'],
      on: {
        'ticket.close': { target: 'Closed', guard: 'isPermitted', actions: 'recordClosedAt' },
        'ticket.reopen': { target: 'Open', guard: 'isPermitted', actions: 'clearClosedAt' },
        'ticket.edit': { target: 'Resolved', guard: and(['isPermitted', 'isStaffEdit']) },
      },
    },
    Closed: {
      tags: ['finished'],
      on: {
        'ticket.reopen': {
          target: 'Open',
          guard: and(['isPermitted', 'isWithinReopenWindow']),
          actions: 'clearClosedAt',
        },
      },
    },
    Cancelled: {
      tags: ['finished'],
      type: 'final',
    },
  },
});

export type TicketLifecycleSnapshot = SnapshotFrom<typeof ticketLifecycleMachine>;

/** The machine's snapshot for a ticket at its stored status (what the server restores). */
export function snapshotAt(status: TicketStatus, context: Partial<TicketLifecycleContext> = {}): TicketLifecycleSnapshot {
  return ticketLifecycleMachine.resolveState({ value: status, context: { closedAt: context.closedAt ?? null } });
}

/** Events that leave a status at all, whoever sends them. */
export function eventsFrom(status: TicketStatus): TicketEventType[] {
  const node = ticketLifecycleMachine.states[status];
  return [...node.transitions.keys()] as TicketEventType[];
}

export type TicketDecision =
  | { accepted: true; from: TicketStatus; to: TicketStatus; snapshot: TicketLifecycleSnapshot }
  | { accepted: false; reason: 'status' | 'role' | 'fields' | 'window'; from: TicketStatus; missing?: (keyof TicketEventFields)[] };

/**
 * Asks the machine whether `event` may happen to a ticket in `status` and where it leads.
 * A refusal says why: the status does not allow the event (409), the caller may not send it
 * (403), required fields are missing (400), or a closed ticket is past its reopen window (409).
 */
export function decide(status: TicketStatus, event: TicketEvent, context: Partial<TicketLifecycleContext> = {}): TicketDecision {
  const snapshot = snapshotAt(status, context);
  if (snapshot.can(event)) {
    const [next] = transition(ticketLifecycleMachine, snapshot, event);
    return { accepted: true, from: status, to: next.value as TicketStatus, snapshot: next };
  }
  if (!eventsFrom(status).includes(event.type)) return { accepted: false, reason: 'status', from: status };
  if (!isAllowedParty(event)) return { accepted: false, reason: 'role', from: status };
  const missing = missingFields(event);
  if (missing.length) return { accepted: false, reason: 'fields', from: status, missing };
  if (event.type === 'ticket.edit') return { accepted: false, reason: 'role', from: status };
  return { accepted: false, reason: 'window', from: status };
}

/**
 * The actions the caller may start in this status: the event leaves the status and the
 * caller's part is allowed (fields are asked for when the action starts). The UI enables
 * exactly these.
 */
export function availableActions(status: TicketStatus, by: TicketActor, context: Partial<TicketLifecycleContext> & { at?: string } = {}): TicketEventType[] {
  return eventsFrom(status).filter((type) => {
    if (!isAllowedParty({ type, by } as TicketEvent)) return false;
    if (type === 'ticket.edit') return status === 'Open' || by.assignee === true || by.supportAdmin === true;
    // Only a reopen can still be refused by when it happens (a Closed ticket's window); the machine
    // decides it. From Resolved it accepts every party allowed to reopen, as the check above does.
    if (type === 'ticket.reopen') return decide(status, { type, by, at: context.at, reopenReason: 'x' }, context).accepted;
    return true;
  });
}

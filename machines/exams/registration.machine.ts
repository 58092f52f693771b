import { setup, transition, type SnapshotFrom } from 'xstate';

/**
 * The `registration` lifecycle of EXAMS.md §2 (issue 18): Submitted → Approved | Rejected(reason)
 * → Allocated → Admit card issued → Attended | Absent; Cancelled(reason) until the sitting. The
 * server restores it at a registration's stored status and accepts a request only when the
 * machine takes the event for that caller (docs/decisions/0152).
 *
 * - A candidate cancels their own registration (with a reason) until the admit card is used;
 *   the registrar (exam manager, project admin) approves, rejects, allocates, issues admit cards
 *   and cancels; a center manager allocates and moves candidates between centers; an invigilator
 *   marks attendance.
 * - Moving a candidate to another center is a self-transition of Allocated, and returns an issued
 *   admit card to Allocated (the old card names the old center and is revoked).
 */
export const registrationStatusNames = ['Submitted', 'Approved', 'Rejected', 'Allocated', 'AdmitCardIssued', 'Attended', 'Absent', 'Cancelled'] as const;
export type RegistrationStatus = (typeof registrationStatusNames)[number];

export type RegistrationParty = 'candidate' | 'registrar' | 'centerManager' | 'invigilator';
export type RegistrationActor = Partial<Record<RegistrationParty, boolean>>;

type WithActor<T extends string, F = object> = { type: T; by: RegistrationActor } & F;

export type RegistrationEvent =
  | WithActor<'registration.approve'>
  | WithActor<'registration.reject', { reason: string }>
  | WithActor<'registration.allocate'>
  | WithActor<'registration.move'>
  | WithActor<'registration.issueAdmitCard'>
  | WithActor<'registration.markAttended'>
  | WithActor<'registration.markAbsent'>
  | WithActor<'registration.cancel', { reason: string }>;
export type RegistrationEventType = RegistrationEvent['type'];

export const registrationEventRules: Record<RegistrationEventType, readonly RegistrationParty[]> = {
  'registration.approve': ['registrar'],
  'registration.reject': ['registrar'],
  'registration.allocate': ['registrar', 'centerManager'],
  'registration.move': ['registrar', 'centerManager'],
  'registration.issueAdmitCard': ['registrar'],
  'registration.markAttended': ['registrar', 'invigilator'],
  'registration.markAbsent': ['registrar', 'invigilator'],
  'registration.cancel': ['candidate', 'registrar'],
};

export function isAllowedRegistrationParty(event: Pick<RegistrationEvent, 'type' | 'by'>): boolean {
  return registrationEventRules[event.type].some((party) => event.by[party] === true);
}

function hasReason(event: RegistrationEvent): boolean {
  return 'reason' in event && typeof event.reason === 'string' && event.reason.trim().length > 0;
}

export const registrationMachine = setup({
  types: { events: {} as RegistrationEvent },
  guards: {
    isPermitted: ({ event }) => isAllowedRegistrationParty(event),
    isPermittedWithReason: ({ event }) => isAllowedRegistrationParty(event) && hasReason(event),
  },
}).createMachine({
  id: 'registration',
  initial: 'Submitted',
  states: {
    Submitted: {
      tags: ['pending'],
      on: {
        'registration.approve': { target: 'Approved', guard: 'isPermitted' },
        'registration.reject': { target: 'Rejected', guard: 'isPermittedWithReason' },
        'registration.cancel': { target: 'Cancelled', guard: 'isPermittedWithReason' },
      },
    },
    Approved: {
      on: {
        'registration.allocate': { target: 'Allocated', guard: 'isPermitted' },
        'registration.cancel': { target: 'Cancelled', guard: 'isPermittedWithReason' },
      },
    },
    Rejected: { type: 'final', tags: ['closed'] },
    Allocated: {
      tags: ['seated'],
      on: {
        'registration.move': { target: 'Allocated', guard: 'isPermitted' },
        'registration.issueAdmitCard': { target: 'AdmitCardIssued', guard: 'isPermitted' },
        'registration.cancel': { target: 'Cancelled', guard: 'isPermittedWithReason' },
      },
    },
    AdmitCardIssued: {
      tags: ['seated', 'admitCard'],
      on: {
        'registration.move': { target: 'Allocated', guard: 'isPermitted' },
        'registration.markAttended': { target: 'Attended', guard: 'isPermitted' },
        'registration.markAbsent': { target: 'Absent', guard: 'isPermitted' },
        'registration.cancel': { target: 'Cancelled', guard: 'isPermittedWithReason' },
      },
    },
    Attended: { type: 'final', tags: ['closed', 'seated'] },
    Absent: { type: 'final', tags: ['closed', 'seated'] },
    Cancelled: { type: 'final', tags: ['closed'] },
  },
});

export type RegistrationSnapshot = SnapshotFrom<typeof registrationMachine>;

export function registrationSnapshotAt(status: RegistrationStatus): RegistrationSnapshot {
  return registrationMachine.resolveState({ value: status });
}

export function registrationEventsFrom(status: RegistrationStatus): RegistrationEventType[] {
  return [...registrationMachine.states[status].transitions.keys()] as RegistrationEventType[];
}

export type RegistrationDecision =
  { accepted: true; from: RegistrationStatus; to: RegistrationStatus } | { accepted: false; reason: 'status' | 'role' | 'fields'; from: RegistrationStatus };

/** Whether `event` may happen now; a refusal says why: status (409), caller (403), missing reason (400). */
export function decideRegistration(status: RegistrationStatus, event: RegistrationEvent): RegistrationDecision {
  const snapshot = registrationSnapshotAt(status);
  if (snapshot.can(event)) {
    const [next] = transition(registrationMachine, snapshot, event);
    return { accepted: true, from: status, to: next.value as RegistrationStatus };
  }
  if (!registrationEventsFrom(status).includes(event.type)) return { accepted: false, reason: 'status', from: status };
  if (!isAllowedRegistrationParty(event)) return { accepted: false, reason: 'role', from: status };
  return { accepted: false, reason: 'fields', from: status };
}

export function registrationActions(status: RegistrationStatus, by: RegistrationActor): RegistrationEventType[] {
  return registrationEventsFrom(status).filter((type) => isAllowedRegistrationParty({ type, by }));
}

/** Whether a registration in this status holds a seat (cancelling or moving it gives the seat back). */
export function holdsSeat(status: RegistrationStatus): boolean {
  return status === 'Allocated' || status === 'AdmitCardIssued';
}

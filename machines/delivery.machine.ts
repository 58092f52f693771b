import { assign, setup, transition, type SnapshotFrom } from 'xstate';

/**
 * The delivery of one paper to one candidate (EXAMS.md §4, issue 19), defined once for the
 * candidate's screen and the server's enforcement (docs/decisions/0240), like the ticket
 * lifecycle: Waiting → Active ⇄ Paused → Submitted | TimeUp | Terminated.
 *
 * The clock is part of the machine's context, so both sides compute time left the same way:
 * allowed time (duration + accommodation extra time) + invigilator extensions − active time
 * used, with paused time never counted. Every event carries `at` (the server's time of the
 * event); the server restores the machine from the stored row and stamps `at` with its clock.
 *
 * - The candidate starts (from the start time on, or earlier once an invigilator admitted
 *   them), saves answers while time is left, and submits while time is left.
 * - An invigilator admits early, pauses and resumes, extends time (minutes and a reason) and
 *   terminates (a reason).
 * - The system ends an Active delivery whose time has run out (TimeUp). A paused delivery
 *   never runs out: its clock is stopped.
 */
export const deliveryStatusNames = ['Waiting', 'Active', 'Paused', 'Submitted', 'TimeUp', 'Terminated'] as const;
export type DeliveryStatus = (typeof deliveryStatusNames)[number];
export const finishedDeliveryStatuses: readonly DeliveryStatus[] = ['Submitted', 'TimeUp', 'Terminated'];

export type DeliveryParty = 'candidate' | 'invigilator' | 'system';
export type DeliveryActor = Partial<Record<DeliveryParty, boolean>>;

/** An extension is whole minutes, at most this many at once. */
export const MAX_EXTENSION_MINUTES = 240;

type At<T extends string, F = object> = { type: T; by: DeliveryActor; at: string } & F;
export type DeliveryEvent =
  | At<'delivery.admit'>
  | At<'delivery.start'>
  | At<'delivery.save'>
  | At<'delivery.pause', { reason?: string }>
  | At<'delivery.resume'>
  | At<'delivery.extend', { minutes: number; reason: string }>
  | At<'delivery.submit'>
  | At<'delivery.timeUp'>
  | At<'delivery.terminate', { reason: string }>;
export type DeliveryEventType = DeliveryEvent['type'];

export const deliveryEventRules: Record<DeliveryEventType, readonly DeliveryParty[]> = {
  'delivery.admit': ['invigilator'],
  'delivery.start': ['candidate'],
  'delivery.save': ['candidate'],
  'delivery.pause': ['invigilator'],
  'delivery.resume': ['invigilator'],
  'delivery.extend': ['invigilator'],
  'delivery.submit': ['candidate'],
  'delivery.timeUp': ['system'],
  'delivery.terminate': ['invigilator'],
};

export interface DeliveryClock {
  /** The scheduled start (ISO). */
  startsAt: string;
  /** Duration plus accommodation extra time, in ms. */
  allowedMs: number;
  /** Sum of the invigilators' extensions, in ms. */
  extensionMs: number;
  /** Active time used before `activeSince`, in ms. */
  usedMs: number;
  /** When the current active stretch began (ISO); null unless Active. */
  activeSince: string | null;
  /** An invigilator admitted the candidate before the start time. */
  admitted: boolean;
  /** The time of the last event taken (ISO): events never go back in time. */
  lastAt: string;
}

export type DeliveryContext = DeliveryClock;
export type DeliveryInput = Pick<DeliveryClock, 'startsAt' | 'allowedMs'> & Partial<DeliveryClock>;

const ms = (iso: string) => Date.parse(iso);

/** Active time used at `at` (paused time is not counted). */
export function usedAt(clock: DeliveryClock, at: string): number {
  return clock.usedMs + (clock.activeSince ? Math.max(0, ms(at) - ms(clock.activeSince)) : 0);
}

/** Time left at `at`, never below zero. */
export function remainingAt(clock: DeliveryClock, at: string): number {
  return Math.max(0, clock.allowedMs + clock.extensionMs - usedAt(clock, at));
}

/** When time runs out if nothing changes (ISO); null while the clock is stopped. */
export function deadlineOf(clock: DeliveryClock): string | null {
  if (!clock.activeSince) return null;
  return new Date(ms(clock.activeSince) + clock.allowedMs + clock.extensionMs - clock.usedMs).toISOString();
}

export function isAllowedDeliveryParty(event: Pick<DeliveryEvent, 'type' | 'by'>): boolean {
  return deliveryEventRules[event.type].some((party) => event.by[party] === true);
}

// An event without a reason has `undefined` there, which is no string: the type check alone tells.
const hasReason = (event: DeliveryEvent) => {
  const { reason } = event as { reason?: unknown };
  return typeof reason === 'string' && reason.trim().length > 0;
};
// Asked of extensions only (their guard, and decideDelivery after checking the type).
const validMinutes = (event: DeliveryEvent) => {
  const { minutes } = event as { minutes?: unknown };
  return Number.isInteger(minutes) && (minutes as number) >= 1 && (minutes as number) <= MAX_EXTENSION_MINUTES;
};
const inOrder = (context: DeliveryContext, event: DeliveryEvent) => Number.isFinite(ms(event.at)) && ms(event.at) >= ms(context.lastAt);

export const deliveryMachine = setup({
  types: { context: {} as DeliveryContext, events: {} as DeliveryEvent, input: {} as DeliveryInput },
  guards: {
    isPermitted: ({ context, event }) => isAllowedDeliveryParty(event) && inOrder(context, event),
    mayStart: ({ context, event }) => isAllowedDeliveryParty(event) && inOrder(context, event) && (context.admitted || ms(event.at) >= ms(context.startsAt)),
    mayAdmit: ({ context, event }) => isAllowedDeliveryParty(event) && inOrder(context, event) && !context.admitted && ms(event.at) < ms(context.startsAt),
    hasTimeLeft: ({ context, event }) => isAllowedDeliveryParty(event) && inOrder(context, event) && remainingAt(context, event.at) > 0,
    isOutOfTime: ({ context, event }) => isAllowedDeliveryParty(event) && inOrder(context, event) && remainingAt(context, event.at) === 0,
    isValidExtension: ({ context, event }) => isAllowedDeliveryParty(event) && inOrder(context, event) && validMinutes(event) && hasReason(event),
    isPermittedWithReason: ({ context, event }) => isAllowedDeliveryParty(event) && inOrder(context, event) && hasReason(event),
  },
  actions: {
    stamp: assign({ lastAt: ({ event }) => event.at }),
    admit: assign({ admitted: true }),
    run: assign({ activeSince: ({ event }) => event.at }),
    stop: assign({ usedMs: ({ context, event }) => usedAt(context, event.at), activeSince: null }),
    extend: assign({ extensionMs: ({ context }, params: { minutes: number }) => context.extensionMs + params.minutes * 60_000 }),
  },
}).createMachine({
  id: 'delivery',
  context: ({ input }) => ({
    startsAt: input.startsAt,
    allowedMs: input.allowedMs,
    extensionMs: input.extensionMs ?? 0,
    usedMs: input.usedMs ?? 0,
    activeSince: input.activeSince ?? null,
    admitted: input.admitted ?? false,
    lastAt: input.lastAt ?? new Date(ms(input.startsAt) - 30 * 60_000).toISOString(),
  }),
  initial: 'Waiting',
  states: {
    Waiting: {
      tags: ['live'],
      on: {
        'delivery.admit': { target: 'Waiting', guard: 'mayAdmit', actions: ['stamp', 'admit'] },
        'delivery.start': { target: 'Active', guard: 'mayStart', actions: ['stamp', 'run'] },
        'delivery.extend': {
          target: 'Waiting',
          guard: 'isValidExtension',
          actions: ['stamp', { type: 'extend', params: ({ event }) => ({ minutes: event.minutes }) }],
        },
        'delivery.terminate': { target: 'Terminated', guard: 'isPermittedWithReason', actions: 'stamp' },
      },
    },
    Active: {
      tags: ['live', 'running'],
      on: {
        'delivery.save': { target: 'Active', guard: 'hasTimeLeft', actions: 'stamp' },
        'delivery.pause': { target: 'Paused', guard: 'hasTimeLeft', actions: ['stop', 'stamp'] },
        'delivery.extend': {
          target: 'Active',
          guard: 'isValidExtension',
          actions: ['stop', { type: 'extend', params: ({ event }) => ({ minutes: event.minutes }) }, 'run', 'stamp'],
        },
        'delivery.submit': { target: 'Submitted', guard: 'hasTimeLeft', actions: ['stop', 'stamp'] },
        'delivery.timeUp': { target: 'TimeUp', guard: 'isOutOfTime', actions: ['stop', 'stamp'] },
        'delivery.terminate': { target: 'Terminated', guard: 'isPermittedWithReason', actions: ['stop', 'stamp'] },
      },
    },
    Paused: {
      tags: ['live'],
      on: {
        'delivery.resume': { target: 'Active', guard: 'isPermitted', actions: ['stamp', 'run'] },
        'delivery.extend': {
          target: 'Paused',
          guard: 'isValidExtension',
          actions: ['stamp', { type: 'extend', params: ({ event }) => ({ minutes: event.minutes }) }],
        },
        'delivery.terminate': { target: 'Terminated', guard: 'isPermittedWithReason', actions: 'stamp' },
      },
    },
    Submitted: { type: 'final', tags: ['finished'] },
    TimeUp: { type: 'final', tags: ['finished'] },
    Terminated: { type: 'final', tags: ['finished'] },
  },
});

export type DeliverySnapshot = SnapshotFrom<typeof deliveryMachine>;

/** The machine at a delivery's stored status and clock (what the server restores). */
export function deliverySnapshotAt(status: DeliveryStatus, clock: DeliveryClock): DeliverySnapshot {
  return deliveryMachine.resolveState({ value: status, context: { ...clock } });
}

export function deliveryEventsFrom(status: DeliveryStatus): DeliveryEventType[] {
  return [...deliveryMachine.states[status].transitions.keys()] as DeliveryEventType[];
}

export type DeliveryDecision =
  | { accepted: true; from: DeliveryStatus; to: DeliveryStatus; clock: DeliveryClock }
  | { accepted: false; reason: 'status' | 'role' | 'fields' | 'time'; from: DeliveryStatus };

/**
 * Whether `event` may happen to a delivery in `status` with `clock`, and the clock after it.
 * A refusal says why: the status does not take the event (409), the caller may not send it
 * (403), a reason or minutes are missing (400), or the time does not allow it: starting before
 * the start time, saving or submitting with no time left (409).
 */
export function decideDelivery(status: DeliveryStatus, clock: DeliveryClock, event: DeliveryEvent): DeliveryDecision {
  const snapshot = deliverySnapshotAt(status, clock);
  if (snapshot.can(event)) {
    const [next] = transition(deliveryMachine, snapshot, event);
    return { accepted: true, from: status, to: next.value as DeliveryStatus, clock: next.context };
  }
  if (!deliveryEventsFrom(status).includes(event.type)) return { accepted: false, reason: 'status', from: status };
  if (!isAllowedDeliveryParty(event)) return { accepted: false, reason: 'role', from: status };
  if ((event.type === 'delivery.extend' && !validMinutes(event)) || (['delivery.extend', 'delivery.terminate'].includes(event.type) && !hasReason(event)))
    return { accepted: false, reason: 'fields', from: status };
  return { accepted: false, reason: 'time', from: status };
}

/** The events a party may send now (the console's and the screen's buttons). */
export function deliveryActions(status: DeliveryStatus, clock: DeliveryClock, by: DeliveryActor, at: string): DeliveryEventType[] {
  const fill = { minutes: 5, reason: 'x' };
  return deliveryEventsFrom(status).filter((type) => deliverySnapshotAt(status, clock).can({ type, by, at, ...fill } as DeliveryEvent));
}

/**
 * Strips what would reveal the answer from an item's content before a candidate's browser
 * gets it: correct options, answers, pairs, the correct order, tolerances and rubrics. The
 * shape stays that of the item's kind, so the same rendering shows it.
 */
export function candidateContent<
  T extends { kind: string; variants: Record<string, { stem: string; choices?: Record<string, string>; rubric?: string | null }> },
>(content: T): T {
  const copy: Record<string, unknown> = { ...content };
  copy.variants = Object.fromEntries(
    Object.entries(content.variants).map(([lang, v]) => [lang, { stem: v.stem, ...(v.choices ? { choices: v.choices } : {}) }]),
  );
  switch (content.kind) {
    case 'singleChoice':
      copy.correct = '';
      break;
    case 'multipleChoice':
      copy.correct = [];
      copy.partial = null;
      break;
    case 'trueFalse':
      copy.correct = false;
      break;
    case 'numeric':
      copy.answer = 0;
      copy.tolerance = { mode: 'absolute', value: 0 };
      break;
    case 'shortText':
      copy.answers = [];
      break;
    case 'fillInBlanks':
      copy.gaps = (copy.gaps as Array<{ id: string; expectedLength: number }>).map((g) => ({ id: g.id, answers: [], expectedLength: g.expectedLength }));
      copy.partial = null;
      break;
    case 'matching':
      copy.pairs = [];
      copy.partial = null;
      break;
    case 'ordering':
      copy.correctOrder = [];
      break;
  }
  return copy as T;
}

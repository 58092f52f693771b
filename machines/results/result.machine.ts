import { assign, setup, transition, type SnapshotFrom } from 'xstate';

/**
 * The result of one delivery (EXAMS.md §2 "Result", §5, issue 20, docs/decisions/0250), defined
 * once for the screens and the server's enforcement, like the delivery machine:
 *
 *   Provisional ⇄ Marking → Moderated → Published → Re-evaluation requested → Revised
 *   Withheld(reason) from any state before publication and from Published; released back to Provisional.
 *
 * - The system creates every result Provisional when the delivery is submitted, moves it to
 *   Marking while answers wait for a person, and back to Provisional once every mark is in.
 *   An answer-key correction rescores it where it stands (`result.rescore`).
 * - A moderator moderates (Provisional or Moderated → Moderated) and publishes (Provisional or
 *   Moderated → Published); a result still in Marking cannot be published.
 * - The candidate requests re-evaluation of a Published result within the exam's window
 *   (days after publication). Resolving the linked ticket revises it (Revised).
 * - A moderator or the exam manager withholds a result with a reason, and releases it again.
 */
export const resultStatusNames = ['Provisional', 'Marking', 'Moderated', 'Published', 'ReevaluationRequested', 'Revised', 'Withheld'] as const;
export type ResultStatus = (typeof resultStatusNames)[number];
/** What a candidate may see. */
export const publishedResultStatuses: readonly ResultStatus[] = ['Published', 'ReevaluationRequested', 'Revised'];

export type ResultParty = 'system' | 'moderator' | 'examManager' | 'candidate' | 'agent';
export type ResultActor = Partial<Record<ResultParty, boolean>>;

type At<T extends string, F = object> = { type: T; by: ResultActor; at: string } & F;
export type ResultEvent =
  | At<'result.awaitMarking'>
  | At<'result.marked'>
  | At<'result.rescore'>
  | At<'result.moderate', { reason: string }>
  | At<'result.publish'>
  | At<'result.requestReevaluation', { items: number[] }>
  | At<'result.revise'>
  | At<'result.withhold', { reason: string }>
  | At<'result.release', { reason: string }>;
export type ResultEventType = ResultEvent['type'];

export const resultEventRules: Record<ResultEventType, readonly ResultParty[]> = {
  'result.awaitMarking': ['system'],
  'result.marked': ['system'],
  'result.rescore': ['system'],
  'result.moderate': ['moderator'],
  'result.publish': ['moderator', 'examManager'],
  'result.requestReevaluation': ['candidate'],
  'result.revise': ['agent', 'moderator', 'system'],
  'result.withhold': ['moderator', 'examManager'],
  'result.release': ['moderator', 'examManager'],
};

export interface ResultContext {
  /** When the result was published (ISO), or null. */
  publishedAt: string | null;
  /** Days after publication a candidate may ask for re-evaluation; 0 = not offered. */
  reevaluationDays: number;
}
export type ResultInput = Partial<ResultContext>;

const DAY = 86_400_000;

/** Whether `at` is inside the re-evaluation window of a result published at `publishedAt`. */
export function withinReevaluationWindow(context: ResultContext, at: string): boolean {
  if (!context.publishedAt || context.reevaluationDays <= 0) return false;
  const from = Date.parse(context.publishedAt);
  const now = Date.parse(at);
  return Number.isFinite(now) && now >= from && now <= from + context.reevaluationDays * DAY;
}

export function isAllowedResultParty(event: Pick<ResultEvent, 'type' | 'by'>): boolean {
  return resultEventRules[event.type].some((party) => event.by[party] === true);
}

const hasReason = (event: ResultEvent) => 'reason' in event && typeof event.reason === 'string' && event.reason.trim().length > 0;
const hasItems = (event: ResultEvent) =>
  event.type === 'result.requestReevaluation' &&
  Array.isArray(event.items) &&
  event.items.length > 0 &&
  event.items.every((n) => Number.isInteger(n) && n >= 1);

export const resultMachine = setup({
  types: { context: {} as ResultContext, events: {} as ResultEvent, input: {} as ResultInput },
  guards: {
    isPermitted: ({ event }) => isAllowedResultParty(event),
    isPermittedWithReason: ({ event }) => isAllowedResultParty(event) && hasReason(event),
    mayRequest: ({ context, event }) => isAllowedResultParty(event) && hasItems(event) && withinReevaluationWindow(context, event.at),
  },
  actions: {
    published: assign({ publishedAt: ({ event }) => event.at }),
  },
}).createMachine({
  id: 'result',
  context: ({ input }) => ({ publishedAt: input.publishedAt ?? null, reevaluationDays: input.reevaluationDays ?? 0 }),
  initial: 'Provisional',
  states: {
    Provisional: {
      on: {
        'result.awaitMarking': { target: 'Marking', guard: 'isPermitted' },
        'result.rescore': { target: 'Provisional', guard: 'isPermitted' },
        'result.moderate': { target: 'Moderated', guard: 'isPermittedWithReason' },
        'result.publish': { target: 'Published', guard: 'isPermitted', actions: 'published' },
        'result.withhold': { target: 'Withheld', guard: 'isPermittedWithReason' },
      },
    },
    Marking: {
      on: {
        'result.marked': { target: 'Provisional', guard: 'isPermitted' },
        'result.rescore': { target: 'Marking', guard: 'isPermitted' },
        'result.withhold': { target: 'Withheld', guard: 'isPermittedWithReason' },
      },
    },
    Moderated: {
      on: {
        'result.awaitMarking': { target: 'Marking', guard: 'isPermitted' },
        'result.rescore': { target: 'Moderated', guard: 'isPermitted' },
        'result.moderate': { target: 'Moderated', guard: 'isPermittedWithReason' },
        'result.publish': { target: 'Published', guard: 'isPermitted', actions: 'published' },
        'result.withhold': { target: 'Withheld', guard: 'isPermittedWithReason' },
      },
    },
    Published: {
      tags: ['visible'],
      on: {
        'result.requestReevaluation': { target: 'ReevaluationRequested', guard: 'mayRequest' },
        'result.rescore': { target: 'Revised', guard: 'isPermitted' },
        'result.withhold': { target: 'Withheld', guard: 'isPermittedWithReason' },
      },
    },
    ReevaluationRequested: {
      tags: ['visible'],
      on: {
        'result.revise': { target: 'Revised', guard: 'isPermitted' },
      },
    },
    Revised: {
      tags: ['visible'],
      on: {
        'result.rescore': { target: 'Revised', guard: 'isPermitted' },
      },
    },
    Withheld: {
      on: {
        'result.release': { target: 'Provisional', guard: 'isPermittedWithReason' },
      },
    },
  },
});

export type ResultSnapshot = SnapshotFrom<typeof resultMachine>;

export function resultSnapshotAt(status: ResultStatus, context: ResultContext): ResultSnapshot {
  return resultMachine.resolveState({ value: status, context: { ...context } });
}

export function resultEventsFrom(status: ResultStatus): ResultEventType[] {
  return [...resultMachine.states[status].transitions.keys()] as ResultEventType[];
}

export type ResultDecision =
  | { accepted: true; from: ResultStatus; to: ResultStatus; context: ResultContext }
  | { accepted: false; reason: 'status' | 'role' | 'fields' | 'window'; from: ResultStatus };

/**
 * Whether `event` may happen to a result in `status`, and the context after it. A refusal
 * says why: the status does not take it (409), the caller may not send it (403), a reason or
 * the item numbers are missing (400), or the re-evaluation window is closed (409).
 */
export function decideResult(status: ResultStatus, context: ResultContext, event: ResultEvent): ResultDecision {
  const snapshot = resultSnapshotAt(status, context);
  if (snapshot.can(event)) {
    const [next] = transition(resultMachine, snapshot, event);
    return { accepted: true, from: status, to: next.value as ResultStatus, context: next.context };
  }
  if (!resultEventsFrom(status).includes(event.type)) return { accepted: false, reason: 'status', from: status };
  if (!isAllowedResultParty(event)) return { accepted: false, reason: 'role', from: status };
  if (event.type === 'result.requestReevaluation' && !hasItems(event)) return { accepted: false, reason: 'fields', from: status };
  if (event.type === 'result.requestReevaluation') return { accepted: false, reason: 'window', from: status };
  return { accepted: false, reason: 'fields', from: status };
}

/** The events a party may send now (the screens' buttons). */
export function resultActions(status: ResultStatus, context: ResultContext, by: ResultActor, at: string): ResultEventType[] {
  const fill = { reason: 'x', items: [1] };
  return resultEventsFrom(status).filter((type) => resultSnapshotAt(status, context).can({ type, by, at, ...fill } as ResultEvent));
}

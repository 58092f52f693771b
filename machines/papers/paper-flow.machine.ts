import { setup, transition, type SnapshotFrom } from 'xstate';

/**
 * The paper flow of EXAMS.md §2: Draft → Review → Locked → Published (docs/decisions/0140).
 * The server restores it at a paper's stored status and accepts a request only when the
 * machine takes the event for that caller, as for the exam lifecycle (0090).
 *
 * - `paper.edit` (the paper, its sections and their items) is a self-transition of Draft only:
 *   a paper in Review, Locked or Published answers 409 to every edit.
 * - `paper.submit` sends a Draft to its moderator; `paper.requestChanges` (with a reason)
 *   returns it to Draft.
 * - `paper.lock` freezes the snapshot of the exact item versions; the server passes the
 *   number of blocking blueprint problems (`problems`), and a paper with any is not locked.
 * - `paper.unlock` is a recorded action of a project admin with a reason: Locked → Draft, the
 *   snapshot and the sets are discarded.
 * - `paper.generateSets` is a self-transition of Locked only (sets come from the snapshot).
 * - `paper.publish` needs at least one set (`sets`, passed by the server). Published is final:
 *   its sets are what candidates sit and what the audit regenerates.
 */

export const paperStatusNames = ['Draft', 'Review', 'Locked', 'Published'] as const;
export type PaperStatus = (typeof paperStatusNames)[number];

/**
 * How the caller relates to the paper's exam: `paperSetter`, `moderator`, `projectAdmin` hold
 * that exam permission on the exam or its project (a tenant manager acts as project admin).
 */
export type PaperParty = 'paperSetter' | 'moderator' | 'projectAdmin';
export type PaperActor = Partial<Record<PaperParty, boolean>>;

type WithActor<T extends string, F = object> = { type: T; by: PaperActor } & F;

export type PaperEvent =
  | WithActor<'paper.edit'>
  | WithActor<'paper.submit'>
  | WithActor<'paper.requestChanges', { reason: string }>
  | WithActor<'paper.lock', { problems: number }>
  | WithActor<'paper.unlock', { reason: string }>
  | WithActor<'paper.generateSets'>
  | WithActor<'paper.publish', { sets: number }>;
export type PaperEventType = PaperEvent['type'];

export const paperEventRules: Record<PaperEventType, readonly PaperParty[]> = {
  'paper.edit': ['paperSetter', 'projectAdmin'],
  'paper.submit': ['paperSetter', 'projectAdmin'],
  'paper.requestChanges': ['moderator', 'projectAdmin'],
  'paper.lock': ['moderator', 'projectAdmin'],
  'paper.unlock': ['projectAdmin'],
  'paper.generateSets': ['paperSetter', 'moderator', 'projectAdmin'],
  'paper.publish': ['moderator', 'projectAdmin'],
};

export function isAllowedPaperParty(event: Pick<PaperEvent, 'type' | 'by'>): boolean {
  return paperEventRules[event.type].some((party) => event.by[party] === true);
}

function hasReason(event: PaperEvent): boolean {
  return 'reason' in event && typeof event.reason === 'string' && event.reason.trim().length > 0;
}

function blueprintClean(event: PaperEvent): boolean {
  return event.type === 'paper.lock' && event.problems === 0;
}

function hasSets(event: PaperEvent): boolean {
  return event.type === 'paper.publish' && event.sets > 0;
}

export const paperFlowMachine = setup({
  types: { events: {} as PaperEvent },
  guards: {
    isPermitted: ({ event }) => isAllowedPaperParty(event),
    isPermittedWithReason: ({ event }) => isAllowedPaperParty(event) && hasReason(event),
    isPermittedWithCleanBlueprint: ({ event }) => isAllowedPaperParty(event) && blueprintClean(event),
    isPermittedWithSets: ({ event }) => isAllowedPaperParty(event) && hasSets(event),
  },
}).createMachine({
  id: 'paperFlow',
  initial: 'Draft',
  states: {
    Draft: {
      tags: ['editable'],
      on: {
        'paper.edit': { target: 'Draft', guard: 'isPermitted' },
        'paper.submit': { target: 'Review', guard: 'isPermitted' },
      },
    },
    Review: {
      tags: ['underReview'],
      on: {
        'paper.requestChanges': { target: 'Draft', guard: 'isPermittedWithReason' },
        'paper.lock': { target: 'Locked', guard: 'isPermittedWithCleanBlueprint' },
      },
    },
    Locked: {
      tags: ['frozen'],
      on: {
        'paper.generateSets': { target: 'Locked', guard: 'isPermitted' },
        'paper.unlock': { target: 'Draft', guard: 'isPermittedWithReason' },
        'paper.publish': { target: 'Published', guard: 'isPermittedWithSets' },
      },
    },
    Published: { tags: ['frozen', 'readOnly'], type: 'final' },
  },
});

export type PaperFlowSnapshot = SnapshotFrom<typeof paperFlowMachine>;

export function paperSnapshotAt(status: PaperStatus): PaperFlowSnapshot {
  return paperFlowMachine.resolveState({ value: status });
}

export function paperEventsFrom(status: PaperStatus): PaperEventType[] {
  return [...paperFlowMachine.states[status].transitions.keys()] as PaperEventType[];
}

export type PaperDecision =
  { accepted: true; from: PaperStatus; to: PaperStatus } | { accepted: false; reason: 'status' | 'role' | 'fields' | 'blueprint' | 'sets'; from: PaperStatus };

/**
 * Whether `event` may happen to a paper in `status`. A refusal says why: the status does not
 * take it (409), the caller may not (403), the reason is missing (400), the blueprint has
 * blocking problems (400) or there is no set to publish (409).
 */
export function decidePaper(status: PaperStatus, event: PaperEvent): PaperDecision {
  const snapshot = paperSnapshotAt(status);
  if (snapshot.can(event)) {
    const [next] = transition(paperFlowMachine, snapshot, event);
    return { accepted: true, from: status, to: next.value as PaperStatus };
  }
  if (!paperEventsFrom(status).includes(event.type)) return { accepted: false, reason: 'status', from: status };
  if (!isAllowedPaperParty(event)) return { accepted: false, reason: 'role', from: status };
  if (event.type === 'paper.lock') return { accepted: false, reason: 'blueprint', from: status };
  if (event.type === 'paper.publish') return { accepted: false, reason: 'sets', from: status };
  return { accepted: false, reason: 'fields', from: status };
}

/** The events this caller may send to a paper in `status` (the screens show only these). */
export function paperActions(status: PaperStatus, by: PaperActor): PaperEventType[] {
  return paperEventsFrom(status).filter((type) => isAllowedPaperParty({ type, by }));
}

import { setup, transition, type SnapshotFrom } from 'xstate';
import type { ProjectStatus } from './project-status.machine.ts';

/**
 * The `season` lifecycle of EXAMS.md §2 (issue 18): Planned → Registration open →
 * Registration closed → In progress → Completed. The server restores it at a season's stored
 * status and accepts a request only when the machine takes the event for that caller
 * (docs/decisions/0150), as it does for projects and exams (0090).
 *
 * - Opening registration needs an Active project, at least one scheduled paper and at least one
 *   center with seats (the server counts them and passes them in the event).
 * - Registration may be reopened (with a reason) while the sitting has not started.
 * - `season.configure` (name, windows, schedule, live sets, section settings, centers and seats)
 *   is a self-transition of Planned, Registration open and Registration closed: once the sitting
 *   is In progress its schedule is frozen. A center manager may configure (seats), not move the
 *   season through its lifecycle.
 */
export const seasonStatusNames = ['Planned', 'RegistrationOpen', 'RegistrationClosed', 'InProgress', 'Completed'] as const;
export type SeasonStatus = (typeof seasonStatusNames)[number];

/** `examManager`: Exams.Manage or Projects.Manage in scope; `projectAdmin`: ProjectAdmin on the project; `centerManager`: CenterManager on it. */
export type SeasonParty = 'examManager' | 'projectAdmin' | 'centerManager';
export type SeasonActor = Partial<Record<SeasonParty, boolean>>;

type WithActor<T extends string, F = object> = { type: T; by: SeasonActor } & F;

export interface SeasonReadiness {
  projectStatus: ProjectStatus;
  /** Season papers scheduled. */
  papers: number;
  /** Seats given to centers in total. */
  seats: number;
}

export type SeasonEvent =
  | WithActor<'season.openRegistration', { readiness: SeasonReadiness }>
  | WithActor<'season.closeRegistration'>
  | WithActor<'season.reopenRegistration', { reason: string }>
  | WithActor<'season.start'>
  | WithActor<'season.complete'>
  | WithActor<'season.configure'>;
export type SeasonEventType = SeasonEvent['type'];

export const seasonEventRules: Record<SeasonEventType, readonly SeasonParty[]> = {
  'season.openRegistration': ['examManager', 'projectAdmin'],
  'season.closeRegistration': ['examManager', 'projectAdmin'],
  'season.reopenRegistration': ['examManager', 'projectAdmin'],
  'season.start': ['examManager', 'projectAdmin'],
  'season.complete': ['examManager', 'projectAdmin'],
  'season.configure': ['examManager', 'projectAdmin', 'centerManager'],
};

export function isAllowedSeasonParty(event: Pick<SeasonEvent, 'type' | 'by'>): boolean {
  return seasonEventRules[event.type].some((party) => event.by[party] === true);
}

/** What a season still needs before registration opens (empty when ready). */
export function seasonMissing(readiness: SeasonReadiness | undefined): string[] {
  if (!readiness) return ['an Active project', 'a scheduled paper', 'a center with seats'];
  const missing: string[] = [];
  if (readiness.projectStatus !== 'Active') missing.push('an Active project');
  if (!(readiness.papers > 0)) missing.push('a scheduled paper');
  if (!(readiness.seats > 0)) missing.push('a center with seats');
  return missing;
}

function hasReason(event: SeasonEvent): boolean {
  return event.type === 'season.reopenRegistration' && typeof event.reason === 'string' && event.reason.trim().length > 0;
}

export const seasonMachine = setup({
  types: { events: {} as SeasonEvent },
  guards: {
    isPermitted: ({ event }) => isAllowedSeasonParty(event),
    isPermittedAndReady: ({ event }) => isAllowedSeasonParty(event) && event.type === 'season.openRegistration' && seasonMissing(event.readiness).length === 0,
    isPermittedWithReason: ({ event }) => isAllowedSeasonParty(event) && hasReason(event),
  },
}).createMachine({
  id: 'season',
  initial: 'Planned',
  states: {
    Planned: {
      tags: ['configurable'],
      on: {
        'season.openRegistration': { target: 'RegistrationOpen', guard: 'isPermittedAndReady' },
        'season.configure': { target: 'Planned', guard: 'isPermitted' },
      },
    },
    RegistrationOpen: {
      tags: ['configurable', 'registering'],
      on: {
        'season.closeRegistration': { target: 'RegistrationClosed', guard: 'isPermitted' },
        'season.configure': { target: 'RegistrationOpen', guard: 'isPermitted' },
      },
    },
    RegistrationClosed: {
      tags: ['configurable'],
      on: {
        'season.reopenRegistration': { target: 'RegistrationOpen', guard: 'isPermittedWithReason' },
        'season.start': { target: 'InProgress', guard: 'isPermitted' },
        'season.configure': { target: 'RegistrationClosed', guard: 'isPermitted' },
      },
    },
    InProgress: {
      tags: ['sitting'],
      on: { 'season.complete': { target: 'Completed', guard: 'isPermitted' } },
    },
    Completed: { tags: ['readOnly'], type: 'final' },
  },
});

export type SeasonSnapshot = SnapshotFrom<typeof seasonMachine>;

export function seasonSnapshotAt(status: SeasonStatus): SeasonSnapshot {
  return seasonMachine.resolveState({ value: status });
}

export function seasonEventsFrom(status: SeasonStatus): SeasonEventType[] {
  return [...seasonMachine.states[status].transitions.keys()] as SeasonEventType[];
}

export type SeasonDecision =
  | { accepted: true; from: SeasonStatus; to: SeasonStatus }
  | { accepted: false; reason: 'status' | 'role' | 'fields' | 'readiness'; from: SeasonStatus; missing?: string[] };

/**
 * Whether `event` may happen to a season in `status`. A refusal says why: the status does not
 * take it (409), the caller may not (403), the reason is missing (400), or the season is not
 * ready to open registration (409 naming what is missing).
 */
export function decideSeason(status: SeasonStatus, event: SeasonEvent): SeasonDecision {
  const snapshot = seasonSnapshotAt(status);
  if (snapshot.can(event)) {
    const [next] = transition(seasonMachine, snapshot, event);
    return { accepted: true, from: status, to: next.value as SeasonStatus };
  }
  if (!seasonEventsFrom(status).includes(event.type)) return { accepted: false, reason: 'status', from: status };
  if (!isAllowedSeasonParty(event)) return { accepted: false, reason: 'role', from: status };
  if (event.type === 'season.reopenRegistration') return { accepted: false, reason: 'fields', from: status };
  const missing = event.type === 'season.openRegistration' ? seasonMissing(event.readiness) : [];
  return { accepted: false, reason: 'readiness', from: status, missing };
}

/** The lifecycle events (not `season.configure`) the caller may offer now. */
export function seasonActions(status: SeasonStatus, by: SeasonActor): SeasonEventType[] {
  return seasonEventsFrom(status).filter((type) => isAllowedSeasonParty({ type, by }));
}

export function seasonIsConfigurable(status: SeasonStatus): boolean {
  return seasonSnapshotAt(status).hasTag('configurable');
}

import { setup, transition, type SnapshotFrom } from 'xstate';

/**
 * The `project-status` lifecycle of EXAMS.md §2: Draft → Setup → Active → Closed → Archived.
 * Setup is the configuration stepper; a project goes Active only once it has what items need
 * (an item type and a category). The server restores this machine at a project's stored status
 * and accepts a request only when the machine takes that event for that caller
 * (docs/decisions/0090), like the ticket lifecycle (0007).
 *
 * Reopening a Closed project runs the same set-up check as activation (docs/decisions/0165): a
 * project that has what items need goes back to Active; one that does not (a Draft that was
 * archived and restored, or one whose item types were all retired before closing) goes back to
 * Setup, where the stepper finishes it. Active never skips the check, and nothing is stranded.
 *
 * `project.edit` (name, description, languages) and `project.configure` (item types,
 * categories, flows, team) are self-transitions: they are allowed exactly where the machine
 * lists them, so a Closed or Archived project is read-only without a second rule elsewhere.
 */

export const projectStatusNames = ['Draft', 'Setup', 'Active', 'Closed', 'Archived'] as const;
export type ProjectStatus = (typeof projectStatusNames)[number];

/**
 * How the caller relates to the project: `tenantManager` holds Projects.Manage in the
 * project's scope; `projectAdmin` holds the ProjectAdmin grant on it.
 */
export type ProjectParty = 'tenantManager' | 'projectAdmin';
export type ProjectActor = Partial<Record<ProjectParty, boolean>>;

/** What the project has, counted by the server (never taken from the caller). */
export interface ProjectSetupFacts {
  itemTypes: number;
  categories: number;
}

type WithActor<T extends string, F = object> = { type: T; by: ProjectActor } & F;

export type ProjectEvent =
  | WithActor<'project.startSetup'>
  | WithActor<'project.activate', { setup: ProjectSetupFacts }>
  | WithActor<'project.close'>
  | WithActor<'project.reopen', { setup: ProjectSetupFacts }>
  | WithActor<'project.archive'>
  | WithActor<'project.restore'>
  | WithActor<'project.edit'>
  | WithActor<'project.configure'>;
export type ProjectEventType = ProjectEvent['type'];

/** Who may send each event. Archiving hides a project from its team, so only tenant managers do it. */
export const projectEventRules: Record<ProjectEventType, readonly ProjectParty[]> = {
  'project.startSetup': ['tenantManager', 'projectAdmin'],
  'project.activate': ['tenantManager', 'projectAdmin'],
  'project.close': ['tenantManager', 'projectAdmin'],
  'project.reopen': ['tenantManager', 'projectAdmin'],
  'project.archive': ['tenantManager'],
  'project.restore': ['tenantManager'],
  'project.edit': ['tenantManager', 'projectAdmin'],
  'project.configure': ['tenantManager', 'projectAdmin'],
};

export function isAllowedProjectParty(event: Pick<ProjectEvent, 'type' | 'by'>): boolean {
  return projectEventRules[event.type].some((party) => event.by[party] === true);
}

/** What activation still lacks (empty when the project may go Active). */
export function missingSetup(setup: ProjectSetupFacts | undefined): string[] {
  const missing: string[] = [];
  if (!setup || setup.itemTypes < 1) missing.push('an item type');
  if (!setup || setup.categories < 1) missing.push('a category');
  return missing;
}

export const projectStatusMachine = setup({
  types: { events: {} as ProjectEvent },
  guards: {
    isPermitted: ({ event }) => isAllowedProjectParty(event),
    isPermittedAndSetUp: ({ event }) =>
      isAllowedProjectParty(event) && (event.type === 'project.activate' || event.type === 'project.reopen') && missingSetup(event.setup).length === 0,
  },
}).createMachine({
  id: 'projectStatus',
  initial: 'Draft',
  states: {
    Draft: {
      tags: ['editable', 'configurable'],
      on: {
        'project.startSetup': { target: 'Setup', guard: 'isPermitted' },
        'project.archive': { target: 'Archived', guard: 'isPermitted' },
        'project.edit': { target: 'Draft', guard: 'isPermitted' },
        'project.configure': { target: 'Draft', guard: 'isPermitted' },
      },
    },
    Setup: {
      tags: ['editable', 'configurable', 'stepper'],
      on: {
        'project.activate': { target: 'Active', guard: 'isPermittedAndSetUp' },
        'project.edit': { target: 'Setup', guard: 'isPermitted' },
        'project.configure': { target: 'Setup', guard: 'isPermitted' },
      },
    },
    Active: {
      tags: ['editable', 'configurable', 'running'],
      on: {
        'project.close': { target: 'Closed', guard: 'isPermitted' },
        'project.edit': { target: 'Active', guard: 'isPermitted' },
        'project.configure': { target: 'Active', guard: 'isPermitted' },
      },
    },
    Closed: {
      tags: ['readOnly'],
      on: {
        'project.reopen': [
          { target: 'Active', guard: 'isPermittedAndSetUp' },
          { target: 'Setup', guard: 'isPermitted' },
        ],
        'project.archive': { target: 'Archived', guard: 'isPermitted' },
      },
    },
    Archived: {
      tags: ['readOnly', 'hidden'],
      on: {
        'project.restore': { target: 'Closed', guard: 'isPermitted' },
      },
    },
  },
});

export type ProjectStatusSnapshot = SnapshotFrom<typeof projectStatusMachine>;

export function projectSnapshotAt(status: ProjectStatus): ProjectStatusSnapshot {
  return projectStatusMachine.resolveState({ value: status });
}

/** Events that leave a status at all, whoever sends them. */
export function projectEventsFrom(status: ProjectStatus): ProjectEventType[] {
  return [...projectStatusMachine.states[status].transitions.keys()] as ProjectEventType[];
}

export type ProjectDecision =
  | { accepted: true; from: ProjectStatus; to: ProjectStatus }
  | { accepted: false; reason: 'status' | 'role' | 'setup'; from: ProjectStatus; missing?: string[] };

/**
 * Whether `event` may happen to a project in `status` and where it leads. A refusal says why:
 * the status does not take the event (409), the caller may not send it (403), or the set-up
 * is incomplete (409 naming what is missing).
 */
export function decideProject(status: ProjectStatus, event: ProjectEvent): ProjectDecision {
  const snapshot = projectSnapshotAt(status);
  if (snapshot.can(event)) {
    const [next] = transition(projectStatusMachine, snapshot, event);
    return { accepted: true, from: status, to: next.value as ProjectStatus };
  }
  if (!projectEventsFrom(status).includes(event.type)) return { accepted: false, reason: 'status', from: status };
  if (!isAllowedProjectParty(event)) return { accepted: false, reason: 'role', from: status };
  return { accepted: false, reason: 'setup', from: status, missing: missingSetup((event as { setup?: ProjectSetupFacts }).setup) };
}

/** The status changes the caller may start from this status (the screens offer exactly these). */
export function projectActions(status: ProjectStatus, by: ProjectActor): ProjectEventType[] {
  return projectEventsFrom(status).filter((type) => isAllowedProjectParty({ type, by }));
}

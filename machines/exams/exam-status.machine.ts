import { setup, transition, type SnapshotFrom } from 'xstate';
import type { ProjectStatus } from './project-status.machine.ts';

/**
 * The `exam` lifecycle of EXAMS.md §2: Draft → Scheduled → Live → Evaluation → Results
 * published → Closed. The server restores it at an exam's stored status and accepts a request
 * only when the machine takes the event for that caller (docs/decisions/0090).
 *
 * - Scheduling and going live need the project to be Active (the server passes the project's
 *   status in the event; the caller never supplies it).
 * - Unscheduling returns a Scheduled exam to Draft; withdrawing results (with a reason) returns
 *   a published exam to Evaluation for corrections.
 * - `exam.edit` (name, pass rules, grade bands) is a self-transition of Draft and Scheduled
 *   only: once an exam is Live its rules are frozen.
 */

export const examStatusNames = ['Draft', 'Scheduled', 'Live', 'Evaluation', 'ResultsPublished', 'Closed'] as const;
export type ExamStatus = (typeof examStatusNames)[number];

/**
 * How the caller relates to the exam: `examManager` holds Exams.Manage in its scope;
 * `projectAdmin` holds ProjectAdmin on its project; `moderator` holds Moderator on the exam
 * or its project.
 */
export type ExamParty = 'examManager' | 'projectAdmin' | 'moderator';
export type ExamActor = Partial<Record<ExamParty, boolean>>;

type WithActor<T extends string, F = object> = { type: T; by: ExamActor } & F;

export type ExamEvent =
  | WithActor<'exam.schedule', { projectStatus: ProjectStatus }>
  | WithActor<'exam.unschedule'>
  | WithActor<'exam.start', { projectStatus: ProjectStatus }>
  | WithActor<'exam.end'>
  | WithActor<'exam.publishResults'>
  | WithActor<'exam.withdrawResults', { reason: string }>
  | WithActor<'exam.close'>
  | WithActor<'exam.edit'>;
export type ExamEventType = ExamEvent['type'];

export const examEventRules: Record<ExamEventType, readonly ExamParty[]> = {
  'exam.schedule': ['examManager', 'projectAdmin'],
  'exam.unschedule': ['examManager', 'projectAdmin'],
  'exam.start': ['examManager', 'projectAdmin'],
  'exam.end': ['examManager', 'projectAdmin'],
  'exam.publishResults': ['examManager', 'projectAdmin', 'moderator'],
  'exam.withdrawResults': ['examManager', 'projectAdmin', 'moderator'],
  'exam.close': ['examManager', 'projectAdmin'],
  'exam.edit': ['examManager', 'projectAdmin'],
};

export function isAllowedExamParty(event: Pick<ExamEvent, 'type' | 'by'>): boolean {
  return examEventRules[event.type].some((party) => event.by[party] === true);
}

function projectIsActive(event: ExamEvent): boolean {
  return 'projectStatus' in event && event.projectStatus === 'Active';
}

function hasReason(event: ExamEvent): boolean {
  return event.type === 'exam.withdrawResults' && typeof event.reason === 'string' && event.reason.trim().length > 0;
}

export const examStatusMachine = setup({
  types: { events: {} as ExamEvent },
  guards: {
    isPermitted: ({ event }) => isAllowedExamParty(event),
    isPermittedInActiveProject: ({ event }) => isAllowedExamParty(event) && projectIsActive(event),
    isPermittedWithReason: ({ event }) => isAllowedExamParty(event) && hasReason(event),
  },
}).createMachine({
  id: 'examStatus',
  initial: 'Draft',
  states: {
    Draft: {
      tags: ['editable'],
      on: {
        'exam.schedule': { target: 'Scheduled', guard: 'isPermittedInActiveProject' },
        'exam.edit': { target: 'Draft', guard: 'isPermitted' },
      },
    },
    Scheduled: {
      tags: ['editable'],
      on: {
        'exam.unschedule': { target: 'Draft', guard: 'isPermitted' },
        'exam.start': { target: 'Live', guard: 'isPermittedInActiveProject' },
        'exam.edit': { target: 'Scheduled', guard: 'isPermitted' },
      },
    },
    Live: {
      tags: ['running'],
      on: { 'exam.end': { target: 'Evaluation', guard: 'isPermitted' } },
    },
    Evaluation: {
      tags: ['marking'],
      on: { 'exam.publishResults': { target: 'ResultsPublished', guard: 'isPermitted' } },
    },
    ResultsPublished: {
      tags: ['resultsVisible'],
      on: {
        'exam.withdrawResults': { target: 'Evaluation', guard: 'isPermittedWithReason' },
        'exam.close': { target: 'Closed', guard: 'isPermitted' },
      },
    },
    Closed: { tags: ['readOnly', 'resultsVisible'], type: 'final' },
  },
});

export type ExamStatusSnapshot = SnapshotFrom<typeof examStatusMachine>;

export function examSnapshotAt(status: ExamStatus): ExamStatusSnapshot {
  return examStatusMachine.resolveState({ value: status });
}

export function examEventsFrom(status: ExamStatus): ExamEventType[] {
  return [...examStatusMachine.states[status].transitions.keys()] as ExamEventType[];
}

export type ExamDecision =
  { accepted: true; from: ExamStatus; to: ExamStatus } | { accepted: false; reason: 'status' | 'role' | 'project' | 'fields'; from: ExamStatus };

/**
 * Whether `event` may happen to an exam in `status`. A refusal says why: the status does not
 * take it (409), the caller may not (403), the project is not Active (409) or the reason is
 * missing (400).
 */
export function decideExam(status: ExamStatus, event: ExamEvent): ExamDecision {
  const snapshot = examSnapshotAt(status);
  if (snapshot.can(event)) {
    const [next] = transition(examStatusMachine, snapshot, event);
    return { accepted: true, from: status, to: next.value as ExamStatus };
  }
  if (!examEventsFrom(status).includes(event.type)) return { accepted: false, reason: 'status', from: status };
  if (!isAllowedExamParty(event)) return { accepted: false, reason: 'role', from: status };
  if (event.type === 'exam.withdrawResults') return { accepted: false, reason: 'fields', from: status };
  return { accepted: false, reason: 'project', from: status };
}

export function examActions(status: ExamStatus, by: ExamActor): ExamEventType[] {
  return examEventsFrom(status).filter((type) => isAllowedExamParty({ type, by }));
}

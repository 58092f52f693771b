import { examPermissionNames, type ExamPermission } from '#machines/permissions.ts';
import { decideExam, examActions, type ExamActor, type ExamEvent, type ExamStatus } from '#machines/exams/exam-status.machine.ts';
import { decideProject, projectActions, type ProjectActor, type ProjectEvent } from '#machines/exams/project-status.machine.ts';
import { AppError, badRequest, conflict, forbidden } from '#server/lib/errors.ts';
import type { Workspace } from '#server/plugins/workspace-context.ts';

/**
 * How the caller relates to the project and its exams, from their tenant permissions and
 * exam permissions (grants). The machines decide what each relation may do.
 */
type Reach = Pick<Workspace, 'grants' | 'tenantProjectManager' | 'tenantExamManager'>;

const projectWide = (reach: Reach, permission: ExamPermission) => reach.grants.some((g) => g.examId === null && g.permission === permission);

export function projectActor(reach: Reach): ProjectActor {
  return { tenantManager: reach.tenantProjectManager, projectAdmin: projectWide(reach, 'ProjectAdmin') };
}

export function examActor(reach: Reach, examId: number | null): ExamActor {
  return {
    examManager: reach.tenantExamManager,
    // A tenant project manager acts as ProjectAdmin on the projects of their scope (0090).
    projectAdmin: reach.tenantProjectManager || projectWide(reach, 'ProjectAdmin'),
    moderator: reach.grants.some((g) => g.permission === 'Moderator' && (g.examId === null || g.examId === examId)),
  };
}

/**
 * The exam permissions the caller holds on an exam: grants on its project and on it; tenant
 * managers hold every one (they may do everything a grant allows in their scope).
 */
export function effectiveExamPermissions(reach: Reach, examId: number): ExamPermission[] {
  if (reach.tenantProjectManager) return [...examPermissionNames];
  const held = new Set(reach.grants.filter((g) => g.examId === null || g.examId === examId).map((g) => g.permission));
  return examPermissionNames.filter((name) => held.has(name));
}

export function projectPermissions(reach: Reach): ExamPermission[] {
  if (reach.tenantProjectManager) return [...examPermissionNames];
  const held = new Set(reach.grants.filter((g) => g.examId === null).map((g) => g.permission));
  return examPermissionNames.filter((name) => held.has(name));
}

export const projectStatusActions = (workspace: Workspace) => projectActions(workspace.project.status, projectActor(workspace));
export const examStatusActions = (reach: Reach, examId: number, status: ExamStatus) => examActions(status, examActor(reach, examId));

/**
 * Asks the project machine whether the caller may send `event` now; throws the refusal:
 * 403 for the caller, 409 for the status or an incomplete set-up.
 */
export function assertProjectEvent(workspace: Workspace, event: Omit<ProjectEvent, 'by'> & Partial<Pick<ProjectEvent, 'by'>>) {
  const decision = decideProject(workspace.project.status, { ...event, by: projectActor(workspace) } as ProjectEvent);
  if (decision.accepted) return decision;
  if (decision.reason === 'role') throw forbidden(`You may not ${verb(event.type)} this project.`);
  if (decision.reason === 'setup') {
    throw conflict(`The project cannot go Active yet: it needs ${decision.missing!.join(' and ')}.`, {
      currentStatus: decision.from,
      missing: decision.missing,
    });
  }
  throw conflict(`A project in status ${decision.from} cannot ${describe(event.type)}.`, { currentStatus: decision.from });
}

export function assertExamEvent(reach: Reach, examId: number, status: ExamStatus, event: Omit<ExamEvent, 'by'>) {
  const decision = decideExam(status, { ...event, by: examActor(reach, examId) } as ExamEvent);
  if (decision.accepted) return decision;
  if (decision.reason === 'role') throw forbidden(`You may not ${verb(event.type)} this exam.`);
  if (decision.reason === 'fields') throw badRequest('A reason is required to withdraw published results.');
  if (decision.reason === 'project') {
    throw conflict(`The exam cannot ${describe(event.type)} while its project is not Active.`, { currentStatus: decision.from });
  }
  throw conflict(`An exam in status ${decision.from} cannot ${describe(event.type)}.`, { currentStatus: decision.from });
}

/** [what the caller may not do, what the record cannot do] per event, for the refusal messages. */
const wording: Record<string, [string, string]> = {
  'project.startSetup': ['start the set-up of', 'start set-up'],
  'project.activate': ['activate', 'be activated'],
  'project.close': ['close', 'be closed'],
  'project.reopen': ['reopen', 'be reopened'],
  'project.archive': ['archive', 'be archived'],
  'project.restore': ['restore', 'be restored'],
  'project.edit': ['edit', 'be edited'],
  'project.configure': ['change the configuration of', 'change its configuration'],
  'exam.schedule': ['schedule', 'be scheduled'],
  'exam.unschedule': ['unschedule', 'be unscheduled'],
  'exam.start': ['start', 'go live'],
  'exam.end': ['end', 'end'],
  'exam.publishResults': ['publish the results of', 'publish results'],
  'exam.withdrawResults': ['withdraw the results of', 'withdraw results'],
  'exam.close': ['close', 'be closed'],
  'exam.edit': ['edit', 'be edited'],
};

const verb = (type: string) => wording[type]?.[0] ?? type;
const describe = (type: string) => wording[type]?.[1] ?? type;

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23503';
}

export { AppError };

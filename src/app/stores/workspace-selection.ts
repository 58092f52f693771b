import { recordIdOf, type WorkspaceIds } from '#src/lib/http/headers.ts';
import type { SelectedRecord } from './selection-store.ts';
import { sliceStores, type SliceName } from './slices.ts';

/**
 * The workspace chain of EXAMS.md §1 as selections: project › exam › paper. Spec §4: changing
 * the project clears the exam, paper and lower selections; changing the exam clears what hangs
 * under it. Screens select through these functions, never by sending `select` to the lower
 * slices' parents directly, so the chain never points into two projects at once.
 */

/** Everything that belongs to one project (all but users, roles, tickets, centers and templates, which are tenant-wide). */
export const belowProject = [
  'itemWorkspace',
  'paperWorkspace',
  'exam',
  'registration',
  'paper',
  'section',
  'set',
  'delivery',
  'result',
  'season',
  'seasonPaper',
  'seasonSection',
  'seasonSet',
  'seasonCenter',
  'category',
  'categoryFile',
  'exportTemplate',
  'flow',
  'itemType',
  'examPermissions',
  'projectStatus',
] as const satisfies readonly SliceName[];

/** What belongs to one exam. */
export const belowExam = [
  'paperWorkspace',
  'registration',
  'paper',
  'section',
  'set',
  'delivery',
  'result',
  'seasonPaper',
  'seasonSection',
  'seasonSet',
  'examPermissions',
] as const satisfies readonly SliceName[];

/**
 * What belongs to one season (its scheduled papers, live sets, section settings and centers).
 * The season itself hangs under the project, beside the exams: it schedules papers of several
 * exams, so choosing another exam keeps it (docs/decisions/0236).
 */
export const belowSeason = ['seasonPaper', 'seasonSection', 'seasonSet', 'seasonCenter'] as const satisfies readonly SliceName[];

/** What belongs to one paper. */
export const belowPaper = ['section', 'set', 'delivery', 'seasonPaper', 'seasonSection', 'seasonSet'] as const satisfies readonly SliceName[];

function clear(names: readonly SliceName[]) {
  for (const name of names) (sliceStores[name] as unknown as { send(event: { type: string }): void }).send({ type: 'remove' });
}

const projectIdOf = (record: SelectedRecord | null) => recordIdOf(record, 'projectId');
const examIdOf = (record: SelectedRecord | null) => recordIdOf(record, 'examId');
const paperIdOf = (record: SelectedRecord | null) => recordIdOf(record, 'paperId');
const seasonIdOf = (record: SelectedRecord | null) => recordIdOf(record, 'seasonId');

export const selectedProject = () => sliceStores.project.getSnapshot().context.selected;
export const selectedExam = () => sliceStores.exam.getSnapshot().context.selected;
export const selectedPaper = () => sliceStores.paper.getSnapshot().context.selected;
export const selectedSeason = () => sliceStores.season.getSnapshot().context.selected;

/**
 * Selects a project (null removes it). Another project than the selected one clears every
 * lower selection; the same project again only refreshes the stored payload.
 */
export function selectProject(record: SelectedRecord | null) {
  const before = projectIdOf(selectedProject());
  sliceStores.project.trigger.select({ record });
  const after = projectIdOf(selectedProject());
  if (after === null || after !== before) clear(belowProject);
  const status = selectedProject()?.status;
  if (after !== null && typeof status === 'string') sliceStores.projectStatus.trigger.update({ value: status });
}

/** Selects an exam of the selected project (null removes it); another exam clears its papers and lower. */
export function selectExam(record: SelectedRecord | null) {
  const before = examIdOf(selectedExam());
  sliceStores.exam.trigger.select({ record });
  const after = examIdOf(selectedExam());
  if (after === null || after !== before) clear(belowExam);
}

/** Selects a paper of the selected exam (null removes it). */
export function selectPaper(record: SelectedRecord | null) {
  const before = paperIdOf(selectedPaper());
  sliceStores.paper.trigger.select({ record });
  const after = paperIdOf(selectedPaper());
  if (after === null || after !== before) clear(belowPaper);
}

/**
 * The season a user opened or changed, stored on update (spec §4); another season than the
 * selected one clears its scheduled paper, sets, sections and centers. A season of another
 * project than the selected one is not stored.
 */
export function updateSeason(record: SelectedRecord | null) {
  const before = seasonIdOf(selectedSeason());
  const project = projectIdOf(selectedProject());
  const owner = typeof record?.projectId === 'number' ? record.projectId : null;
  if (record && owner !== null && project !== null && owner !== project) return seasonFailed();
  sliceStores.season.trigger.update({ record });
  const after = seasonIdOf(selectedSeason());
  if (after === null || after !== before) clear(belowSeason);
}

/** A season that failed to load or update: cleared (spec §4), with what hangs under it. */
export function seasonFailed() {
  sliceStores.season.trigger.failure();
  clear(belowSeason);
}

/** The ids the HTTP layer puts in the context headers (src/lib/http/headers.ts). */
export function selectedWorkspaceIds(): WorkspaceIds {
  return { projectId: projectIdOf(selectedProject()), examId: examIdOf(selectedExam()), paperId: paperIdOf(selectedPaper()) };
}

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

/** What belongs to one paper. */
export const belowPaper = ['section', 'set', 'delivery', 'seasonPaper', 'seasonSection', 'seasonSet'] as const satisfies readonly SliceName[];

function clear(names: readonly SliceName[]) {
  for (const name of names) (sliceStores[name] as unknown as { send(event: { type: string }): void }).send({ type: 'remove' });
}

const projectIdOf = (record: SelectedRecord | null) => recordIdOf(record, 'projectId');
const examIdOf = (record: SelectedRecord | null) => recordIdOf(record, 'examId');
const paperIdOf = (record: SelectedRecord | null) => recordIdOf(record, 'paperId');

export const selectedProject = () => sliceStores.project.getSnapshot().context.selected;
export const selectedExam = () => sliceStores.exam.getSnapshot().context.selected;
export const selectedPaper = () => sliceStores.paper.getSnapshot().context.selected;

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

/** The ids the HTTP layer puts in the context headers (src/lib/http/headers.ts). */
export function selectedWorkspaceIds(): WorkspaceIds {
  return { projectId: projectIdOf(selectedProject()), examId: examIdOf(selectedExam()), paperId: paperIdOf(selectedPaper()) };
}

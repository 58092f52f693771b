import { examPermissionsStore } from '#src/app/stores/slices.ts';
import { selectExam } from '#src/app/stores/workspace-selection.ts';
import { examsApi } from './api/projects-api.ts';

/**
 * Selecting an exam, from the exams list or the workspace bar: store it, then fetch the caller's
 * exam permissions on it into the examPermissions slice (spec §4); a failure empties the slice.
 */
export async function chooseExam(exam: { examId: number } & Record<string, unknown>): Promise<void> {
  selectExam(exam);
  await loadExamPermissions();
}

/**
 * The caller's exam permissions on the selected exam, read again into the examPermissions slice.
 * That slice is not kept over a reload (spec §4 persists the selection, not the grants), so the
 * screens that act on an exam (papers) ask for it when they open.
 */
export async function loadExamPermissions(): Promise<void> {
  try {
    const mine = await examsApi.myPermissions();
    examPermissionsStore.trigger.update({ permissions: mine.permissions });
  } catch {
    examPermissionsStore.trigger.remove();
  }
}

import { examPermissionsStore } from '#src/app/stores/slices.ts';
import { selectExam } from '#src/app/stores/workspace-selection.ts';
import { examsApi } from './api/projects-api.ts';

/**
 * Selecting an exam, from the exams list or the workspace bar: store it, then fetch the caller's
 * exam permissions on it into the examPermissions slice (spec §4); a failure empties the slice.
 */
export async function chooseExam(exam: { examId: number } & Record<string, unknown>): Promise<void> {
  selectExam(exam);
  try {
    const mine = await examsApi.myPermissions();
    examPermissionsStore.trigger.update({ permissions: mine.permissions });
  } catch {
    examPermissionsStore.trigger.remove();
  }
}

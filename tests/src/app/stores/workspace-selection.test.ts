import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The workspace chain (src/app/stores/workspace-selection.ts) on fresh stores per test. */
async function load() {
  vi.resetModules();
  const state = await import('#src/app/stores/persisted-state.ts');
  const slices = await import('#src/app/stores/slices.ts');
  const selection = await import('#src/app/stores/workspace-selection.ts');
  return { ...state, ...slices, ...selection };
}

beforeEach(() => {
  localStorage.clear();
  window.__APP_CONFIG__ = { persistSecret: 'test-persist-secret-0123456789', productKey: 'exam-portal' };
});
afterEach(() => {
  delete window.__APP_CONFIG__;
});

describe('workspace selection', () => {
  it('should store the selected project and put its status in the project status slice', async () => {
    const app = await load();
    app.selectProject({ projectId: 4, code: 'BOARD10', status: 'Active' });
    expect(app.projectStore.getSnapshot().context.selected).toEqual({ projectId: 4, code: 'BOARD10', status: 'Active' });
    expect(app.projectStatusStore.getSnapshot().context.value).toBe('Active');
    expect(app.selectedWorkspaceIds()).toEqual({ projectId: 4, examId: null, paperId: null });
  });

  it('should clear the exam, paper and lower selections when the project changes, but keep the tenant-wide ones', async () => {
    const app = await load();
    app.selectProject({ projectId: 4 });
    app.selectExam({ examId: 9, name: 'Mathematics' });
    app.selectPaper({ paperId: 2 });
    app.categoryStore.trigger.select({ record: { categoryId: 5 } });
    app.seasonStore.trigger.select({ record: { seasonId: 1 } });
    app.examPermissionsStore.trigger.update({ permissions: ['ItemReviewer'] });
    app.examCenterStore.trigger.select({ record: { centerId: 3 } });
    app.projectTemplateStore.trigger.select({ record: { templateId: 1 } });
    expect(app.selectedWorkspaceIds()).toEqual({ projectId: 4, examId: 9, paperId: 2 });

    app.selectProject({ projectId: 5 });
    expect(app.examStore.getSnapshot().context.selected).toBeNull();
    expect(app.paperStore.getSnapshot().context.selected).toBeNull();
    expect(app.categoryStore.getSnapshot().context.selected).toBeNull();
    expect(app.seasonStore.getSnapshot().context.selected).toBeNull();
    expect(app.examPermissionsStore.getSnapshot().context.permissions).toEqual([]);
    // Centers and templates are tenant-wide (EXAMS.md §1): they stay.
    expect(app.examCenterStore.getSnapshot().context.selected).toEqual({ centerId: 3 });
    expect(app.projectTemplateStore.getSnapshot().context.selected).toEqual({ templateId: 1 });
    expect(app.selectedWorkspaceIds()).toEqual({ projectId: 5, examId: null, paperId: null });
  });

  it('should keep the exam when the same project is selected again with a fresher payload', async () => {
    const app = await load();
    app.selectProject({ projectId: 4, name: 'Old name' });
    app.selectExam({ examId: 9 });
    app.selectProject({ projectId: 4, name: 'New name' });
    expect(app.projectStore.getSnapshot().context.selected).toEqual({ projectId: 4, name: 'New name' });
    expect(app.examStore.getSnapshot().context.selected).toEqual({ examId: 9 });
  });

  it('should reset to null, and clear the lower selections, on remove or on a payload that cannot be stored', async () => {
    const app = await load();
    app.selectProject({ projectId: 4 });
    app.selectExam({ examId: 9 });
    app.selectPaper({ paperId: 2 });
    const cyclic: Record<string, unknown> = { examId: 10 };
    cyclic.self = cyclic;
    app.selectExam(cyclic);
    expect(app.examStore.getSnapshot().context.selected).toBeNull();
    expect(app.paperStore.getSnapshot().context.selected).toBeNull();
    expect(app.projectStore.getSnapshot().context.selected).toEqual({ projectId: 4 });

    app.selectExam({ examId: 9 });
    app.selectProject(null);
    expect(app.projectStore.getSnapshot().context.selected).toBeNull();
    expect(app.examStore.getSnapshot().context.selected).toBeNull();
    expect(app.selectedWorkspaceIds()).toEqual({ projectId: null, examId: null, paperId: null });
  });

  it('should keep the selected project and exam over a reload (persisted, encrypted)', async () => {
    const first = await load();
    await first.rehydrateClientState();
    first.selectProject({ projectId: 4, name: 'Class 10 Board' });
    first.selectExam({ examId: 9, name: 'Mathematics' });
    await first.clientPersistence.flush();
    expect(localStorage.getItem('exam-portal:state')).not.toContain('Mathematics');

    const second = await load();
    await second.rehydrateClientState();
    // Restoring is not "changing the project": the exam survives it.
    expect(second.selectedWorkspaceIds()).toEqual({ projectId: 4, examId: 9, paperId: null });
    expect(second.examStore.getSnapshot().context.selected).toEqual({ examId: 9, name: 'Mathematics' });
  });

  it('should store the opened season, clear what hangs under it when another is opened, keep it across exams and clear it on failure (0236)', async () => {
    const app = await load();
    app.selectProject({ projectId: 4 });
    app.selectExam({ examId: 9 });
    app.updateSeason({ seasonId: 1, projectId: 4, name: 'March 2027' });
    app.seasonCenterStore.trigger.select({ record: { seasonId: 1, centerId: 3 } });
    app.updateSeason({ seasonId: 1, projectId: 4, name: 'March 2027 sitting', version: 2 });
    // The same season updated: its center stays.
    expect(app.seasonCenterStore.getSnapshot().context.selected).toEqual({ seasonId: 1, centerId: 3 });
    expect(app.selectedSeason()).toMatchObject({ seasonId: 1, version: 2 });

    // A season schedules papers of several exams: another exam keeps it.
    app.selectExam({ examId: 10 });
    expect(app.selectedSeason()).toMatchObject({ seasonId: 1 });

    app.updateSeason({ seasonId: 2, projectId: 4 });
    expect(app.seasonCenterStore.getSnapshot().context.selected).toBeNull();
    expect(app.selectedSeason()).toEqual({ seasonId: 2, projectId: 4 });

    // A season of another project is never stored; a failure clears the season.
    app.updateSeason({ seasonId: 3, projectId: 99 });
    expect(app.selectedSeason()).toBeNull();
    app.updateSeason({ seasonId: 2, projectId: 4 });
    app.seasonPaperStore.trigger.select({ record: { seasonPaperId: 8 } });
    app.seasonFailed();
    expect(app.selectedSeason()).toBeNull();
    expect(app.seasonPaperStore.getSnapshot().context.selected).toBeNull();
    // No context header carries it (EXAMS.md §3 names ProjectId and ExamId only).
    expect(app.selectedWorkspaceIds()).toEqual({ projectId: 4, examId: 10, paperId: null });
  });
});

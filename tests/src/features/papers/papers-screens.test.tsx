import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ItemSummary } from '#machines/items/item-records.ts';
import type { ItemContent } from '#machines/items/item-schema.ts';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import { allPermissions } from '#machines/permissions.ts';
import { examPermissionsStore, paperStore, paperWorkspaceStore, sectionStore, setStore, userPermissionsStore } from '#src/app/stores/slices.ts';
import { selectExam, selectProject } from '#src/app/stores/workspace-selection.ts';
import type { BlueprintAnswer, PaperRecord, SectionRecord, SetList, SetWithItems } from '#src/features/papers/api/papers-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';

const papers = vi.hoisted(() => ({
  list: vi.fn(),
  get: vi.fn(),
  create: vi.fn(),
  edit: vi.fn(),
  remove: vi.fn(),
  addSection: vi.fn(),
  editSection: vi.fn(),
  removeSection: vi.fn(),
  pinnedItems: vi.fn(),
  blueprint: vi.fn(),
  transition: vi.fn(),
  history: vi.fn(),
  generateSets: vi.fn(),
  sets: vi.fn(),
  compare: vi.fn(),
  set: vi.fn(),
  verify: vi.fn(),
  pdf: vi.fn(),
  reorderSections: vi.fn(),
}));
const items = vi.hoisted(() => ({ search: vi.fn(), categoryFile: vi.fn(), score: vi.fn() }));
const projects = vi.hoisted(() => ({ categories: vi.fn(), itemTypes: vi.fn(), flows: vi.fn() }));
const exams = vi.hoisted(() => ({ myPermissions: vi.fn() }));
const saved = vi.hoisted(() => ({ saveFile: vi.fn() }));
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() }));

vi.mock('#src/features/papers/api/papers-api.ts', () => ({ papersApi: papers }));
vi.mock('#src/features/items/api/items-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/items/api/items-api.ts')>()),
  itemsApi: items,
}));
vi.mock('#src/features/projects/api/projects-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/projects/api/projects-api.ts')>()),
  projectsApi: projects,
  examsApi: exams,
}));
vi.mock('#src/lib/save-file.ts', () => saved);
vi.mock('#src/app/notifications/notify.ts', () => ({ notify: toasts }));

const { default: PapersPage } = await import('#src/features/papers/papers-page.tsx');
const { default: PaperPage } = await import('#src/features/papers/paper-page.tsx');
const { default: SetPreviewPage } = await import('#src/features/papers/set-preview-page.tsx');
const { contentInSetOrder } = await import('#src/features/papers/set-preview-page.tsx');
const { printChoices } = await import('#src/features/papers/components/sets-panel.tsx');

function section(overrides: Partial<SectionRecord> = {}): SectionRecord {
  return {
    sectionId: 11,
    order: 1,
    title: 'Section A',
    instructions: {},
    marksPerItem: 1,
    attemptAny: null,
    timeLimitMinutes: null,
    shuffleItems: true,
    shuffleOptions: true,
    rule: { kind: 'fixed', items: [101, 102] },
    itemCount: 2,
    marks: 2,
    version: 1,
    ...overrides,
  };
}

function paper(overrides: Partial<PaperRecord> = {}): PaperRecord {
  return {
    paperId: 5,
    examId: 8,
    code: 'MATH-UT-1',
    title: 'Unit test 1',
    durationMinutes: 40,
    totalMarks: 10,
    instructions: { en: 'Answer all.', hi: 'सभी उत्तर दें।' },
    navigation: 'free',
    calculator: false,
    mode: 'online',
    status: 'Draft',
    lockedAt: null,
    lockedBy: null,
    setCount: 0,
    sections: [],
    version: 3,
    createdAt: '2026-11-25T09:00:00.000Z',
    updatedAt: '2026-11-25T09:00:00.000Z',
    updatedBy: null,
    actions: ['paper.edit', 'paper.submit'],
    contentVisible: true,
    ...overrides,
  };
}

function summary(n: number, overrides: Partial<ItemSummary> = {}): ItemSummary {
  return {
    itemId: n,
    code: `ITM-${n}`,
    kind: 'singleChoice',
    itemTypeId: null,
    categoryId: 3,
    categoryName: 'Triangles',
    difficulty: 'medium',
    cognitiveLevel: null,
    status: 'Approved',
    languages: ['en', 'hi'],
    missingLanguages: [],
    stemText: `Question ${n}`,
    maxScore: 1,
    versionNumber: 1,
    approvedVersionId: 100 + n,
    author: null,
    version: 1,
    updatedOn: '2026-11-25T09:00:00.000Z',
    duplicate: null,
    ...overrides,
  };
}

const page = <T,>(rows: T[], query: PagedQuery) => ({
  data: rows,
  currentPage: query.pageNumber,
  totalPages: 1,
  totalCount: rows.length,
  pageSize: query.pageSize,
  hasPreviousPage: false,
  hasNextPage: false,
});

const cleanBlueprint: BlueprintAnswer = {
  declaredMarks: 10,
  computedMarks: 10,
  itemCount: 6,
  sections: [
    { sectionId: '11', title: 'Section A', count: 4, marks: 4, cells: [{ sectionId: '11', categoryId: '3', difficulty: 'easy', count: 4, marks: 4 }] },
    { sectionId: '12', title: 'Section B', count: 2, marks: 6, cells: [{ sectionId: '12', categoryId: '4', difficulty: 'medium', count: 2, marks: 6 }] },
  ],
  byCategory: [
    { categoryId: '3', categoryName: 'Quadratic equations', count: 4, marks: 4 },
    { categoryId: '4', categoryName: 'Triangles', count: 2, marks: 6 },
  ],
  byDifficulty: [
    { difficulty: 'easy', count: 4, marks: 4 },
    { difficulty: 'medium', count: 2, marks: 6 },
  ],
  languages: [
    { language: 'en', missing: [], drawPoolMissing: 0 },
    { language: 'gu', missing: ['101'], drawPoolMissing: 2 },
  ],
  warnings: [],
  blocking: 0,
};

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['papers', 'items', 'projects', 'users', 'ui', 'errors']);
});
beforeEach(() => {
  act(() => {
    userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
    selectProject({ projectId: 5, code: 'BOARD', name: 'Board 2027', languages: ['en', 'hi', 'gu'], status: 'Active' });
    selectExam({ examId: 8, name: 'Mathematics (Standard)' });
    examPermissionsStore.trigger.update({ permissions: ['PaperSetter', 'Moderator', 'ProjectAdmin'] });
  });
  projects.categories.mockResolvedValue([
    { categoryId: 3, parentId: null, name: 'Quadratic equations', sortOrder: 0, isRetired: false, fileCount: 0, version: 1 },
    { categoryId: 4, parentId: null, name: 'Triangles', sortOrder: 1, isRetired: false, fileCount: 0, version: 1 },
  ]);
  projects.itemTypes.mockResolvedValue([]);
  exams.myPermissions.mockResolvedValue({
    examId: 8,
    projectId: 5,
    paperId: null,
    permissions: ['PaperSetter', 'Moderator', 'ProjectAdmin'],
    tenantManager: false,
    actions: [],
  });
  projects.flows.mockResolvedValue([]);
  papers.pinnedItems.mockResolvedValue([
    {
      versionId: '101',
      itemId: '1',
      code: 'ITM-1',
      versionNumber: 1,
      categoryId: '3',
      difficulty: 'easy',
      status: 'Approved',
      approved: true,
      languages: ['en'],
      stemText: 'Question 1',
    },
    {
      versionId: '102',
      itemId: '2',
      code: 'ITM-2',
      versionNumber: 1,
      categoryId: '3',
      difficulty: 'easy',
      status: 'Approved',
      approved: true,
      languages: ['en'],
      stemText: 'Question 2',
    },
  ]);
  papers.history.mockResolvedValue([]);
  papers.blueprint.mockResolvedValue(cleanBlueprint);
  items.search.mockImplementation(async (query: PagedQuery) =>
    page([summary(1), summary(2), summary(3), summary(4, { approvedVersionId: null, status: 'Draft' })], query),
  );
});
afterEach(() => {
  vi.clearAllMocks();
  act(() => selectProject(null));
});

const paperRoutes = { '/workspace/papers': <PapersPage />, '/workspace/papers/:paperId': <PaperPage /> };

describe('the papers list', { timeout: 30_000 }, () => {
  it('should list the exam’s papers, filter them by text and status in the URL, and say when none match', async () => {
    papers.list.mockResolvedValue([paper(), paper({ paperId: 6, code: 'SCI-1', title: 'Science mock', status: 'Locked', setCount: 4 })]);
    const { user, location } = renderAt('/workspace/papers', paperRoutes);
    await screen.findByRole('heading', { level: 1, name: 'Papers of Mathematics (Standard)' });
    const table = await screen.findByTestId('papers-table');
    expect(within(table).getByTestId('paper-link-MATH-UT-1')).toHaveAttribute('href', '/workspace/papers/5');
    expect(within(table).getByTestId('paper-status-SCI-1')).toHaveTextContent('Locked');
    await user.type(screen.getByTestId('papers-search'), 'science');
    await waitFor(() => expect(within(screen.getByTestId('papers-table')).queryByTestId('paper-link-MATH-UT-1')).toBeNull());
    expect(location.current()).toBe('/workspace/papers?q=science');
    await user.clear(screen.getByTestId('papers-search'));
    await user.type(screen.getByTestId('papers-search'), 'nothing like it');
    expect(await screen.findByText('No paper matches')).toBeInTheDocument();
  });

  it('should say there are none yet, and show a failure with a retry', async () => {
    papers.list.mockRejectedValueOnce({ statusCode: 500, messages: ['Database unavailable'] }).mockResolvedValueOnce([]);
    const { user } = renderAt('/workspace/papers', paperRoutes);
    const retry = await screen.findByRole('button', { name: /retry|try again/i });
    await user.click(retry);
    expect(await screen.findByText('No papers yet')).toBeInTheDocument();
    expect(papers.list).toHaveBeenCalledTimes(2);
  });

  it('should offer "New paper" only to a paper setter or project admin, from the exam permissions read on opening', async () => {
    papers.list.mockResolvedValue([]);
    exams.myPermissions.mockResolvedValue({ examId: 8, projectId: 5, paperId: null, permissions: ['Moderator'], tenantManager: false, actions: [] });
    renderAt('/workspace/papers', paperRoutes);
    expect(await screen.findByText('A paper setter of this exam creates its papers.')).toBeInTheDocument();
    expect(screen.queryByTestId('new-paper')).toBeNull();
    expect(exams.myPermissions).toHaveBeenCalledTimes(1);
  });

  it('should ask for an exam when none is selected', async () => {
    act(() => selectExam(null));
    renderAt('/workspace/papers', paperRoutes);
    expect(await screen.findByTestId('choose-exam')).toBeInTheDocument();
    expect(papers.list).not.toHaveBeenCalled();
  });

  it('should create a paper with its languages’ instructions, check the fields first, and open it', async () => {
    papers.list.mockResolvedValue([]);
    papers.create.mockResolvedValue(paper({ paperId: 9, code: 'NEW-1' }));
    papers.get.mockResolvedValue(paper({ paperId: 9, code: 'NEW-1' }));
    const { user, location } = renderAt('/workspace/papers', paperRoutes);
    await user.click(await screen.findByTestId('new-paper'));
    const dialog = await screen.findByTestId('paper-form');
    await user.clear(within(dialog).getByTestId('paper-marks'));
    await user.click(within(dialog).getByTestId('paper-form-save'));
    expect(await within(dialog).findByText(/Use 1–32 letters/)).toBeInTheDocument();
    expect(within(dialog).getByText('Give total marks greater than 0.')).toBeInTheDocument();
    expect(papers.create).not.toHaveBeenCalled();
    await user.type(within(dialog).getByTestId('paper-code'), 'NEW-1');
    await user.type(within(dialog).getByTestId('paper-title'), 'New paper');
    await user.type(within(dialog).getByTestId('paper-marks'), '80');
    // Only the project's languages offer instructions (en, hi, gu).
    expect(within(dialog).queryByTestId('paper-instructions-fr')).toBeNull();
    await user.type(within(dialog).getByTestId('paper-instructions-gu'), 'બધા પ્રશ્નો');
    await user.click(within(dialog).getByText('Offline (on paper)'));
    await user.click(within(dialog).getByTestId('paper-form-save'));
    await waitFor(() => expect(location.current()).toBe('/workspace/papers/9'));
    expect(papers.create).toHaveBeenCalledWith({
      code: 'NEW-1',
      title: 'New paper',
      durationMinutes: 180,
      totalMarks: 80,
      instructions: { gu: 'બધા પ્રશ્નો' },
      navigation: 'free',
      calculator: false,
      mode: 'offline',
    });
  });

  it('should show the server’s refusal of a duplicate code in the dialog', async () => {
    papers.list.mockResolvedValue([]);
    papers.create.mockRejectedValue({ statusCode: 409, messages: ['A paper with the code "X" already exists in this exam.'] });
    const { user } = renderAt('/workspace/papers', paperRoutes);
    await user.click(await screen.findByTestId('new-paper'));
    const dialog = await screen.findByTestId('paper-form');
    await user.type(within(dialog).getByTestId('paper-code'), 'X');
    await user.type(within(dialog).getByTestId('paper-title'), 'Again');
    await user.click(within(dialog).getByTestId('paper-form-save'));
    expect(await within(dialog).findByTestId('paper-form-error')).toHaveTextContent('already exists in this exam');
  });
});

describe('the paper builder', { timeout: 30_000 }, () => {
  it('should select the paper, add fixed items from the bank, reorder them by keyboard and by drag, and save them in that order', async () => {
    papers.get.mockResolvedValue(paper());
    papers.addSection.mockImplementation(async (_id: number, body: { rule: { items: number[] } }) =>
      paper({ version: 4, sections: [section({ rule: { kind: 'fixed', items: body.rule.items }, itemCount: body.rule.items.length })] }),
    );
    const { user } = renderAt('/workspace/papers/5', paperRoutes);
    await screen.findByRole('heading', { level: 1, name: 'MATH-UT-1 · Unit test 1' });
    expect(paperStore.getSnapshot().context.selected).toMatchObject({ paperId: 5, code: 'MATH-UT-1' });
    await user.click(screen.getByRole('button', { name: 'Add section' }));
    const dialog = await screen.findByTestId('section-editor');
    await user.type(within(dialog).getByTestId('section-title'), 'Section A');
    const bank = within(dialog).getByTestId('bank-search');
    await within(bank).findByTestId('bank-add-ITM-1');
    // An item without an approved version cannot be pinned.
    expect(within(bank).getByTestId('bank-add-ITM-4')).toBeDisabled();
    for (const n of [1, 2, 3]) await user.click(within(bank).getByTestId(`bank-add-ITM-${n}`));
    expect(within(bank).getByTestId('bank-add-ITM-1')).toBeDisabled();
    const order = () =>
      within(dialog)
        .getAllByTestId(/^fixed-item-/)
        .map((row) => row.textContent?.match(/ITM-\d/)?.[0]);
    expect(order()).toEqual(['ITM-1', 'ITM-2', 'ITM-3']);

    // Keyboard: the third item's handle, arrow up twice; the focus stays on it.
    within(dialog).getByTestId('move-3').focus();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(order()).toEqual(['ITM-1', 'ITM-3', 'ITM-2']));
    await waitFor(() => expect(within(dialog).getByTestId('move-2')).toHaveFocus());
    expect(within(dialog).getByTestId('reorder-announcement')).toHaveTextContent('ITM-3 · Question 3 moved to position 2 of 3.');
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(order()).toEqual(['ITM-3', 'ITM-1', 'ITM-2']));
    await user.keyboard('{End}');
    await waitFor(() => expect(order()).toEqual(['ITM-1', 'ITM-2', 'ITM-3']));

    // Drag: the first row dropped on the last.
    const data = { effectAllowed: '', dropEffect: '', setData: vi.fn(), getData: vi.fn() };
    fireEvent.dragStart(within(dialog).getByTestId('fixed-item-1'), { dataTransfer: data });
    fireEvent.dragOver(within(dialog).getByTestId('fixed-item-3'), { dataTransfer: data });
    fireEvent.drop(within(dialog).getByTestId('fixed-item-3'), { dataTransfer: data });
    await waitFor(() => expect(order()).toEqual(['ITM-2', 'ITM-3', 'ITM-1']));

    await user.click(within(dialog).getByTestId('section-save'));
    await waitFor(() => expect(screen.queryByTestId('section-editor')).toBeNull());
    expect(papers.addSection).toHaveBeenCalledWith(
      5,
      expect.objectContaining({ title: 'Section A', marksPerItem: 1, rule: { kind: 'fixed', items: [102, 103, 101] } }),
    );
    expect(toasts.success).toHaveBeenCalledWith('Section saved.');
    // The paper open in the builder and the section just saved are their slices (spec §4).
    expect(paperWorkspaceStore.getSnapshot().context.selected).toMatchObject({ paperId: 5, version: 4, sectionCount: 1 });
    expect(sectionStore.getSnapshot().context.selected).toMatchObject({ paperId: 5, sectionId: 11, title: 'Section A' });
  });

  it('should build a draw section by category and difficulty and refuse to save an empty one', async () => {
    papers.get.mockResolvedValue(paper());
    papers.addSection.mockResolvedValue(paper({ version: 4 }));
    const { user } = renderAt('/workspace/papers/5', paperRoutes);
    await user.click(await screen.findByRole('button', { name: 'Add section' }));
    const dialog = await screen.findByTestId('section-editor');
    await user.type(within(dialog).getByTestId('section-title'), 'Section B');
    await user.click(within(dialog).getByText('Draw items by category and difficulty'));
    await user.click(within(dialog).getByTestId('section-save'));
    expect(await within(dialog).findByTestId('section-problems')).toHaveTextContent('A section needs at least one item.');
    expect(papers.addSection).not.toHaveBeenCalled();
    const { chooseOption } = await import('#tests/src/support/select.ts');
    await chooseOption(user, within(within(dialog).getByTestId('draw-category')).getByRole('combobox'), 'Triangles');
    await chooseOption(user, within(within(dialog).getByTestId('draw-difficulty')).getByRole('combobox'), 'Medium');
    await user.click(within(dialog).getByTestId('draw-add'));
    const count = within(dialog).getByTestId('draw-count-1');
    await user.clear(count);
    await user.type(count, '2');
    await user.clear(within(dialog).getByTestId('section-marks'));
    await user.type(within(dialog).getByTestId('section-marks'), '3');
    expect(within(dialog).getByTestId('section-summary')).toHaveTextContent('2 items per set, 6 marks to earn.');
    await user.click(within(dialog).getByTestId('section-save'));
    await waitFor(() =>
      expect(papers.addSection).toHaveBeenCalledWith(
        5,
        expect.objectContaining({ marksPerItem: 3, rule: { kind: 'draw', draws: [{ categoryId: 4, difficulty: 'medium', count: 2 }] } }),
      ),
    );
  });

  it('should reorder the sections with their move buttons, keep the focus on the moved section, and list a draw section’s rules', async () => {
    const draw = section({
      sectionId: 12,
      order: 2,
      title: 'Section B',
      marksPerItem: 3,
      rule: { kind: 'draw', draws: [{ categoryId: 4, difficulty: 'medium', count: 2 }] },
      itemCount: 2,
      marks: 6,
    });
    const fixed = section();
    papers.get.mockResolvedValue(paper({ sections: [fixed, draw] }));
    papers.reorderSections.mockResolvedValue(
      paper({
        version: 4,
        sections: [
          { ...draw, order: 1 },
          { ...fixed, order: 2 },
        ],
      }),
    );
    const { user } = renderAt('/workspace/papers/5', paperRoutes);
    const second = await screen.findByTestId('section-2');
    expect(within(second).getByTestId('section-draws-2')).toHaveTextContent('Triangles · Medium: 2 items drawn for each set');
    expect(screen.getByTestId('move-section-up-1')).toBeDisabled();
    expect(screen.getByTestId('move-section-down-2')).toBeDisabled();
    await user.click(within(second).getByRole('button', { name: 'Move up: section Section B' }));
    expect(papers.reorderSections).toHaveBeenCalledWith(5, [12, 11], 3);
    await waitFor(() => expect(within(screen.getByTestId('section-1')).getByRole('heading')).toHaveTextContent('Section B'));
    // At the top its "up" is disabled: the focus moves to its "down".
    await waitFor(() => expect(screen.getByTestId('move-section-down-1')).toHaveFocus());
    expect(toasts.success).toHaveBeenCalledWith('Section Section B moved to position 1 of 2.');

    // A paper that moved on meanwhile: the refusal is the paper's conflict banner.
    papers.reorderSections.mockRejectedValueOnce({
      statusCode: 409,
      messages: ['This paper is Locked: it cannot be edited until a project admin unlocks it.'],
      currentStatus: 'Locked',
    });
    await user.click(screen.getByTestId('move-section-down-1'));
    expect(await screen.findByTestId('paper-conflict-locked')).toHaveTextContent('cannot be edited until a project admin unlocks it');
  });

  it('should show someone who may not see the paper’s content its outline and history only', async () => {
    papers.get.mockResolvedValue(paper({ status: 'Locked', actions: [], contentVisible: false, sections: [section({ rule: { kind: 'fixed', items: [] } })] }));
    renderAt('/workspace/papers/5?tab=sets', paperRoutes);
    expect(await screen.findByTestId('paper-content-hidden')).toHaveTextContent(
      'Its items, blueprint and sets are seen only by the exam’s paper setters, moderators and project admins.',
    );
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Sections', 'History']);
    // Asked for the sets, it opens on the outline instead.
    expect(screen.getByRole('tab', { name: 'Sections' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('section-1')).toHaveTextContent('2 items × 1 marks = 2 marks');
    expect(papers.pinnedItems).not.toHaveBeenCalled();
    expect(papers.sets).not.toHaveBeenCalled();
    expect(papers.blueprint).not.toHaveBeenCalled();
  });

  it('should say a save met a locked paper, turn the editor read-only and reload the paper', async () => {
    papers.get
      .mockResolvedValueOnce(paper({ sections: [section()] }))
      .mockResolvedValue(paper({ status: 'Locked', actions: ['paper.unlock'], sections: [section()] }));
    papers.editSection.mockRejectedValue({
      statusCode: 409,
      messages: ['This paper is Locked: it cannot be edited until a project admin unlocks it.'],
      currentStatus: 'Locked',
    });
    const { user } = renderAt('/workspace/papers/5', paperRoutes);
    await user.click(await screen.findByTestId('edit-section-1'));
    const dialog = await screen.findByTestId('section-editor');
    await within(dialog).findByText('ITM-1 · Question 1');
    await user.type(within(dialog).getByTestId('section-title'), ' (revised)');
    await user.click(within(dialog).getByTestId('section-save'));
    expect(await within(dialog).findByTestId('section-failure-locked')).toHaveTextContent('no longer a draft');
    expect(within(dialog).getByTestId('section-save')).toBeDisabled();
    expect(papers.editSection).toHaveBeenCalledWith(5, 11, expect.objectContaining({ title: 'Section A (revised)', version: 1 }));
    await waitFor(() => expect(papers.get).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.getByTestId('paper-status')).toHaveTextContent('Locked'));
  });

  it('should say someone saved first (stale) and keep the draft', async () => {
    papers.get.mockResolvedValue(paper({ sections: [section()] }));
    papers.editSection.mockRejectedValue({ statusCode: 409, messages: ['This section was changed by Ravi at 10:00 (version 2).'], currentVersion: 2 });
    const { user } = renderAt('/workspace/papers/5', paperRoutes);
    await user.click(await screen.findByTestId('edit-section-1'));
    const dialog = await screen.findByTestId('section-editor');
    await user.clear(within(dialog).getByTestId('section-marks'));
    await user.type(within(dialog).getByTestId('section-marks'), '2');
    await user.click(within(dialog).getByTestId('section-save'));
    const failure = await within(dialog).findByTestId('section-failure-stale');
    expect(failure).toHaveTextContent('Someone saved this paper first');
    expect(failure).toHaveTextContent('changed by Ravi');
    expect(within(dialog).getByTestId('section-marks')).toHaveValue('2');
    expect(within(dialog).getByTestId('section-save')).toBeEnabled();
  });
});

describe('the paper flow and blueprint', { timeout: 30_000 }, () => {
  it('should show the blueprint with coverage and translated warnings, blocking ones first', async () => {
    papers.get.mockResolvedValue(paper({ sections: [section()] }));
    papers.blueprint.mockResolvedValue({
      ...cleanBlueprint,
      computedMarks: 8,
      warnings: [
        { code: 'languageMissing', blocking: false, language: 'gu', count: 1, message: 'x' },
        { code: 'totalMismatch', blocking: true, declared: 10, computed: 8, message: 'x' },
        { code: 'notApproved', blocking: true, sectionId: '11', versionId: '101', message: 'x' },
      ],
      blocking: 2,
    });
    const { user, location } = renderAt('/workspace/papers/5', paperRoutes);
    await user.click(await screen.findByRole('tab', { name: 'Blueprint' }));
    const warnings = await screen.findByTestId('blueprint-warnings');
    expect(location.current()).toBe('/workspace/papers/5?tab=blueprint');
    expect(
      within(warnings)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('data-code')),
    ).toEqual(['totalMismatch', 'notApproved', 'languageMissing']);
    expect(warnings).toHaveTextContent('The sections add up to 8 marks; the paper declares 10.');
    expect(warnings).toHaveTextContent('Section Section A pins ITM-1 · Question 1, which is not approved.');
    expect(screen.getByTestId('blueprint-totals')).toHaveTextContent('2 problems stop the lock');
    expect(screen.getByTestId('coverage-gu')).toHaveTextContent('1 fixed item lacks it (ITM-1 · Question 1). 2 items of the draw pools lack it.');
    expect(within(screen.getByTestId('blueprint-matrix')).getByText('4 · 4 marks')).toBeInTheDocument();
  });

  it('should ask a reason to unlock, send it, and treat a 409 as "the paper moved on"', async () => {
    const locked = paper({ status: 'Locked', actions: ['paper.unlock', 'paper.generateSets', 'paper.publish'], setCount: 4 });
    papers.get.mockResolvedValueOnce(locked).mockResolvedValue(paper({ status: 'Published', actions: [] }));
    papers.sets.mockResolvedValue({ sets: [], equivalence: { equivalent: true, differences: [] } });
    papers.compare.mockResolvedValue({ letters: [], equivalence: { equivalent: true, differences: [] }, rows: [] });
    papers.transition.mockRejectedValue({ statusCode: 409, messages: ['A paper in status Published cannot be unlocked.'], currentStatus: 'Published' });
    const { user } = renderAt('/workspace/papers/5', paperRoutes);
    await user.click(await screen.findByTestId('flow-unlock'));
    const dialog = await screen.findByTestId('flow-reason');
    expect(within(dialog).getByTestId('flow-reason-confirm')).toBeDisabled();
    await user.type(within(dialog).getByTestId('flow-reason-text'), 'Typo in question 12');
    await user.click(within(dialog).getByTestId('flow-reason-confirm'));
    expect(papers.transition).toHaveBeenCalledWith(5, 'paper.unlock', 3, 'Typo in question 12');
    const banner = await screen.findByTestId('paper-conflict-locked');
    expect(banner).toHaveTextContent('The paper is now Published: your change was not saved.');
    await waitFor(() => expect(screen.getByTestId('paper-status')).toHaveTextContent('Published'));
  });

  it('should list a lock stopped by the blueprint with its problems', async () => {
    papers.get.mockResolvedValue(paper({ status: 'Review', actions: ['paper.requestChanges', 'paper.lock'] }));
    papers.transition.mockRejectedValue({
      statusCode: 400,
      messages: ['The paper cannot be locked until its blueprint has no blocking problem:', 'Section A has no items.'],
    });
    const { user } = renderAt('/workspace/papers/5', paperRoutes);
    await user.click(await screen.findByTestId('flow-lock'));
    const refusal = await screen.findByTestId('flow-refusal');
    expect(refusal).toHaveTextContent('Section A has no items.');
    expect(screen.queryByTestId('edit-paper')).toBeNull();
  });
});

describe('sets, preview and print', { timeout: 30_000 }, () => {
  const set = (letter: string): SetList['sets'][number] => ({
    letter,
    seed: `seed${letter}`.padEnd(24, '0'),
    sha256: 'ab'.repeat(32),
    createdAt: '2026-11-25T09:00:00.000Z',
    set: {
      letter,
      seed: 'x',
      sections: [
        {
          sectionId: '11',
          items: [
            { number: 1, versionId: '101', itemId: '1', categoryId: '3', difficulty: 'easy', marks: 1, options: ['C', 'A', 'B', 'D'], left: null, right: null },
          ],
        },
      ],
    },
  });

  it('should generate any number of sets, show seeds, equivalence and where items sit, and say when printing is unavailable', async () => {
    const locked = paper({ status: 'Locked', actions: ['paper.unlock', 'paper.generateSets', 'paper.publish'] });
    papers.get.mockResolvedValue(locked);
    papers.sets.mockResolvedValueOnce({ sets: [], equivalence: { equivalent: true, differences: [] } }).mockResolvedValue({
      sets: ['A', 'B', 'C'].map(set),
      equivalence: { equivalent: true, differences: [] },
    });
    papers.compare.mockResolvedValue({
      letters: ['A', 'B', 'C'],
      equivalence: { equivalent: true, differences: [] },
      rows: [{ versionId: '101', itemId: '1', sectionId: '11', positions: { A: 1, B: 3, C: null } }],
    });
    papers.generateSets.mockResolvedValue({ sets: ['A', 'B', 'C'].map(set), equivalence: { equivalent: true, differences: [] } });
    papers.verify.mockResolvedValue({ letter: 'B', seed: 'x', identical: true, sha256: 'a', regeneratedSha256: 'a' });
    papers.pdf.mockRejectedValueOnce(
      new Blob(
        [JSON.stringify({ statusCode: 503, messages: ['PDF printing is not available on this server: no Chromium at /usr/bin/chromium (set CHROME_PATH).'] })],
        {
          type: 'application/json',
        },
      ),
    );
    papers.pdf.mockResolvedValueOnce({ blob: new Blob(['%PDF-1.7']), filename: 'MATH-UT-1-set-B-answer-key.pdf', contentType: 'application/pdf' });
    const { user } = renderAt('/workspace/papers/5?tab=sets', paperRoutes);
    expect(await screen.findByText('No sets yet')).toBeInTheDocument();
    const count = screen.getByTestId('sets-count');
    await user.clear(count);
    await user.type(count, '27');
    expect(screen.getByTestId('sets-generate')).toBeDisabled();
    await user.clear(count);
    await user.type(count, '3');
    // A set held from earlier is gone once new sets replace it.
    setStore.trigger.select({ record: { paperId: 5, letter: 'A', seed: 'old' } });
    await user.click(screen.getByTestId('sets-generate'));
    expect(papers.generateSets).toHaveBeenCalledWith(5, 3);
    await screen.findByTestId('set-row-C');
    expect(setStore.getSnapshot().context.selected).toBeNull();
    expect(screen.getByTestId('set-seed-A')).toHaveTextContent('seedA');
    expect(screen.getByTestId('sets-equivalence')).toHaveTextContent('All sets are equivalent');
    const compare = screen.getByTestId('sets-compare');
    expect(within(compare).getAllByRole('row')[1]).toHaveTextContent('ITM-1 · Question 1Q1Q3—');
    expect(screen.getByTestId('set-preview-C')).toHaveAttribute('href', '/workspace/papers/5/sets/C');

    await user.click(screen.getByTestId('set-verify-B'));
    expect(await screen.findByTestId('set-identical-B')).toHaveTextContent('Byte-identical');

    await user.click(screen.getByTestId('set-pdf-B'));
    const failure = await screen.findByTestId('print-failure');
    expect(failure).toHaveTextContent('Printing is unavailable on this server.');
    expect(failure).toHaveTextContent('no Chromium');
    expect(papers.pdf).toHaveBeenCalledWith(5, 'B', { part: 'paper', languages: ['en', 'hi'] });
    await user.click(screen.getByTestId('set-key-B'));
    await waitFor(() => expect(saved.saveFile).toHaveBeenCalledWith(expect.any(Blob), 'MATH-UT-1-set-B-answer-key.pdf'));
    expect(screen.queryByTestId('print-failure')).toBeNull();
  });

  it('should offer English with each other project language for print', () => {
    expect(printChoices(['en', 'hi', 'gu'])).toEqual([['en', 'hi'], ['en', 'gu'], ['en']]);
    expect(printChoices(['en'])).toEqual([['en']]);
  });

  it('should preview a set as the candidate sees it, in the chosen language, options in the set’s order', async () => {
    const content: ItemContent = {
      kind: 'singleChoice',
      variants: {
        en: { stem: '<p>Roots of x² − 5x + 6?</p>', choices: { A: '2 and 3', B: '1 and 6', C: '−2 and −3', D: 'None of these' } },
        hi: { stem: '<p>x² − 5x + 6 के मूल?</p>', choices: { A: '2 और 3', B: '1 और 6', C: '−2 और −3', D: 'इनमें से कोई नहीं' } },
      },
      marking: { correct: 1, wrong: 0, unanswered: 0 },
      media: [],
      options: ['A', 'B', 'C', 'D'].map((id, i) => ({ id, keepLast: i === 3 })),
      correct: 'A',
      shuffle: true,
    };
    const answer: SetWithItems = {
      set: set('C'),
      items: { '101': content },
      sections: [{ sectionId: '11', title: 'Section A', instructions: { hi: 'खंड क' }, attemptAny: null, timeLimitMinutes: 10 }],
    };
    papers.get.mockResolvedValue(paper({ status: 'Locked' }));
    papers.set.mockResolvedValue(answer);
    const { user, location } = renderAt('/workspace/papers/5/sets/C', { '/workspace/papers/:paperId/sets/:letter': <SetPreviewPage /> });
    await screen.findByRole('heading', { level: 1, name: 'Set C of MATH-UT-1' });
    expect(papers.set).toHaveBeenCalledWith(5, 'C');
    await waitFor(() => expect(setStore.getSnapshot().context.selected).toMatchObject({ paperId: 5, letter: 'C' }));
    const { chooseOption } = await import('#tests/src/support/select.ts');
    await chooseOption(user, within(screen.getByTestId('set-preview-language')).getByRole('combobox'), 'Hindi');
    await waitFor(() => expect(location.current()).toBe('/workspace/papers/5/sets/C?lang=hi'));
    const preview = screen.getByTestId('set-preview');
    expect(preview).toHaveAttribute('lang', 'hi');
    expect(within(preview).getByTestId('question-1-stem')).toHaveTextContent('x² − 5x + 6 के मूल?');
    expect(preview).toHaveTextContent('सभी उत्तर दें।');
    expect(preview).toHaveTextContent('खंड क');
    // The preview's own words are the candidate's language too, not the setter's interface.
    expect(preview).toHaveTextContent('इस खंड की समय सीमा: 10 मिनट।');
    expect(within(preview).getByTestId('question-1')).toHaveTextContent('प्रश्न 1');
    expect(preview).not.toHaveTextContent('Question 1');
    // The page around it stays in the interface's language.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Set C of MATH-UT-1');
    const radios = within(preview).getAllByRole('radio');
    ['−2 और −3', '2 और 3', '1 और 6', 'इनमें से कोई नहीं'].forEach((name, index) => expect(radios[index]).toHaveAccessibleName(name));
    expect(contentInSetOrder(content, { options: ['D', 'C', 'B', 'A'], left: null, right: null })).toMatchObject({
      options: [{ id: 'D' }, { id: 'C' }, { id: 'B' }, { id: 'A' }],
    });
  });
});

import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { type ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { projectActions } from '#machines/exams/project-status.machine.ts';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import { allPermissions, P, type Permission } from '#machines/permissions.ts';
import {
  categoryFileStore,
  categoryStore,
  examPermissionsStore,
  flowStore,
  itemTypeStore,
  projectTemplateStore,
  userPermissionsStore,
} from '#src/app/stores/slices.ts';
import { selectExam, selectProject } from '#src/app/stores/workspace-selection.ts';
import type { Flow, ItemType, ProjectDetail, ProjectSummary } from '#src/features/projects/api/projects-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { chooseMenuItem, closeMenu, openMenu, readMenuItems } from '#tests/src/support/menus.ts';
import { chooseOption } from '#tests/src/support/select.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';

/**
 * The workspace's editing screens (issue 15): the stepper's steps saved with validation and
 * optimistic concurrency (a 409 keeps the input), archive and restore as the project machine
 * allows them, and the workspace menu reaching every slice.
 */
const api = vi.hoisted(() => ({
  search: vi.fn(),
  get: vi.fn(),
  edit: vi.fn(),
  transition: vi.fn(),
  templates: vi.fn(),
  itemTypes: vi.fn(),
  createItemType: vi.fn(),
  editItemType: vi.fn(),
  categories: vi.fn(),
  createCategory: vi.fn(),
  editCategory: vi.fn(),
  moveCategory: vi.fn(),
  deleteCategory: vi.fn(),
  flows: vi.fn(),
  createFlow: vi.fn(),
  editFlow: vi.fn(),
  previewFlow: vi.fn(),
  grants: vi.fn(),
  saveTemplate: vi.fn(),
  deleteTemplate: vi.fn(),
  categoryFiles: vi.fn(),
  uploadCategoryFiles: vi.fn(),
  downloadCategoryFile: vi.fn(),
  deleteCategoryFile: vi.fn(),
}));
const saved = vi.hoisted(() => ({ saveFile: vi.fn() }));
vi.mock('#src/lib/save-file.ts', () => saved);
const examsMock = vi.hoisted(() => ({ search: vi.fn(), myPermissions: vi.fn(), transition: vi.fn(), create: vi.fn() }));
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn() }));
vi.mock('#src/features/projects/api/projects-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/projects/api/projects-api.ts')>()),
  projectsApi: api,
  examsApi: examsMock,
}));
vi.mock('#src/app/notifications/notify.ts', () => ({ notify: toasts }));
const papersMock = vi.hoisted(() => ({ list: vi.fn() }));
vi.mock('#src/features/papers/api/papers-api.ts', () => ({ papersApi: papersMock }));

const { BasicsEditor } = await import('#src/features/projects/components/basics-editor.tsx');
const { ItemTypesEditor, checkItemTypeDraft } = await import('#src/features/projects/components/item-types-editor.tsx');
const { FlowsEditor, stageIdFor } = await import('#src/features/projects/components/flows-editor.tsx');
const { CategoriesEditor, depthsOf, neighbourPlace } = await import('#src/features/projects/components/categories-editor.tsx');
const { default: ProjectsPage } = await import('#src/features/projects/projects-page.tsx');
const pages = await import('#src/features/projects/workspace-pages.tsx');
const { WorkspaceBar } = await import('#src/features/projects/workspace-bar.tsx');
const { default: ExamsPage } = await import('#src/features/projects/exams-page.tsx');
const { SaveTemplateDialog } = await import('#src/features/projects/components/save-template-dialog.tsx');
const { workspaceSlices } = await import('#src/features/projects/workspace-slices.ts');

const detail = (overrides: Partial<ProjectDetail> = {}): ProjectDetail => ({
  projectId: 5,
  code: 'MED-1',
  name: 'Medical mock',
  description: '',
  instituteId: null,
  languages: ['en', 'hi'],
  status: 'Setup',
  templateId: null,
  examCount: 0,
  version: 3,
  createdOn: '2026-11-20T10:00:00.000Z',
  updatedOn: '2026-11-20T10:00:00.000Z',
  updatedBy: null,
  setup: { itemTypes: 1, categories: 1, flows: 1, team: 1, exams: 0 },
  actions: [],
  myPermissions: ['ProjectAdmin'],
  canConfigure: true,
  ...overrides,
});
/** A listed project with the actions the server gives its caller (decision 0167): a tenant manager's unless given. */
const summary = (n: number, status: ProjectSummary['status'], actions: string[] = projectActions(status, { tenantManager: true })): ProjectSummary => ({
  ...detail(),
  projectId: n,
  code: `P-${n}`,
  name: `Project ${n}`,
  status,
  actions,
});
const stale = {
  statusCode: 409,
  messages: ['This project was changed by Asha Rao at 2026-11-25T09:00:00.000Z (version 4; your edit was made on version 3).'],
  currentVersion: 4,
  changedBy: { userId: 'u-1', name: 'Asha Rao' },
  changedAt: '2026-11-25T09:00:00.000Z',
};
const mcq: ItemType = {
  itemTypeId: 11,
  name: 'MCQ +4/-1',
  kind: 'singleChoice',
  settings: { shuffle: true },
  marking: { correct: 4, wrong: -1, unanswered: 0 },
  isActive: true,
  sortOrder: 0,
  version: 2,
};
const essay: ItemType = {
  itemTypeId: 12,
  name: 'Long answer',
  kind: 'essay',
  settings: { wordLimit: 250 },
  marking: { correct: 5, wrong: 0, unanswered: 0 },
  isActive: true,
  sortOrder: 1,
  version: 1,
};
const flow: Flow = {
  flowId: 21,
  name: 'Item review',
  recordKind: 'item',
  isActive: true,
  states: [],
  version: 6,
  definition: {
    stages: [
      { id: 'expert', name: 'Subject expert', permission: 'ItemReviewer' },
      { id: 'approve', name: 'Approver', permission: 'ProjectAdmin' },
    ],
    submitPermission: 'ItemAuthor',
    retirePermission: 'ProjectAdmin',
  },
};
const page = <T,>(rows: T[], query: PagedQuery) => ({
  data: rows,
  currentPage: query.pageNumber,
  totalPages: 1,
  totalCount: rows.length,
  pageSize: query.pageSize,
  hasPreviousPage: false,
  hasNextPage: false,
});
const allow = (permissions: readonly Permission[]) => act(() => userPermissionsStore.trigger.update({ permissions: [...permissions] }));

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['projects', 'users', 'ui', 'errors', 'common']);
});
beforeEach(() => {
  allow(allPermissions);
  act(() => selectProject(null));
});
afterEach(() => vi.clearAllMocks());

const renderNode = (node: ReactNode) => renderAt('/', { '/': node });

describe('the basics step', { timeout: 20_000 }, () => {
  it('should save code, name, description and languages on the version it was loaded at', async () => {
    const onSaved = vi.fn();
    api.edit.mockResolvedValue(detail({ name: 'Medical mock 2027', version: 4 }));
    const { user } = renderNode(<BasicsEditor project={detail()} onSaved={onSaved} onReload={vi.fn()} />);
    const form = screen.getByTestId('basics-form');
    await user.clear(within(form).getByLabelText(/^Name/));
    await user.type(within(form).getByLabelText(/^Name/), 'Medical mock 2027');
    await user.click(within(form).getByText('Gujarati'));
    await user.click(within(form).getByRole('button', { name: 'Save basics' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.edit).toHaveBeenCalledWith(5, { code: 'MED-1', name: 'Medical mock 2027', description: '', languages: ['en', 'hi', 'gu'], version: 3 });
  });

  it('should refuse an empty name, a bad code and no language before calling the server', async () => {
    const { user } = renderNode(<BasicsEditor project={detail()} onSaved={vi.fn()} onReload={vi.fn()} />);
    const form = screen.getByTestId('basics-form');
    await user.clear(within(form).getByLabelText(/^Name/));
    await user.clear(within(form).getByLabelText(/^Code/));
    await user.type(within(form).getByLabelText(/^Code/), 'has space');
    await user.click(within(form).getByText('English'));
    await user.click(within(form).getByText('Hindi'));
    await user.click(within(form).getByRole('button', { name: 'Save basics' }));
    expect(await within(form).findByText('Enter a name.')).toBeInTheDocument();
    expect(within(form).getByText('Choose at least one language.')).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Code/)).toHaveAttribute('aria-invalid', 'true');
    expect(api.edit).not.toHaveBeenCalled();
  });

  it('should keep the input over a 409, say who changed it, and save over their version when asked', async () => {
    const onSaved = vi.fn();
    const onReload = vi.fn().mockResolvedValue(undefined);
    api.edit.mockRejectedValueOnce(stale).mockResolvedValueOnce(detail({ name: 'Mine', version: 5 }));
    const { user } = renderNode(<BasicsEditor project={detail()} onSaved={onSaved} onReload={onReload} />);
    const form = screen.getByTestId('basics-form');
    await user.clear(within(form).getByLabelText(/^Name/));
    await user.type(within(form).getByLabelText(/^Name/), 'Mine');
    await user.click(within(form).getByRole('button', { name: 'Save basics' }));
    const notice = await screen.findByTestId('stale-edit');
    expect(notice).toHaveTextContent('Asha Rao saved this while you were editing.');
    expect(notice).toHaveTextContent('Your changes are still in the form.');
    expect(within(form).getByLabelText(/^Name/)).toHaveValue('Mine');
    expect(onSaved).not.toHaveBeenCalled();
    await user.click(within(notice).getByRole('button', { name: 'Save mine over it' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.edit).toHaveBeenLastCalledWith(5, expect.objectContaining({ name: 'Mine', version: 4 }));
    expect(screen.queryByTestId('stale-edit')).toBeNull();
  });

  it('should drop the input and load their version when asked', async () => {
    const onReload = vi.fn().mockResolvedValue(undefined);
    api.edit.mockRejectedValueOnce(stale);
    const { user } = renderNode(<BasicsEditor project={detail()} onSaved={vi.fn()} onReload={onReload} />);
    await user.click(screen.getByRole('button', { name: 'Save basics' }));
    await user.click(await screen.findByRole('button', { name: 'Load their version' }));
    expect(onReload).toHaveBeenCalledTimes(1);
    expect(api.edit).toHaveBeenCalledTimes(1);
  });

  it('should be read-only for someone who may not configure the project', () => {
    renderNode(<BasicsEditor project={detail({ canConfigure: false })} onSaved={vi.fn()} onReload={vi.fn()} />);
    expect(screen.getByLabelText(/^Name/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save basics' })).toBeNull();
  });
});

describe('the item types step', { timeout: 20_000 }, () => {
  const t = (key: string) => key;
  it('should check names and marks as the server does: correct above 0, wrong 0 or negative, essays never wrong', () => {
    expect(checkItemTypeDraft('singleChoice', { name: 'MCQ', correct: '4', wrong: '-1' }, t)).toEqual({});
    expect(checkItemTypeDraft('singleChoice', { name: ' ', correct: '0', wrong: '1' }, t)).toEqual({
      name: ['itemTypes.nameRequired'],
      correct: ['itemTypes.correctRange'],
      wrong: ['itemTypes.wrongRange'],
    });
    expect(checkItemTypeDraft('singleChoice', { name: 'x', correct: '1001', wrong: 'abc' }, t)).toEqual({
      correct: ['itemTypes.correctRange'],
      wrong: ['itemTypes.wrongRange'],
    });
    expect(checkItemTypeDraft('essay', { name: 'Essay', correct: '5', wrong: '-1' }, t)).toEqual({ wrong: ['itemTypes.essayWrong'] });
  });

  it('should save a row on its version and keep the input over a 409', async () => {
    const onChanged = vi.fn().mockResolvedValue(undefined);
    api.editItemType.mockRejectedValueOnce(stale).mockResolvedValueOnce({ ...mcq, version: 5 });
    const { user } = renderNode(<ItemTypesEditor projectId={5} itemTypes={[mcq, essay]} canEdit onChanged={onChanged} />);
    const row = screen.getByRole('form', { name: 'MCQ +4/-1' });
    await user.clear(within(row).getByLabelText(/^Wrong/));
    await user.type(within(row).getByLabelText(/^Wrong/), '-2');
    await user.click(within(row).getByRole('button', { name: 'Save MCQ +4/-1' }));
    await within(row).findByTestId('stale-edit');
    expect(within(row).getByLabelText(/^Wrong/)).toHaveValue('-2');
    expect(api.editItemType).toHaveBeenCalledWith(5, 11, {
      name: 'MCQ +4/-1',
      settings: { shuffle: true },
      marking: { correct: 4, wrong: -2, unanswered: 0 },
      isActive: true,
      version: 2,
    });
    await user.click(within(row).getByRole('button', { name: 'Save mine over it' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(api.editItemType).toHaveBeenLastCalledWith(5, 11, expect.objectContaining({ version: 4 }));
  });

  it("should edit the settings the kind takes: an essay's word limit, partial credit of multiple choice, checked before sending", async () => {
    const onChanged = vi.fn().mockResolvedValue(undefined);
    const multi: ItemType = {
      itemTypeId: 14,
      name: 'Multiple correct',
      kind: 'multipleChoice',
      settings: { shuffle: true, partial: null, maxChoices: 0 },
      marking: { correct: 4, wrong: -2, unanswered: 0 },
      isActive: true,
      sortOrder: 2,
      version: 3,
    };
    api.editItemType.mockResolvedValue({ ...essay, version: 2 });
    const { user } = renderNode(<ItemTypesEditor projectId={5} itemTypes={[essay, multi]} canEdit onChanged={onChanged} />);
    const long = screen.getByRole('form', { name: 'Long answer' });
    const essaySettings = within(long).getByRole('group', { name: 'Settings of Long answer' });
    expect(within(essaySettings).queryByText('Shuffle options')).toBeNull();
    await user.clear(within(essaySettings).getByLabelText(/^Word limit/));
    await user.type(within(essaySettings).getByLabelText(/^Word limit/), '0');
    await user.click(within(long).getByRole('button', { name: 'Save Long answer' }));
    expect(await within(long).findByText('A whole number from 1 to 20000, or empty.')).toBeInTheDocument();
    expect(api.editItemType).not.toHaveBeenCalled();
    await user.clear(within(essaySettings).getByLabelText(/^Word limit/));
    await user.type(within(essaySettings).getByLabelText(/^Word limit/), '400');
    await user.click(within(long).getByRole('button', { name: 'Save Long answer' }));
    await waitFor(() => expect(api.editItemType).toHaveBeenCalledWith(5, 12, expect.objectContaining({ settings: { wordLimit: 400 }, version: 1 })));

    // Multiple choice: partial credit on, its marks checked against the marks for a correct answer.
    const row = screen.getByRole('form', { name: 'Multiple correct' });
    const group = within(row).getByRole('group', { name: 'Settings of Multiple correct' });
    await user.click(within(group).getByText('Partial credit'));
    await user.clear(within(group).getByLabelText(/^Marks per correct part/));
    await user.type(within(group).getByLabelText(/^Marks per correct part/), '5');
    await user.click(within(row).getByRole('button', { name: 'Save Multiple correct' }));
    expect(await within(row).findByText('From 0 up to the marks for a correct answer.')).toBeInTheDocument();
    await user.clear(within(group).getByLabelText(/^Marks per correct part/));
    await user.type(within(group).getByLabelText(/^Marks per correct part/), '1');
    await user.click(within(group).getByText('Any wrong part gives the wrong-answer marks'));
    await user.click(within(group).getByText('Shuffle options'));
    await user.click(within(row).getByRole('button', { name: 'Save Multiple correct' }));
    await waitFor(() =>
      expect(api.editItemType).toHaveBeenLastCalledWith(
        5,
        14,
        expect.objectContaining({ settings: { shuffle: false, partial: { perCorrect: 1, perWrong: 0, wrongCancels: true }, maxChoices: 0 }, version: 3 }),
      ),
    );
  });

  it('should refuse negative marks on an essay without calling the server', async () => {
    const { user } = renderNode(<ItemTypesEditor projectId={5} itemTypes={[essay]} canEdit onChanged={vi.fn()} />);
    const row = screen.getByRole('form', { name: 'Long answer' });
    await user.clear(within(row).getByLabelText(/^Wrong/));
    await user.type(within(row).getByLabelText(/^Wrong/), '-1');
    await user.click(within(row).getByRole('button', { name: 'Save Long answer' }));
    expect(await within(row).findByText('An essay has no wrong answer: use 0.')).toBeInTheDocument();
    expect(api.editItemType).not.toHaveBeenCalled();
  });

  it('should add a type of a base kind with its usual settings', async () => {
    const onChanged = vi.fn().mockResolvedValue(undefined);
    api.createItemType.mockResolvedValue({ ...essay, itemTypeId: 13 });
    const { user } = renderNode(<ItemTypesEditor projectId={5} itemTypes={[]} canEdit onChanged={onChanged} />);
    const form = screen.getByTestId('new-item-type');
    await chooseOption(user, within(form).getByRole('combobox', { name: 'Kind' }), 'Numeric');
    await user.type(within(form).getByLabelText(/^Name of the new type/), 'Numeric ±0.5');
    await user.click(within(form).getByRole('button', { name: 'Add item type' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(api.createItemType).toHaveBeenCalledWith(5, {
      name: 'Numeric ±0.5',
      kind: 'numeric',
      settings: { tolerance: { mode: 'absolute', value: 0 } },
      marking: { correct: 2, wrong: 0, unanswered: 0 },
    });
  });
});

describe('the flows step', { timeout: 20_000 }, () => {
  it('should give new stages ids the compiler accepts, unique and never a fixed state', () => {
    expect(stageIdFor('stage', [])).toBe('sstage');
    expect(stageIdFor('stage', ['sstage', 'sstage-2'])).toBe('sstage-3');
    expect(stageIdFor('Draft', [])).toMatch(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/);
  });

  it('should reorder, rename and add stages and save the definition on its version, saying where records moved', async () => {
    const onChanged = vi.fn().mockResolvedValue(undefined);
    api.editFlow.mockResolvedValue({ ...flow, version: 7, stageMoves: [{ from: 'expert', to: 'Draft' }] });
    api.previewFlow.mockResolvedValue({
      version: 6,
      stageMoves: [{ from: 'expert', fromName: 'Subject expert', to: 'Draft', toName: 'Draft', records: 3 }],
      affectedRecords: 3,
    });
    const { user } = renderNode(<FlowsEditor projectId={5} flows={[flow]} canEdit onChanged={onChanged} />);
    const form = screen.getByRole('form', { name: 'Item review' });
    await user.click(within(form).getByRole('button', { name: 'Remove Subject expert' }));
    await user.click(within(form).getByRole('button', { name: 'Add a stage' }));
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    // The new stage has no name yet: refused here, nothing sent.
    expect(await within(form).findByText('Name this stage.')).toBeInTheDocument();
    expect(api.editFlow).not.toHaveBeenCalled();
    await user.type(within(form).getByLabelText(/^Stage 2/), 'Moderator check');
    await chooseOption(user, within(form).getByRole('combobox', { name: 'Who acts at stage 2' }), 'Moderator');
    await user.click(within(form).getByRole('button', { name: 'Move Moderator check up' }));
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    // A stage goes: first how many records stand in it and where they go, nothing saved yet.
    const preview = await within(form).findByRole('region', { name: 'Before you save' });
    expect(preview).toHaveTextContent('3 records stand in the stages this edit removes. They move back, never forward:');
    expect(preview).toHaveTextContent('Subject expert → Draft: 3 records');
    expect(preview).toHaveFocus();
    expect(api.editFlow).not.toHaveBeenCalled();
    expect(api.previewFlow).toHaveBeenCalledWith(5, 21, expect.objectContaining({ stages: expect.any(Array) }));
    await user.click(within(preview).getByRole('button', { name: 'Save the flow' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(api.editFlow).toHaveBeenCalledWith(5, 21, {
      name: 'Item review',
      version: 6,
      definition: {
        stages: [
          { id: 'sstage', name: 'Moderator check', permission: 'Moderator' },
          { id: 'approve', name: 'Approver', permission: 'ProjectAdmin' },
        ],
        submitPermission: 'ItemAuthor',
        retirePermission: 'ProjectAdmin',
      },
    });
    expect(toasts.success).toHaveBeenCalledWith('Item review was saved. Records in removed stages moved: Subject expert → Draft.');
  });

  it('should drop the preview when the draft changes or on keep editing, and save without one when no stage goes', async () => {
    const onChanged = vi.fn().mockResolvedValue(undefined);
    api.previewFlow.mockResolvedValue({
      version: 6,
      stageMoves: [{ from: 'approve', fromName: 'Approver', to: 'expert', toName: 'Subject expert', records: 1 }],
      affectedRecords: 1,
    });
    api.editFlow.mockResolvedValue({ ...flow, version: 7, stageMoves: [] });
    const { user } = renderNode(<FlowsEditor projectId={5} flows={[flow]} canEdit onChanged={onChanged} />);
    const form = screen.getByRole('form', { name: 'Item review' });
    await user.click(within(form).getByRole('button', { name: 'Remove Approver' }));
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    const preview = await within(form).findByRole('region', { name: 'Before you save' });
    expect(preview).toHaveTextContent('1 record stands in the stages this edit removes. It moves back, never forward:');
    expect(preview).toHaveTextContent('Approver → Subject expert: 1 record');
    await user.click(within(preview).getByRole('button', { name: 'Keep editing' }));
    expect(within(form).queryByRole('region', { name: 'Before you save' })).toBeNull();
    // Asked again, then a change to the draft drops the (now wrong) preview.
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    await within(form).findByRole('region', { name: 'Before you save' });
    await user.type(within(form).getByLabelText(/^Flow name/), ' 2027');
    expect(within(form).queryByRole('region', { name: 'Before you save' })).toBeNull();
    expect(api.editFlow).not.toHaveBeenCalled();
    // Only renaming (no stage goes): saved straight away, no preview asked.
    api.previewFlow.mockClear();
    cleanup();
    const second = renderNode(<FlowsEditor projectId={5} flows={[flow]} canEdit onChanged={onChanged} />);
    const again = screen.getByRole('form', { name: 'Item review' });
    await second.user.type(within(again).getByLabelText(/^Stage 1/), ' panel');
    await second.user.click(within(again).getByRole('button', { name: 'Save flow' }));
    await waitFor(() => expect(api.editFlow).toHaveBeenCalled());
    expect(api.previewFlow).not.toHaveBeenCalled();
  });

  it('should say when no record stands in the removed stages, and show a failing preview as an error', async () => {
    api.previewFlow.mockResolvedValueOnce({
      version: 6,
      stageMoves: [{ from: 'approve', fromName: 'Approver', to: 'expert', toName: 'Subject expert', records: 0 }],
      affectedRecords: 0,
    });
    api.previewFlow.mockRejectedValueOnce({ statusCode: 409, messages: ['The project is closed: its configuration cannot change.'] });
    const { user } = renderNode(<FlowsEditor projectId={5} flows={[flow]} canEdit onChanged={vi.fn()} />);
    const form = screen.getByRole('form', { name: 'Item review' });
    await user.click(within(form).getByRole('button', { name: 'Remove Approver' }));
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    const preview = await within(form).findByRole('region', { name: 'Before you save' });
    expect(preview).toHaveTextContent('No record stands in the stages this edit removes.');
    await user.click(within(preview).getByRole('button', { name: 'Keep editing' }));
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('The project is closed: its configuration cannot change.');
    expect(within(form).queryByRole('region', { name: 'Before you save' })).toBeNull();
    expect(api.editFlow).not.toHaveBeenCalled();
  });

  it('should keep the edited stages over a 409', async () => {
    api.editFlow.mockRejectedValueOnce(stale);
    const { user } = renderNode(<FlowsEditor projectId={5} flows={[flow]} canEdit onChanged={vi.fn()} />);
    const form = screen.getByRole('form', { name: 'Item review' });
    await user.clear(within(form).getByLabelText(/^Stage 1/));
    await user.type(within(form).getByLabelText(/^Stage 1/), 'Expert panel');
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    await within(form).findByTestId('stale-edit');
    expect(within(form).getByLabelText(/^Stage 1/)).toHaveValue('Expert panel');
  });

  it('should only list the flows to someone who may not configure', () => {
    renderNode(<FlowsEditor projectId={5} flows={[flow]} canEdit={false} onChanged={vi.fn()} />);
    expect(screen.getByTestId('flows-list')).toHaveTextContent('Item review: Subject expert → Approver');
    expect(screen.queryByRole('button', { name: 'Save flow' })).toBeNull();
  });
});

describe('the categories step', { timeout: 20_000 }, () => {
  const physics = { categoryId: 1, parentId: null, name: 'Physics', sortOrder: 0, isRetired: false, fileCount: 0, version: 2 };
  const optics = { categoryId: 2, parentId: 1, name: 'Optics', sortOrder: 0, isRetired: false, fileCount: 1, version: 1 };

  it('should indent the tree by depth', () => {
    expect([...depthsOf([physics, optics, { ...optics, categoryId: 3, parentId: 2, name: 'Lenses' }]).entries()]).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
  });

  it('should move a category one place among its siblings, or under another parent, on its version', async () => {
    const chemistry = { categoryId: 5, parentId: null, name: 'Chemistry', sortOrder: 1, isRetired: false, fileCount: 0, version: 3 };
    expect(neighbourPlace([physics, optics, chemistry], chemistry, -1)).toBe(0);
    expect(neighbourPlace([physics, optics, chemistry], physics, 1)).toBe(2);
    expect(neighbourPlace([physics, optics, chemistry], physics, -1)).toBeNull();
    api.moveCategory.mockResolvedValue(chemistry);
    const onChanged = vi.fn().mockResolvedValue(undefined);
    const { user } = renderNode(<CategoriesEditor projectId={5} categories={[physics, optics, chemistry]} canEdit onChanged={onChanged} />);
    await user.click(within(screen.getByRole('form', { name: 'Chemistry' })).getByRole('button', { name: 'Move Chemistry up' }));
    await waitFor(() => expect(api.moveCategory).toHaveBeenCalledWith(5, 5, { parentId: null, sortOrder: 0, version: 3 }));
    await chooseOption(user, within(screen.getByRole('form', { name: 'Optics' })).getByRole('combobox', { name: 'Place of Optics' }), 'Chemistry');
    await waitFor(() => expect(api.moveCategory).toHaveBeenLastCalledWith(5, 2, { parentId: 5, sortOrder: 0, version: 1 }));
  });

  it('should rename on the version, add under a parent, and show the refusal of deleting a category in use', async () => {
    const onChanged = vi.fn().mockResolvedValue(undefined);
    api.editCategory.mockResolvedValue({ ...physics, name: 'Physics (theory)' });
    api.createCategory.mockResolvedValue({ ...optics, categoryId: 4, name: 'Waves' });
    api.deleteCategory.mockRejectedValue({ statusCode: 409, messages: ['The category "Optics" is in use (1 file): retire it instead.'] });
    const { user } = renderNode(<CategoriesEditor projectId={5} categories={[physics, optics]} canEdit onChanged={onChanged} />);
    const row = screen.getByRole('form', { name: 'Physics' });
    await user.clear(within(row).getByLabelText(/^Name/));
    await user.type(within(row).getByLabelText(/^Name/), 'Physics (theory)');
    await user.click(within(row).getByRole('button', { name: 'Rename Physics' }));
    await waitFor(() => expect(api.editCategory).toHaveBeenCalledWith(5, 1, { name: 'Physics (theory)', version: 2 }));

    const add = screen.getByTestId('new-category');
    await user.type(within(add).getByLabelText(/^New category/), 'Waves');
    await chooseOption(user, within(add).getByRole('combobox', { name: 'Under' }), 'Physics');
    await user.click(within(add).getByRole('button', { name: 'Add category' }));
    await waitFor(() => expect(api.createCategory).toHaveBeenCalledWith(5, { name: 'Waves', parentId: 1 }));

    await user.click(within(screen.getByRole('form', { name: 'Optics' })).getByRole('button', { name: 'Delete Optics' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalledWith(expect.objectContaining({ statusCode: 409 })));
  });
});

describe('archive and restore on the projects screen', { timeout: 20_000 }, () => {
  it('should offer what the project machine allows: archive for Draft and Closed, restore for Archived, close for Active', async () => {
    api.search.mockImplementation(async (query: PagedQuery) =>
      page([summary(1, 'Draft'), summary(2, 'Active'), summary(3, 'Closed'), summary(4, 'Archived')], query),
    );
    api.transition.mockResolvedValue({ fromStatus: 'Archived', toStatus: 'Closed', record: detail() });
    const { user } = renderAt('/projects', { '/projects': <ProjectsPage /> });
    const actionsOf = async (code: string) => readMenuItems(user, within(await screen.findByTestId(`project-actions-${code}`)).getByRole('button'));
    expect(await actionsOf('P-1')).toEqual(['Open', 'Set up', 'Start the set-up', 'Archive']);
    expect(await actionsOf('P-2')).toEqual(['Open', 'Set up', 'Close']);
    expect(await actionsOf('P-3')).toEqual(['Open', 'Reopen', 'Archive']);
    expect(await actionsOf('P-4')).toEqual(['Restore']);

    await chooseMenuItem(user, within(screen.getByTestId('project-actions-P-4')).getByRole('button'), 'Restore');
    await waitFor(() => expect(api.transition).toHaveBeenCalledWith(4, 'project.restore', 3));
    expect(toasts.success).toHaveBeenCalledWith('Project 4 was restored (Closed).');
  }, 20_000);

  it('should archive a Draft project after confirming, and list archived projects only when asked', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([summary(1, 'Draft')], query));
    api.transition.mockResolvedValue({ fromStatus: 'Draft', toStatus: 'Archived', record: detail() });
    const { user } = renderAt('/projects', { '/projects': <ProjectsPage /> });
    await chooseMenuItem(user, within(await screen.findByTestId('project-actions-P-1')).getByRole('button'), 'Archive');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Project 1 was never set up.');
    await user.click(within(dialog).getByRole('button', { name: 'Archive' }));
    await waitFor(() => expect(api.transition).toHaveBeenCalledWith(1, 'project.archive', 3));

    expect(api.search.mock.calls.at(-1)![0].filters.includeArchived).toBeFalsy();
    await user.click(screen.getByText('Show archived projects'));
    await waitFor(() => expect(api.search.mock.calls.at(-1)![0].filters.includeArchived).toBe(true));
  }, 20_000);

  it('should offer neither archive nor the archived list to someone who is not an exam manager', async () => {
    allow([P.Projects.View, P.Exams.View]);
    api.search.mockImplementation(async (query: PagedQuery) => page([summary(1, 'Draft', []), summary(3, 'Closed', [])], query));
    const { user } = renderAt('/projects', { '/projects': <ProjectsPage /> });
    const menu = await openMenu(user, within(await screen.findByTestId('project-actions-P-3')).getByRole('button'));
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Open']);
    expect(screen.queryByText('Show archived projects')).toBeNull();
  });
});

describe('status actions only for those the machine names', { timeout: 20_000 }, () => {
  it('should offer a project admin reopening and the set-up but never archive, and an item author nothing but Open', async () => {
    allow([P.Projects.View, P.Exams.View]);
    api.search.mockImplementation(async (query: PagedQuery) =>
      page(
        [
          summary(1, 'Closed', projectActions('Closed', { projectAdmin: true })),
          summary(2, 'Active', projectActions('Active', { projectAdmin: true })),
          summary(3, 'Active', []),
        ],
        query,
      ),
    );
    api.transition.mockResolvedValue({ fromStatus: 'Closed', toStatus: 'Setup', record: detail() });
    const { user } = renderAt('/projects', { '/projects': <ProjectsPage /> });
    const actionsOf = async (code: string) => readMenuItems(user, within(await screen.findByTestId(`project-actions-${code}`)).getByRole('button'));
    expect(await actionsOf('P-1')).toEqual(['Open', 'Reopen']);
    expect(await actionsOf('P-2')).toEqual(['Open', 'Set up', 'Close']);
    expect(await actionsOf('P-3')).toEqual(['Open']);
    // Reopening a project that lacks its set-up lands it in Setup (decision 0165): the toast says so.
    await chooseMenuItem(user, within(screen.getByTestId('project-actions-P-1')).getByRole('button'), 'Reopen');
    await waitFor(() => expect(api.transition).toHaveBeenCalledWith(1, 'project.reopen', 3));
    expect(toasts.success).toHaveBeenCalledWith('Project 1 is now Being set up.');
  });
});

describe('the workspace navigation', { timeout: 20_000 }, () => {
  it('should list every slice in the bar menu, grouped, and go to the one chosen', async () => {
    act(() => selectProject(detail() as unknown as Record<string, unknown>));
    const { user, location } = renderAt('/exams', { '*': <WorkspaceBar /> });
    const menu = await openMenu(user, screen.getByTestId('workspace-goto'));
    expect(menu).toBe(screen.getByTestId('workspace-goto-menu'));
    for (const slice of workspaceSlices) expect(within(menu).getByTestId(`goto-${slice.id}`)).toBeInTheDocument();
    expect(within(menu).getByTestId('goto-exportTemplates')).toHaveTextContent(/^Export templates$/);
    expect(within(menu).getByTestId('goto-seasons')).toHaveTextContent(/^Seasons$/);
    expect(within(menu).getByTestId('goto-papers')).toHaveTextContent('Papers(choose an exam)');
    expect(within(menu).getAllByRole('group').length).toBe(4);
    await closeMenu(user, screen.getByTestId('workspace-goto'));
    await chooseMenuItem(user, screen.getByTestId('workspace-goto'), /^Item types/);
    await waitFor(() => expect(location.current()).toBe('/workspace/item-types'));
  });

  it('should show a paper menu once an exam is selected, leading to the papers page', async () => {
    act(() => {
      selectProject(detail() as unknown as Record<string, unknown>);
      selectExam({ examId: 8, name: 'Physics' });
    });
    papersMock.list.mockResolvedValueOnce([]);
    const { user, location } = renderAt('/exams', { '*': <WorkspaceBar /> });
    const menu = await openMenu(user, screen.getByTestId('workspace-paper'));
    expect(menu).toBe(screen.getByTestId('workspace-paper-menu'));
    await within(menu).findByText('Nothing to switch to');
    expect(papersMock.list).toHaveBeenCalledTimes(1);
    const all = within(menu).getByRole('menuitem', { name: 'All papers…' });
    await user.keyboard('{End}');
    await waitFor(() => expect(menu).toHaveAttribute('aria-activedescendant', all.id));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.current()).toBe('/workspace/papers'));
  });

  it('should give every slice a tile on the overview, marking those of later issues', async () => {
    act(() => selectProject(detail() as unknown as Record<string, unknown>));
    renderAt('/workspace', { '/workspace': <pages.WorkspaceOverviewPage /> });
    await screen.findByRole('heading', { level: 1, name: 'Workspace of Medical mock' });
    for (const slice of workspaceSlices.filter((s) => s.id !== 'overview')) expect(screen.getByTestId(`tile-${slice.id}`)).toBeInTheDocument();
    expect(screen.getByTestId('tile-results')).not.toHaveTextContent('Coming with issue');
    expect(screen.getByTestId('tile-delivery')).not.toHaveTextContent('Coming with issue');
    expect(screen.getByTestId('tile-exportTemplates')).not.toHaveTextContent('Coming with issue');
    expect(screen.getByTestId('tile-seasons')).not.toHaveTextContent('Coming with issue');
    expect(screen.getByTestId('tile-items')).not.toHaveTextContent('Coming with issue');
    expect(screen.getByTestId('tile-flows')).not.toHaveTextContent('Coming with issue');
  });

  it('should open the results console from the exam’s results slice, and the invigilator console from a paper’s delivery slice', async () => {
    const results = renderAt('/workspace/results', { '/workspace/results': <pages.WorkspacePlaceholderPage />, '/results': <p>results console</p> });
    await screen.findByText('results console');
    expect(results.location.current()).toBe('/results?view=console');
    cleanup();
    const delivery = renderAt('/workspace/delivery', { '/workspace/delivery': <pages.WorkspacePlaceholderPage />, '/invigilate': <p>invigilator console</p> });
    await screen.findByText('invigilator console');
    expect(delivery.location.current()).toBe('/invigilate');
  });

  it("should show the caller's exam permissions on the selected exam, or say there are none", async () => {
    act(() => {
      selectProject(detail() as unknown as Record<string, unknown>);
      selectExam({ examId: 8, name: 'Physics' });
    });
    renderAt('/workspace/my-permissions', { '/workspace/my-permissions': <pages.MyPermissionsPage /> });
    expect(await screen.findByText('You hold no permission on Physics')).toBeInTheDocument();
    act(() => examPermissionsStore.trigger.update({ permissions: ['ItemReviewer', 'Evaluator'] }));
    expect(await screen.findByText('Item reviewer')).toBeInTheDocument();
    expect(screen.getByText('Evaluator')).toBeInTheDocument();
  });

  it('should open a configuration part on its own screen, editable for a project administrator', async () => {
    act(() => selectProject(detail() as unknown as Record<string, unknown>));
    api.get.mockResolvedValue(detail());
    api.itemTypes.mockResolvedValue([mcq]);
    api.categories.mockResolvedValue([]);
    api.flows.mockResolvedValue([flow]);
    renderAt('/workspace/flows', { '/workspace/flows': <pages.FlowsPage /> });
    await screen.findByRole('heading', { level: 1, name: 'Review flows' });
    expect(await screen.findByRole('form', { name: 'Item review' })).toBeInTheDocument();
    expect(api.flows).toHaveBeenCalledWith(5);
  });
});

describe('status changes and templates', { timeout: 20_000 }, () => {
  it("should offer an exam's status changes as the server lists them, without the one that needs a reason", async () => {
    act(() => selectProject(detail({ status: 'Active' }) as unknown as Record<string, unknown>));
    const exam = {
      examId: 3,
      projectId: 5,
      code: 'MATH-10',
      name: 'Mathematics',
      description: '',
      status: 'ResultsPublished',
      version: 4,
      actions: ['exam.withdrawResults', 'exam.close'],
      createdOn: '',
      updatedOn: '',
    };
    examsMock.search.mockImplementation(async (query: PagedQuery) => page([exam], query));
    examsMock.transition.mockResolvedValue({ fromStatus: 'ResultsPublished', toStatus: 'Closed', record: { ...exam, status: 'Closed' } });
    const { user } = renderAt('/exams', { '/exams': <ExamsPage /> });
    const trigger = within(await screen.findByTestId('exam-actions-MATH-10')).getByRole('button');
    expect(await readMenuItems(user, trigger)).toEqual(['Close']);
    await chooseMenuItem(user, trigger, 'Close');
    await waitFor(() => expect(examsMock.transition).toHaveBeenCalledWith(3, 'exam.close', 4));
    expect(toasts.success).toHaveBeenCalledWith('Mathematics is now Closed.');
  });

  it("should save the project's configuration as a template under the name given", async () => {
    const onClose = vi.fn();
    api.saveTemplate.mockResolvedValue({ templateId: 9, name: 'Medical entrance (our rules)' });
    const { user } = renderNode(<SaveTemplateDialog projectId={5} projectName="Medical mock" onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Save as template' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Medical mock');
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save template' }));
    expect(await within(dialog).findByText('Enter a name.')).toBeInTheDocument();
    await user.type(name, 'Medical entrance (our rules)');
    await user.click(within(dialog).getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.saveTemplate).toHaveBeenCalledWith(5, { name: 'Medical entrance (our rules)', description: undefined });
  });

  it('should let an exam manager delete a saved template but not a built-in one', async () => {
    api.templates.mockResolvedValue([
      {
        templateId: 1,
        name: 'School board examination',
        description: '',
        isSystem: true,
        config: { itemTypes: [], categories: [], flows: [] },
        version: 1,
        createdOn: '',
      },
      {
        templateId: 9,
        name: 'Our rules',
        description: '',
        isSystem: false,
        config: { itemTypes: [{ name: 'x', kind: 'essay' }], categories: [], flows: [] },
        version: 1,
        createdOn: '',
      },
    ]);
    api.deleteTemplate.mockResolvedValue({ deleted: true });
    const { user } = renderAt('/workspace/templates', { '/workspace/templates': <pages.TemplatesPage /> });
    await screen.findByText('Our rules');
    expect(screen.queryByRole('button', { name: 'Delete the template School board examination' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete the template Our rules' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.deleteTemplate).toHaveBeenCalledWith(9));
  });
});

describe('category files', { timeout: 20_000 }, () => {
  it('should list the files of a category, upload chosen ones, download and delete', async () => {
    const physics = { categoryId: 1, parentId: null, name: 'Physics', sortOrder: 0, isRetired: false, fileCount: 1, version: 2 };
    const diagram = {
      fileId: '5b0c7a5e-1111-4c3a-9a55-3a3a3a3a3a3a',
      categoryId: 1,
      fileName: 'lens.png',
      contentType: 'image/png',
      sizeBytes: 2048,
      uploadedBy: null,
      uploadedOn: '2026-11-25T09:00:00.000Z',
    };
    api.categoryFiles.mockResolvedValueOnce([diagram]).mockResolvedValue([]);
    api.uploadCategoryFiles.mockResolvedValue([{ ...diagram, fileId: 'f2', fileName: 'passage.txt' }]);
    api.downloadCategoryFile.mockResolvedValue({ blob: new Blob(['x']), filename: 'lens.png', contentType: 'image/png' });
    api.deleteCategoryFile.mockResolvedValue({ deleted: true });
    const onChanged = vi.fn().mockResolvedValue(undefined);
    const { user } = renderNode(<CategoriesEditor projectId={5} categories={[physics]} canEdit onChanged={onChanged} />);
    await user.click(screen.getByRole('button', { name: 'Files of Physics (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Files of Physics' });
    await within(dialog).findByText('lens.png');
    expect(api.categoryFiles).toHaveBeenCalledWith(5, 1);
    await user.click(within(dialog).getByRole('button', { name: 'Download lens.png' }));
    await waitFor(() => expect(saved.saveFile).toHaveBeenCalledWith(expect.any(Blob), 'lens.png'));
    await user.upload(dialog.querySelector('input[type=file]') as HTMLInputElement, new File(['A passage.'], 'passage.txt', { type: 'text/plain' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(api.uploadCategoryFiles).toHaveBeenCalledWith(1, [expect.objectContaining({ name: 'passage.txt' })]));
    expect(toasts.success).toHaveBeenCalledWith('1 file was uploaded.');
    api.categoryFiles.mockResolvedValueOnce([diagram]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
  });

  it('should hold the opened category and the last file touched in their slices, and drop a deleted held file (0201)', async () => {
    const physics = { categoryId: 1, parentId: null, name: 'Physics', sortOrder: 0, isRetired: false, fileCount: 1, version: 2 };
    const file = (fileId: string, fileName: string) => ({
      fileId,
      categoryId: 1,
      fileName,
      contentType: 'text/plain',
      sizeBytes: 20,
      uploadedBy: null,
      uploadedOn: '2026-11-25T09:00:00.000Z',
    });
    const lens = file('f1', 'lens.txt');
    const passage = file('f2', 'passage.txt');
    act(() => selectProject({ projectId: 5, code: 'MED-1', name: 'Medical mock', status: 'Setup' }));
    // Answers queued by the test before and not consumed must not leak into this one.
    for (const mock of [api.categoryFiles, api.uploadCategoryFiles, api.downloadCategoryFile, api.deleteCategoryFile]) mock.mockReset();
    api.categoryFiles.mockResolvedValueOnce([lens]).mockResolvedValueOnce([lens, passage]).mockResolvedValue([lens]);
    api.uploadCategoryFiles.mockResolvedValue([passage]);
    api.downloadCategoryFile.mockResolvedValueOnce({ blob: new Blob(['x']), filename: 'lens.txt', contentType: 'text/plain' });
    api.downloadCategoryFile.mockRejectedValueOnce({ statusCode: 404, messages: ['File not found.'] });
    api.deleteCategoryFile.mockResolvedValue({ deleted: true });
    const { user } = renderNode(<CategoriesEditor projectId={5} categories={[physics]} canEdit onChanged={vi.fn().mockResolvedValue(undefined)} />);
    await user.click(screen.getByRole('button', { name: 'Files of Physics (1)' }));
    expect(categoryStore.getSnapshot().context.selected).toEqual(physics);
    const dialog = await screen.findByRole('dialog', { name: 'Files of Physics' });
    await user.click(await within(dialog).findByRole('button', { name: 'Download lens.txt' }));
    await waitFor(() => expect(categoryFileStore.getSnapshot().context.selected).toEqual(lens));
    // A download that fails resets it.
    await user.click(within(dialog).getByRole('button', { name: 'Download lens.txt' }));
    await waitFor(() => expect(categoryFileStore.getSnapshot().context.selected).toBeNull());
    await user.upload(dialog.querySelector('input[type=file]') as HTMLInputElement, new File(['A passage.'], 'passage.txt', { type: 'text/plain' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(categoryFileStore.getSnapshot().context.selected).toEqual(passage));
    await user.click(await within(dialog).findByRole('button', { name: 'Delete passage.txt' }));
    await waitFor(() => expect(api.deleteCategoryFile).toHaveBeenCalledWith(5, 'f2'));
    await waitFor(() => expect(categoryFileStore.getSnapshot().context.selected).toBeNull());
  });
});

describe('the set-up records in their slices (spec §4, decision 0201)', { timeout: 20_000 }, () => {
  const physics = { categoryId: 1, parentId: null, name: 'Physics', sortOrder: 0, isRetired: false, fileCount: 0, version: 2 };
  const optics = { categoryId: 2, parentId: 1, name: 'Optics', sortOrder: 0, isRetired: false, fileCount: 0, version: 1 };
  const held = (store: { getSnapshot(): { context: { selected: Record<string, unknown> | null } } }) => store.getSnapshot().context.selected;
  beforeEach(() => {
    act(() => {
      selectProject({ projectId: 5, code: 'MED-1', name: 'Medical mock', status: 'Setup' });
      projectTemplateStore.trigger.remove();
    });
  });

  it('should store the saved category, reset it when a save fails, and remove it when the held one is deleted', async () => {
    const onChanged = vi.fn().mockResolvedValue(undefined);
    api.editCategory.mockResolvedValueOnce({ ...physics, name: 'Physics (theory)', version: 3 });
    const { user } = renderNode(<CategoriesEditor projectId={5} categories={[physics, optics]} canEdit onChanged={onChanged} />);
    const row = screen.getByRole('form', { name: 'Physics' });
    await user.clear(within(row).getByLabelText(/^Name/));
    await user.type(within(row).getByLabelText(/^Name/), 'Physics (theory)');
    await user.click(within(row).getByRole('button', { name: 'Rename Physics' }));
    await waitFor(() => expect(held(categoryStore)).toEqual({ ...physics, name: 'Physics (theory)', version: 3 }));
    // A refused save of it: the slice resets to null.
    api.editCategory.mockRejectedValueOnce({ statusCode: 409, messages: ['A category named "Optics" already exists at that place.'] });
    await user.click(within(row).getByRole('button', { name: 'Rename Physics' }));
    await waitFor(() => expect(held(categoryStore)).toBeNull());
    // Deleting the held category removes it; deleting another one keeps what is held.
    api.createCategory.mockResolvedValueOnce({ ...optics, categoryId: 4, name: 'Waves' });
    const add = screen.getByTestId('new-category');
    await user.type(within(add).getByLabelText(/^New category/), 'Waves');
    await user.click(within(add).getByRole('button', { name: 'Add category' }));
    await waitFor(() => expect(held(categoryStore)).toMatchObject({ categoryId: 4, name: 'Waves' }));
    api.deleteCategory.mockResolvedValue({ deleted: true });
    await user.click(within(screen.getByRole('form', { name: 'Optics' })).getByRole('button', { name: 'Delete Optics' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.deleteCategory).toHaveBeenCalledWith(5, 2));
    expect(held(categoryStore)).toMatchObject({ categoryId: 4 });
  });

  it('should store the saved flow without its stage moves and the added item type, and reset either when its save fails', async () => {
    api.editFlow.mockResolvedValueOnce({ ...flow, name: 'Item review 2027', version: 7, stageMoves: [] });
    const { user } = renderNode(<FlowsEditor projectId={5} flows={[flow]} canEdit onChanged={vi.fn().mockResolvedValue(undefined)} />);
    const form = screen.getByRole('form', { name: 'Item review' });
    await user.type(within(form).getByLabelText(/^Flow name/), ' 2027');
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    await waitFor(() => expect(held(flowStore)).toEqual({ ...flow, name: 'Item review 2027', version: 7 }));
    api.editFlow.mockRejectedValueOnce(stale);
    await user.click(within(form).getByRole('button', { name: 'Save flow' }));
    await waitFor(() => expect(held(flowStore)).toBeNull());
    cleanup();

    api.createItemType.mockResolvedValueOnce({ ...essay, itemTypeId: 13 });
    const second = renderNode(<ItemTypesEditor projectId={5} itemTypes={[]} canEdit onChanged={vi.fn().mockResolvedValue(undefined)} />);
    const add = screen.getByTestId('new-item-type');
    await second.user.type(within(add).getByLabelText(/^Name of the new type/), 'Long answer');
    await second.user.click(within(add).getByRole('button', { name: 'Add item type' }));
    await waitFor(() => expect(held(itemTypeStore)).toMatchObject({ itemTypeId: 13 }));
    api.createItemType.mockRejectedValueOnce({ statusCode: 409, messages: ['An item type named "Long answer" already exists in this project.'] });
    await second.user.type(within(add).getByLabelText(/^Name of the new type/), 'Long answer');
    await second.user.click(within(add).getByRole('button', { name: 'Add item type' }));
    await waitFor(() => expect(held(itemTypeStore)).toBeNull());
  });

  it('should clear the category, flow and item type when the project changes, but keep the chosen template (tenant-wide)', () => {
    act(() => {
      categoryStore.trigger.select({ record: physics });
      flowStore.trigger.select({ record: { ...flow } });
      itemTypeStore.trigger.select({ record: { ...mcq } });
      projectTemplateStore.trigger.select({ record: { templateId: 1, name: 'School board examination' } });
      selectProject({ projectId: 5, code: 'MED-1', name: 'Medical mock', status: 'Setup', version: 4 });
    });
    // The same project again (a fresher payload) keeps them.
    expect(held(categoryStore)).toEqual(physics);
    act(() => selectProject({ projectId: 6, code: 'ENG-1', name: 'Engineering entrance', status: 'Draft' }));
    expect([held(categoryStore), held(flowStore), held(itemTypeStore)]).toEqual([null, null, null]);
    expect(held(projectTemplateStore)).toMatchObject({ templateId: 1 });
  });
});

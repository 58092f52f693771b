import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { projectActions } from '#machines/exams/project-status.machine.ts';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import { allPermissions, P, type Permission } from '#machines/permissions.ts';
import { examPermissionsStore, examStore, projectStore, showProjectConfigStepperStore, userPermissionsStore } from '#src/app/stores/slices.ts';
import { selectExam, selectProject } from '#src/app/stores/workspace-selection.ts';
import type { Exam, ProjectDetail, ProjectSummary } from '#src/features/projects/api/projects-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';
import { chooseOption } from '#tests/src/support/select.ts';
import { openMenu } from '#tests/src/support/menus.ts';

const api = vi.hoisted(() => ({
  search: vi.fn(),
  create: vi.fn(),
  get: vi.fn(),
  edit: vi.fn(),
  transition: vi.fn(),
  templates: vi.fn(),
  itemTypes: vi.fn(),
  categories: vi.fn(),
  createItemType: vi.fn(),
  editItemType: vi.fn(),
  createCategory: vi.fn(),
  editCategory: vi.fn(),
  deleteCategory: vi.fn(),
  flows: vi.fn(),
  createFlow: vi.fn(),
  editFlow: vi.fn(),
  grants: vi.fn(),
  grant: vi.fn(),
  revoke: vi.fn(),
  grantablePermissions: vi.fn(),
}));
const exams = vi.hoisted(() => ({ search: vi.fn(), create: vi.fn(), myPermissions: vi.fn() }));

vi.mock('#src/features/projects/api/projects-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/projects/api/projects-api.ts')>()),
  projectsApi: api,
  examsApi: exams,
}));

const { default: ProjectsPage } = await import('#src/features/projects/projects-page.tsx');
const { default: ExamsPage } = await import('#src/features/projects/exams-page.tsx');
const { default: ProjectSetupPage } = await import('#src/features/projects/project-setup-page.tsx');
const { WorkspaceBar } = await import('#src/features/projects/workspace-bar.tsx');
const { searchBody } = await import('#src/features/projects/api/projects-api.ts');

/** A listed project; its actions are those the server gives a tenant manager (decision 0167) unless overridden. */
const summary = (n: number, overrides: Partial<ProjectSummary> = {}): ProjectSummary => ({
  actions: projectActions(overrides.status ?? 'Active', { tenantManager: true }),
  projectId: n,
  code: `P-${n}`,
  name: `Project ${n}`,
  description: '',
  instituteId: null,
  languages: ['en'],
  status: 'Active',
  templateId: null,
  examCount: 2,
  version: 1,
  createdOn: '2026-11-20T10:00:00.000Z',
  updatedOn: '2026-11-20T10:00:00.000Z',
  ...overrides,
});
const detail = (n: number, overrides: Partial<ProjectDetail> = {}): ProjectDetail => ({
  ...summary(n),
  updatedBy: null,
  setup: { itemTypes: 1, categories: 1, flows: 1, team: 1, exams: 0 },
  actions: [],
  myPermissions: ['ProjectAdmin'],
  canConfigure: true,
  ...overrides,
});
const exam = (n: number): Exam => ({
  examId: n,
  projectId: 1,
  code: `EX-${n}`,
  name: `Exam ${n}`,
  description: '',
  status: 'Draft',
  passRules: { passPercent: 33 },
  gradeBands: [],
  version: 1,
  actions: [],
  createdOn: '',
  updatedOn: '',
  updatedBy: null,
});

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
  await i18n.loadNamespaces(['projects', 'users', 'ui', 'errors']);
});
beforeEach(() => {
  allow(allPermissions);
  act(() => {
    selectProject(null);
    showProjectConfigStepperStore.trigger.remove();
  });
  api.templates.mockResolvedValue([
    {
      templateId: 7,
      name: 'Entrance test (CBT, negative marking)',
      description: '+4 / -1',
      isSystem: true,
      config: { itemTypes: [], categories: [], flows: [] },
      version: 1,
      createdOn: '',
    },
  ]);
});
afterEach(() => {
  vi.clearAllMocks();
});

describe('the paged search body', () => {
  it('should send the query of spec §3 and leave empty filters and an empty order out', () => {
    expect(searchBody({ keyword: '', pageNumber: 2, pageSize: 10, orderBy: ['name asc'], filters: { status: '', examId: 4 } })).toEqual({
      keyword: null,
      pageNumber: 2,
      pageSize: 10,
      orderBy: ['name asc'],
      examId: 4,
    });
    expect(searchBody({ keyword: 'x', pageNumber: 1, pageSize: 10, orderBy: null, filters: {} })).toEqual({ keyword: 'x', pageNumber: 1, pageSize: 10 });
    expect(searchBody({ keyword: 'x', pageNumber: 1, pageSize: 10, orderBy: [''], filters: {} })).not.toHaveProperty('orderBy');
  });
});

describe('the projects screen', () => {
  it('should list projects, keep the search in the URL, and open an active project on its exams', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([summary(1), summary(2, { status: 'Setup' })], query));
    api.get.mockResolvedValue(detail(1));
    const { user, location } = renderAt('/projects?q=board&page=1', { '/projects': <ProjectsPage />, '/exams': <p>exams screen</p> });
    await screen.findByRole('button', { name: 'Project 1' });
    expect(api.search.mock.calls[0][0]).toMatchObject({ keyword: 'board', pageNumber: 1 });
    await user.clear(screen.getByLabelText('Search projects'));
    await user.type(screen.getByLabelText('Search projects'), 'maths');
    await waitFor(() => expect(location.current()).toContain('q=maths'));

    await user.click(screen.getByRole('button', { name: 'Project 1' }));
    await screen.findByText('exams screen');
    expect(projectStore.getSnapshot().context.selected).toMatchObject({ projectId: 1 });
    // The detail replaces the summary: it carries the caller's permissions on the project.
    await waitFor(() => expect(projectStore.getSnapshot().context.selected).toMatchObject({ canConfigure: true }));
  }, 20_000);

  it('should open the set-up stepper for a project in set-up while the flag is on (its default)', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([summary(2, { status: 'Setup' })], query));
    api.get.mockResolvedValue(detail(2, { status: 'Setup' }));
    const first = renderAt('/projects', { '/projects': <ProjectsPage />, '/projects/setup': <p>stepper</p>, '/exams': <p>exams screen</p> });
    await first.user.click(await screen.findByRole('button', { name: 'Project 2' }));
    await screen.findByText('stepper');
  });

  it('should go to the exams instead of the stepper when the flag was turned off', async () => {
    act(() => showProjectConfigStepperStore.trigger.update({ show: false }));
    api.search.mockImplementation(async (query: PagedQuery) => page([summary(2, { status: 'Setup' })], query));
    api.get.mockResolvedValue(detail(2, { status: 'Setup' }));
    const { user } = renderAt('/projects', { '/projects': <ProjectsPage />, '/projects/setup': <p>stepper</p>, '/exams': <p>exams screen</p> });
    await user.click(await screen.findByRole('button', { name: 'Project 2' }));
    await screen.findByText('exams screen');
  });

  it('should create a project from a template, select it and open the stepper', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    api.create.mockResolvedValue(detail(9, { name: 'Medical mock', status: 'Draft' }));
    const { user } = renderAt('/projects', { '/projects': <ProjectsPage />, '/projects/setup': <p>stepper</p> });
    await user.click(await screen.findByRole('button', { name: 'New project' }));
    const dialog = await screen.findByRole('dialog', { name: 'New project' });
    await chooseOption(user, within(dialog).getByRole('combobox', { name: 'Template' }), 'Entrance test (CBT, negative marking)');
    await user.type(within(dialog).getByLabelText(/^Code/), 'MED-1');
    await user.type(within(dialog).getByLabelText(/^Name/), 'Medical mock');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await screen.findByText('stepper');
    expect(api.create).toHaveBeenCalledWith({ code: 'MED-1', name: 'Medical mock', description: undefined, templateId: 7 });
    expect(projectStore.getSnapshot().context.selected).toMatchObject({ projectId: 9 });
  });

  it('should show the server field errors of a refused creation in the dialog', async () => {
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    api.create.mockRejectedValue({ status: 400, errors: { code: ['A project with the code "MED-1" already exists.'] } });
    const { user } = renderAt('/projects', { '/projects': <ProjectsPage /> });
    await user.click(await screen.findByRole('button', { name: 'New project' }));
    const dialog = await screen.findByRole('dialog', { name: 'New project' });
    await user.type(within(dialog).getByLabelText(/^Code/), 'MED-1');
    await user.type(within(dialog).getByLabelText(/^Name/), 'Medical mock');
    await user.click(within(dialog).getByRole('button', { name: 'Create project' }));
    await within(dialog).findByText('A project with the code "MED-1" already exists.');
    expect(projectStore.getSnapshot().context.selected).toBeNull();
  });

  it('should tell a user without any grant whom to ask, and offer no creation', async () => {
    allow([P.Projects.View, P.Exams.View]);
    api.search.mockImplementation(async (query: PagedQuery) => page([], query));
    renderAt('/projects', { '/projects': <ProjectsPage /> });
    await screen.findByText('You are not on any project team yet');
    expect(screen.getByText(/Ask your exam manager or the project's administrator/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New project' })).toBeNull();
  });

  it('should show a note instead of the screen to a user without Projects.View', async () => {
    allow([P.SupportTickets.View]);
    renderAt('/projects', { '/projects': <ProjectsPage /> });
    await screen.findByTestId('no-access');
    expect(api.search).not.toHaveBeenCalled();
  });
});

describe('the exams screen', () => {
  it('should ask to choose a project when none is selected', async () => {
    renderAt('/exams', { '/exams': <ExamsPage />, '/projects': <p>projects screen</p> });
    await screen.findByText('No project selected');
    expect(exams.search).not.toHaveBeenCalled();
  });

  it('should select an exam, fetch the exam permissions on it, and show it as current', async () => {
    act(() => selectProject(detail(1) as unknown as Record<string, unknown>));
    exams.search.mockImplementation(async (query: PagedQuery) => page([exam(3), exam(4)], query));
    exams.myPermissions.mockResolvedValue({ examId: 3, projectId: 1, paperId: null, permissions: ['ItemReviewer'], tenantManager: false, actions: [] });
    const { user } = renderAt('/exams', { '/exams': <ExamsPage /> });
    await user.click(await screen.findByRole('button', { name: 'Work on Exam 3' }));
    await screen.findByTestId('exam-current-EX-3');
    expect(examStore.getSnapshot().context.selected).toMatchObject({ examId: 3 });
    await waitFor(() => expect(examPermissionsStore.getSnapshot().context.permissions).toEqual(['ItemReviewer']));
  });

  it('should start over for another project: its exam list is fetched again and the exam is cleared', async () => {
    act(() => {
      selectProject(detail(1) as unknown as Record<string, unknown>);
      selectExam(exam(3) as unknown as Record<string, unknown>);
    });
    exams.search.mockImplementation(async (query: PagedQuery) => page([exam(3)], query));
    renderAt('/exams', { '/exams': <ExamsPage /> });
    await screen.findByTestId('exam-current-EX-3');
    act(() => selectProject(detail(2, { name: 'Project 2' }) as unknown as Record<string, unknown>));
    await screen.findByRole('heading', { name: 'Exams of Project 2' });
    expect(examStore.getSnapshot().context.selected).toBeNull();
    await waitFor(() => expect(exams.search).toHaveBeenCalledTimes(2));
  });
});

describe('the project set-up stepper', () => {
  it('should walk basics → item types → categories → flows → team → done and start the set-up', async () => {
    act(() => selectProject(detail(5, { status: 'Draft' }) as unknown as Record<string, unknown>));
    api.get.mockResolvedValue(detail(5, { status: 'Draft', name: 'Medical mock', setup: { itemTypes: 1, categories: 2, flows: 1, team: 1, exams: 0 } }));
    api.itemTypes.mockResolvedValue([
      {
        itemTypeId: 1,
        name: 'Single correct',
        kind: 'singleChoice',
        settings: {},
        marking: { correct: 4, wrong: -1 },
        isActive: true,
        sortOrder: 0,
        version: 1,
      },
    ]);
    api.categories.mockResolvedValue([
      { categoryId: 1, parentId: null, name: 'Physics', sortOrder: 0, isRetired: false, fileCount: 0, version: 1 },
      { categoryId: 2, parentId: 1, name: 'Optics', sortOrder: 0, isRetired: false, fileCount: 0, version: 1 },
    ]);
    api.flows.mockResolvedValue([
      {
        flowId: 1,
        name: 'Item review',
        recordKind: 'item',
        isActive: true,
        states: [],
        version: 1,
        definition: {
          stages: [{ id: 'review', name: 'Reviewer', permission: 'ItemReviewer' }],
          submitPermission: 'ItemAuthor',
          retirePermission: 'ProjectAdmin',
        },
      },
    ]);
    api.grants.mockImplementation(async (query: PagedQuery) => page([], query));
    api.transition.mockResolvedValue({ fromStatus: 'Draft', toStatus: 'Setup', record: detail(5, { status: 'Setup' }) });
    const { user } = renderAt('/projects/setup', { '/projects/setup': <ProjectSetupPage />, '/exams': <p>exams screen</p> });

    await screen.findByRole('heading', { name: 'Set up Medical mock' });
    const next = () => user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByLabelText(/^Name/, { selector: '[data-testid=basics-form] input' })).toHaveValue('Medical mock');
    await next();
    const itemType = await screen.findByRole('form', { name: 'Single correct' });
    expect(within(itemType).getByLabelText(/^Correct/)).toHaveValue('4');
    expect(within(itemType).getByLabelText(/^Wrong/)).toHaveValue('-1');
    await next();
    expect(within(await screen.findByRole('form', { name: 'Optics' })).getByLabelText(/^Name/)).toHaveValue('Optics');
    await next();
    const flow = await screen.findByRole('form', { name: 'Item review' });
    expect(within(flow).getByLabelText(/^Stage 1/)).toHaveValue('Reviewer');
    await next();
    await screen.findByTestId('team-panel');
    await next();
    await screen.findByRole('heading', { name: 'Set-up complete' });
    await user.click(screen.getByRole('button', { name: 'Go to the exams' }));
    await screen.findByText('exams screen');
    expect(api.transition).toHaveBeenCalledWith(5, 'project.startSetup', 1);
  }, 20_000);

  it('should keep the show-project-config-stepper flag: unticking updates it to false, ticking removes it back to true', async () => {
    act(() => selectProject(detail(5) as unknown as Record<string, unknown>));
    api.get.mockResolvedValue(detail(5));
    api.itemTypes.mockResolvedValue([]);
    api.categories.mockResolvedValue([]);
    api.flows.mockResolvedValue([]);
    const { user } = renderAt('/projects/setup', { '/projects/setup': <ProjectSetupPage /> });
    // An Ark UI checkbox, named by its label.
    const box = await screen.findByRole('checkbox', { name: 'Open this set-up guide for new projects' });
    expect(box).toBeChecked();
    await user.click(box);
    await waitFor(() => expect(showProjectConfigStepperStore.getSnapshot().context.show).toBe(false));
    await user.click(box);
    await waitFor(() => expect(showProjectConfigStepperStore.getSnapshot().context.show).toBe(true));
  });
});

describe('the workspace bar', () => {
  it('should show nothing without a selected project', () => {
    renderAt('/exams', { '/exams': <WorkspaceBar /> });
    expect(screen.queryByTestId('workspace-bar')).toBeNull();
  });

  it('should show project › exam and switch the project from its menu, clearing the exam', async () => {
    act(() => {
      selectProject(detail(1) as unknown as Record<string, unknown>);
      selectExam(exam(3) as unknown as Record<string, unknown>);
    });
    api.search.mockImplementation(async (query: PagedQuery) => page([summary(1), summary(2)], query));
    const { user, location } = renderAt('/projects/team', { '*': <WorkspaceBar /> });
    const bar = await screen.findByTestId('workspace-bar');
    expect(within(bar).getByTestId('workspace-project').textContent).toContain('Project 1');
    expect(within(bar).getByTestId('workspace-exam').textContent).toContain('Exam 3');

    const menu = await openMenu(user, within(bar).getByTestId('workspace-project'));
    const target = await within(menu).findByRole('menuitem', { name: 'P-2 · Project 2' });
    for (let step = 0; step < 6 && menu.getAttribute('aria-activedescendant') !== target.id; step += 1) await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(projectStore.getSnapshot().context.selected).toMatchObject({ projectId: 2 }));
    expect(examStore.getSnapshot().context.selected).toBeNull();
    await waitFor(() => expect(within(screen.getByTestId('workspace-bar')).getByTestId('workspace-exam').textContent).toContain('none selected'));
    await waitFor(() => expect(location.current()).toBe('/exams'));
  }, 20_000);
});

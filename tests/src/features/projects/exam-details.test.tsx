import { act, screen, waitFor, within } from '@testing-library/react';
import { type ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allPermissions } from '#machines/permissions.ts';
import { examStore, userPermissionsStore } from '#src/app/stores/slices.ts';
import { selectExam, selectProject } from '#src/app/stores/workspace-selection.ts';
import type { Exam, HistoryEntry } from '#src/features/projects/api/projects-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt as renderScreen } from '#tests/src/support/render-at.tsx';

/**
 * Issue 15, the exam's own screen (/workspace/exam) and the project history: details and pass
 * rules saved on their version (a 409 keeps the input), status actions exactly as the server
 * lists them, withdrawing results only with a reason, and the history paged newest first.
 */
const projectsMock = vi.hoisted(() => ({ history: vi.fn(), get: vi.fn() }));
const examsMock = vi.hoisted(() => ({ get: vi.fn(), edit: vi.fn(), transition: vi.fn(), history: vi.fn(), myPermissions: vi.fn(), search: vi.fn() }));
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn() }));
vi.mock('#src/features/projects/api/projects-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/projects/api/projects-api.ts')>()),
  projectsApi: projectsMock,
  examsApi: examsMock,
}));
vi.mock('#src/app/notifications/notify.ts', () => ({ notify: toasts }));

const pages = await import('#src/features/projects/workspace-pages.tsx');
const { checkExamRules } = await import('#src/features/projects/components/exam-rules-editor.tsx');

const exam = (overrides: Partial<Exam> = {}): Exam => ({
  examId: 8,
  projectId: 5,
  code: 'MATH',
  name: 'Mathematics',
  description: 'Paper I and II',
  status: 'Draft',
  passRules: { passPercent: 33, sectionMinimumPercent: null },
  gradeBands: [
    { grade: 'A1', minPercent: 91 },
    { grade: 'A2', minPercent: 81 },
  ],
  version: 4,
  actions: ['exam.schedule', 'exam.edit'],
  createdOn: '2026-11-20T10:00:00.000Z',
  updatedOn: '2026-11-24T10:00:00.000Z',
  updatedBy: { userId: 'u-1', name: 'Asha Rao' },
  ...overrides,
});
const entry = (n: number, overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  event: 'exam.edit',
  fromStatus: null,
  toStatus: null,
  by: { userId: 'u-1', name: `User ${n}` },
  reason: null,
  fields: ['passRules'],
  at: `2026-11-2${n % 10}T10:00:00.000Z`,
  ...overrides,
});
const historyPage = (data: HistoryEntry[], pageNumber = 1, totalCount = data.length, pageSize = 10) => ({
  data,
  currentPage: pageNumber,
  totalPages: Math.ceil(totalCount / pageSize),
  totalCount,
  pageSize,
  hasPreviousPage: pageNumber > 1,
  hasNextPage: pageNumber * pageSize < totalCount,
});

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['projects', 'users', 'ui', 'errors', 'common']);
});
beforeEach(() => {
  act(() => {
    userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
    selectProject({ projectId: 5, name: 'Class 10 Board', status: 'Active' });
    selectExam({ examId: 8, name: 'Mathematics', status: 'Draft' });
  });
  examsMock.history.mockResolvedValue(historyPage([entry(1)]));
});
afterEach(() => vi.clearAllMocks());

const renderAt = (path: string, node: ReactNode) => renderScreen(path, { [path]: node });
const openExam = () => renderAt('/workspace/exam', <pages.ExamDetailsPage />);

describe('the exam details and pass rules', { timeout: 20_000 }, () => {
  it('should save the pass mark, section minimum and a new grade band on the version it was loaded at', async () => {
    examsMock.get.mockResolvedValue(exam());
    examsMock.edit.mockResolvedValue(exam({ version: 5, passRules: { passPercent: 40, sectionMinimumPercent: 25 } }));
    const { user } = openExam();
    const form = await screen.findByTestId('exam-rules-form');
    expect(screen.getByRole('heading', { level: 1, name: 'Exam: Mathematics' })).toBeInTheDocument();
    await user.clear(within(form).getByLabelText(/^Pass mark/));
    await user.type(within(form).getByLabelText(/^Pass mark/), '40');
    await user.type(within(form).getByLabelText(/^Minimum in every section/), '25');
    await user.click(within(form).getByRole('button', { name: 'Add a grade band' }));
    await user.type(within(form).getByLabelText(/^Grade 3/), 'B1');
    await user.type(within(form).getByLabelText(/^From \(%\) for grade 3/), '71');
    await user.click(within(form).getByRole('button', { name: 'Remove grade band A2' }));
    await user.click(within(form).getByRole('button', { name: 'Save details and rules' }));
    await waitFor(() =>
      expect(examsMock.edit).toHaveBeenCalledWith(8, {
        code: 'MATH',
        name: 'Mathematics',
        description: 'Paper I and II',
        passRules: { passPercent: 40, sectionMinimumPercent: 25 },
        gradeBands: [
          { grade: 'A1', minPercent: 91 },
          { grade: 'B1', minPercent: 71 },
        ],
        version: 4,
      }),
    );
    expect(toasts.success).toHaveBeenCalledWith('Mathematics saved.');
    // The selected exam follows the saved record; the history loads again from its first page.
    await waitFor(() => expect(examStore.getSnapshot().context.selected).toMatchObject({ examId: 8, version: 5 }));
    await waitFor(() => expect(examsMock.history).toHaveBeenCalledTimes(2));
  });

  it('should refuse bands that do not go down, a repeated grade and a pass mark over 100 before calling the server', async () => {
    examsMock.get.mockResolvedValue(exam());
    const { user } = openExam();
    const form = await screen.findByTestId('exam-rules-form');
    await user.clear(within(form).getByLabelText(/^Pass mark/));
    await user.type(within(form).getByLabelText(/^Pass mark/), '120');
    await user.clear(within(form).getByLabelText(/^From \(%\) for grade 2/));
    await user.type(within(form).getByLabelText(/^From \(%\) for grade 2/), '95');
    await user.click(within(form).getByRole('button', { name: 'Save details and rules' }));
    expect(await within(form).findByText('Each band must start below the band above it.')).toBeInTheDocument();
    expect(within(form).getByText('Enter a percentage from 0 to 100.')).toBeInTheDocument();
    expect(examsMock.edit).not.toHaveBeenCalled();
    const t = (key: string, options?: Record<string, unknown>) => `${key}${options ? JSON.stringify(options) : ''}`;
    const draft = { code: 'M', name: 'M', description: '', passPercent: '33', sectionMinimumPercent: '', gradeBands: [] };
    expect(
      checkExamRules(
        {
          ...draft,
          gradeBands: [
            { grade: 'A', minPercent: '80' },
            { grade: 'a', minPercent: '70' },
          ],
        },
        t,
      ),
    ).toEqual({
      'gradeBands[1].grade': ['examDetails.gradeTwice{"grade":"a"}'],
    });
    expect(checkExamRules({ ...draft, code: 'has space', passPercent: '' }, t)).toEqual({
      code: ['create.codeHint'],
      'passRules.passPercent': ['examDetails.percentRange'],
    });
    expect(checkExamRules(draft, t)).toEqual({});
  });

  it('should keep the input after a 409 and save it over their version when asked', async () => {
    examsMock.get.mockResolvedValue(exam());
    examsMock.edit
      .mockRejectedValueOnce({
        statusCode: 409,
        messages: ['This exam was changed by Ravi Kumar at 2026-11-25T09:00:00.000Z (version 5; your edit was made on version 4).'],
        currentVersion: 5,
        changedBy: { userId: 'u-2', name: 'Ravi Kumar' },
        changedAt: '2026-11-25T09:00:00.000Z',
      })
      .mockResolvedValueOnce(exam({ version: 6, passRules: { passPercent: 45 } }));
    const { user } = openExam();
    const form = await screen.findByTestId('exam-rules-form');
    await user.clear(within(form).getByLabelText(/^Pass mark/));
    await user.type(within(form).getByLabelText(/^Pass mark/), '45');
    await user.click(within(form).getByRole('button', { name: 'Save details and rules' }));
    const notice = await screen.findByTestId('stale-edit');
    expect(notice).toHaveTextContent('Ravi Kumar saved this while you were editing.');
    expect(within(form).getByLabelText(/^Pass mark/)).toHaveValue(45);
    await user.click(within(notice).getByRole('button', { name: 'Save mine over it' }));
    await waitFor(() => expect(examsMock.edit).toHaveBeenCalledTimes(2));
    expect(examsMock.edit.mock.calls[1][1]).toMatchObject({ passRules: { passPercent: 45, sectionMinimumPercent: null }, version: 5 });
    await waitFor(() => expect(screen.queryByTestId('stale-edit')).toBeNull());
  });

  it('should show frozen rules and only the status actions the server lists for a Live exam', async () => {
    examsMock.get.mockResolvedValue(exam({ status: 'Live', actions: ['exam.end'] }));
    openExam();
    expect(await screen.findByTestId('exam-rules-read-only')).toHaveTextContent('The rules are frozen: the exam is Live.');
    expect(screen.queryByRole('button', { name: 'Save details and rules' })).toBeNull();
    expect(screen.getByLabelText(/^Pass mark/)).toBeDisabled();
    const actions = screen.getByTestId('exam-status-actions');
    expect(
      within(actions)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['End (to evaluation)']);
  });

  it('should tell someone without the right that they may not change the exam, and offer no action', async () => {
    examsMock.get.mockResolvedValue(exam({ actions: [] }));
    openExam();
    expect(await screen.findByTestId('exam-rules-read-only')).toHaveTextContent('Only the project admin or an exam manager may change this exam.');
    expect(screen.getByTestId('exam-status-actions')).toHaveTextContent('There is nothing you can do with this exam in its current status.');
  });

  it('should withdraw published results only with a reason, and record the move', async () => {
    examsMock.get.mockResolvedValue(exam({ status: 'ResultsPublished', actions: ['exam.withdrawResults'] }));
    examsMock.transition.mockResolvedValue({
      fromStatus: 'ResultsPublished',
      toStatus: 'Evaluation',
      record: exam({ status: 'Evaluation', version: 5, actions: [] }),
    });
    const { user } = openExam();
    await user.click(await screen.findByRole('button', { name: 'Withdraw results' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw the results of Mathematics' });
    await waitFor(() => expect(within(dialog).getByLabelText(/^Reason/)).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw results' }));
    expect(await within(dialog).findByText('Give the reason for withdrawing the results.')).toBeInTheDocument();
    expect(examsMock.transition).not.toHaveBeenCalled();
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Wrong key in question 14');
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw results' }));
    await waitFor(() => expect(examsMock.transition).toHaveBeenCalledWith(8, 'exam.withdrawResults', 4, 'Wrong key in question 14'));
    expect(toasts.success).toHaveBeenCalledWith('Results of Mathematics withdrawn.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('heading', { level: 1 }).parentElement?.parentElement).toHaveTextContent('Evaluation');
  });

  it('should say to choose an exam first when none is selected', async () => {
    act(() => selectExam(null));
    openExam();
    expect(await screen.findByTestId('choose-exam')).toHaveTextContent('No exam selected');
    expect(examsMock.get).not.toHaveBeenCalled();
  });

  it('should show a failed load with a retry that loads again', async () => {
    examsMock.get.mockRejectedValueOnce({ statusCode: 404, messages: ['Exam not found.'] }).mockResolvedValueOnce(exam());
    const { user } = openExam();
    await user.click(await screen.findByRole('button', { name: /try again/i }));
    expect(await screen.findByTestId('exam-rules-form')).toBeInTheDocument();
  });
});

describe('the history', { timeout: 20_000 }, () => {
  it('should list the exam history newest first with who, from → to and the reason, and page on the server', async () => {
    examsMock.get.mockResolvedValue(exam());
    examsMock.history.mockImplementation(async (_examId: number, { pageNumber }: { pageNumber: number }) =>
      pageNumber === 1
        ? historyPage(
            [
              entry(3, { event: 'exam.withdrawResults', fromStatus: 'ResultsPublished', toStatus: 'Evaluation', reason: 'Key error', fields: [] }),
              ...Array.from({ length: 9 }, (_, i) => entry(i + 4)),
            ],
            1,
            12,
          )
        : historyPage([entry(1), entry(2, { event: 'exam.create', toStatus: 'Draft', fields: [] })], 2, 12),
    );
    const { user } = openExam();
    const list = await screen.findByTestId('exam-history');
    const rows = within(list).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('User 3');
    expect(rows[1]).toHaveTextContent('Results withdrawn');
    expect(rows[1]).toHaveTextContent('Results published → Evaluation');
    expect(rows[1]).toHaveTextContent('Key error');
    expect(rows[2]).toHaveTextContent('Changed: pass rules');
    await user.click(within(list).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(examsMock.history).toHaveBeenLastCalledWith(8, { pageNumber: 2, pageSize: 10 }));
    await waitFor(() => expect(within(screen.getByTestId('exam-history')).getAllByRole('row')).toHaveLength(3));
    expect(within(screen.getByTestId('exam-history')).getAllByRole('row')[2]).toHaveTextContent('— → Draft');
  });

  it('should show the project history, an empty history and a failed one', async () => {
    projectsMock.history.mockResolvedValueOnce(
      historyPage([
        { event: 'project.close', fromStatus: 'Active', toStatus: 'Closed', by: null, reason: 'Sitting over', fields: [], at: '2026-11-25T08:00:00.000Z' },
      ]),
    );
    renderAt('/workspace/history', <pages.ProjectHistoryPage />);
    const list = await screen.findByTestId('project-history');
    expect(screen.getByRole('heading', { level: 1, name: 'History of Class 10 Board' })).toBeInTheDocument();
    expect(within(list).getAllByRole('row')[1]).toHaveTextContent('Unknown user');
    expect(within(list).getAllByRole('row')[1]).toHaveTextContent('Active → Closed');
    expect(within(list).getAllByRole('row')[1]).toHaveTextContent('Sitting over');
    expect(projectsMock.history).toHaveBeenCalledWith(5, { pageNumber: 1, pageSize: 10 });
  });

  it('should say when nothing was recorded, and offer a retry after a failure', async () => {
    projectsMock.history.mockRejectedValueOnce({ statusCode: 500, messages: ['Boom'] }).mockResolvedValueOnce(historyPage([]));
    const { user } = renderAt('/workspace/history', <pages.ProjectHistoryPage />);
    await user.click(await screen.findByRole('button', { name: /try again/i }));
    expect(await screen.findByText('Nothing has been recorded yet.')).toBeInTheDocument();
  });
});

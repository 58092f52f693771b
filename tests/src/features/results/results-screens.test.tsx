import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allPermissions } from '#machines/permissions.ts';
import { resultStore, userPermissionsStore } from '#src/app/stores/slices.ts';
import type { MarkingTask, ResultDetail, ResultSummary } from '#src/features/results/api/results-api.ts';
import { initI18n } from '#src/i18n/i18n.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';
import { chooseOption } from '#tests/src/support/select.ts';

const mine = vi.hoisted(() => ({ list: vi.fn(), get: vi.fn(), requestReevaluation: vi.fn() }));
const marking = vi.hoisted(() => ({ exams: vi.fn(), queue: vi.fn(), mark: vi.fn(), progress: vi.fn(), results: vi.fn(), moderate: vi.fn(), publish: vi.fn() }));
vi.mock('#src/features/results/api/results-api.ts', () => ({ myResultsApi: mine, markingApi: marking }));

const { default: MyResultsPage } = await import('#src/features/results/results-page.tsx');

const summary: ResultSummary = {
  resultId: 7,
  examId: 3,
  examName: 'JEE Mock',
  paperCode: 'MATH-1',
  paperTitle: 'Mathematics',
  status: 'Published',
  total: 11,
  maxTotal: 22,
  percent: 50,
  grade: 'B',
  passed: true,
  publishedAt: '2027-04-01T06:30:00.000Z',
};

const choiceContent = {
  kind: 'singleChoice' as const,
  variants: { en: { stem: '<p>Which is prime?</p>', choices: { A: 'Seven', B: 'Eight' } } },
  marking: { correct: 4, wrong: -1, unanswered: 0 },
  media: [],
  options: [
    { id: 'A', keepLast: false },
    { id: 'B', keepLast: false },
  ],
  correct: 'A',
  shuffle: true,
};

function detail(over: Partial<ResultDetail> = {}): ResultDetail {
  return {
    ...summary,
    sections: [
      { sectionId: '1', title: 'A: Choice', total: 3, maxTotal: 12, attemptAny: null },
      { sectionId: '2', title: 'B: Essay', total: 8, maxTotal: 10, attemptAny: null },
    ],
    medium: 'en',
    answerSheet: [
      { number: 1, sectionId: '1', kind: 'singleChoice', content: choiceContent, response: 'B', outcome: 'wrong', marks: -1, maxMarks: 4, counted: true },
      { number: 2, sectionId: '1', kind: 'singleChoice', content: choiceContent, response: null, outcome: 'unanswered', marks: 0, maxMarks: 4, counted: true },
      {
        number: 3,
        sectionId: '2',
        kind: 'essay',
        content: {
          kind: 'essay',
          variants: { en: { stem: '<p>Describe the water cycle.</p>', rubric: null } },
          marking: { correct: 10, wrong: 0, unanswered: 0 },
          media: [],
          wordLimit: null,
        },
        response: 'Water evaporates.',
        outcome: 'partial',
        marks: 8,
        maxMarks: 10,
        counted: true,
      },
    ],
    reevaluation: { openUntil: '2027-04-08T06:30:00.000Z', canRequest: true, ticketId: null, items: [] },
    history: [{ event: 'result.publish', fromStatus: 'Moderated', toStatus: 'Published', reason: null, details: {}, at: '2027-04-01T06:30:00.000Z' }],
    ...over,
  };
}

beforeAll(async () => {
  await initI18n('en-US');
});
beforeEach(() => {
  vi.clearAllMocks();
  userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
});

describe('My results', () => {
  it('should list the published results with score, grade and pass, linking to each', async () => {
    mine.list.mockResolvedValue([summary]);
    mine.get.mockResolvedValue(detail());
    const { user, location } = renderAt('/results', { '/results': <MyResultsPage /> });
    const row = await screen.findByTestId('result-7');
    expect(row).toHaveTextContent('11 of 22 marks (50 %)');
    expect(row).toHaveTextContent('Grade B');
    expect(row).toHaveTextContent('Passed');
    await user.click(within(row).getByRole('link', { name: /JEE Mock/ }));
    await waitFor(() => expect(location.current()).toBe('/results?result=7'));
    expect(mine.get).toHaveBeenCalledWith(7);
  });

  it('should say when nothing is published yet, and offer a retry after a failure', async () => {
    mine.list.mockResolvedValueOnce([]);
    renderAt('/results', <MyResultsPage />);
    expect(await screen.findByText('No result has been published for you yet.')).toBeInTheDocument();
  });

  it('should reset the result slice when a result fails to load', async () => {
    resultStore.trigger.select({ record: { resultId: 3 } });
    mine.get.mockRejectedValueOnce(new Error('down'));
    renderAt('/results?result=7', { '/results': <MyResultsPage /> });
    await screen.findByRole('button', { name: /try again|retry/i });
    expect(resultStore.getSnapshot().context.selected).toBeNull();
  });

  it('should show an error with a retry that loads again', async () => {
    mine.list.mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce([summary]);
    const { user } = renderAt('/results', <MyResultsPage />);
    await user.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByTestId('result-7')).toBeInTheDocument();
  });
});

describe('A result and its answer sheet', () => {
  it('should show each item with the answer, the key and the marks, and the sections', async () => {
    mine.get.mockResolvedValue(detail());
    renderAt('/results?result=7', { '/results': <MyResultsPage /> });
    const sheet = await screen.findByTestId('answer-sheet');
    expect(mine.get).toHaveBeenCalledWith(7);
    // The result open is the result slice (spec §4), without its answer sheet.
    expect(resultStore.getSnapshot().context.selected).toMatchObject({ resultId: 7, status: detail().status, total: detail().total });
    expect(resultStore.getSnapshot().context.selected).not.toHaveProperty('answerSheet');
    const first = within(sheet).getByTestId('sheet-1');
    expect(first).toHaveTextContent('Which is prime?');
    expect(first).toHaveTextContent('Eight');
    expect(first).toHaveTextContent('Seven');
    expect(first).toHaveTextContent('-1 / 4');
    expect(within(sheet).getByTestId('sheet-2')).toHaveTextContent('Not answered');
    expect(within(sheet).getByTestId('sheet-3')).toHaveTextContent('Marked by an evaluator');
    expect(within(sheet).getByTestId('sheet-3')).toHaveTextContent('8 / 10');
    expect(screen.getByTestId('result-sections')).toHaveTextContent('B: Essay8 / 10');
  });

  it('should say when the exam does not show answer sheets', async () => {
    mine.get.mockResolvedValue(detail({ answerSheet: null, reevaluation: { openUntil: null, canRequest: false, ticketId: null, items: [] } }));
    renderAt('/results?result=7', { '/results': <MyResultsPage /> });
    expect(await screen.findByText('This exam does not show answer sheets.')).toBeInTheDocument();
    expect(screen.queryByTestId('request-reevaluation')).toBeNull();
  });

  it('should request re-evaluation of the chosen questions with a reason and show the linked ticket', async () => {
    mine.get.mockResolvedValue(detail());
    mine.requestReevaluation.mockResolvedValue(
      detail({ status: 'ReevaluationRequested', reevaluation: { openUntil: '2027-04-08T06:30:00.000Z', canRequest: false, ticketId: 55, items: [3] } }),
    );
    const { user } = renderAt('/results?result=7', { '/results': <MyResultsPage /> });
    await user.click(await screen.findByTestId('request-reevaluation'));
    const dialog = await screen.findByRole('dialog', { name: 'Request re-evaluation' });
    const send = within(dialog).getByTestId('reevaluation-confirm');
    expect(send).toBeDisabled();
    await user.click(within(dialog).getByText('Question 3'));
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox'), 'Precipitation was described.');
    await user.click(send);
    await waitFor(() => expect(mine.requestReevaluation).toHaveBeenCalledWith(7, [3], 'Precipitation was described.'));
    expect(await screen.findByTestId('reevaluation-ticket')).toHaveTextContent('ticket #55, questions 3');
    expect(screen.getByRole('status')).toHaveTextContent('Your request was sent.');
    expect(screen.queryByTestId('request-reevaluation')).toBeNull();
  });

  it('should keep the dialog open with the reason when the server refuses', async () => {
    mine.get.mockResolvedValue(detail());
    mine.requestReevaluation.mockRejectedValue(
      Object.assign(new Error('closed'), { response: { status: 409, data: { messages: ['The time to ask for re-evaluation of this result is over.'] } } }),
    );
    const { user } = renderAt('/results?result=7', { '/results': <MyResultsPage /> });
    await user.click(await screen.findByTestId('request-reevaluation'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByText('Question 1'));
    await user.type(within(dialog).getByRole('textbox'), 'Please');
    await user.click(within(dialog).getByTestId('reevaluation-confirm'));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('Marking queue', () => {
  const task: MarkingTask = {
    taskId: 91,
    scriptId: '3f6c1d2e-0000-4000-8000-000000000001',
    itemNumber: 4,
    round: 1,
    maxMarks: 10,
    stem: 'Describe the water cycle.',
    rubric: 'Evaporation 4, condensation 3, precipitation 3.',
    answer: 'Water evaporates and falls as rain.',
    earlierMarks: [],
  };

  it('should show the anonymised answer with its rubric and save a mark within the maximum', async () => {
    marking.exams.mockResolvedValue([{ examId: 3, code: 'JEE', name: 'JEE Mock' }]);
    marking.queue.mockResolvedValueOnce([task]).mockResolvedValueOnce([]);
    marking.mark.mockResolvedValue({ taskId: 91, state: 'final', resultStatus: 'Provisional' });
    const { user } = renderAt('/results?view=marking', { '/results': <MyResultsPage /> });
    expect(await screen.findByText('Choose an exam to begin.')).toBeInTheDocument();
    await chooseOption(user, within(screen.getByTestId('marking-exam')).getByRole('combobox'), 'JEE · JEE Mock');
    const form = await screen.findByTestId('task-91');
    expect(marking.queue).toHaveBeenCalledWith(3);
    expect(form).toHaveTextContent('Script 3f6c1d2e');
    expect(form).toHaveTextContent('Evaporation 4');
    expect(within(form).getByTestId('task-answer')).toHaveTextContent('Water evaporates and falls as rain.');
    const save = within(form).getByTestId('task-submit');
    await user.type(within(form).getByTestId('task-marks'), '11');
    expect(save).toBeDisabled();
    await user.clear(within(form).getByTestId('task-marks'));
    await user.type(within(form).getByTestId('task-marks'), '7');
    await user.type(within(form).getByTestId('task-comment'), 'Missed precipitation');
    await user.click(save);
    await waitFor(() => expect(marking.mark).toHaveBeenCalledWith(91, 7, 'Missed precipitation'));
    expect(await screen.findByRole('status')).toHaveTextContent('Mark saved.');
    expect(await screen.findByText('Nothing to mark in this exam right now.')).toBeInTheDocument();
  });

  it('should tell the evaluator when their mark sends the answer to a third marker', async () => {
    marking.exams.mockResolvedValue([{ examId: 3, code: 'JEE', name: 'JEE Mock' }]);
    marking.queue.mockResolvedValueOnce([{ ...task, round: 2 }]).mockResolvedValueOnce([]);
    marking.mark.mockResolvedValue({ taskId: 91, state: 'thirdMarker', resultStatus: 'Marking' });
    const { user } = renderAt('/results?view=marking', { '/results': <MyResultsPage /> });
    await chooseOption(user, within(await screen.findByTestId('marking-exam')).getByRole('combobox'), 'JEE · JEE Mock');
    const form = await screen.findByTestId('task-91');
    expect(form).toHaveTextContent('Second mark (blind)');
    await user.type(within(form).getByTestId('task-marks'), '2');
    await user.click(within(form).getByTestId('task-submit'));
    expect(await screen.findByRole('status')).toHaveTextContent('a moderator gives the third mark');
  });
});

describe('Results and moderation console', () => {
  it('should show progress per evaluator and question, moderate with a reason and publish', async () => {
    marking.exams.mockResolvedValue([{ examId: 3, code: 'JEE', name: 'JEE Mock' }]);
    marking.results.mockResolvedValue({ examId: 3, counts: { Provisional: 2, Marking: 1 }, results: [] });
    marking.progress.mockResolvedValue({
      examId: 3,
      byEvaluator: [{ markerId: 'u-1', name: 'Eva One', marked: 4, mean: 0.5, sd: 0.1 }],
      byItem: [{ itemNumber: 4, total: 6, marked: 4, waitingThirdMarker: 1 }],
      overall: { mean: 0.6, sd: 0.12, count: 8 },
    });
    marking.moderate.mockResolvedValue({ adjusted: 4, results: 4 });
    marking.publish.mockResolvedValue({ published: 2, stillMarking: 1, withheld: 0 });
    const { user } = renderAt('/results?view=console', { '/results': <MyResultsPage /> });
    await chooseOption(user, within(await screen.findByTestId('console-exam')).getByRole('combobox'), 'JEE · JEE Mock');
    const evaluators = await screen.findByTestId('progress-evaluators');
    expect(evaluators).toHaveTextContent('Eva One');
    expect(evaluators).toHaveTextContent('50 %');
    expect(screen.getByTestId('progress-items')).toHaveTextContent('Question 44 / 61');
    expect(screen.getByTestId('result-counts')).toHaveTextContent('Being marked: 1');

    await user.click(screen.getByTestId('moderate-u-1'));
    const dialog = await screen.findByRole('dialog', { name: 'Moderate the marks of Eva One' });
    expect(dialog).toHaveTextContent('Their mean is 50 % (SD 10 %); all evaluators: 60 % (SD 12 %).');
    const apply = within(dialog).getByTestId('moderate-confirm');
    expect(apply).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Reason/), 'Marks a mark low');
    await user.click(apply);
    await waitFor(() => expect(marking.moderate).toHaveBeenCalledWith({ examId: 3, markerId: 'u-1', kind: 'shift', value: 1, reason: 'Marks a mark low' }));
    expect(await screen.findByRole('status')).toHaveTextContent('4 marks adjusted in 4 results.');

    await user.click(screen.getByTestId('publish-results'));
    await waitFor(() => expect(marking.publish).toHaveBeenCalledWith(3));
    expect(await screen.findByText('2 results published; 1 still being marked.')).toBeInTheDocument();
  });
});

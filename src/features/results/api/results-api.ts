import type { ItemContent } from '#machines/items/item-schema.ts';
import type { ResultStatus } from '#machines/results/result.machine.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import type { ResultSettings } from '#machines/results/marking.ts';

/**
 * Results and marking calls (server/modules/results, docs/decisions/0250–0254). The candidate's
 * own results are global calls; the console's (marking, progress, moderation, publication)
 * are project calls. Screens show their own failures.
 */
const api = () => serviceApi('examService');
const global = { showErrors: false, workspace: 'global' } as const;
const project = { showErrors: false, workspace: 'project' } as const;

export interface ResultSummary {
  resultId: number;
  examId: number;
  examName: string;
  paperCode: string;
  paperTitle: string;
  status: ResultStatus;
  total: number;
  maxTotal: number;
  percent: number;
  grade: string | null;
  passed: boolean;
  publishedAt: string | null;
}

export interface AnswerSheetItem {
  number: number;
  sectionId: string;
  kind: string;
  content: ItemContent | null;
  response: unknown;
  outcome: string;
  marks: number | null;
  maxMarks: number;
  counted: boolean;
}

export interface ResultDetail extends ResultSummary {
  sections: Array<{ sectionId: string; title: string; total: number; maxTotal: number; attemptAny: number | null }>;
  medium: string;
  answerSheet: AnswerSheetItem[] | null;
  reevaluation: { openUntil: string | null; canRequest: boolean; ticketId: number | null; items: number[] };
  history: Array<{ event: string; fromStatus: string | null; toStatus: string | null; reason: string | null; details: Record<string, unknown>; at: string }>;
}

export const myResultsApi = {
  list: () => api().get<ResultSummary[]>('/v1/result/mine', global),
  get: (id: number) => api().get<ResultDetail>(`/v1/result/mine/${id}`, global),
  requestReevaluation: (id: number, items: number[], reason: string) =>
    api().post<ResultDetail>(`/v1/result/mine/${id}/reevaluation`, { items, reason }, global),
};

export interface ExamOption {
  examId: number;
  code: string;
  name: string;
}

export interface MarkingTask {
  taskId: number;
  scriptId: string;
  itemNumber: number;
  round: number;
  maxMarks: number;
  stem: string;
  rubric: string | null;
  answer: string;
  earlierMarks: Array<{ round: number; marks: number; comment: string | null }>;
}

export interface MarkingProgress {
  examId: number;
  byEvaluator: Array<{ markerId: string; name: string; marked: number; mean: number; sd: number }>;
  byItem: Array<{ itemNumber: number; total: number; marked: number; waitingThirdMarker: number }>;
  overall: { mean: number; sd: number; count: number };
}

/** The exam's result settings (docs/decisions/0259). */
export type { ResultSettings };

export interface ExamResults {
  examId: number;
  counts: Record<string, number>;
  settings: ResultSettings;
  results: Array<{
    resultId: number;
    scriptId: string;
    candidateName: string;
    rollNumber: string | null;
    paperCode: string;
    status: ResultStatus;
    total: number;
    maxTotal: number;
    percent: number;
    grade: string | null;
    passed: boolean;
    awaitingMarks: number;
    reevaluationTicketId: number | null;
  }>;
}

export const markingApi = {
  exams: () =>
    api()
      .post<{ data: ExamOption[] }>('/v1/exam/search', { pageNumber: 1, pageSize: 100 }, project)
      .then((page) => page.data),
  queue: (examId: number) => api().get<MarkingTask[]>(`/v1/marking/queue?examId=${examId}`, project),
  mark: (taskId: number, marks: number, comment: string) =>
    api().post<{ taskId: number; state: 'awaiting' | 'thirdMarker' | 'final'; resultStatus: ResultStatus }>(
      `/v1/marking/task/${taskId}`,
      { marks, comment },
      project,
    ),
  progress: (examId: number) => api().get<MarkingProgress>(`/v1/marking/progress?examId=${examId}`, project),
  results: (examId: number) => api().get<ExamResults>(`/v1/exam/${examId}/results`, project),
  moderate: (body: { examId: number; markerId: string; kind: 'shift' | 'scale'; value: number; reason: string }) =>
    api().post<{ adjusted: number; results: number }>('/v1/marking/moderate', body, project),
  saveSettings: (examId: number, settings: ResultSettings) => api().put<ResultSettings>(`/v1/exam/${examId}/result-settings`, settings, project),
  publish: (examId: number) =>
    api().post<{ published: number; stillMarking: number; withheld: number }>(`/v1/exam/${examId}/results/publish`, undefined, project),
};

import type { ExportColumn, ExportFileType, ExportFilters, ExportKind } from '#machines/results/export-catalogue.ts';
import type { ItemStatistics, PaperStatistics } from '#machines/results/statistics.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import { download } from '#src/lib/http/transfer.ts';

/**
 * Typed calls of item statistics (a paper call: ExamId) and export templates with their runs
 * (project calls: ProjectId), server/modules/statistics. Screens show their own failures.
 */
const SERVICE = 'resultService' as const;
const results = () => serviceApi(SERVICE);
const paperCall = { showErrors: false, workspace: 'paper' } as const;
const projectCall = { showErrors: false, workspace: 'project' } as const;

/** An item's figures as the route answers them: the machine's statistics with the item's place in the set. */
export interface ItemStatisticsRecord extends ItemStatistics {
  number: number;
  versionId: string;
  kind: string;
  maxScore: number;
  key: string[];
}

export interface PaperStatisticsRecord {
  paperId: number;
  code: string;
  title: string;
  deliveries: number;
  awaitingMarking: number;
  computedAt: string;
  paper: PaperStatistics & { maxTotal: number };
  items: ItemStatisticsRecord[];
  flagged: number;
}

export interface ExportTemplateRecord {
  exportTemplateId: number;
  name: string;
  recordKind: ExportKind;
  fileType: ExportFileType;
  columns: ExportColumn[];
  filters: ExportFilters;
  version: number;
  updatedAt: string;
  updatedBy: { userId: string; name: string } | null;
}

export interface ExportTemplateBody {
  name: string;
  recordKind: ExportKind;
  fileType: ExportFileType;
  columns: ExportColumn[];
  filters: ExportFilters;
}

export interface ExportRunRecord {
  runId: string;
  exportTemplateId: number | null;
  templateName: string;
  state: 'queued' | 'running' | 'finished' | 'failed';
  totalRows: number;
  rowsWritten: number;
  message: string | null;
  fileName: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export const statisticsApi = {
  statistics: (paperId: number) => results().get<PaperStatisticsRecord>(`/v1/paper/${paperId}/statistics`, paperCall),
  templates: () => results().get<ExportTemplateRecord[]>('/v1/exporttemplate', projectCall),
  createTemplate: (body: ExportTemplateBody) => results().post<ExportTemplateRecord>('/v1/exporttemplate', body, projectCall),
  editTemplate: (id: number, body: Omit<ExportTemplateBody, 'recordKind'> & { version: number }) =>
    results().put<ExportTemplateRecord>(`/v1/exporttemplate/${id}`, body, projectCall),
  removeTemplate: (id: number, version: number) =>
    results().delete<{ deleted: boolean }>(`/v1/exporttemplate/${id}`, { ...projectCall, headers: { 'If-Match': `"${version}"` } }),
  run: (id: number, body: { filters?: ExportFilters; language?: string }) => results().post<ExportRunRecord>(`/v1/exporttemplate/${id}/run`, body, projectCall),
  runs: () => results().get<ExportRunRecord[]>('/v1/exportrun', projectCall),
  runStatus: (runId: string) => results().get<ExportRunRecord>(`/v1/exportrun/${runId}`, projectCall),
  file: (runId: string) => download(SERVICE, { url: `/v1/exportrun/${runId}/file`, method: 'GET', showErrors: false, workspace: 'project' }),
};

import type { ProjectDetail, ProjectSummary } from '#machines/exams/project-record.ts';
import type { ItemTypeSettings } from '#machines/exams/item-types.ts';
import type { FlowDefinition } from '#machines/exams/review-flow.machine.ts';
import type { ItemKind } from '#machines/items/item-schema.ts';
import type { PagedQuery, PagedResult } from '#machines/paged-search.machine.ts';
import type { ExamPermission as ExamPermissionName } from '#machines/permissions.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import { download, upload } from '#src/lib/http/transfer.ts';

/**
 * Typed calls of the exam workspace (server/modules/exams, docs/decisions/0090–0095). Project
 * listing, creation and templates are global calls; everything about one project is a project
 * call that carries the selected project in `ProjectId` (the HTTP layer adds it from the
 * project slice, src/lib/http/headers.ts). Screens show their own failures (`showErrors: false`).
 */
const projects = () => serviceApi('projectService');
const exams = () => serviceApi('examService');
const quiet = { showErrors: false } as const;
const global = { ...quiet, workspace: 'global' } as const;
const projectCall = { ...quiet, workspace: 'project' } as const;

export const projectStatuses = ['Draft', 'Setup', 'Active', 'Closed', 'Archived'] as const;
export type ProjectStatus = (typeof projectStatuses)[number];
export type ProjectEventName = 'project.startSetup' | 'project.activate' | 'project.close' | 'project.reopen' | 'project.archive' | 'project.restore';
/** The status changes a row menu offers (edit and configure are the screens themselves). */
export const projectStatusEvents: readonly ProjectEventName[] = ['project.startSetup', 'project.activate', 'project.close', 'project.reopen'];
export const contentLanguages = ['en', 'hi', 'gu', 'fr', 'es'] as const;

/** The project record's shape is shared with the server (machines/exams/project-record.ts). */
export type { ProjectDetail, ProjectSummary };

export interface ProjectTemplate {
  templateId: number;
  name: string;
  description: string;
  isSystem: boolean;
  config: {
    itemTypes: Array<{ name: string; kind: string }>;
    categories: Array<{ ref: string; name: string; parent: string | null }>;
    flows: Array<{ name: string; recordKind: string }>;
  };
  version: number;
  createdOn: string;
}

export interface NewProject {
  code: string;
  name: string;
  description?: string;
  languages?: string[];
  templateId?: number | null;
}

/** Pass rules of an exam: the pass mark, and optionally a minimum in every section (percent). */
export interface PassRules {
  passPercent: number;
  sectionMinimumPercent?: number | null;
}

/** A grade band: the grade from `minPercent` up to the band above it (highest first). */
export interface GradeBand {
  grade: string;
  minPercent: number;
}

export interface Exam {
  examId: number;
  projectId: number;
  code: string;
  name: string;
  description: string;
  status: string;
  passRules: PassRules;
  gradeBands: GradeBand[];
  version: number;
  actions: string[];
  createdOn: string;
  updatedOn: string;
  updatedBy: { userId: string; name: string } | null;
}

export interface ExamEdit {
  code?: string;
  name?: string;
  description?: string;
  passRules?: PassRules;
  gradeBands?: GradeBand[];
  version: number;
}

/** One line of a project's or an exam's history (docs/decisions/0166): newest first, paged. */
export interface HistoryEntry {
  event: string;
  fromStatus: string | null;
  toStatus: string | null;
  by: { userId: string; name: string } | null;
  reason: string | null;
  fields: string[];
  at: string;
}

export interface MyExamPermissions {
  examId: number;
  projectId: number;
  paperId: number | null;
  permissions: ExamPermissionName[];
  tenantManager: boolean;
  actions: string[];
}

export interface ItemType {
  itemTypeId: number;
  name: string;
  kind: ItemKind;
  settings: ItemTypeSettings;
  marking: { correct: number; wrong: number; unanswered?: number };
  isActive: boolean;
  sortOrder: number;
  version: number;
}

export interface Category {
  categoryId: number;
  parentId: number | null;
  name: string;
  sortOrder: number;
  isRetired: boolean;
  fileCount: number;
  version: number;
}

export interface CategoryFile {
  fileId: string;
  categoryId: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  uploadedBy: { userId: string; name: string } | null;
  uploadedOn: string;
}

export interface Flow {
  flowId: number;
  name: string;
  recordKind: 'item' | 'paper';
  isActive: boolean;
  states: string[];
  definition: FlowDefinition;
  version: number;
}

/** A flow edit's answer: where records of removed stages went (docs/decisions/0092). */
export type EditedFlow = Flow & { stageMoves: Array<{ from: string; to: string }> };

/** What saving a definition would do (docs/decisions/0200): per removed stage, where its records go and how many. */
export interface FlowPreview {
  version: number;
  stageMoves: Array<{ from: string; fromName: string; to: string; toName: string; records: number }>;
  affectedRecords: number;
}

export interface Grant {
  grantId: number;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  projectId: number;
  examId: number | null;
  examName: string | null;
  permission: ExamPermissionName;
  grantedOn: string;
}

export interface GrantablePermission {
  name: ExamPermissionName;
  description: string;
}

/** The paged search body of spec §3 from a list screen's query (filters are the screen's own fields). */
export function searchBody(query: PagedQuery): Record<string, unknown> {
  const filters = Object.fromEntries(Object.entries(query.filters).filter(([, value]) => value !== '' && value !== undefined && value !== null));
  // No order is left out: the server's validator coerces `orderBy: null` to [""] and refuses it.
  const orderBy = (query.orderBy ?? []).filter((entry) => entry.trim() !== '');
  return { keyword: query.keyword || null, pageNumber: query.pageNumber, pageSize: query.pageSize, ...(orderBy.length ? { orderBy } : {}), ...filters };
}

/** A project call about one project sends that project, also before it is selected (right after creating it). */
const aboutProject = (projectId: number) => ({ ...projectCall, headers: { ProjectId: String(projectId) } });

export const projectsApi = {
  search: (query: PagedQuery) => projects().post<PagedResult<ProjectSummary>>('/v1/project/search', searchBody(query), global),
  create: (body: NewProject) => projects().post<ProjectDetail>('/v1/project', body, global),
  get: (projectId: number) => projects().get<ProjectDetail>(`/v1/project/${projectId}`, aboutProject(projectId)),
  edit: (projectId: number, body: Partial<NewProject> & { version: number }) =>
    projects().put<ProjectDetail>(`/v1/project/${projectId}`, body, aboutProject(projectId)),
  transition: (projectId: number, event: ProjectEventName, version?: number, reason?: string) =>
    projects().post<{ fromStatus: string; toStatus: string; record: ProjectDetail }>(
      `/v1/project/${projectId}/status`,
      { event, version, ...(reason ? { reason } : {}) },
      aboutProject(projectId),
    ),
  /** What happened to the project, newest first (a page of spec §3's paged answer). */
  history: (projectId: number, query: Pick<PagedQuery, 'pageNumber' | 'pageSize'>) =>
    projects().get<PagedResult<HistoryEntry>>(`/v1/project/${projectId}/history`, {
      ...aboutProject(projectId),
      params: { pageNumber: query.pageNumber, pageSize: query.pageSize },
    }),
  templates: () => projects().get<ProjectTemplate[]>('/v1/projecttemplate', global),
  saveTemplate: (projectId: number, body: { name: string; description?: string }) =>
    projects().post<ProjectTemplate>(`/v1/project/${projectId}/savetemplate`, body, aboutProject(projectId)),
  deleteTemplate: (templateId: number) => projects().delete<{ deleted: boolean }>(`/v1/projecttemplate/${templateId}`, global),

  itemTypes: (projectId: number) => projects().get<ItemType[]>('/v1/itemtype', aboutProject(projectId)),
  categories: (projectId: number) => projects().get<Category[]>('/v1/category', aboutProject(projectId)),
  createItemType: (projectId: number, body: { name: string; kind: ItemKind; settings?: ItemTypeSettings; marking: ItemType['marking'] }) =>
    projects().post<ItemType>('/v1/itemtype', body, aboutProject(projectId)),
  editItemType: (
    projectId: number,
    itemTypeId: number,
    body: { name?: string; settings?: ItemTypeSettings; marking?: ItemType['marking']; isActive?: boolean; version: number },
  ) => projects().put<ItemType>(`/v1/itemtype/${itemTypeId}`, body, aboutProject(projectId)),
  createCategory: (projectId: number, body: { name: string; parentId?: number | null }) =>
    projects().post<Category>('/v1/category', body, aboutProject(projectId)),
  editCategory: (projectId: number, categoryId: number, body: { name?: string; isRetired?: boolean; version: number }) =>
    projects().put<Category>(`/v1/category/${categoryId}`, body, aboutProject(projectId)),
  /** Under another parent (null: top level) and/or to another place among its siblings; a cycle is refused (409). */
  moveCategory: (projectId: number, categoryId: number, body: { parentId: number | null; sortOrder: number; version: number }) =>
    projects().post<Category>(`/v1/category/${categoryId}/move`, body, aboutProject(projectId)),
  deleteCategory: (projectId: number, categoryId: number) => projects().delete<{ deleted: boolean }>(`/v1/category/${categoryId}`, aboutProject(projectId)),
  categoryFiles: (projectId: number, categoryId: number) =>
    projects().get<CategoryFile[]>('/v1/categoryfile', { ...aboutProject(projectId), params: { categoryId } }),
  /** Multipart: the category and up to five files (the server checks each by content). A project call: the selected project's header. */
  uploadCategoryFiles: (categoryId: number, files: File[]) => {
    const form = new FormData();
    form.append('categoryId', String(categoryId));
    for (const file of files) form.append('files', file, file.name);
    return upload<CategoryFile[]>('projectService', { url: '/v1/categoryfile', form, showErrors: false });
  },
  downloadCategoryFile: (fileId: string) => download('projectService', { url: `/v1/categoryfile/${fileId}`, method: 'GET', showErrors: false }),
  deleteCategoryFile: (projectId: number, fileId: string) => projects().delete<{ deleted: boolean }>(`/v1/categoryfile/${fileId}`, aboutProject(projectId)),
  flows: (projectId: number) => projects().get<Flow[]>('/v1/flow', aboutProject(projectId)),
  createFlow: (projectId: number, body: { name: string; recordKind: 'item' | 'paper'; definition: FlowDefinition }) =>
    projects().post<Flow>('/v1/flow', body, aboutProject(projectId)),
  editFlow: (projectId: number, flowId: number, body: { name?: string; definition?: FlowDefinition; isActive?: boolean; version: number }) =>
    projects().put<EditedFlow>(`/v1/flow/${flowId}`, body, aboutProject(projectId)),
  previewFlow: (projectId: number, flowId: number, definition: FlowDefinition) =>
    projects().post<FlowPreview>(`/v1/flow/${flowId}/preview`, { definition }, aboutProject(projectId)),

  grants: (query: PagedQuery) => projects().post<PagedResult<Grant>>('/v1/examgrant/search', searchBody(query), projectCall),
  grant: (body: { userId: string; examId?: number | null; permission: ExamPermissionName }) => projects().post<Grant>('/v1/examgrant', body, projectCall),
  revoke: (grantId: number) => projects().delete<{ deleted: boolean }>(`/v1/examgrant/${grantId}`, projectCall),
  grantablePermissions: () => projects().get<GrantablePermission[]>('/v1/examgrant/permissions', global),
};

export const examsApi = {
  search: (query: PagedQuery) => exams().post<PagedResult<Exam>>('/v1/exam/search', searchBody(query), projectCall),
  create: (body: { code: string; name: string; description?: string }) => exams().post<Exam>('/v1/exam', body, projectCall),
  get: (examId: number) => exams().get<Exam>(`/v1/exam/${examId}`, projectCall),
  /** Details, pass rules and grade bands, saved on the version they were loaded at (409 when someone saved first). */
  edit: (examId: number, body: ExamEdit) => exams().put<Exam>(`/v1/exam/${examId}`, body, projectCall),
  /** A status change the exam machine decides (schedule, start, end, publish results, close …); withdrawing results needs a reason. */
  transition: (examId: number, event: string, version: number, reason?: string) =>
    exams().post<{ fromStatus: string; toStatus: string; record: Exam }>(
      `/v1/exam/${examId}/status`,
      { event, version, ...(reason ? { reason } : {}) },
      projectCall,
    ),
  /** What happened to the exam, newest first (paged). */
  history: (examId: number, query: Pick<PagedQuery, 'pageNumber' | 'pageSize'>) =>
    exams().get<PagedResult<HistoryEntry>>(`/v1/exam/${examId}/history`, {
      ...projectCall,
      params: { pageNumber: query.pageNumber, pageSize: query.pageSize },
    }),
  /** The caller's exam permissions on the selected exam: a paper call (ExamId). */
  myPermissions: () => exams().get<MyExamPermissions>('/v1/exam/mypermissions', { ...quiet, workspace: 'paper' }),
};

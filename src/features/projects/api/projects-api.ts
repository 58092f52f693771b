import type { PagedQuery, PagedResult } from '#machines/paged-search.machine.ts';
import type { ExamPermission as ExamPermissionName } from '#machines/permissions.ts';
import { serviceApi } from '#src/lib/http/api.ts';

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
export const contentLanguages = ['en', 'hi', 'gu', 'fr', 'es'] as const;

export interface ProjectSummary {
  projectId: number;
  code: string;
  name: string;
  description: string;
  instituteId: string | null;
  languages: string[];
  status: ProjectStatus;
  templateId: number | null;
  examCount: number;
  version: number;
  createdOn: string;
  updatedOn: string;
}

export interface ProjectDetail extends ProjectSummary {
  updatedBy: { userId: string; name: string } | null;
  setup: { itemTypes: number; categories: number; flows: number; team: number; exams: number };
  actions: string[];
  myPermissions: ExamPermissionName[];
  canConfigure: boolean;
}

export interface ProjectTemplate {
  templateId: number;
  name: string;
  description: string;
  isSystem: boolean;
  config: { itemTypes: Array<{ name: string; kind: string }>; categories: Array<{ ref: string; name: string; parent: string | null }>; flows: Array<{ name: string; recordKind: string }> };
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

export interface Exam {
  examId: number;
  projectId: number;
  code: string;
  name: string;
  description: string;
  status: string;
  version: number;
  actions: string[];
  createdOn: string;
  updatedOn: string;
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
  kind: string;
  marking: { correct: number; wrong: number; unanswered?: number };
  isActive: boolean;
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

export interface Flow {
  flowId: number;
  name: string;
  recordKind: 'item' | 'paper';
  isActive: boolean;
  states: string[];
  definition: { stages: Array<{ id: string; name: string; permission: ExamPermissionName }> };
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
  edit: (projectId: number, body: Partial<NewProject> & { version: number }) => projects().put<ProjectDetail>(`/v1/project/${projectId}`, body, aboutProject(projectId)),
  transition: (projectId: number, event: ProjectEventName, version?: number) =>
    projects().post<{ fromStatus: string; toStatus: string; record: ProjectDetail }>(`/v1/project/${projectId}/status`, { event, version }, aboutProject(projectId)),
  templates: () => projects().get<ProjectTemplate[]>('/v1/projecttemplate', global),

  itemTypes: (projectId: number) => projects().get<ItemType[]>('/v1/itemtype', aboutProject(projectId)),
  categories: (projectId: number) => projects().get<Category[]>('/v1/category', aboutProject(projectId)),
  createCategory: (projectId: number, body: { name: string; parentId?: number | null }) => projects().post<Category>('/v1/category', body, aboutProject(projectId)),
  flows: (projectId: number) => projects().get<Flow[]>('/v1/flow', aboutProject(projectId)),

  grants: (query: PagedQuery) => projects().post<PagedResult<Grant>>('/v1/examgrant/search', searchBody(query), projectCall),
  grant: (body: { userId: string; examId?: number | null; permission: ExamPermissionName }) => projects().post<Grant>('/v1/examgrant', body, projectCall),
  revoke: (grantId: number) => projects().delete<{ deleted: boolean }>(`/v1/examgrant/${grantId}`, projectCall),
  grantablePermissions: () => projects().get<GrantablePermission[]>('/v1/examgrant/permissions', global),
};

export const examsApi = {
  search: (query: PagedQuery) => exams().post<PagedResult<Exam>>('/v1/exam/search', searchBody(query), projectCall),
  create: (body: { code: string; name: string; description?: string }) => exams().post<Exam>('/v1/exam', body, projectCall),
  /** The caller's exam permissions on the selected exam: a paper call (ExamId). */
  myPermissions: () => exams().get<MyExamPermissions>('/v1/exam/mypermissions', { ...quiet, workspace: 'paper' }),
};

import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { P, type ExamPermission } from '#machines/permissions.ts';
import type { ExamStatus } from '#machines/exams/exam-status.machine.ts';
import type { ProjectStatus } from '#machines/exams/project-status.machine.ts';
import type { Queryable } from '#server/db/client.ts';
import { notFound, ValidationFailure } from '#server/lib/errors.ts';
import type { Principal } from './access.ts';

/**
 * The workspace context headers of spec §3 and EXAMS.md §3 (docs/decisions/0093):
 * - a project call (`config.workspace: 'project'`) carries `ProjectId: <projectId>`;
 * - a paper call (`'paper'`) carries `ExamId: <examId>` or `ExamId: <examId>&<paperId>`;
 * - a global call (`'global'`, the default) carries neither, and any sent is ignored.
 * A missing or malformed header is a 400 naming it. A project or exam the caller cannot reach
 * (another tenant, outside their institute scope, no grant, archived for a non-manager) is a
 * 404 worded exactly as for an id that does not exist, so its existence is never revealed.
 */
export const PROJECT_HEADER = 'ProjectId';
export const EXAM_HEADER = 'ExamId';

export type WorkspaceKind = 'global' | 'project' | 'paper';

export interface WorkspaceGrant {
  id: number;
  examId: number | null;
  permission: ExamPermission;
}

export interface WorkspaceProject {
  id: number;
  tenantId: string;
  code: string;
  name: string;
  status: ProjectStatus;
  instituteId: string | null;
  resellerId: string | null;
  version: number;
  /** The project's languages (its item variants), read with the reach so item calls need no second query. */
  languages: string[];
}

export interface WorkspaceExam {
  id: number;
  projectId: number;
  code: string;
  name: string;
  status: ExamStatus;
  version: number;
}

export interface Workspace {
  project: WorkspaceProject;
  /** Set on paper calls. */
  exam: WorkspaceExam | null;
  /** The paper part of `ExamId: <examId>&<paperId>`, when sent. Papers check it themselves. */
  paperId: number | null;
  /** The caller's grants on the project and on its exams. */
  grants: WorkspaceGrant[];
  /** Holds Projects.Manage: acts as ProjectAdmin on every project of their scope. */
  tenantProjectManager: boolean;
  /** Holds Exams.Manage: runs every exam of their scope. */
  tenantExamManager: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    workspace?: WorkspaceKind;
  }
  interface FastifyRequest {
    workspace: Workspace | null;
  }
  interface FastifyInstance {
    workspaceCache: WorkspaceCache;
  }
}

export const PROJECT_NOT_FOUND = 'Project not found.';
export const EXAM_NOT_FOUND = 'Exam not found.';

const idPattern = /^[1-9][0-9]{0,15}$/;
const examHeaderPattern = /^([1-9][0-9]{0,15})(?:&([1-9][0-9]{0,15}))?$/;

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const raw = request.headers[name.toLowerCase()];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function required(name: string): ValidationFailure {
  return ValidationFailure.field(name, `The ${name} header is required.`);
}

/** A tenant-level manager of projects or exams sees every project of their scope. */
export function isTenantManager(principal: Principal): boolean {
  return principal.permissions.has(P.Projects.Manage) || principal.permissions.has(P.Exams.Manage);
}

interface ReachRow {
  id: number;
  tenant_id: string;
  code: string;
  name: string;
  status: ProjectStatus;
  institute_id: string | null;
  reseller_id: string | null;
  version: number;
  languages: string[];
  grants: WorkspaceGrant[] | null;
}

/**
 * The project as the caller may reach it, with the caller's grants, in one query; undefined
 * when it is out of reach. Scope: same tenant, and the caller's institute and reseller when
 * they have them (docs/decisions/0041).
 */
export async function reachProject(db: Queryable, principal: Principal, projectId: number): Promise<Omit<Workspace, 'exam' | 'paperId'> | undefined> {
  const { rows } = await db.query<ReachRow>(
    `select p.id::int as id, p.tenant_id, p.code, p.name, p.status, p.institute_id, p.reseller_id, p.version, p.languages,
            (select json_agg(json_build_object('id', g.id::int, 'examId', g.exam_id::int, 'permission', g.permission) order by g.id)
               from exam_grants g where g.project_id = p.id and g.user_id = $3) as grants
     from projects p
     where p.id = $1 and p.tenant_id = $2
       and ($4::uuid is null or p.institute_id = $4)
       and ($5::uuid is null or p.reseller_id = $5)`,
    [projectId, principal.tenantId, principal.userId, principal.instituteId, principal.resellerId],
    // Every project-scoped request runs it: parsed and planned once per connection.
    { name: 'workspace.reachProject' },
  );
  const row = rows[0];
  if (!row) return undefined;
  const grants = row.grants ?? [];
  const tenantProjectManager = principal.permissions.has(P.Projects.Manage);
  const tenantExamManager = principal.permissions.has(P.Exams.Manage);
  const manager = tenantProjectManager || tenantExamManager;
  // Archived projects leave their team's lists; only managers still reach them (to restore).
  if (!manager && (grants.length === 0 || row.status === 'Archived')) return undefined;
  return {
    project: {
      id: row.id,
      tenantId: row.tenant_id,
      code: row.code,
      name: row.name,
      status: row.status,
      instituteId: row.institute_id,
      resellerId: row.reseller_id,
      version: row.version,
      languages: row.languages ?? ['en'],
    },
    grants,
    tenantProjectManager,
    tenantExamManager,
  };
}

/** Whether the caller reaches this exam of a reached project: managers, project-wide grants, or a grant on the exam. */
export function reachesExam(workspace: Pick<Workspace, 'grants' | 'tenantProjectManager' | 'tenantExamManager'>, examId: number): boolean {
  if (workspace.tenantProjectManager || workspace.tenantExamManager) return true;
  return workspace.grants.some((g) => g.examId === null || g.examId === examId);
}

export async function loadExam(db: Queryable, projectId: number | null, examId: number): Promise<WorkspaceExam | undefined> {
  const { rows } = await db.query<WorkspaceExam>(
    `select id::int as id, project_id::int as "projectId", code, name, status, version
     from exams where id = $1 and ($2::bigint is null or project_id = $2)`,
    [examId, projectId],
  );
  return rows[0];
}

/**
 * A short-lived cache of reached projects and exams (docs/decisions/0093): a user works in one
 * project for many calls, and the reach query would otherwise be a database round trip on every
 * one. Entries live `ttlMs` (default 2 s) and are dropped on this instance as soon as a write
 * succeeds on the project (grants, status, edits, exams); another instance sees such a change
 * within the TTL at most. Only positive answers are kept: a refused caller is asked again.
 */
export class WorkspaceCache {
  private readonly entries = new Map<string, { value: unknown; expires: number; generation: number }>();
  private readonly generations = new Map<number, number>();

  constructor(
    readonly ttlMs = 2000,
    private readonly maxEntries = 10_000,
  ) {}

  private generation(projectId: number): number {
    return this.generations.get(projectId) ?? 0;
  }

  async get<T>(key: string, projectId: number | null, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now && (projectId === null || hit.generation === this.generation(projectId))) return hit.value as T;
    const generation = projectId === null ? 0 : this.generation(projectId);
    const value = await load();
    if (value === undefined) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expires: now + this.ttlMs, generation });
    return value;
  }

  /** Forgets everything cached about a project and its exams. */
  invalidateProject(projectId: number): void {
    this.generations.set(projectId, this.generation(projectId) + 1);
  }

  clear(): void {
    this.entries.clear();
  }
}

function reachKey(principal: Principal, projectId: number): string {
  const manager = `${principal.permissions.has(P.Projects.Manage) ? 1 : 0}${principal.permissions.has(P.Exams.Manage) ? 1 : 0}`;
  return `p|${principal.tenantId}|${principal.userId}|${principal.instituteId ?? ''}|${principal.resellerId ?? ''}|${manager}|${projectId}`;
}

export async function resolveWorkspace(
  db: Queryable,
  request: FastifyRequest,
  kind: WorkspaceKind,
  principal: Principal,
  cache: WorkspaceCache = new WorkspaceCache(0),
): Promise<Workspace | null> {
  if (kind === 'global') return null;
  if (kind === 'project') {
    const value = headerValue(request, PROJECT_HEADER);
    if (value === undefined) throw required(PROJECT_HEADER);
    if (!idPattern.test(value)) throw ValidationFailure.field(PROJECT_HEADER, `The ${PROJECT_HEADER} header must be a project id (a positive whole number).`);
    const projectId = Number(value);
    const reached = await cache.get(reachKey(principal, projectId), projectId, () => reachProject(db, principal, projectId));
    if (!reached) throw notFound(PROJECT_NOT_FOUND);
    return { ...reached, exam: null, paperId: null };
  }
  const value = headerValue(request, EXAM_HEADER);
  if (value === undefined) throw required(EXAM_HEADER);
  const match = examHeaderPattern.exec(value);
  if (!match) {
    throw ValidationFailure.field(EXAM_HEADER, `The ${EXAM_HEADER} header must be an exam id, or an exam id and a paper id joined with & (e.g. 42&7).`);
  }
  const examId = Number(match[1]);
  // The exam's project is not known before the lookup; its entry is checked against the
  // project's generation once the project is known (below), so a stale exam is reloaded.
  let exam = await cache.get(`e|${examId}`, null, () => loadExam(db, null, examId));
  if (!exam) throw notFound(EXAM_NOT_FOUND);
  exam = await cache.get(`e|${examId}|${exam.projectId}`, exam.projectId, () => loadExam(db, null, examId));
  if (!exam) throw notFound(EXAM_NOT_FOUND);
  // A project header sent beside it must name the exam's project (a mismatch is "not found").
  const projectHeader = headerValue(request, PROJECT_HEADER);
  if (projectHeader !== undefined && projectHeader !== String(exam.projectId)) throw notFound(EXAM_NOT_FOUND);
  const examProject = exam.projectId;
  const reached = await cache.get(reachKey(principal, examProject), examProject, () => reachProject(db, principal, examProject));
  if (!reached || !reachesExam(reached, exam.id)) throw notFound(EXAM_NOT_FOUND);
  return { ...reached, exam, paperId: match[2] ? Number(match[2]) : null };
}

/**
 * Resolves the context of every project and paper route after authentication (the access
 * plugin's onRequest runs first, so an unauthenticated call is a 401, never a header 400).
 */
export const workspaceContextPlugin = fp(async function workspaceContext(app: FastifyInstance, options: { cacheTtlMs?: number }) {
  const cache = new WorkspaceCache(options.cacheTtlMs ?? Number(process.env.WORKSPACE_CACHE_TTL_MS ?? 2000));
  app.decorate('workspaceCache', cache);
  app.decorateRequest('workspace', null);
  app.addHook('onRequest', async (request) => {
    const kind = request.routeOptions.config?.workspace ?? 'global';
    if (kind === 'global' || !request.principal) return;
    request.workspace = await resolveWorkspace(app.db, request, kind, request.principal, cache);
  });
  // A successful write on a project (grants, status, edits, exams, set-up) drops what this
  // instance cached about it, so the next call sees the change at once.
  app.addHook('onResponse', async (request, reply) => {
    if (request.workspace && request.method !== 'GET' && reply.statusCode < 400) cache.invalidateProject(request.workspace.project.id);
  });
});

/** The workspace of a project or paper route (its plugin has run). */
export function requireWorkspace(request: FastifyRequest): Workspace {
  if (!request.workspace) throw new Error(`${request.routeOptions.url} declares no workspace: set config.workspace`);
  return request.workspace;
}

import type { ExamStatus } from '#machines/exams/exam-status.machine.ts';
import type { ProjectSummary } from '#machines/exams/project-record.ts';
import type { Queryable } from '#server/db/client.ts';
import { orderByClause, paged, pageWindow, searchKeyword, type Paged, type PageWindow } from '#server/lib/paging.ts';
import type { Principal } from '#server/plugins/access.ts';
import { isTenantManager } from '#server/plugins/workspace-context.ts';
import type { ExamSearchBody, HistoryQuery, RecordHistoryEntry, ProjectSearchBody } from './exams-schemas.ts';

/** A project row is the API's project summary without the caller's actions (one shape for server and client: machines/exams/project-record.ts). */
export type ProjectRow = Omit<ProjectSummary, 'actions'>;
/** A listed project with the caller's own project-wide grants on it (to work out their actions). */
export type ListedProject = ProjectRow & { myProjectGrants: string[] };

const projectColumns = `p.id::int as "projectId", p.code, p.name, p.description, p.institute_id as "instituteId", p.languages, p.status,
  p.template_id::int as "templateId", (select count(*)::int from exams e where e.project_id = p.id) as "examCount", p.version,
  p.created_at as "createdOn", p.updated_at as "updatedOn"`;

const iso = (value: unknown) => new Date(value as string).toISOString();
export const toProject = <R extends ProjectRow>(row: R): R => ({ ...row, createdOn: iso(row.createdOn), updatedOn: iso(row.updatedOn) });

function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const projectOrder = { code: 'lower(p.code)', name: 'lower(p.name)', status: 'p.status', createdOn: 'p.created_at', updatedOn: 'p.updated_at' };

/**
 * One page of a search and its exact total in one statement, so one database round trip
 * (docs/decisions/0202): the count of the filtered rows, joined to the page (an empty page still
 * carries the total). `countFrom` is the page's `from` without joins that only add columns.
 */
async function pageWithCount<R extends object>(
  db: Queryable,
  q: { select: string; from: string; countFrom?: string; where: string; order: string; window: PageWindow; params: unknown[] },
): Promise<{ rows: R[]; totalCount: number }> {
  const { rows } = await db.query<R & { __total: number; __ord: string | number | null }>(
    `select t.n as "__total", page.* from (select count(*)::int as n from ${q.countFrom ?? q.from} where ${q.where}) t
     left join lateral (
       select ${q.select}, row_number() over (order by ${q.order}) as "__ord" from ${q.from} where ${q.where}
       order by ${q.order} limit ${q.window.limit} offset ${q.window.offset}
     ) page on true
     order by page."__ord"`,
    q.params,
  );
  return {
    totalCount: rows[0]?.__total ?? 0,
    rows: rows.filter((row) => row.__ord !== null).map(({ __total: _total, __ord: _ord, ...row }) => row as unknown as R),
  };
}

/**
 * The projects the caller reaches (EXAMS.md §1): their tenant and scope; managers see all of
 * them, everyone else those they hold a grant on. Archived projects only when asked for by a
 * manager. Counts are exact (the spec's totalCount counts the filtered rows).
 */
export async function searchProjects(db: Queryable, principal: Principal, request: ProjectSearchBody): Promise<Paged<ListedProject>> {
  const window = pageWindow(request);
  const manager = isTenantManager(principal);
  const keyword = searchKeyword(request);
  const params: unknown[] = [principal.tenantId, principal.instituteId, principal.resellerId, principal.userId];
  const where = [`p.tenant_id = $1`, `($2::uuid is null or p.institute_id = $2)`, `($3::uuid is null or p.reseller_id = $3)`];
  if (!manager) where.push(`exists (select 1 from exam_grants g where g.project_id = p.id and g.user_id = $4)`);
  if (request.status) {
    params.push(request.status);
    where.push(`p.status = $${params.length}`);
    if (request.status === 'Archived' && !manager) where.push('false');
  } else if (!(manager && request.includeArchived)) {
    where.push(`p.status <> 'Archived'`);
  }
  if (keyword) {
    params.push(likePattern(keyword));
    where.push(`(lower(p.code) || ' ' || lower(p.name)) like $${params.length}`);
  }
  const order = orderByClause(request.orderBy, projectOrder, 'p.created_at desc', 'p.id desc');
  const whereSql = where.join(' and ');
  const { rows, totalCount } = await pageWithCount<ListedProject>(db, {
    select: `${projectColumns},
              array(select g.permission from exam_grants g where g.project_id = p.id and g.user_id = $4 and g.exam_id is null) as "myProjectGrants"`,
    from: 'projects p',
    where: whereSql,
    order,
    window,
    params,
  });
  return paged(
    rows.map((row) => ({ ...toProject(row), myProjectGrants: row.myProjectGrants })),
    totalCount,
    window,
  );
}

export async function findProject(
  db: Queryable,
  projectId: number,
): Promise<(ProjectRow & { updatedById: string | null; updatedByName: string | null }) | undefined> {
  const { rows } = await db.query<ProjectRow & { updatedById: string | null; updatedByName: string | null }>(
    `select ${projectColumns}, p.updated_by as "updatedById",
            nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "updatedByName"
     from projects p left join users u on u.id = p.updated_by where p.id = $1`,
    [projectId],
  );
  return rows[0] ? { ...toProject(rows[0]), updatedById: rows[0].updatedById, updatedByName: rows[0].updatedByName } : undefined;
}

export async function setupCounts(db: Queryable, projectId: number) {
  const { rows } = await db.query<{ itemTypes: number; categories: number; flows: number; team: number; exams: number }>(
    `select (select count(*)::int from item_types where project_id = $1 and is_active) as "itemTypes",
            (select count(*)::int from categories where project_id = $1 and not is_retired) as categories,
            (select count(*)::int from flows where project_id = $1 and is_active) as flows,
            (select count(distinct user_id)::int from exam_grants where project_id = $1) as team,
            (select count(*)::int from exams where project_id = $1) as exams`,
    [projectId],
  );
  return rows[0];
}

export interface ExamRow {
  examId: number;
  projectId: number;
  code: string;
  name: string;
  description: string;
  status: ExamStatus;
  passRules: { passPercent: number; sectionMinimumPercent?: number | null };
  gradeBands: Array<{ grade: string; minPercent: number }>;
  version: number;
  createdOn: string;
  updatedOn: string;
  updatedById: string | null;
  updatedByName: string | null;
}

const examColumns = `e.id::int as "examId", e.project_id::int as "projectId", e.code, e.name, e.description, e.status,
  e.pass_rules as "passRules", e.grade_bands as "gradeBands", e.version, e.created_at as "createdOn", e.updated_at as "updatedOn",
  e.updated_by as "updatedById", nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "updatedByName"`;

const toExam = (row: ExamRow): ExamRow => ({ ...row, createdOn: iso(row.createdOn), updatedOn: iso(row.updatedOn) });
const examOrder = { code: 'lower(e.code)', name: 'lower(e.name)', status: 'e.status', createdOn: 'e.created_at', updatedOn: 'e.updated_at' };

/** Exams of one project; `onlyExamIds` limits a caller whose grants name single exams. */
export async function searchExams(db: Queryable, projectId: number, onlyExamIds: number[] | null, request: ExamSearchBody): Promise<Paged<ExamRow>> {
  const window = pageWindow(request);
  const keyword = searchKeyword(request);
  const params: unknown[] = [projectId];
  const where = ['e.project_id = $1'];
  if (onlyExamIds) {
    params.push(onlyExamIds);
    where.push(`e.id = any($${params.length}::bigint[])`);
  }
  if (request.status) {
    params.push(request.status);
    where.push(`e.status = $${params.length}`);
  }
  if (keyword) {
    params.push(likePattern(keyword));
    where.push(`(lower(e.code) || ' ' || lower(e.name)) like $${params.length}`);
  }
  const order = orderByClause(request.orderBy, examOrder, 'e.created_at desc', 'e.id desc');
  const whereSql = where.join(' and ');
  const { rows, totalCount } = await pageWithCount<ExamRow>(db, {
    select: examColumns,
    from: 'exams e left join users u on u.id = e.updated_by',
    countFrom: 'exams e',
    where: whereSql,
    order,
    window,
    params,
  });
  return paged(rows.map(toExam), totalCount, window);
}

export async function findExam(db: Queryable, projectId: number, examId: number): Promise<ExamRow | undefined> {
  const { rows } = await db.query<ExamRow>(
    `select ${examColumns} from exams e left join users u on u.id = e.updated_by where e.id = $1 and e.project_id = $2`,
    [examId, projectId],
  );
  return rows[0] ? toExam(rows[0]) : undefined;
}

/**
 * What happened to a project or an exam (docs/decisions/0166): its creation, status changes
 * with who, when, from → to and the reason, and edits naming the fields they changed. Newest
 * first, paged like every search (spec §3).
 */
export async function recordHistory(
  db: Queryable,
  table: 'project_history' | 'exam_history',
  key: 'project_id' | 'exam_id',
  id: number,
  request: Pick<HistoryQuery, 'pageNumber' | 'pageSize'>,
): Promise<Paged<RecordHistoryEntry>> {
  const window = pageWindow(request);
  const [page, count] = await Promise.all([
    db.query<{
      event: string;
      fromStatus: string | null;
      toStatus: string | null;
      byId: string | null;
      byName: string | null;
      reason: string | null;
      details: { fields?: string[]; version?: number } | null;
      at: string;
    }>(
      `select h.event, h.from_status as "fromStatus", h.to_status as "toStatus", h.actor_id as "byId",
              nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "byName", h.reason, h.details,
              h.created_at as at
       from ${table} h left join users u on u.id = h.actor_id where h.${key} = $1 order by h.id desc limit ${window.limit} offset ${window.offset}`,
      [id],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from ${table} where ${key} = $1`, [id]),
  ]);
  const data = page.rows.map((r) => ({
    event: r.event,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    by: r.byId ? { userId: r.byId, name: r.byName ?? '' } : null,
    reason: r.reason,
    fields: Array.isArray(r.details?.fields) ? r.details.fields : [],
    at: iso(r.at),
  }));
  return paged(data, count.rows[0].n, window);
}

/** The fields an edit body changes, in the record's terms (what the history says was edited). */
export function changedFields<T extends object>(before: T, body: Partial<T>, fields: Array<keyof T & string>): string[] {
  return fields.filter((field) => body[field] !== undefined && JSON.stringify(body[field]) !== JSON.stringify(before[field]));
}

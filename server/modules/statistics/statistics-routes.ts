import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { RecordId } from '#machines/exams/project-record.ts';
import { P } from '#machines/permissions.ts';
import { checkExportTemplate, exportCatalogue, type ExportColumn, type ExportFilters, type ExportKind } from '#machines/results/export-catalogue.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { changeStamp, expectedVersion, setVersionTag, staleEdit } from '#server/lib/concurrency.ts';
import { conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import { assertProjectEvent, isUniqueViolation, projectActor } from '#server/modules/exams/workspace-access.ts';
import { findPaper } from '#server/modules/papers/papers-repository.ts';
import { PAPER_NOT_FOUND, seesPaperContent } from '#server/modules/papers/papers-routes.ts';
import { kindNeeds, mimeOf, queueExportRun, type ExportSpec } from './exports.ts';
import { analysePaper } from './paper-statistics.ts';
import { loadPaperForScoring, scoredDeliverySource, type ResultRowsSource, type ScoredDelivery } from './score-deliveries.ts';
import * as S from './statistics-schemas.ts';

const IdParams = Type.Object({ id: RecordId });

const security = [{ bearer: [] }];
const paperCall = { description: 'A paper call: send ExamId as <examId> or <examId>&<paperId> (spec §3).' };
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
export const STATISTICS_FORBIDDEN = 'Only the paper setters, moderators and project admins of this exam may see its item statistics.';
export const EXPORT_TEMPLATE_NOT_FOUND = 'Export template not found.';
export const EXPORT_RUN_NOT_FOUND = 'Export not found.';
export const EXPORT_RUN_FORBIDDEN = 'Only the project admins of this project may run its exports.';

export interface StatisticsDeps {
  db: Db;
  clock: Clock;
  pokeJobs(): void;
  /** Where results rows come from (today the scored deliveries; later the results table). */
  results?: ResultRowsSource;
}

function throwIssues(errors: Record<string, string[]>) {
  if (Object.keys(errors).length) throw new ValidationFailure(errors);
}

const templateColumns = `t.id::int as "exportTemplateId", t.name, t.record_kind as "recordKind", t.file_type as "fileType", t.columns, t.filters, t.version,
  t.updated_at as "updatedAt", t.updated_by as "updatedById", nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "updatedByName"`;

interface TemplateRow {
  exportTemplateId: number;
  name: string;
  recordKind: ExportKind;
  fileType: 'xlsx' | 'csv';
  columns: ExportColumn[];
  filters: ExportFilters;
  version: number;
  updatedAt: Date;
  updatedById: string | null;
  updatedByName: string | null;
}

const toTemplate = ({ updatedById, updatedByName, ...row }: TemplateRow) => ({
  ...row,
  updatedAt: new Date(row.updatedAt).toISOString(),
  updatedBy: updatedById ? { userId: updatedById, name: updatedByName ?? '' } : null,
});

const runColumns = `id as "runId", template_id::int as "exportTemplateId", template_name as "templateName", state, total_rows as "totalRows",
  rows_written as "rowsWritten", message, file_name as "fileName", created_at as "createdAt", finished_at as "finishedAt"`;
type RunRow = { createdAt: Date; finishedAt: Date | null } & Record<string, unknown>;
const toRun = (row: RunRow) => ({
  ...row,
  createdAt: new Date(row.createdAt).toISOString(),
  finishedAt: row.finishedAt ? new Date(row.finishedAt).toISOString() : null,
});

/** Columns as stored: trimmed headers, empty languages dropped. */
function cleanColumns(columns: ExportColumn[]): ExportColumn[] {
  return columns.map((c) => ({
    field: c.field,
    format: c.format,
    headers: Object.fromEntries(
      Object.entries(c.headers)
        .map(([l, h]) => [l, (h ?? '').trim()])
        .filter(([l, h]) => l === 'en' || h !== ''),
    ) as ExportColumn['headers'],
  }));
}

/** Every id a filter names must be in the project (a paper of another project is refused as unknown). */
async function checkFilterIds(db: Queryable, workspace: Workspace, filters: ExportFilters, prefix = 'filters') {
  const errors: Record<string, string[]> = {};
  const projectId = workspace.project.id;
  const checks: Array<[keyof ExportFilters, string, string]> = [
    ['examId', `select 1 from exams where id = $1 and project_id = $2`, 'exam'],
    ['paperId', `select 1 from papers p join exams e on e.id = p.exam_id where p.id = $1 and e.project_id = $2`, 'paper'],
    ['seasonId', `select 1 from seasons where id = $1 and project_id = $2`, 'season'],
    ['centerId', `select 1 from exam_centers where id = $1 and tenant_id = (select tenant_id from projects where id = $2)`, 'exam center'],
  ];
  for (const [name, sql, what] of checks) {
    const id = filters[name];
    if (id === undefined) continue;
    const { rows } = await db.query(sql, [id, projectId]);
    if (!rows[0]) errors[`${prefix}.${name}`] = [`There is no ${what} ${id} in this project.`];
  }
  throwIssues(errors);
}

/** Item statistics of a paper (GET /v1/paper/:id/statistics) and the project's export templates and their runs. */
export async function statisticsRoutes(fastify: FastifyInstance, deps: StatisticsDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, clock } = deps;
  const results = deps.results ?? scoredDeliverySource;

  /** The scored finished deliveries of a paper of the project. */
  async function scoredOf(projectId: number, examId: number, paperId: number): Promise<ScoredDelivery[]> {
    const scored: ScoredDelivery[] = [];
    for await (const batch of results.batches(db, projectId, { examId, paperId })) for (const row of batch) scored.push(row.score);
    return scored;
  }

  app.get(
    '/v1/paper/:id/statistics',
    {
      config: { access: P.Exams.View, workspace: 'paper' },
      schema: {
        tags: ['statistics'],
        security,
        summary:
          'Item analysis of a paper from its finished deliveries: per item facility, discrimination, distractors, omissions, flags; per paper mean, SD, KR-20/alpha, SEM, distribution',
        ...paperCall,
        params: IdParams,
        querystring: S.StatisticsQuery,
        response: { 200: S.PaperStatisticsAnswer },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const paperId = request.params.id;
      if (workspace.paperId !== null && workspace.paperId !== paperId) throw notFound(PAPER_NOT_FOUND);
      const row = await findPaper(db, workspace.exam!.id, paperId);
      if (!row) throw notFound(PAPER_NOT_FOUND);
      if (!seesPaperContent(workspace)) throw forbidden(STATISTICS_FORBIDDEN);
      const paper = await loadPaperForScoring(db, paperId);
      if (!paper || paper.sets.size === 0)
        throw conflict(`Paper ${row.code} has no sets yet: its statistics come from the deliveries of its sets.`, { currentStatus: row.status });
      const scored = await scoredOf(workspace.project.id, workspace.exam!.id, paperId);
      return analysePaper(paper, scored, request.query.bins ?? 10, clock.now());
    },
  );

  // ---- export templates ----------------------------------------------------------------------

  async function findTemplate(projectId: number, id: number): Promise<TemplateRow> {
    const { rows } = await db.query<TemplateRow>(
      `select ${templateColumns} from export_templates t left join users u on u.id = t.updated_by where t.id = $1 and t.project_id = $2`,
      [id, projectId],
    );
    if (!rows[0]) throw notFound(EXPORT_TEMPLATE_NOT_FOUND);
    return rows[0];
  }
  const send = (reply: FastifyReply, row: TemplateRow) => {
    setVersionTag(reply, row.version);
    return toTemplate(row) as never;
  };
  const duplicate = (name: string) => conflict(`An export template named "${name}" already exists in this project.`);

  /** Who changes templates: whoever may configure the project now (project admins, tenant managers). */
  function configuring(request: FastifyRequest) {
    const p = requirePrincipal(request);
    const workspace = requireWorkspace(request);
    assertProjectEvent(workspace, { type: 'project.configure' });
    return { p, workspace };
  }

  app.get(
    '/v1/exporttemplate',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: "The project's export templates, by name",
        ...projectCall,
        response: { 200: Type.Array(S.ExportTemplate) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query<TemplateRow>(
        `select ${templateColumns} from export_templates t left join users u on u.id = t.updated_by where t.project_id = $1 order by lower(t.name), t.id`,
        [workspace.project.id],
      );
      return rows.map(toTemplate) as never[];
    },
  );

  app.get(
    '/v1/exporttemplate/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: 'One export template (its ETag is the version to send back as If-Match)',
        ...projectCall,
        params: IdParams,
        response: { 200: S.ExportTemplate },
      },
    },
    async (request, reply) => send(reply, await findTemplate(requireWorkspace(request).project.id, request.params.id)),
  );

  app.post(
    '/v1/exporttemplate',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: 'Add an export template: record kind, columns (field, header per language, format), file type, default filters',
        ...projectCall,
        body: S.CreateExportTemplateBody,
        response: { 201: S.ExportTemplate },
      },
    },
    async (request, reply) => {
      const { p, workspace } = configuring(request);
      const body = {
        ...request.body,
        name: request.body.name.trim(),
        columns: cleanColumns(request.body.columns as ExportColumn[]),
        filters: request.body.filters ?? {},
      };
      throwIssues(checkExportTemplate(body));
      await checkFilterIds(db, workspace, body.filters);
      try {
        const { rows } = await db.query<{ id: number }>(
          `insert into export_templates (tenant_id, project_id, name, record_kind, file_type, columns, filters, created_by, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning id::int as id`,
          [p.tenantId, workspace.project.id, body.name, body.recordKind, body.fileType, JSON.stringify(body.columns), JSON.stringify(body.filters), p.userId],
        );
        reply.status(201);
        return send(reply, await findTemplate(workspace.project.id, rows[0].id));
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(body.name);
        throw error;
      }
    },
  );

  app.put(
    '/v1/exporttemplate/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: 'Change an export template (optimistic: version in the body or If-Match; 409 names who changed it since)',
        ...projectCall,
        params: IdParams,
        body: S.EditExportTemplateBody,
        response: { 200: S.ExportTemplate },
      },
    },
    async (request, reply) => {
      const workspace = requireWorkspace(request);
      const current = await findTemplate(workspace.project.id, request.params.id);
      const { p } = configuring(request);
      const version = expectedVersion(request, request.body.version);
      const next = {
        name: request.body.name?.trim() ?? current.name,
        recordKind: current.recordKind,
        fileType: request.body.fileType ?? current.fileType,
        columns: request.body.columns ? cleanColumns(request.body.columns as ExportColumn[]) : current.columns,
        filters: (request.body.filters as ExportFilters | undefined) ?? current.filters,
      };
      throwIssues(checkExportTemplate(next));
      if (request.body.filters) await checkFilterIds(db, workspace, next.filters);
      let rowCount: number;
      try {
        ({ rowCount } = await db.query(
          `update export_templates set name = $3, file_type = $4, columns = $5, filters = $6, version = version + 1, updated_by = $7, updated_at = now()
           where id = $1 and version = $2`,
          [current.exportTemplateId, version, next.name, next.fileType, JSON.stringify(next.columns), JSON.stringify(next.filters), p.userId],
        ));
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(next.name);
        throw error;
      }
      if (rowCount === 0) throw staleEdit('export template', (await changeStamp(db, 'export_templates', current.exportTemplateId))!, version);
      return send(reply, await findTemplate(workspace.project.id, current.exportTemplateId));
    },
  );

  app.delete(
    '/v1/exporttemplate/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: 'Delete an export template (optimistic; its past runs keep their files)',
        ...projectCall,
        params: IdParams,
        response: { 200: S.Deleted },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const current = await findTemplate(workspace.project.id, request.params.id);
      configuring(request);
      const header = request.headers['if-match'];
      if (header) {
        const version = expectedVersion(request, undefined);
        const { rowCount } = await db.query(`delete from export_templates where id = $1 and version = $2`, [current.exportTemplateId, version]);
        if (rowCount === 0) throw staleEdit('export template', (await changeStamp(db, 'export_templates', current.exportTemplateId))!, version);
      } else await db.query(`delete from export_templates where id = $1`, [current.exportTemplateId]);
      return { deleted: true };
    },
  );

  // ---- runs ----------------------------------------------------------------------------------

  app.post(
    '/v1/exporttemplate/:id/run',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: 'Run an export: a background job writes the file; follow it with GET /v1/exportrun/:runId (202)',
        ...projectCall,
        params: IdParams,
        body: S.RunExportBody,
        response: { 202: S.ExportRun },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const template = await findTemplate(workspace.project.id, request.params.id);
      const actor = projectActor(workspace);
      if (!actor.tenantManager && !actor.projectAdmin) throw forbidden(EXPORT_RUN_FORBIDDEN);
      const filters: ExportFilters = { ...template.filters, ...((request.body.filters as ExportFilters | undefined) ?? {}) };
      const errors: Record<string, string[]> = {};
      for (const name of Object.keys(filters)) {
        if (!exportCatalogue[template.recordKind].filters.includes(name as never))
          errors[`filters.${name}`] = [`${template.recordKind} exports cannot be filtered by ${name}.`];
      }
      const needs = kindNeeds(template.recordKind);
      if (needs && filters[needs as 'paperId'] === undefined) errors[`filters.${needs}`] = [`Choose the paper whose ${template.recordKind} to export.`];
      throwIssues(errors);
      await checkFilterIds(db, workspace, filters);
      const spec: ExportSpec = {
        recordKind: template.recordKind,
        fileType: template.fileType,
        columns: template.columns,
        filters,
        language: request.body.language ?? 'en',
      };
      const runId = await db.transaction((tx) =>
        queueExportRun(tx, {
          tenantId: p.tenantId,
          projectId: workspace.project.id,
          templateId: template.exportTemplateId,
          templateName: template.name,
          spec,
          userId: p.userId,
        }),
      );
      deps.pokeJobs();
      const { rows } = await db.query<RunRow>(`select ${runColumns} from export_runs where id = $1`, [runId]);
      return reply.status(202).send(toRun(rows[0]) as never);
    },
  );

  app.get(
    '/v1/exportrun',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: "The project's latest export runs (newest first, at most 50) with their progress",
        ...projectCall,
        response: { 200: Type.Array(S.ExportRun) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query<RunRow>(`select ${runColumns} from export_runs where project_id = $1 order by created_at desc, id limit 50`, [
        workspace.project.id,
      ]);
      return rows.map(toRun) as never[];
    },
  );

  async function findRun(projectId: number, runId: string) {
    const { rows } = await db.query<RunRow>(`select ${runColumns} from export_runs where id = $1 and project_id = $2`, [runId, projectId]);
    if (!rows[0]) throw notFound(EXPORT_RUN_NOT_FOUND);
    return rows[0];
  }

  app.get(
    '/v1/exportrun/:runId',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: 'One export run: state and progress (rows written of the total)',
        ...projectCall,
        params: S.RunParams,
        response: { 200: S.ExportRun },
      },
    },
    async (request) => toRun(await findRun(requireWorkspace(request).project.id, request.params.runId)) as never,
  );

  app.get(
    '/v1/exportrun/:runId/file',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['export templates'],
        security,
        summary: 'The file of a finished export run (.xlsx or .csv); 409 while it is still being written',
        ...projectCall,
        params: S.RunParams,
        response: { 200: Type.Any({ description: 'The file' }) },
      },
    },
    async (request, reply) => {
      const workspace = requireWorkspace(request);
      const run = await findRun(workspace.project.id, request.params.runId);
      const actor = projectActor(workspace);
      if (!actor.tenantManager && !actor.projectAdmin) throw forbidden(EXPORT_RUN_FORBIDDEN);
      if (run.state !== 'finished') throw conflict('The export has not finished yet; download it when it has.', { state: run.state });
      const { rows } = await db.query<{ content: Buffer; spec: ExportSpec; fileName: string }>(
        `select content, spec, file_name as "fileName" from export_runs where id = $1`,
        [request.params.runId],
      );
      const file = rows[0];
      return reply
        .header('content-type', mimeOf(file.spec.fileType))
        .header(
          'content-disposition',
          `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .send(Buffer.from(file.content));
    },
  );
}

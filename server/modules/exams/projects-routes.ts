import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { P } from '#machines/permissions.ts';
import { projectActions, type ProjectEvent } from '#machines/exams/project-status.machine.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { changeStamp, expectedVersion, setVersionTag, staleEdit } from '#server/lib/concurrency.ts';
import { conflict, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal, type Principal } from '#server/plugins/access.ts';
import { PROJECT_NOT_FOUND, reachProject, requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import * as S from './exams-schemas.ts';
import { applyTemplateConfig, captureTemplateConfig } from './project-templates.ts';
import { changedFields, findProject, recordHistory, searchProjects, setupCounts } from './projects-repository.ts';
import { assertProjectEvent, isUniqueViolation, projectActor, projectPermissions, projectStatusActions } from './workspace-access.ts';

const tags = ['projects'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };

type Reach = Omit<Workspace, 'exam' | 'paperId'>;

export async function projectDetail(db: Queryable, reach: Reach) {
  const [row, setup] = await Promise.all([findProject(db, reach.project.id), setupCounts(db, reach.project.id)]);
  if (!row) throw notFound(PROJECT_NOT_FOUND);
  const { updatedById, updatedByName, ...project } = row;
  const workspace = { ...reach, project: { ...reach.project, status: row.status as Workspace['project']['status'] }, exam: null, paperId: null };
  const actions = projectStatusActions(workspace);
  const actor = projectActor(reach);
  return {
    ...project,
    status: row.status as Workspace['project']['status'],
    updatedBy: updatedById ? { userId: updatedById, name: updatedByName ?? '' } : null,
    setup,
    actions,
    myPermissions: projectPermissions(reach),
    canConfigure: ['Draft', 'Setup', 'Active'].includes(row.status) && (actor.tenantManager === true || actor.projectAdmin === true),
  };
}

/** The :id of a project call must be the project of its ProjectId header (else "not found"). */
export function sameProject(request: FastifyRequest, id: number): Workspace {
  const workspace = requireWorkspace(request);
  if (workspace.project.id !== id) throw notFound(PROJECT_NOT_FOUND);
  return workspace;
}

async function reachOrNotFound(db: Queryable, principal: Principal, id: number): Promise<Reach> {
  const reach = await reachProject(db, principal, id);
  if (!reach) throw notFound(PROJECT_NOT_FOUND);
  return reach;
}

export async function projectRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/project/search',
    {
      config: { access: P.Projects.View, workspace: 'global' },
      schema: {
        tags,
        security,
        summary: 'Projects you reach (paged search of spec §3)',
        body: S.ProjectSearchBody,
        response: { 200: S.PagedResult(S.ProjectSummary) },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const page = await searchProjects(db, principal, request.body);
      const tenantManager = principal.permissions.has(P.Projects.Manage);
      // Each row offers only what the project-status machine lets this caller do (archive and restore: tenant managers).
      return {
        ...page,
        data: page.data.map(({ myProjectGrants, ...row }) => ({
          ...row,
          actions: projectActions(row.status, { tenantManager, projectAdmin: myProjectGrants.includes('ProjectAdmin') }),
        })),
      };
    },
  );

  app.post(
    '/v1/project',
    {
      config: { access: P.Projects.Manage, workspace: 'global' },
      schema: {
        tags,
        security,
        summary: 'Create a project (in Draft), optionally from a template; you become its ProjectAdmin',
        body: S.CreateProjectBody,
        response: { 201: S.ProjectDetail },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const body = request.body;
      if (p.instituteId && body.instituteId && body.instituteId !== p.instituteId) {
        throw ValidationFailure.field('instituteId', 'You can only create projects of your own institute.');
      }
      const instituteId = p.instituteId ?? body.instituteId ?? null;
      const projectId = await db.transaction(async (tx) => {
        let config: S.TemplateConfig | undefined;
        if (body.templateId) {
          const { rows } = await tx.query<{ config: S.TemplateConfig }>(`select config from project_templates where id = $1 and tenant_id = $2`, [
            body.templateId,
            p.tenantId,
          ]);
          if (!rows[0]) throw ValidationFailure.field('templateId', `Template ${body.templateId} was not found.`);
          config = rows[0].config;
        }
        let id: number;
        try {
          const { rows } = await tx.query<{ id: number }>(
            `insert into projects (tenant_id, code, name, description, institute_id, reseller_id, languages, template_id, created_by, updated_by)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) returning id::int as id`,
            [
              p.tenantId,
              body.code,
              body.name.trim(),
              body.description?.trim() ?? '',
              instituteId,
              p.resellerId,
              body.languages ?? ['en'],
              body.templateId ?? null,
              p.userId,
            ],
          );
          id = rows[0].id;
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict(`A project with the code "${body.code}" already exists.`);
          throw error;
        }
        if (config) await applyTemplateConfig(tx, p.tenantId, id, config, p.userId);
        await tx.query(`insert into exam_grants (tenant_id, user_id, project_id, permission, granted_by) values ($1, $2, $3, 'ProjectAdmin', $2)`, [
          p.tenantId,
          p.userId,
          id,
        ]);
        await tx.query(`insert into project_history (project_id, event, to_status, actor_id, details) values ($1, 'project.create', 'Draft', $2, $3)`, [
          id,
          p.userId,
          JSON.stringify({ templateId: body.templateId ?? null }),
        ]);
        return id;
      });
      const detail = await projectDetail(db, await reachOrNotFound(db, p, projectId));
      setVersionTag(reply, detail.version);
      return reply.status(201).send(detail);
    },
  );

  app.get(
    '/v1/project/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'A project with its set-up counts, your permissions and the status actions you may take',
        ...projectCall,
        params: S.IdParams,
        response: { 200: S.ProjectDetail },
      },
    },
    async (request, reply) => {
      const workspace = sameProject(request, request.params.id);
      const detail = await projectDetail(db, workspace);
      setVersionTag(reply, detail.version);
      return detail;
    },
  );

  app.put(
    '/v1/project/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Edit code, name, description or languages (optimistic: version or If-Match)',
        ...projectCall,
        params: S.IdParams,
        body: S.EditProjectBody,
        response: { 200: S.ProjectDetail },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = sameProject(request, request.params.id);
      assertProjectEvent(workspace, { type: 'project.edit' });
      const version = expectedVersion(request, request.body.version);
      const body = request.body;
      const before = await findProject(db, workspace.project.id);
      const fields = before
        ? changedFields(before, { ...body, name: body.name?.trim(), description: body.description?.trim() }, ['code', 'name', 'description', 'languages'])
        : [];
      let updated;
      try {
        updated = await db.transaction(async (tx) => {
          const result = await tx.query(
            `update projects set code = coalesce($3, code), name = coalesce($4, name), description = coalesce($5, description),
                    languages = coalesce($6, languages), version = version + 1, updated_by = $7, updated_at = now()
             where id = $1 and version = $2`,
            [workspace.project.id, version, body.code ?? null, body.name?.trim() ?? null, body.description?.trim() ?? null, body.languages ?? null, p.userId],
          );
          if (result.rowCount !== 0) {
            await tx.query(`insert into project_history (project_id, event, actor_id, details) values ($1, 'project.edit', $2, $3)`, [
              workspace.project.id,
              p.userId,
              JSON.stringify({ fields, version: version + 1 }),
            ]);
          }
          return result;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A project with the code "${body.code}" already exists.`);
        throw error;
      }
      if (updated.rowCount === 0) throw staleEdit('project', (await changeStamp(db, 'projects', workspace.project.id))!, version);
      const detail = await projectDetail(db, workspace);
      setVersionTag(reply, detail.version);
      return detail;
    },
  );

  app.post(
    '/v1/project/:id/status',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Move the project through its lifecycle (Draft → Setup → Active → Closed → Archived); the project-status machine decides',
        ...projectCall,
        params: S.IdParams,
        body: S.ProjectStatusBody,
        response: { 200: S.TransitionAnswer(S.ProjectDetail) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const workspace = sameProject(request, request.params.id);
      const { event: type, version, reason } = request.body;
      // Activation and reopening run the set-up check on what the project has (never on what the caller says).
      const needsFacts = type === 'project.activate' || type === 'project.reopen';
      const event = (needsFacts ? { type, setup: await setupCounts(db, workspace.project.id) } : { type }) as Omit<ProjectEvent, 'by'>;
      const decision = assertProjectEvent(workspace, event);
      const changed = await db.transaction(async (tx) => {
        const result = await tx.query(
          `update projects set status = $3, version = version + 1, updated_by = $4, updated_at = now()
           where id = $1 and status = $2 and ($5::int is null or version = $5)`,
          [workspace.project.id, decision.from, decision.to, p.userId, version ?? null],
        );
        if (result.rowCount === 0) return false;
        await tx.query(`insert into project_history (project_id, event, from_status, to_status, actor_id, reason) values ($1, $2, $3, $4, $5, $6)`, [
          workspace.project.id,
          type,
          decision.from,
          decision.to,
          p.userId,
          reason?.trim() || null,
        ]);
        return true;
      });
      if (!changed) {
        const stamp = (await changeStamp(db, 'projects', workspace.project.id))!;
        throw staleEdit('project', stamp, version ?? workspace.project.version);
      }
      const reach = await reachOrNotFound(db, p, workspace.project.id).catch(() => undefined);
      // A non-manager loses sight of a project they just archived: answer what happened.
      const record = reach ? await projectDetail(db, reach) : await projectDetail(db, { ...workspace, tenantProjectManager: true });
      return { fromStatus: decision.from, toStatus: decision.to, record };
    },
  );

  app.get(
    '/v1/project/:id/history',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'What happened to the project (creation, status changes with their reasons, edits), newest first, paged',
        ...projectCall,
        params: S.IdParams,
        querystring: S.HistoryQuery,
        response: { 200: S.PagedResult(S.RecordHistoryEntry) },
      },
    },
    async (request) => {
      const workspace = sameProject(request, request.params.id);
      return recordHistory(db, 'project_history', 'project_id', workspace.project.id, request.query);
    },
  );

  // ---- templates ---------------------------------------------------------------------------

  const templateColumns = `id::int as "templateId", name, description, is_system as "isSystem", config, version, created_at as "createdOn"`;
  type TemplateRow = Static<typeof S.ProjectTemplate>;
  const toTemplate = (row: TemplateRow): TemplateRow => ({ ...row, createdOn: new Date(row.createdOn).toISOString() });

  app.get(
    '/v1/projecttemplate',
    {
      config: { access: P.Projects.View, workspace: 'global' },
      schema: {
        tags: ['project templates'],
        security,
        summary: 'Project templates of your tenant (the seeded ones first)',
        response: { 200: Type.Array(S.ProjectTemplate) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<TemplateRow>(
        `select ${templateColumns} from project_templates where tenant_id = $1 order by is_system desc, lower(name), id`,
        [p.tenantId],
      );
      return rows.map(toTemplate);
    },
  );

  app.post(
    '/v1/project/:id/savetemplate',
    {
      config: { access: P.Projects.Manage, workspace: 'project' },
      schema: {
        tags: ['project templates'],
        security,
        summary: "Save the project's configuration (item types, categories, flows) as a new template",
        ...projectCall,
        params: S.IdParams,
        body: S.SaveTemplateBody,
        response: { 201: S.ProjectTemplate },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = sameProject(request, request.params.id);
      const config = await captureTemplateConfig(db, workspace.project.id);
      try {
        const { rows } = await db.query<TemplateRow>(
          `insert into project_templates (tenant_id, name, description, config, source_project_id, created_by, updated_by)
           values ($1, $2, $3, $4, $5, $6, $6) returning ${templateColumns}`,
          [p.tenantId, request.body.name.trim(), request.body.description?.trim() ?? '', JSON.stringify(config), workspace.project.id, p.userId],
        );
        return reply.status(201).send(toTemplate(rows[0]));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A template named "${request.body.name.trim()}" already exists.`);
        throw error;
      }
    },
  );

  app.delete(
    '/v1/projecttemplate/:id',
    {
      config: { access: P.Projects.Manage, workspace: 'global' },
      schema: {
        tags: ['project templates'],
        security,
        summary: 'Delete a saved template (the seeded ones stay)',
        params: S.IdParams,
        response: { 200: S.Deleted },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{ isSystem: boolean; name: string }>(
        `select is_system as "isSystem", name from project_templates where id = $1 and tenant_id = $2`,
        [request.params.id, p.tenantId],
      );
      if (!rows[0]) throw notFound('Template not found.');
      if (rows[0].isSystem) throw conflict(`The seeded template "${rows[0].name}" cannot be deleted.`);
      await db.query(`delete from project_templates where id = $1`, [request.params.id]);
      return { deleted: true };
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { examPermissionDescriptions, examPermissionNames, P } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import { conflict, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { orderByClause, paged, pageWindow, searchKeyword } from '#server/lib/paging.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { EXAM_NOT_FOUND, requireWorkspace } from '#server/plugins/workspace-context.ts';
import * as S from './exams-schemas.ts';
import { assertProjectEvent, isUniqueViolation } from './workspace-access.ts';

const tags = ['exam permissions'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };

const grantColumns = `g.id::int as "grantId", g.user_id as "userId", u.first_name as "firstName", u.last_name as "lastName", u.email,
  g.project_id::int as "projectId", g.exam_id::int as "examId", e.name as "examName", g.permission, g.created_at as "grantedOn"`;
const grantOrder = {
  lastName: 'lower(u.last_name)',
  firstName: 'lower(u.first_name)',
  email: 'lower(u.email)',
  permission: 'g.permission',
  grantedOn: 'g.created_at',
};

/** The team of a project: exam permissions of users on the project or on one of its exams. */
export async function teamRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/examgrant/search',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: "The project's team: who holds which exam permission",
        ...projectCall,
        body: S.GrantSearchBody,
        response: { 200: S.PagedResult(S.Grant) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const body = request.body;
      const window = pageWindow(body);
      const params: unknown[] = [workspace.project.id];
      const where = ['g.project_id = $1'];
      if (body.userId) where.push(`g.user_id = $${params.push(body.userId)}`);
      if (body.examId) where.push(`g.exam_id = $${params.push(body.examId)}`);
      if (body.permission) where.push(`g.permission = $${params.push(body.permission)}`);
      const keyword = searchKeyword(body);
      if (keyword) {
        where.push(
          `lower(u.first_name || ' ' || u.last_name || ' ' || u.email) like $${params.push(`%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`,
        );
      }
      const whereSql = where.join(' and ');
      const from = `from exam_grants g join users u on u.id = g.user_id left join exams e on e.id = g.exam_id where ${whereSql}`;
      const order = orderByClause(body.orderBy, grantOrder, 'lower(u.last_name), lower(u.first_name)', 'g.id');
      const [page, count] = await Promise.all([
        db.query<{ grantedOn: string }>(`select ${grantColumns} ${from} order by ${order} limit ${window.limit} offset ${window.offset}`, params),
        db.query<{ n: number }>(`select count(*)::int as n ${from}`, params),
      ]);
      return paged(page.rows.map((r) => ({ ...r, grantedOn: new Date(r.grantedOn).toISOString() })) as never[], count.rows[0].n, window);
    },
  );

  app.post(
    '/v1/examgrant',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Grant a user an exam permission on the project (examId null) or on one of its exams',
        ...projectCall,
        body: S.CreateGrantBody,
        response: { 201: S.Grant },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      assertProjectEvent(workspace, { type: 'project.configure' });
      const { userId, permission } = request.body;
      const examId = request.body.examId ?? null;
      if (examId !== null) {
        const { rows } = await db.query(`select 1 from exams where id = $1 and project_id = $2`, [examId, workspace.project.id]);
        if (!rows[0]) throw notFound(EXAM_NOT_FOUND);
      }
      // The user must be in the caller's reach, and able to see projects at all (a role with
      // Projects.View, e.g. ExamStaff): a grant alone would give a Candidate nothing to open.
      const { rows: users } = await db.query<{ canWork: boolean; isActive: boolean; name: string }>(
        `select u.is_active as "isActive", u.first_name || ' ' || u.last_name as name,
                exists (select 1 from user_roles ur join role_permissions rp on rp.role_id = ur.role_id
                        where ur.user_id = u.id and rp.permission = $5) as "canWork"
         from users u where u.id = $1 and u.tenant_id = $2 and ($3::uuid is null or u.institute_id = $3) and ($4::uuid is null or u.reseller_id = $4)`,
        [userId, p.tenantId, p.instituteId, p.resellerId, P.Projects.View],
      );
      const user = users[0];
      if (!user) throw ValidationFailure.field('userId', `User ${userId} was not found.`);
      if (!user.isActive) throw ValidationFailure.field('userId', `${user.name} is deactivated.`);
      if (!user.canWork) {
        throw ValidationFailure.field(
          'userId',
          `${user.name} has no role that works on projects: give them the ExamStaff role (or another with Projects.View) first.`,
        );
      }
      try {
        const { rows } = await db.query<{ id: number }>(
          `insert into exam_grants (tenant_id, user_id, project_id, exam_id, permission, granted_by) values ($1, $2, $3, $4, $5, $6) returning id::int as id`,
          [p.tenantId, userId, workspace.project.id, examId, permission, p.userId],
        );
        const { rows: grant } = await db.query<{ grantedOn: string }>(
          `select ${grantColumns} from exam_grants g join users u on u.id = g.user_id left join exams e on e.id = g.exam_id where g.id = $1`,
          [rows[0].id],
        );
        return reply.status(201).send({ ...grant[0], grantedOn: new Date(grant[0].grantedOn).toISOString() } as never);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`${user.name} already holds ${permission} ${examId ? 'on this exam' : 'on this project'}.`);
        throw error;
      }
    },
  );

  app.delete(
    '/v1/examgrant/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: { tags, security, summary: 'Withdraw an exam permission', ...projectCall, params: S.IdParams, response: { 200: S.Deleted } },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      assertProjectEvent(workspace, { type: 'project.configure' });
      const { rowCount } = await db.query(`delete from exam_grants where id = $1 and project_id = $2`, [request.params.id, workspace.project.id]);
      if (rowCount === 0) throw notFound('Grant not found.');
      return { deleted: true };
    },
  );

  app.get(
    '/v1/examgrant/permissions',
    {
      config: { access: P.Projects.View, workspace: 'global' },
      schema: {
        tags,
        security,
        summary: 'The exam permissions that can be granted, with what each allows',
        response: { 200: Type.Array(Type.Object({ name: S.ExamPermissionName, description: Type.String() })) },
      },
    },
    async () => examPermissionNames.map((name) => ({ name, description: examPermissionDescriptions[name] })),
  );
}

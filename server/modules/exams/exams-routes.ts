import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { P } from '#machines/permissions.ts';
import type { ExamEvent, ExamStatus } from '#machines/exams/exam-status.machine.ts';
import type { Db } from '#server/db/client.ts';
import { changeStamp, expectedVersion, setVersionTag, staleEdit } from '#server/lib/concurrency.ts';
import { conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { EXAM_NOT_FOUND, reachesExam, requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import * as S from './exams-schemas.ts';
import { changedFields, findExam, recordHistory, searchExams, type ExamRow } from './projects-repository.ts';
import { assertExamEvent, assertProjectEvent, effectiveExamPermissions, examActor, examStatusActions, isUniqueViolation } from './workspace-access.ts';

const tags = ['exams'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };

function toExam(workspace: Workspace, row: ExamRow) {
  const { updatedById, updatedByName, ...exam } = row;
  return {
    ...exam,
    status: row.status as ExamStatus,
    updatedBy: updatedById ? { userId: updatedById, name: updatedByName ?? '' } : null,
    actions: examStatusActions(workspace, row.examId, row.status as ExamStatus),
  };
}

/** An exam of the header's project that the caller reaches; anything else is "not found". */
async function examInReach(db: Db, request: FastifyRequest, examId: number) {
  const workspace = requireWorkspace(request);
  const row = await findExam(db, workspace.project.id, examId);
  if (!row || !reachesExam(workspace, examId)) throw notFound(EXAM_NOT_FOUND);
  return { workspace, row };
}

/** Grade bands go from the highest down, each strictly below the previous one. */
function checkGradeBands(bands: Array<{ grade: string; minPercent: number }> | undefined) {
  if (!bands) return;
  for (let i = 1; i < bands.length; i += 1) {
    if (bands[i].minPercent >= bands[i - 1].minPercent) {
      throw ValidationFailure.field(`gradeBands[${i}].minPercent`, 'Grade bands go from the highest down: each minPercent must be below the previous one.');
    }
  }
  const grades = bands.map((b) => b.grade.trim().toLowerCase());
  if (new Set(grades).size !== grades.length) throw ValidationFailure.field('gradeBands', 'Each grade may appear once.');
}

export async function examRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/exam/search',
    {
      config: { access: P.Exams.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Exams of the project that you reach (paged search of spec §3)',
        ...projectCall,
        body: S.ExamSearchBody,
        response: { 200: S.PagedResult(S.Exam) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const projectWide = workspace.tenantProjectManager || workspace.tenantExamManager || workspace.grants.some((g) => g.examId === null);
      const only = projectWide ? null : [...new Set(workspace.grants.map((g) => g.examId!))];
      const page = await searchExams(db, workspace.project.id, only, request.body);
      return { ...page, data: page.data.map((row) => toExam(workspace, row)) };
    },
  );

  app.post(
    '/v1/exam',
    {
      config: { access: P.Exams.View, workspace: 'project' },
      schema: { tags, security, summary: 'Create an exam (in Draft) in the project', ...projectCall, body: S.CreateExamBody, response: { 201: S.Exam } },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      assertProjectEvent(workspace, { type: 'project.configure' });
      // Creating exams is exam management: a tenant exam manager or the project's admin.
      const actor = examActor(workspace, null);
      if (!actor.examManager && !actor.projectAdmin) throw forbidden('Only the project admin or an exam manager may create exams.');
      checkGradeBands(request.body.gradeBands);
      let id: number;
      try {
        const { rows } = await db.query<{ id: number }>(
          `insert into exams (tenant_id, project_id, code, name, description, pass_rules, grade_bands, created_by, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning id::int as id`,
          [
            p.tenantId,
            workspace.project.id,
            request.body.code,
            request.body.name.trim(),
            request.body.description?.trim() ?? '',
            JSON.stringify(request.body.passRules ?? { passPercent: 33 }),
            JSON.stringify(request.body.gradeBands ?? []),
            p.userId,
          ],
        );
        id = rows[0].id;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An exam with the code "${request.body.code}" already exists in this project.`);
        throw error;
      }
      await db.query(`insert into exam_history (exam_id, event, to_status, actor_id) values ($1, 'exam.create', 'Draft', $2)`, [id, p.userId]);
      const row = (await findExam(db, workspace.project.id, id))!;
      setVersionTag(reply, row.version);
      return reply.status(201).send(toExam(workspace, row));
    },
  );

  app.get(
    '/v1/exam/:id',
    {
      config: { access: P.Exams.View, workspace: 'project' },
      schema: { tags, security, summary: 'An exam of the project', ...projectCall, params: S.IdParams, response: { 200: S.Exam } },
    },
    async (request, reply) => {
      const { workspace, row } = await examInReach(db, request, request.params.id);
      setVersionTag(reply, row.version);
      return toExam(workspace, row);
    },
  );

  app.put(
    '/v1/exam/:id',
    {
      config: { access: P.Exams.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Edit an exam while Draft or Scheduled (optimistic: version or If-Match)',
        ...projectCall,
        params: S.IdParams,
        body: S.EditExamBody,
        response: { 200: S.Exam },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { workspace, row } = await examInReach(db, request, request.params.id);
      assertExamEvent(workspace, row.examId, row.status as ExamStatus, { type: 'exam.edit' });
      const version = expectedVersion(request, request.body.version);
      const body = request.body;
      checkGradeBands(body.gradeBands);
      const fields = changedFields(row, { ...body, name: body.name?.trim(), description: body.description?.trim() }, [
        'code',
        'name',
        'description',
        'passRules',
        'gradeBands',
      ]);
      let updated;
      try {
        updated = await db.transaction(async (tx) => {
          const result = await tx.query(
            `update exams set code = coalesce($3, code), name = coalesce($4, name), description = coalesce($5, description),
                    pass_rules = coalesce($6, pass_rules), grade_bands = coalesce($7, grade_bands),
                    version = version + 1, updated_by = $8, updated_at = now()
             where id = $1 and version = $2 and status in ('Draft', 'Scheduled')`,
            [
              row.examId,
              version,
              body.code ?? null,
              body.name?.trim() ?? null,
              body.description?.trim() ?? null,
              body.passRules ? JSON.stringify(body.passRules) : null,
              body.gradeBands ? JSON.stringify(body.gradeBands) : null,
              p.userId,
            ],
          );
          if (result.rowCount !== 0) {
            await tx.query(`insert into exam_history (exam_id, event, actor_id, details) values ($1, 'exam.edit', $2, $3)`, [
              row.examId,
              p.userId,
              JSON.stringify({ fields, version: version + 1 }),
            ]);
          }
          return result;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An exam with the code "${body.code}" already exists in this project.`);
        throw error;
      }
      if (updated.rowCount === 0) throw staleEdit('exam', (await changeStamp(db, 'exams', row.examId))!, version);
      const fresh = (await findExam(db, workspace.project.id, row.examId))!;
      setVersionTag(reply, fresh.version);
      return toExam(workspace, fresh);
    },
  );

  app.post(
    '/v1/exam/:id/status',
    {
      config: { access: P.Exams.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Move the exam through its lifecycle (Draft → Scheduled → Live → Evaluation → ResultsPublished → Closed); the exam machine decides',
        ...projectCall,
        params: S.IdParams,
        body: S.ExamStatusBody,
        response: { 200: S.TransitionAnswer(S.Exam) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { workspace, row } = await examInReach(db, request, request.params.id);
      const { event: type, reason, version } = request.body;
      const event = { type, projectStatus: workspace.project.status, reason: reason ?? '' } as Omit<ExamEvent, 'by'>;
      const decision = assertExamEvent(workspace, row.examId, row.status as ExamStatus, event);
      const changed = await db.transaction(async (tx) => {
        const result = await tx.query(
          `update exams set status = $3, version = version + 1, updated_by = $4, updated_at = now()
           where id = $1 and status = $2 and ($5::int is null or version = $5)`,
          [row.examId, decision.from, decision.to, p.userId, version ?? null],
        );
        if (result.rowCount === 0) return false;
        await tx.query(`insert into exam_history (exam_id, event, from_status, to_status, actor_id, reason) values ($1, $2, $3, $4, $5, $6)`, [
          row.examId,
          type,
          decision.from,
          decision.to,
          p.userId,
          reason?.trim() || null,
        ]);
        return true;
      });
      if (!changed) throw staleEdit('exam', (await changeStamp(db, 'exams', row.examId))!, version ?? row.version);
      const fresh = (await findExam(db, workspace.project.id, row.examId))!;
      return { fromStatus: decision.from, toStatus: decision.to, record: toExam(workspace, fresh) };
    },
  );

  app.get(
    '/v1/exam/:id/history',
    {
      config: { access: P.Exams.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'What happened to the exam (creation, status changes with their reasons, edits of its rules), newest first, paged',
        ...projectCall,
        params: S.IdParams,
        querystring: S.HistoryQuery,
        response: { 200: S.PagedResult(S.RecordHistoryEntry) },
      },
    },
    async (request) => {
      const { row } = await examInReach(db, request, request.params.id);
      return recordHistory(db, 'exam_history', 'exam_id', row.examId, request.query);
    },
  );

  app.get(
    '/v1/exam/mypermissions',
    {
      config: { access: P.Exams.View, workspace: 'paper' },
      schema: {
        tags,
        security,
        summary: 'Your exam permissions on the exam of the ExamId header (fills the examPermissions slice)',
        description: 'A paper call: send ExamId as <examId> or <examId>&<paperId>.',
        response: { 200: S.MyExamPermissions },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const exam = workspace.exam!;
      return {
        examId: exam.id,
        projectId: exam.projectId,
        paperId: workspace.paperId,
        permissions: effectiveExamPermissions(workspace, exam.id),
        tenantManager: workspace.tenantProjectManager || workspace.tenantExamManager,
        actions: examStatusActions(workspace, exam.id, exam.status),
      };
    },
  );
}

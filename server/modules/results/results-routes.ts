import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { ticketPriorities, ticketStatuses } from '#machines/ticket-lifecycle.machine.ts';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { checkItemContent } from '#machines/items/item-validate.ts';
import { answerText, keyText, plainText, variantOf } from '#machines/results/answer-text.ts';
import { adjustMark, distributionOf, settleMarks } from '#machines/results/marking.ts';
import { decideResult, publishedResultStatuses, resultActions, type ResultActor, type ResultEvent } from '#machines/results/result.machine.ts';
import type { PaperSnapshot } from '#machines/papers/paper-sets.ts';
import { P } from '#machines/permissions.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { DomainEventBus } from '#server/lib/domain-events.ts';
import { badRequest, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import type { MailDispatcher } from '#server/mail/mail-dispatcher.ts';
import { candidateMailLanguage } from '#server/mail/registration-mails.ts';
import { resultPublishedMail } from '#server/mail/result-mails.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import { insertHistory, insertTicket } from '#server/modules/tickets/tickets-repository.ts';
import * as S from './results-schemas.ts';
import { notify } from '#server/modules/notifications/notify.ts';
import {
  applyResultEvent,
  examResultSettings,
  insertResultHistory,
  lockResult,
  readResult,
  rescoreResult,
  resultSelect,
  type ResultRow,
} from './results-service.ts';

const tags = ['results'];
const security = [{ bearer: [] }];
/** Every signed-in candidate reaches their own results. */
const candidateConfig = { access: P.Dashboard.View };
const consoleConfig = { access: P.Exams.View, workspace: 'project' as const };
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
export const RESULT_NOT_FOUND = 'Result not found.';
const DAY = 86_400_000;

export interface ResultsDeps {
  db: Db;
  clock: Clock;
  events: DomainEventBus;
  mail: MailDispatcher;
  publicUrl: string;
}

/** How the caller relates to an exam's results. */
export function resultParties(workspace: Workspace, examId: number) {
  const onExam = (permission: string) => workspace.grants.some((g) => g.permission === permission && (g.examId === null || g.examId === examId));
  const manager =
    workspace.tenantExamManager || workspace.tenantProjectManager || workspace.grants.some((g) => g.examId === null && g.permission === 'ProjectAdmin');
  return { examManager: manager, moderator: onExam('Moderator'), evaluator: onExam('Evaluator') };
}

export async function resultsRoutes(fastify: FastifyInstance, deps: ResultsDeps) {
  const { db, clock, events } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  async function paperOf(q: Queryable, paperId: number) {
    const { rows } = await q.query<{ code: string; title: string; snapshot: PaperSnapshot; examName: string }>(
      `select p.code, p.title, p.snapshot, e.name as "examName" from papers p join exams e on e.id = p.exam_id where p.id = $1`,
      [paperId],
    );
    return rows[0];
  }

  async function sectionTitles(q: Queryable, paperId: number): Promise<Map<string, string>> {
    const { rows } = await q.query<{ id: string; title: string }>(`select id::text as id, title from paper_sections where paper_id = $1`, [paperId]);
    return new Map(rows.map((r) => [r.id, r.title]));
  }

  async function summaryOf(row: ResultRow): Promise<S.ResultSummary> {
    const paper = await paperOf(db, row.paperId);
    return {
      resultId: row.id,
      examId: row.examId,
      examName: paper.examName,
      paperCode: paper.code,
      paperTitle: paper.title,
      status: row.status,
      total: Number(row.total),
      maxTotal: Number(row.maxTotal),
      percent: Number(row.percent),
      grade: row.grade,
      passed: row.passed,
      publishedAt: row.publishedAt ? new Date(row.publishedAt).toISOString() : null,
    };
  }

  async function history(q: Queryable, resultId: number) {
    const { rows } = await q.query<{
      event: string;
      fromStatus: string | null;
      toStatus: string | null;
      reason: string | null;
      details: Record<string, unknown>;
      at: Date;
    }>(
      `select event, from_status as "fromStatus", to_status as "toStatus", reason, details, created_at as at from result_history where result_id = $1 order by id`,
      [resultId],
    );
    return rows.map((h) => ({ ...h, at: new Date(h.at).toISOString() }));
  }

  /** A candidate's view of their result: totals, sections, the answer sheet when the exam allows, the re-evaluation window. */
  async function detail(row: ResultRow, now: Date): Promise<S.ResultDetail> {
    const settings = await examResultSettings(db, row.examId);
    const paper = await paperOf(db, row.paperId);
    const titles = await sectionTitles(db, row.paperId);
    const { rows: reg } = await db.query<{ medium: string }>(
      `select r.medium from deliveries d join registrations r on r.id = d.registration_id where d.id = $1`,
      [row.deliveryId],
    );
    let answerSheet: S.ResultDetail['answerSheet'] = null;
    if (settings.answerSheet) {
      const { rows } = await db.query<{
        number: number;
        sectionId: string;
        versionId: string;
        kind: string;
        outcome: string;
        marks: number | null;
        maxMarks: number;
        counted: boolean;
        response: unknown;
      }>(
        `select i.item_number as number, i.section_id as "sectionId", i.version_id as "versionId", i.kind, i.outcome, i.marks::float8 as marks,
                i.max_marks::float8 as "maxMarks", i.counted, a.response
         from result_items i left join delivery_answers a on a.delivery_id = $2 and a.item_number = i.item_number
         where i.result_id = $1 order by i.item_number`,
        [row.id, row.deliveryId],
      );
      const { rows: keys } = await db.query<{ versionId: string; content: ItemContent }>(
        `select distinct on (version_id) version_id as "versionId", content from answer_key_corrections where paper_id = $1 order by version_id, id desc`,
        [row.paperId],
      );
      const corrected = new Map(keys.map((k) => [k.versionId, k.content]));
      answerSheet = rows.map((r) => ({
        number: r.number,
        sectionId: r.sectionId,
        kind: r.kind,
        content: corrected.get(r.versionId) ?? paper.snapshot.items[r.versionId]?.content ?? null,
        response: r.response ?? null,
        outcome: r.outcome,
        marks: r.marks === null ? null : Number(r.marks),
        maxMarks: Number(r.maxMarks),
        counted: r.counted,
      }));
    }
    const context = { publishedAt: row.publishedAt ? new Date(row.publishedAt).toISOString() : null, reevaluationDays: settings.reevaluationDays };
    const openUntil =
      context.publishedAt && settings.reevaluationDays > 0 ? new Date(Date.parse(context.publishedAt) + settings.reevaluationDays * DAY).toISOString() : null;
    return {
      ...(await summaryOf(row)),
      sections: row.sections.map((s) => ({ ...s, title: titles.get(s.sectionId) ?? '' })),
      medium: reg[0]?.medium ?? 'en',
      answerSheet,
      reevaluation: {
        openUntil,
        canRequest: resultActions(row.status, context, { candidate: true }, now.toISOString()).includes('result.requestReevaluation'),
        ticketId: row.reevaluationTicketId,
        items: row.reevaluationItems ?? [],
      },
      history: (await history(db, row.id)).filter((h) =>
        ['result.publish', 'result.requestReevaluation', 'result.revise', 'result.rescore', 'result.reevaluated'].includes(h.event),
      ),
    };
  }

  async function mine(request: FastifyRequest, id: number): Promise<ResultRow> {
    const p = requirePrincipal(request);
    const row = await readResult(db, id);
    if (!row || row.candidateId !== p.userId || row.tenantId !== p.tenantId || !publishedResultStatuses.includes(row.status)) throw notFound(RESULT_NOT_FOUND);
    return row;
  }

  // ---- the candidate's results ---------------------------------------------------------------

  app.get(
    '/v1/result/mine',
    { config: candidateConfig, schema: { tags, security, summary: 'Your published results', response: { 200: Type.Array(S.ResultSummary) } } },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<ResultRow>(
        `${resultSelect} where r.candidate_id = $1 and r.tenant_id = $2 and r.status = any($3) order by r.published_at desc, r.id desc`,
        [p.userId, p.tenantId, publishedResultStatuses],
      );
      return Promise.all(rows.map(summaryOf));
    },
  );

  app.get(
    '/v1/result/mine/:id',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'One of your results: totals per section, grade, pass/fail, the answer sheet when the exam shows it, and re-evaluation',
        params: S.IdParams,
        response: { 200: S.ResultDetail },
      },
    },
    async (request) => detail(await mine(request, request.params.id), clock.now()),
  );

  app.post(
    '/v1/result/mine/:id/reevaluation',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Ask for re-evaluation of questions of a published result, within the window: raises a support ticket linked to the result',
        params: S.IdParams,
        body: S.ReevaluationBody,
        response: { 201: S.ResultDetail },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const found = await mine(request, request.params.id);
      const now = clock.now();
      const items = [...new Set(request.body.items)].sort((a, b) => a - b);
      const reason = request.body.reason.trim();
      if (!reason) throw ValidationFailure.field('reason', 'Say why you ask for re-evaluation.');
      const created = await db.transaction(async (tx) => {
        const row = (await lockResult(tx, found.id))!;
        const { rows: known } = await tx.query<{ n: number; human: boolean }>(
          `select item_number as n, needs_human as human from result_items where result_id = $1 and item_number = any($2)`,
          [row.id, items],
        );
        if (known.length !== items.length) {
          const missing = items.filter((n) => !known.some((k) => k.n === n));
          throw ValidationFailure.field('items', `Question ${missing.join(', ')} is not on this paper.`);
        }
        const settings = await examResultSettings(tx, row.examId);
        const at = now.toISOString();
        const event: ResultEvent = { type: 'result.requestReevaluation', by: { candidate: true }, items, at };
        // Ask the machine first, so a closed window creates no ticket.
        const decision = decideResult(
          row.status,
          { publishedAt: row.publishedAt ? new Date(row.publishedAt).toISOString() : null, reevaluationDays: settings.reevaluationDays },
          event,
        );
        if (!decision.accepted) {
          if (decision.reason === 'window') throw conflict('The time to ask for re-evaluation of this result is over.', { currentStatus: row.status });
          throw conflict(`This result is ${row.status}: re-evaluation is not possible now.`, { currentStatus: row.status });
        }
        const { rows: groups } = await tx.query<{ id: number }>(
          `select id from support_groups where tenant_id = $1 and is_active order by (name = 'Exam Administration') desc, sort_order, id limit 1`,
          [p.tenantId],
        );
        if (!groups[0]) throw conflict('Re-evaluation requests cannot be taken now: the support desk has no active group. Please contact the exam office.');
        const paper = await paperOf(tx, row.paperId);
        const ticket = await insertTicket(tx, {
          tenantId: p.tenantId,
          title: `Re-evaluation: ${paper.examName} ${paper.code}, question${items.length > 1 ? 's' : ''} ${items.join(', ')}`.slice(0, 200),
          description: `Result ${row.id} (${paper.title}). Questions: ${items.join(', ')}.\n\n${reason}`,
          requesterId: p.userId,
          createdBy: p.userId,
          priorityId: ticketPriorities.Medium,
          supportGroupId: groups[0].id,
          parentTicketId: null,
          now,
        });
        await insertHistory(tx, {
          ticketId: ticket.id,
          event: 'ticket.created',
          fromStatus: null,
          toStatus: ticket.status_id,
          actorId: p.userId,
          actorKind: 'user',
          details: { resultId: row.id, reevaluationItems: items },
          at: now,
        });
        await tx.query(`update results set reevaluation_ticket_id = $2, reevaluation_items = $3 where id = $1`, [row.id, ticket.id, items]);
        const updated = await applyResultEvent(
          tx,
          (await lockResult(tx, row.id))!,
          event,
          p.userId,
          { reason, details: { ticketId: ticket.id, items } },
          settings,
        );
        // Human-marked questions go to a moderator's queue for a fresh look.
        for (const k of known.filter((x) => x.human)) {
          await tx.query(
            `insert into marking_tasks (result_id, exam_id, item_number, round, created_at) values ($1, $2, $3, 3, $4)
             on conflict (result_id, item_number, round) do update set marks = null, adjusted_marks = null, marker_id = null, marked_at = null, comment = null`,
            [row.id, row.examId, k.n, now],
          );
        }
        return { updated, ticket };
      });
      events.emit('ticket.changed', {
        tenantId: p.tenantId,
        ticketId: created.ticket.id,
        change: 'ticket.created',
        statusId: created.ticket.status_id,
        previousStatusId: null,
        requesterId: p.userId,
        supportGroupId: created.ticket.support_group_id,
        previousSupportGroupId: null,
        assigneeId: null,
        previousAssigneeId: null,
        actorId: p.userId,
        at: now.toISOString(),
      });
      return reply.code(201).send(await detail(created.updated, now));
    },
  );

  // ---- the exam manager's and moderator's console -------------------------------------------

  async function examInReach(request: FastifyRequest, examId: number) {
    const workspace = requireWorkspace(request);
    const { rows } = await db.query<{ id: number }>(`select id::int as id from exams where id = $1 and project_id = $2`, [examId, workspace.project.id]);
    if (!rows[0]) throw notFound('Exam not found.');
    return { workspace, parties: resultParties(workspace, examId) };
  }

  app.get(
    '/v1/exam/:examId/results',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary: "The exam's results with their status, totals and marks still awaited (exam manager, moderator)",
        ...projectCall,
        params: S.ExamIdParams,
        response: { 200: S.ExamResults },
      },
    },
    async (request) => {
      const { parties } = await examInReach(request, request.params.examId);
      if (!parties.examManager && !parties.moderator) throw forbidden("Only the exam's manager or a moderator may see its results.");
      const { rows } = await db.query<ResultRow & { candidateName: string; rollNumber: string | null; paperCode: string; awaiting: number }>(
        `select q.*, trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as "candidateName", reg.roll_number as "rollNumber", p.code as "paperCode",
           (select count(*)::int from result_items i where i.result_id = q.id and i.needs_human and i.marks is null) as awaiting
         from (${resultSelect} where r.exam_id = $1) q join users u on u.id = q."candidateId" join deliveries d on d.id = q."deliveryId"
           join registrations reg on reg.id = d.registration_id join papers p on p.id = q."paperId"
         order by q.id limit 5000`,
        [request.params.examId],
      );
      const counts: Record<string, number> = {};
      for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
      return {
        examId: request.params.examId,
        counts,
        settings: await examResultSettings(db, request.params.examId),
        results: rows.map((r) => ({
          resultId: r.id,
          scriptId: r.scriptId,
          candidateName: r.candidateName,
          rollNumber: r.rollNumber,
          paperCode: r.paperCode,
          status: r.status,
          total: Number(r.total),
          maxTotal: Number(r.maxTotal),
          percent: Number(r.percent),
          grade: r.grade,
          passed: r.passed,
          awaitingMarks: r.awaiting,
          reevaluationTicketId: r.reevaluationTicketId,
        })),
      };
    },
  );

  app.put(
    '/v1/exam/:examId/result-settings',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary:
          "Set the exam's result settings (exam manager): the answer sheet shown or not, the re-evaluation window, the double-marked share (for scripts scored from now on) and the third-marker threshold",
        ...projectCall,
        params: S.ExamIdParams,
        body: S.ResultSettingsBody,
        response: { 200: S.ResultSettings },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { parties } = await examInReach(request, request.params.examId);
      if (!parties.examManager) throw forbidden("Only the exam's manager may change its result settings.");
      const body = request.body;
      if (Math.round(body.doubleMarkPercent * 100) !== body.doubleMarkPercent * 100)
        throw ValidationFailure.field('doubleMarkPercent', 'Give the double-marked share to at most two decimals.');
      if (Math.round(body.thirdMarkThreshold * 100) !== body.thirdMarkThreshold * 100)
        throw ValidationFailure.field('thirdMarkThreshold', 'Give the threshold to at most two decimals.');
      const before = await examResultSettings(db, request.params.examId);
      await db.transaction(async (tx) => {
        await tx.query(`update exams set result_settings = $2, updated_by = $3, updated_at = now() where id = $1`, [
          request.params.examId,
          JSON.stringify(body),
          p.userId,
        ]);
        await tx.query(`insert into exam_history (exam_id, event, actor_id, details) values ($1, 'exam.resultSettings', $2, $3)`, [
          request.params.examId,
          p.userId,
          JSON.stringify({ before, after: body }),
        ]);
      });
      return examResultSettings(db, request.params.examId);
    },
  );

  app.post(
    '/v1/exam/:examId/results/publish',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary:
          "Publish the exam's results: every Provisional or Moderated result becomes Published and its candidate is notified; results still in marking stay",
        ...projectCall,
        params: S.ExamIdParams,
        response: { 200: S.PublishAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { parties } = await examInReach(request, request.params.examId);
      if (!parties.examManager && !parties.moderator) throw forbidden("Only the exam's manager or a moderator may publish its results.");
      const now = clock.now();
      const at = now.toISOString();
      const settings = await examResultSettings(db, request.params.examId);
      const by: ResultActor = { moderator: parties.moderator, examManager: parties.examManager };
      const published = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          `select id::int as id from results where exam_id = $1 and status in ('Provisional', 'Moderated') order by id`,
          [request.params.examId],
        );
        const out: ResultRow[] = [];
        for (const { id } of rows)
          out.push(await applyResultEvent(tx, (await lockResult(tx, id))!, { type: 'result.publish', by, at }, p.userId, {}, settings));
        return out;
      });
      const { rows: left } = await db.query<{ status: string; n: number }>(
        `select status, count(*)::int as n from results where exam_id = $1 and status in ('Marking', 'Withheld') group by status`,
        [request.params.examId],
      );
      await announcePublished(deps, published);
      return {
        published: published.length,
        stillMarking: left.find((l) => l.status === 'Marking')?.n ?? 0,
        withheld: left.find((l) => l.status === 'Withheld')?.n ?? 0,
      };
    },
  );

  app.post(
    '/v1/result/:id/event',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary: 'Moderate a result after review, withhold it or release it back to Provisional, each with a reason kept in its history',
        ...projectCall,
        params: S.IdParams,
        body: S.ResultEventBody,
        response: { 200: S.ConsoleResult },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const row = await readResult(db, request.params.id);
      if (!row || row.projectId !== workspace.project.id) throw notFound(RESULT_NOT_FOUND);
      const parties = resultParties(workspace, row.examId);
      const at = clock.now().toISOString();
      const b = request.body;
      const updated = await db.transaction(async (tx) =>
        applyResultEvent(
          tx,
          (await lockResult(tx, row.id))!,
          { type: b.event, by: { moderator: parties.moderator, examManager: parties.examManager }, reason: b.reason, at } as ResultEvent,
          p.userId,
          { reason: b.reason },
        ),
      );
      return consoleResult(updated);
    },
  );

  async function consoleResult(row: ResultRow) {
    const { rows } = await db.query<{ candidateName: string; rollNumber: string | null; paperCode: string; awaiting: number }>(
      `select trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as "candidateName", reg.roll_number as "rollNumber", p.code as "paperCode",
         (select count(*)::int from result_items i where i.result_id = $1 and i.needs_human and i.marks is null) as awaiting
       from results r join users u on u.id = r.candidate_id join deliveries d on d.id = r.delivery_id join registrations reg on reg.id = d.registration_id
         join papers p on p.id = r.paper_id where r.id = $1`,
      [row.id],
    );
    const r = rows[0];
    return {
      resultId: row.id,
      scriptId: row.scriptId,
      candidateName: r.candidateName,
      rollNumber: r.rollNumber,
      paperCode: r.paperCode,
      status: row.status,
      total: Number(row.total),
      maxTotal: Number(row.maxTotal),
      percent: Number(row.percent),
      grade: row.grade,
      passed: row.passed,
      awaitingMarks: r.awaiting,
      reevaluationTicketId: row.reevaluationTicketId,
    };
  }

  app.post(
    '/v1/paper/:id/answer-key',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary:
          "Correct the answer key of one item version of a locked paper (a reason): every affected result is rescored; answers each result's difference before and after",
        ...projectCall,
        params: S.IdParams,
        body: S.AnswerKeyBody,
        response: { 200: S.AnswerKeyAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const { rows: papers } = await db.query<{ examId: number; snapshot: PaperSnapshot | null }>(
        `select exam_id::int as "examId", snapshot from papers where id = $1 and project_id = $2`,
        [request.params.id, workspace.project.id],
      );
      const paper = papers[0];
      if (!paper) throw notFound('Paper not found.');
      const parties = resultParties(workspace, paper.examId);
      if (!parties.examManager && !parties.moderator) throw forbidden("Only the exam's manager or a moderator may correct an answer key.");
      const b = request.body;
      const locked = paper.snapshot?.items[b.versionId];
      if (!locked) throw ValidationFailure.field('versionId', 'This item version is not in the locked paper.');
      const problems = checkItemContent(b.content);
      if (problems.length) throw ValidationFailure.field('content', `The corrected item is not valid: ${problems[0].path} ${problems[0].message}.`);
      const content = b.content as ItemContent;
      if (content.kind !== locked.content.kind) throw ValidationFailure.field('content', `The corrected item must stay a ${locked.content.kind} item.`);
      const reason = b.reason.trim();
      if (!reason) throw ValidationFailure.field('reason', 'Give a reason: it is kept in the audit.');
      const at = clock.now().toISOString();
      return db.transaction(async (tx) => {
        const { rows: made } = await tx.query<{ id: number }>(
          `insert into answer_key_corrections (tenant_id, paper_id, version_id, content, reason, actor_id, created_at) values ($1, $2, $3, $4, $5, $6, $7) returning id::int as id`,
          [p.tenantId, request.params.id, b.versionId, JSON.stringify(content), reason, p.userId, at],
        );
        const correctionId = made[0].id;
        const { rows: affected } = await tx.query<{ id: number }>(
          `select distinct r.id::int as id from results r join result_items i on i.result_id = r.id where r.paper_id = $1 and i.version_id = $2 order by 1`,
          [request.params.id, b.versionId],
        );
        const differences: Static<typeof S.AnswerKeyAnswer>['differences'] = [];
        for (const { id } of affected) {
          const row = (await lockResult(tx, id))!;
          const rescored = await rescoreResult(tx, row, {
            event: 'result.keyCorrected',
            actorId: p.userId,
            reason,
            at,
            details: { correctionId, versionId: b.versionId },
          });
          if (rescored.changed)
            differences.push({ resultId: id, scriptId: row.scriptId, before: rescored.before, after: rescored.after, items: rescored.items });
        }
        await tx.query(`update answer_key_corrections set details = $2 where id = $1`, [
          correctionId,
          JSON.stringify({ rescored: affected.length, changed: differences.length, differences }),
        ]);
        return { correctionId, rescored: affected.length, changed: differences.length, differences };
      });
    },
  );

  // ---- marking ------------------------------------------------------------------------------

  app.get(
    '/v1/marking/queue',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary:
          'Your marking queue for an exam, anonymised (an opaque script id, never a name or roll number), per item or per script: evaluators get first and blind second marks, moderators the third',
        ...projectCall,
        querystring: S.QueueQuery,
        response: { 200: Type.Array(S.MarkingTask) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { parties } = await examInReach(request, request.query.examId);
      if (!parties.evaluator && !parties.moderator) throw forbidden('Only an evaluator or a moderator of the exam has a marking queue.');
      const rounds = [...(parties.evaluator ? [1, 2] : []), ...(parties.moderator ? [3] : [])];
      const { rows } = await db.query<{
        taskId: number;
        scriptId: string;
        itemNumber: number;
        round: number;
        maxMarks: number;
        versionId: string;
        snapshot: PaperSnapshot;
        medium: string;
        response: unknown;
        resultId: number;
      }>(
        `select t.id::int as "taskId", r.script_id as "scriptId", t.item_number as "itemNumber", t.round, i.max_marks::float8 as "maxMarks", i.version_id as "versionId",
                p.snapshot, reg.medium, a.response, r.id::int as "resultId"
         from marking_tasks t join results r on r.id = t.result_id join result_items i on i.result_id = r.id and i.item_number = t.item_number
           join papers p on p.id = r.paper_id join deliveries d on d.id = r.delivery_id join registrations reg on reg.id = d.registration_id
           left join delivery_answers a on a.delivery_id = r.delivery_id and a.item_number = t.item_number
         where t.exam_id = $1 and t.marked_at is null and t.round = any($2) and (t.marker_id is null or t.marker_id = $3)
           and ($4::int is null or t.item_number = $4) and ($5::uuid is null or r.script_id = $5)
           -- blind and independent: never the other round of an answer you marked
           and not exists (select 1 from marking_tasks o where o.result_id = t.result_id and o.item_number = t.item_number and o.id <> t.id and o.marker_id = $3)
           -- round 2 is open only once round 1 is in, round 3 only when it was asked for
         order by t.item_number, t.round, t.id limit 200`,
        [request.query.examId, rounds, p.userId, request.query.itemNumber ?? null, request.query.scriptId ?? null],
      );
      const out = [];
      for (const r of rows) {
        const content = r.snapshot.items[r.versionId]?.content;
        if (!content) continue;
        const v = variantOf(content, r.medium);
        let earlierMarks: Array<{ round: number; marks: number; comment: string | null }> = [];
        if (r.round === 3) {
          const { rows: earlier } = await db.query<{ round: number; marks: number; comment: string | null }>(
            `select round, coalesce(adjusted_marks, marks)::float8 as marks, comment from marking_tasks where result_id = $1 and item_number = $2 and round < 3 and marked_at is not null order by round`,
            [r.resultId, r.itemNumber],
          );
          earlierMarks = earlier.map((e) => ({ round: e.round, marks: Number(e.marks), comment: e.comment }));
        }
        out.push({
          taskId: r.taskId,
          scriptId: r.scriptId,
          itemNumber: r.itemNumber,
          round: r.round,
          maxMarks: Number(r.maxMarks),
          stem: plainText(v?.stem ?? ''),
          // An item other than an essay set to be marked by a person has no rubric: its key is the marker's guide.
          rubric: v?.rubric ? plainText(v.rubric) : content.kind === 'essay' ? null : keyText(content, r.medium),
          answer: answerText(content, r.response, r.medium) ?? '',
          earlierMarks,
        });
      }
      return out;
    },
  );

  app.post(
    '/v1/marking/task/:id',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary: 'Mark one answer against the rubric with a comment: recorded with who and when; the result is rescored, a disagreement goes to a third marker',
        ...projectCall,
        params: S.IdParams,
        body: S.MarkBody,
        response: { 200: S.MarkAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const at = clock.now().toISOString();
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{
          id: number;
          resultId: number;
          examId: number;
          itemNumber: number;
          round: number;
          markerId: string | null;
          markedAt: Date | null;
          maxMarks: number;
          projectId: number;
        }>(
          `select t.id::int as id, t.result_id::int as "resultId", t.exam_id::int as "examId", t.item_number as "itemNumber", t.round, t.marker_id as "markerId",
                  t.marked_at as "markedAt", i.max_marks::float8 as "maxMarks", r.project_id::int as "projectId"
           from marking_tasks t join results r on r.id = t.result_id join result_items i on i.result_id = t.result_id and i.item_number = t.item_number
           where t.id = $1 for update of t`,
          [request.params.id],
        );
        const task = rows[0];
        if (!task || task.projectId !== workspace.project.id) throw notFound('Marking task not found.');
        const parties = resultParties(workspace, task.examId);
        if (task.round === 3 ? !parties.moderator : !parties.evaluator) {
          throw forbidden(task.round === 3 ? 'Only a moderator of the exam gives the third mark.' : 'Only an evaluator of the exam may mark this answer.');
        }
        if (task.markedAt) throw conflict('This answer has already been marked.');
        if (task.markerId && task.markerId !== p.userId) throw conflict('Another marker has taken this answer.');
        const { rows: other } = await tx.query(`select 1 from marking_tasks where result_id = $1 and item_number = $2 and id <> $3 and marker_id = $4`, [
          task.resultId,
          task.itemNumber,
          task.id,
          p.userId,
        ]);
        if (other.length) throw conflict('You marked this answer in another round: a second or third mark must come from someone else.');
        const marks = request.body.marks;
        if (marks < 0 || marks > Number(task.maxMarks)) throw ValidationFailure.field('marks', `Give between 0 and ${Number(task.maxMarks)} marks.`);
        if (Math.round(marks * 100) !== marks * 100) throw ValidationFailure.field('marks', 'Give marks to at most two decimals.');
        await tx.query(`update marking_tasks set marker_id = $2, marks = $3, comment = $4, marked_at = $5 where id = $1`, [
          task.id,
          p.userId,
          marks,
          request.body.comment.trim() || null,
          at,
        ]);
        const { rows: all } = await tx.query<{ round: 1 | 2 | 3; marks: number | null }>(
          `select round, coalesce(adjusted_marks, marks)::float8 as marks from marking_tasks where result_id = $1 and item_number = $2 and marked_at is not null`,
          [task.resultId, task.itemNumber],
        );
        const { rows: planned } = await tx.query(`select 1 from marking_tasks where result_id = $1 and item_number = $2 and round = 2`, [
          task.resultId,
          task.itemNumber,
        ]);
        const settings = await examResultSettings(tx, task.examId);
        const given = Object.fromEntries(all.map((m) => [m.round, Number(m.marks)])) as Partial<Record<1 | 2 | 3, number>>;
        const state = given[3] !== undefined ? ({ kind: 'final' } as const) : settleMarks(given, planned.length > 0, settings.thirdMarkThreshold);
        if (state.kind === 'thirdMarker') {
          await tx.query(`insert into marking_tasks (result_id, exam_id, item_number, round, created_at) values ($1, $2, $3, 3, $4) on conflict do nothing`, [
            task.resultId,
            task.examId,
            task.itemNumber,
            at,
          ]);
        }
        const row = (await lockResult(tx, task.resultId))!;
        let status = row.status;
        // Under re-evaluation the fresh marks wait for the ticket's resolution, which revises the result.
        if (state.kind === 'final' && row.status !== 'ReevaluationRequested') {
          status = (
            await rescoreResult(tx, row, { event: 'result.markGiven', actorId: p.userId, at, details: { itemNumber: task.itemNumber, round: task.round } })
          ).row.status;
        } else {
          await insertResultHistory(
            tx,
            row.id,
            'result.markGiven',
            row.status,
            row.status,
            p.userId,
            { details: { itemNumber: task.itemNumber, round: task.round, state: state.kind } },
            at,
          );
        }
        return { taskId: task.id, state: state.kind, resultStatus: status };
      });
    },
  );

  app.get(
    '/v1/marking/progress',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary:
          'Marking progress of an exam per evaluator (marked, mean and SD of their marks as shares of the maximum) and per item (exam manager, moderator)',
        ...projectCall,
        querystring: Type.Object({ examId: S.ExamIdParams.properties.examId }, { additionalProperties: false }),
        response: { 200: S.Progress },
      },
    },
    async (request) => {
      const { parties } = await examInReach(request, request.query.examId);
      if (!parties.examManager && !parties.moderator) throw forbidden("Only the exam's manager or a moderator may follow its marking.");
      const { rows: marks } = await db.query<{ markerId: string; name: string; share: number }>(
        `select t.marker_id as "markerId", trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name,
                (coalesce(t.adjusted_marks, t.marks) / nullif(i.max_marks, 0))::float8 as share
         from marking_tasks t join users u on u.id = t.marker_id join result_items i on i.result_id = t.result_id and i.item_number = t.item_number
         where t.exam_id = $1 and t.marked_at is not null and t.round < 3 order by u.first_name, t.marker_id`,
        [request.query.examId],
      );
      const byMarker = new Map<string, { name: string; shares: number[] }>();
      for (const m of marks) {
        const entry = byMarker.get(m.markerId) ?? { name: m.name, shares: [] };
        entry.shares.push(Number(m.share ?? 0));
        byMarker.set(m.markerId, entry);
      }
      const { rows: items } = await db.query<{ itemNumber: number; total: number; marked: number; waitingThirdMarker: number }>(
        `select item_number as "itemNumber", count(*)::int as total, count(marked_at)::int as marked,
                count(*) filter (where round = 3 and marked_at is null)::int as "waitingThirdMarker"
         from marking_tasks where exam_id = $1 group by item_number order by item_number`,
        [request.query.examId],
      );
      const overall = distributionOf(marks.map((m) => Number(m.share ?? 0)));
      return {
        examId: request.query.examId,
        byEvaluator: [...byMarker].map(([markerId, e]) => {
          const d = distributionOf(e.shares);
          return { markerId, name: e.name, marked: d.count, mean: d.mean, sd: d.sd };
        }),
        byItem: items,
        overall: { mean: overall.mean, sd: overall.sd, count: overall.count },
      };
    },
  );

  app.post(
    '/v1/marking/moderate',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary:
          "Moderate one evaluator's marks on an exam: shift (+/− marks) or scale (× factor) with a reason; the affected results are rescored and Moderated",
        ...projectCall,
        body: S.ModerateBody,
        response: { 200: S.ModerateAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const b = request.body;
      const { parties } = await examInReach(request, b.examId);
      if (!parties.moderator) throw forbidden('Only a moderator of the exam may adjust marks.');
      if (b.kind === 'scale' && (b.value <= 0 || b.value > 10)) throw ValidationFailure.field('value', 'A scale is a factor above 0 and at most 10.');
      if (b.kind === 'shift' && b.value === 0) throw ValidationFailure.field('value', 'A shift of 0 changes nothing.');
      const reason = b.reason.trim();
      if (!reason) throw ValidationFailure.field('reason', 'Give a reason: it is kept in the history.');
      const at = clock.now().toISOString();
      return db.transaction(async (tx) => {
        const { rows: tasks } = await tx.query<{ id: number; resultId: number; marks: number; maxMarks: number }>(
          `select t.id::int as id, t.result_id::int as "resultId", t.marks::float8 as marks, i.max_marks::float8 as "maxMarks"
           from marking_tasks t join result_items i on i.result_id = t.result_id and i.item_number = t.item_number
           where t.exam_id = $1 and t.marker_id = $2 and t.marked_at is not null and t.round < 3 for update of t`,
          [b.examId, b.markerId],
        );
        if (!tasks.length) throw badRequest('This evaluator has no marks on this exam to moderate.');
        const adjustment = { kind: b.kind, value: b.value };
        for (const t of tasks) {
          await tx.query(`update marking_tasks set adjusted_marks = $2 where id = $1`, [t.id, adjustMark(Number(t.marks), Number(t.maxMarks), adjustment)]);
        }
        await tx.query(
          `insert into moderation_adjustments (exam_id, marker_id, kind, value, reason, actor_id, details, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [b.examId, b.markerId, b.kind, b.value, reason, p.userId, JSON.stringify({ tasks: tasks.length }), at],
        );
        const resultIds = [...new Set(tasks.map((t) => t.resultId))];
        for (const id of resultIds) {
          const rescored = await rescoreResult(tx, (await lockResult(tx, id))!, {
            event: 'result.moderated',
            actorId: p.userId,
            reason,
            at,
            details: { markerId: b.markerId, kind: b.kind, value: b.value },
          });
          if (rescored.row.status === 'Provisional' || rescored.row.status === 'Moderated') {
            await applyResultEvent(tx, rescored.row, { type: 'result.moderate', by: { moderator: true }, reason, at }, p.userId, { reason });
          }
        }
        return { adjusted: tasks.length, results: resultIds.length };
      });
    },
  );
}

/**
 * The candidates' notification of a publication (issue 20; the notification centre of issue 21
 * subscribes to `result.published`): one domain event per result, and an e-mail in the
 * candidate's language (docs/decisions/0231, 0253). Runs after the publication committed.
 */
export async function announcePublished(deps: Pick<ResultsDeps, 'db' | 'events' | 'mail' | 'publicUrl'>, published: readonly ResultRow[]) {
  for (const row of published) {
    deps.events.emit('result.published', {
      tenantId: row.tenantId,
      resultId: row.id,
      examId: row.examId,
      candidateId: row.candidateId,
      at: row.publishedAt ? new Date(row.publishedAt).toISOString() : new Date().toISOString(),
    });
    const { rows } = await deps.db.query<{
      email: string | null;
      firstName: string | null;
      preferredLanguage: string | null;
      medium: string;
      examName: string;
      paperTitle: string;
    }>(
      `select u.email, u.first_name as "firstName", u.preferred_language as "preferredLanguage", reg.medium, e.name as "examName", p.title as "paperTitle"
       from results r join users u on u.id = r.candidate_id join deliveries d on d.id = r.delivery_id join registrations reg on reg.id = d.registration_id
         join exams e on e.id = r.exam_id join papers p on p.id = r.paper_id where r.id = $1`,
      [row.id],
    );
    const r = rows[0];
    if (!r) continue;
    // The notification center, and the e-mail only if the candidate wants it (issue 21, docs/decisions/0260).
    const told = await notify(deps.db, row.candidateId, 'results.published', {
      params: { examName: r.examName, paperTitle: r.paperTitle },
      link: `/results?result=${row.id}`,
      mail: false,
    });
    if (!r.email || (told && !told.email)) continue;
    deps.mail.dispatch(
      resultPublishedMail(candidateMailLanguage(r.preferredLanguage, r.medium), { email: r.email, name: r.firstName ?? '' }, r, deps.publicUrl),
    );
  }
}

/**
 * When the support desk resolves a re-evaluation ticket, its result is scored again with the
 * marks given meanwhile (the moderator's fresh marks of the questions asked about) and becomes
 * Revised, the difference kept in its history.
 */
export async function reviseForTicket(deps: Pick<ResultsDeps, 'db' | 'clock'>, ticketId: number, actorId: string | null): Promise<number | null> {
  const { rows } = await deps.db.query<{ id: number }>(
    `select id::int as id from results where reevaluation_ticket_id = $1 and status = 'ReevaluationRequested'`,
    [ticketId],
  );
  if (!rows[0]) return null;
  const at = deps.clock.now().toISOString();
  return deps.db.transaction(async (tx) => {
    const row = await lockResult(tx, rows[0].id);
    if (!row || row.status !== 'ReevaluationRequested') return null;
    const rescored = await rescoreResult(tx, row, { event: 'result.reevaluated', actorId, at, details: { ticketId, items: row.reevaluationItems } });
    await applyResultEvent(tx, rescored.row, { type: 'result.revise', by: { agent: true }, at }, actorId, { details: { ticketId } });
    const { rows: exams } = await tx.query<{ examName: string }>(`select name as "examName" from exams where id = $1`, [row.examId]);
    await notify(tx, row.candidateId, 'reevaluation.outcome', { params: { examName: exams[0]?.examName ?? '' }, link: `/results?result=${row.id}` });
    return row.id;
  });
}

export const RESOLVED_TICKET_STATUS = ticketStatuses.Resolved;

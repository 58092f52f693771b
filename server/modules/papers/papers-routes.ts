import { createHash, randomBytes } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { P } from '#machines/permissions.ts';
import { computeBlueprint } from '#machines/papers/blueprint.ts';
import { decidePaper, paperActions, type PaperActor, type PaperEvent, type PaperEventType, type PaperStatus } from '#machines/papers/paper-flow.machine.ts';
import { PAPER_LIMITS, setLetter } from '#machines/papers/paper-records.ts';
import { checkEquivalence, compareSets, generateSet, lockSnapshot, serializeSet, type PaperSet, type PaperSnapshot } from '#machines/papers/paper-sets.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { changeStamp, expectedVersion, setVersionTag, staleEdit } from '#server/lib/concurrency.ts';
import { AppError, badRequest, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import { effectiveExamPermissions, isUniqueViolation } from '#server/modules/exams/workspace-access.ts';
import { answerKeyHtml, PdfPrinter, PrintUnavailable, questionPaperHtml } from './paper-print.ts';
import * as S from './papers-schemas.ts';
import {
  categoryNames,
  countCell,
  describeVersions,
  findPaper,
  listPapers,
  listSections,
  listSets,
  loadDrawBank,
  loadVersions,
  paperHistory,
  paperSpec,
  projectLanguages,
  sectionAnswer,
  type PaperRow,
  type SectionRow,
  type SetRow,
} from './papers-repository.ts';

const tags = ['papers'];
const security = [{ bearer: [] }];
const paperCall = { description: 'A paper call: send ExamId as <examId> or <examId>&<paperId> (spec §3).' };
const routeConfig = { access: P.Exams.View, workspace: 'paper' as const };
export const PAPER_NOT_FOUND = 'Paper not found.';

/** The caller's relation to the papers of the header's exam, from their exam permissions. */
function paperActor(workspace: Workspace): PaperActor {
  const held = effectiveExamPermissions(workspace, workspace.exam!.id);
  return { paperSetter: held.includes('PaperSetter'), moderator: held.includes('Moderator'), projectAdmin: held.includes('ProjectAdmin') };
}

const wording: Record<PaperEventType, [string, string]> = {
  'paper.edit': ['edit', 'be edited'],
  'paper.submit': ['submit', 'be submitted for review'],
  'paper.requestChanges': ['ask for changes to', 'go back to Draft'],
  'paper.lock': ['lock', 'be locked'],
  'paper.unlock': ['unlock', 'be unlocked'],
  'paper.generateSets': ['generate sets of', 'have sets generated'],
  'paper.publish': ['publish', 'be published'],
};

/** Asks the paper machine; throws its refusal (403 caller, 409 status, 400 missing reason / blueprint problems). */
function assertPaperEvent(workspace: Workspace, status: PaperStatus, event: Omit<PaperEvent, 'by'>, problems: string[] = []) {
  const decision = decidePaper(status, { ...event, by: paperActor(workspace) } as PaperEvent);
  if (decision.accepted) return decision;
  const [verb, what] = wording[event.type];
  if (decision.reason === 'role') throw forbidden(`You may not ${verb} this paper.`);
  if (decision.reason === 'fields')
    throw ValidationFailure.field('reason', `A reason is required to ${verb === 'unlock' ? 'unlock a paper' : 'ask for changes'}.`);
  if (decision.reason === 'blueprint')
    throw new AppError(400, ['The paper cannot be locked until its blueprint has no blocking problem:', ...problems], { extra: { problems } });
  if (decision.reason === 'sets') throw conflict('Generate at least one set before publishing the paper.', { currentStatus: decision.from });
  if (event.type === 'paper.edit') {
    throw conflict(`This paper is ${decision.from}: it cannot be edited${decision.from === 'Locked' ? ' until a project admin unlocks it' : ''}.`, {
      currentStatus: decision.from,
    });
  }
  throw conflict(`A paper in status ${decision.from} cannot ${what}.`, { currentStatus: decision.from });
}

function toPaper(workspace: Workspace, row: PaperRow, sections: SectionRow[]) {
  const contentVisible = seesPaperContent(workspace);
  return {
    paperId: row.id,
    examId: row.examId,
    code: row.code,
    title: row.title,
    durationMinutes: row.durationMinutes,
    totalMarks: row.totalMarks,
    instructions: row.instructions,
    navigation: row.navigation,
    calculator: row.calculator,
    mode: row.mode,
    status: row.status,
    lockedAt: row.lockedAt ? new Date(row.lockedAt).toISOString() : null,
    lockedBy: row.lockedById ? { userId: row.lockedById, name: row.lockedByName ?? '' } : null,
    setCount: row.setCount,
    // Others see the outline (titles, counts, marks), not which items the rules pin or draw.
    sections: sections.map((section) => {
      const answer = sectionAnswer(section);
      return contentVisible
        ? answer
        : { ...answer, rule: section.rule.kind === 'fixed' ? { kind: 'fixed' as const, items: [] } : { kind: 'draw' as const, draws: [] } };
    }),
    contentVisible,
    version: row.version,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    updatedBy: row.updatedById ? { userId: row.updatedById, name: row.updatedByName ?? '' } : null,
    actions: paperActions(row.status, paperActor(workspace)),
  };
}

/**
 * Whether the caller may see what is in a paper (its pinned items, blueprint, sets, their content
 * and PDFs): its paper setters, moderators and project admins (docs/decisions/0221). Anyone who
 * reaches the exam sees that the paper exists (code, title, status, section outline).
 */
export function seesPaperContent(workspace: Workspace): boolean {
  const actor = paperActor(workspace);
  return actor.paperSetter === true || actor.moderator === true || actor.projectAdmin === true;
}
export const PAPER_CONTENT_FORBIDDEN = 'Only the paper setters, moderators and project admins of this exam may see what is in its papers.';

/**
 * The paper of the header's exam; with `ExamId: e&p`, the path's paper must be p (else 404, as for
 * an unknown id). `content`: the route shows what is in the paper (403 for other callers).
 */
async function paperInReach(db: Queryable, request: FastifyRequest, paperId: number, options: { forUpdate?: boolean; content?: boolean } = {}) {
  const workspace = requireWorkspace(request);
  if (workspace.paperId !== null && workspace.paperId !== paperId) throw notFound(PAPER_NOT_FOUND);
  const row = await findPaper(db, workspace.exam!.id, paperId, options);
  if (!row) throw notFound(PAPER_NOT_FOUND);
  if (options.content && !seesPaperContent(workspace)) throw forbidden(PAPER_CONTENT_FORBIDDEN);
  return { workspace, row };
}

/** The blueprint of a stored paper, from its sections and the project's items now. */
async function blueprintOf(db: Queryable, row: PaperRow, sections: SectionRow[]) {
  const spec = paperSpec(row, sections, await projectLanguages(db, row.projectId));
  const fixedIds = spec.sections.flatMap((s) => (s.rule.kind === 'fixed' ? s.rule.items.map(Number) : []));
  const cells = spec.sections.flatMap((s) => (s.rule.kind === 'draw' ? s.rule.draws.map((d) => ({ categoryId: d.categoryId, difficulty: d.difficulty })) : []));
  const [items, bank] = await Promise.all([loadVersions(db, row.projectId, fixedIds), loadDrawBank(db, row.projectId, cells)]);
  return { spec, items, bank, blueprint: computeBlueprint(spec, items, bank) };
}

/**
 * Checks a section before it is stored: the issue's clear 400s (no items, a draw asking for more
 * items than the bank has, attempt-any larger than the section, unknown versions or categories).
 */
async function checkSection(db: Queryable, projectId: number, section: Pick<SectionRow, 'rule' | 'attemptAny'>) {
  const { rule } = section;
  const count = rule.kind === 'fixed' ? rule.items.length : rule.draws.reduce((n, d) => n + d.count, 0);
  if (count === 0) {
    throw ValidationFailure.field(
      'rule',
      rule.kind === 'fixed'
        ? 'A section needs at least one item: add items from the bank.'
        : 'A section needs at least one item: a draw rule must draw at least one.',
    );
  }
  if (count > PAPER_LIMITS.itemsPerSection) throw ValidationFailure.field('rule', `A section holds at most ${PAPER_LIMITS.itemsPerSection} items.`);
  if (section.attemptAny !== null && section.attemptAny > count) {
    throw ValidationFailure.field('attemptAny', `"Attempt any ${section.attemptAny}" needs at least ${section.attemptAny} items; this section has ${count}.`);
  }
  if (rule.kind === 'fixed') {
    const found = await loadVersions(db, projectId, rule.items);
    const unknown = rule.items.filter((id) => !found.has(String(id)));
    if (unknown.length > 0)
      throw ValidationFailure.field(
        'rule.items',
        `Item version${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} do${unknown.length > 1 ? '' : 'es'} not exist in this project.`,
      );
    return;
  }
  const names = await categoryNames(db, projectId);
  const seen = new Set<string>();
  for (const [index, draw] of rule.draws.entries()) {
    const key = `${draw.categoryId}|${draw.difficulty}`;
    if (seen.has(key))
      throw ValidationFailure.field(
        `rule.draws[${index}]`,
        'Each category × difficulty appears once in a section: add to the count of the rule already there.',
      );
    seen.add(key);
    const categoryName = names.get(String(draw.categoryId));
    if (categoryName === undefined)
      throw ValidationFailure.field(`rule.draws[${index}].categoryId`, `Category ${draw.categoryId} does not exist in this project.`);
    const available = await countCell(db, projectId, draw.categoryId, draw.difficulty);
    if (draw.count > available) {
      throw ValidationFailure.field(
        `rule.draws[${index}].count`,
        `This rule draws ${draw.count} ${draw.difficulty} items of "${categoryName}", but the bank has only ${available}.`,
      );
    }
  }
}

/** The stored form of a rule: `fixed` with its items, `draw` with its draws, nothing else. */
function normalizeRule(rule: S.SelectionRuleInput): S.SelectionRuleBody {
  if (rule.kind === 'fixed') {
    if (rule.draws !== undefined) throw ValidationFailure.field('rule.draws', 'A fixed section lists items; draws belong to a draw section.');
    return { kind: 'fixed', items: rule.items ?? [] };
  }
  if (rule.items !== undefined) throw ValidationFailure.field('rule.items', 'A draw section draws by category × difficulty; items belong to a fixed section.');
  return { kind: 'draw', draws: rule.draws ?? [] };
}

function parseSet(row: SetRow): PaperSet {
  return JSON.parse(row.content) as PaperSet;
}

const storedSet = (row: SetRow) => ({
  letter: row.letter,
  seed: row.seed,
  sha256: row.sha256,
  createdAt: new Date(row.createdAt).toISOString(),
  set: parseSet(row),
});
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Edits of a Draft paper's content run here: the paper row is locked, the machine asked, the paper's version bumped. */
async function editDraft<T>(
  db: Db,
  request: FastifyRequest,
  paperId: number,
  edit: (tx: Queryable, paper: PaperRow, workspace: Workspace) => Promise<T>,
): Promise<T> {
  const p = requirePrincipal(request);
  return db.transaction(async (tx) => {
    const { workspace, row } = await paperInReach(tx, request, paperId, { forUpdate: true });
    assertPaperEvent(workspace, row.status, { type: 'paper.edit' });
    const result = await edit(tx, row, workspace);
    await tx.query(`update papers set version = version + 1, updated_by = $2, updated_at = now() where id = $1`, [row.id, p.userId]);
    return result;
  });
}

export async function paperRoutes(fastify: FastifyInstance, { db, printer = new PdfPrinter() }: { db: Db; printer?: PdfPrinter }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  fastify.addHook('onClose', async () => printer.close());

  async function answer(request: FastifyRequest, paperId: number) {
    const { workspace, row } = await paperInReach(db, request, paperId);
    return { row, paper: toPaper(workspace, row, await listSections(db, row.id)) };
  }

  app.get(
    '/v1/paper',
    {
      config: routeConfig,
      schema: { tags, security, summary: 'Papers of the exam in the ExamId header, newest first', ...paperCall, response: { 200: Type.Array(S.Paper) } },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const rows = await listPapers(db, workspace.exam!.id);
      return Promise.all(rows.map(async (row) => toPaper(workspace, row, await listSections(db, row.id))));
    },
  );

  app.post(
    '/v1/paper',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Create a paper (in Draft) for the exam in the ExamId header',
        ...paperCall,
        body: S.CreatePaperBody,
        response: { 201: S.Paper },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const actor = paperActor(workspace);
      if (!actor.paperSetter && !actor.projectAdmin) throw forbidden('Only a paper setter or the project admin may create papers.');
      const body = request.body;
      let id: number;
      try {
        const { rows } = await db.query<{ id: number }>(
          `insert into papers (tenant_id, project_id, exam_id, code, title, duration_minutes, total_marks, instructions, navigation, calculator, mode, created_by, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) returning id::int as id`,
          [
            p.tenantId,
            workspace.project.id,
            workspace.exam!.id,
            body.code,
            body.title.trim(),
            body.durationMinutes,
            body.totalMarks,
            JSON.stringify(body.instructions ?? {}),
            body.navigation ?? 'free',
            body.calculator ?? false,
            body.mode ?? 'online',
            p.userId,
          ],
        );
        id = rows[0].id;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A paper with the code "${body.code}" already exists in this exam.`);
        throw error;
      }
      await db.query(`insert into paper_history (paper_id, event, to_status, actor_id) values ($1, 'paper.create', 'Draft', $2)`, [id, p.userId]);
      const { row, paper } = await answer(request, id);
      setVersionTag(reply, row.version);
      return reply.status(201).send(paper);
    },
  );

  app.get(
    '/v1/paper/:id',
    {
      config: routeConfig,
      schema: { tags, security, summary: 'A paper with its sections', ...paperCall, params: S.PaperIdParams, response: { 200: S.Paper } },
    },
    async (request, reply) => {
      const { row, paper } = await answer(request, request.params.id);
      setVersionTag(reply, row.version);
      return paper;
    },
  );

  app.put(
    '/v1/paper/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Edit a Draft paper (optimistic: version or If-Match); 409 once it is in review or locked',
        ...paperCall,
        params: S.PaperIdParams,
        body: S.EditPaperBody,
        response: { 200: S.Paper },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const body = request.body;
      const version = expectedVersion(request, body.version);
      await db.transaction(async (tx) => {
        const { workspace, row } = await paperInReach(tx, request, request.params.id, { forUpdate: true });
        assertPaperEvent(workspace, row.status, { type: 'paper.edit' });
        if (row.version !== version) throw staleEdit('paper', (await changeStamp(tx, 'papers', row.id))!, version);
        try {
          await tx.query(
            `update papers set code = coalesce($2, code), title = coalesce($3, title), duration_minutes = coalesce($4, duration_minutes),
                    total_marks = coalesce($5, total_marks), instructions = coalesce($6, instructions), navigation = coalesce($7, navigation),
                    calculator = coalesce($8, calculator), mode = coalesce($9, mode), version = version + 1, updated_by = $10, updated_at = now()
             where id = $1`,
            [
              row.id,
              body.code ?? null,
              body.title?.trim() ?? null,
              body.durationMinutes ?? null,
              body.totalMarks ?? null,
              body.instructions ? JSON.stringify(body.instructions) : null,
              body.navigation ?? null,
              body.calculator ?? null,
              body.mode ?? null,
              p.userId,
            ],
          );
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict(`A paper with the code "${body.code}" already exists in this exam.`);
          throw error;
        }
      });
      const { row, paper } = await answer(request, request.params.id);
      setVersionTag(reply, row.version);
      return paper;
    },
  );

  app.delete(
    '/v1/paper/:id',
    { config: routeConfig, schema: { tags, security, summary: 'Delete a Draft paper', ...paperCall, params: S.PaperIdParams, response: { 200: S.Deleted } } },
    async (request) => {
      await editDraft(db, request, request.params.id, async (tx, paper) => {
        await tx.query(`delete from papers where id = $1`, [paper.id]);
      });
      return { deleted: true };
    },
  );

  app.post(
    '/v1/paper/:id/section',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Add a section to a Draft paper (fixed items or draw rules)',
        ...paperCall,
        params: S.PaperIdParams,
        body: S.CreateSectionBody,
        response: { 201: S.Paper },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const body = request.body;
      await editDraft(db, request, request.params.id, async (tx, paper) => {
        const { rows } = await tx.query<{ n: number; next: number }>(
          `select count(*)::int as n, coalesce(max(position), 0)::int + 1 as next from paper_sections where paper_id = $1`,
          [paper.id],
        );
        if (rows[0].n >= PAPER_LIMITS.sections) throw badRequest(`A paper has at most ${PAPER_LIMITS.sections} sections.`);
        const section = { rule: normalizeRule(body.rule), attemptAny: body.attemptAny ?? null };
        await checkSection(tx, paper.projectId, section);
        await tx.query(
          `insert into paper_sections (paper_id, position, title, instructions, marks_per_item, attempt_any, time_limit_minutes, shuffle_items, shuffle_options, rule, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            paper.id,
            body.order ?? Math.min(rows[0].next, 1000),
            body.title.trim(),
            JSON.stringify(body.instructions ?? {}),
            body.marksPerItem,
            section.attemptAny,
            body.timeLimitMinutes ?? null,
            body.shuffleItems ?? true,
            body.shuffleOptions ?? true,
            JSON.stringify(section.rule),
            p.userId,
          ],
        );
      });
      const { row, paper } = await answer(request, request.params.id);
      setVersionTag(reply, row.version);
      return reply.status(201).send(paper);
    },
  );

  app.put(
    '/v1/paper/:id/section/:sectionId',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Edit a section of a Draft paper (optimistic: the section’s version)',
        ...paperCall,
        params: S.SectionParams,
        body: S.EditSectionBody,
        response: { 200: S.Paper },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const body = request.body;
      const version = expectedVersion(request, body.version);
      await editDraft(db, request, request.params.id, async (tx, paper) => {
        const current = (await listSections(tx, paper.id)).find((s) => s.id === request.params.sectionId);
        if (!current) throw notFound('Section not found.');
        if (current.version !== version) throw staleEdit('section', (await changeStamp(tx, 'paper_sections', current.id))!, version);
        const next = {
          rule: body.rule ? normalizeRule(body.rule) : current.rule,
          attemptAny: body.attemptAny === undefined ? current.attemptAny : body.attemptAny,
        };
        await checkSection(tx, paper.projectId, next);
        await tx.query(
          `update paper_sections set position = $2, title = $3, instructions = $4, marks_per_item = $5, attempt_any = $6, time_limit_minutes = $7,
                  shuffle_items = $8, shuffle_options = $9, rule = $10, version = version + 1, updated_by = $11, updated_at = now()
           where id = $1`,
          [
            current.id,
            body.order ?? current.order,
            body.title?.trim() ?? current.title,
            JSON.stringify(body.instructions ?? current.instructions),
            body.marksPerItem ?? current.marksPerItem,
            next.attemptAny,
            body.timeLimitMinutes === undefined ? current.timeLimitMinutes : body.timeLimitMinutes,
            body.shuffleItems ?? current.shuffleItems,
            body.shuffleOptions ?? current.shuffleOptions,
            JSON.stringify(next.rule),
            p.userId,
          ],
        );
      });
      const { row, paper } = await answer(request, request.params.id);
      setVersionTag(reply, row.version);
      return paper;
    },
  );

  app.delete(
    '/v1/paper/:id/section/:sectionId',
    {
      config: routeConfig,
      schema: { tags, security, summary: 'Remove a section of a Draft paper', ...paperCall, params: S.SectionParams, response: { 200: S.Paper } },
    },
    async (request) => {
      await editDraft(db, request, request.params.id, async (tx, paper) => {
        const removed = await tx.query(`delete from paper_sections where id = $1 and paper_id = $2`, [request.params.sectionId, paper.id]);
        if (removed.rowCount === 0) throw notFound('Section not found.');
      });
      return (await answer(request, request.params.id)).paper;
    },
  );

  app.put(
    '/v1/paper/:id/sections/order',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Reorder the sections of a Draft paper: every section once, in the new order (optimistic: the paper’s version or If-Match)',
        ...paperCall,
        params: S.PaperIdParams,
        body: S.SectionOrderBody,
        response: { 200: S.Paper },
      },
    },
    async (request, reply) => {
      const { sectionIds } = request.body;
      const version = expectedVersion(request, request.body.version);
      await editDraft(db, request, request.params.id, async (tx, paper) => {
        if (paper.version !== version) throw staleEdit('paper', (await changeStamp(tx, 'papers', paper.id))!, version);
        const current = (await listSections(tx, paper.id)).map((s) => s.id);
        const given = new Set(sectionIds);
        if (given.size !== sectionIds.length) throw ValidationFailure.field('sectionIds', 'List each section once.');
        const unknown = sectionIds.filter((id) => !current.includes(id));
        if (unknown.length > 0) throw ValidationFailure.field('sectionIds', `Section ${unknown.join(', ')} is not a section of this paper.`);
        const left = current.filter((id) => !given.has(id));
        if (left.length > 0)
          throw ValidationFailure.field('sectionIds', `List every section of the paper: ${left.join(', ')} ${left.length > 1 ? 'are' : 'is'} missing.`);
        for (const [index, id] of sectionIds.entries()) {
          await tx.query(`update paper_sections set position = $3 where id = $1 and paper_id = $2 and position <> $3`, [id, paper.id, index + 1]);
        }
      });
      const { row, paper } = await answer(request, request.params.id);
      setVersionTag(reply, row.version);
      return paper;
    },
  );

  app.get(
    '/v1/paper/:id/items',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'The item versions the paper pins (fixed sections, and a locked paper’s draw pools): code, version, stem text, status, languages',
        ...paperCall,
        params: S.PaperIdParams,
        response: { 200: S.FixedItems },
      },
    },
    async (request) => {
      const { row } = await paperInReach(db, request, request.params.id, { content: true });
      const sections = await listSections(db, row.id);
      const fixed = sections.flatMap((s) => (s.rule.kind === 'fixed' ? s.rule.items.map(Number) : []));
      // A locked paper's draw pools too: the set comparison names drawn items.
      const pooled = row.snapshot ? Object.keys((row.snapshot as PaperSnapshot).items).map(Number) : [];
      return describeVersions(db, row.projectId, [...new Set([...fixed, ...pooled])]);
    },
  );

  app.get(
    '/v1/paper/:id/blueprint',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Marks and counts by section × category × difficulty, language coverage and warnings (blocking ones stop a lock)',
        ...paperCall,
        params: S.PaperIdParams,
        response: { 200: S.BlueprintSchema },
      },
    },
    async (request) => {
      const { row } = await paperInReach(db, request, request.params.id, { content: true });
      const { blueprint } = await blueprintOf(db, row, await listSections(db, row.id));
      const names = await categoryNames(db, row.projectId);
      return {
        ...blueprint,
        byCategory: blueprint.byCategory.map((c) => ({ ...c, categoryName: c.categoryId === null ? null : (names.get(c.categoryId) ?? null) })),
      };
    },
  );

  app.post(
    '/v1/paper/:id/status',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary:
          'Move the paper through its flow: submit, requestChanges (reason), lock (snapshot of the item versions), unlock (project admin, reason), publish',
        ...paperCall,
        params: S.PaperIdParams,
        body: S.PaperStatusBody,
        response: { 200: S.PaperTransition },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { event: type, reason, version } = request.body;
      const decision = await db.transaction(async (tx) => {
        const { workspace, row } = await paperInReach(tx, request, request.params.id, { forUpdate: true });
        if (version !== undefined && version !== row.version) throw staleEdit('paper', (await changeStamp(tx, 'papers', row.id))!, version);
        let snapshot: PaperSnapshot | null = null;
        let problems: string[] = [];
        let details: Record<string, unknown> = {};
        if (type === 'paper.lock' && row.status === 'Review') {
          const built = await blueprintOf(tx, row, await listSections(tx, row.id));
          problems = built.blueprint.warnings.filter((w) => w.blocking).map((w) => w.message);
          if (problems.length === 0) snapshot = lockSnapshot(built.spec, built.items, built.bank);
          details = { items: snapshot ? Object.keys(snapshot.items).length : 0 };
        }
        const event = { type, reason: reason ?? '', problems: problems.length, sets: row.setCount } as Omit<PaperEvent, 'by'>;
        const decided = assertPaperEvent(workspace, row.status, event, problems);
        if (type === 'paper.lock') {
          await tx.query(
            `update papers set status = 'Locked', snapshot = $2, locked_at = now(), locked_by = $3, version = version + 1, updated_by = $3, updated_at = now() where id = $1`,
            [row.id, JSON.stringify(snapshot), p.userId],
          );
        } else if (type === 'paper.unlock') {
          const sets = await tx.query(`delete from paper_sets where paper_id = $1`, [row.id]);
          details = { setsDiscarded: sets.rowCount };
          await tx.query(
            `update papers set status = 'Draft', snapshot = null, locked_at = null, locked_by = null, version = version + 1, updated_by = $2, updated_at = now() where id = $1`,
            [row.id, p.userId],
          );
        } else {
          await tx.query(`update papers set status = $2, version = version + 1, updated_by = $3, updated_at = now() where id = $1`, [
            row.id,
            decided.to,
            p.userId,
          ]);
        }
        await tx.query(`insert into paper_history (paper_id, event, from_status, to_status, actor_id, reason, details) values ($1, $2, $3, $4, $5, $6, $7)`, [
          row.id,
          type,
          decided.from,
          decided.to,
          p.userId,
          reason?.trim() || null,
          JSON.stringify(details),
        ]);
        return decided;
      });
      const { paper } = await answer(request, request.params.id);
      return { fromStatus: decision.from, toStatus: decision.to, record: paper };
    },
  );

  app.get(
    '/v1/paper/:id/history',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'The paper’s flow, oldest first (unlocks with their reason)',
        ...paperCall,
        params: S.PaperIdParams,
        response: { 200: Type.Array(S.HistoryEntry) },
      },
    },
    async (request) => {
      const { row } = await paperInReach(db, request, request.params.id);
      return paperHistory(db, row.id);
    },
  );

  app.post(
    '/v1/paper/:id/sets',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Generate sets A, B, … of a locked paper (replaces its sets); each records its seed',
        ...paperCall,
        params: S.PaperIdParams,
        body: S.GenerateSetsBody,
        response: { 201: S.SetList },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { count, seeds } = request.body;
      if (count !== undefined && seeds !== undefined && seeds.length !== count)
        throw ValidationFailure.field('seeds', `Give one seed per set: ${count} sets, ${seeds.length} seeds.`);
      const total = seeds?.length ?? count ?? 4;
      await db.transaction(async (tx) => {
        const { workspace, row } = await paperInReach(tx, request, request.params.id, { forUpdate: true });
        if (row.status === 'Draft' || row.status === 'Review') {
          throw badRequest(`Sets are generated from a locked paper; this paper is ${row.status}. Lock it first.`);
        }
        assertPaperEvent(workspace, row.status, { type: 'paper.generateSets' });
        const snapshot = row.snapshot as PaperSnapshot;
        await tx.query(`delete from paper_sets where paper_id = $1`, [row.id]);
        for (let i = 0; i < total; i += 1) {
          const seed = seeds?.[i] ?? randomBytes(12).toString('hex');
          const set = generateSet(snapshot, setLetter(i), seed);
          const content = serializeSet(set);
          await tx.query(`insert into paper_sets (paper_id, letter, seed, content, sha256, created_by) values ($1, $2, $3, $4, $5, $6)`, [
            row.id,
            set.letter,
            seed,
            content,
            sha256(content),
            p.userId,
          ]);
        }
        await tx.query(
          `insert into paper_history (paper_id, event, from_status, to_status, actor_id, details) values ($1, 'paper.generateSets', $2, $2, $3, $4)`,
          [row.id, row.status, p.userId, JSON.stringify({ sets: total })],
        );
      });
      const rows = await listSets(db, request.params.id);
      return reply.status(201).send({ sets: rows.map(storedSet), equivalence: checkEquivalence(rows.map(parseSet)) });
    },
  );

  app.get(
    '/v1/paper/:id/sets',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'The sets of the paper and the check that they are equivalent',
        ...paperCall,
        params: S.PaperIdParams,
        response: { 200: S.SetList },
      },
    },
    async (request) => {
      const { row } = await paperInReach(db, request, request.params.id, { content: true });
      const rows = await listSets(db, row.id);
      return { sets: rows.map(storedSet), equivalence: checkEquivalence(rows.map(parseSet)) };
    },
  );

  app.get(
    '/v1/paper/:id/sets/compare',
    {
      config: routeConfig,
      schema: { tags, security, summary: 'Where each item sits in each set', ...paperCall, params: S.PaperIdParams, response: { 200: S.SetComparison } },
    },
    async (request) => {
      const { row } = await paperInReach(db, request, request.params.id, { content: true });
      const sets = (await listSets(db, row.id)).map(parseSet);
      return { letters: sets.map((s) => s.letter), equivalence: checkEquivalence(sets), rows: compareSets(sets) };
    },
  );

  async function setOf(request: FastifyRequest, paperId: number, letter: string) {
    const { row } = await paperInReach(db, request, paperId, { content: true });
    const set = (await listSets(db, row.id)).find((s) => s.letter === letter);
    if (!set || !row.snapshot) throw notFound(`Set ${letter} not found.`);
    return { row, set, snapshot: row.snapshot as PaperSnapshot };
  }

  app.get(
    '/v1/paper/:id/sets/:letter',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'One set with the content of its items as locked (preview and print)',
        ...paperCall,
        params: S.SetParams,
        response: { 200: S.SetWithItems },
      },
    },
    async (request) => {
      const { row, set, snapshot } = await setOf(request, request.params.id, request.params.letter);
      const stored = storedSet(set);
      const items = Object.fromEntries(stored.set.sections.flatMap((s) => s.items.map((i) => [i.versionId, snapshot.items[i.versionId].content])));
      const sections = await listSections(db, row.id);
      return {
        set: stored,
        items,
        sections: sections.map((s) => ({
          sectionId: String(s.id),
          title: s.title,
          instructions: s.instructions,
          attemptAny: s.attemptAny,
          timeLimitMinutes: s.timeLimitMinutes,
        })),
      };
    },
  );

  app.get(
    '/v1/paper/:id/sets/:letter/verify',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Regenerate the set from its recorded seed and compare the bytes with the stored set',
        ...paperCall,
        params: S.SetParams,
        response: { 200: S.SetVerification },
      },
    },
    async (request) => {
      const { set, snapshot } = await setOf(request, request.params.id, request.params.letter);
      const again = serializeSet(generateSet(snapshot, set.letter, set.seed));
      return { letter: set.letter, seed: set.seed, identical: again === set.content, sha256: set.sha256, regeneratedSha256: sha256(again) };
    },
  );

  app.get(
    '/v1/paper/:id/sets/:letter/pdf',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'The printed set as PDF: the question paper (bilingual, cover with instructions, set letter, roll-number box, page numbers) or its answer key',
        ...paperCall,
        params: S.SetParams,
        querystring: S.PrintQuery,
        response: { 200: S.PdfBytes },
      },
    },
    async (request, reply) => {
      const { row, set, snapshot } = await setOf(request, request.params.id, request.params.letter);
      const workspace = requireWorkspace(request);
      const projectLanguageList = await projectLanguages(db, row.projectId);
      const languages = request.query.languages
        ? [...new Set(request.query.languages.split(','))]
        : ['en', ...projectLanguageList.filter((l) => l !== 'en').slice(0, 1)];
      const unknown = languages.filter((l) => !projectLanguageList.includes(l));
      if (unknown.length > 0)
        throw ValidationFailure.field(
          'languages',
          `The project's content languages are ${projectLanguageList.join(', ')}; ${unknown.join(', ')} is not one of them.`,
        );
      const sections = await listSections(db, row.id);
      const stored = parseSet(set);
      const input = {
        paper: {
          code: row.code,
          title: row.title,
          examName: workspace.exam!.name,
          durationMinutes: row.durationMinutes,
          totalMarks: row.totalMarks,
          instructions: row.instructions,
          calculator: row.calculator,
        },
        sections: sections.map((s) => ({
          sectionId: String(s.id),
          title: s.title,
          instructions: s.instructions,
          attemptAny: s.attemptAny,
          timeLimitMinutes: s.timeLimitMinutes,
          marksPerItem: s.marksPerItem,
        })),
        set: stored,
        items: Object.fromEntries(stored.sections.flatMap((s) => s.items.map((i) => [i.versionId, snapshot.items[i.versionId].content]))),
        languages,
      };
      const part = request.query.part ?? 'paper';
      const html = part === 'key' ? answerKeyHtml(input) : questionPaperHtml(input);
      let pdf: Buffer;
      try {
        pdf = await printer.print(html, { left: `${row.code} · ${row.title}`, right: `Set ${set.letter}`, rollBox: part !== 'key' });
      } catch (error) {
        if (error instanceof PrintUnavailable) throw new AppError(503, error.message);
        throw error;
      }
      const fileName = `${row.code}-set-${set.letter}${part === 'key' ? '-answer-key' : `-${languages.join('-')}`}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}

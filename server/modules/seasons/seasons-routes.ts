import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { P } from '#machines/permissions.ts';
import { decideSeason, seasonActions, type SeasonActor, type SeasonEvent, type SeasonEventType } from '#machines/exams/season.machine.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { changeStamp, expectedVersion, setVersionTag, staleEdit } from '#server/lib/concurrency.ts';
import { conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import { assertProjectEvent, isUniqueViolation } from '#server/modules/exams/workspace-access.ts';
import * as S from './seasons-schemas.ts';
import {
  findSeason,
  listSeasonCenters,
  listSeasonPapers,
  minuteOf,
  scheduleClashes,
  searchSeasons,
  seasonHistory,
  type SeasonRow,
} from './seasons-repository.ts';

const tags = ['seasons'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
const routeConfig = { access: P.Exams.View, workspace: 'project' as const };
export const SEASON_NOT_FOUND = 'Season not found.';
const SEASON_PAPER_NOT_FOUND = 'Scheduled paper not found in this season.';

const projectWide = (workspace: Workspace, permission: string) => workspace.grants.some((g) => g.examId === null && g.permission === permission);

/** How the caller relates to the project's seasons (docs/decisions/0150). */
export function seasonActor(workspace: Workspace): SeasonActor {
  return {
    examManager: workspace.tenantExamManager || workspace.tenantProjectManager,
    projectAdmin: projectWide(workspace, 'ProjectAdmin'),
    centerManager: projectWide(workspace, 'CenterManager'),
  };
}

const wording: Record<SeasonEventType, [string, string]> = {
  'season.openRegistration': ['open registration of', 'open registration'],
  'season.closeRegistration': ['close registration of', 'close registration'],
  'season.reopenRegistration': ['reopen registration of', 'reopen registration'],
  'season.start': ['start', 'start'],
  'season.complete': ['complete', 'be completed'],
  'season.configure': ['change', 'be changed'],
};

/** Asks the season machine; throws its refusal (403 caller, 409 status or not ready, 400 missing reason). */
export function assertSeasonEvent(workspace: Workspace, season: Pick<SeasonRow, 'status'>, event: Omit<SeasonEvent, 'by'>) {
  const decision = decideSeason(season.status, { ...event, by: seasonActor(workspace) } as SeasonEvent);
  if (decision.accepted) return decision;
  const [verb, what] = wording[event.type];
  if (decision.reason === 'role') throw forbidden(`You may not ${verb} this season.`);
  if (decision.reason === 'fields') throw ValidationFailure.field('reason', 'A reason is required to reopen registration.');
  if (decision.reason === 'readiness') {
    throw conflict(`Registration cannot open yet: the season needs ${decision.missing!.join(', ')}.`, {
      currentStatus: decision.from,
      missing: decision.missing,
    });
  }
  if (event.type === 'season.configure') {
    throw conflict(`This season is ${decision.from}: its schedule, sets, sections and centers can no longer change.`, { currentStatus: decision.from });
  }
  throw conflict(`A season in status ${decision.from} cannot ${what}.`, { currentStatus: decision.from });
}

function toSeason(workspace: Workspace, row: SeasonRow): S.Season {
  const { updatedById, updatedByName, ...season } = row;
  const actor = seasonActor(workspace);
  const actions = seasonActions(row.status, actor);
  return {
    ...season,
    updatedBy: updatedById ? { userId: updatedById, name: updatedByName ?? '' } : null,
    actions: actions.filter((a) => a !== 'season.configure'),
    canConfigure: actions.includes('season.configure'),
  };
}

async function seasonInReach(db: Queryable, request: FastifyRequest, seasonId: number, options: { forUpdate?: boolean } = {}) {
  const workspace = requireWorkspace(request);
  const row = await findSeason(db, workspace.project.id, seasonId, options);
  if (!row) throw notFound(SEASON_NOT_FOUND);
  return { workspace, row };
}

/** The season's windows must make sense: dates in order, registration closing before the sitting ends. */
function checkWindows(s: Pick<SeasonRow, 'startsOn' | 'endsOn' | 'registrationOpensAt' | 'registrationClosesAt'>) {
  if (s.endsOn < s.startsOn) throw ValidationFailure.field('endsOn', 'The season cannot end before it starts.');
  const opens = Date.parse(s.registrationOpensAt);
  const closes = Date.parse(s.registrationClosesAt);
  if (!(closes > opens)) throw ValidationFailure.field('registrationClosesAt', 'Registration must close after it opens.');
  if (closes > Date.parse(`${s.endsOn}T23:59:59.999Z`)) {
    throw ValidationFailure.field('registrationClosesAt', `Registration must close by the season's last day (${s.endsOn}).`);
  }
}

/** Roll numbers stay unique in the project only when the pattern names the season and the center (decision 0153). */
function checkRollPattern(pattern: string | undefined) {
  if (pattern === undefined) return;
  if (!pattern.includes('{season}') || !pattern.includes('{center}') || (pattern.match(/\{seq:/g) ?? []).length !== 1) {
    throw ValidationFailure.field('rollPattern', 'The roll pattern needs {season}, {center} and exactly one {seq:N}, e.g. {season}{center}{seq:5}.');
  }
}

function checkSitsOn(season: Pick<SeasonRow, 'startsOn' | 'endsOn'>, sitsOn: string) {
  if (sitsOn < season.startsOn || sitsOn > season.endsOn) {
    throw ValidationFailure.field('sitsOn', `The paper must sit within the season, ${season.startsOn} to ${season.endsOn}.`);
  }
}

async function bumpSeason(db: Queryable, seasonId: number, userId: string) {
  await db.query(`update seasons set version = version + 1, updated_by = $2, updated_at = now() where id = $1`, [seasonId, userId]);
}

export async function seasonRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/season/search',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Seasons (sittings) of the project',
        ...projectCall,
        body: S.SeasonSearchBody,
        response: { 200: S.PagedResult(S.Season) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const page = await searchSeasons(db, workspace.project.id, request.body);
      return { ...page, data: page.data.map((row) => toSeason(workspace, row)) };
    },
  );

  app.post(
    '/v1/season',
    {
      config: routeConfig,
      schema: { tags, security, summary: 'Create a season (Planned) of the project', ...projectCall, body: S.CreateSeasonBody, response: { 201: S.Season } },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      assertProjectEvent(workspace, { type: 'project.configure' });
      const actor = seasonActor(workspace);
      if (!actor.examManager && !actor.projectAdmin) throw forbidden('Only the project admin or an exam manager may create seasons.');
      const b = request.body;
      checkWindows(b);
      checkRollPattern(b.rollPattern);
      let id: number;
      try {
        const { rows } = await db.query<{ id: number }>(
          `insert into seasons (tenant_id, project_id, code, name, starts_on, ends_on, registration_opens_at, registration_closes_at, roll_pattern, created_by, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, (select roll_pattern from projects where id = $2)), $10, $10) returning id::int as id`,
          [
            p.tenantId,
            workspace.project.id,
            b.code,
            b.name.trim(),
            b.startsOn,
            b.endsOn,
            b.registrationOpensAt,
            b.registrationClosesAt,
            // The project's pattern unless the season names its own (docs/decisions/0230).
            b.rollPattern ?? null,
            p.userId,
          ],
        );
        id = rows[0].id;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A season with the code "${b.code}" already exists in this project.`);
        throw error;
      }
      await db.query(`insert into season_history (season_id, event, to_status, actor_id) values ($1, 'season.create', 'Planned', $2)`, [id, p.userId]);
      const row = (await findSeason(db, workspace.project.id, id))!;
      setVersionTag(reply, row.version);
      return reply.status(201).send(toSeason(workspace, row));
    },
  );

  app.get(
    '/v1/season/:id',
    { config: routeConfig, schema: { tags, security, summary: 'A season of the project', ...projectCall, params: S.IdParams, response: { 200: S.Season } } },
    async (request, reply) => {
      const { workspace, row } = await seasonInReach(db, request, request.params.id);
      setVersionTag(reply, row.version);
      return toSeason(workspace, row);
    },
  );

  app.put(
    '/v1/season/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Edit a season (name, windows, roll pattern) until it is in progress (optimistic: version or If-Match)',
        ...projectCall,
        params: S.IdParams,
        body: S.EditSeasonBody,
        response: { 200: S.Season },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { workspace, row } = await seasonInReach(db, request, request.params.id);
      assertSeasonEvent(workspace, row, { type: 'season.configure' });
      const version = expectedVersion(request, request.body.version);
      const b = request.body;
      const next = { ...row, ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) } as SeasonRow;
      checkWindows(next);
      checkRollPattern(b.rollPattern);
      if (b.rollPattern !== undefined && b.rollPattern !== row.rollPattern && row.allocated > 0) {
        throw conflict('Roll numbers have been given in this season: its roll pattern can no longer change.', { currentStatus: row.status });
      }
      const { rows: outside } = await db.query<{ code: string; sitsOn: string }>(
        `select p.code, to_char(sp.sits_on, 'YYYY-MM-DD') as "sitsOn" from season_papers sp join papers p on p.id = sp.paper_id
         where sp.season_id = $1 and (sp.sits_on < $2::date or sp.sits_on > $3::date) limit 1`,
        [row.seasonId, next.startsOn, next.endsOn],
      );
      if (outside[0]) {
        throw ValidationFailure.field(
          'startsOn',
          `${outside[0].code} sits on ${outside[0].sitsOn}, outside ${next.startsOn} to ${next.endsOn}: move it first.`,
        );
      }
      let updated;
      try {
        updated = await db.query(
          `update seasons set code = $3, name = $4, starts_on = $5, ends_on = $6, registration_opens_at = $7, registration_closes_at = $8, roll_pattern = $9,
                  version = version + 1, updated_by = $10, updated_at = now()
           where id = $1 and version = $2 and status in ('Planned', 'RegistrationOpen', 'RegistrationClosed')`,
          [
            row.seasonId,
            version,
            next.code,
            next.name.trim(),
            next.startsOn,
            next.endsOn,
            next.registrationOpensAt,
            next.registrationClosesAt,
            next.rollPattern,
            p.userId,
          ],
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A season with the code "${b.code}" already exists in this project.`);
        throw error;
      }
      if (updated.rowCount === 0) throw staleEdit('season', (await changeStamp(db, 'seasons', row.seasonId))!, version);
      const fresh = (await findSeason(db, workspace.project.id, row.seasonId))!;
      setVersionTag(reply, fresh.version);
      return toSeason(workspace, fresh);
    },
  );

  app.post(
    '/v1/season/:id/status',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Move the season (Planned → RegistrationOpen → RegistrationClosed → InProgress → Completed); the season machine decides',
        ...projectCall,
        params: S.IdParams,
        body: S.SeasonStatusBody,
        response: { 200: S.TransitionAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { workspace, row } = await seasonInReach(db, request, request.params.id);
      const { event: type, reason, version } = request.body;
      const readiness = { projectStatus: workspace.project.status, papers: row.paperCount, seats: row.seats };
      const decision = assertSeasonEvent(workspace, row, { type, readiness, reason: reason ?? '' } as Omit<SeasonEvent, 'by'>);
      const changed = await db.transaction(async (tx) => {
        const result = await tx.query(
          `update seasons set status = $3, version = version + 1, updated_by = $4, updated_at = now()
           where id = $1 and status = $2 and ($5::int is null or version = $5)`,
          [row.seasonId, decision.from, decision.to, p.userId, version ?? null],
        );
        if (result.rowCount === 0) return false;
        await tx.query(`insert into season_history (season_id, event, from_status, to_status, actor_id, reason) values ($1, $2, $3, $4, $5, $6)`, [
          row.seasonId,
          type,
          decision.from,
          decision.to,
          p.userId,
          reason?.trim() || null,
        ]);
        return true;
      });
      if (!changed) throw staleEdit('season', (await changeStamp(db, 'seasons', row.seasonId))!, version ?? row.version);
      const fresh = (await findSeason(db, workspace.project.id, row.seasonId))!;
      return { fromStatus: decision.from, toStatus: decision.to, record: toSeason(workspace, fresh) };
    },
  );

  app.get(
    '/v1/season/:id/history',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Status changes of the season, oldest first',
        ...projectCall,
        params: S.IdParams,
        response: { 200: Type.Array(S.HistoryEntry) },
      },
    },
    async (request) => {
      const { row } = await seasonInReach(db, request, request.params.id);
      return seasonHistory(db, row.seasonId);
    },
  );

  // ---- schedule (season papers, live sets, section settings) ----------------------------------

  app.get(
    '/v1/season/:id/schedule',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'The season’s papers in date and time order, with clash warnings (one candidate group, two papers at once)',
        ...projectCall,
        params: S.IdParams,
        response: { 200: S.Schedule },
      },
    },
    async (request) => {
      const { row } = await seasonInReach(db, request, request.params.id);
      const papers = await listSeasonPapers(db, row.seasonId);
      return { seasonId: row.seasonId, papers, clashes: scheduleClashes(papers) };
    },
  );

  /** The schedule change's answer: the season paper and the season's clashes that involve it. */
  async function answerFor(seasonId: number, seasonPaperId: number) {
    const papers = await listSeasonPapers(db, seasonId);
    const record = papers.find((x) => x.seasonPaperId === seasonPaperId)!;
    return { record, clashes: scheduleClashes(papers).filter((c) => c.seasonPaperIds.includes(seasonPaperId)) };
  }

  app.post(
    '/v1/season/:id/paper',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Schedule a paper of the project in the season (date, start, duration, mode); answers clash warnings',
        ...projectCall,
        params: S.IdParams,
        body: S.CreateSeasonPaperBody,
        response: { 201: S.SeasonPaperAnswer },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { workspace, row } = await seasonInReach(db, request, request.params.id);
      assertSeasonEvent(workspace, row, { type: 'season.configure' });
      const b = request.body;
      checkSitsOn(row, b.sitsOn);
      const { rows: found } = await db.query<{ examId: number; durationMinutes: number; mode: 'online' | 'offline' }>(
        `select exam_id::int as "examId", duration_minutes as "durationMinutes", mode from papers where id = $1 and project_id = $2`,
        [b.paperId, workspace.project.id],
      );
      const paper = found[0];
      if (!paper) throw ValidationFailure.field('paperId', 'No paper with this id in the project.');
      let id: number;
      try {
        const { rows } = await db.query<{ id: number }>(
          `insert into season_papers (season_id, paper_id, exam_id, sits_on, starts_at_minute, duration_minutes, mode, set_assignment, candidate_group, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id::int as id`,
          [
            row.seasonId,
            b.paperId,
            paper.examId,
            b.sitsOn,
            minuteOf(b.startsAt),
            b.durationMinutes ?? paper.durationMinutes,
            b.mode ?? paper.mode,
            b.setAssignment ?? 'randomPerCandidate',
            b.candidateGroup?.trim() || null,
            p.userId,
          ],
        );
        id = rows[0].id;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('This paper is already scheduled in the season: edit its date and time instead.');
        throw error;
      }
      // Every set the paper has is live until someone narrows them.
      await db.query(`insert into season_sets (season_paper_id, letter) select $1, letter from paper_sets where paper_id = $2`, [id, b.paperId]);
      await bumpSeason(db, row.seasonId, p.userId);
      return reply.status(201).send(await answerFor(row.seasonId, id));
    },
  );

  async function seasonPaperInReach(request: FastifyRequest, seasonId: number, seasonPaperId: number) {
    const { workspace, row } = await seasonInReach(db, request, seasonId);
    const [paper] = await listSeasonPapers(db, row.seasonId, seasonPaperId);
    if (!paper) throw notFound(SEASON_PAPER_NOT_FOUND);
    return { workspace, row, paper };
  }

  app.put(
    '/v1/season/:id/paper/:seasonPaperId',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Change a scheduled paper’s date, start, duration, mode, set assignment or candidate group (optimistic)',
        ...projectCall,
        params: S.SeasonPaperParams,
        body: S.EditSeasonPaperBody,
        response: { 200: S.SeasonPaperAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { workspace, row, paper } = await seasonPaperInReach(request, request.params.id, request.params.seasonPaperId);
      assertSeasonEvent(workspace, row, { type: 'season.configure' });
      const version = expectedVersion(request, request.body.version);
      const b = request.body;
      if (b.sitsOn !== undefined) checkSitsOn(row, b.sitsOn);
      const updated = await db.query(
        `update season_papers set sits_on = coalesce($3, sits_on), starts_at_minute = coalesce($4, starts_at_minute),
                duration_minutes = coalesce($5, duration_minutes), mode = coalesce($6, mode), set_assignment = coalesce($7, set_assignment),
                candidate_group = case when $8::boolean then $9 else candidate_group end,
                version = version + 1, updated_by = $10, updated_at = now()
         where id = $1 and version = $2`,
        [
          paper.seasonPaperId,
          version,
          b.sitsOn ?? null,
          b.startsAt === undefined ? null : minuteOf(b.startsAt),
          b.durationMinutes ?? null,
          b.mode ?? null,
          b.setAssignment ?? null,
          b.candidateGroup !== undefined,
          b.candidateGroup?.trim() || null,
          p.userId,
        ],
      );
      if (updated.rowCount === 0) throw staleEdit('scheduled paper', (await changeStamp(db, 'season_papers', paper.seasonPaperId))!, version);
      await bumpSeason(db, row.seasonId, p.userId);
      return answerFor(row.seasonId, paper.seasonPaperId);
    },
  );

  app.delete(
    '/v1/season/:id/paper/:seasonPaperId',
    {
      config: routeConfig,
      schema: { tags, security, summary: 'Take a paper off the season’s schedule', ...projectCall, params: S.SeasonPaperParams, response: { 200: S.Deleted } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { workspace, row, paper } = await seasonPaperInReach(request, request.params.id, request.params.seasonPaperId);
      assertSeasonEvent(workspace, row, { type: 'season.configure' });
      if (row.status !== 'Planned')
        throw conflict('Registration has opened: candidates may have chosen this paper, so it stays on the schedule.', { currentStatus: row.status });
      await db.query(`delete from season_papers where id = $1`, [paper.seasonPaperId]);
      await bumpSeason(db, row.seasonId, p.userId);
      return { deleted: true };
    },
  );

  app.put(
    '/v1/season/:id/paper/:seasonPaperId/sets',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'The sets of the paper live in this sitting (season sets); at least one, each a set the paper has',
        ...projectCall,
        params: S.SeasonPaperParams,
        body: S.LiveSetsBody,
        response: { 200: S.SeasonPaperAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { workspace, row, paper } = await seasonPaperInReach(request, request.params.id, request.params.seasonPaperId);
      assertSeasonEvent(workspace, row, { type: 'season.configure' });
      const letters = request.body.letters;
      if (paper.availableSets.length === 0) throw conflict(`${paper.paperCode} has no sets yet: lock the paper and generate its sets first.`);
      if (letters.length === 0) throw ValidationFailure.field('letters', 'Choose at least one set to be live in this sitting.');
      const unknown = letters.filter((l) => !paper.availableSets.includes(l));
      if (unknown.length)
        throw ValidationFailure.field('letters', `${paper.paperCode} has no set ${unknown.join(', ')}; it has ${paper.availableSets.join(', ')}.`);
      const version = request.body.version;
      const changed = await db.transaction(async (tx) => {
        const bumped = await tx.query(
          `update season_papers set version = version + 1, updated_by = $3, updated_at = now() where id = $1 and ($2::int is null or version = $2)`,
          [paper.seasonPaperId, version ?? null, p.userId],
        );
        if (bumped.rowCount === 0) return false;
        await tx.query(`delete from season_sets where season_paper_id = $1`, [paper.seasonPaperId]);
        await tx.query(`insert into season_sets (season_paper_id, letter) select $1, unnest($2::text[])`, [paper.seasonPaperId, letters]);
        return true;
      });
      if (!changed) throw staleEdit('scheduled paper', (await changeStamp(db, 'season_papers', paper.seasonPaperId))!, version!);
      return answerFor(row.seasonId, paper.seasonPaperId);
    },
  );

  app.put(
    '/v1/season/:id/paper/:seasonPaperId/sections',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Per-section settings for this sitting (season sections): a time limit and a note for the invigilators',
        ...projectCall,
        params: S.SeasonPaperParams,
        body: S.SectionSettingsBody,
        response: { 200: S.SeasonPaperAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { workspace, row, paper } = await seasonPaperInReach(request, request.params.id, request.params.seasonPaperId);
      assertSeasonEvent(workspace, row, { type: 'season.configure' });
      const known = new Set(paper.sections.map((s) => s.sectionId));
      const total = request.body.sections.reduce((n, s) => n + (s.timeLimitMinutes ?? 0), 0);
      for (const [i, s] of request.body.sections.entries()) {
        if (!known.has(s.sectionId)) throw ValidationFailure.field(`sections[${i}].sectionId`, `${paper.paperCode} has no section ${s.sectionId}.`);
      }
      if (total > paper.durationMinutes) {
        throw ValidationFailure.field('sections', `The section time limits add up to ${total} minutes, more than the paper's ${paper.durationMinutes}.`);
      }
      const version = request.body.version;
      const changed = await db.transaction(async (tx) => {
        const bumped = await tx.query(
          `update season_papers set version = version + 1, updated_by = $3, updated_at = now() where id = $1 and ($2::int is null or version = $2)`,
          [paper.seasonPaperId, version ?? null, p.userId],
        );
        if (bumped.rowCount === 0) return false;
        for (const s of request.body.sections) {
          await tx.query(
            `insert into season_sections (season_paper_id, section_id, time_limit_minutes, note) values ($1, $2, $3, $4)
             on conflict (season_paper_id, section_id) do update set time_limit_minutes = excluded.time_limit_minutes, note = excluded.note`,
            [paper.seasonPaperId, s.sectionId, s.timeLimitMinutes ?? null, s.note?.trim() ?? ''],
          );
        }
        return true;
      });
      if (!changed) throw staleEdit('scheduled paper', (await changeStamp(db, 'season_papers', paper.seasonPaperId))!, version!);
      return answerFor(row.seasonId, paper.seasonPaperId);
    },
  );

  // ---- season centers --------------------------------------------------------------------------

  app.get(
    '/v1/season/:id/centers',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Centers hosting the season with their seats and seats taken',
        ...projectCall,
        params: S.IdParams,
        response: { 200: Type.Array(S.SeasonCenter) },
      },
    },
    async (request) => {
      const { row } = await seasonInReach(db, request, request.params.id);
      return listSeasonCenters(db, row.seasonId);
    },
  );

  app.put(
    '/v1/season/:id/center',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Give a center seats in the season (adds it, or changes its seats): at most its capacity, never below the seats taken',
        ...projectCall,
        params: S.IdParams,
        body: S.SeasonCenterBody,
        response: { 200: S.SeasonCenter },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { workspace, row } = await seasonInReach(db, request, request.params.id);
      assertSeasonEvent(workspace, row, { type: 'season.configure' });
      const { centerId, seats, version } = request.body;
      const { rows: centers } = await db.query<{ capacity: number; isActive: boolean; name: string }>(
        `select capacity, is_active as "isActive", name from exam_centers where id = $1 and tenant_id = $2`,
        [centerId, workspace.project.tenantId],
      );
      const center = centers[0];
      if (!center) throw ValidationFailure.field('centerId', 'No exam center with this id.');
      if (!center.isActive) throw ValidationFailure.field('centerId', `${center.name} is inactive: activate it before giving it seats.`);
      if (seats > center.capacity) throw ValidationFailure.field('seats', `${center.name} has ${center.capacity} seats; it cannot be given ${seats}.`);
      const result = await db.transaction(async (tx) => {
        const { rows: current } = await tx.query<{ allocated: number; version: number }>(
          `select allocated, version from season_centers where season_id = $1 and center_id = $2 for update`,
          [row.seasonId, centerId],
        );
        if (!current[0]) {
          await tx.query(`insert into season_centers (season_id, center_id, seats, updated_by) values ($1, $2, $3, $4)`, [
            row.seasonId,
            centerId,
            seats,
            p.userId,
          ]);
          return 'ok';
        }
        if (version !== undefined && version !== current[0].version) return 'stale';
        if (seats < current[0].allocated) return current[0].allocated;
        await tx.query(
          `update season_centers set seats = $3, version = version + 1, updated_by = $4, updated_at = now() where season_id = $1 and center_id = $2`,
          [row.seasonId, centerId, seats, p.userId],
        );
        return 'ok';
      });
      if (result === 'stale') throw conflict('These seats were changed by someone else meanwhile. Reload the centers and apply your change again.');
      if (typeof result === 'number')
        throw ValidationFailure.field('seats', `${result} seats are already taken at ${center.name}; it needs at least ${result}.`);
      await bumpSeason(db, row.seasonId, p.userId);
      return (await listSeasonCenters(db, row.seasonId, centerId))[0];
    },
  );

  app.delete(
    '/v1/season/:id/center/:centerId',
    {
      config: routeConfig,
      schema: {
        tags,
        security,
        summary: 'Take a center out of the season (only while none of its seats are taken)',
        ...projectCall,
        params: S.SeasonCenterParams,
        response: { 200: S.Deleted },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { workspace, row } = await seasonInReach(db, request, request.params.id);
      assertSeasonEvent(workspace, row, { type: 'season.configure' });
      const removed = await db.query<{ allocated: number }>(
        `delete from season_centers where season_id = $1 and center_id = $2 and allocated = 0 returning allocated`,
        [row.seasonId, request.params.centerId],
      );
      if (removed.rowCount === 0) {
        const [center] = await listSeasonCenters(db, row.seasonId, request.params.centerId);
        if (!center) throw notFound('This center does not host the season.');
        throw conflict(`${center.allocated} candidates are allocated to ${center.name}: move them before taking the center out.`);
      }
      await bumpSeason(db, row.seasonId, p.userId);
      return { deleted: true };
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { P } from '#machines/permissions.ts';
import {
  decideRegistration,
  holdsSeat,
  registrationActions,
  type RegistrationActor,
  type RegistrationEvent,
  type RegistrationEventType,
  type RegistrationStatus,
} from '#machines/exams/registration.machine.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { AppError, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { orderByClause, paged, pageWindow, searchKeyword } from '#server/lib/paging.ts';
import { requirePrincipal, type Principal } from '#server/plugins/access.ts';
import { requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import { isUniqueViolation } from '#server/modules/exams/workspace-access.ts';
import { readAdmitToken, signAdmitToken } from './admit-token.ts';
import { centerChoices, releaseSeat, rollNumber, takeSeat } from './allocation.ts';
import { likePattern } from './centers-repository.ts';
import * as S from './seasons-schemas.ts';
import { admitCardKey, mailCandidate, type AdmitCardDeps } from './admit-cards.ts';
import { allocateSeason } from './season-allocation.ts';

const tags = ['registrations'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
const adminConfig = { access: P.Exams.View, workspace: 'project' as const };
/** Every signed-in person may register as a candidate for an open season of their tenant. */
const candidateConfig = { access: P.Dashboard.View };
export const REGISTRATION_NOT_FOUND = 'Registration not found.';

// ---- reading ---------------------------------------------------------------------------------

interface RegistrationRow {
  registrationId: number;
  projectId: number;
  tenantId: string;
  seasonId: number;
  seasonName: string;
  seasonCode: string;
  rollPattern: string;
  examId: number;
  examName: string;
  candidateId: string;
  candidateName: string;
  candidateEmail: string;
  seasonPaperIds: number[];
  papers: S.Registration['papers'] | null;
  medium: string;
  preferredCity: string;
  accommodations: S.Registration['accommodations'];
  accommodationStatus: string;
  status: RegistrationStatus;
  reason: string | null;
  centerId: number | null;
  centerCode: string | null;
  centerName: string | null;
  centerCity: string | null;
  centerAddress: string | null;
  seatNumber: number | null;
  rollNumber: string | null;
  admitCardVersion: number;
  admitCardIssuedAt: string | null;
  documentName: string | null;
  documentSize: number | null;
  version: number;
  createdOn: string;
  updatedOn: string;
}

const registrationSelect = `select r.id::int as "registrationId", r.project_id::int as "projectId", r.tenant_id as "tenantId", r.season_id::int as "seasonId",
  s.name as "seasonName", s.code as "seasonCode", s.roll_pattern as "rollPattern", r.exam_id::int as "examId", e.name as "examName",
  r.candidate_id as "candidateId", trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as "candidateName", u.email as "candidateEmail",
  r.season_paper_ids::int[] as "seasonPaperIds",
  (select json_agg(json_build_object('seasonPaperId', sp.id::int, 'paperCode', p.code, 'paperTitle', p.title, 'sitsOn', to_char(sp.sits_on, 'YYYY-MM-DD'),
            'startsAt', lpad((sp.starts_at_minute / 60)::text, 2, '0') || ':' || lpad((sp.starts_at_minute % 60)::text, 2, '0')) order by sp.sits_on, sp.starts_at_minute)
     from season_papers sp join papers p on p.id = sp.paper_id where sp.id = any(r.season_paper_ids)) as papers,
  r.medium, r.preferred_city as "preferredCity", r.accommodations, r.accommodation_status as "accommodationStatus", r.status, r.reason,
  r.center_id::int as "centerId", c.code as "centerCode", c.name as "centerName", c.city as "centerCity", c.address as "centerAddress",
  r.seat_number as "seatNumber", r.roll_number as "rollNumber", r.admit_card_version as "admitCardVersion",
  r.admit_card_issued_at as "admitCardIssuedAt", d.file_name as "documentName", d.size_bytes as "documentSize", r.version, r.created_at as "createdOn", r.updated_at as "updatedOn"
  from registrations r join seasons s on s.id = r.season_id join exams e on e.id = r.exam_id join users u on u.id = r.candidate_id
  left join exam_centers c on c.id = r.center_id left join registration_documents d on d.registration_id = r.id`;

function toRegistration(row: RegistrationRow, actor: RegistrationActor): S.Registration {
  return {
    registrationId: row.registrationId,
    projectId: row.projectId,
    seasonId: row.seasonId,
    seasonName: row.seasonName,
    examId: row.examId,
    examName: row.examName,
    candidate: { userId: row.candidateId, name: row.candidateName, email: row.candidateEmail },
    papers: row.papers ?? [],
    medium: row.medium,
    preferredCity: row.preferredCity,
    accommodations: row.accommodations,
    accommodationStatus: row.accommodationStatus,
    status: row.status,
    reason: row.reason,
    center: row.centerId ? { centerId: row.centerId, code: row.centerCode!, name: row.centerName!, city: row.centerCity!, address: row.centerAddress! } : null,
    seatNumber: row.seatNumber,
    rollNumber: row.rollNumber,
    document: row.documentName ? { fileName: row.documentName, sizeBytes: row.documentSize ?? 0 } : null,
    admitCardIssuedAt: row.admitCardIssuedAt ? new Date(row.admitCardIssuedAt).toISOString() : null,
    version: row.version,
    createdOn: new Date(row.createdOn).toISOString(),
    updatedOn: new Date(row.updatedOn).toISOString(),
    actions: registrationActions(row.status, actor),
  };
}

export async function findRegistration(db: Queryable, id: number, scope: { projectId?: number; candidateId?: string; tenantId: string }) {
  const { rows } = await db.query<RegistrationRow>(
    `${registrationSelect} where r.id = $1 and r.tenant_id = $2 and ($3::bigint is null or r.project_id = $3) and ($4::uuid is null or r.candidate_id = $4)`,
    [id, scope.tenantId, scope.projectId ?? null, scope.candidateId ?? null],
  );
  return rows[0];
}

/**
 * The one admit card verifier (decision 0154): the verify screen and the invigilator console
 * (docs/decisions/0249) both ask it. `registration` is set only for a valid card.
 */
export async function verifyAdmitCard(db: Db, tenantId: string, token: string): Promise<S.AdmitVerdictAnswer & { registration: RegistrationRow | null }> {
  const claims = readAdmitToken(await admitCardKey(db), token);
  if (!claims || claims.t !== tenantId)
    return { verdict: 'forged', message: 'This admit card was not issued by this portal: its code is forged or altered.', candidate: null, registration: null };
  const row = await findRegistration(db, claims.r, { tenantId });
  if (!row || row.rollNumber !== claims.n || row.admitCardVersion !== claims.v || row.status !== 'AdmitCardIssued') {
    return {
      verdict: 'revoked',
      message: row
        ? `This admit card is no longer valid: the registration is ${row.status}${row.admitCardVersion !== claims.v ? ' and a newer card was issued' : ''}.`
        : 'This admit card is no longer valid: its registration no longer exists.',
      candidate: null,
      registration: null,
    };
  }
  return {
    verdict: 'valid',
    message: `${row.candidateName}, roll number ${row.rollNumber}.`,
    candidate: {
      name: row.candidateName,
      rollNumber: row.rollNumber!,
      examName: row.examName,
      center: row.centerName!,
      seatNumber: row.seatNumber!,
      papers: row.papers ?? [],
    },
    registration: row,
  };
}

const projectWide = (workspace: Workspace, permission: string) => workspace.grants.some((g) => g.examId === null && g.permission === permission);

/** The caller's parties on the project's registrations (decision 0152). */
export function registrationActor(workspace: Workspace, examId: number | null): RegistrationActor {
  const onExam = (permission: string) => workspace.grants.some((g) => g.permission === permission && (g.examId === null || g.examId === examId));
  return {
    registrar: workspace.tenantExamManager || workspace.tenantProjectManager || projectWide(workspace, 'ProjectAdmin'),
    centerManager: projectWide(workspace, 'CenterManager'),
    invigilator: onExam('Invigilator'),
  };
}

const wording: Record<RegistrationEventType, string> = {
  'registration.approve': 'approve',
  'registration.reject': 'reject',
  'registration.allocate': 'allocate',
  'registration.move': 'move',
  'registration.issueAdmitCard': 'issue the admit card of',
  'registration.markAttended': 'mark attendance of',
  'registration.markAbsent': 'mark attendance of',
  'registration.cancel': 'cancel',
};

function assertRegistrationEvent(status: RegistrationStatus, event: RegistrationEvent) {
  const decision = decideRegistration(status, event);
  if (decision.accepted) return decision;
  if (decision.reason === 'role') throw forbidden(`You may not ${wording[event.type]} this registration.`);
  if (decision.reason === 'fields') throw ValidationFailure.field('reason', `A reason is required to ${wording[event.type]} a registration.`);
  throw conflict(`A registration in status ${decision.from} cannot be ${event.type.replace('registration.', '')}d.`.replace('dd.', 'd.'), {
    currentStatus: decision.from,
  });
}

/** Writes a status change conditionally on the status it was decided on; false when someone else moved it first. */
async function recordTransition(
  tx: Queryable,
  row: RegistrationRow,
  to: RegistrationStatus,
  event: string,
  userId: string,
  extra: { reason?: string | null; centerId?: number | null; seatNumber?: number | null; rollNumber?: string | null; details?: object } = {},
) {
  const sets = ['status = $3', 'version = version + 1', 'updated_by = $4', 'updated_at = now()'];
  const params: unknown[] = [row.registrationId, row.status, to, userId];
  if (extra.reason !== undefined) sets.push(`reason = $${params.push(extra.reason)}`);
  if (extra.centerId !== undefined) sets.push(`center_id = $${params.push(extra.centerId)}`);
  if (extra.seatNumber !== undefined) sets.push(`seat_number = $${params.push(extra.seatNumber)}`);
  if (extra.rollNumber !== undefined) sets.push(`roll_number = $${params.push(extra.rollNumber)}`);
  const result = await tx.query(`update registrations set ${sets.join(', ')} where id = $1 and status = $2 and version = ${row.version}`, params);
  if (result.rowCount === 0) return false;
  await tx.query(
    `insert into registration_history (registration_id, event, from_status, to_status, actor_id, reason, details) values ($1, $2, $3, $4, $5, $6, $7)`,
    [row.registrationId, event, row.status, to, userId, extra.reason ?? null, JSON.stringify(extra.details ?? {})],
  );
  return true;
}

const changedMeanwhile = () => conflict('This registration was changed by someone else meanwhile. Reload it and try again.');

class NoSeat extends Error {}

/** What the registration routes need besides the database: the mails (approval, rejection, admit card), docs/decisions/0231. */
export type RegistrationDeps = Pick<AdmitCardDeps, 'db' | 'mail' | 'publicUrl'>;

/**
 * Allocates an Approved registration: to `centerId` (manual) or automatically (preferred city,
 * then free seats). One transaction: the seat, the roll number and the status change commit
 * together or not at all.
 */
async function allocate(db: Db, row: RegistrationRow, userId: string, centerId: number | null, event: 'registration.allocate' | 'registration.move') {
  const needsCbt = await db.query<{ online: boolean }>(`select bool_or(mode = 'online') as online from season_papers where id = any($1::bigint[])`, [
    row.seasonPaperIds,
  ]);
  const online = needsCbt.rows[0]?.online ?? false;
  let choices: Array<{ centerId: number; code: string }>;
  if (centerId !== null) {
    const { rows } = await db.query<{ centerId: number; code: string; cbt: boolean; active: boolean; name: string }>(
      `select c.id::int as "centerId", c.code, c.cbt_capable as cbt, c.is_active as active, c.name from season_centers sc join exam_centers c on c.id = sc.center_id
       where sc.season_id = $1 and c.id = $2`,
      [row.seasonId, centerId],
    );
    if (!rows[0]) throw ValidationFailure.field('centerId', 'This center does not host the season.');
    if (!rows[0].active) throw ValidationFailure.field('centerId', `${rows[0].name} is inactive.`);
    if (online && !rows[0].cbt) throw ValidationFailure.field('centerId', `${rows[0].name} cannot host online papers (not CBT capable).`);
    if (rows[0].centerId === row.centerId) throw ValidationFailure.field('centerId', 'The candidate is already at this center.');
    choices = rows;
  } else {
    choices = await centerChoices(db, row.seasonId, row.preferredCity, online);
  }
  for (const choice of choices) {
    try {
      const done = await db.transaction(async (tx) => {
        const seq = await takeSeat(tx, row.seasonId, choice.centerId);
        if (seq === null) throw new NoSeat();
        if (event === 'registration.move' && row.centerId !== null) await releaseSeat(tx, row.seasonId, row.centerId);
        const roll = rollNumber(row.rollPattern, { season: row.seasonCode, center: choice.code, seq });
        const ok = await recordTransition(tx, row, 'Allocated', event, userId, {
          centerId: choice.centerId,
          seatNumber: seq,
          rollNumber: roll,
          details: { centerId: choice.centerId, fromCenterId: row.centerId, previousRollNumber: row.rollNumber },
        });
        if (!ok) throw new AppError(409, 'This registration was changed by someone else meanwhile. Reload it and try again.');
        return true;
      });
      if (done) return;
    } catch (error) {
      if (error instanceof NoSeat) continue;
      if (isUniqueViolation(error)) throw conflict('The roll number this allocation would give is taken; change the season’s roll pattern.');
      throw error;
    }
  }
  if (centerId !== null) throw conflict('That center has no free seat left in this season.', { reason: 'noSeat' });
  throw conflict(`No center of this season has a free seat${online ? ' for online papers' : ''}: give centers more seats or add a center.`, {
    reason: 'noSeat',
  });
}

// ---- routes ----------------------------------------------------------------------------------

export async function registrationRoutes(fastify: FastifyInstance, deps: RegistrationDeps) {
  const { db } = deps;
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // -- candidate self-service (global calls) --

  app.get(
    '/v1/registration/open',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Seasons open for registration now, with their exams and scheduled papers, the languages and the cities of their centers',
        response: { 200: Type.Array(S.OpenSeason) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<
        S.Static<typeof S.OpenSeason>['exams'][number]['papers'][number] & {
          seasonId: number;
          projectId: number;
          projectName: string;
          seasonCode: string;
          seasonName: string;
          startsOn: string;
          endsOn: string;
          registrationOpensAt: string;
          registrationClosesAt: string;
          languages: string[];
          cities: string[] | null;
          examId: number;
          examCode: string;
          examName: string;
        }
      >(
        `select s.id::int as "seasonId", s.project_id::int as "projectId", pr.name as "projectName", s.code as "seasonCode", s.name as "seasonName",
                to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn", to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn",
                s.registration_opens_at as "registrationOpensAt", s.registration_closes_at as "registrationClosesAt", pr.languages,
                (select array_agg(distinct c.city order by c.city) from season_centers sc join exam_centers c on c.id = sc.center_id
                  where sc.season_id = s.id and c.is_active and sc.seats > 0) as cities,
                e.id::int as "examId", e.code as "examCode", e.name as "examName", sp.id::int as "seasonPaperId", p.code as "paperCode", p.title as "paperTitle",
                to_char(sp.sits_on, 'YYYY-MM-DD') as "sitsOn",
                lpad((sp.starts_at_minute / 60)::text, 2, '0') || ':' || lpad((sp.starts_at_minute % 60)::text, 2, '0') as "startsAt",
                sp.duration_minutes as "durationMinutes", sp.mode
         from seasons s join projects pr on pr.id = s.project_id
         join season_papers sp on sp.season_id = s.id join papers p on p.id = sp.paper_id join exams e on e.id = sp.exam_id
         where s.tenant_id = $1 and s.status = 'RegistrationOpen' and now() between s.registration_opens_at and s.registration_closes_at
           and ($2::uuid is null or pr.institute_id = $2)
         order by s.registration_closes_at, s.id, e.name, e.id, sp.sits_on, sp.starts_at_minute`,
        [p.tenantId, p.instituteId],
      );
      const seasons = new Map<number, S.Static<typeof S.OpenSeason>>();
      for (const r of rows) {
        let season = seasons.get(r.seasonId);
        if (!season) {
          season = {
            seasonId: r.seasonId,
            projectId: r.projectId,
            projectName: r.projectName,
            code: r.seasonCode,
            name: r.seasonName,
            startsOn: r.startsOn,
            endsOn: r.endsOn,
            registrationOpensAt: new Date(r.registrationOpensAt).toISOString(),
            registrationClosesAt: new Date(r.registrationClosesAt).toISOString(),
            languages: r.languages,
            cities: r.cities ?? [],
            exams: [],
          };
          seasons.set(r.seasonId, season);
        }
        let exam = season.exams.find((e) => e.examId === r.examId);
        if (!exam) season.exams.push((exam = { examId: r.examId, code: r.examCode, name: r.examName, papers: [] }));
        exam.papers.push({
          seasonPaperId: r.seasonPaperId,
          paperCode: r.paperCode,
          paperTitle: r.paperTitle,
          sitsOn: r.sitsOn,
          startsAt: r.startsAt,
          durationMinutes: r.durationMinutes,
          mode: r.mode,
        });
      }
      return [...seasons.values()];
    },
  );

  app.post(
    '/v1/registration',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Register yourself for an exam of an open season (papers, medium, preferred city, accommodations); Submitted until approved',
        body: S.CreateRegistrationBody,
        response: { 201: S.Registration },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const b = request.body;
      const { rows: seasons } = await db.query<{
        projectId: number;
        status: string;
        opensAt: string;
        closesAt: string;
        open: boolean;
        languages: string[];
        instituteId: string | null;
      }>(
        `select s.project_id::int as "projectId", s.status, s.registration_opens_at as "opensAt", s.registration_closes_at as "closesAt",
                now() between s.registration_opens_at and s.registration_closes_at as open, pr.languages, pr.institute_id as "instituteId"
         from seasons s join projects pr on pr.id = s.project_id where s.id = $1 and s.tenant_id = $2`,
        [b.seasonId, p.tenantId],
      );
      const season = seasons[0];
      if (!season || (p.instituteId && season.instituteId !== p.instituteId)) throw notFound('Season not found.');
      const opens = new Date(season.opensAt).toISOString();
      const closes = new Date(season.closesAt).toISOString();
      if (season.status !== 'RegistrationOpen' || !season.open) {
        throw new AppError(
          409,
          `Registration for this season is open from ${opens} to ${closes}${season.status === 'RegistrationOpen' ? '' : ' while the season takes registrations'}.`,
          {
            extra: { reason: 'outsideWindow', registrationOpensAt: opens, registrationClosesAt: closes, currentStatus: season.status },
          },
        );
      }
      const { rows: papers } = await db.query<{ id: number; examId: number }>(
        `select id::int as id, exam_id::int as "examId" from season_papers where season_id = $1 and id = any($2::bigint[])`,
        [b.seasonId, b.seasonPaperIds],
      );
      const wrong = b.seasonPaperIds.filter((id) => !papers.some((x) => x.id === id && x.examId === b.examId));
      if (wrong.length) throw ValidationFailure.field('seasonPaperIds', `Choose papers of this exam scheduled in this season (not ${wrong.join(', ')}).`);
      if (!season.languages.includes(b.medium))
        throw ValidationFailure.field('medium', `The papers are set in ${season.languages.join(', ')}; choose one of them.`);
      const { rows: cities } = await db.query<{ city: string }>(
        `select distinct c.city from season_centers sc join exam_centers c on c.id = sc.center_id where sc.season_id = $1 and c.is_active and sc.seats > 0`,
        [b.seasonId],
      );
      const city = cities.find((c) => c.city.toLowerCase() === b.preferredCity.trim().toLowerCase())?.city;
      if (!city) throw ValidationFailure.field('preferredCity', `Choose one of the cities with centers: ${cities.map((c) => c.city).join(', ')}.`);
      const accommodations = {
        extraTimePercent: b.accommodations?.extraTimePercent ?? 0,
        scribe: b.accommodations?.scribe ?? false,
        largePrint: b.accommodations?.largePrint ?? false,
      };
      const requested = accommodations.extraTimePercent > 0 || accommodations.scribe || accommodations.largePrint;
      let id: number;
      try {
        const { rows } = await db.query<{ id: number }>(
          `insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, accommodations, accommodation_status, updated_by)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $5) returning id::int as id`,
          [
            p.tenantId,
            season.projectId,
            b.seasonId,
            b.examId,
            p.userId,
            b.seasonPaperIds,
            b.medium,
            city,
            JSON.stringify(accommodations),
            requested ? 'requested' : 'none',
          ],
        );
        id = rows[0].id;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('You are already registered for this exam in this season.');
        throw error;
      }
      await db.query(`insert into registration_history (registration_id, event, to_status, actor_id) values ($1, 'registration.submit', 'Submitted', $2)`, [
        id,
        p.userId,
      ]);
      const row = (await findRegistration(db, id, { tenantId: p.tenantId, candidateId: p.userId }))!;
      return reply.status(201).send(toRegistration(row, { candidate: true }));
    },
  );

  app.get(
    '/v1/registration/mine',
    {
      config: candidateConfig,
      schema: { tags, security, summary: 'Your registrations, newest first, with their state', response: { 200: Type.Array(S.Registration) } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<RegistrationRow>(
        `${registrationSelect} where r.candidate_id = $1 and r.tenant_id = $2 order by r.created_at desc, r.id desc limit 200`,
        [p.userId, p.tenantId],
      );
      return rows.map((row) => toRegistration(row, { candidate: true }));
    },
  );

  app.post(
    '/v1/registration/mine/:id/cancel',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Cancel your registration (with a reason); a seat you held is freed',
        params: S.IdParams,
        body: S.CancelBody,
        response: { 200: S.RegistrationTransition },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const row = await findRegistration(db, request.params.id, { tenantId: p.tenantId, candidateId: p.userId });
      if (!row) throw notFound(REGISTRATION_NOT_FOUND);
      return cancel(row, p, { candidate: true }, request.body.reason);
    },
  );

  async function cancel(row: RegistrationRow, p: Principal, actor: RegistrationActor, reason: string) {
    const decision = assertRegistrationEvent(row.status, { type: 'registration.cancel', by: actor, reason });
    const ok = await db.transaction(async (tx) => {
      // The seat goes back; the roll number stays on the row so it is never given again.
      const done = await recordTransition(tx, row, decision.to, 'registration.cancel', p.userId, {
        reason: reason.trim(),
        ...(row.centerId !== null ? { centerId: null, seatNumber: null, details: { centerId: row.centerId } } : {}),
      });
      if (done && holdsSeat(row.status) && row.centerId !== null) await releaseSeat(tx, row.seasonId, row.centerId);
      return done;
    });
    if (!ok) throw changedMeanwhile();
    const fresh = (await findRegistration(db, row.registrationId, { tenantId: p.tenantId }))!;
    return { fromStatus: decision.from, toStatus: decision.to, record: toRegistration(fresh, actor) };
  }

  app.get(
    '/v1/registration/mine/:id/admitcard',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Your admit card (hall ticket): roll number, exam, papers with date and time, center address, and the signed token its QR code carries',
        params: S.IdParams,
        response: { 200: S.AdmitCard },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const row = await findRegistration(db, request.params.id, { tenantId: p.tenantId, candidateId: p.userId });
      if (!row) throw notFound(REGISTRATION_NOT_FOUND);
      if (row.status !== 'AdmitCardIssued') {
        throw conflict(`No admit card has been issued for this registration (it is ${row.status}).`, { currentStatus: row.status });
      }
      const token = signAdmitToken(await admitCardKey(db), { t: row.tenantId, r: row.registrationId, n: row.rollNumber!, v: row.admitCardVersion });
      return {
        registrationId: row.registrationId,
        rollNumber: row.rollNumber!,
        candidateName: row.candidateName,
        examName: row.examName,
        seasonName: row.seasonName,
        medium: row.medium,
        papers: row.papers ?? [],
        center: { name: row.centerName!, address: row.centerAddress!, city: row.centerCity! },
        seatNumber: row.seatNumber!,
        accommodations: row.accommodationStatus === 'approved' ? row.accommodations : null,
        issuedAt: new Date(row.admitCardIssuedAt!).toISOString(),
        token,
      };
    },
  );

  app.post(
    '/v1/admitcard/verify',
    {
      config: { access: P.Exams.View },
      schema: {
        tags,
        security,
        summary: 'Check an admit card’s QR token (scanned or typed): who it is, or that it is forged or revoked',
        body: S.VerifyAdmitBody,
        response: { 200: S.AdmitVerdict },
      },
    },
    async (request) => {
      const { registration: _registration, ...verdict } = await verifyAdmitCard(db, requirePrincipal(request).tenantId, request.body.token);
      return verdict;
    },
  );

  // -- administration (project calls) --

  async function registrationInReach(request: FastifyRequest, id: number) {
    const p = requirePrincipal(request);
    const workspace = requireWorkspace(request);
    const row = await findRegistration(db, id, { tenantId: p.tenantId, projectId: workspace.project.id });
    if (!row) throw notFound(REGISTRATION_NOT_FOUND);
    return { p, workspace, row, actor: registrationActor(workspace, row.examId) };
  }

  app.post(
    '/v1/registration/search',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Registrations of the project (approval queue, allocation, attendance): filter by season, exam, status, center, accommodations',
        ...projectCall,
        body: S.RegistrationSearchBody,
        response: { 200: S.PagedResult(S.Registration) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const b = request.body;
      const window = pageWindow(b);
      const params: unknown[] = [workspace.project.id];
      const where = ['r.project_id = $1'];
      const add = (sql: string, value: unknown) => where.push(sql.replace('?', `$${params.push(value)}`));
      if (b.seasonId) add('r.season_id = ?', b.seasonId);
      if (b.examId) add('r.exam_id = ?', b.examId);
      if (b.status) add('r.status = ?', b.status);
      if (b.centerId) add('r.center_id = ?', b.centerId);
      if (b.accommodationStatus) add('r.accommodation_status = ?', b.accommodationStatus);
      const keyword = searchKeyword(b);
      if (keyword)
        add(`(lower(u.first_name || ' ' || u.last_name || ' ' || u.email) || ' ' || lower(coalesce(r.roll_number, ''))) like ?`, likePattern(keyword));
      const order = orderByClause(
        b.orderBy,
        { createdOn: 'r.created_at', status: 'r.status', rollNumber: 'r.roll_number', name: 'lower(u.first_name)' },
        'r.created_at',
        'r.id',
      );
      const whereSql = where.join(' and ');
      const [page, count] = await Promise.all([
        db.query<RegistrationRow>(`${registrationSelect} where ${whereSql} order by ${order} limit ${window.limit} offset ${window.offset}`, params),
        db.query<{ n: number }>(`select count(*)::int as n from registrations r join users u on u.id = r.candidate_id where ${whereSql}`, params),
      ]);
      return paged(
        page.rows.map((row) => toRegistration(row, registrationActor(workspace, row.examId))),
        count.rows[0].n,
        window,
      );
    },
  );

  app.get(
    '/v1/registration/:id',
    {
      config: adminConfig,
      schema: { tags, security, summary: 'A registration of the project', ...projectCall, params: S.IdParams, response: { 200: S.Registration } },
    },
    async (request) => {
      const { row, actor } = await registrationInReach(request, request.params.id);
      return toRegistration(row, actor);
    },
  );

  app.post(
    '/v1/registration/:id/status',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Approve, reject (reason), issue the admit card, mark attended / absent, or cancel (reason); the registration machine decides',
        ...projectCall,
        params: S.IdParams,
        body: S.RegistrationStatusBody,
        response: { 200: S.RegistrationTransition },
      },
    },
    async (request) => {
      const { p, row, actor } = await registrationInReach(request, request.params.id);
      const { event: type, reason } = request.body;
      if (request.body.version !== undefined && request.body.version !== row.version) throw changedMeanwhile();
      if (type === 'registration.cancel') return cancel(row, p, actor, reason ?? '');
      const decision = assertRegistrationEvent(row.status, { type, by: actor, reason: reason ?? '' } as RegistrationEvent);
      const ok = await db.transaction(async (tx) => {
        const done = await recordTransition(tx, row, decision.to, type, p.userId, type === 'registration.reject' ? { reason: reason!.trim() } : {});
        if (done && type === 'registration.issueAdmitCard') {
          await tx.query(`update registrations set admit_card_version = admit_card_version + 1, admit_card_issued_at = now() where id = $1`, [
            row.registrationId,
          ]);
        }
        return done;
      });
      if (!ok) throw changedMeanwhile();
      // The candidate hears of it in their language (docs/decisions/0231).
      const mailKind =
        type === 'registration.approve'
          ? 'approved'
          : type === 'registration.reject'
            ? 'rejected'
            : type === 'registration.issueAdmitCard'
              ? 'admitCardIssued'
              : null;
      if (mailKind) await mailCandidate(deps, mailKind, row.registrationId);
      const fresh = (await findRegistration(db, row.registrationId, { tenantId: p.tenantId }))!;
      return { fromStatus: decision.from, toStatus: decision.to, record: toRegistration(fresh, actor) };
    },
  );

  app.post(
    '/v1/registration/:id/allocate',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Give an approved candidate a seat and a roll number: at the named center, or automatically (preferred city, then free seats)',
        description:
          'A project call: send the selected project in the ProjectId header. A center is never filled beyond its seats, however many allocations run at once (409 reason noSeat when none is left).',
        params: S.IdParams,
        body: S.AllocateBody,
        response: { 200: S.RegistrationTransition },
      },
    },
    async (request) => {
      const { p, row, actor } = await registrationInReach(request, request.params.id);
      const decision = assertRegistrationEvent(row.status, { type: 'registration.allocate', by: actor });
      await allocate(db, row, p.userId, request.body?.centerId ?? null, 'registration.allocate');
      const fresh = (await findRegistration(db, row.registrationId, { tenantId: p.tenantId }))!;
      return { fromStatus: decision.from, toStatus: decision.to, record: toRegistration(fresh, actor) };
    },
  );

  app.post(
    '/v1/registration/:id/move',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Move an allocated candidate to another center of the season: a new seat and roll number; an issued admit card is taken back',
        ...projectCall,
        params: S.IdParams,
        body: S.MoveBody,
        response: { 200: S.RegistrationTransition },
      },
    },
    async (request) => {
      const { p, row, actor } = await registrationInReach(request, request.params.id);
      const decision = assertRegistrationEvent(row.status, { type: 'registration.move', by: actor });
      await allocate(db, row, p.userId, request.body.centerId, 'registration.move');
      const fresh = (await findRegistration(db, row.registrationId, { tenantId: p.tenantId }))!;
      return { fromStatus: decision.from, toStatus: decision.to, record: toRegistration(fresh, actor) };
    },
  );

  app.post(
    '/v1/registration/:id/accommodations',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Approve or reject the accommodations a candidate asked for',
        ...projectCall,
        params: S.IdParams,
        body: S.AccommodationDecisionBody,
        response: { 200: S.Registration },
      },
    },
    async (request) => {
      const { p, row, actor } = await registrationInReach(request, request.params.id);
      if (!actor.registrar) throw forbidden('Only the registrar may decide accommodations.');
      if (row.accommodationStatus === 'none') throw conflict('This candidate asked for no accommodations.');
      const result = await db.query(
        `update registrations set accommodation_status = $2, version = version + 1, updated_by = $3, updated_at = now() where id = $1 and version = $4`,
        [row.registrationId, request.body.decision, p.userId, row.version],
      );
      if (result.rowCount === 0) throw changedMeanwhile();
      return toRegistration((await findRegistration(db, row.registrationId, { tenantId: p.tenantId }))!, actor);
    },
  );

  app.post(
    '/v1/season/:id/allocate',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Allocate every approved registration of the season automatically (preferred city, then free seats); answers how many were placed',
        ...projectCall,
        params: S.IdParams,
        response: { 200: S.SeasonAllocationAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const actor = registrationActor(workspace, null);
      if (!actor.registrar && !actor.centerManager) throw forbidden('You may not allocate registrations.');
      const { rows: seasons } = await db.query(`select 1 from seasons where id = $1 and project_id = $2`, [request.params.id, workspace.project.id]);
      if (!seasons[0]) throw notFound('Season not found.');
      const started = performance.now();
      const { allocated, unplaced } = await allocateSeason(db, request.params.id, p.userId);
      return { allocated, unplaced, elapsedMs: Math.round(performance.now() - started) };
    },
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { P } from '#machines/permissions.ts';
import type { DeliveryChangedData } from '#machines/realtime-protocol.ts';
import {
  candidateContent,
  decideDelivery,
  deliveryActions,
  finishedDeliveryStatuses,
  type DeliveryActor,
  type DeliveryEvent,
} from '#machines/delivery.machine.ts';
import type { PaperSet, PaperSnapshot } from '#machines/papers/paper-sets.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace } from '#server/plugins/workspace-context.ts';
import { listSections } from '#server/modules/papers/papers-repository.ts';
import { appendEvent } from '#server/modules/realtime/realtime-repository.ts';
import { registrationActor, verifyAdmitCard } from '#server/modules/seasons/registrations-routes.ts';
import * as S from './delivery-schemas.ts';
import { roomOf, roomPushFor } from './room-push.ts';
import {
  answeredCount,
  applyDeliveryEvent,
  applyDeliveryEventUnlessStale,
  clockOf,
  deliveryRowFrom,
  deliverySelect,
  eventTime,
  lockDelivery,
  pickSet,
  readDelivery,
  scheduledStart,
  settleExpiry,
  storeSaves,
  timingOf,
  type DeliveryRow,
} from './delivery-service.ts';

const tags = ['delivery'];
const security = [{ bearer: [] }];
/** Who sits the delivery, as the candidate screen names them. */
interface Candidate {
  rollNumber: string | null;
  name: string;
  medium: string;
  largePrint: boolean;
}
const candidateColumns = `r.roll_number as "rollNumber", trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name, r.medium,
  (r.accommodation_status = 'approved' and coalesce(r.accommodations->>'largePrint', 'false') = 'true') as "largePrint"`;

/** Every signed-in candidate reaches their own deliveries. */
const candidateConfig = { access: P.Dashboard.View };
const consoleConfig = { access: P.Exams.View, workspace: 'project' as const };
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
export const DELIVERY_NOT_FOUND = 'Delivery not found.';
const SITTING_STATUSES = ['AdmitCardIssued', 'Attended'];
/** Distinct sets a server keeps the candidate content of (a season sits a few papers × 4 sets). */
const CONTENT_CACHE_ENTRIES = 256;

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
}

export async function deliveryRoutes(fastify: FastifyInstance, { db, clock }: DeliveryDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const push = roomPushFor(db);
  push.log = fastify.log;
  /** After the commit: the invigilators of the room see it live (docs/decisions/0248). */
  const roomChanged = (row: DeliveryRow, cause: string) => push.changed(roomOf(row), cause);

  /** The candidate's delivery, locked, with an expired Active one settled first. */
  async function mineLocked(tx: Queryable, request: FastifyRequest, id: number, now: Date): Promise<DeliveryRow> {
    const p = requirePrincipal(request);
    const row = await lockDelivery(tx, id);
    if (!row || row.candidateId !== p.userId || row.tenantId !== p.tenantId) throw notFound(DELIVERY_NOT_FOUND);
    return settleExpiry(tx, row, now);
  }

  /**
   * What a candidate gets of their set, cached per process: every open, view and save of a
   * sitting needs it, and it is the same for everyone on that set. The key names it exactly
   * (the set's hash, the paper's version, the scheduled duration), so a regenerated set or a
   * re-locked paper is a new entry, and several server instances need nothing shared.
   */
  const contentCache = new Map<string, ReturnType<typeof loadContent>>();
  // Inside a transaction, pass it: on PGlite the one connection is the transaction's.
  function content(row: DeliveryRow, q: Queryable = db) {
    const key = `${row.paperId}:${row.seasonPaperId}:${row.setLetter}:${row.setHash}:${row.paperVersion}:${row.durationMinutes}`;
    let entry = contentCache.get(key);
    if (!entry) {
      entry = loadContent(row, q);
      entry.catch(() => contentCache.delete(key));
      if (contentCache.size >= CONTENT_CACHE_ENTRIES) contentCache.delete(contentCache.keys().next().value!);
      contentCache.set(key, entry);
    }
    return entry;
  }
  /** Questions in the delivery's set. */
  const itemCount = async (row: DeliveryRow, q: Queryable = db) => (await content(row, q)).itemCount;

  async function loadContent(row: DeliveryRow, q: Queryable) {
    const { rows: papers } = await q.query<{
      code: string;
      title: string;
      durationMinutes: number;
      totalMarks: number;
      calculator: boolean;
      navigation: string;
      instructions: Record<string, string>;
      snapshot: PaperSnapshot;
      content: string;
    }>(
      `select p.code, p.title, sp.duration_minutes as "durationMinutes", p.total_marks::float8 as "totalMarks", p.calculator, p.navigation, p.instructions, p.snapshot, ps.content
       from papers p join season_papers sp on sp.paper_id = p.id join paper_sets ps on ps.paper_id = p.id and ps.letter = $3
       where p.id = $1 and sp.id = $2`,
      [row.paperId, row.seasonPaperId, row.setLetter],
    );
    const paper = papers[0];
    const set = JSON.parse(paper.content) as PaperSet;
    const sections = new Map((await listSections(q, row.paperId)).map((s) => [String(s.id), s]));
    const languages = new Set<string>();
    const out = set.sections.map((section) => ({
      sectionId: section.sectionId,
      title: sections.get(section.sectionId)?.title ?? '',
      instructions: (sections.get(section.sectionId)?.instructions ?? {}) as Record<string, string>,
      items: section.items.map((item) => {
        const itemContent = paper.snapshot.items[item.versionId].content;
        Object.keys(itemContent.variants).forEach((l) => languages.add(l));
        return {
          number: item.number,
          versionId: item.versionId,
          kind: itemContent.kind,
          marks: item.marks,
          options: item.options,
          left: item.left,
          right: item.right,
          content: candidateContent(itemContent),
        };
      }),
    }));
    const itemCount = out.reduce((n, section) => n + section.items.length, 0);
    return { paper, sections: out, languages: [...languages], itemCount };
  }

  /** The delivery as its candidate sees it; `known.answers` when the caller knows them (none, just opened). */
  async function view(row: DeliveryRow, now: Date, known: { answers?: S.Delivery['answers']; who?: Candidate } = {}): Promise<S.Delivery> {
    const [{ paper, sections, languages }, answers, who] = await Promise.all([
      content(row),
      known.answers
        ? { rows: known.answers }
        : db.query<{ itemNumber: number; sequence: number; response: S.Delivery['answers'][number]['response']; marked: boolean }>(
            `select item_number as "itemNumber", sequence, response, marked from delivery_answers where delivery_id = $1 order by item_number`,
            [row.id],
          ),
      known.who
        ? { rows: [known.who] }
        : db.query<Candidate>(`select ${candidateColumns} from registrations r join users u on u.id = r.candidate_id where r.id = $1`, [row.registrationId]),
    ]);
    const medium = who.rows[0].medium;
    return {
      deliveryId: row.id,
      registrationId: row.registrationId,
      seasonPaperId: row.seasonPaperId,
      rollNumber: who.rows[0].rollNumber,
      candidateName: who.rows[0].name,
      paper: {
        code: paper.code,
        title: paper.title,
        durationMinutes: paper.durationMinutes,
        totalMarks: paper.totalMarks,
        calculator: paper.calculator,
        navigation: paper.navigation,
        instructions: paper.instructions ?? {},
      },
      medium,
      largePrint: who.rows[0].largePrint,
      languages: languages.includes(medium) ? [medium, ...languages.filter((l) => l !== medium)] : languages,
      setLetter: row.setLetter,
      timing: timingOf(row, now),
      sections,
      answers: answers.rows,
      actions: deliveryActions(row.status, clockOf(row), { candidate: true }, eventTime(row, now)),
    };
  }

  app.get(
    '/v1/delivery/mine',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'The papers you sit online (admit card issued), with their delivery if opened',
        response: { 200: Type.Array(S.Sitting) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{
        registrationId: number;
        seasonPaperId: number;
        seasonName: string;
        examName: string;
        paperCode: string;
        paperTitle: string;
        sitsOn: string;
        minute: number;
        durationMinutes: number;
        deliveryId: number | null;
        status: S.Delivery['timing']['status'] | null;
      }>(
        `select r.id::int as "registrationId", sp.id::int as "seasonPaperId", s.name as "seasonName", e.name as "examName", p.code as "paperCode", p.title as "paperTitle",
           to_char(sp.sits_on, 'YYYY-MM-DD') as "sitsOn", sp.starts_at_minute as minute, sp.duration_minutes as "durationMinutes", d.id::int as "deliveryId", d.status
         from registrations r join seasons s on s.id = r.season_id join exams e on e.id = r.exam_id
           join season_papers sp on sp.id = any(r.season_paper_ids) and sp.mode = 'online' join papers p on p.id = sp.paper_id
           left join deliveries d on d.registration_id = r.id and d.season_paper_id = sp.id
         where r.candidate_id = $1 and r.tenant_id = $2 and r.status = any($3)
         order by sp.sits_on, sp.starts_at_minute, sp.id`,
        [p.userId, p.tenantId, SITTING_STATUSES],
      );
      return rows.map((r) => ({
        registrationId: r.registrationId,
        seasonPaperId: r.seasonPaperId,
        seasonName: r.seasonName,
        examName: r.examName,
        paperCode: r.paperCode,
        paperTitle: r.paperTitle,
        startsAt: scheduledStart(r.sitsOn, r.minute).toISOString(),
        durationMinutes: r.durationMinutes,
        deliveryId: r.deliveryId,
        status: r.status,
      }));
    },
  );

  app.post(
    '/v1/delivery/mine',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Open (or reopen) your delivery of a paper: the set is chosen once and kept; answers the paper, your answers and the time left',
        body: S.OpenBody,
        response: { 200: S.Delivery, 201: S.Delivery },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { registrationId, seasonPaperId } = request.body;
      const now = clock.now();
      // The registration, the scheduled paper, its live sets and an existing delivery in one
      // read: 2,000 candidates open within seconds of the start (the delivery bench).
      const { rows: regs } = await db.query<
        Candidate & {
          projectId: number;
          status: string;
          centerId: number | null;
          papers: number[];
          accommodations: { extraTimePercent?: number };
          accommodationStatus: string;
          existingId: number | null;
          paperId: number | null;
          sitsOn: string;
          minute: number;
          duration: number;
          mode: string;
          assignment: string;
          letters: string[];
        }
      >(
        `select ${candidateColumns}, r.project_id::int as "projectId", r.status, r.center_id::int as "centerId", r.season_paper_ids::int[] as papers, r.accommodations,
                r.accommodation_status as "accommodationStatus",
                (select d.id::int from deliveries d where d.registration_id = r.id and d.season_paper_id = $4) as "existingId",
                sp.paper_id::int as "paperId", to_char(sp.sits_on, 'YYYY-MM-DD') as "sitsOn", sp.starts_at_minute as minute, sp.duration_minutes as duration,
                sp.mode, sp.set_assignment as assignment,
                coalesce((select array_agg(ss.letter order by ss.letter) from season_sets ss where ss.season_paper_id = sp.id), '{}') as letters
         from registrations r join users u on u.id = r.candidate_id left join season_papers sp on sp.id = $4
         where r.id = $1 and r.candidate_id = $2 and r.tenant_id = $3`,
        [registrationId, p.userId, p.tenantId, seasonPaperId],
        { prepare: true },
      );
      const reg = regs[0];
      if (!reg) throw notFound('Registration not found.');
      if (!reg.papers.includes(seasonPaperId) || reg.paperId === null)
        throw ValidationFailure.field('seasonPaperId', 'This paper is not one of the registration.');
      if (reg.existingId !== null) {
        const row = await db.transaction(async (tx) => settleExpiry(tx, (await lockDelivery(tx, reg.existingId!))!, now));
        return reply.status(200).send(await view(row, now));
      }
      if (!SITTING_STATUSES.includes(reg.status)) throw conflict(`You can sit a paper once your admit card is issued (this registration is ${reg.status}).`);
      if (reg.mode !== 'online') throw conflict('This paper is sat on paper at the center, not in the browser.');
      if (!reg.letters.length) throw conflict('No set of this paper is live in the season yet.');
      const extraPercent = reg.accommodationStatus === 'approved' ? Number(reg.accommodations?.extraTimePercent ?? 0) : 0;
      const allowedMs = (reg.duration + Math.round((reg.duration * extraPercent) / 100)) * 60_000;
      const startsAt = scheduledStart(reg.sitsOn, reg.minute);
      const letter = pickSet(reg.letters, reg.assignment, registrationId, reg.centerId);
      // The delivery, its first history line and the row as the routes read it, in one
      // statement; a concurrent open of the same paper inserts nothing, and both answer the one
      // delivery.
      const { rows: opened } = await db.query<DeliveryRow>(
        `with created as (
           insert into deliveries (tenant_id, project_id, registration_id, season_paper_id, candidate_id, center_id, paper_id, set_letter, starts_at, allowed_ms, last_event_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (registration_id, season_paper_id) do nothing returning *),
         h as (
           insert into delivery_history (delivery_id, event, to_status, actor_id, details, created_at)
           select id, 'delivery.open', 'Waiting', $5::uuid, $12::jsonb, $11::timestamptz from created)
         ${deliveryRowFrom('created')}`,
        [
          p.tenantId,
          reg.projectId,
          registrationId,
          seasonPaperId,
          p.userId,
          reg.centerId,
          reg.paperId,
          letter,
          startsAt,
          allowedMs,
          now,
          JSON.stringify({ setLetter: letter, allowedMs, extraTimePercent: extraPercent }),
        ],
        { prepare: true },
      );
      if (!opened[0]) {
        const { rows: raced } = await db.query<{ id: number }>(`select id::int as id from deliveries where registration_id = $1 and season_paper_id = $2`, [
          registrationId,
          seasonPaperId,
        ]);
        const row = await db.transaction(async (tx) => settleExpiry(tx, (await lockDelivery(tx, raced[0].id))!, now));
        return reply.status(200).send(await view(row, now));
      }
      const row = opened[0];
      roomChanged(row, 'delivery.open');
      return reply.status(201).send(await view(row, now, { answers: [], who: reg }));
    },
  );

  app.get(
    '/v1/delivery/mine/:id',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Your delivery: the same set, order, answers and time left on every device',
        params: S.IdParams,
        response: { 200: S.Delivery },
      },
    },
    async (request) => {
      const now = clock.now();
      const row = await db.transaction((tx) => mineLocked(tx, request, request.params.id, now));
      return view(row, now);
    },
  );

  app.post(
    '/v1/delivery/mine/:id/start',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Accept the declaration and start: refused (409) before the start time unless an invigilator admitted you',
        params: S.IdParams,
        body: S.StartBody,
        response: { 200: S.Timing },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const now = clock.now();
      const start = (found: DeliveryRow) => ({ type: 'delivery.start' as const, by: { candidate: true }, at: eventTime(found, now) });
      // The start burst (every candidate of a room within seconds): a Waiting delivery is read and
      // started with a versioned update, no transaction; starting ends nothing, so there is
      // nothing else to keep atomic. Anything else goes the locked way, and so does a delivery
      // changed since the read or refused on it: the refusal of an unlocked row may be stale too
      // (an invigilator's admit that just landed), and the locked read answers for sure.
      const unlocked = await readDelivery(db, request.params.id);
      if (!unlocked || unlocked.candidateId !== p.userId || unlocked.tenantId !== p.tenantId) throw notFound(DELIVERY_NOT_FOUND);
      const row =
        (unlocked.status === 'Waiting'
          ? await applyDeliveryEventUnlessStale(db, unlocked, start(unlocked), p.userId, { declare: true }).catch(() => null)
          : null) ??
        (await db.transaction(async (tx) => {
          const found = await mineLocked(tx, request, request.params.id, now);
          return applyDeliveryEvent(tx, found, start(found), p.userId, { declare: true });
        }));
      roomChanged(row, 'delivery.start');
      return timingOf(row, now);
    },
  );

  app.put(
    '/v1/delivery/mine/:id/answers',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary:
          'Save answers (autosave): each save has its own id and a per-question sequence, so a retry stores once and an older save never overwrites a newer one. After the end: 409, and the saves are kept as telemetry only',
        params: S.IdParams,
        body: S.SavesBody,
        response: { 200: S.SavesAnswer },
      },
    },
    async (request) => {
      const now = clock.now();
      const saves = request.body.saves;
      const outcome = await db.transaction(async (tx) => {
        const row = await mineLocked(tx, request, request.params.id, now);
        if (finishedDeliveryStatuses.includes(row.status)) {
          await tx.query(`insert into delivery_telemetry (delivery_id, kind, details, ip, received_at) values ($1, 'lateSave', $2, $3, $4)`, [
            row.id,
            JSON.stringify({ saves }),
            request.ip,
            now,
          ]);
          return { late: row, row, results: [] as Awaited<ReturnType<typeof storeSaves>> };
        }
        const total = await itemCount(row, tx);
        const outside = saves.find((s) => s.itemNumber > total);
        if (outside) throw ValidationFailure.field('saves', `Question ${outside.itemNumber} is not in this paper (it has ${total}).`);
        assertSave(row, now);
        return { row, late: null, results: await storeSaves(tx, row.id, saves, now) };
      });
      if (outcome.results.some((r) => r.applied)) roomChanged(outcome.row, 'delivery.save');
      if (outcome.late)
        throw conflict(`This delivery is ${outcome.late.status}: answers are no longer accepted. The save was kept as a record, not as an answer.`, {
          currentStatus: outcome.late.status,
        });
      return { results: outcome.results, timing: timingOf(outcome.row, now) };
    },
  );

  /** A save is the machine's `delivery.save`: only Active with time left (not recorded in the history). */
  function assertSave(row: DeliveryRow, now: Date) {
    const decision = decideDelivery(row.status, clockOf(row), { type: 'delivery.save', by: { candidate: true }, at: eventTime(row, now) });
    if (!decision.accepted)
      throw decision.reason === 'status'
        ? conflict(`This delivery is ${row.status}: answers are saved only while it runs. Keep them and try again.`, { currentStatus: row.status })
        : conflict('No time is left on this delivery.', { currentStatus: row.status });
  }

  app.post(
    '/v1/delivery/mine/:id/submit',
    {
      config: candidateConfig,
      schema: { tags, security, summary: 'Submit: the delivery ends and answers the receipt', params: S.IdParams, response: { 200: S.Receipt } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const found = await mineLocked(tx, request, request.params.id, now);
        if (found.status === 'TimeUp') return found;
        return applyDeliveryEvent(tx, found, { type: 'delivery.submit', by: { candidate: true }, at: eventTime(found, now) }, p.userId);
      });
      roomChanged(row, row.status === 'TimeUp' ? 'delivery.timeUp' : 'delivery.submit');
      if (row.status === 'TimeUp') throw conflict('Time ran out: your answers were submitted automatically.', { currentStatus: row.status });
      return receipt(row);
    },
  );

  app.get(
    '/v1/delivery/mine/:id/receipt',
    {
      config: candidateConfig,
      schema: { tags, security, summary: 'The receipt of an ended delivery (id, time, answered count)', params: S.IdParams, response: { 200: S.Receipt } },
    },
    async (request) => {
      const now = clock.now();
      const row = await db.transaction((tx) => mineLocked(tx, request, request.params.id, now));
      if (!finishedDeliveryStatuses.includes(row.status)) throw conflict(`This delivery is ${row.status}: there is no receipt before the end.`);
      return receipt(row);
    },
  );

  async function receipt(row: DeliveryRow) {
    return {
      deliveryId: row.id,
      status: row.status,
      endedAt: new Date(row.endedAt!).toISOString(),
      answered: await answeredCount(db, row.id),
      total: await itemCount(row),
    };
  }

  app.post(
    '/v1/delivery/mine/:id/telemetry',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Report heartbeats, focus lost / regained, fullscreen exited and reconnects (the IP is noted); kept with the delivery',
        params: S.IdParams,
        body: S.TelemetryBody,
        response: { 200: S.Timing },
      },
    },
    async (request) => {
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const found = await mineLocked(tx, request, request.params.id, now);
        // The browser cannot see its own address change; the server sees it from the request
        // (decision 0246): the first call from a new address raises an alert for the console.
        const last = await tx.query<{ ip: string }>(`select ip from delivery_telemetry where delivery_id = $1 and ip is not null order by id desc limit 1`, [
          found.id,
        ]);
        const previousIp = last.rows[0]?.ip;
        if (previousIp !== undefined && previousIp !== request.ip)
          await tx.query(`insert into delivery_telemetry (delivery_id, kind, details, ip, received_at) values ($1, 'ipChanged', $2, $3, $4)`, [
            found.id,
            JSON.stringify({ from: previousIp, to: request.ip }),
            request.ip,
            now,
          ]);
        for (const e of request.body.events) {
          await tx.query(`insert into delivery_telemetry (delivery_id, kind, details, ip, received_at) values ($1, $2, $3, $4, $5)`, [
            found.id,
            e.kind,
            JSON.stringify(e.details ?? {}),
            request.ip,
            now,
          ]);
        }
        return found;
      });
      const alert = request.body.events.find((e) => e.kind === 'focusLost' || e.kind === 'fullscreenExited');
      roomChanged(row, alert ? `telemetry.${alert.kind}` : 'telemetry.heartbeat');
      return timingOf(row, now);
    },
  );

  // ---- the invigilator's console -----------------------------------------------------------

  async function inReach(request: FastifyRequest, id: number) {
    const workspace = requireWorkspace(request);
    const row = await readDelivery(db, id);
    if (!row || row.projectId !== workspace.project.id) throw notFound(DELIVERY_NOT_FOUND);
    const parties = registrationActor(workspace, row.examId);
    const actor: DeliveryActor = { invigilator: parties.invigilator || parties.registrar };
    return { row, actor };
  }

  async function consoleRow(row: DeliveryRow, actor: DeliveryActor, now: Date) {
    const { rows } = await db.query<{ rollNumber: string | null; name: string; lastHeartbeat: string | null; alerts: number; answered: number }>(
      `select r.roll_number as "rollNumber", trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name,
         (select max(received_at) from delivery_telemetry t where t.delivery_id = $2 and t.kind = 'heartbeat') as "lastHeartbeat",
         (select count(*)::int from delivery_telemetry t where t.delivery_id = $2 and t.kind in ('focusLost', 'fullscreenExited', 'ipChanged')) as alerts,
         (select count(*)::int from delivery_answers a where a.delivery_id = $2 and a.response is not null and a.response <> 'null'::jsonb) as answered
       from registrations r join users u on u.id = r.candidate_id where r.id = $1`,
      [row.registrationId, row.id],
    );
    const r = rows[0];
    return {
      deliveryId: row.id,
      registrationId: row.registrationId,
      rollNumber: r.rollNumber,
      candidateName: r.name,
      centerId: row.centerId,
      timing: timingOf(row, now),
      answered: r.answered,
      lastHeartbeat: r.lastHeartbeat ? new Date(r.lastHeartbeat).toISOString() : null,
      alerts: r.alerts,
      actions: deliveryActions(row.status, clockOf(row), actor, eventTime(row, now)),
    };
  }

  app.get(
    '/v1/delivery',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary: "The invigilator's console: every delivery of a season paper (at one center) with state, time left, last heartbeat, answered count and alerts",
        ...projectCall,
        querystring: S.ConsoleQuery,
        response: { 200: Type.Array(S.ConsoleRow) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const now = clock.now();
      const { rows } = await db.query<DeliveryRow>(
        `${deliverySelect} where d.project_id = $1 and d.season_paper_id = $2 and ($3::bigint is null or d.center_id = $3) order by d.id limit 2000`,
        [workspace.project.id, request.query.seasonPaperId, request.query.centerId ?? null],
      );
      const out = [];
      for (const row of rows) {
        const parties = registrationActor(workspace, row.examId);
        if (!parties.invigilator && !parties.registrar) throw forbidden('Only an invigilator of the exam may watch its deliveries.');
        out.push(await consoleRow(row, { invigilator: true }, now));
      }
      return out;
    },
  );

  app.post(
    '/v1/delivery/verify',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary:
          "Invigilator: check an admit card's QR token at the door: valid for this paper (and center), forged, revoked or elsewhere; the candidate and their delivery to admit",
        ...projectCall,
        body: S.ConsoleVerifyBody,
        response: { 200: S.ConsoleVerdict },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const b = request.body;
      const { rows: papers } = await db.query<{ examId: number }>(
        `select sp.exam_id::int as "examId" from season_papers sp join seasons s on s.id = sp.season_id where sp.id = $1 and s.project_id = $2`,
        [b.seasonPaperId, workspace.project.id],
      );
      if (!papers[0]) throw ValidationFailure.field('seasonPaperId', 'This paper is not scheduled in a season of this project.');
      const parties = registrationActor(workspace, papers[0].examId);
      if (!parties.invigilator && !parties.registrar) throw forbidden('Only an invigilator of the exam may check admit cards at its sittings.');
      const checked = await verifyAdmitCard(db, p.tenantId, b.token);
      const reg = checked.registration;
      const none = { candidate: null, registrationId: null, delivery: null };
      if (!reg) return { verdict: checked.verdict, message: checked.message, ...none };
      const candidate = { name: reg.candidateName, rollNumber: reg.rollNumber!, examName: reg.examName, center: reg.centerName!, seatNumber: reg.seatNumber! };
      const elsewhere = (message: string) => ({ verdict: 'elsewhere' as const, message, candidate, registrationId: null, delivery: null });
      if (reg.projectId !== workspace.project.id) return elsewhere('This admit card is genuine but for another project.');
      if (!reg.seasonPaperIds.includes(b.seasonPaperId)) return elsewhere(`${reg.candidateName} is not registered for this paper.`);
      if (b.centerId !== undefined && reg.centerId !== b.centerId) return elsewhere(`${reg.candidateName} sits at another center: ${reg.centerName}.`);
      const { rows: found } = await db.query<{ id: number }>(`select id::int as id from deliveries where registration_id = $1 and season_paper_id = $2`, [
        reg.registrationId,
        b.seasonPaperId,
      ]);
      const now = clock.now();
      let delivery = null;
      if (found[0]) {
        const settled = await db.transaction(async (tx) => {
          const row = await settleExpiry(tx, (await lockDelivery(tx, found[0].id))!, now);
          // The check at the door is part of the sitting's record, beside the admit it may lead to.
          await tx.query(
            `insert into delivery_history (delivery_id, event, from_status, to_status, actor_id, details, created_at) values ($1, 'admitCard.verified', $2, $2, $3, '{}', $4)`,
            [row.id, row.status, p.userId, eventTime(row, now)],
          );
          return row;
        });
        delivery = await consoleRow(settled, { invigilator: true }, now);
      }
      return {
        verdict: 'valid' as const,
        message: delivery ? checked.message : `${checked.message} The candidate has not opened the paper yet.`,
        candidate,
        registrationId: reg.registrationId,
        delivery,
      };
    },
  );

  app.get(
    '/v1/delivery/:id',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary: 'One delivery with its history (every action, with its reason)',
        ...projectCall,
        params: S.IdParams,
        response: { 200: S.DeliveryRecord },
      },
    },
    async (request) => {
      const { row, actor } = await inReach(request, request.params.id);
      if (!actor.invigilator) throw forbidden('Only an invigilator of the exam may see this delivery.');
      const now = clock.now();
      const settled = await db.transaction(async (tx) => settleExpiry(tx, (await lockDelivery(tx, row.id))!, now));
      const history = await db.query<{
        event: string;
        fromStatus: string | null;
        toStatus: string | null;
        reason: string | null;
        details: Record<string, unknown>;
        at: string;
      }>(
        `select event, from_status as "fromStatus", to_status as "toStatus", reason, details, created_at as at from delivery_history where delivery_id = $1 order by id`,
        [row.id],
      );
      const late = await db.query<{ n: number }>(`select count(*)::int as n from delivery_telemetry where delivery_id = $1 and kind = 'lateSave'`, [row.id]);
      return {
        row: await consoleRow(settled, actor, now),
        history: history.rows.map((h) => ({ ...h, at: new Date(h.at).toISOString() })),
        lateSaves: late.rows[0].n,
      };
    },
  );

  app.post(
    '/v1/delivery/:id/event',
    {
      config: consoleConfig,
      schema: {
        tags,
        security,
        summary: 'Invigilator: admit early, pause, resume, extend time (minutes and a reason) or terminate (a reason); kept in the history',
        ...projectCall,
        params: S.IdParams,
        body: S.InvigilatorEventBody,
        response: { 200: S.ConsoleRow },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { row, actor } = await inReach(request, request.params.id);
      const now = clock.now();
      const b = request.body;
      const updated = await db.transaction(async (tx) => {
        const locked = await settleExpiry(tx, (await lockDelivery(tx, row.id))!, now);
        const at = eventTime(locked, now);
        const event = { type: b.event, by: actor, at, minutes: b.minutes ?? 0, reason: b.reason ?? '' } as DeliveryEvent;
        const applied = await applyDeliveryEvent(tx, locked, event, p.userId, {
          reason: b.reason ?? null,
          details: b.event === 'delivery.extend' ? { minutes: b.minutes } : {},
        });
        // The candidate's screen follows at once over the hub (committed with the change).
        const data: DeliveryChangedData = { deliveryId: applied.id, event: b.event, status: applied.status };
        await appendEvent(tx, { tenantId: applied.tenantId, kind: 'delivery.changed', userId: applied.candidateId, payload: { ...data } });
        return applied;
      });
      roomChanged(updated, b.event);
      return consoleRow(updated, actor, now);
    },
  );
}

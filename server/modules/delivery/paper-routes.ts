import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { RecordId } from '#machines/exams/project-record.ts';
import { P } from '#machines/permissions.ts';
import type { PaperSet } from '#machines/papers/paper-sets.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { conflict, forbidden, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace } from '#server/plugins/workspace-context.ts';
import { createResultForDelivery, lockResult, rescoreResult } from '#server/modules/results/results-service.ts';
import { registrationActor } from '#server/modules/seasons/registrations-routes.ts';
import { pickSet, scheduledStart } from './delivery-service.ts';

/**
 * Paper sittings (issue 19 "offline (paper) mode", docs/decisions/0249): for a season paper sat
 * on paper, the invigilator's sheet of the room (attendance is the registration's own
 * markAttended / markAbsent) and the entry of marks per question per candidate. The first marks
 * make the candidate's delivery of mode 'paper' (Submitted), so the result is issue 20's result,
 * scored from the entered marks, and every entry is in the delivery's history.
 */
const tags = ['delivery'];
const security = [{ bearer: [] }];
const config = { access: P.Exams.View, workspace: 'project' as const };
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
const ATTENDANCE = ['AdmitCardIssued', 'Attended', 'Absent'];

const SheetQuery = Type.Object({ seasonPaperId: RecordId, centerId: Type.Optional(RecordId) }, { additionalProperties: false });
const SheetItem = Type.Object({ number: Type.Integer(), maxMarks: Type.Number() }, { additionalProperties: false });
const SheetRow = Type.Object(
  {
    registrationId: RecordId,
    rollNumber: Type.Union([Type.String(), Type.Null()]),
    candidateName: Type.String(),
    centerId: Type.Union([RecordId, Type.Null()]),
    attendance: Type.Union([Type.Literal('AdmitCardIssued'), Type.Literal('Attended'), Type.Literal('Absent')], {
      description: 'AdmitCardIssued: not marked yet.',
    }),
    registrationVersion: Type.Integer(),
    setLetter: Type.String(),
    deliveryId: Type.Union([RecordId, Type.Null()]),
    marks: Type.Record(Type.String(), Type.Number(), { description: 'Marks entered, by question number.' }),
    total: Type.Union([Type.Number(), Type.Null()], { description: "The result's total once marks are entered." }),
    resultStatus: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
const Sheet = Type.Object(
  {
    seasonPaperId: RecordId,
    paperCode: Type.String(),
    sets: Type.Record(Type.String(), Type.Array(SheetItem), { description: 'The questions of each set letter, in order, with their marks.' }),
    candidates: Type.Array(SheetRow),
  },
  { additionalProperties: false },
);
type SheetRow = Static<typeof SheetRow>;

const MarksBody = Type.Object(
  {
    seasonPaperId: RecordId,
    registrationId: RecordId,
    marks: Type.Array(
      Type.Object(
        { itemNumber: Type.Integer({ minimum: 1, maximum: 10_000 }), marks: Type.Number({ minimum: 0, maximum: 10_000 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

interface SeasonPaper {
  id: number;
  examId: number;
  paperId: number;
  paperCode: string;
  mode: string;
  sitsOn: string;
  minute: number;
  duration: number;
  assignment: string;
  letters: string[];
}

export async function paperRoutes(fastify: FastifyInstance, { db, clock }: { db: Db; clock: Clock }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  async function paperSitting(request: FastifyRequest, seasonPaperId: number) {
    const workspace = requireWorkspace(request);
    const { rows } = await db.query<SeasonPaper>(
      `select sp.id::int as id, sp.exam_id::int as "examId", sp.paper_id::int as "paperId", p.code as "paperCode", sp.mode,
         to_char(sp.sits_on, 'YYYY-MM-DD') as "sitsOn", sp.starts_at_minute as minute, sp.duration_minutes as duration, sp.set_assignment as assignment,
         coalesce((select array_agg(ss.letter order by ss.letter) from season_sets ss where ss.season_paper_id = sp.id), '{}') as letters
       from season_papers sp join seasons s on s.id = sp.season_id join papers p on p.id = sp.paper_id where sp.id = $1 and s.project_id = $2`,
      [seasonPaperId, workspace.project.id],
    );
    const sp = rows[0];
    if (!sp) throw ValidationFailure.field('seasonPaperId', 'This paper is not scheduled in a season of this project.');
    const parties = registrationActor(workspace, sp.examId);
    if (!parties.invigilator && !parties.registrar) throw forbidden('Only an invigilator of the exam may keep the sheet of its paper sittings.');
    if (sp.mode === 'online') throw ValidationFailure.field('seasonPaperId', 'This paper is sat online: its marks come from the answers, not from a sheet.');
    if (!sp.letters.length) throw conflict('No set of this paper is live in the season yet.');
    return { workspace, sp };
  }

  async function setsOf(q: Queryable, sp: SeasonPaper) {
    const { rows } = await q.query<{ letter: string; content: string }>(`select letter, content from paper_sets where paper_id = $1 and letter = any($2)`, [
      sp.paperId,
      sp.letters,
    ]);
    return Object.fromEntries(
      rows.map((r) => [r.letter, (JSON.parse(r.content) as PaperSet).sections.flatMap((s) => s.items.map((i) => ({ number: i.number, maxMarks: i.marks })))]),
    );
  }

  async function sheetRows(q: Queryable, sp: SeasonPaper, projectId: number, filter: { centerId?: number; registrationId?: number }): Promise<SheetRow[]> {
    const { rows } = await q.query<{
      registrationId: number;
      rollNumber: string | null;
      candidateName: string;
      centerId: number | null;
      attendance: SheetRow['attendance'];
      registrationVersion: number;
      deliveryId: number | null;
      setLetter: string | null;
      marks: Record<string, number> | null;
      total: number | null;
      resultStatus: string | null;
    }>(
      `select r.id::int as "registrationId", r.roll_number as "rollNumber", trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as "candidateName",
         r.center_id::int as "centerId", r.status as attendance, r.version as "registrationVersion", d.id::int as "deliveryId", d.set_letter as "setLetter",
         (select json_object_agg(m.item_number::text, m.marks::float8) from paper_marks m where m.delivery_id = d.id) as marks,
         res.total::float8 as total, res.status as "resultStatus"
       from registrations r join users u on u.id = r.candidate_id
         left join deliveries d on d.registration_id = r.id and d.season_paper_id = $2
         left join results res on res.delivery_id = d.id
       where r.project_id = $1 and $2 = any(r.season_paper_ids) and r.status = any($3)
         and ($4::bigint is null or r.center_id = $4) and ($5::bigint is null or r.id = $5)
       order by r.roll_number nulls last, r.id limit 5000`,
      [projectId, sp.id, ATTENDANCE, filter.centerId ?? null, filter.registrationId ?? null],
    );
    return rows.map((r) => ({
      ...r,
      setLetter: r.setLetter ?? pickSet(sp.letters, sp.assignment, r.registrationId, r.centerId),
      marks: r.marks ?? {},
      total: r.total === null ? null : Number(r.total),
    }));
  }

  app.get(
    '/v1/paper-sitting',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A paper sitting's sheet: each candidate of the room with attendance, set, marks entered per question and the result's total",
        ...projectCall,
        querystring: SheetQuery,
        response: { 200: Sheet },
      },
    },
    async (request) => {
      const { workspace, sp } = await paperSitting(request, request.query.seasonPaperId);
      return {
        seasonPaperId: sp.id,
        paperCode: sp.paperCode,
        sets: await setsOf(db, sp),
        candidates: await sheetRows(db, sp, workspace.project.id, { centerId: request.query.centerId }),
      };
    },
  );

  app.put(
    '/v1/paper-sitting/marks',
    {
      config,
      schema: {
        tags,
        security,
        summary:
          "Enter a present candidate's marks per question of a paper sitting: kept in the delivery's history, and the result (issue 20) is scored from them",
        ...projectCall,
        body: MarksBody,
        response: { 200: SheetRow },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const b = request.body;
      const { workspace, sp } = await paperSitting(request, b.seasonPaperId);
      const now = clock.now();
      const at = now.toISOString();
      const numbers = b.marks.map((m) => m.itemNumber);
      if (new Set(numbers).size !== numbers.length) throw ValidationFailure.field('marks', 'Each question may appear once.');
      const row = await db.transaction(async (tx) => {
        const { rows: regs } = await tx.query<{ status: string; centerId: number | null; candidateId: string; tenantId: string }>(
          `select status, center_id::int as "centerId", candidate_id as "candidateId", tenant_id as "tenantId" from registrations
           where id = $1 and project_id = $2 and $3 = any(season_paper_ids) for update`,
          [b.registrationId, workspace.project.id, sp.id],
        );
        const reg = regs[0];
        if (!reg) throw ValidationFailure.field('registrationId', 'This candidate is not registered for this paper.');
        if (reg.status !== 'Attended')
          throw conflict(`Marks are entered for candidates marked present (this registration is ${reg.status}).`, { currentStatus: reg.status });
        const { rows: found } = await tx.query<{ id: number; setLetter: string; mode: string }>(
          `select id::int as id, set_letter as "setLetter", mode from deliveries where registration_id = $1 and season_paper_id = $2 for update`,
          [b.registrationId, sp.id],
        );
        let delivery = found[0];
        if (!delivery) {
          const letter = pickSet(sp.letters, sp.assignment, b.registrationId, reg.centerId);
          const startsAt = scheduledStart(sp.sitsOn, sp.minute);
          const { rows: made } = await tx.query<{ id: number }>(
            `insert into deliveries (tenant_id, project_id, registration_id, season_paper_id, candidate_id, center_id, paper_id, set_letter, status, mode,
               starts_at, allowed_ms, last_event_at, started_at, ended_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, 'Submitted', 'paper', $9, $10, $11, $9, $11) returning id::int as id`,
            [
              reg.tenantId,
              workspace.project.id,
              b.registrationId,
              sp.id,
              reg.candidateId,
              reg.centerId,
              sp.paperId,
              letter,
              startsAt,
              sp.duration * 60_000,
              now,
            ],
          );
          delivery = { id: made[0].id, setLetter: letter, mode: 'paper' };
          await tx.query(
            `insert into delivery_history (delivery_id, event, to_status, actor_id, details, created_at) values ($1, 'paper.sat', 'Submitted', $2, $3, $4)`,
            [delivery.id, p.userId, JSON.stringify({ setLetter: letter }), at],
          );
        }
        if (delivery.mode !== 'paper') throw conflict('This candidate sat this paper online: the marks come from their answers.');
        const items = new Map((await setsOf(tx, sp))[delivery.setLetter].map((i) => [i.number, i.maxMarks]));
        for (const m of b.marks) {
          const max = items.get(m.itemNumber);
          if (max === undefined) throw ValidationFailure.field('marks', `Question ${m.itemNumber} is not in set ${delivery.setLetter} (it has ${items.size}).`);
          if (m.marks > max) throw ValidationFailure.field('marks', `Question ${m.itemNumber} is out of ${max}: ${m.marks} is too many.`);
        }
        const { rows: before } = await tx.query<{ itemNumber: number; marks: number }>(
          `select item_number as "itemNumber", marks::float8 as marks from paper_marks where delivery_id = $1 and item_number = any($2)`,
          [delivery.id, numbers],
        );
        const old = new Map(before.map((x) => [x.itemNumber, Number(x.marks)]));
        const changed = b.marks.filter((m) => old.get(m.itemNumber) !== m.marks);
        for (const m of changed) {
          await tx.query(
            `insert into paper_marks (delivery_id, item_number, marks, entered_by, entered_at) values ($1, $2, $3, $4, $5)
             on conflict (delivery_id, item_number) do update set marks = excluded.marks, entered_by = excluded.entered_by, entered_at = excluded.entered_at`,
            [delivery.id, m.itemNumber, m.marks, p.userId, at],
          );
        }
        if (changed.length) {
          await tx.query(
            `insert into delivery_history (delivery_id, event, from_status, to_status, actor_id, details, created_at) values ($1, 'paper.marks', 'Submitted', 'Submitted', $2, $3, $4)`,
            [
              delivery.id,
              p.userId,
              JSON.stringify({ items: changed.map((m) => ({ number: m.itemNumber, before: old.get(m.itemNumber) ?? null, after: m.marks })) }),
              at,
            ],
          );
          const { rows: result } = await tx.query<{ id: number }>(`select id::int as id from results where delivery_id = $1`, [delivery.id]);
          if (!result[0]) await createResultForDelivery(tx, delivery.id, at);
          else await rescoreResult(tx, (await lockResult(tx, result[0].id))!, { event: 'result.paperMarks', actorId: p.userId, at });
        }
        return (await sheetRows(tx, sp, workspace.project.id, { registrationId: b.registrationId }))[0];
      });
      return row;
    },
  );
}

import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import { defaultResultSettings, isDoubleMarked, settleMarks, type ResultSettings } from '#machines/results/marking.ts';
import { decideResult, type ResultEvent, type ResultStatus } from '#machines/results/result.machine.ts';
import { scoreScript, type ExamRules, type ScriptScore } from '#machines/results/scoring.ts';
import type { PaperSet, PaperSnapshot } from '#machines/papers/paper-sets.ts';
import type { Queryable } from '#server/db/client.ts';
import { AppError, badRequest, conflict, forbidden } from '#server/lib/errors.ts';

/**
 * The server side of results (issue 20, docs/decisions/0250–0252). A result is made when a
 * delivery ends Submitted or Time up, in the same transaction; every change goes through the
 * result machine (lock the row, ask the machine, write the row and its history); every
 * rescoring writes the totals and the items that changed, before and after, into the history.
 */
export interface ResultRow {
  id: number;
  tenantId: string;
  projectId: number;
  examId: number;
  paperId: number;
  deliveryId: number;
  candidateId: string;
  scriptId: string;
  status: ResultStatus;
  total: number;
  maxTotal: number;
  percent: number;
  grade: string | null;
  passed: boolean;
  sections: ScriptScore['sections'];
  publishedAt: Date | null;
  withheldReason: string | null;
  reevaluationTicketId: number | null;
  reevaluationItems: number[];
  version: number;
  setLetter: string;
  createdAt: Date;
  updatedAt: Date;
}

export const resultSelect = `select r.id::int as id, r.tenant_id as "tenantId", r.project_id::int as "projectId", r.exam_id::int as "examId",
  r.paper_id::int as "paperId", r.delivery_id::int as "deliveryId", r.candidate_id as "candidateId", r.script_id as "scriptId", r.status,
  r.total::float8 as total, r.max_total::float8 as "maxTotal", r.percent::float8 as percent, r.grade, r.passed, r.sections,
  r.published_at as "publishedAt", r.withheld_reason as "withheldReason", r.reevaluation_ticket_id::int as "reevaluationTicketId",
  r.reevaluation_items as "reevaluationItems", r.version, d.set_letter as "setLetter", r.created_at as "createdAt", r.updated_at as "updatedAt"
  from results r join deliveries d on d.id = r.delivery_id`;

export async function lockResult(tx: Queryable, id: number): Promise<ResultRow | undefined> {
  const { rows } = await tx.query<ResultRow>(`${resultSelect} where r.id = $1 for update of r`, [id]);
  return rows[0];
}

export async function readResult(db: Queryable, id: number): Promise<ResultRow | undefined> {
  const { rows } = await db.query<ResultRow>(`${resultSelect} where r.id = $1`, [id]);
  return rows[0];
}

export interface ScoringInputs {
  snapshot: PaperSnapshot;
  set: PaperSet;
  rules: ExamRules;
  settings: ResultSettings;
  keys: Record<string, ItemContent>;
}

/** What scoring a paper's scripts needs: the locked snapshot, the set, the exam's rules and the corrected keys. */
export async function scoringInputs(db: Queryable, paperId: number, setLetter: string, examId: number): Promise<ScoringInputs> {
  const { rows } = await db.query<{
    snapshot: PaperSnapshot;
    content: string;
    passRules: ExamRules & { passPercent: number };
    gradeBands: ExamRules['gradeBands'];
    settings: Partial<ResultSettings>;
  }>(
    `select p.snapshot, ps.content, e.pass_rules as "passRules", e.grade_bands as "gradeBands", e.result_settings as settings
     from papers p join paper_sets ps on ps.paper_id = p.id and ps.letter = $2 join exams e on e.id = $3 where p.id = $1`,
    [paperId, setLetter, examId],
  );
  const r = rows[0];
  const corrections = await db.query<{ versionId: string; content: ItemContent }>(
    `select distinct on (version_id) version_id as "versionId", content from answer_key_corrections where paper_id = $1 order by version_id, id desc`,
    [paperId],
  );
  return {
    snapshot: r.snapshot,
    set: JSON.parse(r.content) as PaperSet,
    rules: {
      passPercent: Number(r.passRules.passPercent ?? 33),
      sectionMinimumPercent: r.passRules.sectionMinimumPercent ?? null,
      gradeBands: r.gradeBands ?? [],
    },
    settings: { ...defaultResultSettings, ...(r.settings ?? {}) },
    keys: Object.fromEntries(corrections.rows.map((c) => [c.versionId, c.content])),
  };
}

export async function examResultSettings(db: Queryable, examId: number): Promise<ResultSettings> {
  const { rows } = await db.query<{ settings: Partial<ResultSettings> }>(`select result_settings as settings from exams where id = $1`, [examId]);
  return { ...defaultResultSettings, ...(rows[0]?.settings ?? {}) };
}

async function answersOf(db: Queryable, deliveryId: number): Promise<Map<number, ItemResponse | null>> {
  const { rows } = await db.query<{ itemNumber: number; response: ItemResponse | null }>(
    `select item_number as "itemNumber", response from delivery_answers where delivery_id = $1`,
    [deliveryId],
  );
  return new Map(rows.map((r) => [r.itemNumber, r.response]));
}

/** A paper sitting's delivery (docs/decisions/0249): its marks entered per question, or null for an online one. */
async function paperMarksOf(db: Queryable, deliveryId: number): Promise<Map<number, number> | null> {
  const { rows } = await db.query<{ mode: string }>(`select mode from deliveries where id = $1`, [deliveryId]);
  if (rows[0]?.mode !== 'paper') return null;
  const marks = await db.query<{ itemNumber: number; marks: number }>(
    `select item_number as "itemNumber", marks::float8 as marks from paper_marks where delivery_id = $1`,
    [deliveryId],
  );
  return new Map(marks.rows.map((m) => [m.itemNumber, Number(m.marks)]));
}

/** The settled mark of each human-marked question of a result (blind double marks agreed or the third marker's). */
export async function settledMarks(db: Queryable, resultId: number, scriptId: string, settings: ResultSettings): Promise<Map<number, number>> {
  const { rows } = await db.query<{ itemNumber: number; round: 1 | 2 | 3; marks: number | null }>(
    `select item_number as "itemNumber", round, coalesce(adjusted_marks, marks)::float8 as marks from marking_tasks where result_id = $1 and marked_at is not null`,
    [resultId],
  );
  const { rows: planned } = await db.query<{ itemNumber: number }>(
    `select distinct item_number as "itemNumber" from marking_tasks where result_id = $1 and round = 2`,
    [resultId],
  );
  const doubled = new Set(planned.map((p) => p.itemNumber));
  const byItem = new Map<number, Partial<Record<1 | 2 | 3, number>>>();
  for (const r of rows) byItem.set(r.itemNumber, { ...byItem.get(r.itemNumber), [r.round]: Number(r.marks) });
  const out = new Map<number, number>();
  for (const [itemNumber, marks] of byItem) {
    const state =
      marks[3] !== undefined ? { kind: 'final' as const, marks: marks[3] } : settleMarks(marks, doubled.has(itemNumber), settings.thirdMarkThreshold);
    if (state.kind === 'final') out.set(itemNumber, state.marks);
  }
  void scriptId;
  return out;
}

const refusal: Record<'status' | 'role' | 'fields' | 'window', (from: ResultStatus, type: string) => AppError> = {
  status: (from, type) => conflict(`This result is ${from}: ${type.replace('result.', '')} is not possible now.`, { currentStatus: from }),
  role: () => forbidden('You are not allowed to do this to this result.'),
  fields: (_from, type) =>
    badRequest(type === 'result.requestReevaluation' ? 'Choose the questions to re-evaluate.' : 'Give a reason: it is kept in the history.'),
  window: (from) => conflict('The time to ask for re-evaluation of this result is over.', { currentStatus: from }),
};

export interface HistoryExtra {
  reason?: string | null;
  details?: Record<string, unknown>;
}

/** Applies one event to a locked result: asks the machine, writes the status and the history. Throws the refusal (409 / 403 / 400). */
export async function applyResultEvent(
  tx: Queryable,
  row: ResultRow,
  event: ResultEvent,
  actorId: string | null,
  extra: HistoryExtra = {},
  settings?: ResultSettings,
): Promise<ResultRow> {
  const reevaluationDays = (settings ?? (await examResultSettings(tx, row.examId))).reevaluationDays;
  const decision = decideResult(row.status, { publishedAt: row.publishedAt ? new Date(row.publishedAt).toISOString() : null, reevaluationDays }, event);
  if (!decision.accepted) throw refusal[decision.reason](decision.from, event.type);
  const { rows } = await tx.query<{ id: number }>(
    `update results set status = $2, published_at = $3, withheld_reason = case when $2 = 'Withheld' then $4 else null end, updated_at = $5, version = version + 1
     where id = $1 and version = $6 returning id::int as id`,
    [row.id, decision.to, decision.context.publishedAt, extra.reason?.trim() || null, event.at, row.version],
  );
  if (!rows[0]) throw conflict('The result changed meanwhile: reload and try again.');
  await insertResultHistory(tx, row.id, event.type, row.status, decision.to, actorId, extra, event.at);
  return (await lockResult(tx, row.id))!;
}

export async function insertResultHistory(
  tx: Queryable,
  resultId: number,
  event: string,
  from: string | null,
  to: string | null,
  actorId: string | null,
  extra: HistoryExtra,
  at: string | Date,
) {
  await tx.query(
    `insert into result_history (result_id, event, from_status, to_status, actor_id, reason, details, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [resultId, event, from, to, actorId, extra.reason?.trim() || null, JSON.stringify(extra.details ?? {}), at],
  );
}

async function writeItems(tx: Queryable, resultId: number, score: ScriptScore) {
  await tx.query(`delete from result_items where result_id = $1`, [resultId]);
  if (!score.items.length) return;
  const cols = 10;
  const values: unknown[] = [];
  const tuples = score.items.map((item, i) => {
    values.push(
      resultId,
      item.number,
      item.sectionId,
      item.versionId,
      item.kind,
      item.outcome,
      item.maxMarks,
      item.marks,
      item.counted,
      item.needsHumanMarking,
    );
    return `(${Array.from({ length: cols }, (_, c) => `$${i * cols + c + 1}`).join(', ')})`;
  });
  await tx.query(
    `insert into result_items (result_id, item_number, section_id, version_id, kind, outcome, max_marks, marks, counted, needs_human) values ${tuples.join(', ')}`,
    values,
  );
}

/**
 * Scores a delivery that just ended (Submitted or Time up) and stores its result, Provisional,
 * or in Marking with the marking tasks made when answers wait for a person. Called inside the
 * delivery's transaction, so a submitted delivery always has its result.
 */
export async function createResultForDelivery(tx: Queryable, deliveryId: number, at: string): Promise<number | null> {
  const { rows } = await tx.query<{ tenantId: string; projectId: number; examId: number; paperId: number; candidateId: string; setLetter: string }>(
    `select d.tenant_id as "tenantId", d.project_id::int as "projectId", sp.exam_id::int as "examId", d.paper_id::int as "paperId",
            d.candidate_id as "candidateId", d.set_letter as "setLetter"
     from deliveries d join season_papers sp on sp.id = d.season_paper_id where d.id = $1`,
    [deliveryId],
  );
  const d = rows[0];
  if (!d) return null;
  const existing = await tx.query<{ id: number }>(`select id::int as id from results where delivery_id = $1`, [deliveryId]);
  if (existing.rows[0]) return existing.rows[0].id;
  const inputs = await scoringInputs(tx, d.paperId, d.setLetter, d.examId);
  const paper = await paperMarksOf(tx, deliveryId);
  const score = scoreScript(inputs.snapshot, inputs.set, await answersOf(tx, deliveryId), inputs.rules, paper ?? new Map(), inputs.keys, paper !== null);
  const { rows: made } = await tx.query<{ id: number; scriptId: string }>(
    `insert into results (tenant_id, project_id, exam_id, paper_id, delivery_id, candidate_id, total, max_total, percent, grade, passed, sections, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) returning id::int as id, script_id as "scriptId"`,
    [
      d.tenantId,
      d.projectId,
      d.examId,
      d.paperId,
      deliveryId,
      d.candidateId,
      score.total,
      score.maxTotal,
      score.percent,
      score.grade,
      score.passed,
      JSON.stringify(score.sections),
      at,
    ],
  );
  const { id, scriptId } = made[0];
  await writeItems(tx, id, score);
  await insertResultHistory(tx, id, 'result.created', null, 'Provisional', null, { details: summary(score) }, at);
  if (score.awaitingMarking.length) {
    // A paper script's marks come from the marks entry, not from the evaluators' queue.
    if (!paper) await planMarking(tx, id, d.examId, scriptId, score.awaitingMarking, inputs.settings, at);
    await applyResultEvent(
      tx,
      (await lockResult(tx, id))!,
      { type: 'result.awaitMarking', by: { system: true }, at },
      null,
      {
        details: { items: score.awaitingMarking },
      },
      inputs.settings,
    );
  }
  return id;
}

/** Round 1 for every answer awaiting a person, round 2 for the double-marked share. */
async function planMarking(tx: Queryable, resultId: number, examId: number, scriptId: string, items: number[], settings: ResultSettings, at: string) {
  for (const itemNumber of items) {
    const rounds = isDoubleMarked(scriptId, itemNumber, settings.doubleMarkPercent) ? [1, 2] : [1];
    for (const round of rounds) {
      await tx.query(
        `insert into marking_tasks (result_id, exam_id, item_number, round, created_at) values ($1, $2, $3, $4, $5) on conflict (result_id, item_number, round) do nothing`,
        [resultId, examId, itemNumber, round, at],
      );
    }
  }
}

function summary(score: Pick<ScriptScore, 'total' | 'maxTotal' | 'percent' | 'grade' | 'passed'>) {
  return { total: score.total, maxTotal: score.maxTotal, percent: score.percent, grade: score.grade, passed: score.passed };
}

export interface Rescored {
  row: ResultRow;
  before: ReturnType<typeof summary>;
  after: ReturnType<typeof summary>;
  items: Array<{ number: number; before: number | null; after: number | null }>;
  changed: boolean;
}

/**
 * Scores a locked result again (a corrected key, a mark given, moderation) and writes the
 * totals, the items and a history entry with the difference before and after. The status
 * follows: a result in Marking whose marks are all in goes back to Provisional; a result
 * rescored after publication is Revised. `event` names the cause in the history.
 */
export async function rescoreResult(
  tx: Queryable,
  row: ResultRow,
  cause: { event: string; actorId: string | null; reason?: string | null; at: string; details?: Record<string, unknown> },
): Promise<Rescored> {
  const inputs = await scoringInputs(tx, row.paperId, row.setLetter, row.examId);
  const paper = await paperMarksOf(tx, row.deliveryId);
  const marks = paper ?? (await settledMarks(tx, row.id, row.scriptId, inputs.settings));
  const score = scoreScript(inputs.snapshot, inputs.set, await answersOf(tx, row.deliveryId), inputs.rules, marks, inputs.keys, paper !== null);
  const { rows: old } = await tx.query<{ number: number; marks: number | null }>(
    `select item_number as number, marks::float8 as marks from result_items where result_id = $1`,
    [row.id],
  );
  const oldMarks = new Map(old.map((o) => [o.number, o.marks === null ? null : Number(o.marks)]));
  const items = score.items
    .filter((i) => (oldMarks.get(i.number) ?? null) !== i.marks)
    .map((i) => ({ number: i.number, before: oldMarks.get(i.number) ?? null, after: i.marks }));
  const before = summary(row);
  const after = summary(score);
  const changed = items.length > 0 || JSON.stringify(before) !== JSON.stringify(after);
  await tx.query(
    `update results set total = $2, max_total = $3, percent = $4, grade = $5, passed = $6, sections = $7, updated_at = $8, version = version + 1 where id = $1`,
    [row.id, score.total, score.maxTotal, score.percent, score.grade, score.passed, JSON.stringify(score.sections), cause.at],
  );
  await writeItems(tx, row.id, score);
  await insertResultHistory(
    tx,
    row.id,
    cause.event,
    row.status,
    row.status,
    cause.actorId,
    { reason: cause.reason, details: { ...cause.details, before, after, items } },
    cause.at,
  );
  let current = (await lockResult(tx, row.id))!;
  const system = { system: true };
  if (current.status === 'Marking' && score.awaitingMarking.length === 0) {
    current = await applyResultEvent(tx, current, { type: 'result.marked', by: system, at: cause.at }, null, {}, inputs.settings);
  } else if ((current.status === 'Provisional' || current.status === 'Moderated') && score.awaitingMarking.length > 0) {
    current = await applyResultEvent(tx, current, { type: 'result.awaitMarking', by: system, at: cause.at }, null, {}, inputs.settings);
  } else if (changed && (current.status === 'Published' || current.status === 'Revised')) {
    current = await applyResultEvent(
      tx,
      current,
      { type: 'result.rescore', by: system, at: cause.at },
      cause.actorId,
      { reason: cause.reason },
      inputs.settings,
    );
  }
  return { row: current, before, after, items, changed };
}

import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import { InvalidResponseError, score, type Outcome } from '#machines/items/score.ts';
import type { PaperSet, PaperSnapshot, SetItem } from '#machines/papers/paper-sets.ts';
import type { CandidateRow, ItemMeta } from '#machines/results/statistics.ts';
import type { Queryable } from '#server/db/client.ts';

/**
 * Deliveries scored straight from their answers (issue 20, docs/decisions/0255), with the item
 * bank's one scorer (machines/items/score.ts). The results table of the marking work is not
 * here yet: `scoreDeliveryAnswers` is the one place a delivery's item scores come from, and
 * `ResultRowsSource` the one interface statistics and exports read them through, so the lead
 * can point both at the stored results instead.
 *
 * Marks: the scorer gives an item's own marks (its `marking`); the paper's section says what the
 * item is worth in this paper (`SetItem.marks`), so every score is scaled by
 * marks / marking.correct — +4/−1 stays +4/−1 in a 4-mark section and becomes +2/−0.5 in a 2-mark one.
 */

export interface PaperForScoring {
  paperId: number;
  code: string;
  title: string;
  snapshot: PaperSnapshot;
  /** The paper's sets by letter. */
  sets: ReadonlyMap<string, PaperSet>;
}

export interface ScoredItem {
  number: number;
  versionId: string;
  /** Marks earned in this paper (scaled); null while a person has to mark it. */
  score: number | null;
  maxScore: number;
  outcome: Outcome;
  /** Options chosen (choice kinds), for distractor counts. */
  chosen: string[];
}

export interface ScoredDelivery {
  deliveryId: number;
  setLetter: string;
  items: ScoredItem[];
  total: number;
  maxTotal: number;
  correct: number;
  wrong: number;
  omitted: number;
  awaitingMarking: number;
}

/** A delivery's answers as stored: item number → response (delivery_answers). */
export interface DeliveryAnswers {
  deliveryId: number;
  setLetter: string;
  answers: ReadonlyMap<number, unknown>;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function chosenOf(content: ItemContent, response: unknown): string[] {
  if (response === null || response === undefined) return [];
  if (content.kind === 'singleChoice' && typeof response === 'string' && response !== '') return [response];
  if (content.kind === 'trueFalse' && typeof response === 'boolean') return [String(response)];
  if (content.kind === 'multipleChoice' && Array.isArray(response)) return [...new Set(response.filter((x): x is string => typeof x === 'string'))];
  return [];
}

function scoreOne(content: ItemContent, item: SetItem, response: unknown): ScoredItem {
  const factor = content.marking.correct > 0 ? item.marks / content.marking.correct : 1;
  let result;
  try {
    result = score(content, response as ItemResponse | undefined);
  } catch (error) {
    // A stored answer the scorer cannot read (the save check refuses these) scores as unanswered.
    if (!(error instanceof InvalidResponseError)) throw error;
    result = score(content, undefined);
  }
  return {
    number: item.number,
    versionId: item.versionId,
    score: result.score === null ? null : round(result.score * factor),
    maxScore: item.marks,
    outcome: result.outcome,
    chosen: chosenOf(content, response),
  };
}

/** Scores every question of one delivery's set with the one scorer; unanswered questions score their `unanswered` marks. */
export function scoreDeliveryAnswers(paper: PaperForScoring, delivery: DeliveryAnswers): ScoredDelivery {
  const set = paper.sets.get(delivery.setLetter);
  if (!set) throw new Error(`Delivery ${delivery.deliveryId} sat set ${delivery.setLetter}, which paper ${paper.paperId} does not have.`);
  const items: ScoredItem[] = [];
  let total = 0;
  let maxTotal = 0;
  let correct = 0;
  let wrong = 0;
  let omitted = 0;
  let awaitingMarking = 0;
  for (const section of set.sections) {
    for (const item of section.items) {
      const content = paper.snapshot.items[item.versionId]?.content;
      if (!content) throw new Error(`Paper ${paper.paperId} has no content for version ${item.versionId}.`);
      const scored = scoreOne(content, item, delivery.answers.get(item.number));
      items.push(scored);
      maxTotal += scored.maxScore;
      if (scored.score !== null) total += scored.score;
      if (scored.outcome === 'correct') correct += 1;
      else if (scored.outcome === 'wrong' || scored.outcome === 'partial') wrong += 1;
      else if (scored.outcome === 'unanswered') omitted += 1;
      else awaitingMarking += 1;
    }
  }
  return {
    deliveryId: delivery.deliveryId,
    setLetter: delivery.setLetter,
    items,
    total: round(total),
    maxTotal: round(maxTotal),
    correct,
    wrong,
    omitted,
    awaitingMarking,
  };
}

export interface StatisticsItem extends ItemMeta {
  versionId: string;
  itemId: string;
  kind: ItemContent['kind'];
  /** Question number in the first set that has it. */
  number: number;
  /** The keyed options (choice kinds). */
  key: string[];
}

function optionsOf(content: ItemContent): { id: string; correct: boolean }[] | undefined {
  if (content.kind === 'singleChoice') return content.options.map((o) => ({ id: o.id, correct: o.id === content.correct }));
  if (content.kind === 'multipleChoice') return content.options.map((o) => ({ id: o.id, correct: content.correct.includes(o.id) }));
  if (content.kind === 'trueFalse') return ['true', 'false'].map((id) => ({ id, correct: String(content.correct) === id }));
  return undefined;
}

/** The items of a paper across its sets, in the first set's order (items only drawn into later sets follow). */
export function statisticsItems(paper: PaperForScoring): StatisticsItem[] {
  const out = new Map<string, StatisticsItem>();
  const letters = [...paper.sets.keys()].sort();
  for (const letter of letters) {
    for (const section of paper.sets.get(letter)!.sections) {
      for (const item of section.items) {
        if (out.has(item.versionId)) continue;
        const snap = paper.snapshot.items[item.versionId];
        const options = optionsOf(snap.content);
        out.set(item.versionId, {
          id: item.versionId,
          versionId: item.versionId,
          itemId: snap.itemId,
          kind: snap.content.kind,
          number: item.number,
          maxScore: item.marks,
          options,
          key: options?.filter((o) => o.correct).map((o) => o.id) ?? [],
        });
      }
    }
  }
  return [...out.values()];
}

/**
 * The response matrix of machines/results/statistics.ts. An item not in a delivery's set (drawn
 * into another set) is "not marked" for it (score null, not omitted), so it counts neither in
 * that item's facility nor as an omission; totals are the delivery's own.
 */
export function candidateRow(scored: ScoredDelivery): CandidateRow {
  const answers: Record<string, { score: number | null; chosen: string[]; omitted: boolean }> = {};
  for (const item of scored.items) answers[item.versionId] = { score: item.score, chosen: item.chosen, omitted: item.outcome === 'unanswered' };
  return { id: String(scored.deliveryId), answers };
}

export function rowsFor(items: readonly StatisticsItem[], scored: readonly ScoredDelivery[]): CandidateRow[] {
  return scored.map((s) => {
    const row = candidateRow(s);
    const answers = row.answers as Record<string, { score: number | null; omitted: boolean; chosen?: string[] }>;
    for (const item of items) answers[item.id] ??= { score: null, omitted: false };
    return row;
  });
}

// ---- reading from the database -------------------------------------------------------------------

/** The statuses whose answers count: the candidate finished (submitted, or time ran out). */
export const SCORED_STATUSES = ['Submitted', 'TimeUp'] as const;

export async function loadPaperForScoring(db: Queryable, paperId: number): Promise<PaperForScoring | undefined> {
  const { rows } = await db.query<{ code: string; title: string; snapshot: PaperSnapshot | null }>(`select code, title, snapshot from papers where id = $1`, [
    paperId,
  ]);
  if (!rows[0] || !rows[0].snapshot) return undefined;
  const { rows: sets } = await db.query<{ letter: string; content: string }>(`select letter, content from paper_sets where paper_id = $1 order by letter`, [
    paperId,
  ]);
  return {
    paperId,
    code: rows[0].code,
    title: rows[0].title,
    snapshot: rows[0].snapshot,
    sets: new Map(sets.map((s) => [s.letter, JSON.parse(s.content) as PaperSet])),
  };
}

/** What a results row carries besides its scores (the candidate and where they sat). */
export interface DeliveryFacts {
  deliveryId: number;
  setLetter: string;
  status: string;
  rollNumber: string | null;
  candidateName: string;
  centerId: number | null;
  centerName: string | null;
  paperId: number;
  paperCode: string;
  paperTitle: string;
  submittedAt: string | null;
}

export interface ResultRow extends DeliveryFacts {
  score: ScoredDelivery;
}

export interface ResultFilters {
  examId?: number;
  paperId?: number;
  centerId?: number;
}

/**
 * Where results rows come from. Today: the finished deliveries of the project, scored now
 * (`scoredDeliverySource`). When the results table exists, another source reads it; statistics
 * and exports do not change.
 */
export interface ResultRowsSource {
  count(db: Queryable, projectId: number, filters: ResultFilters): Promise<number>;
  batches(db: Queryable, projectId: number, filters: ResultFilters, batchSize?: number): AsyncIterable<ResultRow[]>;
}

const deliveryWhere = `d.project_id = $1 and d.status = any($2::text[]) and ($3::bigint is null or sp.exam_id = $3)
  and ($4::bigint is null or d.paper_id = $4) and ($5::bigint is null or d.center_id = $5)`;

export const scoredDeliverySource: ResultRowsSource = {
  async count(db, projectId, filters) {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from deliveries d join season_papers sp on sp.id = d.season_paper_id where ${deliveryWhere}`,
      [projectId, SCORED_STATUSES, filters.examId ?? null, filters.paperId ?? null, filters.centerId ?? null],
    );
    return rows[0].n;
  },
  async *batches(db, projectId, filters, batchSize = 500) {
    const papers = new Map<number, PaperForScoring | undefined>();
    let after = 0;
    for (;;) {
      const { rows } = await db.query<DeliveryFacts>(
        `select d.id::int as "deliveryId", d.set_letter as "setLetter", d.status, r.roll_number as "rollNumber",
                trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as "candidateName",
                d.center_id::int as "centerId", c.name as "centerName", d.paper_id::int as "paperId", p.code as "paperCode", p.title as "paperTitle",
                d.ended_at as "submittedAt"
         from deliveries d join season_papers sp on sp.id = d.season_paper_id join registrations r on r.id = d.registration_id
         join users u on u.id = d.candidate_id join papers p on p.id = d.paper_id left join exam_centers c on c.id = d.center_id
         where ${deliveryWhere} and d.id > $6 order by d.id limit ${batchSize}`,
        [projectId, SCORED_STATUSES, filters.examId ?? null, filters.paperId ?? null, filters.centerId ?? null, after],
      );
      if (rows.length === 0) return;
      const ids = rows.map((r) => r.deliveryId);
      const { rows: answers } = await db.query<{ deliveryId: number; itemNumber: number; response: unknown }>(
        `select delivery_id::int as "deliveryId", item_number as "itemNumber", response from delivery_answers where delivery_id = any($1::bigint[])`,
        [ids],
      );
      const byDelivery = new Map<number, Map<number, unknown>>();
      for (const a of answers) {
        let m = byDelivery.get(a.deliveryId);
        if (!m) byDelivery.set(a.deliveryId, (m = new Map()));
        m.set(a.itemNumber, a.response);
      }
      const out: ResultRow[] = [];
      for (const facts of rows) {
        if (!papers.has(facts.paperId)) papers.set(facts.paperId, await loadPaperForScoring(db, facts.paperId));
        const paper = papers.get(facts.paperId);
        if (!paper || !paper.sets.has(facts.setLetter)) continue;
        const score = scoreDeliveryAnswers(paper, {
          deliveryId: facts.deliveryId,
          setLetter: facts.setLetter,
          answers: byDelivery.get(facts.deliveryId) ?? new Map(),
        });
        out.push({ ...facts, submittedAt: facts.submittedAt ? new Date(facts.submittedAt).toISOString() : null, score });
      }
      yield out;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].deliveryId;
    }
  },
};

import type { ItemContent } from '#machines/items/item-schema.ts';
import type { PaperStatus } from '#machines/papers/paper-flow.machine.ts';
import { sectionItemCount, sectionMarks, type Difficulty, type PaperItem, type PaperSpec, type SectionSpec } from '#machines/papers/paper-records.ts';
import type { Queryable } from '#server/db/client.ts';
import type { SelectionRuleBody } from './papers-schemas.ts';

/** SQL of papers, sections and sets, and the item versions they pin (issue 17). */

export interface PaperRow {
  id: number;
  examId: number;
  projectId: number;
  code: string;
  title: string;
  durationMinutes: number;
  totalMarks: number;
  instructions: Record<string, string>;
  navigation: 'free' | 'sectional';
  calculator: boolean;
  mode: 'online' | 'offline';
  status: PaperStatus;
  snapshot: unknown;
  lockedAt: string | null;
  lockedById: string | null;
  lockedByName: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
  updatedById: string | null;
  updatedByName: string | null;
  setCount: number;
}

export interface SectionRow {
  id: number;
  order: number;
  title: string;
  instructions: Record<string, string>;
  marksPerItem: number;
  attemptAny: number | null;
  timeLimitMinutes: number | null;
  shuffleItems: boolean;
  shuffleOptions: boolean;
  rule: SelectionRuleBody;
  version: number;
}

const name = (alias: string) => `nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '')), '')`;

const paperColumns = `p.id::int as id, p.exam_id::int as "examId", p.project_id::int as "projectId", p.code, p.title,
  p.duration_minutes as "durationMinutes", p.total_marks::float8 as "totalMarks", p.instructions, p.navigation, p.calculator, p.mode,
  p.status, p.snapshot, p.locked_at as "lockedAt", p.locked_by as "lockedById", ${name('lu')} as "lockedByName",
  p.version, p.created_at as "createdAt", p.updated_at as "updatedAt", p.updated_by as "updatedById", ${name('uu')} as "updatedByName",
  (select count(*)::int from paper_sets s where s.paper_id = p.id) as "setCount"`;

export async function findPaper(db: Queryable, examId: number, paperId: number, options: { forUpdate?: boolean } = {}): Promise<PaperRow | undefined> {
  if (options.forUpdate) await db.query(`select id from papers where id = $1 and exam_id = $2 for update`, [paperId, examId]);
  const { rows } = await db.query<PaperRow>(
    `select ${paperColumns} from papers p left join users lu on lu.id = p.locked_by left join users uu on uu.id = p.updated_by
     where p.id = $1 and p.exam_id = $2`,
    [paperId, examId],
  );
  return rows[0];
}

export async function listPapers(db: Queryable, examId: number): Promise<PaperRow[]> {
  const { rows } = await db.query<PaperRow>(
    `select ${paperColumns} from papers p left join users lu on lu.id = p.locked_by left join users uu on uu.id = p.updated_by
     where p.exam_id = $1 order by p.created_at desc, p.id desc limit 500`,
    [examId],
  );
  return rows;
}

export async function listSections(db: Queryable, paperId: number): Promise<SectionRow[]> {
  const { rows } = await db.query<SectionRow>(
    `select id::int as id, position as "order", title, instructions, marks_per_item::float8 as "marksPerItem", attempt_any as "attemptAny",
            time_limit_minutes as "timeLimitMinutes", shuffle_items as "shuffleItems", shuffle_options as "shuffleOptions", rule, version
     from paper_sections where paper_id = $1 order by position, id`,
    [paperId],
  );
  return rows;
}

/** The core's view of a stored section: ids as text. */
export function toSectionSpec(row: SectionRow): SectionSpec {
  return {
    id: String(row.id),
    order: row.order,
    title: row.title,
    marksPerItem: row.marksPerItem,
    attemptAny: row.attemptAny,
    shuffleItems: row.shuffleItems,
    shuffleOptions: row.shuffleOptions,
    rule:
      row.rule.kind === 'fixed'
        ? { kind: 'fixed', items: row.rule.items.map(String) }
        : { kind: 'draw', draws: row.rule.draws.map((d) => ({ categoryId: String(d.categoryId), difficulty: d.difficulty, count: d.count })) },
  };
}

export function sectionAnswer(row: SectionRow) {
  const spec = toSectionSpec(row);
  return {
    sectionId: row.id,
    order: row.order,
    title: row.title,
    instructions: row.instructions,
    marksPerItem: row.marksPerItem,
    attemptAny: row.attemptAny,
    timeLimitMinutes: row.timeLimitMinutes,
    shuffleItems: row.shuffleItems,
    shuffleOptions: row.shuffleOptions,
    rule: row.rule,
    itemCount: sectionItemCount(spec),
    marks: sectionMarks(spec),
    version: row.version,
  };
}

export async function projectLanguages(db: Queryable, projectId: number): Promise<string[]> {
  const { rows } = await db.query<{ languages: string[] }>(`select languages from projects where id = $1`, [projectId]);
  return rows[0]?.languages ?? ['en'];
}

export function paperSpec(paper: Pick<PaperRow, 'totalMarks'>, sections: SectionRow[], languages: string[]): PaperSpec {
  return { totalMarks: paper.totalMarks, languages, sections: sections.map(toSectionSpec) };
}

interface VersionRow {
  versionId: number;
  itemId: number;
  categoryId: number;
  difficulty: Difficulty;
  approved: boolean;
  content: ItemContent;
}

const toPaperItem = (row: VersionRow): PaperItem => ({
  versionId: String(row.versionId),
  itemId: String(row.itemId),
  categoryId: String(row.categoryId),
  difficulty: row.difficulty,
  approved: row.approved,
  content: row.content,
});

/** The item versions of this project among `versionIds` (others are simply absent). */
export async function loadVersions(db: Queryable, projectId: number, versionIds: readonly number[]): Promise<Map<string, PaperItem>> {
  if (versionIds.length === 0) return new Map();
  const { rows } = await db.query<VersionRow>(
    `select v.id::int as "versionId", i.id::int as "itemId", i.category_id::int as "categoryId", i.difficulty,
            (v.approved_at is not null and i.status <> 'Retired') as approved, v.content
     from item_versions v join items i on i.id = v.item_id
     where i.project_id = $1 and v.id = any($2::bigint[])`,
    [projectId, versionIds],
  );
  return new Map(rows.map((row) => [String(row.versionId), toPaperItem(row)]));
}

/**
 * The approved items draw rules may take in these cells: each item's approved version (an
 * item edited after approval still offers the approved one), retired items left out.
 */
export async function loadDrawBank(db: Queryable, projectId: number, cells: ReadonlyArray<{ categoryId: string; difficulty: string }>): Promise<PaperItem[]> {
  if (cells.length === 0) return [];
  const { rows } = await db.query<VersionRow>(
    `select v.id::int as "versionId", i.id::int as "itemId", i.category_id::int as "categoryId", i.difficulty, true as approved, v.content
     from items i join item_versions v on v.id = i.approved_version_id
     where i.project_id = $1 and i.status <> 'Retired'
       and (i.category_id::text, i.difficulty) in (select * from unnest($2::text[], $3::text[]))
     order by v.id`,
    [projectId, cells.map((c) => c.categoryId), cells.map((c) => c.difficulty)],
  );
  return rows.map(toPaperItem);
}

/** How many items (any status but Retired) exist in a cell: a draw asking for more is refused on save. */
export async function countCell(db: Queryable, projectId: number, categoryId: number, difficulty: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from items where project_id = $1 and category_id = $2 and difficulty = $3 and status <> 'Retired'`,
    [projectId, categoryId, difficulty],
  );
  return rows[0].n;
}

export async function categoryNames(db: Queryable, projectId: number): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: number; name: string }>(`select id::int as id, name from categories where project_id = $1`, [projectId]);
  return new Map(rows.map((r) => [String(r.id), r.name]));
}

export async function paperHistory(db: Queryable, paperId: number) {
  const { rows } = await db.query<{
    event: string;
    fromStatus: string | null;
    toStatus: string | null;
    byId: string | null;
    byName: string | null;
    reason: string | null;
    at: string;
  }>(
    `select h.event, h.from_status as "fromStatus", h.to_status as "toStatus", h.actor_id as "byId", ${name('u')} as "byName", h.reason, h.created_at as at
     from paper_history h left join users u on u.id = h.actor_id where h.paper_id = $1 order by h.id`,
    [paperId],
  );
  return rows.map((r) => ({
    event: r.event,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    by: r.byId ? { userId: r.byId, name: r.byName ?? '' } : null,
    reason: r.reason,
    at: new Date(r.at).toISOString(),
  }));
}

export interface SetRow {
  letter: string;
  seed: string;
  content: string;
  sha256: string;
  createdAt: string;
}

export async function listSets(db: Queryable, paperId: number): Promise<SetRow[]> {
  const { rows } = await db.query<SetRow>(
    `select letter, seed, content, sha256, created_at as "createdAt" from paper_sets where paper_id = $1 order by length(letter), letter`,
    [paperId],
  );
  return rows;
}

export interface FixedItemRow {
  versionId: string;
  itemId: string;
  code: string;
  versionNumber: number;
  categoryId: string | null;
  difficulty: Difficulty | null;
  status: string;
  approved: boolean;
  languages: string[];
  stemText: string;
}

/** What the builder shows of pinned versions: the item's code, version, stem text, status and languages. */
export async function describeVersions(db: Queryable, projectId: number, versionIds: readonly number[]): Promise<FixedItemRow[]> {
  if (versionIds.length === 0) return [];
  const { rows } = await db.query<FixedItemRow>(
    `select v.id::text as "versionId", i.id::text as "itemId", i.code, v.number::int as "versionNumber", i.category_id::text as "categoryId",
            i.difficulty, i.status, (v.approved_at is not null and i.status <> 'Retired') as approved, v.languages,
            left(coalesce(i.primary_stem, ''), 300) as "stemText"
     from item_versions v join items i on i.id = v.item_id
     where i.project_id = $1 and v.id = any($2::bigint[])
     order by v.id`,
    [projectId, versionIds],
  );
  return rows;
}

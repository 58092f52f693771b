import type { AnyStateMachine } from 'xstate';
import { compileFlow, type FlowDefinition } from '#machines/exams/review-flow.machine.ts';
import type { ItemSearchBody, ItemSummary } from '#machines/items/item-records.ts';
import type { ItemContent } from '#machines/items/item-schema.ts';
import type { Queryable } from '#server/db/client.ts';
import { ValidationFailure } from '#server/lib/errors.ts';
import { orderByClause, pageWindow, paged, searchKeyword, type Paged } from '#server/lib/paging.ts';
import { deriveFields } from './item-content.ts';

/** Storage of the item bank (migration 0011, docs/decisions/0124). */

export const ITEM_NOT_FOUND = 'Item not found.';
/** Stems at least this similar (pg_trgm similarity) are flagged as possible duplicates. */
export const DUPLICATE_SIMILARITY = 0.6;
/** Shorter stems say too little to compare. */
const MIN_DUPLICATE_STEM = 12;

const person = (alias: string) => `nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '')), '')`;

export const itemColumns = `i.id::int as "itemId", i.code, i.kind, i.item_type_id::int as "itemTypeId", i.category_id::int as "categoryId", c.name as "categoryName",
  i.difficulty, i.cognitive_level as "cognitiveLevel", i.status, i.languages, left(i.primary_stem, 300) as "stemText", i.max_score::float8 as "maxScore",
  i.version_number as "versionNumber", i.approved_version_id::int as "approvedVersionId", i.author_id as "authorId", ${person('ua')} as "authorName",
  i.version, i.updated_at as "updatedOn", i.created_at as "createdOn", i.updated_by as "updatedById", ${person('uu')} as "updatedByName",
  i.latest_version_id::int as "versionId", i.flow_id::int as "flowId",
  d.id::int as "dupId", d.code as "dupCode", d.status as "dupStatus", i.duplicate_similarity::float8 as "dupSimilarity", d.primary_language as "dupLanguage", left(d.primary_stem, 300) as "dupStem"`;
export const itemJoins = `from items i join categories c on c.id = i.category_id left join users ua on ua.id = i.author_id
  left join users uu on uu.id = i.updated_by left join items d on d.id = i.duplicate_item_id`;

export interface ItemRow {
  itemId: number;
  code: string;
  kind: ItemSummary['kind'];
  itemTypeId: number | null;
  categoryId: number;
  categoryName: string;
  difficulty: ItemSummary['difficulty'];
  cognitiveLevel: ItemSummary['cognitiveLevel'];
  status: string;
  languages: string[];
  stemText: string;
  maxScore: number;
  versionNumber: number;
  approvedVersionId: number | null;
  authorId: string | null;
  authorName: string | null;
  version: number;
  updatedOn: string | Date;
  createdOn: string | Date;
  updatedById: string | null;
  updatedByName: string | null;
  versionId: number;
  flowId: number | null;
  dupId: number | null;
  dupCode: string | null;
  dupStatus: string | null;
  dupSimilarity: number | null;
  dupLanguage: string | null;
  dupStem: string | null;
}

const iso = (value: string | Date) => new Date(value).toISOString();
const stamp = (id: string | null, name: string | null) => (id ? { userId: id, name: name ?? '' } : null);

export function toSummary(row: ItemRow, projectLanguages: readonly string[]): ItemSummary {
  return {
    itemId: row.itemId,
    code: row.code,
    kind: row.kind,
    itemTypeId: row.itemTypeId,
    categoryId: row.categoryId,
    categoryName: row.categoryName,
    difficulty: row.difficulty,
    cognitiveLevel: row.cognitiveLevel,
    status: row.status,
    languages: row.languages,
    missingLanguages: projectLanguages.filter((lang) => !row.languages.includes(lang)),
    stemText: row.stemText,
    maxScore: row.maxScore,
    versionNumber: row.versionNumber,
    approvedVersionId: row.approvedVersionId,
    author: stamp(row.authorId, row.authorName),
    version: row.version,
    updatedOn: iso(row.updatedOn),
    duplicate:
      row.dupId !== null
        ? {
            itemId: row.dupId,
            code: row.dupCode!,
            status: row.dupStatus!,
            similarity: Math.round(row.dupSimilarity! * 1000) / 1000,
            language: row.dupLanguage!,
            stemText: row.dupStem!,
          }
        : null,
  };
}

export const updatedByOf = (row: ItemRow) => stamp(row.updatedById, row.updatedByName);
export const createdOnOf = (row: ItemRow) => iso(row.createdOn);

export async function projectLanguages(db: Queryable, projectId: number): Promise<string[]> {
  const { rows } = await db.query<{ languages: string[] }>(`select languages from projects where id = $1`, [projectId]);
  return rows[0]?.languages ?? ['en'];
}

// ---- the list ---------------------------------------------------------------------------------

const itemOrder = {
  updatedOn: 'i.updated_at',
  createdOn: 'i.created_at',
  code: 'lower(i.code)',
  difficulty: 'i.difficulty',
  status: 'i.status',
  kind: 'i.kind',
};

export const likePattern = (keyword: string) => `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The filters as SQL over `items i`, and the total's statement. When no filter needs the rows
 * themselves (the text search and the author do), the total is a sum over the facet counters
 * (migration 0213, docs/decisions/0213): the same clauses, on `item_facet_counts f`.
 */
export function itemWhere(projectId: number, request: ItemSearchBody): { sql: string; params: unknown[]; countSql: string } {
  const params: unknown[] = [projectId];
  const where = ['i.project_id = $1'];
  const facets = ['f.project_id = $1'];
  let countable = true;
  /** A filter on the rows; `facet` is the same filter on the counters, or null when it has none. */
  const add = (clause: (n: string) => string, facet: ((n: string) => string) | null, value: unknown) => {
    params.push(value);
    const n = `$${params.length}`;
    where.push(clause(n));
    if (facet) facets.push(facet(n));
    else countable = false;
  };
  const sameOn = (clause: (alias: string, n: string) => string) => [(n: string) => clause('i', n), (n: string) => clause('f', n)] as const;
  if (request.kind) add(...sameOn((a, n) => `${a}.kind = ${n}`), request.kind);
  if (request.itemTypeId) add(...sameOn((a, n) => `${a}.item_type_id = ${n}`), request.itemTypeId);
  if (request.categoryId) {
    const subtree = (n: string) =>
      `(with recursive sub(id) as (select id from categories where id = ${n} and project_id = $1
        union all select k.id from categories k join sub on k.parent_id = sub.id) select id from sub)`;
    if (request.includeSubcategories === false) add(...sameOn((a, n) => `${a}.category_id = ${n}`), request.categoryId);
    else add(...sameOn((a, n) => `${a}.category_id in ${subtree(n)}`), request.categoryId);
  }
  if (request.difficulty) add(...sameOn((a, n) => `${a}.difficulty = ${n}`), request.difficulty);
  if (request.status) add(...sameOn((a, n) => `${a}.status = ${n}`), request.status);
  if (request.authorId) add((n) => `i.author_id = ${n}::uuid`, null, request.authorId);
  if (typeof request.languagePresent === 'boolean' && !request.language) {
    throw ValidationFailure.field('language', 'Name the language whose variant must be present or missing.');
  }
  if (request.language) {
    const present = request.languagePresent !== false;
    add(...sameOn((a, n) => (present ? `${a}.languages @> array[${n}::text]` : `not (${a}.languages @> array[${n}::text])`)), request.language);
  }
  if (request.duplicatesOnly) {
    where.push('i.duplicate_item_id is not null');
    facets.push('f.duplicate');
  }
  const keyword = searchKeyword(request);
  if (keyword) add((n) => `i.search_text like ${n}`, null, likePattern(keyword));
  const sql = where.join(' and ');
  const countSql = countable
    ? `select coalesce(sum(f.n), 0)::int from item_facet_counts f where ${facets.join(' and ')}`
    : `select count(*)::int from items i where ${sql}`;
  return { sql, params, countSql };
}

/** One page and the total of every match, in one statement (the total rides along as an InitPlan). */
export async function searchItems(db: Queryable, projectId: number, request: ItemSearchBody): Promise<Paged<ItemRow>> {
  const window = pageWindow(request);
  const { sql, params, countSql: count } = itemWhere(projectId, request);
  const order = orderByClause(request.orderBy, itemOrder, 'i.updated_at desc', 'i.id desc');
  const n = params.length;
  const { rows } = await db.query<ItemRow & { totalCount: number }>(
    `select ${itemColumns}, (${count}) as "totalCount"
     ${itemJoins} where ${sql} order by ${order} limit $${n + 1} offset $${n + 2}`,
    [...params, window.limit, window.offset],
    { prepare: true },
  );
  let total = rows[0]?.totalCount ?? 0;
  if (!rows.length && window.offset > 0) {
    total = (await db.query<{ n: number }>(`select (${count}) as n`, params)).rows[0].n;
  }
  return paged(rows, total, window);
}

export async function findItemRow(db: Queryable, projectId: number, itemId: number, lock = false): Promise<ItemRow | undefined> {
  const { rows } = await db.query<ItemRow>(`select ${itemColumns} ${itemJoins} where i.id = $1 and i.project_id = $2${lock ? ' for update of i' : ''}`, [
    itemId,
    projectId,
  ]);
  return rows[0];
}

export async function versionContent(db: Queryable, versionId: number): Promise<ItemContent> {
  const { rows } = await db.query<{ content: ItemContent }>(`select content from item_versions where id = $1`, [versionId]);
  return rows[0].content;
}

// ---- writing ----------------------------------------------------------------------------------

export interface NewItem {
  code?: string | null;
  itemTypeId?: number | null;
  categoryId: number;
  difficulty: string;
  cognitiveLevel?: string | null;
  content: ItemContent;
  flowId: number | null;
}

export interface Actor {
  tenantId: string;
  projectId: number;
  userId: string;
}

/**
 * Inserts an item with its version 1 and its history line (content already prepared) in one
 * statement: both ids are drawn first, so the item can point at its version (the foreign keys
 * are checked at the end of the statement). Returns the id.
 */
export async function insertItem(tx: Queryable, actor: Actor, item: NewItem, languages: readonly string[]): Promise<number> {
  // The generated code is only known with the id; its text search column is completed in SQL.
  const derived = deriveFields(item.content, item.code ?? '', languages);
  const { rows } = await tx.query<{ id: number }>(
    `with n as (select nextval(pg_get_serial_sequence('items', 'id')) as item_id, nextval(pg_get_serial_sequence('item_versions', 'id')) as version_id),
          i as (insert into items (id, tenant_id, project_id, code, kind, item_type_id, category_id, difficulty, cognitive_level, flow_id, languages,
                                   search_text, primary_language, primary_stem, max_score, author_id, updated_by, latest_version_id)
                select n.item_id, $1, $2, coalesce($3, 'ITM-' || lpad(n.item_id::text, 6, '0')), $4, $5, $6, $7, $8, $9, $10,
                       case when $3::text is null then lower('ITM-' || lpad(n.item_id::text, 6, '0')) || $11 else $11 end, $12, $13, $14, $15, $15, n.version_id
                from n returning id),
          v as (insert into item_versions (id, item_id, number, content, languages, created_by) select n.version_id, n.item_id, 1, $16, $10, $15 from n),
          h as (insert into item_comments (item_id, version_number, action, from_status, to_status, text, actor_id) select n.item_id, 1, 'create', null, 'Draft', '', $15 from n)
     select id::int as id from i`,
    [
      actor.tenantId,
      actor.projectId,
      item.code ?? null,
      item.content.kind,
      item.itemTypeId ?? null,
      item.categoryId,
      item.difficulty,
      item.cognitiveLevel ?? null,
      item.flowId,
      derived.languages,
      derived.searchText,
      derived.primaryLanguage,
      derived.primaryStem,
      derived.maxScore,
      actor.userId,
      JSON.stringify(item.content),
    ],
  );
  const id = rows[0].id;
  await refreshDuplicate(tx, actor.projectId, id, derived.primaryLanguage, derived.primaryStem, true);
  return id;
}

/**
 * Inserts many items (an import batch) in a few statements: ids drawn for all, the items, their
 * versions and history lines in one statement, then the possible duplicates of the whole batch
 * found in one statement and written in two. Returns the ids in the order given.
 */
export async function insertItemsBatch(tx: Queryable, actor: Actor, items: readonly NewItem[], languages: readonly string[]): Promise<number[]> {
  if (!items.length) return [];
  const { rows: drawn } = await tx.query<{ item: string; version: string }>(
    `select nextval(pg_get_serial_sequence('items', 'id'))::text as item, nextval(pg_get_serial_sequence('item_versions', 'id'))::text as version from generate_series(1, $1::int)`,
    [items.length],
  );
  const rows = items.map((item, i) => {
    const id = Number(drawn[i].item);
    const code = item.code ?? `ITM-${String(id).padStart(6, '0')}`;
    const derived = deriveFields(item.content, code, languages);
    return {
      id,
      version_id: Number(drawn[i].version),
      code,
      kind: item.content.kind,
      item_type_id: item.itemTypeId ?? null,
      category_id: item.categoryId,
      difficulty: item.difficulty,
      cognitive_level: item.cognitiveLevel ?? null,
      flow_id: item.flowId,
      languages: derived.languages,
      search_text: derived.searchText,
      primary_language: derived.primaryLanguage,
      primary_stem: derived.primaryStem,
      max_score: derived.maxScore,
      content: item.content,
    };
  });
  await tx.query(
    `with r as (select * from jsonb_to_recordset($1::jsonb) as r(id bigint, version_id bigint, code text, kind text, item_type_id bigint, category_id bigint, difficulty text,
                  cognitive_level text, flow_id bigint, languages text[], search_text text, primary_language text, primary_stem text, max_score numeric, content jsonb)),
          i as (insert into items (id, tenant_id, project_id, code, kind, item_type_id, category_id, difficulty, cognitive_level, flow_id, languages,
                                   search_text, primary_language, primary_stem, max_score, author_id, updated_by, latest_version_id)
                select r.id, $2, $3, r.code, r.kind, r.item_type_id, r.category_id, r.difficulty, r.cognitive_level, r.flow_id, r.languages,
                       r.search_text, r.primary_language, r.primary_stem, r.max_score, $4, $4, r.version_id from r),
          v as (insert into item_versions (id, item_id, number, content, languages, created_by) select r.version_id, r.id, 1, r.content, r.languages, $4 from r),
          h as (insert into item_comments (item_id, version_number, action, from_status, to_status, text, actor_id) select r.id, 1, 'create', null, 'Draft', '', $4 from r)
     select 1`,
    [JSON.stringify(rows), actor.tenantId, actor.projectId, actor.userId],
  );
  const probes = rows.filter((r) => r.primary_stem.length >= MIN_DUPLICATE_STEM).map((r) => ({ id: r.id, lang: r.primary_language, stem: r.primary_stem }));
  if (probes.length) {
    const { rows: found } = await tx.query<{ id: number; other: number; similarity: number }>(
      `select u.id::int as id, b.id::int as other, b.similarity from jsonb_to_recordset($1::jsonb) as u(id bigint, lang text, stem text)
       cross join lateral (select o.id, similarity(o.primary_stem, u.stem)::float8 as similarity from items o
                           where o.project_id = $2 and o.id <> u.id and o.primary_language = u.lang and o.status <> 'Retired' and o.primary_stem % u.stem
                           order by similarity desc, o.id limit 1) b
       where b.similarity >= $3`,
      [JSON.stringify(probes), actor.projectId, DUPLICATE_SIMILARITY],
    );
    if (found.length) {
      const pairs = JSON.stringify(found);
      await tx.query(
        `update items set duplicate_item_id = x.other, duplicate_similarity = x.similarity from jsonb_to_recordset($1::jsonb) as x(id bigint, other bigint, similarity real) where items.id = x.id`,
        [pairs],
      );
      await tx.query(
        `update items set duplicate_item_id = x.id, duplicate_similarity = x.similarity
         from (select distinct on (other) other, id, similarity from jsonb_to_recordset($1::jsonb) as y(id bigint, other bigint, similarity real) order by other, similarity desc) x
         where items.id = x.other and (items.duplicate_similarity is null or items.duplicate_similarity < x.similarity)`,
        [pairs],
      );
    }
  }
  return rows.map((r) => r.id);
}

/**
 * Stores the most similar other item of the project (same primary language, not retired) as the
 * item's possible duplicate, and offers the item to that one if it is more similar than its own.
 */
export async function refreshDuplicate(tx: Queryable, projectId: number, itemId: number, language: string, stem: string, isNew = false) {
  if (stem.length < MIN_DUPLICATE_STEM) {
    if (!isNew) await tx.query(`update items set duplicate_item_id = null, duplicate_similarity = null where id = $1`, [itemId]);
    return;
  }
  const { rows } = await tx.query<{ id: number; similarity: number }>(
    `select o.id::int as id, similarity(o.primary_stem, $3)::float8 as similarity from items o
     where o.project_id = $1 and o.id <> $2 and o.primary_language = $4 and o.status <> 'Retired' and o.primary_stem % $3
     order by similarity desc, o.id limit 1`,
    [projectId, itemId, stem, language],
  );
  const best = rows[0] && rows[0].similarity >= DUPLICATE_SIMILARITY ? rows[0] : undefined;
  // A new item has no hint yet: nothing to write when it has none now.
  if (!best && isNew) return;
  await tx.query(`update items set duplicate_item_id = $2, duplicate_similarity = $3 where id = $1`, [itemId, best?.id ?? null, best?.similarity ?? null]);
  if (best) {
    await tx.query(
      `update items set duplicate_item_id = $2, duplicate_similarity = $3 where id = $1 and (duplicate_similarity is null or duplicate_similarity < $3)`,
      [best.id, itemId, best.similarity],
    );
  }
}

/** Live possible duplicates of a stem in the project (authoring, and GET …/duplicates). */
export async function findDuplicates(db: Queryable, projectId: number, stem: string, excludeItemId: number | null, limit: number) {
  if (stem.length < MIN_DUPLICATE_STEM) return [];
  const { rows } = await db.query<{ itemId: number; code: string; status: string; similarity: number; language: string; stemText: string }>(
    `select o.id::int as "itemId", o.code, o.status, similarity(o.primary_stem, $2)::float8 as similarity, o.primary_language as language, left(o.primary_stem, 300) as "stemText"
     from items o where o.project_id = $1 and o.id <> coalesce($3::bigint, 0) and o.status <> 'Retired' and o.primary_stem % $2
     order by similarity desc, o.id limit 50`,
    [projectId, stem, excludeItemId],
  );
  return rows
    .filter((r) => r.similarity >= DUPLICATE_SIMILARITY)
    .slice(0, limit)
    .map((r) => ({ ...r, similarity: Math.round(r.similarity * 1000) / 1000 }));
}

export async function addHistory(
  tx: Queryable,
  itemId: number,
  versionNumber: number,
  action: string,
  from: string | null,
  to: string | null,
  text: string,
  actorId: string,
) {
  await tx.query(`insert into item_comments (item_id, version_number, action, from_status, to_status, text, actor_id) values ($1, $2, $3, $4, $5, $6, $7)`, [
    itemId,
    versionNumber,
    action,
    from,
    to,
    text,
    actorId,
  ]);
}

// ---- flows ------------------------------------------------------------------------------------

export interface ItemFlow {
  flowId: number;
  definition: FlowDefinition;
  machine: AnyStateMachine;
}

const compiled = new Map<string, AnyStateMachine>();

/** The item's flow (the one it entered), else the project's first active item flow; null when it has none. */
export async function itemFlow(db: Queryable, projectId: number, flowId: number | null): Promise<ItemFlow | null> {
  const { rows } = await db.query<{ id: number; definition: FlowDefinition; version: number }>(
    `select id::int as id, definition, version from flows where project_id = $1 and record_kind = 'item'
       and (id = $2 or ($2::bigint is null and is_active)) order by id limit 1`,
    [projectId, flowId],
  );
  const row = rows[0];
  if (!row) return null;
  const key = `${row.id}:${row.version}`;
  let machine = compiled.get(key);
  if (!machine) {
    machine = compileFlow(row.definition, row.id);
    if (compiled.size > 500) compiled.clear();
    compiled.set(key, machine);
  }
  return { flowId: row.id, definition: row.definition, machine };
}

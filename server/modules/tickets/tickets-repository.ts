import type { Queryable } from '#server/db/client.ts';
import { orderByClause, pageWindow, searchKeyword, type PageWindow, type SearchRequest } from '#server/lib/paging.ts';

export interface TicketRow {
  id: number;
  tenant_id: string;
  title: string;
  description: string;
  requester_id: string;
  created_by: string;
  priority_id: number;
  support_group_id: number;
  status_id: number;
  assignee_id: string | null;
  parent_ticket_id: number | null;
  answer: string | null;
  resolved_at: Date | null;
  closed_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface TicketListRow extends TicketRow {
  support_group_name: string;
  requester_name: string;
  requester_email: string;
  assignee_name: string | null;
}

const ticketColumns = `t.id, t.tenant_id, t.title, t.description, t.requester_id, t.created_by, t.priority_id,
  t.support_group_id, t.status_id, t.assignee_id, t.parent_ticket_id, t.answer, t.resolved_at, t.closed_at,
  t.version, t.created_at, t.updated_at`;

const listColumns = `${ticketColumns},
  g.name as support_group_name,
  trim(r.first_name || ' ' || r.last_name) as requester_name, r.email as requester_email,
  nullif(trim(coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, '')), '') as assignee_name`;

const listJoins = `join support_groups g on g.id = t.support_group_id
  join users r on r.id = t.requester_id
  left join users a on a.id = t.assignee_id`;

/** Whose tickets a search may return. */
export type TicketReach =
  | { kind: 'tenant'; tenantId: string }
  | { kind: 'groups'; tenantId: string; userId: string }
  | { kind: 'requester'; tenantId: string; userId: string }
  | { kind: 'raisedForOthers'; tenantId: string; userId: string };

export interface TicketFilters {
  statusId?: number | null;
  supportGroupId?: number | null;
  /** The requester (admin and desk searches may narrow to one person). */
  userId?: string | null;
  keyword?: string;
}

export const ticketOrderColumns = {
  ticketId: 't.id',
  createdOn: 't.created_at',
  lastModifiedOn: 't.updated_at',
  title: 't.title',
  priority: 't.priority_id',
  supportTicketPriorityId: 't.priority_id',
  status: 't.status_id',
  statusId: 't.status_id',
};

function whereClause(reach: TicketReach, filters: TicketFilters): { sql: string; params: unknown[] } {
  const params: unknown[] = [reach.tenantId];
  const where = ['t.tenant_id = $1'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (reach.kind === 'requester') add('t.requester_id = ?', reach.userId);
  if (reach.kind === 'raisedForOthers') add('t.created_by = ? and t.requester_id <> t.created_by', reach.userId);
  if (reach.kind === 'groups') {
    add('(t.support_group_id in (select group_id from support_group_members where user_id = ?) or t.assignee_id = ?)', reach.userId);
  }
  if (filters.statusId) add('t.status_id = ?', filters.statusId);
  if (filters.supportGroupId) add('t.support_group_id = ?', filters.supportGroupId);
  if (filters.userId) add('t.requester_id = ?', filters.userId);
  if (filters.keyword) {
    // "#123" or "123" finds the ticket by number; anything else is full-text over title and description.
    const id = /^#?(\d{1,15})$/.exec(filters.keyword)?.[1];
    if (id) add(`(t.id = (?::text)::bigint or t.search @@ websearch_to_tsquery('english', ?::text))`, id);
    else add(`t.search @@ websearch_to_tsquery('english', ?)`, filters.keyword);
  }
  return { sql: where.join(' and '), params };
}

/**
 * Whether the kept per-(group, status) counts answer this count exactly: a tenant-wide reach
 * filtered by status and/or group only (docs/decisions/0008).
 */
function countsAnswer(reach: TicketReach, filters: TicketFilters): boolean {
  return reach.kind === 'tenant' && !filters.keyword && !filters.userId;
}

/** The kept-counts condition; with `params` given, its values are appended there (one statement). */
function keptCountsWhere(reach: TicketReach, filters: TicketFilters, params: unknown[] = []): { sql: string; params: unknown[] } {
  const where = [`tenant_id = $${params.push(reach.tenantId)}`];
  if (filters.statusId) where.push(`status_id = $${params.push(filters.statusId)}`);
  if (filters.supportGroupId) where.push(`support_group_id = $${params.push(filters.supportGroupId)}`);
  return { sql: where.join(' and '), params };
}

/**
 * Totals of tenant-wide keyword searches, kept until the next committed ticket write. Every
 * write appends to support_ticket_count_deltas (edits too), and only compaction removes rows
 * while adding higher ids, so (row count, highest id) changes with every commit: a total is
 * served only while nothing it counted can have changed.
 */
const keywordTotals = new WeakMap<Queryable, Map<string, { version: string; total: number }>>();
const KEYWORD_TOTALS_KEPT = 500;

async function ticketsVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ n: number; m: number }>(`select count(*)::int as n, coalesce(max(id), 0) as m from support_ticket_count_deltas`);
  return `${rows[0].n}:${rows[0].m}`;
}

async function countTickets(db: Queryable, reach: TicketReach, filters: TicketFilters, sql: string, params: unknown[]): Promise<number> {
  if (countsAnswer(reach, filters)) {
    const kept = keptCountsWhere(reach, filters);
    const { rows } = await db.query<{ n: number }>(`select coalesce(sum(delta), 0)::int as n from support_ticket_count_deltas where ${kept.sql}`, kept.params, {
      prepare: true,
    });
    return rows[0].n;
  }
  const cacheable = reach.kind === 'tenant' && !!filters.keyword;
  let cache = cacheable ? keywordTotals.get(db) : undefined;
  if (cacheable && !cache) keywordTotals.set(db, (cache = new Map()));
  const key = JSON.stringify([reach.tenantId, filters.statusId ?? null, filters.supportGroupId ?? null, filters.userId ?? null, filters.keyword]);
  // Read before counting: a write committed meanwhile makes the stored version stale, never the total.
  const version = cache ? await ticketsVersion(db) : '';
  const hit = cache?.get(key);
  if (hit && hit.version === version) return hit.total;
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from support_tickets t where ${sql}`, params);
  if (cache) {
    cache.delete(key);
    cache.set(key, { version, total: rows[0].n });
    if (cache.size > KEYWORD_TOTALS_KEPT) cache.delete(cache.keys().next().value!);
  }
  return rows[0].n;
}

/**
 * Folds the appended count changes into one row per (tenant, group, status). One statement:
 * readers see the rows before or after, never a half, and changes appended meanwhile stay.
 */
export async function compactTicketCounts(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `with folded as (
       delete from support_ticket_count_deltas where id <= (select max(id) from support_ticket_count_deltas)
       returning tenant_id, support_group_id, status_id, delta
     ), kept as (
       insert into support_ticket_count_deltas (tenant_id, support_group_id, status_id, delta)
       select tenant_id, support_group_id, status_id, sum(delta) from folded group by 1, 2, 3 having sum(delta) <> 0
       returning 1
     )
     select (select count(*) from folded)::int as n`,
  );
  return rows[0].n;
}

export async function searchTickets(
  db: Queryable,
  reach: TicketReach,
  request: SearchRequest & { statusId?: number | null; supportGroupId?: number | null; userId?: string | null },
): Promise<{ rows: TicketListRow[]; total: number; window: PageWindow }> {
  const window = pageWindow(request);
  const filters: TicketFilters = {
    statusId: request.statusId,
    supportGroupId: request.supportGroupId,
    userId: request.userId,
    keyword: searchKeyword(request),
  };
  const { sql, params } = whereClause(reach, filters);
  const order = orderByClause(request.orderBy, ticketOrderColumns, 't.created_at desc', 't.id desc');
  // Limit and offset are parameters, so the text has few variants and stays prepared.
  const pageParams = [...params, window.limit, window.offset];
  const limits = `limit $${params.length + 1} offset $${params.length + 2}`;
  if (countsAnswer(reach, filters)) {
    // One round trip: the kept total rides along as a column (an InitPlan, computed once). An
    // empty page carries no total, so then it is asked for on its own.
    const kept = keptCountsWhere(reach, filters, pageParams);
    const { rows } = await db.query<TicketListRow & { total_count: number }>(
      `select ${listColumns}, (select coalesce(sum(delta), 0)::int from support_ticket_count_deltas where ${kept.sql}) as total_count
       from support_tickets t ${listJoins}
       where ${sql} order by ${order} ${limits}`,
      pageParams,
      { prepare: true },
    );
    const total = rows.length ? rows[0].total_count : await countTickets(db, reach, filters, sql, params);
    return { rows, total, window };
  }
  const [page, total] = await Promise.all([
    db.query<TicketListRow>(`select ${listColumns} from support_tickets t ${listJoins} where ${sql} order by ${order} ${limits}`, pageParams, {
      prepare: true,
    }),
    countTickets(db, reach, filters, sql, params),
  ]);
  return { rows: page.rows, total, window };
}

export async function countByStatus(db: Queryable, reach: TicketReach, filters: TicketFilters): Promise<Map<number, number>> {
  if (countsAnswer(reach, { ...filters, statusId: null })) {
    const kept = keptCountsWhere(reach, { ...filters, statusId: null });
    const { rows } = await db.query<{ status_id: number; n: number }>(
      `select status_id, sum(delta)::int as n from support_ticket_count_deltas where ${kept.sql} group by status_id having sum(delta) <> 0`,
      kept.params,
    );
    return new Map(rows.map((r) => [r.status_id, r.n]));
  }
  const { sql, params } = whereClause(reach, filters);
  const { rows } = await db.query<{ status_id: number; n: number }>(
    `select t.status_id, count(*)::int as n from support_tickets t where ${sql} group by t.status_id`,
    params,
  );
  return new Map(rows.map((r) => [r.status_id, r.n]));
}

export async function findTicket(db: Queryable, tenantId: string, id: number): Promise<TicketListRow | undefined> {
  const { rows } = await db.query<TicketListRow>(`select ${listColumns} from support_tickets t ${listJoins} where t.tenant_id = $1 and t.id = $2`, [
    tenantId,
    id,
  ]);
  return rows[0];
}

export async function isGroupMember(db: Queryable, groupId: number, userId: string): Promise<boolean> {
  const { rows } = await db.query(`select 1 from support_group_members where group_id = $1 and user_id = $2`, [groupId, userId]);
  return rows.length > 0;
}

export interface NewTicket {
  tenantId: string;
  title: string;
  description: string;
  requesterId: string;
  createdBy: string;
  priorityId: number;
  supportGroupId: number;
  parentTicketId: number | null;
  now: Date;
}

export async function insertTicket(db: Queryable, t: NewTicket): Promise<TicketRow> {
  const { rows } = await db.query<TicketRow>(
    `insert into support_tickets as t (tenant_id, title, description, requester_id, created_by, priority_id, support_group_id, parent_ticket_id, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
     returning ${ticketColumns}`,
    [t.tenantId, t.title, t.description, t.requesterId, t.createdBy, t.priorityId, t.supportGroupId, t.parentTicketId, t.now],
  );
  return rows[0];
}

export interface TicketChanges {
  status_id?: number;
  assignee_id?: string | null;
  support_group_id?: number;
  answer?: string | null;
  answer_reusable?: boolean;
  resolved_at?: Date | null;
  closed_at?: Date | null;
  title?: string;
  description?: string;
  priority_id?: number;
}

/**
 * The conditional update every change goes through: it applies only if the ticket still has
 * the status and version the caller decided on. `undefined` means someone else changed it first.
 */
export async function updateTicketIf(
  db: Queryable,
  id: number,
  expected: { statusId: number; version: number },
  changes: TicketChanges,
  now: Date,
): Promise<TicketRow | undefined> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const sets = entries.map(([column], index) => `${column} = $${index + 4}`);
  const { rows } = await db.query<TicketRow>(
    `update support_tickets as t set ${[...sets, `version = version + 1`, `updated_at = $${entries.length + 4}`].join(', ')}
     where id = $1 and status_id = $2 and version = $3
     returning ${ticketColumns}`,
    [id, expected.statusId, expected.version, ...entries.map(([, value]) => value), now],
  );
  return rows[0];
}

export interface HistoryEntry {
  ticketId: number;
  event: string;
  fromStatus: number | null;
  toStatus: number | null;
  actorId: string | null;
  actorKind: 'user' | 'system';
  reason?: string | null;
  details?: Record<string, unknown>;
  at: Date;
}

export async function insertHistory(db: Queryable, entry: HistoryEntry): Promise<void> {
  await db.query(
    `insert into support_ticket_history (ticket_id, event, from_status, to_status, actor_id, actor_kind, reason, details, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
    [
      entry.ticketId,
      entry.event,
      entry.fromStatus,
      entry.toStatus,
      entry.actorId,
      entry.actorKind,
      entry.reason ?? null,
      JSON.stringify(entry.details ?? {}),
      entry.at,
    ],
  );
}

export interface HistoryRow {
  id: number;
  event: string;
  from_status: number | null;
  to_status: number | null;
  actor_id: string | null;
  actor_kind: 'user' | 'system';
  actor_name: string | null;
  reason: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

export async function listHistory(db: Queryable, ticketId: number): Promise<HistoryRow[]> {
  const { rows } = await db.query<HistoryRow>(
    `select h.id, h.event, h.from_status, h.to_status, h.actor_id, h.actor_kind,
            nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as actor_name,
            h.reason, h.details, h.created_at
     from support_ticket_history h left join users u on u.id = h.actor_id
     where h.ticket_id = $1 order by h.id`,
    [ticketId],
  );
  return rows;
}

export async function childrenOf(
  db: Queryable,
  parentId: number,
): Promise<Array<{ id: number; status_id: number; support_group_id: number; support_group_name: string; title: string }>> {
  const { rows } = await db.query<{ id: number; status_id: number; support_group_id: number; support_group_name: string; title: string }>(
    `select t.id, t.status_id, t.support_group_id, g.name as support_group_name, t.title
     from support_tickets t join support_groups g on g.id = t.support_group_id
     where t.parent_ticket_id = $1 order by t.id`,
    [parentId],
  );
  return rows;
}

export interface DocumentRow {
  id: string;
  ticket_id: number;
  file_name: string;
  content_type: string;
  size_bytes: number;
  uploaded_by: string;
  uploaded_by_name: string | null;
  created_at: Date;
}

export async function listDocuments(db: Queryable, ticketId: number): Promise<DocumentRow[]> {
  const { rows } = await db.query<DocumentRow>(
    `select d.id, d.ticket_id, d.file_name, d.content_type, d.size_bytes, d.uploaded_by,
            nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as uploaded_by_name, d.created_at
     from support_ticket_documents d left join users u on u.id = d.uploaded_by
     where d.ticket_id = $1 order by d.created_at, d.id`,
    [ticketId],
  );
  return rows;
}

export async function countDocuments(db: Queryable, ticketId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from support_ticket_documents where ticket_id = $1`, [ticketId]);
  return rows[0].n;
}

export async function insertDocument(
  db: Queryable,
  doc: { ticketId: number; fileName: string; contentType: string; content: Buffer; uploadedBy: string; now: Date },
): Promise<DocumentRow> {
  const { rows } = await db.query<DocumentRow>(
    `insert into support_ticket_documents (ticket_id, file_name, content_type, size_bytes, content, uploaded_by, created_at)
     values ($1, $2, $3, $4, $5, $6, $7)
     returning id, ticket_id, file_name, content_type, size_bytes, uploaded_by, null::text as uploaded_by_name, created_at`,
    [doc.ticketId, doc.fileName, doc.contentType, doc.content.length, doc.content, doc.uploadedBy, doc.now],
  );
  return rows[0];
}

export async function findDocument(db: Queryable, tenantId: string, documentId: string): Promise<(DocumentRow & { content: Uint8Array }) | undefined> {
  const { rows } = await db.query<DocumentRow & { content: Uint8Array }>(
    `select d.id, d.ticket_id, d.file_name, d.content_type, d.size_bytes, d.uploaded_by, null::text as uploaded_by_name, d.created_at, d.content
     from support_ticket_documents d join support_tickets t on t.id = d.ticket_id
     where d.id = $1 and t.tenant_id = $2`,
    [documentId, tenantId],
  );
  return rows[0];
}

export async function deleteDocument(db: Queryable, documentId: string): Promise<void> {
  await db.query(`delete from support_ticket_documents where id = $1`, [documentId]);
}

export interface BotAnswerRow {
  id: string;
  ticket_id: number;
  source_ticket_id: number;
  answer: string;
  score: number;
  accepted_at: Date | null;
  created_at: Date;
}

export async function botAnswerFor(db: Queryable, ticketId: number): Promise<BotAnswerRow | undefined> {
  const { rows } = await db.query<BotAnswerRow>(
    `select id, ticket_id, source_ticket_id, answer, score, accepted_at, created_at
     from support_ticket_bot_answers where ticket_id = $1 order by score desc, created_at limit 1`,
    [ticketId],
  );
  return rows[0];
}

export async function findBotAnswer(db: Queryable, tenantId: string, botAnswerId: string): Promise<BotAnswerRow | undefined> {
  const { rows } = await db.query<BotAnswerRow>(
    `select b.id, b.ticket_id, b.source_ticket_id, b.answer, b.score, b.accepted_at, b.created_at
     from support_ticket_bot_answers b join support_tickets t on t.id = b.ticket_id
     where b.id = $1 and t.tenant_id = $2`,
    [botAnswerId, tenantId],
  );
  return rows[0];
}

export { pageWindow };

import type { RealtimeKind } from '#machines/realtime-protocol.ts';
import type { Queryable } from '#server/db/client.ts';

/** NOTIFY channel that wakes every instance when a row lands in `realtime_events` (payload: its id). */
export const EVENTS_CHANNEL = 'realtime';
/** NOTIFY channel of the database triggers: sessions revoked, tokens invalidated, permissions changed. */
export const CONTROL_CHANNEL = 'realtime_control';

export type { RealtimeKind };

export interface NewRealtimeEvent {
  tenantId: string;
  kind: RealtimeKind;
  /** Ticket events reach the ticket's audience. */
  ticketId?: number | null;
  /** User events reach this user only. */
  userId?: string | null;
  previousGroupId?: number | null;
  previousAssigneeId?: string | null;
  payload: Record<string, unknown>;
}

export interface RealtimeEventRow {
  id: number;
  tenant_id: string;
  kind: RealtimeKind;
  ticket_id: number | null;
  payload: Record<string, unknown>;
  created_at: Date;
}

/**
 * Appends one push to the log inside the caller's transaction and wakes every instance on
 * commit (SQL function realtime_append, one round trip). Its advisory lock (held until commit)
 * makes ids visible in commit order: a reader that has seen id N has seen every id below N, so
 * "after cursor N" never skips a late commit (docs/decisions/0050).
 */
export async function appendEvent(tx: Queryable, event: NewRealtimeEvent): Promise<number> {
  const { rows } = await tx.query<{ id: number }>('select realtime_append($1, $2, $3, $4, $5, $6, $7) as id', [
    event.tenantId,
    event.kind,
    event.ticketId ?? null,
    event.userId ?? null,
    event.previousGroupId ?? null,
    event.previousAssigneeId ?? null,
    JSON.stringify(event.payload),
  ]);
  return Number(rows[0].id);
}

/** The oldest event still kept (0: none); a cursor below it has missed pruned events. */
export async function oldestEventId(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number | null }>('select min(id) as id from realtime_events');
  return Number(rows[0]?.id ?? 0);
}

export const EVENT_RETENTION_DAYS = 7;

export async function latestEventId(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ id: number | null }>('select max(id) as id from realtime_events');
  return Number(rows[0]?.id ?? 0);
}

/** Who may receive an event: its user, the ticket's audience, the previous group's agents and assignee. */
const audienceOf = (ev: string) => `(
    select ${ev}.user_id as user_id where ${ev}.user_id is not null
    union select ta.user_id from ticket_audience(${ev}.ticket_id) ta where ${ev}.ticket_id is not null
    union select ga.user_id from group_agents(${ev}.previous_group_id) ga where ${ev}.previous_group_id is not null
    union select ${ev}.previous_assignee_id where ${ev}.previous_assignee_id is not null
  )`;

/**
 * The next events after `afterId` (at most `limit`), each with those of `userIds` allowed to
 * receive it — one query per batch for a whole instance, whatever its number of sockets.
 * Events nobody here may receive come back once with `user_id` null, so the caller can move on.
 */
export async function eventsWithLocalAudience(
  db: Queryable,
  afterId: number,
  userIds: readonly string[],
  limit: number,
): Promise<Array<RealtimeEventRow & { user_id: string | null }>> {
  const { rows } = await db.query<RealtimeEventRow & { user_id: string | null }>(
    `with ev as (select * from realtime_events where id > $1 order by id limit $2)
     select ev.id, ev.tenant_id, ev.kind, ev.ticket_id, ev.payload, ev.created_at, a.user_id
     from ev
     left join lateral (select x.user_id from ${audienceOf('ev')} x where x.user_id = any($3::uuid[])) a on true
     order by ev.id`,
    [afterId, limit, userIds],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), ticket_id: r.ticket_id === null ? null : Number(r.ticket_id) }));
}

/** The events one user may receive with `afterId < id <= untilId`, oldest first. */
export async function eventsForUser(
  db: Queryable,
  userId: string,
  tenantId: string,
  afterId: number,
  untilId: number,
  limit: number,
): Promise<RealtimeEventRow[]> {
  const { rows } = await db.query<RealtimeEventRow>(
    `select ev.id, ev.tenant_id, ev.kind, ev.ticket_id, ev.payload, ev.created_at
     from realtime_events ev
     where ev.id > $1 and ev.id <= $2 and ev.tenant_id = $3
       and exists (select 1 from ${audienceOf('ev')} x where x.user_id = $4)
     order by ev.id
     limit $5`,
    [afterId, untilId, tenantId, userId, limit],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), ticket_id: r.ticket_id === null ? null : Number(r.ticket_id) }));
}

/** Of `userIds`, those holding the role (a role's permissions changed). */
export async function usersWithRole(db: Queryable, roleId: string, userIds: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>('select user_id from user_roles where role_id = $1 and user_id = any($2::uuid[])', [roleId, userIds]);
  return rows.map((r) => r.user_id);
}

/** Drops pushes older than the retention; a client further behind is told to reload (`resync`). */
export async function pruneEvents(db: Queryable, before: Date): Promise<number> {
  // The newest event always stays: it tells a returning client how far the log went.
  const { rowCount } = await db.query('delete from realtime_events where created_at < $1 and id < (select max(id) from realtime_events)', [before]);
  return rowCount;
}

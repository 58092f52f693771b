import { createHash } from 'node:crypto';
import {
  deadlineOf,
  decideDelivery,
  remainingAt,
  type DeliveryActor,
  type DeliveryClock,
  type DeliveryEvent,
  type DeliveryStatus,
} from '#machines/delivery.machine.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, badRequest, conflict, forbidden } from '#server/lib/errors.ts';
import { createResultForDelivery } from '#server/modules/results/results-service.ts';
import type { Timing } from './delivery-schemas.ts';

/**
 * The server side of a delivery (docs/decisions/0240–0242). Every change goes through the
 * delivery machine: the row is locked, the machine restored from it, the event stamped with
 * the server's clock, and the row and history written in the same transaction.
 *
 * Season papers are scheduled in the centers' local time; the product's centers are in India,
 * so a start of 10:00 is 10:00 IST (UTC+05:30, docs/decisions/0241).
 */
export const CENTER_UTC_OFFSET_MINUTES = 330;

export interface DeliveryRow {
  id: number;
  tenantId: string;
  projectId: number;
  registrationId: number;
  seasonPaperId: number;
  candidateId: string;
  centerId: number | null;
  paperId: number;
  examId: number;
  setLetter: string;
  status: DeliveryStatus;
  startsAt: Date;
  allowedMs: number;
  extensionMs: number;
  usedMs: number;
  activeSince: Date | null;
  admitted: boolean;
  declaredAt: Date | null;
  endedAt: Date | null;
  lastEventAt: Date;
  version: number;
  durationMinutes: number;
  paperVersion: number;
  /** Null only if the set was removed after the delivery opened. */
  setHash: string | null;
}

/** The delivery's own columns, as `DeliveryRow` names them (also what an update returns). */
const deliveryColumns = `d.id::int as id, d.tenant_id as "tenantId", d.project_id::int as "projectId", d.registration_id::int as "registrationId",
  d.season_paper_id::int as "seasonPaperId", d.candidate_id as "candidateId", d.center_id::int as "centerId", d.paper_id::int as "paperId",
  d.set_letter as "setLetter", d.status, d.starts_at as "startsAt", d.allowed_ms::float8 as "allowedMs",
  d.extension_ms::float8 as "extensionMs", d.used_ms::float8 as "usedMs", d.active_since as "activeSince", d.admitted, d.declared_at as "declaredAt",
  d.ended_at as "endedAt", d.last_event_at as "lastEventAt", d.version`;

/**
 * A delivery with what names its paper's content exactly: the set's hash, the paper's version
 * and the scheduled duration. The candidate's content is cached by these (content-cache.ts).
 * `source` is the table, or a CTE of its rows (an insert's `returning *`).
 */
export const deliveryRowFrom = (source: string) => `select ${deliveryColumns}, sp.exam_id::int as "examId", sp.duration_minutes as "durationMinutes",
  p.version as "paperVersion", ps.sha256 as "setHash"
  from ${source} d join season_papers sp on sp.id = d.season_paper_id join papers p on p.id = d.paper_id
  left join paper_sets ps on ps.paper_id = d.paper_id and ps.letter = d.set_letter`;
export const deliverySelect = deliveryRowFrom('deliveries');

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function clockOf(row: DeliveryRow): DeliveryClock {
  return {
    startsAt: iso(row.startsAt)!,
    allowedMs: Number(row.allowedMs),
    extensionMs: Number(row.extensionMs),
    usedMs: Number(row.usedMs),
    activeSince: iso(row.activeSince),
    admitted: row.admitted,
    lastAt: iso(row.lastEventAt)!,
  };
}

export function timingOf(row: DeliveryRow, now: Date): Timing {
  const clock = clockOf(row);
  const at = new Date(Math.max(now.getTime(), Date.parse(clock.lastAt))).toISOString();
  const finished = row.status === 'Submitted' || row.status === 'TimeUp' || row.status === 'Terminated';
  return {
    status: row.status,
    serverNow: now.toISOString(),
    startsAt: clock.startsAt,
    deadline: row.status === 'Active' ? deadlineOf(clock) : null,
    remainingMs: finished ? 0 : Math.round(remainingAt(clock, at)),
    allowedMs: clock.allowedMs,
    extensionMs: clock.extensionMs,
    admitted: row.admitted,
    declared: row.declaredAt !== null,
    endedAt: iso(row.endedAt),
  };
}

export async function lockDelivery(tx: Queryable, id: number): Promise<DeliveryRow | undefined> {
  const { rows } = await tx.query<DeliveryRow>(`${deliverySelect} where d.id = $1 for update of d`, [id]);
  return rows[0];
}

export async function readDelivery(db: Queryable, id: number): Promise<DeliveryRow | undefined> {
  const { rows } = await db.query<DeliveryRow>(`${deliverySelect} where d.id = $1`, [id]);
  return rows[0];
}

const refusal: Record<'status' | 'role' | 'fields' | 'time', (from: DeliveryStatus, type: string) => AppError> = {
  status: (from, type) => conflict(`This delivery is ${from}: ${type.replace('delivery.', '')} is not possible now.`, { currentStatus: from }),
  role: () => forbidden('You are not allowed to do this to this delivery.'),
  fields: (_from, type) =>
    badRequest(type === 'delivery.extend' ? 'Give the minutes (1–240) and a reason for the extension.' : 'Give a reason: it is kept in the history.'),
  time: (from, type) =>
    conflict(
      type === 'delivery.start'
        ? 'The paper has not started yet: wait for the start time or for the invigilator to admit you.'
        : type === 'delivery.admit'
          ? 'Admitting early is possible only before the start time, once.'
          : 'No time is left on this delivery.',
      { currentStatus: from },
    ),
};

/**
 * Applies one event to a locked delivery row: asks the machine, writes the row and its
 * history. Throws the refusal (409 / 403 / 400) when the machine does not take it.
 */
export async function applyDeliveryEvent(
  tx: Queryable,
  row: DeliveryRow,
  event: DeliveryEvent,
  actorId: string | null,
  extra: DeliveryEventExtra = {},
): Promise<DeliveryRow> {
  const applied = await applyDeliveryEventUnlessStale(tx, row, event, actorId, extra);
  if (!applied) throw conflict('The delivery changed meanwhile: reload and try again.');
  return applied;
}

type DeliveryEventExtra = { reason?: string | null; details?: Record<string, unknown>; declare?: boolean };

/**
 * The same on a row read without a lock: the update is versioned, so it takes only if nothing
 * changed the delivery since the read, and answers null otherwise (the caller reads again, under
 * a lock). The candidate's start takes this path: 2,000 starts within 10 s (the delivery bench)
 * cost two statements each instead of a transaction's four.
 */
export async function applyDeliveryEventUnlessStale(
  tx: Queryable,
  row: DeliveryRow,
  event: DeliveryEvent,
  actorId: string | null,
  extra: DeliveryEventExtra = {},
): Promise<DeliveryRow | null> {
  const decision = decideDelivery(row.status, clockOf(row), event);
  if (!decision.accepted) throw refusal[decision.reason](decision.from, event.type);
  const c = decision.clock;
  const to = decision.to;
  const ends = to === 'Submitted' || to === 'TimeUp' || to === 'Terminated';
  const deadline = to === 'Active' ? deadlineOf(c) : null;
  // The row and its history line in one statement (one round trip): the history is written
  // only when the versioned update took.
  const { rows } = await tx.query<DeliveryRow>(
    `with u as (
       update deliveries d set status = $2, extension_ms = $3, used_ms = $4, active_since = $5, deadline_at = $6, admitted = $7, last_event_at = $8,
         started_at = case when $9 then coalesce(started_at, $8) else started_at end,
         declared_at = case when $10 then coalesce(declared_at, $8) else declared_at end,
         ended_at = case when $11 then $8 else ended_at end, version = version + 1
       where id = $1 and version = $12 returning ${deliveryColumns}),
     h as (
       insert into delivery_history (delivery_id, event, from_status, to_status, actor_id, reason, details, created_at)
       select id, $13::text, $14::text, $2, $15::uuid, $16::text, $17::jsonb, $8::timestamptz from u)
     select * from u`,
    [
      row.id,
      to,
      c.extensionMs,
      Math.round(c.usedMs),
      c.activeSince,
      deadline,
      c.admitted,
      event.at,
      event.type === 'delivery.start',
      extra.declare === true,
      ends,
      row.version,
      event.type,
      row.status,
      actorId,
      extra.reason?.trim() || null,
      JSON.stringify(extra.details ?? {}),
    ],
  );
  if (!rows[0]) return null;
  // Issue 20: a submitted (or timed-out) delivery is scored in the same transaction (docs/decisions/0250).
  if (to === 'Submitted' || to === 'TimeUp') await createResultForDelivery(tx, row.id, event.at);
  // The paper's side of the row (exam, duration, set) is what the event did not touch.
  return { ...row, ...rows[0] };
}

/**
 * An Active delivery whose time ran out is TimeUp from its deadline on, whoever looks first:
 * the expiry job, or a request about it. The end is recorded at the deadline, not when noticed.
 */
export async function settleExpiry(tx: Queryable, row: DeliveryRow, now: Date): Promise<DeliveryRow> {
  if (row.status !== 'Active') return row;
  const deadline = deadlineOf(clockOf(row))!;
  if (Date.parse(deadline) > now.getTime()) return row;
  return applyDeliveryEvent(tx, row, { type: 'delivery.timeUp', by: { system: true }, at: deadline }, null, { details: { autoSubmitted: true } });
}

/** The expiry job: auto-submits (TimeUp) every Active delivery past its deadline, browser open or not. */
export async function expireDeliveries(db: Db, clock: Clock, limit = 500, onExpired: (row: DeliveryRow) => void = () => {}): Promise<{ expired: number }> {
  const now = clock.now();
  const { rows } = await db.query<{ id: number }>(
    `select id::int as id from deliveries where status = 'Active' and deadline_at <= $1 order by deadline_at limit ${limit}`,
    [now],
  );
  let expired = 0;
  for (const { id } of rows) {
    const ended = await db.transaction(async (tx) => {
      const row = await lockDelivery(tx, id);
      if (!row) return null;
      const after = await settleExpiry(tx, row, now);
      return after.status === 'TimeUp' && row.status !== 'TimeUp' ? after : null;
    });
    if (ended) {
      expired++;
      onExpired(ended);
    }
  }
  return { expired };
}

/** The event time: the server's clock, never before the delivery's last event. */
export function eventTime(row: DeliveryRow, now: Date): string {
  return new Date(Math.max(now.getTime(), new Date(row.lastEventAt).getTime())).toISOString();
}

/** A candidate's set among the live letters: per candidate or per center, stable for the same input. */
export function pickSet(letters: readonly string[], assignment: string, registrationId: number, centerId: number | null): string {
  const sorted = [...letters].sort();
  const key = assignment === 'perCenter' ? `center:${centerId ?? 0}` : `registration:${registrationId}`;
  const n = createHash('sha256').update(key).digest().readUInt32BE(0);
  return sorted[n % sorted.length];
}

/** 10:00 on 2027-03-10 at the centers → the instant. */
export function scheduledStart(sitsOn: string, startsAtMinute: number): Date {
  return new Date(Date.parse(`${sitsOn}T00:00:00Z`) + (startsAtMinute - CENTER_UTC_OFFSET_MINUTES) * 60_000);
}

export interface SaveInput {
  saveId: string;
  itemNumber: number;
  sequence: number;
  response: unknown;
  marked: boolean;
}
export interface SaveResult {
  saveId: string;
  itemNumber: number;
  applied: boolean;
  storedSequence: number;
}

/**
 * Stores a batch of saves on a locked Active delivery. A save id seen before answers as it did
 * the first time and changes nothing; otherwise the answer row is written only when the save's
 * sequence is above the stored one, so the highest sequence wins whatever the arrival order.
 */
export async function storeSaves(tx: Queryable, deliveryId: number, saves: readonly SaveInput[], now: Date): Promise<SaveResult[]> {
  const results: SaveResult[] = [];
  for (const save of saves) {
    // One statement per save (autosave is the hot path): a save id seen before changes nothing
    // and answers as it did; otherwise the answer is written only above the stored sequence,
    // and the save id is recorded with whether it was applied. `stored` reads the statement's
    // snapshot, which is the answer row whenever this save did not write it.
    const { rows } = await tx.query<{ seenApplied: boolean | null; seenItem: number | null; written: number | null; stored: number | null }>(
      `with seen as (select applied, item_number from delivery_saves where delivery_id = $1 and save_id = $4),
            w as (
              insert into delivery_answers (delivery_id, item_number, sequence, save_id, response, marked, saved_at)
              select $1::bigint, $2::int, $3::int, $4::uuid, $5::jsonb, $6::boolean, $7::timestamptz where not exists (select 1 from seen)
              on conflict (delivery_id, item_number) do update set sequence = excluded.sequence, save_id = excluded.save_id, response = excluded.response,
                marked = excluded.marked, saved_at = excluded.saved_at
              where delivery_answers.sequence < excluded.sequence
              returning sequence),
            s as (
              insert into delivery_saves (delivery_id, save_id, item_number, sequence, applied, received_at)
              select $1::bigint, $4::uuid, $2::int, $3::int, exists (select 1 from w), $7::timestamptz where not exists (select 1 from seen))
       select (select applied from seen) as "seenApplied", (select item_number from seen) as "seenItem", (select sequence from w) as written,
              (select a.sequence from delivery_answers a where a.delivery_id = $1 and a.item_number = coalesce((select item_number from seen), $2)) as stored`,
      [deliveryId, save.itemNumber, save.sequence, save.saveId, JSON.stringify(save.response ?? null), save.marked, now],
      { prepare: true },
    );
    const r = rows[0];
    if (r.seenItem !== null) {
      results.push({ saveId: save.saveId, itemNumber: r.seenItem, applied: r.seenApplied === true, storedSequence: r.stored ?? 0 });
      continue;
    }
    const applied = r.written !== null;
    results.push({ saveId: save.saveId, itemNumber: save.itemNumber, applied, storedSequence: applied ? save.sequence : (r.stored ?? 0) });
  }
  return results;
}

export async function answeredCount(db: Queryable, deliveryId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from delivery_answers where delivery_id = $1 and response is not null and response <> 'null'::jsonb`,
    [deliveryId],
  );
  return rows[0].n;
}

export function actorParty(by: DeliveryActor): string {
  return Object.keys(by).join(',');
}

import type { Queryable } from '#server/db/client.ts';

/**
 * Seats (docs/decisions/0153). A seat is taken by one conditional update of the season center:
 * `allocated < seats` is checked on the row as it is when the update gets its lock, so however
 * many allocations race, a center never holds more than its seats (and the table's check
 * `allocated between 0 and seats` would refuse it if code ever tried). The same update hands out
 * the next roll sequence of that center; sequences only grow, so a roll number is never reused.
 */
export async function takeSeat(db: Queryable, seasonId: number, centerId: number): Promise<number | null> {
  const { rows } = await db.query<{ seq: number }>(
    `update season_centers set allocated = allocated + 1, last_seq = last_seq + 1, updated_at = now()
     where season_id = $1 and center_id = $2 and allocated < seats
     returning last_seq as seq`,
    [seasonId, centerId],
  );
  return rows[0]?.seq ?? null;
}

export async function releaseSeat(db: Queryable, seasonId: number, centerId: number): Promise<void> {
  await db.query(`update season_centers set allocated = allocated - 1, updated_at = now() where season_id = $1 and center_id = $2 and allocated > 0`, [
    seasonId,
    centerId,
  ]);
}

export interface CenterChoice {
  centerId: number;
  code: string;
  city: string;
  free: number;
}

/**
 * The centers an automatic allocation tries, best first: active centers of the season with free
 * seats (CBT-capable ones only when a paper is online), the candidate's preferred city first,
 * then the most free seats. The caller tries them in order: a center filled meanwhile just
 * fails its conditional update and the next is tried.
 */
export async function centerChoices(db: Queryable, seasonId: number, preferredCity: string, needsCbt: boolean): Promise<CenterChoice[]> {
  const { rows } = await db.query<CenterChoice>(
    `select c.id::int as "centerId", c.code, c.city, (sc.seats - sc.allocated)::int as free
     from season_centers sc join exam_centers c on c.id = sc.center_id
     where sc.season_id = $1 and sc.allocated < sc.seats and c.is_active and (not $3::boolean or c.cbt_capable)
     order by (lower(c.city) = lower($2)) desc, sc.seats - sc.allocated desc, c.id`,
    [seasonId, preferredCity, needsCbt],
  );
  return rows;
}

/** `{season}{center}{seq:5}` → `MAR27AHM00042`. */
export function rollNumber(pattern: string, parts: { season: string; center: string; seq: number }): string {
  return pattern
    .replaceAll('{season}', parts.season.toUpperCase())
    .replaceAll('{center}', parts.center.toUpperCase())
    .replace(/\{seq:([1-9])\}/g, (_m, width: string) => String(parts.seq).padStart(Number(width), '0'));
}

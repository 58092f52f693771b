import type { Db } from '#server/db/client.ts';
import { conflict } from '#server/lib/errors.ts';
import { isUniqueViolation } from '#server/modules/exams/workspace-access.ts';
import { rollNumber } from './allocation.ts';

/**
 * "Allocate the whole season" (POST /v1/season/{id}/allocate) set-based (docs/decisions/0234):
 * the same rule as one automatic allocation (decision 0153: preferred city first, then the most
 * free seats, CBT-capable centers for online papers), decided in memory for a chunk of approved
 * registrations and written with one statement per table. The season's center rows are locked
 * (FOR UPDATE) for the chunk's transaction, so a single allocation racing it waits and then sees
 * the seats taken: a center is still never filled beyond its seats (and the table's check would
 * refuse it). Registrations changed meanwhile (status or version) are skipped and their seat is
 * not counted; sequences handed out for them are skipped too, so no roll number is reused.
 */
const CHUNK = 5_000;

interface Center {
  centerId: number;
  code: string;
  city: string;
  cbt: boolean;
  free: number;
  lastSeq: number;
  taken: number;
  seqUsed: number;
}

export async function allocateSeason(db: Db, seasonId: number, userId: string): Promise<{ allocated: number; unplaced: number }> {
  let allocated = 0;
  let unplaced = 0;
  let after = 0;
  for (;;) {
    const outcome = await db
      .transaction(async (tx) => {
        const { rows: season } = await tx.query<{ code: string; rollPattern: string }>(
          `select code, roll_pattern as "rollPattern" from seasons where id = $1`,
          [seasonId],
        );
        if (!season[0]) return null;
        const { rows: onlinePapers } = await tx.query<{ id: number }>(`select id::int as id from season_papers where season_id = $1 and mode = 'online'`, [
          seasonId,
        ]);
        const online = new Set(onlinePapers.map((p) => p.id));
        const { rows: found } = await tx.query<{ id: number; city: string; version: number; papers: number[] }>(
          `select r.id::int as id, lower(r.preferred_city) as city, r.version, r.season_paper_ids::int[] as papers
           from registrations r where r.season_id = $1 and r.status = 'Approved' and r.id > $2 order by r.id limit ${CHUNK}`,
          [seasonId, after],
        );
        if (!found.length) return null;
        const regs = found.map((r) => ({ ...r, online: online.size > 0 && r.papers.some((id) => online.has(id)) }));
        const { rows: centerRows } = await tx.query<{ centerId: number; code: string; city: string; cbt: boolean; free: number; lastSeq: number }>(
          `select sc.center_id::int as "centerId", c.code, lower(c.city) as city, c.cbt_capable as cbt, (sc.seats - sc.allocated)::int as free, sc.last_seq as "lastSeq"
         from season_centers sc join exam_centers c on c.id = sc.center_id
         where sc.season_id = $1 and c.is_active order by sc.center_id for update of sc`,
          [seasonId],
        );
        const centers: Center[] = centerRows.map((c) => ({ ...c, taken: 0, seqUsed: 0 }));
        const byCity = new Map<string, Center[]>();
        for (const c of centers) byCity.set(c.city, [...(byCity.get(c.city) ?? []), c]);
        const best = (list: Center[] | undefined, online: boolean) => {
          let choice: Center | undefined;
          for (const c of list ?? [])
            if (c.free > 0 && (!online || c.cbt) && (!choice || c.free > choice.free || (c.free === choice.free && c.centerId < choice.centerId))) choice = c;
          return choice;
        };
        const ids: number[] = [];
        const versions: number[] = [];
        const centerIds: number[] = [];
        const seats: number[] = [];
        const rolls: string[] = [];
        let missed = 0;
        for (const r of regs) {
          const c = best(byCity.get(r.city), r.online) ?? best(centers, r.online);
          if (!c) {
            missed += 1;
            continue;
          }
          c.free -= 1;
          c.seqUsed += 1;
          const seq = c.lastSeq + c.seqUsed;
          ids.push(r.id);
          versions.push(r.version);
          centerIds.push(c.centerId);
          seats.push(seq);
          rolls.push(rollNumber(season[0].rollPattern, { season: season[0].code, center: c.code, seq }));
        }
        const { rows: done } = await tx.query<{ id: number; centerId: number; rollNumber: string }>(
          `update registrations r set status = 'Allocated', center_id = t.center, seat_number = t.seat, roll_number = t.roll, version = r.version + 1,
                updated_by = $6, updated_at = now()
         from unnest($1::bigint[], $2::int[], $3::bigint[], $4::int[], $5::text[]) as t(id, version, center, seat, roll)
         where r.id = t.id and r.status = 'Approved' and r.version = t.version
         returning r.id::int as id, r.center_id::int as "centerId", r.roll_number as "rollNumber"`,
          [ids, versions, centerIds, seats, rolls, userId],
        );
        const counts = new Map<number, number>();
        for (const d of done) counts.set(d.centerId, (counts.get(d.centerId) ?? 0) + 1);
        const used = centers.filter((c) => c.seqUsed > 0);
        if (used.length) {
          await tx.query(
            `update season_centers sc set allocated = sc.allocated + t.n, last_seq = sc.last_seq + t.used, updated_at = now()
           from unnest($2::bigint[], $3::int[], $4::int[]) as t(center, n, used) where sc.season_id = $1 and sc.center_id = t.center`,
            [seasonId, used.map((c) => c.centerId), used.map((c) => counts.get(c.centerId) ?? 0), used.map((c) => c.seqUsed)],
          );
        }
        if (done.length) {
          await tx.query(
            `insert into registration_history (registration_id, event, from_status, to_status, actor_id, details)
           select t.id, 'registration.allocate', 'Approved', 'Allocated', $1, json_build_object('centerId', t.center, 'seasonAllocation', true)
           from unnest($2::bigint[], $3::bigint[]) as t(id, center)`,
            [userId, done.map((d) => d.id), done.map((d) => d.centerId)],
          );
        }
        return { last: regs[regs.length - 1].id, allocated: done.length, unplaced: missed + (ids.length - done.length) };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw conflict('A roll number this allocation would give is taken; change the season’s roll pattern.');
        throw error;
      });
    if (!outcome) break;
    after = outcome.last;
    allocated += outcome.allocated;
    unplaced += outcome.unplaced;
  }
  return { allocated, unplaced };
}

import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as } from '#tests/setup/test-users.ts';
import { createCenter, createSeason, projectCall, seasonWorld, type SeasonWorld } from './seasons-kit.ts';

/**
 * Issue 18's race: 500 allocation requests at once, over real HTTP, into 3 centers with 300 seats
 * in total. Exactly 300 are seated, no center holds more than its seats, every roll number is
 * unique, and the other 200 answer 409 (no seat), never a 5xx.
 */
describeEachDatabase('allocation race', (get) => {
  let world: SeasonWorld;
  let seasonId: number;
  let centers: number[];
  let ids: number[];
  beforeAll(async () => {
    const { app, db } = get();
    world = await seasonWorld(app, db);
    const season = await createSeason(app, world, {
      registrationOpensAt: new Date(Date.now() - 86_400_000).toISOString(),
      registrationClosesAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    seasonId = season.seasonId;
    const scheduled = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${seasonId}/paper`, {
      paperId: world.lockedPaperId,
      sitsOn: '2027-03-10',
      startsAt: '10:00',
      mode: 'offline',
    });
    const seasonPaperId = (scheduled.json() as { record: { seasonPaperId: number } }).record.seasonPaperId;
    centers = [];
    for (const [city, seats] of [
      ['Ahmedabad', 120],
      ['Surat', 100],
      ['Rajkot', 80],
    ] as const) {
      const center = await createCenter(app, world.manager, { city, capacity: 200 });
      centers.push(center.centerId);
      const res = await projectCall(app, world, world.manager, 'PUT', `/api/v1/season/${seasonId}/center`, { centerId: center.centerId, seats });
      expect(res.statusCode).toBe(200);
    }
    // 500 candidates and their approved registrations, written straight in the tables (the
    // registration API has its own tests); preferred cities spread over the three.
    const { rows } = await db.query<{ id: number }>(
      `with candidates as (
         insert into users (tenant_id, first_name, last_name, email, user_name, login_type, is_active, email_confirmed, is_first_time_login, user_type)
         select 'root', 'Race', 'Candidate ' || n, 'race-' || $1::text || '-' || n || '@example.test', 'race-' || $1::text || '-' || n, 'local', true, true, false, 'candidate'
         from generate_series(1, 500) as n
         returning id, user_name)
       insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, status)
       select 'root', $2, $3, $4, c.id, array[$5::bigint], 'en', (array['Ahmedabad', 'Surat', 'Rajkot'])[1 + (row_number() over (order by c.user_name)) % 3], 'Approved'
       from candidates c
       returning id::int as id`,
      [`${seasonId}-${get().kind}`, world.projectId, seasonId, world.examId, seasonPaperId],
    );
    ids = rows.map((r) => r.id);
    expect(ids).toHaveLength(500);
  });

  it('should seat exactly 300 of 500 concurrent allocations and never over-fill a center', async () => {
    const { app, db } = get();
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { ...as(world.manager), ProjectId: String(world.projectId), 'content-type': 'application/json' };
    const started = performance.now();
    const statuses = await Promise.all(
      ids.map(async (id) => {
        const res = await fetch(`${base}/api/v1/registration/${id}/allocate`, { method: 'POST', headers, body: '{}' });
        const body = (await res.json()) as { reason?: string };
        return res.status === 409 ? `409 ${body.reason}` : String(res.status);
      }),
    );
    const elapsed = performance.now() - started;
    const counts = statuses.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
    console.log(`allocation race [${get().kind}]: 500 requests in ${Math.round(elapsed)} ms`, counts);
    expect(counts).toEqual({ '200': 300, '409 noSeat': 200 });

    const { rows: seats } = await db.query<{ centerId: number; seats: number; allocated: number; held: number }>(
      `select sc.center_id::int as "centerId", sc.seats, sc.allocated,
              (select count(*)::int from registrations r where r.season_id = sc.season_id and r.center_id = sc.center_id) as held
       from season_centers sc where sc.season_id = $1 order by sc.center_id`,
      [seasonId],
    );
    expect(seats.map((s) => [s.seats, s.allocated, s.held])).toEqual([
      [120, 120, 120],
      [100, 100, 100],
      [80, 80, 80],
    ]);
    const { rows: rolls } = await db.query<{ n: number; distinct: number }>(
      `select count(*)::int as n, count(distinct roll_number)::int as distinct from registrations where season_id = $1 and status = 'Allocated'`,
      [seasonId],
    );
    expect(rolls[0]).toEqual({ n: 300, distinct: 300 });
  }, 180_000);
});

/**
 * Seat allocation and admit cards (issue 18, docs/decisions/0232, 0234), on an in-process server
 * (PGlite):
 *
 * 1. Allocation: 50,000 approved registrations of one season into 200 centers (10 cities,
 *    260 seats each), POST /api/v1/season/{id}/allocate — budget ≤ 30 s. Checked afterwards: every
 *    registration seated, no center above its seats, 50,000 distinct roll numbers.
 * 2. Admit card PDF: one card rendered (HTML, QR code, headless Chromium) — budget ≤ 300 ms each
 *    (median of 10 warm renders).
 * 3. A batch job issuing 1,000 admit cards (issue, render, store, mail per card): the rate.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '#server/app.ts';
import { openDb, type Db } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import type { Job } from '#server/lib/jobs.ts';
import { PdfPrinter } from '#server/modules/papers/paper-print.ts';
import { admitCardFor, ADMIT_CARD_BATCH_JOB, queueBatch, renderAdmitCard, runAdmitCardBatch } from '#server/modules/seasons/admit-cards.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { testConfig } from '#tests/setup/test-app.ts';
import { createSeason, projectCall, seasonWorld, type SeasonWorld } from '#tests/server/seasons/seasons-kit.ts';

const ALLOCATION_BUDGET_MS = 30_000;
const CARD_BUDGET_MS = 300;
const CANDIDATES = 50_000;
const CENTERS = 200;
const SEATS = 260;
const CITIES = ['Ahmedabad', 'Surat', 'Vadodara', 'Rajkot', 'Bhavnagar', 'Jamnagar', 'Junagadh', 'Gandhinagar', 'Anand', 'Bharuch'];
const BATCH = 1_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A season in RegistrationOpen with the locked paper scheduled, `centers` centers of `seats` seats and `count` approved registrations. */
async function fillSeason(app: Awaited<ReturnType<typeof buildApp>>, db: Db, world: SeasonWorld, tag: string, centers: number, seats: number, count: number) {
  const season = await createSeason(app, world, {
    code: `B${tag}`,
    registrationOpensAt: new Date(Date.now() - 86_400_000).toISOString(),
    registrationClosesAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  });
  const scheduled = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/paper`, {
    paperId: world.lockedPaperId,
    sitsOn: '2027-03-10',
    startsAt: '10:00',
    mode: 'offline',
  });
  if (scheduled.statusCode !== 201) throw new Error(`schedule ${scheduled.statusCode}: ${scheduled.body}`);
  const seasonPaperId = (scheduled.json() as { record: { seasonPaperId: number } }).record.seasonPaperId;
  const { rows: tenant } = await db.query<{ tenantId: string }>(`select tenant_id as "tenantId" from projects where id = $1`, [world.projectId]);
  const tenantId = tenant[0].tenantId;
  await db.query(
    `insert into exam_centers (tenant_id, code, name, address, city, state, capacity, cbt_capable)
     select $1, $2 || '-' || lpad(g::text, 3, '0'), 'Bench school ' || g, g || ' Main Road', ($3::text[])[1 + g % array_length($3::text[], 1)], 'Gujarat', $4, false
     from generate_series(1, $5) g`,
    [tenantId, `C${tag}`, CITIES, seats, centers],
  );
  await db.query(`insert into season_centers (season_id, center_id, seats) select $1, id, $3 from exam_centers where tenant_id = $2 and code like $4`, [
    season.seasonId,
    tenantId,
    seats,
    `C${tag}-%`,
  ]);
  await db.query(
    `insert into users (tenant_id, first_name, last_name, email, user_name)
     select $1, 'Candidate', $2 || g, 'bench-' || $2 || '-' || g || '@example.org', 'bench-' || $2 || '-' || g from generate_series(1, $3) g`,
    [tenantId, tag, count],
  );
  await db.query(
    `insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, status)
     select $1, $2, $3, $4, u.id, array[$5::bigint], case when row_number() over () % 3 = 0 then 'hi' else 'en' end,
            ($6::text[])[1 + (row_number() over ())::int % array_length($6::text[], 1)], 'Approved'
     from users u where u.tenant_id = $1 and u.email like $7`,
    [tenantId, world.projectId, season.seasonId, world.examId, seasonPaperId, CITIES, `bench-${tag}-%`],
  );
  const opened = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/status`, { event: 'season.openRegistration' });
  if (opened.statusCode !== 200) throw new Error(`open ${opened.statusCode}: ${opened.body}`);
  return { seasonId: season.seasonId, tenantId };
}

export async function benchAllocation() {
  console.log(
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-allocation-'));
  const db = await openDb({ dataDir: path.join(dir, 'db') });
  await migrate(db);
  await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
  const app = await buildApp({ config: testConfig(dir), db, logger: false, runJobs: false });
  await app.ready();
  const printer = new PdfPrinter();
  let failed = false;
  try {
    const world = await seasonWorld(app, db);
    const big = await fillSeason(app, db, world, 'A', CENTERS, SEATS, CANDIDATES);
    const started = performance.now();
    const res = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${big.seasonId}/allocate`);
    const elapsed = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`allocate ${res.statusCode}: ${res.body}`);
    const answer = res.json() as { allocated: number; unplaced: number };
    const { rows: check } = await db.query<{ over: number; rolls: number; seated: number }>(
      `select (select count(*)::int from season_centers where season_id = $1 and allocated > seats) as over,
              (select count(distinct roll_number)::int from registrations where season_id = $1) as rolls,
              (select count(*)::int from registrations where season_id = $1 and status = 'Allocated') as seated`,
      [big.seasonId],
    );
    const ok = answer.allocated === CANDIDATES && check[0].over === 0 && check[0].rolls === CANDIDATES && check[0].seated === CANDIDATES;
    console.log(
      `allocation: ${CANDIDATES.toLocaleString('en')} approved registrations into ${CENTERS} centers (${CITIES.length} cities): ${(elapsed / 1000).toFixed(1)} s ` +
        `(${Math.round(CANDIDATES / (elapsed / 1000)).toLocaleString('en')} per second); ${answer.allocated} seated, ${answer.unplaced} unplaced, ` +
        `${check[0].over} centers over their seats, ${check[0].rolls} distinct roll numbers  ${elapsed <= ALLOCATION_BUDGET_MS && ok ? `✓ under ${ALLOCATION_BUDGET_MS / 1000} s` : `✗ budget ${ALLOCATION_BUDGET_MS / 1000} s${ok ? '' : ', check failed'}`}`,
    );
    if (elapsed > ALLOCATION_BUDGET_MS || !ok) failed = true;

    // Admit cards: 1,000 allocated registrations of a second season, issued by a batch job.
    const cards = await fillSeason(app, db, world, 'B', 4, 250, BATCH);
    const allocated = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${cards.seasonId}/allocate`);
    if (allocated.statusCode !== 200) throw new Error(`allocate ${allocated.statusCode}: ${allocated.body}`);
    const deps = { db, printer, mail: app.accountMail, publicUrl: 'http://bench.test', pokeJobs: () => {} };
    const { rows: who } = await db.query<{ id: string }>(`select id from users where email = $1`, [TEST_ADMIN_EMAIL]);
    const batch = await queueBatch(deps, { tenantId: cards.tenantId, projectId: world.projectId, seasonId: cards.seasonId, centerId: null, userId: who[0].id });
    const job: Job<{ batchId: number }> = {
      id: '00000000-0000-4000-8000-000000000000',
      tenant_id: null,
      kind: ADMIT_CARD_BATCH_JOB,
      payload: { batchId: batch.batchId },
      attempts: 1,
      created_by: null,
    };
    const batchStarted = performance.now();
    await runAdmitCardBatch(deps, job);
    const batchMs = performance.now() - batchStarted;
    const { rows: done } = await db.query<{ issued: number; failed: number; bytes: number }>(
      `select b.issued, b.failed, (select coalesce(avg(length(pdf)), 0)::int from admit_card_files f join registrations r on r.id = f.registration_id where r.season_id = $2) as bytes
       from admit_card_batches b where b.id = $1`,
      [batch.batchId, cards.seasonId],
    );
    console.log(
      `admit cards (batch job): ${done[0].issued} issued, rendered and stored, ${done[0].failed} failed, in ${(batchMs / 1000).toFixed(1)} s = ${(done[0].issued / (batchMs / 1000)).toFixed(1)} cards per second ` +
        `(${(batchMs / Math.max(1, done[0].issued)).toFixed(0)} ms each with 2 pages printing at once; ${(done[0].bytes / 1024).toFixed(0)} KiB per PDF)`,
    );
    if (done[0].issued !== BATCH) failed = true;

    // One card, rendered on its own (warm Chromium): median of 10.
    const { rows: one } = await db.query<{ id: number }>(`select id::int as id from registrations where season_id = $1 and medium = 'hi' limit 1`, [
      cards.seasonId,
    ]);
    const card = (await admitCardFor(db, one[0].id))!;
    const renders: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      const t0 = performance.now();
      await renderAdmitCard(printer, card);
      renders.push(performance.now() - t0);
    }
    const each = median(renders);
    console.log(
      `admit card PDF (one, Hindi, warm): median ${each.toFixed(0)} ms, max ${Math.max(...renders).toFixed(0)} ms  ${each <= CARD_BUDGET_MS ? `✓ under ${CARD_BUDGET_MS} ms` : `✗ budget ${CARD_BUDGET_MS} ms`}`,
    );
    if (each > CARD_BUDGET_MS) failed = true;
    if (failed) process.exitCode = 1;
    return { allocationMs: elapsed, batchMs, cardMs: each };
  } finally {
    await printer.close();
    await app.close();
    await db.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- delivery` (issue 19, EXAMS.md §6): on PostgreSQL, 2,000 simulated candidates
 * open and start the demo's online mock test within 10 s, then each autosaves every 15 s for
 * 5 minutes through a server process, as a browser does (one save per request, a fresh save id,
 * the question's sequence one higher each time). Afterwards every delivery is read back: each
 * question must hold its last acknowledged save, none lost and none older. Budgets: zero errors,
 * save p99 ≤ 150 ms, start (open + start) p99 ≤ 1 s. The server's CPU time and memory per 1,000
 * candidates are printed, and the same run on PGlite beside it.
 *
 * BENCH_DELIVERY_CANDIDATES (2,000), BENCH_DELIVERY_SECONDS (300) and BENCH_DELIVERY_PGLITE=0
 * change the run; BENCH_DATABASE_URL names the PostgreSQL server (the local one by default).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import { openDb, type Db } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/demo-data.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { startServer, type RunningServer } from '#tests/e2e/support/server.ts';
import { testConfig } from '#tests/setup/test-app.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { createUser, signInDirect } from '#tests/setup/test-users.ts';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CANDIDATES = Number(process.env.BENCH_DELIVERY_CANDIDATES ?? 2000);
const SECONDS = Number(process.env.BENCH_DELIVERY_SECONDS ?? 300);
const SAVE_EVERY_MS = 15_000;
const START_WINDOW_MS = 10_000;
const SAVE_P99_BUDGET_MS = 150;
const START_P99_BUDGET_MS = 1000;

interface Candidate {
  token: string;
  registrationId: number;
  seasonPaperId: number;
  deliveryId?: number;
  questions?: number;
  sequences: Map<number, number>;
  acknowledged: Map<number, { sequence: number; response: string }>;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** utime + stime of a process, in ms (Linux /proc). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}

/**
 * The demo data (its MOCK season schedules the locked MATH-UT-1 online today), then N candidates
 * registered for that paper with their admit cards, each with an access token minted in-process.
 */
async function prepare(db: Db, dataDir: string): Promise<Candidate[]> {
  await migrate(db);
  await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
  await seedDemoData(db, { password: 'demo pass phrase 2027 ok' });
  const { rows } = await db.query<{ seasonId: number; seasonPaperId: number; projectId: number; examId: number; centerId: number; tenantId: string }>(
    `select s.id::int as "seasonId", sp.id::int as "seasonPaperId", s.project_id::int as "projectId", sp.exam_id::int as "examId",
            sc.center_id::int as "centerId", s.tenant_id as "tenantId"
     from seasons s join season_papers sp on sp.season_id = s.id join season_centers sc on sc.season_id = s.id where s.code = 'MOCK' limit 1`,
  );
  const mock = rows[0];
  const app = await buildApp({ config: testConfig(dataDir), db, logger: false, runJobs: false });
  await app.ready();
  const candidates: Candidate[] = [];
  try {
    for (let i = 0; i < CANDIDATES; i += 1) {
      const user = await signInDirect(app, await createUser(db, { roles: ['Candidate'], password: null, tenantId: mock.tenantId }), mock.tenantId);
      const { rows: registered } = await db.query<{ id: number }>(
        `insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, accommodations,
                                    accommodation_status, status, center_id, seat_number, roll_number, admit_card_version, admit_card_issued_at, updated_by)
         values ($1, $2, $3, $4, $5, $6, 'en', 'Ahmedabad', '{}', 'none', 'AdmitCardIssued', $7, $8, $9, 1, now(), $5) returning id::int as id`,
        [mock.tenantId, mock.projectId, mock.seasonId, mock.examId, user.id, [mock.seasonPaperId], mock.centerId, i + 2, `BENCH-${String(i).padStart(6, '0')}`],
      );
      candidates.push({
        token: user.token,
        registrationId: registered[0].id,
        seasonPaperId: mock.seasonPaperId,
        sequences: new Map(),
        acknowledged: new Map(),
      });
    }
  } finally {
    await app.close();
  }
  return candidates;
}

async function run(kind: 'PostgreSQL' | 'PGlite', server: RunningServer, candidates: Candidate[]) {
  const api = (candidate: Candidate, method: string, url: string, body?: unknown) =>
    fetch(`${server.url}/api${url}`, {
      method,
      headers: { authorization: `Bearer ${candidate.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
  const pid = server.process.pid!;
  const errors: string[] = [];
  const rssIdle = await rssMiB(pid);

  // Start: each candidate at a random moment of the first 10 s opens the paper and starts it.
  const startTimes: number[] = [];
  const startsFrom = performance.now();
  await Promise.all(
    candidates.map(async (candidate) => {
      await sleep(Math.random() * START_WINDOW_MS);
      const began = performance.now();
      try {
        const opened = await api(candidate, 'POST', '/v1/delivery/mine', { registrationId: candidate.registrationId, seasonPaperId: candidate.seasonPaperId });
        if (opened.status >= 300) throw new Error(`open ${opened.status} ${(await opened.text()).slice(0, 200)}`);
        const delivery = (await opened.json()) as { deliveryId: number; sections: Array<{ items: unknown[] }> };
        candidate.deliveryId = delivery.deliveryId;
        candidate.questions = delivery.sections.reduce((n, s) => n + s.items.length, 0);
        const started = await api(candidate, 'POST', `/v1/delivery/mine/${delivery.deliveryId}/start`, { declaration: true });
        if (started.status !== 200) throw new Error(`start ${started.status} ${(await started.text()).slice(0, 200)}`);
        startTimes.push(performance.now() - began);
      } catch (error) {
        errors.push(String(error));
      }
    }),
  );
  const allStartedIn = performance.now() - startsFrom;

  // Autosave: every candidate every 15 s, each at its own phase within the period.
  const saveTimes: number[] = [];
  const cpuBefore = await cpuMs(pid);
  const savingFrom = performance.now();
  const until = savingFrom + SECONDS * 1000;
  await Promise.all(
    candidates
      .filter((c) => c.deliveryId)
      .map(async (candidate, index) => {
        await sleep(Math.random() * SAVE_EVERY_MS);
        for (let k = 0; performance.now() < until; k += 1) {
          const tick = performance.now();
          const itemNumber = ((index + k) % candidate.questions!) + 1;
          const sequence = (candidate.sequences.get(itemNumber) ?? 0) + 1;
          candidate.sequences.set(itemNumber, sequence);
          const response = `c${index} save ${k}`;
          try {
            const res = await api(candidate, 'PUT', `/v1/delivery/mine/${candidate.deliveryId}/answers`, {
              saves: [{ saveId: randomUUID(), itemNumber, sequence, response, marked: false }],
            });
            if (res.status !== 200) throw new Error(`save ${res.status} ${(await res.text()).slice(0, 200)}`);
            const answer = (await res.json()) as { results: Array<{ applied: boolean; storedSequence: number }> };
            if (!answer.results[0]?.applied || answer.results[0].storedSequence !== sequence) throw new Error(`save not applied: ${JSON.stringify(answer)}`);
            saveTimes.push(performance.now() - tick);
            candidate.acknowledged.set(itemNumber, { sequence, response });
          } catch (error) {
            errors.push(String(error));
          }
          await sleep(Math.max(0, SAVE_EVERY_MS - (performance.now() - tick)));
        }
      }),
  );
  const cpuSpent = (await cpuMs(pid)) - cpuBefore;
  const rss = await rssMiB(pid);

  // Read back: each question holds its last acknowledged save.
  let lost = 0;
  let older = 0;
  for (const candidate of candidates.filter((c) => c.deliveryId)) {
    const res = await api(candidate, 'GET', `/v1/delivery/mine/${candidate.deliveryId}`);
    const stored = new Map(
      ((await res.json()) as { answers: Array<{ itemNumber: number; sequence: number; response: unknown }> }).answers.map((a) => [a.itemNumber, a]),
    );
    for (const [itemNumber, acked] of candidate.acknowledged) {
      const kept = stored.get(itemNumber);
      if (!kept) lost += 1;
      else if (kept.sequence !== acked.sequence || kept.response !== acked.response) older += 1;
    }
  }

  startTimes.sort((a, b) => a - b);
  saveTimes.sort((a, b) => a - b);
  const started = startTimes.length;
  const saveP99 = percentile(saveTimes, 99);
  const startP99 = percentile(startTimes, 99);
  const minutes = SECONDS / 60;
  console.log(
    `${kind}: ${started} of ${candidates.length} started in ${(allStartedIn / 1000).toFixed(1)} s; start p50 ${percentile(startTimes, 50).toFixed(0)} ms, ` +
      `p99 ${startP99.toFixed(0)} ms, max ${(startTimes.at(-1) ?? 0).toFixed(0)} ms  ${startP99 <= START_P99_BUDGET_MS ? '✓' : '✗'} budget ${START_P99_BUDGET_MS} ms`,
  );
  console.log(
    `${kind}: ${saveTimes.length} saves in ${minutes.toFixed(1)} min (${(saveTimes.length / SECONDS).toFixed(0)}/s); save p50 ${percentile(saveTimes, 50).toFixed(0)} ms, ` +
      `p99 ${saveP99.toFixed(0)} ms, max ${(saveTimes.at(-1) ?? 0).toFixed(0)} ms  ${saveP99 <= SAVE_P99_BUDGET_MS ? '✓' : '✗'} budget ${SAVE_P99_BUDGET_MS} ms`,
  );
  console.log(`${kind}: errors ${errors.length}, lost saves ${lost}, older saves kept ${older}${errors.length ? `; first: ${errors[0]}` : ''}`);
  console.log(
    `${kind}: server CPU ${((cpuSpent / 1000 / SECONDS) * 100).toFixed(0)} % of a core while saving, ${((cpuSpent / SECONDS / candidates.length) * 1000).toFixed(1)} ms/s per 1,000 candidates; ` +
      `memory ${rssIdle.toFixed(0)} MiB idle, ${rss.toFixed(0)} MiB after (+${(((rss - rssIdle) / candidates.length) * 1000).toFixed(0)} MiB per 1,000)`,
  );
  if (
    kind === 'PostgreSQL' &&
    (errors.length || lost || older || saveP99 > SAVE_P99_BUDGET_MS || startP99 > START_P99_BUDGET_MS || allStartedIn > START_WINDOW_MS * 1.5)
  )
    process.exitCode = 1;
}

export async function benchDelivery() {
  console.log(
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${CANDIDATES} candidates, ${SECONDS} s of autosave`,
  );
  const name = `bench_delivery_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-delivery-'));
  let server: RunningServer | undefined;
  try {
    const db = await openDb({ databaseUrl: url.toString(), poolSize: 5 });
    console.log('delivery: preparing PostgreSQL…');
    const candidates = await prepare(db, scratch);
    await db.close();
    server = await startServer({
      env: { DATABASE_URL: url.toString(), LOG_LEVEL: 'warn', PUBLIC_URL: testConfig(scratch).publicUrl },
      dataDir: scratch,
      startupTimeoutMs: 120_000,
    });
    await run('PostgreSQL', server, candidates);
  } finally {
    await server?.stop();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await rm(scratch, { recursive: true, force: true });
  }
  if (process.env.BENCH_DELIVERY_PGLITE === '0') return;
  const liteDir = await mkdtemp(path.join(tmpdir(), 'bench-delivery-lite-'));
  try {
    const db = await openDb({ dataDir: liteDir });
    console.log('delivery: preparing PGlite…');
    const candidates = await prepare(db, liteDir);
    await db.close();
    server = await startServer({ env: { LOG_LEVEL: 'warn', PUBLIC_URL: testConfig(liteDir).publicUrl }, dataDir: liteDir, startupTimeoutMs: 120_000 });
    await run('PGlite', server, candidates);
  } finally {
    await server?.stop();
    await rm(liteDir, { recursive: true, force: true });
  }
}

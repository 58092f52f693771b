/**
 * Exam workspace at scale (issue 15): 1,000 projects × 50 exams, a real server process,
 * 10 concurrent clients (autocannon). Budgets on PostgreSQL: project search and exam search
 * p99 ≤ 50 ms. PGlite is reported beside it.
 *
 * Then what the ProjectId header and grant check adds per request: the same trivial handler
 * registered twice in one app, as a project call (header parsed, project and the caller's
 * grants loaded, scope checked) and as a global call, called alternately one at a time
 * (`app.inject`, no network noise). Budget: ≤ 1 ms added at the median.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { P } from '#machines/permissions.ts';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDb, type Db } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { startServer } from '#tests/e2e/support/server.ts';
import { signInOverHttp } from '#tests/e2e/support/sign-in.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { createSignedInUser } from '#tests/setup/test-users.ts';
import { formatLoad, load } from './load.ts';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PROJECTS = 1_000;
const EXAMS_PER_PROJECT = 50;
const STAFF_EMAIL = 'bench.staff@exam-portal.test';
const STAFF_PASSWORD = 'bench staff passphrase 42';

export async function prepareExamWorkspaceBench(db: Db) {
  await migrate(db);
  await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
  const started = performance.now();
  const { rows } = await db.query<{ id: string }>(`select id from users where email = $1`, [TEST_ADMIN_EMAIL]);
  const admin = rows[0].id;
  await db.query(
    `insert into projects (tenant_id, code, name, description, languages, status, created_by, updated_by, created_at, updated_at)
     select 'root', 'P' || lpad(g::text, 5, '0'),
            (array['Class 10 Board', 'Class 12 Board', 'Engineering entrance', 'Medical entrance', 'Scholarship test'])[1 + g % 5] || ' ' || (2000 + g % 30) || ' #' || g,
            'Benchmark project', '{en,hi}', (array['Draft', 'Setup', 'Active', 'Closed'])[1 + g % 4], $1, $1,
            now() - make_interval(mins => g), now()
     from generate_series(1, $2::int) g`,
    [admin, PROJECTS],
  );
  await db.query(
    `insert into exams (tenant_id, project_id, code, name, status, created_by, updated_by, created_at, updated_at)
     select 'root', p.id, 'E' || e,
            (array['Mathematics', 'Science', 'English', 'Hindi', 'Social science', 'Physics', 'Chemistry', 'Biology'])[1 + e % 8] || ' paper ' || e,
            (array['Draft', 'Scheduled', 'Live', 'Evaluation', 'ResultsPublished', 'Closed'])[1 + e % 6], $1, $1,
            now() - make_interval(mins => e), now()
     from projects p cross join generate_series(1, $2::int) e`,
    [admin, EXAMS_PER_PROJECT],
  );
  // A staff member holding a grant on every tenth project (their search filters by grants).
  const staff = await db.query<{ id: string }>(
    `insert into users (tenant_id, first_name, last_name, email, user_name, password_hash, email_confirmed)
     values ('root', 'Bench', 'Staff', $1, 'bench_staff', $2, true) returning id`,
    [STAFF_EMAIL, await hashPassword(STAFF_PASSWORD)],
  );
  await db.query(`insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = 'root' and name = 'ExamStaff'`, [staff.rows[0].id]);
  await db.query(`insert into exam_grants (tenant_id, user_id, project_id, permission) select 'root', $1, id, 'ItemAuthor' from projects where id % 10 = 0`, [
    staff.rows[0].id,
  ]);
  await db.query('analyze');
  const { rows: counts } = await db.query<{ projects: number; exams: number }>(
    `select (select count(*)::int from projects) as projects, (select count(*)::int from exams) as exams`,
  );
  console.log(`  ${counts[0].projects} projects, ${counts[0].exams} exams ready in ${Math.round(performance.now() - started)} ms`);
}

async function measureSearch(kind: string, env: Record<string, string>, dataDir: string | undefined, budgets: boolean) {
  const budget = budgets ? 50 : undefined;
  const server = await startServer({ env, dataDir });
  try {
    const admin = await signInOverHttp(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const staff = await signInOverHttp(server.url, STAFF_EMAIL, STAFF_PASSWORD);
    const adminHeaders = { authorization: `Bearer ${admin.token}` };
    const staffHeaders = { authorization: `Bearer ${staff.token}` };
    const projects = `${server.url}/api/v1/project/search`;
    const exams = `${server.url}/api/v1/exam/search`;
    const someProject = (await (
      await fetch(projects, { method: 'POST', headers: { ...adminHeaders, 'content-type': 'application/json' }, body: JSON.stringify({ keyword: 'P00500' }) })
    ).json()) as { data: Array<{ projectId: number }> };
    const projectId = String(someProject.data[0].projectId);
    const grantedProject = String(Number(projectId) - (Number(projectId) % 10) || 10);
    await load({ label: 'warm-up', url: projects, headers: adminHeaders, body: {}, durationSeconds: 3 });
    const runs = [
      await load({
        label: `${kind}: projects, manager, first page + totalCount`,
        url: projects,
        headers: adminHeaders,
        body: { pageNumber: 1, pageSize: 10 },
        durationSeconds: 10,
      }),
      await load({
        label: `${kind}: projects, manager, keyword "entrance", by name`,
        url: projects,
        headers: adminHeaders,
        body: { keyword: 'entrance', orderBy: ['name'] },
        durationSeconds: 10,
      }),
      await load({
        label: `${kind}: projects, staff (100 granted), status Active`,
        url: projects,
        headers: staffHeaders,
        body: { status: 'Active' },
        durationSeconds: 10,
      }),
      await load({
        label: `${kind}: exams of a project, manager, first page`,
        url: exams,
        headers: { ...adminHeaders, ProjectId: projectId },
        body: {},
        durationSeconds: 10,
      }),
      await load({
        label: `${kind}: exams of a project, staff, keyword "physics"`,
        url: exams,
        headers: { ...staffHeaders, ProjectId: grantedProject },
        body: { keyword: 'physics' },
        durationSeconds: 10,
      }),
    ];
    for (const run of runs) {
      console.log(formatLoad(run, budget));
      if (budget !== undefined && (run.p99 > budget || run.failures > 0)) process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}

/** p50 of the same handler as a project call and as a global call, alternated, one request at a time. */
async function measureHeaderCheck(kind: string, db: Db, dataDir: string) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: TEST_ADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://bench.test',
  });
  const app = await buildApp({ config, db, logger: false, runJobs: false });
  app.get('/api/bench/with-header', { config: { access: P.Projects.View, workspace: 'project' } }, async () => ({ ok: true }));
  app.get('/api/bench/without-header', { config: { access: P.Projects.View, workspace: 'global' } }, async () => ({ ok: true }));
  await app.ready();
  try {
    const staff = await createSignedInUser(app, { roles: ['ExamStaff'] });
    const { rows } = await db.query<{ id: number }>(`select id::int as id from projects where id % 10 = 0 order by id limit 1`);
    await db.query(`insert into exam_grants (tenant_id, user_id, project_id, permission) values ('root', $1, $2, 'Evaluator')`, [staff.id, rows[0].id]);
    const auth = { authorization: `Bearer ${staff.token}` };
    const timeOne = async (url: string, headers: Record<string, string>) => {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return performance.now() - started;
    };
    const withHeader: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < 300; i += 1) await timeOne('/api/bench/with-header', { ...auth, ProjectId: String(rows[0].id) });
    for (let i = 0; i < 3000; i += 1) {
      withHeader.push(await timeOne('/api/bench/with-header', { ...auth, ProjectId: String(rows[0].id) }));
      without.push(await timeOne('/api/bench/without-header', auth));
    }
    const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const added = p50(withHeader) - p50(without);
    const verdict = added <= 1 ? '✓ ≤ 1 ms' : '✗ budget 1 ms';
    console.log(
      `${kind}: header + grant check: p50 with ${p50(withHeader).toFixed(3)} ms, without ${p50(without).toFixed(3)} ms, added ${added.toFixed(3)} ms  ${verdict}`,
    );
    if (kind === 'PostgreSQL' && added > 1) process.exitCode = 1;
  } finally {
    await app.close();
  }
}

export async function benchExamWorkspace() {
  const name = `bench_exams_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-exams-'));
  try {
    console.log(`exam workspace: seeding PostgreSQL with ${PROJECTS} projects × ${EXAMS_PER_PROJECT} exams…`);
    const db = await openDb({ databaseUrl: url.toString() });
    await prepareExamWorkspaceBench(db);
    await measureHeaderCheck('PostgreSQL', db, scratch);
    await db.close();
    await measureSearch('PostgreSQL', { DATABASE_URL: url.toString() }, undefined, true);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }

  const dir = await mkdtemp(path.join(tmpdir(), 'bench-exams-pglite-'));
  try {
    console.log(`exam workspace: seeding PGlite with ${PROJECTS} projects × ${EXAMS_PER_PROJECT} exams…`);
    const db = await openDb({ dataDir: dir });
    await prepareExamWorkspaceBench(db);
    await measureHeaderCheck('PGlite', db, scratch);
    await db.close();
    await measureSearch('PGlite', {}, dir, false);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

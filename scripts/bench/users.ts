/**
 * User administration at scale (issue 6), against a real server process:
 * - user search over 100,000 users, first page with totalCount, 10 concurrent clients
 *   (autocannon), PostgreSQL and PGlite: budget p99 < 100 ms;
 * - bulk upload of 10,000 valid rows: upload to job finished < 30 s;
 * - a file of 1,000 bad rows: the error file lists all 1,000 with a reason each.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { openDb, type Db } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { startServer } from '#tests/e2e/support/server.ts';
import { signInOverHttp } from '#tests/e2e/support/sign-in.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { formatLoad, load } from './load.ts';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const firstNames = [
  'Aarav',
  'Diya',
  'Ishaan',
  'Kavya',
  'Rohan',
  'Saanvi',
  'Vihaan',
  'Ananya',
  'Arjun',
  'Meera',
  'Kabir',
  'Riya',
  'Lucas',
  'Emma',
  'Mateo',
  'Sofia',
  'Noah',
  'Chloé',
  'Hugo',
  'Lucía',
];
const lastNames = [
  'Sharma',
  'Patel',
  'Iyer',
  'Reddy',
  'Kumar',
  'Shah',
  'Mehta',
  'Nair',
  'Gupta',
  'Desai',
  'Martin',
  'Bernard',
  'García',
  'López',
  'Dubois',
  'Moreau',
  'Fernández',
  'Rao',
  'Joshi',
  'Kapoor',
];

export async function seedBenchUsers(db: Db, count: number): Promise<void> {
  const batch = 50_000;
  for (let offset = 0; offset < count; offset += batch) {
    const size = Math.min(batch, count - offset);
    await db.query(
      `insert into users (tenant_id, first_name, last_name, email, user_name, phone_number, is_active, email_confirmed, institute_id, created_at, updated_at)
       select 'root', ($2::text[])[1 + g % 20], ($3::text[])[1 + (g / 20) % 20], 'bench.user' || g || '@example.test', 'bench-user-' || g,
              '+91 9' || lpad((g % 1000000000)::text, 9, '0'), g % 10 <> 0, g % 7 <> 0,
              ('00000000-0000-4000-8000-' || lpad((g % 20)::text, 12, '0'))::uuid,
              now() - make_interval(secs => g), now()
       from generate_series($1::int + 1, $1::int + $4::int) g`,
      [offset, firstNames, lastNames, size],
    );
  }
  await db.query(
    `insert into user_roles (user_id, role_id)
     select u.id, r.id from users u join roles r on r.tenant_id = 'root' and r.name = 'Candidate'
     where u.email like 'bench.user%' on conflict do nothing`,
  );
  await db.query('vacuum analyze users');
  await db.query('vacuum analyze user_roles');
}

async function prepare(db: Db, count: number) {
  await migrate(db);
  await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
  const started = performance.now();
  await seedBenchUsers(db, count);
  console.log(`  ${count} users ready in ${Math.round((performance.now() - started) / 1000)} s`);
}

async function measureSearch(kind: string, count: number, env: Record<string, string>, dataDir?: string) {
  const server = await startServer({ env, dataDir });
  try {
    const session = await signInOverHttp(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const headers = { authorization: `Bearer ${session.token}` };
    const url = `${server.url}/api/users/search`;
    await load({ label: 'warm-up', url, headers, body: { pageNumber: 1, pageSize: 10 }, durationSeconds: 3 });
    const cases = [
      { label: `${kind} ${count}: first page + totalCount`, body: { pageNumber: 1, pageSize: 10 } },
      { label: `${kind} ${count}: inactive filter + totalCount`, body: { pageNumber: 1, pageSize: 10, isActive: false } },
      { label: `${kind} ${count}: keyword "kapoor" + totalCount`, body: { pageNumber: 1, pageSize: 10, keyword: 'kapoor' } },
      { label: `${kind} ${count}: sort lastName, page 50`, body: { pageNumber: 50, pageSize: 10, orderBy: ['lastName'] } },
    ];
    const results = [];
    for (const c of cases) {
      const result = await load({ label: c.label, url, headers, body: c.body, durationSeconds: 10 });
      console.log(formatLoad(result, 100));
      results.push(result);
    }
    return results;
  } finally {
    await server.stop();
  }
}

async function uploadFile(baseUrl: string, token: string, name: string, content: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const res = await fetch(`${baseUrl}/api/users/uploadusers`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { jobId: string }).jobId;
}

async function waitForJob(baseUrl: string, token: string, jobId: string) {
  for (;;) {
    const res = await fetch(`${baseUrl}/api/users/searchuploadedjobstatus`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jobId }),
    });
    const job = ((await res.json()) as { data: Array<{ state: string; createdCount: number; failedCount: number; totalRows: number; message: string }> })
      .data[0];
    if (job.state === 'finished' || job.state === 'failed') return job;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function sheet(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const users = book.addWorksheet('Users');
  users.addRow(['firstName', 'lastName', 'email', 'userName', 'phoneNumber', 'dateOfBirth', 'roleName', 'newPassword', 'confirmNewPassword']);
  for (const row of rows) users.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function measureBulk(kind: string, env: Record<string, string>, dataDir?: string) {
  const server = await startServer({ env, dataDir });
  try {
    const session = await signInOverHttp(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const stamp = Date.now().toString(36);
    const good = await sheet(
      Array.from({ length: 10_000 }, (_, i) => [
        firstNames[i % 20],
        lastNames[(i >> 3) % 20],
        `bulk${i}.${stamp}@example.test`,
        `bulk-${stamp}-${i}`,
        '',
        '1999-01-01',
        'Candidate',
        '',
        '',
      ]),
    );
    const started = performance.now();
    const jobId = await uploadFile(server.url, session.token, 'bulk-10k.xlsx', good);
    const job = await waitForJob(server.url, session.token, jobId);
    const seconds = (performance.now() - started) / 1000;
    if (!(seconds < 30 && job.createdCount === 10_000)) process.exitCode = 1;
    console.log(
      `${kind}: bulk upload 10,000 valid rows (${(good.length / 1024).toFixed(0)} KB): ${job.state}, created ${job.createdCount}, failed ${job.failedCount} in ${seconds.toFixed(1)} s` +
        (seconds < 30 && job.createdCount === 10_000 ? '  ✓ under 30 s' : '  ✗ budget 30 s'),
    );

    const bad = await sheet(
      Array.from({ length: 1_000 }, (_, i) => [
        i % 2 ? '' : 'Bad',
        'Row',
        i % 3 ? `not-an-email-${i}` : `bulk${i}.${stamp}@example.test`,
        `bad-${stamp}-${i}`,
        '',
        '',
        i % 5 ? '' : 'Wizard',
        '',
        '',
      ]),
    );
    const badStarted = performance.now();
    const badJobId = await uploadFile(server.url, session.token, 'bad-1k.xlsx', bad);
    const badJob = await waitForJob(server.url, session.token, badJobId);
    const errors = await fetch(`${server.url}/api/users/downloaderrorfile`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jobId: badJobId }),
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await errors.arrayBuffer()) as never);
    let listed = 0;
    let withReason = 0;
    book.worksheets[0].eachRow((row, n) => {
      if (n === 1) return;
      listed += 1;
      if (String(row.getCell(11).value ?? '').length > 0) withReason += 1;
    });
    console.log(
      `${kind}: 1,000 bad rows: ${badJob.failedCount} failed, error file lists ${listed} rows, ${withReason} with a reason, in ${((performance.now() - badStarted) / 1000).toFixed(1)} s` +
        (listed === 1000 && withReason === 1000 ? '  ✓' : '  ✗'),
    );
  } finally {
    await server.stop();
  }
}

export async function benchUsers(options: { count?: number } = {}) {
  const count = options.count ?? Number(process.env.BENCH_USERS ?? 100_000);

  const name = `bench_users_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  try {
    console.log(`users: seeding PostgreSQL with ${count} users…`);
    const db = await openDb({ databaseUrl: url.toString() });
    await prepare(db, count);
    await db.close();
    await measureSearch('PostgreSQL', count, { DATABASE_URL: url.toString() });
    await measureBulk('PostgreSQL', { DATABASE_URL: url.toString() });
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }

  const dir = await mkdtemp(path.join(tmpdir(), 'bench-users-'));
  try {
    console.log(`users: seeding PGlite with ${count} users…`);
    const db = await openDb({ dataDir: dir });
    await prepare(db, count);
    await db.close();
    await measureSearch('PGlite', count, {}, dir);
    await measureBulk('PGlite', {}, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

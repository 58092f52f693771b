/**
 * `npm run bench -- api` (issue 22): our ticket admin search and user search against a raw `pg`
 * keyset query of the same page (scripts/bench/raw-keyset-server.ts), on the same PostgreSQL
 * database, at 10 and 50 connections (autocannon), each server in its own process. Prints
 * req/s, p50/p99 and the server process's CPU per request (from /proc).
 * Budgets: ours ≥ 0.5× the raw query's req/s at 10 and 50 connections; p99 ≤ 30 ms at 50.
 *
 * BENCH_API_DATABASE names a database to seed once and keep (re-runs skip the seeding);
 * without it a fresh database is created and dropped. Sizes: BENCH_TICKETS_PG (1,000,000),
 * BENCH_USERS (100,000); BENCH_API_SECONDS per run (10).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDb } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { freePort, startServer } from '#tests/e2e/support/server.ts';
import { signInOverHttp } from '#tests/e2e/support/sign-in.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { load, type LoadResult } from './load.ts';
import { seedBenchTickets } from './seed-tickets.ts';
import { seedBenchUsers } from './users.ts';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(import.meta.dirname, '../..');
export const API_RATIO_BUDGET = 0.5;
export const API_P99_BUDGET_MS = 30;

/** User + system CPU seconds a process has used so far (Linux /proc; clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Measured extends LoadResult {
  cpuMsPerRequest: number;
}

async function measure(pid: number, options: Parameters<typeof load>[0]): Promise<Measured> {
  const before = cpuSeconds(pid);
  const result = await load(options);
  const used = cpuSeconds(pid) - before;
  return { ...result, cpuMsPerRequest: result.requests ? (used * 1000) / result.requests : NaN };
}

async function databaseFor(): Promise<{ url: string; drop: () => Promise<void> }> {
  const keep = process.env.BENCH_API_DATABASE;
  const name = keep ?? `bench_api_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount;
  if (!exists) await admin.query(`create database ${pg.escapeIdentifier(name)}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      if (keep) return;
      const again = new pg.Client({ connectionString: PG_URL });
      await again.connect();
      await again.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await again.end();
    },
  };
}

async function seedIfNeeded(url: string, tickets: number, users: number) {
  const db = await openDb({ databaseUrl: url });
  try {
    await migrate(db);
    await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
    const haveTickets = (await db.query<{ n: number }>('select count(*)::int as n from support_tickets')).rows[0].n;
    if (haveTickets < tickets) {
      console.log(`api: seeding ${tickets} tickets…`);
      await seedBenchTickets(db, tickets - haveTickets, (line) => console.log(line));
    }
    const haveUsers = (await db.query<{ n: number }>(`select count(*)::int as n from users where email like 'bench.user%'`)).rows[0].n;
    if (haveUsers < users) {
      console.log(`api: seeding ${users} users…`);
      await seedBenchUsers(db, users);
    }
  } finally {
    await db.close();
  }
}

async function startRaw(url: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/bench/raw-keyset-server.ts'), String(port)], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`raw server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin.end();
      await exited;
    },
  };
}

const fmt = (r: Measured) =>
  `${String(r.rps).padStart(6)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(3)} ms  CPU ${r.cpuMsPerRequest.toFixed(2)} ms/req  failures ${r.failures}`;

export async function benchApi() {
  const tickets = Number(process.env.BENCH_TICKETS_PG ?? 1_000_000);
  const users = Number(process.env.BENCH_USERS ?? 100_000);
  const seconds = Number(process.env.BENCH_API_SECONDS ?? 10);
  const database = await databaseFor();
  let breached = false;
  const figures: Array<{ label: string; connections: number; ours: Measured; raw: Measured; ratio: number }> = [];
  try {
    await seedIfNeeded(database.url, tickets, users);
    const ours = await startServer({ env: { DATABASE_URL: database.url } });
    const raw = await startRaw(database.url);
    try {
      const session = await signInOverHttp(ours.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
      const headers = { authorization: `Bearer ${session.token}` };
      const cases = [
        { label: 'ticket admin search', ours: `${ours.url}/api/v1/supportticketadmin/searchbyadmin`, raw: `${raw.url}/tickets` },
        { label: 'users search', ours: `${ours.url}/api/users/search`, raw: `${raw.url}/users` },
      ];
      const body = { pageNumber: 1, pageSize: 10 };
      for (const c of cases) {
        // Warm both (plans, pools, JIT) as a running server would be.
        await load({ label: 'warm-up', url: c.ours, headers, body, durationSeconds: 2 });
        await load({ label: 'warm-up', url: c.raw, body, durationSeconds: 2 });
        for (const connections of [10, 50]) {
          const o = await measure(ours.process.pid!, { label: c.label, url: c.ours, headers, body, connections, durationSeconds: seconds });
          const r = await measure(raw.pid, { label: c.label, url: c.raw, body, connections, durationSeconds: seconds });
          const ratio = o.rps / r.rps;
          figures.push({ label: c.label, connections, ours: o, raw: r, ratio });
          const ok = ratio >= API_RATIO_BUDGET && o.failures === 0 && (connections < 50 || o.p99 <= API_P99_BUDGET_MS);
          if (!ok) breached = true;
          console.log(`api: ${c.label}, first page + totalCount, ${connections} connections`);
          console.log(`  ours ${fmt(o)}`);
          console.log(`  raw  ${fmt(r)}`);
          console.log(
            `  ratio ${ratio.toFixed(2)}× (budget ≥ ${API_RATIO_BUDGET}×${connections === 50 ? `, p99 ≤ ${API_P99_BUDGET_MS} ms` : ''})  ${ok ? '✓' : '✗ budget breached'}`,
          );
        }
      }
    } finally {
      await raw.stop();
      await ours.stop();
    }
  } finally {
    await database.drop();
  }
  if (breached) process.exitCode = 1;
  return figures;
}

/**
 * Ticket search at scale (issue 7): 1,000,000 tickets in PostgreSQL and 100,000 in PGlite,
 * a real server process, a signed-in support admin, 10 concurrent clients (autocannon).
 * Budgets: admin search first page with totalCount and a status filter p99 < 150 ms;
 * keyword search p99 < 250 ms.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDb, type Db } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { startServer } from '#tests/e2e/support/server.ts';
import { signInOverHttp } from '#tests/e2e/support/sign-in.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { formatLoad, load } from './load.ts';
import { seedBenchTickets } from './seed-tickets.ts';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function prepare(db: Db, count: number) {
  await migrate(db);
  await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
  const started = performance.now();
  await seedBenchTickets(db, count, (line) => console.log(line));
  console.log(`  ${count} tickets ready in ${Math.round((performance.now() - started) / 1000)} s`);
}

/** The budgets are for PostgreSQL at a million tickets; PGlite is reported beside it. */
async function measure(kind: string, count: number, env: Record<string, string>, dataDir?: string, budgets = true) {
  const budget = (ms: number) => (budgets ? ms : undefined);
  const server = await startServer({ env, dataDir });
  try {
    const session = await signInOverHttp(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const headers = { authorization: `Bearer ${session.token}` };
    const url = `${server.url}/api/v1/supportticketadmin/searchbyadmin`;
    // Warm the caches first, as a running server would be.
    await load({ label: 'warm-up', url, headers, body: { pageNumber: 1, pageSize: 10 }, durationSeconds: 3 });
    const results = [
      await load({ label: `${kind} ${count}: status filter, first page + totalCount`, url, headers, body: { pageNumber: 1, pageSize: 10, statusId: 3 } }),
      await load({ label: `${kind} ${count}: no filter, first page + totalCount`, url, headers, body: { pageNumber: 1, pageSize: 10 } }),
      await load({ label: `${kind} ${count}: keyword "printer" + totalCount`, url, headers, body: { pageNumber: 1, pageSize: 10, keyword: 'printer' } }),
      await load({
        label: `${kind} ${count}: keyword "webcam error" + status filter`,
        url,
        headers,
        body: { pageNumber: 1, pageSize: 10, keyword: 'webcam error', statusId: 1 },
      }),
    ];
    console.log(formatLoad(results[0], budget(150)));
    console.log(formatLoad(results[1], budget(150)));
    console.log(formatLoad(results[2], budget(250)));
    console.log(formatLoad(results[3], budget(250)));
    // Keyword totals are kept until the next ticket write (docs/decisions/0008): the first
    // keyword search after a write counts the matching rows again. Measure that too.
    const afterWrite: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const raised = await fetch(`${server.url}/api/v1/supportticket`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Bench write ${i}`, description: 'A write between keyword searches.', supportTicketPriorityId: 2, supportGroupId: 1 }),
      });
      if (raised.status !== 201) throw new Error(`raising a ticket answered ${raised.status}`);
      const started = performance.now();
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ pageNumber: 1, pageSize: 10, keyword: 'printer' }),
      });
      await res.arrayBuffer();
      afterWrite.push(performance.now() - started);
    }
    afterWrite.sort((a, b) => a - b);
    console.log(
      `${kind} ${count}: keyword "printer", first search after a write (one client)  median ${Math.round(afterWrite[2])} ms  max ${Math.round(afterWrite[4])} ms`,
    );
    return results;
  } finally {
    await server.stop();
  }
}

export async function benchTicketSearch(options: { postgresCount?: number; pgliteCount?: number } = {}) {
  const postgresCount = options.postgresCount ?? Number(process.env.BENCH_TICKETS_PG ?? 1_000_000);
  const pgliteCount = options.pgliteCount ?? Number(process.env.BENCH_TICKETS_PGLITE ?? 100_000);

  // PostgreSQL: a database of its own, dropped afterwards.
  const name = `bench_tickets_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  try {
    console.log(`tickets: seeding PostgreSQL with ${postgresCount} tickets…`);
    const db = await openDb({ databaseUrl: url.toString() });
    await prepare(db, postgresCount);
    await db.close();
    await measure('PostgreSQL', postgresCount, { DATABASE_URL: url.toString() });
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }

  // PGlite: a data directory of its own.
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-tickets-'));
  try {
    console.log(`tickets: seeding PGlite with ${pgliteCount} tickets…`);
    const db = await openDb({ dataDir: dir });
    await prepare(db, pgliteCount);
    await db.close();
    await measure('PGlite', pgliteCount, {}, dir, false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

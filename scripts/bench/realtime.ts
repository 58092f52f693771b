/**
 * Real-time delivery (issue 8): two server processes on one PostgreSQL, 200 authenticated
 * sockets split across them, chat messages posted at 50 per second through both instances
 * (so half of the deliveries cross instances through LISTEN/NOTIFY). Latency is measured from
 * the start of the POST to the arrival of the push on the recipient's socket, so it includes
 * the HTTP request, the commit, NOTIFY, the log read and the socket write.
 * Budget: p99 < 100 ms. Also reports the servers' memory per connected socket (RSS delta).
 */
import { randomUUID } from 'node:crypto';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { buildApp } from '#server/app.ts';
import { openDb } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { startServer, type RunningServer } from '#tests/e2e/support/server.ts';
import { testConfig } from '#tests/setup/test-app.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { createUser, signInDirect } from '#tests/setup/test-users.ts';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface RealtimeBenchOptions {
  sockets?: number;
  messagesPerSecond?: number;
  seconds?: number;
}

async function rssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchRealtime(options: RealtimeBenchOptions = {}) {
  const socketCount = options.sockets ?? Number(process.env.BENCH_RT_SOCKETS ?? 200);
  const rate = options.messagesPerSecond ?? Number(process.env.BENCH_RT_RATE ?? 50);
  const seconds = options.seconds ?? Number(process.env.BENCH_RT_SECONDS ?? 20);

  const name = `bench_realtime_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-realtime-'));
  const servers: RunningServer[] = [];
  const sockets: WebSocket[] = [];
  const db = await openDb({ databaseUrl, poolSize: 5 });
  const config = testConfig(dataDir);
  await migrate(db);
  await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
  // In-process app on the same database: creates the people and mints their tokens.
  const app = await buildApp({ config, db, logger: false, runJobs: false });
  try {
    await app.ready();

    // People: one support admin who writes, and one candidate with one ticket per socket.
    const { rows } = await db.query<{ id: number }>(`select id from support_groups where tenant_id = 'root' and name = 'General Support'`);
    const groupId = rows[0].id;
    const sender = await signInDirect(app, await createUser(db, { roles: ['SupportAdmin'], password: null }));
    const people: Array<{ token: string; ticketId: number }> = [];
    for (let i = 0; i < socketCount; i += 1) {
      const user = await signInDirect(app, await createUser(db, { roles: ['Candidate'], password: null }));
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: { authorization: `Bearer ${user.token}` },
        payload: { title: `Bench ticket ${i}`, description: 'Real-time benchmark', supportTicketPriorityId: 2, supportGroupId: groupId },
      });
      if (res.statusCode !== 201) throw new Error(`raise failed: ${res.body}`);
      people.push({ token: user.token, ticketId: res.json().ticketId });
    }
    console.log(`realtime: ${socketCount} candidates with a ticket each, one support admin writing`);

    const env = { DATABASE_URL: databaseUrl, PUBLIC_URL: config.publicUrl, LOG_LEVEL: 'warn' };
    servers.push(...(await Promise.all([startServer({ env }), startServer({ env })])));
    await settle(2000);
    const before = await Promise.all(servers.map((s) => rssKiB(s.process.pid!)));

    // Sockets: person i on instance i % 2; ticket → who should receive its messages.
    const sentAt = new Map<string, number>();
    const ackedAt = new Map<string, number>();
    const latencies: number[] = [];
    /** Push arrival minus POST answer: the hub's own share (NOTIFY, log read, socket write); negative when the push won. */
    const afterAck: Array<{ id: string; at: number }> = [];
    let crossed = 0;
    let duplicates = 0;
    const seen = new Set<string>();
    const receiverOf = new Map<number, number>();
    await Promise.all(
      people.map(
        (person, i) =>
          new Promise<void>((resolve, reject) => {
            const ws = new WebSocket(`${servers[i % 2].url.replace('http', 'ws')}/api/hubs/notifications`);
            sockets.push(ws);
            receiverOf.set(person.ticketId, i % 2);
            ws.on('error', reject);
            ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token: person.token })));
            ws.on('message', (data) => {
              const frame = JSON.parse(data.toString());
              if (frame.type === 'ready') return resolve();
              if (frame.type !== 'event' || frame.kind !== 'chat.message') return;
              const id = frame.data.messageId as string;
              const started = sentAt.get(id);
              if (started === undefined) return;
              if (seen.has(id)) duplicates += 1;
              else {
                seen.add(id);
                latencies.push(performance.now() - started);
                afterAck.push({ id, at: performance.now() });
              }
            });
          }),
      ),
    );
    await settle(3000);
    const after = await Promise.all(servers.map((s) => rssKiB(s.process.pid!)));
    const perSocket = servers.map((_, k) => ((after[k] - before[k]) * 1024) / (socketCount / 2));
    console.log(
      `  memory: RSS ${before.map((kb) => (kb / 1024).toFixed(1)).join(' / ')} MiB → ${after.map((kb) => (kb / 1024).toFixed(1)).join(' / ')} MiB ` +
        `with ${socketCount / 2} sockets each: ≈ ${perSocket.map((b) => (b / 1024).toFixed(1)).join(' / ')} KiB per socket`,
    );

    // Load: `rate` messages per second for `seconds`, alternating the instance posted to.
    const total = rate * seconds;
    const headers = { authorization: `Bearer ${sender.token}`, 'content-type': 'application/json' };
    let failures = 0;
    const answered: number[] = [];
    const posts: Array<Promise<void>> = [];
    const startedLoad = performance.now();
    for (let k = 0; k < total; k += 1) {
      const due = startedLoad + (k * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await settle(wait);
      const person = people[Math.floor(Math.random() * people.length)];
      const via = k % 2;
      if (via !== receiverOf.get(person.ticketId)) crossed += 1;
      const messageId = randomUUID();
      sentAt.set(messageId, performance.now());
      posts.push(
        fetch(`${servers[via].url}/api/supportchat`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ ticketId: person.ticketId, message: `bench ${k}`, messageId }),
        }).then(
          async (res) => {
            answered.push(performance.now() - sentAt.get(messageId)!);
            ackedAt.set(messageId, performance.now());
            if (res.status !== 201) failures += 1;
            await res.arrayBuffer();
          },
          () => {
            failures += 1;
          },
        ),
      );
    }
    await Promise.all(posts);
    await settle(2000);
    const sorted = [...latencies].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    console.log(
      `  ${total} messages at ${rate}/s over ${seconds} s through 2 instances (${crossed} crossed instances); ` +
        `delivered ${latencies.length}/${total}, duplicates ${duplicates}, failed posts ${failures}`,
    );
    console.log(
      `  delivery latency (POST start → push on the socket): p50 ${p50.toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, ` +
        `p99 ${p99.toFixed(1)} ms, max ${sorted[sorted.length - 1]?.toFixed(1)} ms — budget p99 < 100 ms: ${p99 < 100 ? 'met' : 'NOT met'}`,
    );
    if (!(p99 < 100) || latencies.length < total) process.exitCode = 1;
    const acks = [...answered].sort((a, b) => a - b);
    console.log(`  of which the POST (commit and acknowledgement): p50 ${percentile(acks, 50).toFixed(1)} ms, p99 ${percentile(acks, 99).toFixed(1)} ms`);
    const hubShare = afterAck
      .filter((p) => ackedAt.has(p.id))
      .map((p) => p.at - ackedAt.get(p.id)!)
      .sort((a, b) => a - b);
    console.log(`  push arrival after the POST answer: p50 ${percentile(hubShare, 50).toFixed(1)} ms, p99 ${percentile(hubShare, 99).toFixed(1)} ms`);
    const load = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
    console.log(`  machine load average during the run: ${load} (2 cores)`);
    return { p50, p99, delivered: latencies.length, total, duplicates, failures, perSocketBytes: perSocket };
  } finally {
    for (const ws of sockets) ws.terminate();
    await Promise.all(servers.map((s) => s.stop()));
    await app.close();
    await db.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

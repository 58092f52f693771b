import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { startServer, type RunningServer } from '#tests/e2e/support/server.ts';
import { testConfig } from '#tests/setup/test-app.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '#tests/setup/test-database.ts';
import { as } from '#tests/setup/test-users.ts';
import { ticketsFixture, type TicketsFixture } from '../tickets/fixture.ts';
import { HubClient } from './hub-client.ts';

/**
 * ARCHITECTURE.md "Scale-out": two instances on one database. On PostgreSQL these are two
 * server processes (server/main.ts, as `npm start` runs it); PGlite cannot be shared between
 * processes, so there the two instances are two apps in this process on one PGlite handle.
 */
for (const kind of testDatabaseKinds) {
  describe(`two server instances on one database [${kind}]`, () => {
    let database: TestDatabase;
    let dataDir: string;
    /** In-process app on the same database: creates users and mints their tokens. */
    let admin: FastifyInstance;
    let second: FastifyInstance | undefined;
    const processes: RunningServer[] = [];
    let urlA: string;
    let urlB: string;
    let f: TicketsFixture;
    const clients: HubClient[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      dataDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-two-'));
      const config = testConfig(dataDir);
      admin = await buildApp({ config, db: database.db, logger: false, runJobs: false });
      await admin.ready();
      f = await ticketsFixture(admin);
      if (kind === 'postgres') {
        // Same issuer as the in-process app that mints the tokens (and as any load-balanced pair).
        const env = { DATABASE_URL: database.url!, LOG_LEVEL: 'warn', PUBLIC_URL: config.publicUrl };
        const [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
        processes.push(a, b);
        urlA = a.url;
        urlB = b.url;
      } else {
        second = await buildApp({ config, db: database.db, logger: false, runJobs: false });
        urlA = await admin.listen({ port: 0, host: '127.0.0.1' });
        urlB = await second.listen({ port: 0, host: '127.0.0.1' });
      }
    });

    afterAll(async () => {
      for (const c of clients) c.close();
      await Promise.all(processes.map((p) => p.stop()));
      await second?.close();
      await admin?.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    const call = (baseUrl: string, method: string, url: string, token: string, body?: unknown) =>
      fetch(`${baseUrl}${url}`, {
        method,
        headers: { ...as({ token }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const connect = async (baseUrl: string, token: string) => {
      const client = await HubClient.connect(baseUrl, token);
      clients.push(client);
      return client;
    };

    it('should deliver a message posted through instance A to a socket of instance B', async () => {
      const raised = await call(urlA, 'POST', '/api/v1/supportticket', f.requester.token!, {
        title: 'Two instances',
        description: 'Chat across servers',
        supportTicketPriorityId: 2,
        supportGroupId: f.groups.general,
      });
      expect(raised.status).toBe(201);
      const { ticketId } = (await raised.json()) as { ticketId: number };
      const requesterOnB = await connect(urlB, f.requester.token!);
      const agentOnB = await connect(urlB, f.agentB.token!);
      const outsiderOnB = await connect(urlB, f.otherRequester.token!);

      const messageId = randomUUID();
      const sent = await call(urlA, 'POST', '/api/supportchat', f.agentA.token!, { ticketId, message: 'Hello from instance A', messageId });
      expect(sent.status).toBe(201);
      for (const client of [requesterOnB, agentOnB]) {
        const frame = await client.waitFor((fr) => fr.kind === 'chat.message' && fr.data?.messageId === messageId);
        expect(frame.data).toMatchObject({ ticketId, message: 'Hello from instance A', fromUserId: f.agentA.id, seq: 1 });
      }
      const markerTicket = await call(urlA, 'POST', '/api/v1/supportticket', f.otherRequester.token!, {
        title: 'Marker',
        description: 'Marker',
        supportTicketPriorityId: 1,
        supportGroupId: f.groups.technical,
      });
      const marker = (await markerTicket.json()) as { ticketId: number };
      await outsiderOnB.waitFor((fr) => fr.ticketId === marker.ticketId);
      expect(outsiderOnB.events().filter((fr) => fr.ticketId === ticketId)).toEqual([]);
    });

    it('should update a list open on A when a ticket is claimed on B', async () => {
      const raised = await call(urlB, 'POST', '/api/v1/supportticket', f.requester.token!, {
        title: 'Claim me',
        description: 'Claimed on B, seen on A',
        supportTicketPriorityId: 3,
        supportGroupId: f.groups.general,
      });
      const { ticketId } = (await raised.json()) as { ticketId: number };
      const requesterOnA = await connect(urlA, f.requester.token!);
      const agentOnA = await connect(urlA, f.agentB.token!);

      const claim = await call(urlB, 'POST', '/api/v1/supportticketstatus/claimticket', f.agentA.token!, { ticketId });
      expect(claim.status).toBe(200);
      for (const client of [requesterOnA, agentOnA]) {
        const frame = await client.waitFor((fr) => fr.kind === 'ticket.changed' && fr.ticketId === ticketId && fr.data?.change === 'ticket.claim');
        expect(frame.data).toMatchObject({ statusId: 2, assigneeId: f.agentA.id });
      }
      // What the list on A reloads on that push now shows the claim.
      const list = await call(urlA, 'POST', '/api/v1/supportticket/searchbyuser', f.requester.token!, { pageNumber: 1, pageSize: 50 });
      const rows = ((await list.json()) as { data: Array<{ ticketId: number; statusId: number; assigneeId: string | null }> }).data;
      expect(rows.find((r) => r.ticketId === ticketId)).toMatchObject({ statusId: 2, assigneeId: f.agentA.id });
    });

    it('should close sockets on both instances when the session is revoked on one', async () => {
      const onA = await connect(urlA, f.examsAgent.token!);
      const onB = await connect(urlB, f.examsAgent.token!);
      const logout = await call(urlA, 'POST', `/api/users/${f.examsAgent.id}/invalidatepermission`, f.examsAgent.token!, { userId: f.examsAgent.id });
      expect(logout.status).toBe(200);
      expect((await onA.waitForClose()).code).toBe(4403);
      expect((await onB.waitForClose()).code).toBe(4403);
    });

    it('should send 1001 when an instance shuts down and lose nothing when the client resumes on the other one', async () => {
      const raised = await call(urlA, 'POST', '/api/v1/supportticket', f.requester.token!, {
        title: 'Failover',
        description: 'Instance B goes away',
        supportTicketPriorityId: 2,
        supportGroupId: f.groups.general,
      });
      const { ticketId } = (await raised.json()) as { ticketId: number };
      const onB = await connect(urlB, f.requester.token!);
      const send = async (message: string) => {
        const res = await call(urlA, 'POST', '/api/supportchat', f.agentA.token!, { ticketId, message, messageId: randomUUID() });
        expect(res.status).toBe(201);
        return ((await res.json()) as { messageId: string }).messageId;
      };
      const firstId = await send('before the shutdown');
      const first = await onB.waitFor((fr) => fr.data?.messageId === firstId);

      if (kind === 'postgres') expect(await processes[1].stop()).toBe(0);
      else await second!.close();
      expect((await onB.waitForClose()).code).toBe(1001);

      const during = [await send('while B is down 1'), await send('while B is down 2')];
      const onA = await HubClient.connect(urlA, f.requester.token!, first.cursor);
      clients.push(onA);
      const after = await send('after the move');
      await onA.waitFor((fr) => fr.data?.messageId === after);
      const got = onA
        .events('chat.message')
        .filter((fr) => fr.ticketId === ticketId)
        .map((fr) => fr.data?.messageId);
      expect(got).toEqual([...during, after]);
    });

    if (kind === 'postgres') {
      it('should listen again after the LISTEN connection is cut (PostgreSQL)', async () => {
        const got: string[] = [];
        await database.db.listen('probe_reconnect', (payload) => got.push(payload));
        await database.db.query(`select pg_notify('probe_reconnect', 'before')`);
        await expect.poll(() => got).toEqual(['before']);
        const cut = await database.db.query<{ ok: boolean }>(
          `select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`,
        );
        expect(cut.rows.length).toBeGreaterThan(0);
        await expect
          .poll(
            async () => {
              await database.db.query(`select pg_notify('probe_reconnect', 'after')`);
              return got.includes('after');
            },
            { timeout: 8000, interval: 300 },
          )
          .toBe(true);
      });
    }
  });
}

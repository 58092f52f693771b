import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from '../tickets/fixture.ts';
import { eventRequest } from '../tickets/ticket-events-http.ts';
import { latestEventId, pruneEvents } from '#server/modules/realtime/realtime-repository.ts';
import { HubClient } from './hub-client.ts';

async function chat(app: FastifyInstance, user: TestUser, ticketId: number, message: string) {
  const res = await app.inject({ method: 'POST', url: '/api/supportchat', headers: as(user), payload: { ticketId, message, messageId: randomUUID() } });
  if (res.statusCode !== 201) throw new Error(`send failed ${res.statusCode}: ${res.body}`);
  return res.json() as { messageId: string; seq: number };
}

describeEachDatabase('real-time hub /api/hubs/notifications', (get) => {
  let f: TicketsFixture;
  let baseUrl: string;
  const clients: HubClient[] = [];
  const connect = async (user: TestUser, after?: number) => {
    const client = await HubClient.connect(baseUrl, user.token!, after);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const { app } = get();
    f = await ticketsFixture(app);
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => {
    for (const c of clients) c.close();
  });

  describe('authentication', () => {
    it('should answer ready with the user and a cursor when the first frame carries a valid access token', async () => {
      const client = await connect(f.requester);
      const ready = client.frames[0];
      expect(ready).toMatchObject({ type: 'ready', userId: f.requester.id });
      expect(typeof ready.cursor).toBe('number');
      expect(Date.parse(String(ready.expiresAt))).toBeGreaterThan(Date.now());
      client.send({ type: 'ping' });
      await client.waitFor((fr) => fr.type === 'pong');
    });

    it('should close with 4401 for a bad or an expired token, and 4400 for frames it does not know', async () => {
      const { app } = get();
      const bad = await HubClient.open(baseUrl);
      bad.send({ type: 'auth', token: 'not.a.token' });
      expect(await bad.waitForClose()).toEqual({ code: 4401, reason: 'token invalid' });

      const claims = await app.jwtSigner.verifyAccessToken(f.requester.token!, new Date());
      const expiredToken = await app.jwtSigner.signAccessToken(claims, new Date(Date.now() - 3_600_000), 60);
      const expired = await HubClient.open(baseUrl);
      expired.send({ type: 'auth', token: expiredToken });
      expect(await expired.waitForClose()).toEqual({ code: 4401, reason: 'token expired' });

      const garbage = await HubClient.open(baseUrl);
      garbage.send('{not json');
      expect((await garbage.waitForClose()).code).toBe(4400);

      const unknown = await HubClient.open(baseUrl);
      unknown.send({ type: 'subscribe', everything: true });
      expect((await unknown.waitForClose()).code).toBe(4400);
      expect(unknown.frames).toEqual([]);
    });

    it('should close with 4401 when the token expires and nobody re-authenticated', async () => {
      const { app } = get();
      const claims = await app.jwtSigner.verifyAccessToken(f.requester.token!, new Date());
      const shortToken = await app.jwtSigner.signAccessToken(claims, new Date(), 2);
      const client = await HubClient.connect(baseUrl, shortToken);
      expect(await client.waitForClose(5000)).toEqual({ code: 4401, reason: 'token expired' });
    });

    it('should keep the socket open after a refresh when the new token is sent, and refuse a token of someone else', async () => {
      const { app } = get();
      const user = await createSignedInUser(app, { roles: ['Candidate'] });
      const claims = await app.jwtSigner.verifyAccessToken(user.token, new Date());
      const shortToken = await app.jwtSigner.signAccessToken(claims, new Date(), 2);
      const client = await HubClient.connect(baseUrl, shortToken);
      client.send({ type: 'auth', token: user.token });
      await client.waitFor((fr) => fr.type === 'reauthenticated');
      await new Promise((r) => setTimeout(r, 2500));
      expect(client.closed).toBeUndefined();
      client.send({ type: 'auth', token: f.otherRequester.token });
      expect(await client.waitForClose()).toEqual({ code: 4403, reason: 'token of another user' });
    });

    it('should close the socket with 4403 when the session is revoked (logout)', async () => {
      const { app } = get();
      const user = await createSignedInUser(app, { roles: ['Candidate'] });
      const client = await connect(user);
      const logout = await app.inject({ method: 'POST', url: `/api/users/${user.id}/invalidatepermission`, headers: as(user), payload: { userId: user.id } });
      expect(logout.statusCode).toBe(200);
      expect(await client.waitForClose()).toEqual({ code: 4403, reason: 'session ended' });
      const again = await HubClient.open(baseUrl);
      again.send({ type: 'auth', token: user.token });
      expect((await again.waitForClose()).code).toBe(4403);
    });

    it('should push the new permissions when a role is granted', async () => {
      const { app, db } = get();
      const user = await createSignedInUser(app, { roles: ['Candidate'] });
      const client = await connect(user);
      await db.query(`insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = 'root' and name = 'SupportAgent'`, [user.id]);
      const frame = await client.waitFor((fr) => fr.type === 'permissions.changed');
      expect(frame.permissions).toContain('Permissions.SupportTickets.Work');
    });
  });

  describe('control signals from the database', () => {
    it('should close the sockets of a user who is deactivated', async () => {
      const { app, db } = get();
      const user = await createSignedInUser(app, { roles: ['Candidate'] });
      const client = await connect(user);
      await db.query('update users set is_active = false where id = $1', [user.id]);
      expect(await client.waitForClose()).toEqual({ code: 4403, reason: 'session ended' });
    });

    it('should push new permissions to holders of a role whose permissions change, and keep others quiet', async () => {
      const { app, db } = get();
      const tester = await createSignedInUser(app, { roles: ['Tester'] });
      const candidate = await createSignedInUser(app, { roles: ['Candidate'] });
      const [testerSocket, candidateSocket] = await Promise.all([connect(tester), connect(candidate)]);
      await db.query(
        `insert into role_permissions (role_id, permission) select id, 'Permissions.Exams.View' from roles where tenant_id = 'root' and name = 'Tester'`,
      );
      try {
        const frame = await testerSocket.waitFor((fr) => fr.type === 'permissions.changed');
        expect(frame.permissions).toContain('Permissions.Exams.View');
        // A push the candidate does get, to show the permission push would have arrived by now.
        await db.query(`insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = 'root' and name = 'Tester'`, [candidate.id]);
        const own = await candidateSocket.waitFor((fr) => fr.type === 'permissions.changed');
        expect(candidateSocket.frames.filter((fr) => fr.type === 'permissions.changed')).toEqual([own]);
      } finally {
        await db.query(
          `delete from role_permissions where permission = 'Permissions.Exams.View' and role_id = (select id from roles where tenant_id = 'root' and name = 'Tester')`,
        );
      }
    });
  });

  describe('who receives what', () => {
    it('should push a chat message to the requester, the group agents and support admins only', async () => {
      const { app } = get();
      const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      const [requester, agentB, admin, other, techAgent] = await Promise.all(
        [f.requester, f.agentB, f.supportAdmin, f.otherRequester, f.technicalAgent].map((u) => connect(u)),
      );
      const sent = await chat(app, f.agentA, ticket.ticketId, 'We are looking into it');
      for (const client of [requester, agentB, admin]) {
        const frame = await client.waitFor((fr) => fr.kind === 'chat.message' && fr.data?.messageId === sent.messageId);
        expect(frame).toMatchObject({ type: 'event', ticketId: ticket.ticketId, data: { message: 'We are looking into it', seq: 1, fromUserId: f.agentA.id } });
      }
      // A later push that the outsiders may see: delivery is in cursor order, so had they been
      // sent the chat message they would hold it by the time this arrives.
      const own = await raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.technical });
      const marker = await chat(app, f.otherRequester, own.ticketId, 'marker');
      for (const client of [other, techAgent]) {
        await client.waitFor((fr) => fr.data?.messageId === marker.messageId);
        expect(client.events().filter((fr) => fr.ticketId === ticket.ticketId)).toEqual([]);
      }
      expect(requester.events().some((fr) => fr.ticketId === own.ticketId)).toBe(false);
      expect(agentB.events().some((fr) => fr.ticketId === own.ticketId)).toBe(false);
    });

    it('should push ticket changes to the audience before and after a reassignment, and to nobody else', async () => {
      const { app } = get();
      const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      const [requester, agentB, techAgent, examsAgent, other] = await Promise.all(
        [f.requester, f.agentB, f.technicalAgent, f.examsAgent, f.otherRequester].map((u) => connect(u)),
      );
      const claim = await app.inject({ ...eventRequest('ticket.claim', ticket.ticketId), headers: as(f.agentA) });
      expect(claim.statusCode).toBe(200);
      for (const client of [requester, agentB]) {
        const frame = await client.waitFor((fr) => fr.kind === 'ticket.changed' && fr.ticketId === ticket.ticketId && fr.data?.change === 'ticket.claim');
        expect(frame.data).toMatchObject({ statusId: 2, previousStatusId: 1, assigneeId: f.agentA.id, actorId: f.agentA.id });
      }
      const reassign = await app.inject({
        ...eventRequest('ticket.reassign', ticket.ticketId, { toSupportGroupId: f.groups.technical }),
        headers: as(f.agentA),
      });
      expect(reassign.statusCode).toBe(200);
      for (const client of [requester, agentB, techAgent]) {
        await client.waitFor((fr) => fr.ticketId === ticket.ticketId && fr.data?.change === 'ticket.reassign');
      }
      // After the move the old group no longer hears about the ticket; the new one does.
      const chatAfter = await chat(app, f.technicalAgent, ticket.ticketId, 'Technical here');
      await techAgent.waitFor((fr) => fr.data?.messageId === chatAfter.messageId);
      await requester.waitFor((fr) => fr.data?.messageId === chatAfter.messageId);
      const marker = await chat(app, f.agentB, (await raiseTicket(app, f.agentB, { supportGroupId: f.groups.exams })).ticketId, 'marker');
      await agentB.waitFor((fr) => fr.data?.messageId === marker.messageId);
      await examsAgent.waitFor((fr) => fr.data?.messageId === marker.messageId);
      expect(agentB.events().some((fr) => fr.data?.messageId === chatAfter.messageId)).toBe(false);
      expect(examsAgent.events().some((fr) => fr.ticketId === ticket.ticketId)).toBe(false);
      expect(other.events().some((fr) => fr.ticketId === ticket.ticketId)).toBe(false);
    });

    it("should tell the reader's other screens when a chat is marked read", async () => {
      const { app } = get();
      const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await chat(app, f.agentA, ticket.ticketId, 'unread for the requester');
      const tab = await connect(f.requester);
      const agentSocket = await connect(f.agentA);
      const read = await app.inject({ method: 'POST', url: '/api/supportchat/markread', headers: as(f.requester), payload: { ticketId: ticket.ticketId } });
      expect(read.json().unreadCount).toBe(0);
      const frame = await tab.waitFor((fr) => fr.kind === 'chat.read');
      expect(frame.data).toEqual({ ticketId: ticket.ticketId, lastSeq: 1, lastReadSeq: 1, unreadCount: 0 });
      const marker = await chat(app, f.requester, ticket.ticketId, 'marker');
      await agentSocket.waitFor((fr) => fr.data?.messageId === marker.messageId);
      expect(agentSocket.events('chat.read')).toEqual([]);
    });
  });

  describe('resuming', () => {
    it('should replay exactly what was missed after the cursor, then go live, without duplicates', async () => {
      const { app } = get();
      const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      const first = await connect(f.requester);
      const before = await chat(app, f.agentA, ticket.ticketId, 'before the drop');
      const seen = await first.waitFor((fr) => fr.data?.messageId === before.messageId);
      first.close();
      await first.waitForClose();

      const missed = [];
      for (let i = 0; i < 5; i += 1) missed.push(await chat(app, f.agentA, ticket.ticketId, `missed ${i}`));

      const http = await app.inject({ method: 'GET', url: `/api/hubs/notifications/missed?after=${seen.cursor}`, headers: as(f.requester) });
      expect(http.statusCode).toBe(200);
      // Each reply also notifies the requester (issue 21): the chat messages are the ones sent, in order.
      const chatEvents = http.json().events.filter((e: { kind: string }) => e.kind === 'chat.message');
      expect(chatEvents.map((e: { data: { messageId: string } }) => e.data.messageId)).toEqual(missed.map((m) => m.messageId));
      // Six notifications: the five missed replies', and the one of "before the drop", committed just after its message.
      expect(http.json().events.filter((e: { kind: string }) => e.kind === 'notification.created')).toHaveLength(6);
      expect(http.json()).toMatchObject({ hasMore: false, resync: false });
      const paged = await app.inject({ method: 'GET', url: `/api/hubs/notifications/missed?after=${seen.cursor}&limit=2`, headers: as(f.requester) });
      expect(paged.json().events).toHaveLength(2);
      expect(paged.json().hasMore).toBe(true);
      expect(paged.json().cursor).toBe(paged.json().events[1].cursor);

      const resumed = await connect(f.requester, seen.cursor);
      const live = await chat(app, f.agentA, ticket.ticketId, 'live again');
      await resumed.waitFor((fr) => fr.data?.messageId === live.messageId);
      const got = resumed.events('chat.message').filter((fr) => fr.ticketId === ticket.ticketId);
      expect(got.map((fr) => fr.data?.message)).toEqual(['missed 0', 'missed 1', 'missed 2', 'missed 3', 'missed 4', 'live again']);
      const cursors = resumed.events().map((fr) => fr.cursor!);
      expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
      expect(new Set(cursors).size).toBe(cursors.length);
    });

    it('should answer 400 for a bad cursor and 401 without a token', async () => {
      const { app } = get();
      expect((await app.inject({ method: 'GET', url: '/api/hubs/notifications/missed?after=-1', headers: as(f.requester) })).statusCode).toBe(400);
      expect((await app.inject({ method: 'GET', url: '/api/hubs/notifications/missed?after=abc', headers: as(f.requester) })).statusCode).toBe(400);
      expect((await app.inject({ method: 'GET', url: '/api/hubs/notifications/missed?after=0' })).statusCode).toBe(401);
      const socket = await HubClient.open(baseUrl);
      socket.send({ type: 'auth', token: f.requester.token, after: -5 });
      expect((await socket.waitForClose()).code).toBe(4400);
    });

    it('should answer resync when the cursor is older than the kept log, on the socket and over HTTP', async () => {
      const { app, db } = get();
      const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      const watcher = await connect(f.requester);
      const sent = [];
      for (const text of ['one', 'two', 'three']) sent.push(await chat(app, f.agentA, ticket.ticketId, text));
      const frames = [];
      for (const m of sent) frames.push(await watcher.waitFor((fr) => fr.data?.messageId === m.messageId));
      // Retention dropped everything up to the second message.
      expect(await pruneEvents(db, new Date(Date.now() + 60_000))).toBeGreaterThan(0);
      await db.query('delete from realtime_events where id <= $1', [frames[1].cursor]);
      const stale = await HubClient.connect(baseUrl, f.requester.token!, frames[0].cursor);
      clients.push(stale);
      const resync = await stale.waitFor((fr) => fr.type === 'resync');
      expect(resync.cursor).toBeGreaterThanOrEqual(frames[2].cursor!);
      const http = await app.inject({ method: 'GET', url: `/api/hubs/notifications/missed?after=${frames[0].cursor}`, headers: as(f.requester) });
      expect(http.json().resync).toBe(true);
      // The last reply's notification (issue 21) is the newest event this requester may see.
      await watcher.waitFor(() => watcher.events('notification.created').length >= 3);
      const newest = Math.max(...watcher.events().map((fr) => fr.cursor!));
      const fine = await app.inject({ method: 'GET', url: `/api/hubs/notifications/missed?after=${newest}`, headers: as(f.requester) });
      expect(fine.json()).toMatchObject({ resync: false, events: [] });
    });
  });

  it('should describe the protocol in the OpenAPI document', async () => {
    const { app } = get();
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/hubs/notifications'].get.description).toContain('"type":"auth"');
    expect(doc.paths['/api/hubs/notifications/missed'].get.summary).toBe('The pushes you missed after a cursor, oldest first');
    const plain = await app.inject({ method: 'GET', url: '/api/hubs/notifications' });
    expect(plain.statusCode).toBe(426);
    expect(plain.json().messages).toEqual(['This is a WebSocket endpoint: open it with a WebSocket upgrade.']);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/supportchat', '/api/supportchat/chatdetails', '/api/supportchat/markread', '/api/supportchat/unreadcounts']),
    );
  });

  describe('under load', () => {
    it('should give every socket each event after its ready cursor exactly once, in order, while sockets come and go', async () => {
      const { app, db } = get();
      const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      const agents = await Promise.all(Array.from({ length: 12 }, () => createSignedInUser(app, { roles: ['SupportAgent'], groups: [f.groups.general] })));
      const sockets: HubClient[] = [];
      const fromStart: boolean[] = [];
      const sends: Array<Promise<unknown>> = [];
      const base = await latestEventId(db);
      for (let i = 0; i < 60; i += 1) {
        sends.push(chat(app, f.agentA, ticket.ticketId, `burst ${i}`));
        // A new person connects every few messages, while sends are in flight; half resume from before the burst.
        if (i % 5 === 0) {
          fromStart.push(i % 10 !== 0);
          sockets.push(await connect(agents[i / 5], i % 10 === 0 ? undefined : base));
        }
      }
      await Promise.all(sends);
      const { rows } = await db.query<{ id: number }>(`select id from realtime_events where ticket_id = $1 and kind = 'chat.message' order by id`, [
        ticket.ticketId,
      ]);
      const all = rows.map((r) => Number(r.id));
      expect(all).toHaveLength(60);
      for (const socket of sockets) await socket.waitFor((fr) => fr.cursor === all[all.length - 1]);
      sockets.forEach((socket, k) => {
        const ready = socket.frames.find((fr) => fr.type === 'ready')!;
        const got = socket
          .events('chat.message')
          .filter((fr) => fr.ticketId === ticket.ticketId)
          .map((fr) => fr.cursor);
        // Resuming from before the burst replays all of it; a fresh socket gets everything after its ready cursor.
        expect(got).toEqual(fromStart[k] ? all : all.filter((id) => id > ready.cursor!));
        const cursors = socket.events().map((fr) => fr.cursor!);
        expect(cursors).toEqual([...new Set(cursors)].sort((a, b) => a - b));
      });
    });
  });
});

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '#server/modules/notifications/notify.ts';
import { notificationMailHandler, NOTIFICATION_MAIL_JOB } from '#server/modules/notifications/notify.ts';
import type { Mail } from '#server/plugins/mail.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { HubClient } from '../realtime/hub-client.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from '../tickets/fixture.ts';

interface Listed {
  data: Array<{
    id: number;
    kind: string;
    titleKey: string;
    params: Record<string, unknown>;
    link: string | null;
    readOn: string | null;
    archivedOn: string | null;
  }>;
  totalCount: number;
  unreadCount: number;
}

async function call(app: FastifyInstance, user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) {
  return app.inject({ method, url, headers: as(user), ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

async function list(app: FastifyInstance, user: TestUser, body: Record<string, unknown> = {}): Promise<Listed> {
  const res = await call(app, user, 'POST', '/api/v1/notification/search', { pageSize: 50, ...body });
  expect(res.statusCode).toBe(200);
  return res.json() as Listed;
}

async function chat(app: FastifyInstance, user: TestUser, ticketId: number, message: string) {
  const res = await call(app, user, 'POST', '/api/supportchat', { ticketId, message, messageId: randomUUID() });
  expect(res.statusCode).toBe(201);
}

async function mailJobs(app: FastifyInstance, to: string) {
  const { rows } = await app.db.query<{ payload: { kind: string; language: string; to: string } }>(
    `select payload from jobs where kind = $1 and payload->>'to' = $2 order by created_at`,
    [NOTIFICATION_MAIL_JOB, to],
  );
  return rows.map((r) => r.payload);
}

describeEachDatabase('notification center /api/v1/notification', (get) => {
  let f: TicketsFixture;
  let baseUrl: string;
  const clients: HubClient[] = [];

  beforeAll(async () => {
    const { app } = get();
    f = await ticketsFixture(app);
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => {
    for (const c of clients) c.close();
  });

  it('should notify the requester when an agent replies, and push it with the unread count over the hub', async () => {
    const { app } = get();
    const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Hall ticket missing' });
    const hub = await HubClient.connect(baseUrl, f.requester.token!);
    clients.push(hub);
    const before = (await list(app, f.requester)).unreadCount;

    await chat(app, f.agentA, ticket.ticketId, 'We are looking into it.');

    const pushed = await hub.waitFor((fr) => fr.type === 'event' && fr.kind === 'notification.created');
    const data = pushed.data as { notification: { kind: string; params: Record<string, unknown>; link: string }; unreadCount: number };
    expect(data.notification).toMatchObject({
      kind: 'ticket.reply',
      params: { ticketId: ticket.ticketId, title: 'Hall ticket missing', from: 'Chen Agent' },
      link: `/tickets/${ticket.ticketId}`,
    });
    expect(data.unreadCount).toBe(before + 1);
    const listed = await list(app, f.requester);
    expect(listed.unreadCount).toBe(before + 1);
    expect(listed.data[0]).toMatchObject({ kind: 'ticket.reply', titleKey: 'kinds.ticket.reply', readOn: null });
    // The agent, who wrote, is not told of their own reply.
    expect((await list(app, f.agentA)).data.filter((n) => n.kind === 'ticket.reply')).toEqual([]);
  });

  it("should notify the assignee of the requester's reply, and nobody while the ticket is unassigned", async () => {
    const { app } = get();
    const ticket = await raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.general });
    await chat(app, f.otherRequester, ticket.ticketId, 'Any news?');
    expect((await list(app, f.agentA)).data.filter((n) => n.params.ticketId === ticket.ticketId)).toEqual([]);

    expect((await call(app, f.agentA, 'POST', '/api/v1/supportticketstatus/claimticket', { ticketId: ticket.ticketId })).statusCode).toBe(200);
    await chat(app, f.otherRequester, ticket.ticketId, 'Still waiting.');
    const mine = (await list(app, f.agentA)).data.filter((n) => n.params.ticketId === ticket.ticketId);
    expect(mine.map((n) => [n.kind, n.link])).toEqual([['ticket.reply', `/support/tickets/${ticket.ticketId}`]]);
  });

  it('should notify of a status change, an assignment by someone else, and a resolution', async () => {
    const { app } = get();
    const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Wrong centre' });
    await call(app, f.agentA, 'POST', '/api/v1/supportticketstatus/claimticket', { ticketId: ticket.ticketId });
    const reassigned = await call(app, f.supportAdmin, 'PUT', `/api/v1/supportticketstatus/reassingnticket?ticketId=${ticket.ticketId}`, {
      toSupportGroupId: f.groups.general,
      toSupportUserId: f.agentB.id,
    });
    expect(reassigned.statusCode).toBe(200);
    const resolved = await call(app, f.agentB, 'PATCH', `/api/v1/supportticket/resolveticket?ticketId=${ticket.ticketId}`, {
      answer: 'Moved you to centre 4.',
    });
    expect(resolved.statusCode).toBe(200);
    // Domain events are handled after commit: give the listener a moment.
    await expect
      .poll(async () => (await list(app, f.requester)).data.filter((n) => n.params.ticketId === ticket.ticketId).map((n) => n.kind))
      .toEqual(['ticket.resolved', 'ticket.status']);
    const agentB = (await list(app, f.agentB)).data.filter((n) => n.params.ticketId === ticket.ticketId);
    expect(agentB.map((n) => n.kind)).toEqual(['ticket.assigned']);
    // The agent who claimed it assigned it to themselves: nothing to tell them.
    expect((await list(app, f.agentA)).data.filter((n) => n.params.ticketId === ticket.ticketId && n.kind === 'ticket.assigned')).toEqual([]);
  });

  it('should mark read, mark all read, archive and restore only the caller’s own notifications, pushing the count', async () => {
    const { app } = get();
    const user = await createSignedInUser(app, { roles: ['Candidate'] });
    const a = await notify(app.db, user.id, 'results.published', { params: { examName: 'Physics' }, link: '/registrations/mine' });
    await notify(app.db, user.id, 'bulkjob.finished', { params: { fileName: 'users.xlsx' } });
    const id = a!.notification!.id;
    const hub = await HubClient.connect(baseUrl, user.token);
    clients.push(hub);

    expect((await call(app, f.requester, 'POST', `/api/v1/notification/${id}/read`)).statusCode).toBe(404);
    const read = await call(app, user, 'POST', `/api/v1/notification/${id}/read`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ unreadCount: 1, notification: { id } });
    expect(read.json().notification.readOn).not.toBeNull();
    await hub.waitFor((fr) => fr.kind === 'notification.count' && (fr.data as { unreadCount: number }).unreadCount === 1);

    const archived = await call(app, user, 'POST', `/api/v1/notification/${id}/archive`);
    expect(archived.statusCode).toBe(200);
    expect((await list(app, user)).data.map((n) => n.kind)).toEqual(['bulkjob.finished']);
    expect((await list(app, user, { archived: true })).data.map((n) => n.id)).toEqual([id]);
    expect((await call(app, user, 'POST', `/api/v1/notification/${id}/unarchive`)).statusCode).toBe(200);
    expect((await list(app, user)).data.map((n) => n.id)).toContain(id);

    const all = await call(app, user, 'POST', '/api/v1/notification/readall');
    expect(all.json()).toEqual({ updated: 1, unreadCount: 0 });
    expect((await call(app, user, 'GET', '/api/v1/notification/unreadcount')).json()).toEqual({ unreadCount: 0 });
    expect((await call(app, user, 'POST', '/api/v1/notification/abc/read')).statusCode).toBe(400);
    expect((await call(app, user, 'POST', '/api/v1/notification/99999999/archive')).statusCode).toBe(404);
  });

  it('should respect the per-kind preference: none, e-mail only, both', async () => {
    const { app } = get();
    const user = await createSignedInUser(app, { roles: ['Candidate'], preferredLanguage: 'fr' });
    const prefs = await call(app, user, 'GET', '/api/v1/notification/preferences');
    expect(prefs.json().preferences).toContainEqual({ kind: 'ticket.reply', channel: 'inApp', defaultChannel: 'inApp' });

    const put = await call(app, user, 'PUT', '/api/v1/notification/preferences', {
      preferences: [
        { kind: 'results.published', channel: 'none' },
        { kind: 'bulkjob.finished', channel: 'email' },
        { kind: 'ticket.reply', channel: 'both' },
      ],
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().preferences).toContainEqual({ kind: 'results.published', channel: 'none', defaultChannel: 'both' });
    const bad = await call(app, user, 'PUT', '/api/v1/notification/preferences', { preferences: [{ kind: 'ticket.reply', channel: 'pigeon' }] });
    expect(bad.statusCode).toBe(400);
    const twice = await call(app, user, 'PUT', '/api/v1/notification/preferences', {
      preferences: [
        { kind: 'ticket.reply', channel: 'none' },
        { kind: 'ticket.reply', channel: 'both' },
      ],
    });
    expect(twice.statusCode).toBe(400);

    expect(await notify(app.db, user.id, 'results.published', { params: { examName: 'Chemistry' } })).toMatchObject({ notification: null, email: false });
    expect(await notify(app.db, user.id, 'bulkjob.finished', { params: { fileName: 'a.xlsx' } })).toMatchObject({ notification: null, email: true });
    const both = await notify(app.db, user.id, 'ticket.reply', { params: { ticketId: 7, title: 'x', from: 'y' }, link: '/tickets/7' });
    expect(both!.notification).not.toBeNull();
    expect((await list(app, user)).data.map((n) => n.kind)).toEqual(['ticket.reply']);
    expect((await mailJobs(app, user.email)).map((m) => [m.kind, m.language])).toEqual([
      ['bulkjob.finished', 'fr'],
      ['ticket.reply', 'fr'],
    ]);
  });

  it('should write the e-mail in the preferred language with a link under PUBLIC_URL', async () => {
    const sent: Mail[] = [];
    const handler = notificationMailHandler(() => ({
      mailer: { mode: 'outbox', send: async (m) => void sent.push(m), retryHandler: async () => {} },
      publicUrl: 'https://portal.test/x',
    }));
    const job = (language: string) => ({
      id: '1',
      tenant_id: 'root',
      kind: NOTIFICATION_MAIL_JOB,
      attempts: 0,
      created_by: null,
      payload: {
        kind: 'ticket.reply' as const,
        language,
        to: 'a@b.test',
        name: 'Asha',
        params: { ticketId: 12, title: 'Hall', from: 'Chen' },
        link: '/tickets/12',
      },
    });
    await handler(job('hi') as never);
    await handler(job('gu') as never);
    await handler(job('en-IN') as never);
    expect(sent.map((m) => m.subject)).toEqual(['टिकट #12 पर नया जवाब: Hall', 'ટિકિટ #12 પર નવો જવાબ: Hall', 'New reply on ticket #12: Hall']);
    expect(sent[0].html).toContain('lang="hi"');
    expect(sent[0].text).toContain('https://portal.test/x/tickets/12');
  });

  describe('inactive users', () => {
    it('should not notify a deactivated user', async () => {
      const { app } = get();
      const user = await createSignedInUser(app, { roles: ['Candidate'] });
      await app.db.query('update users set is_active = false where id = $1', [user.id]);
      expect(await notify(app.db, user.id, 'results.published', {})).toBeNull();
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from '../tickets/fixture.ts';
import { sendEvent } from '../tickets/ticket-events-http.ts';

/**
 * The dashboards' support-desk aggregates (issue 21, docs/decisions/0266) against tickets raised,
 * claimed, answered and resolved over HTTP: each count is what the rows say, each caller sees
 * only their own reach, and bad input is a 400, never a 500.
 */
describeEachDatabase('dashboard aggregates of the support desk', (get) => {
  let f: TicketsFixture;
  const ids: Record<string, number> = {};

  const call = (user: TestUser, url: string) => get().app.inject({ method: 'GET', url, headers: as(user) });
  const chat = (app: FastifyInstance, user: TestUser, ticketId: number, message: string) =>
    app.inject({ method: 'POST', url: '/api/supportchat', headers: as(user), payload: { ticketId, message } });

  beforeAll(async () => {
    const { app } = get();
    f = await ticketsFixture(app);
    // Asha: three tickets in General; Chen claims two, answers one; Asha replies on one again.
    ids.answered = (await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Answered ticket' })).ticketId;
    ids.waiting = (await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Waiting ticket' })).ticketId;
    ids.fresh = (await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Fresh ticket' })).ticketId;
    ids.technical = (await raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.technical, title: 'Technical ticket' })).ticketId;
    ids.resolved = (await raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.general, title: 'Resolved ticket' })).ticketId;
    for (const id of [ids.answered, ids.waiting, ids.resolved]) expect((await sendEvent(app, f.agentA, 'ticket.claim', id)).statusCode).toBe(200);
    expect((await chat(app, f.agentA, ids.answered, 'Please clear the browser cache.')).statusCode).toBe(201);
    expect((await chat(app, f.agentA, ids.answered, 'And try again.')).statusCode).toBe(201);
    expect((await chat(app, f.agentA, ids.waiting, 'Which browser?')).statusCode).toBe(201);
    expect((await chat(app, f.requester, ids.waiting, 'Firefox.')).statusCode).toBe(201);
    expect((await sendEvent(app, f.agentA, 'ticket.resolve', ids.resolved)).statusCode).toBe(200);
  });

  it("should list the requester's open tickets with the replies they have not read first", async () => {
    const res = await call(f.requester, '/api/v1/dashboard/tickets/mine');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.openCount).toBe(3);
    // Two unread on "answered"; on "waiting" Asha replied after Chen's message, which read it.
    const unread = Object.fromEntries(body.tickets.map((t: { ticketId: number; unreadCount: number }) => [t.ticketId, t.unreadCount]));
    expect(unread).toEqual({ [ids.answered]: 2, [ids.waiting]: 0, [ids.fresh]: 0 });
    expect(body.unreadTotal).toBe(2);
    expect(body.tickets[0].ticketId).toBe(ids.answered);
    expect(body.tickets[0]).toMatchObject({ title: expect.any(String), supportGroupName: 'General Support', statusId: 2 });
    // Bilal sees only his own, and his resolved one is no longer open.
    const other = (await call(f.otherRequester, '/api/v1/dashboard/tickets/mine')).json();
    expect(other.tickets.map((t: { ticketId: number }) => t.ticketId)).toEqual([ids.technical]);
  });

  it("should count the agent's queue by status and list what waits on them, the longest waiting first", async () => {
    const queue = (await call(f.agentA, '/api/v1/dashboard/support/queue')).json();
    expect(queue.total).toBe(3);
    expect(queue.byStatus).toHaveLength(7);
    expect(queue.byStatus.find((s: { statusId: number }) => s.statusId === 2).count).toBe(2);
    expect(queue.byStatus.find((s: { statusId: number }) => s.statusId === 5).count).toBe(1);
    const waiting = (await call(f.agentA, '/api/v1/dashboard/support/waiting')).json();
    // "answered": Chen spoke last; "resolved" is done: only "waiting" waits on him.
    expect(waiting.tickets.map((t: { ticketId: number }) => t.ticketId)).toEqual([ids.waiting]);
    expect(waiting.total).toBe(1);
    expect(Date.parse(waiting.tickets[0].waitingSince)).toBeGreaterThan(Date.parse(waiting.tickets[0].createdAt) - 1);
    // Dana has nothing assigned.
    expect((await call(f.agentB, '/api/v1/dashboard/support/queue')).json().total).toBe(0);
  });

  it("should show the new, untaken tickets of the agent's groups only", async () => {
    const general = (await call(f.agentB, '/api/v1/dashboard/support/new')).json();
    expect(general.tickets.map((t: { ticketId: number }) => t.ticketId)).toEqual([ids.fresh]);
    const technical = (await call(f.technicalAgent, '/api/v1/dashboard/support/new')).json();
    expect(technical.tickets.map((t: { ticketId: number }) => t.ticketId)).toEqual([ids.technical]);
    expect((await call(f.examsAgent, '/api/v1/dashboard/support/new')).json()).toEqual({ total: 0, tickets: [] });
  });

  it('should give the support admin every group by status, the oldest unresolved and resolutions per day', async () => {
    const overview = (await call(f.supportAdmin, '/api/v1/dashboard/support/overview')).json();
    const general = overview.groups.find((g: { supportGroupId: number }) => g.supportGroupId === f.groups.general);
    const truth = await get().db.query<{ status_id: number; n: number }>(
      `select status_id, count(*)::int as n from support_tickets where tenant_id = 'root' and support_group_id = $1 group by 1`,
      [f.groups.general],
    );
    for (const row of truth.rows) expect(general.byStatus.find((s: { statusId: number }) => s.statusId === row.status_id).count).toBe(row.n);
    expect(overview.groups.find((g: { supportGroupId: number }) => g.supportGroupId === f.groups.accounts).total).toBe(0);
    expect(overview.oldestOpen[0].ticketId).toBe(ids.answered);
    expect(overview.oldestOpen.map((t: { ticketId: number }) => t.ticketId)).not.toContain(ids.resolved);

    const perDay = (await call(f.supportAdmin, '/api/v1/dashboard/support/resolved?days=7')).json();
    expect(perDay).toHaveLength(7);
    expect(perDay.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), count: 1 });
    expect(perDay.slice(0, 6).every((d: { count: number }) => d.count === 0)).toBe(true);
  });

  describe('refusals', () => {
    it('should answer 400 for days out of range or not a number, and 403 to those without the permission', async () => {
      for (const days of ['0', '91', 'abc', '1.5'])
        expect((await call(f.supportAdmin, `/api/v1/dashboard/support/resolved?days=${days}`)).statusCode).toBe(400);
      expect((await call(f.agentA, '/api/v1/dashboard/support/overview')).statusCode).toBe(403);
      expect((await call(f.requester, '/api/v1/dashboard/support/queue')).statusCode).toBe(403);
      expect((await get().app.inject({ method: 'GET', url: '/api/v1/dashboard/tickets/mine' })).statusCode).toBe(401);
    });
  });
});

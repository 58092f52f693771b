import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { ticketLifecycleMachine, ticketStatuses, ticketStatusNames, type TicketParty, type TicketStatus } from '#machines/ticket-lifecycle.machine.ts';
import { ticketLifecyclePaths } from '#machines/ticket-lifecycle.model.ts';
import type { Db } from '#server/db/client.ts';
import { manualClock } from '#server/lib/clock.ts';
import { autoCloseResolved } from '#server/modules/tickets/tickets-service.ts';
import { claimScheduledRun } from '#server/lib/scheduler.ts';
import { expectedStatusAfter, transitionRow } from '#tests/fixtures/ticket-transitions.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, signInDirect, type TestUser } from '#tests/setup/test-users.ts';
import { BOT_TEXT, historyOf, raiseTicket, resolveBotSource, ticketOf, ticketsFixture, type TicketsFixture } from './fixture.ts';
import { sendEvent, type HttpTicketEvent } from './ticket-events-http.ts';

/** How a refusal names each event, and each status's number (spec §7), written out here rather than read from the server. */
const REFUSED_VERB: Record<HttpTicketEvent, string> = {
  'ticket.claim': 'claimed',
  'ticket.release': 'released',
  'ticket.hold': 'put on hold',
  'ticket.resume': 'resumed',
  'ticket.reassign': 'reassigned',
  'ticket.escalate': 'escalated',
  'ticket.resolve': 'resolved',
  'ticket.acceptBotAnswer': 'resolved with the suggested answer',
  'ticket.close': 'closed',
  'ticket.reopen': 'reopened',
  'ticket.cancel': 'cancelled',
  'ticket.edit': 'edited',
};
const STATUS_ID: Record<TicketStatus, number> = { Open: 1, InProgress: 2, OnHold: 3, Escalated: 4, Resolved: 5, Closed: 6, Cancelled: 7 };

async function lastHistory(app: FastifyInstance, admin: TestUser, id: number) {
  return (await historyOf(app, admin, id)).at(-1)!;
}

describeEachDatabase('ticket lifecycle over HTTP', (get) => {
  let f: TicketsFixture;
  let agentsByGroup: Map<number, TestUser[]>;
  beforeAll(async () => {
    const { app } = get();
    f = await ticketsFixture(app);
    const technicalB = await createSignedInUser(app, { roles: ['SupportAgent'], groups: [f.groups.technical] });
    agentsByGroup = new Map([
      [f.groups.general, [f.agentA, f.agentB]],
      [f.groups.technical, [f.technicalAgent, technicalB]],
      [f.groups.exams, [f.examsAgent]],
    ]);
    // A resolved ticket the answer bot can learn from.
    await resolveBotSource(app, f);
  });

  describe('model-based paths replayed against the server', () => {
    // Every shortest path over HTTP: hundreds of requests, slow on a loaded machine.
    it('should reach the status TICKETS.md gives after every step, with one history row per step', async () => {
      const { app } = get();
      const paths = ticketLifecyclePaths();
      expect(paths.length).toBeGreaterThan(10);
      const recorder = replayRecorder(ticketLifecycleMachine, 'http', true);
      for (const path of paths) {
        const trail = path.steps
          .slice(1)
          .map((s) => s.event.type)
          .join(' → ');
        await recorder.run({ ...path, description: trail } as never, async () => {
          let expected: TicketStatus = 'Open';
          const created = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, ...BOT_TEXT });
          expect(created.supportTicketBotId, 'the bot suggests an answer for every path ticket').toEqual(expect.any(String));
          const id = created.ticketId;
          for (const step of path.steps.slice(1)) {
            const event = step.event as { type: string; toSupportUserId?: string; toSupportGroupId?: number };
            const before = await ticketOf(app, f.supportAdmin, id);
            const groupAgents = agentsByGroup.get(before.supportGroupId)!;
            const assignee = [...agentsByGroup.values()].flat().find((u) => u.id === before.assigneeId);
            let res;
            switch (event.type) {
              case 'ticket.childrenDone': {
                // The system sends it when every child is done: finish the children.
                for (const child of before.children.filter((c) => c.status === 'Open')) {
                  const childAgent = agentsByGroup.get(f.groups.exams)![0];
                  expect((await sendEvent(app, childAgent, 'ticket.claim', child.ticketId)).statusCode).toBe(200);
                  res = await sendEvent(app, childAgent, 'ticket.resolve', child.ticketId);
                }
                break;
              }
              case 'ticket.claim':
              case 'ticket.acceptBotAnswer':
                res = await sendEvent(app, groupAgents[0], event.type, id, { supportTicketBotId: before.supportTicketBotId });
                break;
              case 'ticket.reassign':
                res = event.toSupportUserId
                  ? await sendEvent(app, f.supportAdmin, 'ticket.reassign', id, { toSupportUserId: groupAgents[1].id })
                  : await sendEvent(app, f.supportAdmin, 'ticket.reassign', id, {
                      toSupportGroupId: before.supportGroupId === f.groups.general ? f.groups.technical : f.groups.general,
                    });
                break;
              case 'ticket.escalate':
                res = await sendEvent(app, assignee!, 'ticket.escalate', id, { targetSupportGroupId: f.groups.exams });
                break;
              case 'ticket.release':
              case 'ticket.hold':
              case 'ticket.resume':
              case 'ticket.resolve':
                res = await sendEvent(app, assignee!, event.type, id);
                break;
              case 'ticket.edit':
                res = await sendEvent(app, f.supportAdmin, 'ticket.edit', id);
                break;
              default:
                res = await sendEvent(app, f.requester, event.type as HttpTicketEvent, id);
            }
            expect(res?.statusCode, `${trail}: ${event.type} answered ${res?.body}`).toBe(200);
            const after = await ticketOf(app, f.supportAdmin, id);
            // The status TICKETS.md gives (the hand-written table), not the machine's own prediction.
            expected = expectedStatusAfter(expected, event);
            expect(after.status, `${trail}: after ${event.type}`).toBe(expected);
            const history = await lastHistory(app, f.supportAdmin, id);
            const expectedEvent = event.type === 'ticket.edit' ? 'ticket.edited' : event.type;
            expect(history.event, `${trail}: history after ${event.type}`).toBe(expectedEvent);
            if (event.type === 'ticket.childrenDone') expect(history.actorKind).toBe('system');
          }
        });
      }
      // Only the PGlite run writes the file the /machines page shows (both kinds walk the same paths).
      if (get().kind === 'pglite') recorder.write();
    }, 240_000);
  });

  describe('refusals', () => {
    /** Puts a fresh ticket straight into a status (assigned to agentA when the status has an assignee). */
    async function ticketIn(status: TicketStatus): Promise<number> {
      const { app, db } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, ...BOT_TEXT });
      const assigned = !['Open'].includes(status);
      await db.query(
        `update support_tickets set status_id = $2::smallint, assignee_id = $3, closed_at = case when $2::smallint = 6 then now() end where id = $1`,
        [t.ticketId, ticketStatuses[status], assigned ? f.agentA.id : null],
      );
      return t.ticketId;
    }

    it('should refuse every (event, status, party) the machine refuses, and leave the ticket unchanged', async () => {
      const { app, db } = get();
      // The assignee (agentA) is also an agent of the ticket's group, as assignees are.
      const parties: Array<{ party: string; holds: TicketParty[]; user: () => TestUser; hasWork: boolean }> = [
        { party: 'requester', holds: ['requester'], user: () => f.requester, hasWork: false },
        { party: 'agent', holds: ['agent'], user: () => f.agentB, hasWork: true },
        { party: 'assignee', holds: ['assignee', 'agent'], user: () => f.agentA, hasWork: true },
        { party: 'supportAdmin', holds: ['supportAdmin'], user: () => f.supportAdmin, hasWork: true },
      ];
      const routeNeedsWork: Record<HttpTicketEvent, boolean> = {
        'ticket.claim': true,
        'ticket.release': true,
        'ticket.hold': true,
        'ticket.resume': true,
        'ticket.reassign': true,
        'ticket.escalate': false,
        'ticket.resolve': true,
        'ticket.acceptBotAnswer': true,
        'ticket.close': false,
        'ticket.reopen': false,
        'ticket.cancel': false,
        'ticket.edit': false,
      };
      let checked = 0;
      for (const status of ticketStatusNames) {
        for (const type of Object.keys(routeNeedsWork) as HttpTicketEvent[]) {
          for (const { party, holds, user, hasWork } of parties) {
            if (type === 'ticket.edit') continue; // edits have their own rule, tested in the API suite
            const row = transitionRow(type)!;
            const assigneeExists = status !== 'Open';
            // The assignee party only exists once someone holds the ticket.
            if (party === 'assignee' && !assigneeExists) continue;
            const allowed = row.from.includes(status) && holds.some((p) => row.who.includes(p));
            if (allowed) continue;
            const id = await ticketIn(status);
            const before = await ticketOf(app, f.supportAdmin, id);
            const res = await sendEvent(app, user(), type, id, {
              toSupportGroupId: f.groups.technical,
              targetSupportGroupId: f.groups.exams,
              supportTicketBotId: before.supportTicketBotId,
            });
            const expected = routeNeedsWork[type] && !hasWork ? 403 : row.from.includes(status) ? 403 : 409;
            expect(res.statusCode, `${type} on ${status} by ${party}: ${res.body}`).toBe(expected);
            const refusedBy = routeNeedsWork[type] && !hasWork ? 'route' : 'machine';
            if (refusedBy === 'machine') {
              const verb = REFUSED_VERB[type];
              expect(res.json(), `${type} on ${status} by ${party}`).toMatchObject({
                messages: [
                  expected === 409 ? `Ticket ${id} is ${status}; it cannot be ${verb}.` : `You may not do this: ticket ${id} cannot be ${verb} by you.`,
                ],
                currentStatus: status,
                currentStatusId: STATUS_ID[status],
                ticketId: id,
              });
            }
            const after = await ticketOf(app, f.supportAdmin, id);
            expect(after.version, `${type} on ${status} by ${party} changed the ticket`).toBe(before.version);
            const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from support_ticket_history where ticket_id = $1`, [id]);
            expect(rows[0].n).toBeGreaterThanOrEqual(1);
            checked += 1;
          }
        }
      }
      expect(checked).toBeGreaterThan(200);
    }, 180_000);

    it('should answer 404 for a ticket outside the caller’s reach, whatever the event', async () => {
      const { app } = get();
      const id = await ticketIn('InProgress');
      for (const type of ['ticket.hold', 'ticket.resolve', 'ticket.release'] as const) {
        expect((await sendEvent(app, f.technicalAgent, type, id)).statusCode).toBe(404);
      }
      expect((await sendEvent(app, f.otherRequester, 'ticket.cancel', id)).statusCode).toBe(404);
    });

    it('should answer 400 naming the missing reason', async () => {
      const { app } = get();
      const id = await ticketIn('InProgress');
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/v1/supportticket/onholdticket?ticketId=${id}`,
        headers: as(f.agentA),
        payload: { onHoldReason: '' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.onHoldReason).toEqual(['The onHoldReason field is required.']);
    });
  });

  describe('concurrency', () => {
    it('should let exactly one of 50 concurrent claims win', async () => {
      const { app, db } = get();
      const agents = await Promise.all(Array.from({ length: 50 }, () => createSignedInUser(app, { roles: ['SupportAgent'], groups: [f.groups.accounts] })));
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.accounts, title: 'Race me', description: 'Fifty agents at once.' });
      const results = await Promise.all(agents.map((agent) => sendEvent(app, agent, 'ticket.claim', t.ticketId)));
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect(codes.filter((c) => c === 409)).toHaveLength(49);
      const winner = agents[results.findIndex((r) => r.statusCode === 200)];
      const after = await ticketOf(app, f.supportAdmin, t.ticketId);
      expect(after).toMatchObject({ status: 'InProgress', assigneeId: winner.id });
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from support_ticket_history where ticket_id = $1 and event = 'ticket.claim'`, [
        t.ticketId,
      ]);
      expect(rows[0].n).toBe(1);
      const loser = results.find((r) => r.statusCode === 409)!.json();
      expect(loser.currentStatus).toBe('InProgress');
    });
  });

  describe('escalation', () => {
    it('should open a child in the target group and return the parent to its agent when every child is done', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Marks not published' });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const escalated = await sendEvent(app, f.agentA, 'ticket.escalate', t.ticketId, { targetSupportGroupId: f.groups.exams });
      expect(escalated.statusCode).toBe(200);
      const { childTicketId, ticket } = escalated.json();
      expect(ticket.status).toBe('Escalated');
      expect(ticket.children).toEqual([
        {
          ticketId: childTicketId,
          title: 'Marks not published',
          statusId: 1,
          status: 'Open',
          supportGroupId: f.groups.exams,
          supportGroupName: 'Exam Administration',
        },
      ]);
      const child = await ticketOf(app, f.supportAdmin, childTicketId);
      expect(child).toMatchObject({ status: 'Open', supportGroupId: f.groups.exams });
      // The exams queue sees the child; the parent stays with agentA.
      await sendEvent(app, f.examsAgent, 'ticket.claim', childTicketId);
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).status).toBe('Escalated');
      await sendEvent(app, f.examsAgent, 'ticket.resolve', childTicketId);
      const parent = await ticketOf(app, f.supportAdmin, t.ticketId);
      expect(parent).toMatchObject({ status: 'InProgress', assigneeId: f.agentA.id });
      expect(await lastHistory(app, f.supportAdmin, t.ticketId)).toMatchObject({
        event: 'ticket.childrenDone',
        actorKind: 'system',
        fromStatus: 'Escalated',
        toStatus: 'InProgress',
      });
    });

    it('should refuse escalating into the ticket’s own group', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const res = await sendEvent(app, f.agentA, 'ticket.escalate', t.ticketId, { targetSupportGroupId: f.groups.general });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.supportGroupId).toEqual(['Escalate to a different support group than the ticket is in.']);
    });
  });
});

/** The database with some of its methods replaced: to stage a race or a failure around the service. */
function dbOverriding(db: Db, overrides: (target: Db) => Partial<Db>): Db {
  const replaced = overrides(db);
  return new Proxy(db, {
    get(target, prop) {
      if (prop in replaced) return replaced[prop as keyof Db];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The auto-close run's query for the tickets that are due. */
const DUE_TICKETS = /where status_id = \$1 and resolved_at <= \$2/;

const clock = manualClock(new Date('2026-06-01T09:00:00Z'));
describeEachDatabase(
  'auto-close of resolved tickets',
  (get) => {
    it('should close a ticket 7 days after it was resolved, as the system, once', async () => {
      const { app, db } = get();
      const f = await ticketsFixture(app);
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      await sendEvent(app, f.agentA, 'ticket.resolve', t.ticketId);
      const deps = { db, clock, events: app.events };
      clock.advance(7 * 24 * 3600 * 1000 - 60_000);
      expect(await autoCloseResolved(deps, 7)).toBe(0);
      clock.advance(60_000);
      expect(await autoCloseResolved(deps, 7)).toBe(1);
      expect(await autoCloseResolved(deps, 7)).toBe(0);
      // A week passed: the access tokens of the fixture have long expired.
      await signInDirect(app, f.supportAdmin);
      expect(await lastHistory(app, f.supportAdmin, t.ticketId)).toMatchObject({ event: 'ticket.close', actorKind: 'system', toStatus: 'Closed' });
    });

    it('should skip a ticket changed between its selection and its close, and not swallow a failure of the database', async () => {
      const { app, db } = get();
      const f = await ticketsFixture(app);
      const resolvedTicket = async () => {
        const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
        await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
        await sendEvent(app, f.agentA, 'ticket.resolve', t.ticketId);
        return t.ticketId;
      };
      const reopenedMeanwhile = await resolvedTicket();
      const closable = [await resolvedTicket(), await resolvedTicket()];
      clock.advance(8 * 24 * 3600 * 1000);
      const status = async (id: number) =>
        (await db.query<{ status_id: number }>(`select status_id from support_tickets where id = $1`, [id])).rows[0].status_id;
      // A database that fails is not a lost race: the run stops and says why, and closes nothing.
      const failing = dbOverriding(db, () => ({ transaction: async () => Promise.reject(new Error('connection lost')) }));
      await expect(autoCloseResolved({ db: failing, clock, events: app.events }, 7)).rejects.toThrow('connection lost');
      // Nor is a due ticket that cannot be found: only a conflict means someone else got there first.
      const vanishing = dbOverriding(db, (target) => ({
        query: (async (sql: string, params?: unknown[]) =>
          DUE_TICKETS.test(sql) ? { rows: [{ id: 987654321, tenant_id: 'root' }], rowCount: 1 } : target.query(sql, params)) as Db['query'],
      }));
      await expect(autoCloseResolved({ db: vanishing, clock, events: app.events }, 7)).rejects.toThrow('Ticket 987654321 was not found.');
      expect(await Promise.all([reopenedMeanwhile, ...closable].map(status))).toEqual([5, 5, 5]);
      // The run reads the due tickets; before it closes them, someone reopens the first one.
      const racing = dbOverriding(db, (target) => ({
        query: (async (sql: string, params?: unknown[]) => {
          const result = await target.query(sql, params);
          if (DUE_TICKETS.test(sql)) await target.query(`update support_tickets set status_id = 1, version = version + 1 where id = $1`, [reopenedMeanwhile]);
          return result;
        }) as Db['query'],
      }));
      expect(await autoCloseResolved({ db: racing, clock, events: app.events }, 7)).toBe(2);
      expect(await Promise.all([reopenedMeanwhile, ...closable].map(status))).toEqual([1, 6, 6]);
    });

    it('should let one instance claim a scheduled run per interval', async () => {
      const { db } = get();
      const now = clock.now();
      expect(await claimScheduledRun(db, 'test.task', now, 60_000)).toBe(true);
      expect(await claimScheduledRun(db, 'test.task', new Date(now.getTime() + 30_000), 60_000)).toBe(false);
      expect(await claimScheduledRun(db, 'test.task', new Date(now.getTime() + 60_000), 60_000)).toBe(true);
    });
  },
  { clock },
);

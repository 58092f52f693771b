import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';
import { BOT_TEXT, historyOf, raiseTicket, resolveBotSource, ticketOf, ticketsFixture, type TicketsFixture } from './fixture.ts';
import { sendEvent } from './ticket-events-http.ts';

/**
 * What the ticket service refuses and what it records, pinned literally (issue 14): the texts a
 * caller reads, the history a desk reads, and the rules the first mutation run of
 * tickets-service.ts showed no test held (decision 0286): raising for others, acting as someone
 * else, reassigning to a non-agent, the suggested answer accepted twice, edits that change
 * nothing, and an escalated parent with more than one child.
 */

const edit = (app: FastifyInstance, user: TestUser, id: number, payload: Record<string, unknown>) =>
  app.inject({ method: 'PUT', url: `/api/v1/supportticket?ticketId=${id}`, headers: as(user), payload });

describeEachDatabase('ticket refusals and records', (get) => {
  let f: TicketsFixture;
  beforeAll(async () => {
    const { app } = get();
    f = await ticketsFixture(app);
    await resolveBotSource(app, f);
  });

  describe('raising a ticket for someone else', () => {
    it('should refuse a candidate who names another requester, and create nothing', async () => {
      const { app, db } = get();
      const count = async () => (await db.query<{ n: number }>(`select count(*)::int as n from support_tickets`)).rows[0].n;
      const before = await count();
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.requester),
        payload: {
          title: 'For Bilal',
          description: 'On his behalf.',
          supportTicketPriorityId: 2,
          supportGroupId: f.groups.general,
          loginUserId: f.otherRequester.id,
        },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().messages).toEqual(['Only support staff may raise a ticket for someone else.']);
      expect(await count()).toBe(before);
    });

    it('should refuse an agent who names a user that does not exist', async () => {
      const { app } = get();
      const ghost = '00000000-0000-4000-8000-000000000042';
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.agentA),
        payload: { title: 'For nobody', description: 'x', supportTicketPriorityId: 2, supportGroupId: f.groups.general, loginUserId: ghost },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ loginUserId: [`User ${ghost} does not exist or is inactive.`] });
    });

    it('should raise it for the named requester, created by the agent, and say so in the history', async () => {
      const { app } = get();
      const forOther = await raiseTicket(app, f.agentA, { supportGroupId: f.groups.general, loginUserId: f.requester.id, title: 'Raised at the desk' });
      expect(forOther).toMatchObject({ loginUserId: f.requester.id, createdBy: f.agentA.id });
      expect((await historyOf(app, f.supportAdmin, forOther.ticketId))[0]).toMatchObject({
        event: 'ticket.created',
        actorId: f.agentA.id,
        details: { raisedFor: f.requester.id },
      });
      // The requester's own ticket is theirs to see; naming yourself is the same as naming no one.
      expect((await app.inject({ method: 'GET', url: `/api/v1/supportticket?ticketId=${forOther.ticketId}`, headers: as(f.requester) })).statusCode).toBe(200);
      const own = await raiseTicket(app, f.agentA, { supportGroupId: f.groups.general, loginUserId: f.agentA.id });
      expect((await historyOf(app, f.supportAdmin, own.ticketId))[0].details).toEqual({});
    });
  });

  describe('reach by role', () => {
    const read = (app: FastifyInstance, url: string, user: TestUser, id: number) =>
      app.inject({ method: 'GET', url: `/api/v1/${url}?ticketId=${id}`, headers: as(user) });

    it('should show a ticket in the requester view to its requester and to whoever raised it, and to no one else', async () => {
      const { app } = get();
      // Raised at the Technical desk for the candidate, in the General queue.
      const t = await raiseTicket(app, f.technicalAgent, { supportGroupId: f.groups.general, loginUserId: f.requester.id });
      expect((await read(app, 'supportticket', f.requester, t.ticketId)).statusCode).toBe(200);
      expect((await read(app, 'supportticket', f.technicalAgent, t.ticketId)).statusCode).toBe(200);
      // Desk staff who neither raised nor asked for it have no requester view of it, support admins included.
      expect((await read(app, 'supportticket', f.supportAdmin, t.ticketId)).statusCode).toBe(404);
      expect((await read(app, 'supportticket', f.agentA, t.ticketId)).statusCode).toBe(404);
      // In the desk view the raiser is no one special: not of the General queue, so not found.
      expect((await read(app, 'supportticket/byadmin', f.technicalAgent, t.ticketId)).statusCode).toBe(404);
      expect((await read(app, 'supportticket/byadmin', f.agentA, t.ticketId)).statusCode).toBe(200);
    });

    it('should let the assignee see the ticket at the desk even outside its queue, and only while assigned', async () => {
      const { app, db } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.technical });
      expect((await read(app, 'supportticket/byadmin', f.agentB, t.ticketId)).statusCode).toBe(404);
      await db.query(`update support_tickets set assignee_id = $2, status_id = 2 where id = $1`, [t.ticketId, f.agentB.id]);
      expect((await read(app, 'supportticket/byadmin', f.agentB, t.ticketId)).statusCode).toBe(200);
      await db.query(`update support_tickets set assignee_id = null, status_id = 1 where id = $1`, [t.ticketId]);
      expect((await read(app, 'supportticket/byadmin', f.agentB, t.ticketId)).statusCode).toBe(404);
    });
  });

  describe('acting as the signed-in user only', () => {
    it('should refuse a claim made in another user’s name, and accept one in your own', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      const claim = (userId: string) =>
        app.inject({ method: 'POST', url: '/api/v1/supportticketstatus/claimticket', headers: as(f.agentA), payload: { ticketId: t.ticketId, userId } });
      const asOther = await claim(f.agentB.id);
      expect(asOther.statusCode).toBe(400);
      expect(asOther.json().messages).toEqual(['userId must be your own user id; actions are always taken as the signed-in user.']);
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).status).toBe('Open');
      expect((await claim(f.agentA.id)).statusCode).toBe(200);
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).assigneeId).toBe(f.agentA.id);
    });
  });

  describe('reassigning', () => {
    const reassign = (app: FastifyInstance, by: TestUser, id: number, body: { toSupportGroupId?: number | null; toSupportUserId?: string | null }) =>
      app.inject({ method: 'PUT', url: `/api/v1/supportticketstatus/reassingnticket?ticketId=${id}`, headers: as(by), payload: body });

    it('should refuse a person who is not an active agent of the target group, and change nothing', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const before = await ticketOf(app, f.supportAdmin, t.ticketId);
      for (const body of [
        { toSupportGroupId: f.groups.technical, toSupportUserId: f.agentB.id }, // an agent, but of General Support
        { toSupportUserId: f.requester.id }, // not an agent at all
      ]) {
        const res = await reassign(app, f.agentA, t.ticketId, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual({ toSupportUserId: ['The chosen person is not an active agent of that support group.'] });
      }
      expect(await ticketOf(app, f.supportAdmin, t.ticketId)).toMatchObject({
        version: before.version,
        assigneeId: f.agentA.id,
        supportGroupId: f.groups.general,
      });
    });

    it('should move the ticket to another group and agent, recording where it came from', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const res = await reassign(app, f.agentA, t.ticketId, { toSupportGroupId: f.groups.technical, toSupportUserId: f.technicalAgent.id });
      expect(res.statusCode).toBe(200);
      expect(await ticketOf(app, f.supportAdmin, t.ticketId)).toMatchObject({
        status: 'InProgress',
        supportGroupId: f.groups.technical,
        assigneeId: f.technicalAgent.id,
      });
      expect((await historyOf(app, f.supportAdmin, t.ticketId)).at(-1)).toEqual(
        expect.objectContaining({
          event: 'ticket.reassign',
          actorId: f.agentA.id,
          fromStatus: 'InProgress',
          toStatus: 'InProgress',
          details: {
            toSupportGroupId: f.groups.technical,
            toSupportGroupName: 'Technical Support',
            toSupportUserId: f.technicalAgent.id,
            fromSupportGroupId: f.groups.general,
            fromAssigneeId: f.agentA.id,
          },
        }),
      );
    });

    it('should hand a ticket to a colleague of the same group, or back to its queue with no one, but not nowhere', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      expect((await reassign(app, f.agentA, t.ticketId, { toSupportUserId: f.agentB.id })).statusCode).toBe(200);
      expect(await ticketOf(app, f.supportAdmin, t.ticketId)).toMatchObject({
        status: 'InProgress',
        supportGroupId: f.groups.general,
        assigneeId: f.agentB.id,
      });
      const nowhere = await reassign(app, f.agentB, t.ticketId, { toSupportGroupId: null, toSupportUserId: null });
      expect(nowhere.statusCode).toBe(400);
      expect(nowhere.json().errors).toEqual({
        toSupportGroupId: ['The toSupportGroupId field is required.'],
        toSupportUserId: ['The toSupportUserId field is required.'],
      });
      expect((await reassign(app, f.agentB, t.ticketId, { toSupportGroupId: f.groups.general })).statusCode).toBe(200);
      expect(await ticketOf(app, f.supportAdmin, t.ticketId)).toMatchObject({ status: 'Open', supportGroupId: f.groups.general, assigneeId: null });
      expect((await historyOf(app, f.supportAdmin, t.ticketId)).at(-1)?.details).toEqual({
        toSupportGroupId: f.groups.general,
        toSupportGroupName: 'General Support',
        fromSupportGroupId: f.groups.general,
        fromAssigneeId: f.agentB.id,
      });
    });
  });

  describe('escalation records', () => {
    it('should link parent and child both ways, with the escalation text as the child’s description and the parent’s reason', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Certificate name misspelt' });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.agentA),
        payload: { parentSupportTicketId: t.ticketId, supportGroupId: f.groups.exams, description: '  Please correct the certificate.  ' },
      });
      expect(res.statusCode).toBe(200);
      const { childTicketId } = res.json();
      expect((await historyOf(app, f.supportAdmin, t.ticketId)).at(-1)).toMatchObject({
        event: 'ticket.escalate',
        reason: 'Please correct the certificate.',
        details: { childTicketId, toSupportGroupId: f.groups.exams, toSupportGroupName: 'Exam Administration' },
      });
      // The requester cannot open the child (the agent raised it), so their copy of the history does not link to it.
      const seenByRequester = (await historyOf(app, f.requester, t.ticketId)).at(-1)!;
      expect(seenByRequester.event).toBe('ticket.escalate');
      expect(seenByRequester.details).not.toHaveProperty('childTicketId');
      expect(await historyOf(app, f.supportAdmin, childTicketId)).toEqual([
        expect.objectContaining({ event: 'ticket.created', actorId: f.agentA.id, actorKind: 'user', details: { escalatedFrom: t.ticketId } }),
      ]);
      // The child keeps the parent's title and is raised by the escalating agent, in the target queue.
      expect(await ticketOf(app, f.supportAdmin, childTicketId)).toMatchObject({
        title: 'Certificate name misspelt',
        description: 'Please correct the certificate.',
        loginUserId: f.agentA.id,
        createdBy: f.agentA.id,
        supportGroupId: f.groups.exams,
        status: 'Open',
      });
    });

    it('should name a blank escalation text by its own field', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.agentA),
        payload: { parentSupportTicketId: t.ticketId, supportGroupId: f.groups.exams, description: '   ' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ description: ['The description field is required.'] });
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).status).toBe('InProgress');
    });

    it('should keep the parent escalated until every one of its children is done', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const first = (await sendEvent(app, f.agentA, 'ticket.escalate', t.ticketId, { targetSupportGroupId: f.groups.exams })).json().childTicketId;
      await sendEvent(app, f.examsAgent, 'ticket.claim', first);
      await sendEvent(app, f.examsAgent, 'ticket.resolve', first);
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).status).toBe('InProgress');
      // A second escalation while the first child is reopened: two children, one not done.
      const second = (await sendEvent(app, f.agentA, 'ticket.escalate', t.ticketId, { targetSupportGroupId: f.groups.technical })).json().childTicketId;
      expect((await sendEvent(app, f.supportAdmin, 'ticket.reopen', first)).statusCode).toBe(200);
      expect((await sendEvent(app, f.supportAdmin, 'ticket.cancel', first)).statusCode).toBe(200);
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).status).toBe('Escalated');
      await sendEvent(app, f.technicalAgent, 'ticket.claim', second);
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).status).toBe('Escalated');
      expect((await sendEvent(app, f.technicalAgent, 'ticket.resolve', second)).statusCode).toBe(200);
      expect(await ticketOf(app, f.supportAdmin, t.ticketId)).toMatchObject({ status: 'InProgress', assigneeId: f.agentA.id });
      // Once the parent is back in progress, a child that is reopened and done again leaves it there.
      expect((await sendEvent(app, f.supportAdmin, 'ticket.reopen', second)).statusCode).toBe(200);
      expect((await sendEvent(app, f.supportAdmin, 'ticket.cancel', second)).statusCode).toBe(200);
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).status).toBe('InProgress');
    });
  });

  describe('the suggested answer', () => {
    const accept = (app: FastifyInstance, by: TestUser, botId: string | null) =>
      app.inject({ method: 'PUT', url: `/api/v1/supportticketadmin/accept?supportTicketBotId=${botId}`, headers: as(by) });

    it('should resolve with the suggestion, keep an existing assignee, and record which answer it was', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, ...BOT_TEXT });
      expect(t.supportTicketBotId).toBeTruthy();
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const res = await accept(app, f.supportAdmin, t.supportTicketBotId);
      expect(res.statusCode).toBe(200);
      const after = await ticketOf(app, f.supportAdmin, t.ticketId);
      expect(after).toMatchObject({ status: 'Resolved', assigneeId: f.agentA.id });
      const last = (await historyOf(app, f.supportAdmin, t.ticketId)).at(-1)!;
      expect(last).toMatchObject({ event: 'ticket.acceptBotAnswer', actorId: f.supportAdmin.id, reason: after.answer });
      expect(last.details.supportTicketBotId).toBe(t.supportTicketBotId);
      expect(typeof last.details.sourceTicketId).toBe('number');
      expect(after.answer).toBeTruthy();
      // The answer bot's offer is in the history too, naming the suggestion and where it came from.
      const suggested = (await historyOf(app, f.supportAdmin, t.ticketId)).find((h) => h.event === 'bot.suggested')!;
      expect(suggested).toMatchObject({
        actorKind: 'system',
        actorId: null,
        details: { supportTicketBotId: t.supportTicketBotId, sourceTicketId: last.details.sourceTicketId },
      });
      expect(typeof suggested.details.score).toBe('number');
      // A borrowed answer is not offered again as a source of its own.
      const { db } = get();
      expect((await db.query(`select answer_reusable from support_tickets where id = $1`, [t.ticketId])).rows[0]).toEqual({ answer_reusable: false });
    });

    it('should make the accepting agent the assignee of an unclaimed ticket, and refuse the same suggestion twice', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, ...BOT_TEXT });
      expect((await accept(app, f.agentB, t.supportTicketBotId)).statusCode).toBe(200);
      expect(await ticketOf(app, f.supportAdmin, t.ticketId)).toMatchObject({ status: 'Resolved', assigneeId: f.agentB.id });
      // Reopened, the ticket is Open again, where a suggestion may be accepted, but not this one.
      expect((await sendEvent(app, f.requester, 'ticket.reopen', t.ticketId)).statusCode).toBe(200);
      const again = await accept(app, f.agentB, t.supportTicketBotId);
      expect(again.statusCode).toBe(409);
      expect(again.json().messages).toEqual(['This suggested answer was already accepted.']);
      expect(await ticketOf(app, f.supportAdmin, t.ticketId)).toMatchObject({ status: 'Open', assigneeId: null, answer: null });
    });
  });

  describe('reasons in the history', () => {
    const reasonOf = async (app: FastifyInstance, id: number) => (await historyOf(app, f.supportAdmin, id)).at(-1)!;

    it('should store each reason and the raised text without the spaces around them', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, description: '  Blank page after login.  ' });
      expect(t.description).toBe('Blank page after login.');
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const patch = (url: string, by: TestUser, payload: Record<string, unknown>) =>
        app.inject({ method: 'PATCH', url: `/api/v1/supportticket/${url}?ticketId=${t.ticketId}`, headers: as(by), payload });
      expect((await patch('onholdticket', f.agentA, { onHoldReason: '  Waiting for a screenshot ' })).statusCode).toBe(200);
      expect(await reasonOf(app, t.ticketId)).toMatchObject({ event: 'ticket.hold', reason: 'Waiting for a screenshot' });
      await sendEvent(app, f.agentA, 'ticket.resume', t.ticketId);
      expect((await patch('resolveticket', f.agentA, { answer: '  Clear the cache.  ', reusableAnswer: true })).statusCode).toBe(200);
      expect(await reasonOf(app, t.ticketId)).toMatchObject({ event: 'ticket.resolve', reason: 'Clear the cache.' });
      expect((await ticketOf(app, f.supportAdmin, t.ticketId)).answer).toBe('Clear the cache.');
      expect((await patch('reopenticket', f.requester, { reopenReason: ' Still blank ' })).statusCode).toBe(200);
      expect(await reasonOf(app, t.ticketId)).toMatchObject({ event: 'ticket.reopen', reason: 'Still blank' });
      // Reopened, the answer is gone and is no longer offered to others.
      const { db } = get();
      expect((await db.query(`select answer, answer_reusable from support_tickets where id = $1`, [t.ticketId])).rows[0]).toEqual({
        answer: null,
        answer_reusable: false,
      });
      expect((await patch('cancelticket', f.requester, { cancelReason: '  Found the answer myself ' })).statusCode).toBe(200);
      expect(await reasonOf(app, t.ticketId)).toMatchObject({ event: 'ticket.cancel', reason: 'Found the answer myself' });
    });
  });

  describe('editing', () => {
    it('should record nothing when the edit changes nothing, and only the fields that changed', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Same title', description: 'Same text' });
      const same = await edit(app, f.requester, t.ticketId, { title: '  Same title ', description: ' Same text  ', supportTicketPriorityId: 2 });
      expect(same.statusCode).toBe(200);
      expect(same.json().version).toBe(t.version);
      expect((await historyOf(app, f.requester, t.ticketId)).map((h) => h.event)).toEqual(['ticket.created']);
      for (const [payload, changed] of [
        [{ title: 'Same title', description: ' New text ' }, { description: { from: 'Same text', to: 'New text' } }],
        [{ title: '  New title ', supportTicketPriorityId: 2 }, { title: { from: 'Same title', to: 'New title' } }],
        [{ supportTicketPriorityId: 4, description: 'New text' }, { supportTicketPriorityId: { from: 2, to: 4 } }],
      ] as const) {
        expect((await edit(app, f.requester, t.ticketId, payload)).statusCode).toBe(200);
        expect((await historyOf(app, f.requester, t.ticketId)).at(-1)).toMatchObject({ event: 'ticket.edited', details: { changed } });
        expect(Object.keys((await historyOf(app, f.requester, t.ticketId)).at(-1)!.details.changed as object)).toEqual(Object.keys(changed));
      }
    });

    it('should name the refusal: who may not edit, and which tickets cannot be edited', async () => {
      const { app } = get();
      const t = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      await sendEvent(app, f.agentA, 'ticket.claim', t.ticketId);
      const byRequester = await edit(app, f.requester, t.ticketId, { title: 'Too late' });
      expect(byRequester.statusCode).toBe(403);
      expect(byRequester.json()).toMatchObject({
        messages: [`You may not do this: ticket ${t.ticketId} cannot be edited by you.`],
        currentStatus: 'InProgress',
        currentStatusId: 2,
        ticketId: t.ticketId,
      });
      await sendEvent(app, f.agentA, 'ticket.resolve', t.ticketId);
      await sendEvent(app, f.requester, 'ticket.close', t.ticketId);
      const closed = await edit(app, f.supportAdmin, t.ticketId, { title: 'After closing' });
      expect(closed.statusCode).toBe(409);
      expect(closed.json()).toMatchObject({
        messages: [`Ticket ${t.ticketId} is Closed; it cannot be edited.`],
        currentStatus: 'Closed',
        currentStatusId: 6,
        ticketId: t.ticketId,
      });
    });
  });
});

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from '../tickets/fixture.ts';
import { eventRequest } from '../tickets/ticket-events-http.ts';

async function send(app: FastifyInstance, user: TestUser, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/supportchat', headers: as(user), payload });
}

async function details(app: FastifyInstance, user: TestUser, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/supportchat/chatdetails', headers: as(user), payload });
}

describeEachDatabase('support chat API', (get) => {
  let f: TicketsFixture;
  let ticketId: number;
  beforeAll(async () => {
    f = await ticketsFixture(get().app);
    ticketId = (await raiseTicket(get().app, f.requester, { supportGroupId: f.groups.general })).ticketId;
  });

  describe('POST /api/supportchat', () => {
    it('should store the message and answer it with its sequence number when the requester writes', async () => {
      const { app } = get();
      const messageId = randomUUID();
      const res = await send(app, f.requester, { ticketId, message: '  Hello, is anyone there?  ', messageId });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        messageId,
        ticketId,
        seq: 1,
        fromUserId: f.requester.id,
        fromUserName: 'Asha Candidate',
        toUserId: null,
        message: 'Hello, is anyone there?',
      });
    });

    it('should store one row and give the same answer when a send is retried with the same message id', async () => {
      const { app, db } = get();
      const messageId = randomUUID();
      const body = { ticketId, message: 'Retried message', messageId };
      const first = await send(app, f.agentA, body);
      const [second, third] = await Promise.all([send(app, f.agentA, body), send(app, f.agentA, body)]);
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(third.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      expect(third.json()).toEqual(first.json());
      expect(second.headers['idempotent-replay']).toBe('true');
      expect(first.json().toUserId).toBe(f.requester.id);
      const { rows } = await db.query<{ count: number }>('select count(*)::int as count from chat_messages where id = $1', [messageId]);
      expect(rows[0].count).toBe(1);
    });

    it('should store concurrent first sends of one message id once', async () => {
      const { app, db } = get();
      const messageId = randomUUID();
      const body = { ticketId, message: 'Sent twice at once', messageId };
      const answers = await Promise.all([send(app, f.requester, body), send(app, f.requester, body), send(app, f.requester, body)]);
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
      expect(new Set(answers.map((a) => a.json().seq)).size).toBe(1);
      const { rows } = await db.query<{ count: number }>('select count(*)::int as count from chat_messages where id = $1', [messageId]);
      expect(rows[0].count).toBe(1);
      // no hole in the ticket's numbering either
      const seqs = await db.query<{ seq: number }>('select seq from chat_messages where ticket_id = $1 order by seq', [ticketId]);
      expect(seqs.rows.map((r) => Number(r.seq))).toEqual(seqs.rows.map((_, i) => i + 1));
    });

    it('should refuse with 409 when the sender reuses their own message id for another message', async () => {
      const { app } = get();
      const messageId = randomUUID();
      expect((await send(app, f.requester, { ticketId, message: 'Original', messageId })).statusCode).toBe(201);
      const other = await send(app, f.requester, { ticketId, message: 'Different text', messageId });
      expect(other.statusCode).toBe(409);
    });

    it("should answer another sender's message id as an unknown one, without revealing or touching that message (issue 23)", async () => {
      const { app, db } = get();
      const messageId = randomUUID();
      expect((await send(app, f.requester, { ticketId, message: 'Original', messageId })).statusCode).toBe(201);
      const reused = await send(app, f.agentA, { ticketId, message: 'Agent text', messageId });
      const fresh = await send(app, f.agentA, { ticketId, message: 'Agent text', messageId: randomUUID() });
      expect(reused.statusCode).toBe(fresh.statusCode);
      expect(Object.keys(reused.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
      expect(reused.json()).toMatchObject({ messageId, message: 'Agent text', fromUserId: f.agentA.id });
      expect(reused.body).not.toContain('Original');
      // A retry of that send is idempotent like any other.
      const retry = await send(app, f.agentA, { ticketId, message: 'Agent text', messageId });
      expect(retry.statusCode).toBe(201);
      expect(retry.json().seq).toBe(reused.json().seq);
      const { rows } = await db.query<{ message: string; from_user_id: string }>('select message, from_user_id from chat_messages where id = $1', [messageId]);
      expect(rows).toEqual([{ message: 'Original', from_user_id: f.requester.id }]);
    });

    it('should answer 404 to users outside the ticket and 403 without the chat permission', async () => {
      const { app } = get();
      for (const outsider of [f.otherRequester, f.technicalAgent, f.examsAgent]) {
        const res = await send(app, outsider, { ticketId, message: 'Let me in' });
        expect({ user: outsider.firstName, status: res.statusCode }).toEqual({ user: outsider.firstName, status: 404 });
        expect((await details(app, outsider, { supportTicketId: ticketId })).statusCode).toBe(404);
      }
      const admin = await send(app, f.supportAdmin, { ticketId, message: 'Support admin here' });
      expect(admin.statusCode).toBe(201);
      const anonymous = await app.inject({ method: 'POST', url: '/api/supportchat', payload: { ticketId, message: 'x' } });
      expect(anonymous.statusCode).toBe(401);
    });

    it('should answer 400 with the field named for bad input', async () => {
      const { app } = get();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ ticketId, message: '' }, 'message'],
        [{ ticketId, message: '    ' }, 'message'],
        [{ ticketId, message: 'x'.repeat(4001) }, 'message'],
        [{ ticketId, message: 'ok', messageId: 'not-a-uuid' }, 'messageId'],
        [{ ticketId: 'abc', message: 'ok' }, 'ticketId'],
        [{ message: 'ok' }, 'ticketId'],
        [{ ticketId, message: 'ok', toUserId: f.otherRequester.id }, 'toUserId'],
      ];
      for (const [payload, field] of cases) {
        const res = await send(app, f.requester, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 400 });
        expect(JSON.stringify(res.json())).toContain(field);
      }
    });

    it('should make the chat read-only once the ticket is Closed or Cancelled', async () => {
      const { app } = get();
      const cancelled = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      expect((await send(app, f.requester, { ticketId: cancelled.ticketId, message: 'before' })).statusCode).toBe(201);
      const cancel = await app.inject({ ...eventRequest('ticket.cancel', cancelled.ticketId), headers: as(f.requester) });
      expect(cancel.statusCode).toBe(200);
      const after = await send(app, f.requester, { ticketId: cancelled.ticketId, message: 'after' });
      expect(after.statusCode).toBe(409);
      expect(after.json().messages[0]).toBe(`Ticket ${cancelled.ticketId} is Cancelled; its chat is read-only.`);
      const page = await details(app, f.requester, { supportTicketId: cancelled.ticketId });
      expect(page.json()).toMatchObject({ readOnly: true, totalCount: 1 });
    });
  });

  describe('POST /api/supportchat/chatdetails', () => {
    let chatTicket: number;
    beforeAll(async () => {
      const { app } = get();
      chatTicket = (await raiseTicket(app, f.requester, { supportGroupId: f.groups.general })).ticketId;
      for (let i = 1; i <= 25; i += 1) {
        const who = i % 2 ? f.requester : f.agentB;
        const res = await send(app, who, { ticketId: chatTicket, message: i === 7 ? 'My webcam_error 100% broken' : `message ${i}` });
        expect(res.statusCode).toBe(201);
      }
    });

    it('should answer the newest page first, newest message first', async () => {
      const { app } = get();
      const first = (await details(app, f.agentB, { supportTicketId: chatTicket, pageNumber: 1, pageSize: 10 })).json();
      expect(first).toMatchObject({ totalCount: 25, totalPages: 3, currentPage: 1, hasNextPage: true, lastSeq: 25, readOnly: false });
      expect(first.data.map((m: { seq: number }) => m.seq)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
      const last = (await details(app, f.agentB, { supportTicketId: chatTicket, pageNumber: 3, pageSize: 10 })).json();
      expect(last.data.map((m: { seq: number }) => m.seq)).toEqual([5, 4, 3, 2, 1]);
    });

    it('should keep pages stable with beforeSeq while new messages arrive', async () => {
      const { app } = get();
      const older = (await details(app, f.requester, { supportTicketId: chatTicket, beforeSeq: 11, pageSize: 5 })).json();
      expect(older.data.map((m: { seq: number }) => m.seq)).toEqual([10, 9, 8, 7, 6]);
      expect(older.totalCount).toBe(10);
    });

    it('should search by keyword, with LIKE wildcards taken literally', async () => {
      const { app } = get();
      const hit = (await details(app, f.requester, { supportTicketId: chatTicket, keyword: 'WEBCAM_error 100%' })).json();
      expect(hit.data.map((m: { seq: number }) => m.seq)).toEqual([7]);
      const advanced = (await details(app, f.requester, { supportTicketId: chatTicket, advancedSearch: { keyword: 'message 2' }, keyword: 'ignored' })).json();
      expect(advanced.data.map((m: { message: string }) => m.message)).toEqual([
        'message 25',
        'message 24',
        'message 23',
        'message 22',
        'message 21',
        'message 20',
        'message 2',
      ]);
      const none = (await details(app, f.requester, { supportTicketId: chatTicket, keyword: '%' })).json();
      expect(none.totalCount).toBe(1);
    });

    it('should answer 400 for a bad page request', async () => {
      const { app } = get();
      for (const payload of [
        { supportTicketId: chatTicket, pageSize: 0 },
        { supportTicketId: chatTicket, pageSize: 101 },
        {},
        { supportTicketId: chatTicket, beforeSeq: -1 },
      ]) {
        expect((await details(app, f.requester, payload)).statusCode).toBe(400);
      }
    });
  });

  describe('read markers and unread counts', () => {
    it('should count the messages of others after the read marker, per ticket and user', async () => {
      const { app } = get();
      const t = (await raiseTicket(app, f.requester, { supportGroupId: f.groups.general })).ticketId;
      const empty = (await raiseTicket(app, f.requester, { supportGroupId: f.groups.general })).ticketId;
      const foreign = (await raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.technical })).ticketId;
      for (const text of ['one', 'two', 'three']) expect((await send(app, f.agentA, { ticketId: t, message: text })).statusCode).toBe(201);
      expect((await send(app, f.requester, { ticketId: t, message: 'mine' })).statusCode).toBe(201);

      const counts = await app.inject({
        method: 'POST',
        url: '/api/supportchat/unreadcounts',
        headers: as(f.requester),
        payload: { ticketIds: [t, empty, foreign, 999999] },
      });
      expect(counts.statusCode).toBe(200);
      expect(counts.json().items).toEqual([
        { ticketId: t, lastSeq: 4, lastReadSeq: 4, unreadCount: 0 },
        { ticketId: empty, lastSeq: 0, lastReadSeq: 0, unreadCount: 0 },
      ]);
      // The requester's own message moved their marker; the agent's three are read from there on.
      const agentCounts = await app.inject({ method: 'POST', url: '/api/supportchat/unreadcounts', headers: as(f.agentB), payload: { ticketIds: [t] } });
      expect(agentCounts.json().items).toEqual([{ ticketId: t, lastSeq: 4, lastReadSeq: 0, unreadCount: 4 }]);

      const read = await app.inject({ method: 'POST', url: '/api/supportchat/markread', headers: as(f.agentB), payload: { ticketId: t, seq: 2 } });
      expect(read.json()).toEqual({ ticketId: t, lastSeq: 4, lastReadSeq: 2, unreadCount: 2 });
      const back = await app.inject({ method: 'POST', url: '/api/supportchat/markread', headers: as(f.agentB), payload: { ticketId: t, seq: 1 } });
      expect(back.json().lastReadSeq).toBe(2);
      const all = await app.inject({ method: 'POST', url: '/api/supportchat/markread', headers: as(f.agentB), payload: { ticketId: t } });
      expect(all.json()).toEqual({ ticketId: t, lastSeq: 4, lastReadSeq: 4, unreadCount: 0 });
      const outsider = await app.inject({ method: 'POST', url: '/api/supportchat/markread', headers: as(f.otherRequester), payload: { ticketId: t } });
      expect(outsider.statusCode).toBe(404);
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from './fixture.ts';

describeEachDatabase('support tickets API', (get) => {
  let f: TicketsFixture;
  beforeAll(async () => {
    f = await ticketsFixture(get().app);
  });

  describe('POST /api/v1/supportticket', () => {
    it('should raise an Open ticket for the caller and record its creation', async () => {
      const { app } = get();
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.requester),
        payload: {
          title: '  Webcam not detected ',
          description: 'The proctoring check fails.',
          supportTicketPriorityId: 3,
          supportGroupId: f.groups.technical,
        },
      });
      expect(res.statusCode).toBe(201);
      const ticket = res.json();
      expect(ticket).toMatchObject({
        title: 'Webcam not detected',
        statusId: 1,
        status: 'Open',
        supportTicketPriorityId: 3,
        supportGroupId: f.groups.technical,
        supportGroupName: 'Technical Support',
        loginUserId: f.requester.id,
        createdBy: f.requester.id,
        requesterName: 'Asha Candidate',
        assigneeId: null,
        documents: [],
        viewer: { requester: true, agent: false, assignee: false, supportAdmin: false },
      });
      const history = await app.inject({ method: 'GET', url: `/api/v1/supportticket/tickethistory?ticketId=${ticket.ticketId}`, headers: as(f.requester) });
      expect(history.json().map((h: { event: string }) => h.event)).toEqual(['ticket.created']);
    });

    it('should answer 400 naming each missing field', async () => {
      const res = await get().app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.requester),
        payload: { description: 'x', supportGroupId: f.groups.general },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({
        title: ['The title field is required.'],
        supportTicketPriorityId: ['The supportTicketPriorityId field is required.'],
      });
    });

    it('should refuse an unknown or inactive support group and a priority outside 1–4', async () => {
      const { app, db } = get();
      const unknown = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.requester),
        payload: { title: 't', description: 'd', supportTicketPriorityId: 1, supportGroupId: 99999 },
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errors.supportGroupId).toEqual(['Support group 99999 does not exist or is inactive.']);
      const { rows } = await db.query<{ id: number }>(
        `insert into support_groups (tenant_id, name, is_active) values ('root', 'Retired queue', false) returning id`,
      );
      const inactive = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.requester),
        payload: { title: 't', description: 'd', supportTicketPriorityId: 1, supportGroupId: rows[0].id },
      });
      expect(inactive.statusCode).toBe(400);
      const priority = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.requester),
        payload: { title: 't', description: 'd', supportTicketPriorityId: 5, supportGroupId: f.groups.general },
      });
      expect(priority.statusCode).toBe(400);
      expect(priority.json().errors.supportTicketPriorityId).toEqual(['supportTicketPriorityId must be at most 4.']);
    });

    it('should let staff raise a ticket for someone else and list it under tickets for others', async () => {
      const { app } = get();
      const ticket = await raiseTicket(app, f.agentA, { supportGroupId: f.groups.general, loginUserId: f.otherRequester.id, title: 'Raised on the phone' });
      expect(ticket).toMatchObject({ loginUserId: f.otherRequester.id, createdBy: f.agentA.id });
      const mine = await app.inject({ method: 'GET', url: `/api/v1/supportticket?ticketId=${ticket.ticketId}`, headers: as(f.otherRequester) });
      expect(mine.statusCode).toBe(200);
      const others = await app.inject({ method: 'POST', url: '/api/v1/supportticketadmin/ticketsforothers', headers: as(f.agentA), payload: {} });
      expect(others.json().data.map((t: { ticketId: number }) => t.ticketId)).toContain(ticket.ticketId);
      const refused = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket',
        headers: as(f.requester),
        payload: { title: 't', description: 'd', supportTicketPriorityId: 1, supportGroupId: f.groups.general, loginUserId: f.otherRequester.id },
      });
      expect(refused.statusCode).toBe(403);
    });
  });

  describe('reach', () => {
    it('should answer 404 to another requester, to agents of other groups, and 200 to the group and support admins', async () => {
      const { app } = get();
      const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general });
      const read = (url: string, user: { token?: string }) => app.inject({ method: 'GET', url: `${url}?ticketId=${ticket.ticketId}`, headers: as(user) });
      expect((await read('/api/v1/supportticket', f.otherRequester)).statusCode).toBe(404);
      expect((await read('/api/v1/supportticket/tickethistory', f.otherRequester)).statusCode).toBe(404);
      expect((await read('/api/v1/supportticket/document', f.otherRequester)).statusCode).toBe(404);
      expect((await read('/api/v1/supportticket/byadmin', f.technicalAgent)).statusCode).toBe(404);
      expect((await read('/api/v1/supportticket/byadmin', f.agentB)).statusCode).toBe(200);
      expect((await read('/api/v1/supportticket/byadmin', f.supportAdmin)).statusCode).toBe(200);
      // A candidate has no desk view at all.
      expect((await read('/api/v1/supportticket/byadmin', f.requester)).statusCode).toBe(403);
      const missing = await app.inject({ method: 'GET', url: '/api/v1/supportticket?ticketId=987654321', headers: as(f.requester) });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().messages).toEqual(['Ticket 987654321 was not found.']);
      expect((await read('/api/v1/supportticket', f.otherRequester)).json().messages).toEqual([`Ticket ${ticket.ticketId} was not found.`]);
    });

    it('should refuse unauthenticated calls', async () => {
      const res = await get().app.inject({ method: 'POST', url: '/api/v1/supportticket/searchbyuser', payload: {} });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('PUT /api/v1/supportticket', () => {
    it('should let the requester edit while Open, record the change, and refuse once claimed', async () => {
      const { app } = get();
      const ticket = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'Old title' });
      const edit = await app.inject({
        method: 'PUT',
        url: `/api/v1/supportticket?ticketId=${ticket.ticketId}`,
        headers: as(f.requester),
        payload: { title: 'New title', supportTicketPriorityId: 4 },
      });
      expect(edit.statusCode).toBe(200);
      expect(edit.json()).toMatchObject({ title: 'New title', supportTicketPriorityId: 4 });
      const history = (
        await app.inject({ method: 'GET', url: `/api/v1/supportticket/tickethistory?ticketId=${ticket.ticketId}`, headers: as(f.requester) })
      ).json();
      expect(history.at(-1)).toMatchObject({
        event: 'ticket.edited',
        actorId: f.requester.id,
        details: { changed: { title: { from: 'Old title', to: 'New title' }, supportTicketPriorityId: { from: 2, to: 4 } } },
      });
      await app.inject({ method: 'POST', url: '/api/v1/supportticketstatus/claimticket', headers: as(f.agentA), payload: { ticketId: ticket.ticketId } });
      const late = await app.inject({
        method: 'PUT',
        url: `/api/v1/supportticket?ticketId=${ticket.ticketId}`,
        headers: as(f.requester),
        payload: { title: 'Too late' },
      });
      expect(late.statusCode).toBe(403);
      const byAssignee = await app.inject({
        method: 'PUT',
        url: `/api/v1/supportticket?ticketId=${ticket.ticketId}`,
        headers: as(f.agentA),
        payload: { title: 'Clarified by the agent' },
      });
      expect(byAssignee.statusCode).toBe(200);
    });
  });

  describe('searches and counts', () => {
    it('should page your own tickets with the filtered totalCount', async () => {
      const { app } = get();
      const user = f.otherRequester;
      for (let i = 0; i < 7; i += 1) await raiseTicket(app, user, { supportGroupId: f.groups.exams, title: `Result missing ${i}` });
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticket/searchbyuser',
        headers: as(user),
        payload: { pageNumber: 2, pageSize: 3, orderBy: ['createdOn asc'], supportGroupId: f.groups.exams },
      });
      expect(res.statusCode).toBe(200);
      const page = res.json();
      expect(page).toMatchObject({ currentPage: 2, pageSize: 3, totalCount: 7, totalPages: 3, hasPreviousPage: true, hasNextPage: true });
      expect(page.data.map((t: { title: string }) => t.title)).toEqual(['Result missing 3', 'Result missing 4', 'Result missing 5']);
      expect(page.data.every((t: { loginUserId: string }) => t.loginUserId === user.id)).toBe(true);
    });

    it('should find tickets by full-text keyword and by number', async () => {
      const { app } = get();
      const a = await raiseTicket(app, f.requester, {
        supportGroupId: f.groups.technical,
        title: 'Proctoring microphones muted',
        description: 'Audio capture stops.',
      });
      await raiseTicket(app, f.requester, { supportGroupId: f.groups.technical, title: 'Unrelated', description: 'Nothing to see.' });
      const search = (keyword: string) =>
        app.inject({ method: 'POST', url: '/api/v1/supportticketadmin/search', headers: as(f.technicalAgent), payload: { keyword } }).then((r) => r.json());
      // Stemming: "microphone" matches "microphones".
      expect((await search('microphone')).data.map((t: { ticketId: number }) => t.ticketId)).toEqual([a.ticketId]);
      expect((await search(`#${a.ticketId}`)).data[0].ticketId).toBe(a.ticketId);
      expect((await search('zebra-crossing')).totalCount).toBe(0);
    });

    it('should show agents only the queues of their groups and support admins everything', async () => {
      const { app } = get();
      const general = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: 'General queue item' });
      const technical = await raiseTicket(app, f.requester, { supportGroupId: f.groups.technical, title: 'Technical queue item' });
      const ids = async (user: { token?: string }, url: string) =>
        (await app.inject({ method: 'POST', url, headers: as(user), payload: { pageSize: 100 } })).json().data.map((t: { ticketId: number }) => t.ticketId);
      const agentView = await ids(f.agentA, '/api/v1/supportticketadmin/search');
      expect(agentView).toContain(general.ticketId);
      expect(agentView).not.toContain(technical.ticketId);
      const adminView = await ids(f.supportAdmin, '/api/v1/supportticketadmin/searchbyadmin');
      expect(adminView).toEqual(expect.arrayContaining([general.ticketId, technical.ticketId]));
      const refused = await app.inject({ method: 'POST', url: '/api/v1/supportticketadmin/searchbyadmin', headers: as(f.agentA), payload: {} });
      expect(refused.statusCode).toBe(403);
    });

    it('should refuse an order on an unknown field with 400', async () => {
      const res = await get().app.inject({
        method: 'POST',
        url: '/api/v1/supportticket/searchbyuser',
        headers: as(f.requester),
        payload: { orderBy: ['password desc'] },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.orderBy[0]).toContain('"password desc" is not a valid order.');
    });

    it('should count tickets per status in the caller’s reach', async () => {
      const { app } = get();
      const user = await createSignedInUser(get().app, { roles: ['Candidate'] });
      const t1 = await raiseTicket(app, user, { supportGroupId: f.groups.general });
      await raiseTicket(app, user, { supportGroupId: f.groups.general });
      await app.inject({
        method: 'PATCH',
        url: `/api/v1/supportticket/cancelticket?ticketId=${t1.ticketId}`,
        headers: as(user),
        payload: { cancelReason: 'Found the answer' },
      });
      const res = await app.inject({ method: 'POST', url: '/api/v1/supportticketstatus/count', headers: as(user), payload: {} });
      expect(res.json()).toEqual({
        total: 2,
        byStatus: [
          { statusId: 1, status: 'Open', count: 1 },
          { statusId: 2, status: 'InProgress', count: 0 },
          { statusId: 3, status: 'OnHold', count: 0 },
          { statusId: 4, status: 'Escalated', count: 0 },
          { statusId: 5, status: 'Resolved', count: 0 },
          { statusId: 6, status: 'Closed', count: 0 },
          { statusId: 7, status: 'Cancelled', count: 1 },
        ],
      });
      const desk = await app.inject({
        method: 'POST',
        url: '/api/v1/supportticketstatus/countbyadmin',
        headers: as(f.technicalAgent),
        payload: { supportGroupId: f.groups.general },
      });
      expect(desk.json().total).toBe(0);
    });
  });

  describe('the answer bot', () => {
    it('should suggest the answer of a matching resolved ticket and resolve with it on acceptance', async () => {
      const { app } = get();
      const first = await raiseTicket(app, f.requester, {
        supportGroupId: f.groups.general,
        title: 'Admit card download fails',
        description: 'The admit card PDF download fails with an error in Chrome.',
      });
      await app.inject({ method: 'POST', url: '/api/v1/supportticketstatus/claimticket', headers: as(f.agentA), payload: { ticketId: first.ticketId } });
      await app.inject({
        method: 'PATCH',
        url: `/api/v1/supportticket/resolveticket?ticketId=${first.ticketId}`,
        headers: as(f.agentA),
        payload: { answer: 'Allow pop-ups for the portal, then download the admit card again.', reusableAnswer: true },
      });
      const second = await raiseTicket(app, f.otherRequester, {
        supportGroupId: f.groups.general,
        title: 'Cannot download admit card',
        description: 'Downloading my admit card fails in Chrome.',
      });
      expect(second.supportTicketBotId).toEqual(expect.any(String));
      // The requester is not told which ticket the answer came from; the desk is.
      expect(second.botSuggestion).toMatchObject({
        answer: 'Allow pop-ups for the portal, then download the admit card again.',
        sourceTicketId: null,
        accepted: false,
      });
      const desk = await app.inject({ method: 'GET', url: `/api/v1/supportticket/byadmin?ticketId=${second.ticketId}`, headers: as(f.agentB) });
      expect(desk.json().botSuggestion).toMatchObject({ sourceTicketId: first.ticketId });
      const unrelated = await raiseTicket(app, f.otherRequester, {
        supportGroupId: f.groups.general,
        title: 'Change my surname',
        description: 'I married and need the new surname on certificates.',
      });
      expect(unrelated.supportTicketBotId).toBeNull();

      const refused = await app.inject({
        method: 'PUT',
        url: `/api/v1/supportticketadmin/accept?supportTicketBotId=${second.supportTicketBotId}`,
        headers: as(f.otherRequester),
      });
      expect(refused.statusCode).toBe(403);
      const accepted = await app.inject({
        method: 'PUT',
        url: `/api/v1/supportticketadmin/accept?supportTicketBotId=${second.supportTicketBotId}`,
        headers: as(f.agentB),
      });
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json()).toMatchObject({
        fromStatus: 'Open',
        toStatus: 'Resolved',
        ticket: {
          statusId: 5,
          answer: 'Allow pop-ups for the portal, then download the admit card again.',
          assigneeId: f.agentB.id,
          botSuggestion: { accepted: true },
        },
      });
    });
  });
});

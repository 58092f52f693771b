import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from './fixture.ts';

/**
 * Issue 23, authorization rule 4: what agents write for each other never reaches the requester,
 * neither in the API nor in the realtime feed; the answer bot suggests only answers an agent
 * marked as reusable; a child ticket is linked only for those who may open it.
 */
describeEachDatabase('agent-only content', (get) => {
  let f: TicketsFixture;
  const INSTRUCTION = 'Exam team: reset the attempt of this candidate, she is on probation';

  beforeAll(async () => {
    f = await ticketsFixture(get().app);
  });

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    get().app.inject({ method, url, headers: as(user), ...(payload === undefined ? {} : { payload: payload as never }) });

  it('should keep the escalation instruction and the child link from the requester, in history, details and pushes', async () => {
    const ticket = await raiseTicket(get().app, f.requester, { supportGroupId: f.groups.general });
    await call(f.agentA, 'POST', '/api/v1/supportticketstatus/claimticket', { ticketId: ticket.ticketId });
    const escalated = await call(f.agentA, 'POST', '/api/v1/supportticket', {
      parentSupportTicketId: ticket.ticketId,
      supportGroupId: f.groups.exams,
      description: INSTRUCTION,
    });
    expect(escalated.statusCode, escalated.body).toBe(200);
    const childId = escalated.json().childTicketId as number;

    const mine = await call(f.requester, 'GET', `/api/v1/supportticket/tickethistory?ticketId=${ticket.ticketId}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((h: { toStatus: string | null }) => h.toStatus)).toContain('Escalated');
    expect(mine.body).not.toContain(INSTRUCTION);
    expect(mine.body).not.toContain('childTicketId');
    const detail = await call(f.requester, 'GET', `/api/v1/supportticket?ticketId=${ticket.ticketId}`);
    expect(detail.json().children).toEqual([]);
    expect((await call(f.requester, 'GET', `/api/v1/supportticket?ticketId=${childId}`)).statusCode).toBe(404);

    const missed = await call(f.requester, 'GET', '/api/hubs/notifications/missed?after=0&limit=500');
    expect(missed.statusCode).toBe(200);
    expect(missed.body).not.toContain(INSTRUCTION);
    expect(missed.json().events.every((e: { ticketId: number | null }) => e.ticketId !== childId)).toBe(true);

    // The escalating agent (group General) cannot open the child in Exam Administration either: no link.
    const agentView = await call(f.agentB, 'GET', `/api/v1/supportticket/tickethistory?ticketId=${ticket.ticketId}`);
    expect(agentView.body).toContain(INSTRUCTION);
    const agentDetail = await call(f.agentB, 'GET', `/api/v1/supportticket/byadmin?ticketId=${ticket.ticketId}`);
    expect(agentDetail.json().children).toEqual([]);
    // The support admin may open it, and sees the link.
    const adminHistory = await call(f.supportAdmin, 'GET', `/api/v1/supportticket/tickethistory?ticketId=${ticket.ticketId}`);
    expect(adminHistory.json().find((h: { event: string }) => h.event === 'ticket.escalate').details).toMatchObject({ childTicketId: childId });
    const adminDetail = await call(f.supportAdmin, 'GET', `/api/v1/supportticket/byadmin?ticketId=${ticket.ticketId}`);
    expect(adminDetail.json().children).toEqual([expect.objectContaining({ ticketId: childId })]);
  });

  it("should never suggest a ticket's private answer, only answers marked reusable", async () => {
    const { app } = get();
    const text = { title: 'Hall ticket shows wrong centre', description: 'My hall ticket shows the wrong exam centre address.' };
    const privateOne = await raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.general, ...text });
    await call(f.agentA, 'POST', '/api/v1/supportticketstatus/claimticket', { ticketId: privateOne.ticketId });
    const resolved = await call(f.agentA, 'PATCH', `/api/v1/supportticket/resolveticket?ticketId=${privateOne.ticketId}`, {
      answer: 'Bilal, your centre moved to 12 Private Lane because of your medical certificate.',
    });
    expect(resolved.statusCode).toBe(200);
    const next = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, ...text });
    expect(next.supportTicketBotId).toBeNull();
    expect(JSON.stringify(next)).not.toContain('Private Lane');

    const general = await raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.general, ...text });
    await call(f.agentA, 'POST', '/api/v1/supportticketstatus/claimticket', { ticketId: general.ticketId });
    await call(f.agentA, 'PATCH', `/api/v1/supportticket/resolveticket?ticketId=${general.ticketId}`, {
      answer: 'Download the hall ticket again after 24 hours; centre changes take a day to show.',
      reusableAnswer: true,
    });
    const later = await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, ...text });
    expect(later.botSuggestion).toMatchObject({
      answer: 'Download the hall ticket again after 24 hours; centre changes take a day to show.',
      sourceTicketId: null,
    });
    const history = await call(f.requester, 'GET', `/api/v1/supportticket/tickethistory?ticketId=${later.ticketId}`);
    const suggested = history.json().find((h: { event: string }) => h.event === 'bot.suggested');
    expect(suggested.details).not.toHaveProperty('sourceTicketId');
  });
});

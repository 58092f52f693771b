import { beforeAll, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { TEST_ADMIN_EMAIL } from '#tests/setup/test-database.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { mailsTo } from '#tests/server/identity/identity-test-kit.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from './fixture.ts';
import { sendEvent } from './ticket-events-http.ts';

/**
 * Issue 23, "Support groups with no agents": raising a ticket into one is possible but flagged
 * to support admins, by e-mail (docs/decisions/0280). Driven over HTTP; the mails are read from
 * the outbox the server writes without SMTP.
 */
describeEachDatabase('tickets in groups without agents', (get) => {
  let f: TicketsFixture;
  let hindiAdmin: TestUser;
  let emptyGroup: number;

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    get().app.inject({ method, url, headers: as(user), ...(payload === undefined ? {} : { payload: payload as never }) });

  const aboutTicket = async (email: string, ticketId: number) => (await mailsTo(get().app, email)).filter((m) => m.subject.includes(`#${ticketId} `));

  beforeAll(async () => {
    f = await ticketsFixture(get().app);
    hindiAdmin = await createSignedInUser(get().app, { roles: ['SupportAdmin'], firstName: 'Hema', preferredLanguage: 'hi' });
    const created = await call(f.supportAdmin, 'POST', '/api/v1/supportgroup', { name: `Nobody here ${Date.now()}`, description: '' });
    expect(created.statusCode, created.body).toBe(201);
    emptyGroup = created.json().supportGroupId;
    expect(created.json().memberCount).toBe(0);
  });

  it('should e-mail every support admin, in their language, when a ticket is raised into a group with no agents', async () => {
    const staffed = await raiseTicket(get().app, f.requester, { supportGroupId: f.groups.general });
    const ticket = await raiseTicket(get().app, f.requester, { supportGroupId: emptyGroup, title: 'Hall ticket <b>missing</b>' });

    await vi.waitFor(async () => expect(await aboutTicket(f.supportAdmin.email, ticket.ticketId)).toHaveLength(1), { timeout: 5000 });
    await vi.waitFor(async () => expect(await aboutTicket(hindiAdmin.email, ticket.ticketId)).toHaveLength(1), { timeout: 5000 });
    await vi.waitFor(async () => expect(await aboutTicket(TEST_ADMIN_EMAIL, ticket.ticketId)).toHaveLength(1), { timeout: 5000 });
    await get().app.accountMail.settled();

    const [mail] = await aboutTicket(f.supportAdmin.email, ticket.ticketId);
    expect(mail.subject).toMatch(/no agents/);
    expect(mail.text).toContain('Hall ticket <b>missing</b>');
    expect(mail.html).toContain('Hall ticket &#60;b&#62;missing&#60;/b&#62;');
    expect(mail.text).toContain(`/support/tickets/${ticket.ticketId}`);
    const [hindi] = await aboutTicket(hindiAdmin.email, ticket.ticketId);
    expect(hindi.subject).toContain('कोई एजेंट नहीं');

    // Not for the requester nor agents; nothing for a ticket in a staffed group.
    expect(await aboutTicket(f.requester.email, ticket.ticketId)).toHaveLength(0);
    expect(await aboutTicket(f.agentA.email, ticket.ticketId)).toHaveLength(0);
    expect(await aboutTicket(f.supportAdmin.email, staffed.ticketId)).toHaveLength(0);
  });

  it('should e-mail them about the new ticket when an agent escalates into such a group, and not about the parent', async () => {
    const parent = await raiseTicket(get().app, f.requester, { supportGroupId: f.groups.general });
    expect((await sendEvent(get().app, f.agentA, 'ticket.claim', parent.ticketId)).statusCode).toBe(200);
    const escalated = await call(f.agentA, 'POST', '/api/v1/supportticket', {
      parentSupportTicketId: parent.ticketId,
      supportGroupId: emptyGroup,
      description: 'The hall needs a second invigilator.',
    });
    expect(escalated.statusCode, escalated.body).toBe(200);
    const { childTicketId } = escalated.json() as { childTicketId: number };

    // The child is a ticket raised into the empty group: the same alert as a new ticket.
    await vi.waitFor(async () => expect(await aboutTicket(hindiAdmin.email, childTicketId)).toHaveLength(1), { timeout: 5000 });
    await get().app.accountMail.settled();
    const [mail] = await aboutTicket(f.supportAdmin.email, childTicketId);
    expect(mail.subject).toMatch(/no agents/);
    expect(mail.text).toContain(`/support/tickets/${childTicketId}`);
    // The parent stays in its staffed group.
    expect(await aboutTicket(f.supportAdmin.email, parent.ticketId)).toHaveLength(0);
  });

  it('should e-mail them when a ticket is reassigned into such a group, and not once the group has an agent', async () => {
    const ticket = await raiseTicket(get().app, f.requester, { supportGroupId: f.groups.general });
    const moved = await call(f.supportAdmin, 'PUT', `/api/v1/supportticketstatus/reassingnticket?ticketId=${ticket.ticketId}`, {
      toSupportGroupId: emptyGroup,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await vi.waitFor(async () => expect(await aboutTicket(hindiAdmin.email, ticket.ticketId)).toHaveLength(1), { timeout: 5000 });
    // The support admin who moved it is not told about their own move.
    await get().app.accountMail.settled();
    expect(await aboutTicket(f.supportAdmin.email, ticket.ticketId)).toHaveLength(0);

    const staffing = await call(f.supportAdmin, 'PUT', `/api/v1/supportgroup/${emptyGroup}/members`, { userIds: [f.agentB.id] });
    expect(staffing.statusCode, staffing.body).toBe(200);
    const later = await raiseTicket(get().app, f.requester, { supportGroupId: emptyGroup });
    // A marker ticket raised afterwards into another empty group shows the alerts have run.
    const other = await call(f.supportAdmin, 'POST', '/api/v1/supportgroup', { name: `Still nobody ${Date.now()}`, description: '' });
    const marker = await raiseTicket(get().app, f.requester, { supportGroupId: other.json().supportGroupId });
    await vi.waitFor(async () => expect(await aboutTicket(hindiAdmin.email, marker.ticketId)).toHaveLength(1), { timeout: 5000 });
    await get().app.accountMail.settled();
    expect(await aboutTicket(hindiAdmin.email, later.ticketId)).toHaveLength(0);
  });
});

import type { FastifyInstance } from 'fastify';
import type { TicketStatus } from '#machines/ticket-lifecycle.machine.ts';
import { sendEvent } from './ticket-events-http.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';

export interface TicketsFixture {
  groups: { general: number; technical: number; exams: number; accounts: number };
  requester: TestUser;
  otherRequester: TestUser;
  agentA: TestUser;
  agentB: TestUser;
  technicalAgent: TestUser;
  examsAgent: TestUser;
  supportAdmin: TestUser;
}

export async function ticketsFixture(app: FastifyInstance): Promise<TicketsFixture> {
  const { rows } = await app.db.query<{ id: number; name: string }>(`select id, name from support_groups where tenant_id = 'root'`);
  const id = (name: string) => rows.find((g) => g.name === name)!.id;
  const groups = {
    general: id('General Support'),
    technical: id('Technical Support'),
    exams: id('Exam Administration'),
    accounts: id('Accounts & Access'),
  };
  return {
    groups,
    requester: await createSignedInUser(app, { roles: ['Candidate'], firstName: 'Asha', lastName: 'Candidate' }),
    otherRequester: await createSignedInUser(app, { roles: ['Candidate'], firstName: 'Bilal', lastName: 'Candidate' }),
    agentA: await createSignedInUser(app, { roles: ['SupportAgent'], groups: [groups.general], firstName: 'Chen', lastName: 'Agent' }),
    agentB: await createSignedInUser(app, { roles: ['SupportAgent'], groups: [groups.general], firstName: 'Dana', lastName: 'Agent' }),
    technicalAgent: await createSignedInUser(app, { roles: ['SupportAgent'], groups: [groups.technical], firstName: 'Emeka', lastName: 'Agent' }),
    examsAgent: await createSignedInUser(app, { roles: ['SupportAgent'], groups: [groups.exams], firstName: 'Farah', lastName: 'Agent' }),
    supportAdmin: await createSignedInUser(app, { roles: ['SupportAdmin'], firstName: 'Gita', lastName: 'Admin' }),
  };
}

export async function raiseTicket(
  app: FastifyInstance,
  user: TestUser,
  body: Partial<{ title: string; description: string; supportTicketPriorityId: number; supportGroupId: number; loginUserId: string }> & {
    supportGroupId: number;
  },
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/supportticket',
    headers: as(user),
    payload: { title: 'Cannot open the exam', description: 'The exam page stays blank after login.', supportTicketPriorityId: 2, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`raise failed ${res.statusCode}: ${res.body}`);
  return res.json() as { ticketId: number; statusId: number; supportTicketBotId: string | null; [k: string]: unknown };
}

/** A ticket raised with this text gets a suggested answer once `resolveBotSource` has run. */
export const BOT_TEXT = { title: 'Exam timer stops at zero', description: 'The exam timer stops and the submit button stays disabled.' };

/** Resolves a ticket with a reusable answer, which the answer bot then suggests for tickets raised with BOT_TEXT. */
export async function resolveBotSource(app: FastifyInstance, f: TicketsFixture) {
  const source = await raiseTicket(app, f.otherRequester, { supportGroupId: f.groups.general, ...BOT_TEXT });
  for (const type of ['ticket.claim', 'ticket.resolve'] as const) {
    const res = await sendEvent(app, f.agentA, type, source.ticketId);
    if (res.statusCode !== 200) throw new Error(`${type} of the answer source failed ${res.statusCode}: ${res.body}`);
  }
}

export interface TicketDetail {
  ticketId: number;
  statusId: number;
  status: TicketStatus;
  assigneeId: string | null;
  supportGroupId: number;
  loginUserId: string;
  createdBy: string;
  title: string;
  description: string;
  supportTicketPriorityId: number;
  supportTicketBotId: string | null;
  answer?: string | null;
  children: Array<{ ticketId: number; status: string }>;
  version: number;
}

export interface HistoryRow {
  event: string;
  actorId: string | null;
  actorKind: string;
  fromStatus: string | null;
  toStatus: string | null;
  reason: string | null;
  details: Record<string, unknown>;
}

/** The ticket as the desk sees it (read by a support admin, who sees every ticket). */
export async function ticketOf(app: FastifyInstance, admin: TestUser, id: number): Promise<TicketDetail> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/supportticket/byadmin?ticketId=${id}`, headers: as(admin) });
  if (res.statusCode !== 200) throw new Error(`reading ticket ${id} failed ${res.statusCode}: ${res.body}`);
  return res.json();
}

/** The ticket's history as this reader is shown it. */
export async function historyOf(app: FastifyInstance, reader: TestUser, id: number): Promise<HistoryRow[]> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/supportticket/tickethistory?ticketId=${id}`, headers: as(reader) });
  if (res.statusCode !== 200) throw new Error(`reading the history of ticket ${id} failed ${res.statusCode}: ${res.body}`);
  return res.json();
}

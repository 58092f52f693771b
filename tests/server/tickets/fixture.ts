import type { FastifyInstance } from 'fastify';
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

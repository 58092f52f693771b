import type { Queryable } from './client.ts';

/**
 * Demo data of the notification center and the profile (issue 21): a few notifications over the
 * last days for the demo candidate, the agent and the controller (the ticket conversation adds
 * its own through the chat), and sign-ins on readable devices, one of them failed.
 */
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

interface DemoNotice {
  who: string;
  kind: string;
  params: Record<string, string | number>;
  link: string | null;
  hoursAgo: number;
  read?: boolean;
}

const notices: DemoNotice[] = [
  {
    who: 'asha.menon',
    kind: 'registration.approved',
    params: { examName: 'Mathematics (Class 10)', seasonName: 'March 2027' },
    link: '/registrations/mine',
    hoursAgo: 74,
    read: true,
  },
  {
    who: 'asha.menon',
    kind: 'admitcard.issued',
    params: { examName: 'Mathematics (Class 10)', seasonName: 'March 2027' },
    link: '/registrations/mine',
    hoursAgo: 26,
  },
  { who: 'asha.menon', kind: 'results.published', params: { examName: 'Mock test, Mathematics' }, link: '/registrations/mine', hoursAgo: 3 },
  {
    who: 'ravi.verma',
    kind: 'ticket.assigned',
    params: { ticketId: 0, title: 'The mock test freezes after question 12' },
    link: null,
    hoursAgo: 5,
    read: true,
  },
  {
    who: 'meera.iyer',
    kind: 'bulkjob.finished',
    params: { fileName: 'march-2027-candidates.xlsx', state: 'finished', created: 48, failed: 2, total: 50 },
    link: '/users/bulk-upload',
    hoursAgo: 30,
  },
  { who: 'meera.iyer', kind: 'reevaluation.outcome', params: { examName: 'Science (Class 10)' }, link: null, hoursAgo: 2 },
];

const signIns: Array<{ who: string; event: 'login' | 'loginFailed' | 'logout'; reason?: string; ua: string; ip: string; hoursAgo: number }> = [
  { who: 'asha.menon', event: 'login', ua: CHROME_WINDOWS, ip: '203.0.113.24', hoursAgo: 50 },
  { who: 'asha.menon', event: 'logout', ua: CHROME_WINDOWS, ip: '203.0.113.24', hoursAgo: 49 },
  { who: 'asha.menon', event: 'loginFailed', reason: 'invalidPassword', ua: SAFARI_IPHONE, ip: '198.51.100.7', hoursAgo: 6 },
  { who: 'asha.menon', event: 'login', ua: SAFARI_IPHONE, ip: '198.51.100.7', hoursAgo: 6 },
  { who: 'ravi.verma', event: 'login', ua: FIREFOX_LINUX, ip: '192.0.2.15', hoursAgo: 8 },
  { who: 'meera.iyer', event: 'loginFailed', reason: 'invalidCode', ua: CHROME_WINDOWS, ip: '203.0.113.90', hoursAgo: 31 },
  { who: 'meera.iyer', event: 'login', ua: CHROME_WINDOWS, ip: '203.0.113.90', hoursAgo: 31 },
];

export async function seedDemoNotifications(db: Queryable, emailOf: (key: string) => string, tenantId: string): Promise<void> {
  const ticket = await db.query<{ id: number }>(`select id::int as id from support_tickets where tenant_id = $1 order by id desc limit 1`, [tenantId]);
  const ticketId = ticket.rows[0]?.id ?? 0;
  for (const n of notices) {
    const params = n.kind.startsWith('ticket.') ? { ...n.params, ticketId } : n.params;
    const link = n.kind.startsWith('ticket.') && ticketId ? `/support/tickets/${ticketId}` : n.link;
    await db.query(
      `insert into notifications (tenant_id, user_id, kind, title_key, params, link, created_at, read_at)
       select $1, u.id, $3, $4, $5::jsonb, $6, now() - make_interval(hours => $7), case when $8 then now() - make_interval(hours => $7) end
       from users u where u.tenant_id = $1 and lower(u.email) = lower($2)`,
      [tenantId, emailOf(n.who), n.kind, `kinds.${n.kind}`, JSON.stringify(params), link, n.hoursAgo, n.read ?? false],
    );
  }
  for (const s of signIns) {
    await db.query(
      `insert into login_history (tenant_id, user_id, email, event, reason, ip, user_agent, occurred_at)
       select $1, u.id, u.email, $3, $4, $5, $6, now() - make_interval(hours => $7) from users u where u.tenant_id = $1 and lower(u.email) = lower($2)`,
      [tenantId, emailOf(s.who), s.event, s.reason ?? null, s.ip, s.ua, s.hoursAgo],
    );
  }
}

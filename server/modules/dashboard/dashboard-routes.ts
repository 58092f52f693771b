import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { P } from '#machines/permissions.ts';
import { publishedResultStatuses } from '#machines/results/result.machine.ts';
import { ticketStatuses } from '#machines/ticket-lifecycle.machine.ts';
import type { Db } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace } from '#server/plugins/workspace-context.ts';
import { scopeSql } from '#server/modules/users/users-repository.ts';
import type { Principal } from '#server/plugins/access.ts';
import * as S from './dashboard-schemas.ts';

const tags = ['dashboard'];
const security = [{ bearer: [] }];
const statusIds = Object.values(ticketStatuses);
/** Work still to do at the desk (Open, InProgress, OnHold, Escalated). */
const UNRESOLVED = [1, 2, 3, 4];
/** Waiting on the assignee: On hold waits on someone else. */
const WAITING_ON_ASSIGNEE = [1, 2, 4];
const DAY_MS = 86_400_000;
const PAPER_STATUSES = ['Draft', 'Review', 'Locked', 'Published'];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
const examsConfig = { access: P.Projects.View, workspace: 'project' as const };

const everyStatus = (counts: Map<number, number>) => statusIds.map((statusId) => ({ statusId, count: counts.get(statusId) ?? 0 }));
const iso = (value: string | Date) => new Date(value).toISOString();
const line = (r: { ticketId: number; title: string; statusId: number; supportGroupName: string; createdAt: string }) => ({
  ticketId: r.ticketId,
  title: r.title,
  statusId: r.statusId,
  supportGroupName: r.supportGroupName,
  createdAt: iso(r.createdAt),
});
/** Tickets a card lists; its total counts them all (in the same statement). */
const CARD_ROWS = 5;
const lineColumns = `t.id::int as "ticketId", t.title, t.status_id::int as "statusId", g.name as "supportGroupName", t.created_at as "createdAt"`;

/**
 * The dashboards' aggregate calls of the support desk (issue 21, docs/decisions/0266): small,
 * read-only answers each card of `/` loads on its own. Each answers only what the caller's own
 * ticket reach already shows in the lists (their tickets, their queue, their groups, or — for a
 * support administrator — the tenant).
 */
export async function dashboardRoutes(
  fastify: FastifyInstance,
  { db, clock, directoryConfigured = false }: { db: Db; clock: Clock; directoryConfigured?: boolean },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/v1/dashboard/tickets/mine',
    {
      config: { access: P.SupportTickets.View },
      schema: { tags, security, summary: 'Your open tickets (not yet resolved) and the replies on them you have not read', response: { 200: S.MyTickets } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{
        ticketId: number;
        title: string;
        statusId: number;
        supportGroupName: string;
        createdAt: string;
        updatedAt: string;
        unreadCount: number;
      }>(
        `select * from (select ${lineColumns}, t.updated_at as "updatedAt",
           (select count(*)::int from chat_messages m where m.ticket_id = t.id and m.from_user_id <> $2
              and m.seq > coalesce((select r.last_read_seq from chat_read_markers r where r.ticket_id = t.id and r.user_id = $2), 0)) as "unreadCount"
         from support_tickets t join support_groups g on g.id = t.support_group_id
         where t.tenant_id = $1 and t.requester_id = $2 and t.status_id = any($3)) mine
         order by "unreadCount" > 0 desc, "updatedAt" desc, "ticketId" desc`,
        [p.tenantId, p.userId, UNRESOLVED],
      );
      return {
        openCount: rows.length,
        unreadTotal: rows.reduce((n, r) => n + r.unreadCount, 0),
        tickets: rows.slice(0, CARD_ROWS).map((r) => ({ ...line(r), unreadCount: r.unreadCount, updatedAt: iso(r.updatedAt) })),
      };
    },
  );

  app.get(
    '/v1/dashboard/support/queue',
    {
      config: { access: P.SupportTickets.Work },
      schema: { tags, security, summary: 'The tickets assigned to you, counted by status', response: { 200: S.Queue } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{ statusId: number; n: number }>(
        `select status_id::int as "statusId", count(*)::int as n from support_tickets where tenant_id = $1 and assignee_id = $2 group by status_id`,
        [p.tenantId, p.userId],
      );
      const counts = new Map(rows.map((r) => [r.statusId, r.n]));
      return { total: rows.reduce((n, r) => n + r.n, 0), byStatus: everyStatus(counts) };
    },
  );

  app.get(
    '/v1/dashboard/support/waiting',
    {
      config: { access: P.SupportTickets.Work },
      schema: {
        tags,
        security,
        summary: 'Tickets assigned to you whose last word is not yours (or with no reply yet), the longest waiting first',
        response: { 200: S.Waiting },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{
        ticketId: number;
        title: string;
        statusId: number;
        supportGroupName: string;
        createdAt: string;
        waitingSince: string;
        total: number;
      }>(
        `select ${lineColumns}, coalesce(last.created_at, t.created_at) as "waitingSince", count(*) over ()::int as total
         from support_tickets t join support_groups g on g.id = t.support_group_id
           left join lateral (select m.from_user_id, m.created_at from chat_messages m where m.ticket_id = t.id order by m.seq desc limit 1) last on true
         where t.tenant_id = $1 and t.assignee_id = $2 and t.status_id = any($3) and (last.from_user_id is null or last.from_user_id <> $2)
         order by "waitingSince", t.id limit ${CARD_ROWS}`,
        [p.tenantId, p.userId, WAITING_ON_ASSIGNEE],
      );
      return { total: rows[0]?.total ?? 0, tickets: rows.map((r) => ({ ...line(r), waitingSince: iso(r.waitingSince) })) };
    },
  );

  app.get(
    '/v1/dashboard/support/new',
    {
      config: { access: P.SupportTickets.Work },
      schema: { tags, security, summary: 'Open tickets no one has taken yet in your support groups, the newest first', response: { 200: S.NewInGroups } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{ ticketId: number; title: string; statusId: number; supportGroupName: string; createdAt: string; total: number }>(
        `select ${lineColumns}, count(*) over ()::int as total
         from support_tickets t join support_groups g on g.id = t.support_group_id
         where t.tenant_id = $1 and t.status_id = $3 and t.assignee_id is null
           and exists (select 1 from support_group_members gm where gm.group_id = t.support_group_id and gm.user_id = $2)
         order by t.created_at desc, t.id desc limit ${CARD_ROWS}`,
        [p.tenantId, p.userId, ticketStatuses.Open],
      );
      return { total: rows[0]?.total ?? 0, tickets: rows.map(line) };
    },
  );

  app.get(
    '/v1/dashboard/support/overview',
    {
      config: { access: P.SupportTickets.Administer },
      schema: {
        tags,
        security,
        summary: "The desk's tickets by status and support group, and the oldest not yet resolved",
        response: { 200: S.DeskOverview },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const [counts, oldest] = await Promise.all([
        db.query<{ supportGroupId: number; name: string; statusId: number | null; n: number }>(
          `select g.id::int as "supportGroupId", g.name, t.status_id::int as "statusId", count(t.id)::int as n
           from support_groups g left join support_tickets t on t.support_group_id = g.id and t.tenant_id = g.tenant_id
           where g.tenant_id = $1 group by g.id, g.name, g.sort_order, t.status_id order by g.sort_order, g.name`,
          [p.tenantId],
        ),
        db.query<{ ticketId: number; title: string; statusId: number; supportGroupName: string; createdAt: string }>(
          `select ${lineColumns} from support_tickets t join support_groups g on g.id = t.support_group_id
           where t.tenant_id = $1 and t.status_id = any($2) order by t.created_at, t.id limit 5`,
          [p.tenantId, UNRESOLVED],
        ),
      ]);
      const groups = new Map<number, { name: string; counts: Map<number, number> }>();
      const all = new Map<number, number>();
      for (const r of counts.rows) {
        const group = groups.get(r.supportGroupId) ?? { name: r.name, counts: new Map() };
        groups.set(r.supportGroupId, group);
        if (r.statusId === null) continue;
        group.counts.set(r.statusId, r.n);
        all.set(r.statusId, (all.get(r.statusId) ?? 0) + r.n);
      }
      return {
        groups: [...groups].map(([supportGroupId, g]) => ({
          supportGroupId,
          name: g.name,
          total: [...g.counts.values()].reduce((n, c) => n + c, 0),
          byStatus: everyStatus(g.counts),
        })),
        byStatus: everyStatus(all),
        oldestOpen: oldest.rows.map(line),
      };
    },
  );

  app.get(
    '/v1/dashboard/support/resolved',
    {
      config: { access: P.SupportTickets.Administer },
      schema: {
        tags,
        security,
        summary: 'Tickets resolved per day (UTC), today and the days before it',
        querystring: S.ResolvedQuery,
        response: { 200: S.ResolvedPerDay },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const days = request.query.days ?? 14;
      const today = Date.UTC(clock.now().getUTCFullYear(), clock.now().getUTCMonth(), clock.now().getUTCDate());
      const from = new Date(today - (days - 1) * DAY_MS);
      const { rows } = await db.query<{ day: string; n: number }>(
        `select to_char(resolved_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
         from support_tickets where tenant_id = $1 and resolved_at >= $2 and resolved_at < $3 group by 1`,
        [p.tenantId, from.toISOString(), new Date(today + DAY_MS).toISOString()],
      );
      const counts = new Map(rows.map((r) => [r.day, r.n]));
      return Array.from({ length: days }, (_, i) => {
        const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        return { day, count: counts.get(day) ?? 0 };
      });
    },
  );

  // ---- the exam manager's and project admin's cards: the selected project -------------------

  app.get(
    '/v1/dashboard/exams/items',
    {
      config: examsConfig,
      schema: {
        tags,
        security,
        ...projectCall,
        summary: "The project's items by status and their coverage of its languages",
        response: { 200: S.ItemsOverview },
      },
    },
    async (request) => {
      const { project } = requireWorkspace(request);
      const [statuses, languages] = await Promise.all([
        db.query<{ status: string; n: number }>(`select status, count(*)::int as n from items where project_id = $1 group by status order by status`, [
          project.id,
        ]),
        db.query<{ language: string; n: number; total: number }>(
          `select l.language, (select count(*)::int from items i where i.project_id = p.id and i.status <> 'Retired' and l.language = any(i.languages)) as n
           from projects p cross join lateral unnest(p.languages) with ordinality as l(language, position) where p.id = $1 order by l.position`,
          [project.id],
        ),
      ]);
      return {
        total: statuses.rows.filter((r) => r.status !== 'Retired').reduce((n, r) => n + r.n, 0),
        byStatus: statuses.rows.map((r) => ({ status: r.status, count: r.n })),
        languages: languages.rows.map((r) => ({ language: r.language, count: r.n })),
      };
    },
  );

  app.get(
    '/v1/dashboard/exams/papers',
    { config: examsConfig, schema: { tags, security, ...projectCall, summary: "The project's papers by status", response: { 200: S.PapersOverview } } },
    async (request) => {
      const { project } = requireWorkspace(request);
      const { rows } = await db.query<{ status: string; n: number }>(`select status, count(*)::int as n from papers where project_id = $1 group by status`, [
        project.id,
      ]);
      const counts = new Map(rows.map((r) => [r.status, r.n]));
      return { total: rows.reduce((n, r) => n + r.n, 0), byStatus: PAPER_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })) };
    },
  );

  app.get(
    '/v1/dashboard/exams/centers',
    {
      config: examsConfig,
      schema: {
        tags,
        security,
        ...projectCall,
        summary: "Registrations per exam center against its seats and capacity, in the project's current seasons",
        response: { 200: S.CenterLoad },
      },
    },
    async (request) => {
      const { project } = requireWorkspace(request);
      const { rows } = await db.query<S.CenterLoad[number]>(
        `select * from (select s.id::int as "seasonId", s.name as "seasonName", c.id::int as "centerId", c.name as "centerName", c.city, c.capacity, sc.seats,
           (select count(*)::int from registrations r where r.season_id = s.id and r.center_id = c.id and r.status in ('Allocated', 'AdmitCardIssued', 'Attended')) as registrations
         from season_centers sc join seasons s on s.id = sc.season_id join exam_centers c on c.id = sc.center_id
         where s.project_id = $1 and s.status <> 'Completed') loads
         order by registrations::float8 / greatest(seats, 1) desc, "seasonId", "centerName" limit 20`,
        [project.id],
      );
      return rows;
    },
  );

  app.get(
    '/v1/dashboard/exams/deliveries',
    {
      config: examsConfig,
      schema: {
        tags,
        security,
        ...projectCall,
        summary: "The project's sittings under way: deliveries waiting, active, paused and finished",
        response: { 200: S.LiveDeliveries },
      },
    },
    async (request) => {
      const { project } = requireWorkspace(request);
      const { rows } = await db.query<S.LiveDeliveries[number]>(
        `select sp.id::int as "seasonPaperId", s.name as "seasonName", p.title as "paperTitle",
           count(*) filter (where d.status = 'Waiting')::int as waiting, count(*) filter (where d.status = 'Active')::int as active,
           count(*) filter (where d.status = 'Paused')::int as paused, count(*) filter (where d.status in ('Submitted', 'TimeUp', 'Terminated'))::int as finished
         from deliveries d join season_papers sp on sp.id = d.season_paper_id join seasons s on s.id = sp.season_id join papers p on p.id = sp.paper_id
         where d.project_id = $1 group by sp.id, s.name, p.title
         having count(*) filter (where d.status in ('Waiting', 'Active', 'Paused')) > 0 order by sp.id`,
        [project.id],
      );
      return rows;
    },
  );

  app.get(
    '/v1/dashboard/exams/marking',
    {
      config: { access: P.Exams.View, workspace: 'project' as const },
      schema: {
        tags,
        security,
        ...projectCall,
        summary: "Marking progress of the project's exams: scripts marked of all, marking tasks done, evaluators at work",
        response: { 200: S.MarkingProgress },
      },
    },
    async (request) => {
      const { project } = requireWorkspace(request);
      const { rows } = await db.query<S.MarkingProgress[number]>(
        `select * from (select e.id::int as "examId", e.name as "examName", count(r.id)::int as scripts,
           count(r.id) filter (where not exists (select 1 from marking_tasks t where t.result_id = r.id and t.marked_at is null))::int as "scriptsMarked",
           (select count(*)::int from marking_tasks t where t.exam_id = e.id) as tasks,
           (select count(*)::int from marking_tasks t where t.exam_id = e.id and t.marked_at is not null) as "tasksMarked",
           (select count(distinct t.marker_id)::int from marking_tasks t where t.exam_id = e.id and t.marked_at is not null) as evaluators
         from exams e join results r on r.exam_id = e.id where e.project_id = $1 group by e.id, e.name) progress
         order by scripts - "scriptsMarked" desc, "examId" desc limit 10`,
        [project.id],
      );
      return rows;
    },
  );

  // ---- the candidate's results ---------------------------------------------------------------

  app.get(
    '/v1/dashboard/results/mine',
    {
      config: { access: P.Dashboard.View },
      schema: { tags, security, summary: 'Your published results: how many, and the five latest', response: { 200: S.MyResults } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<S.MyResults['results'][number] & { total: number }>(
        `select r.id::int as "resultId", e.name as "examName", pa.title as "paperTitle", r.status, r.percent::float8 as percent, r.grade, r.passed,
           r.published_at as "publishedAt", count(*) over ()::int as total
         from results r join exams e on e.id = r.exam_id join papers pa on pa.id = r.paper_id
         where r.candidate_id = $1 and r.tenant_id = $2 and r.status = any($3)
         order by r.published_at desc nulls last, r.id desc limit ${CARD_ROWS}`,
        [p.userId, p.tenantId, publishedResultStatuses],
      );
      return {
        total: rows[0]?.total ?? 0,
        results: rows.map((r) => ({
          resultId: r.resultId,
          examName: r.examName,
          paperTitle: r.paperTitle,
          status: r.status,
          percent: r.percent,
          grade: r.grade,
          passed: r.passed,
          publishedAt: r.publishedAt ? iso(r.publishedAt) : null,
        })),
      };
    },
  );

  // ---- the administrator's cards: users in the caller's scope ------------------------------

  const scopeOf = (p: Principal) => scopeSql({ tenantId: p.tenantId, instituteId: p.instituteId, resellerId: p.resellerId }, 1);

  app.get(
    '/v1/dashboard/admin/users',
    {
      config: { access: P.Users.View },
      schema: {
        tags,
        security,
        summary: 'Users of your scope: active, awaiting e-mail confirmation, inactive, locked out',
        response: { 200: S.UsersOverview },
      },
    },
    async (request) => {
      const scope = scopeOf(requirePrincipal(request));
      const { rows } = await db.query<S.UsersOverview>(
        `select count(*)::int as total, count(*) filter (where u.is_active and u.email_confirmed)::int as active,
           count(*) filter (where u.is_active and not u.email_confirmed)::int as "awaitingConfirmation", count(*) filter (where not u.is_active)::int as inactive,
           count(*) filter (where f.locked_until > $4)::int as locked
         from users u left join sign_in_failures f on f.user_id = u.id where ${scope.sql}`,
        [...scope.params, clock.now().toISOString()],
      );
      return rows[0];
    },
  );

  app.get(
    '/v1/dashboard/admin/jobs',
    {
      config: { access: P.Users.Import },
      schema: { tags, security, summary: 'User bulk uploads of your scope, by state, and the newest', response: { 200: S.BulkJobs } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      // The uploads list's own scope rule (users-bulk.ts): the uploader's tenant, institute and reseller.
      const params = [p.tenantId, p.instituteId, p.resellerId];
      const scope = `u.tenant_id = $1 and ($2::uuid is null or u.institute_id = $2) and ($3::uuid is null or u.reseller_id = $3)`;
      const [states, recent] = await Promise.all([
        db.query<{ state: string; n: number }>(
          `select u.state, count(*)::int as n from user_uploads u where ${scope} group by u.state order by u.state`,
          params,
        ),
        db.query<{ jobId: string; fileName: string; state: string; createdAt: string; createdCount: number; failedCount: number; message: string | null }>(
          `select u.id::text as "jobId", u.file_name as "fileName", u.state, u.created_at as "createdAt", u.created_count as "createdCount", u.failed_count as "failedCount", u.message
           from user_uploads u where ${scope} order by u.created_at desc, u.id desc limit 5`,
          params,
        ),
      ]);
      return {
        byState: states.rows.map((r) => ({ state: r.state, count: r.n })),
        recent: recent.rows.map((r) => ({ ...r, createdAt: iso(r.createdAt) })),
      };
    },
  );

  app.get(
    '/v1/dashboard/admin/directory',
    {
      config: { access: P.DirectoryUsers.Search },
      schema: {
        tags,
        security,
        summary: 'Whether a directory is configured, and how many users of your scope sign in through it',
        response: { 200: S.DirectoryStatus },
      },
    },
    async (request) => {
      const scope = scopeOf(requirePrincipal(request));
      const { rows } = await db.query<{ directoryUsers: number; localUsers: number }>(
        `select count(*) filter (where u.login_type = 'directory')::int as "directoryUsers", count(*) filter (where u.login_type = 'local')::int as "localUsers" from users u where ${scope.sql}`,
        scope.params,
      );
      return { configured: directoryConfigured, ...rows[0] };
    },
  );

  app.get(
    '/v1/dashboard/admin/sign-in-failures',
    {
      config: { access: P.LoginHistory.View },
      schema: { tags, security, summary: 'Failed sign-ins of users of your scope: the last 24 hours and the latest', response: { 200: S.SignInFailures } },
    },
    async (request) => {
      const scope = scopeOf(requirePrincipal(request));
      const since = new Date(clock.now().getTime() - DAY_MS).toISOString();
      const failed = `from login_history h join users u on u.id = h.user_id where h.event = 'loginFailed' and ${scope.sql}`;
      const [count, recent] = await Promise.all([
        db.query<{ n: number }>(`select count(*)::int as n ${failed} and h.occurred_at >= $4`, [...scope.params, since]),
        db.query<{ email: string; reason: string | null; occurredAt: string }>(
          `select h.email, h.reason, h.occurred_at as "occurredAt" ${failed} order by h.occurred_at desc limit 5`,
          scope.params,
        ),
      ]);
      return { lastDay: count.rows[0].n, recent: recent.rows.map((r) => ({ ...r, occurredAt: iso(r.occurredAt) })) };
    },
  );
}

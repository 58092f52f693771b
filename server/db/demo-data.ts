import { seedDemoNotifications } from './demo-notifications.ts';
import { addExportTemplates, seededExportTemplates } from '#server/modules/statistics/seeded-export-templates.ts';
import { randomBytes } from 'node:crypto';
import type { RoleName, ExamPermission } from '#machines/permissions.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { systemClock } from '#server/lib/clock.ts';
import { DomainEventBus } from '#server/lib/domain-events.ts';
import type { Principal } from '#server/plugins/access.ts';
import { sendMessage } from '#server/modules/chat/chat-service.ts';
import { applyTransition, createTicket } from '#server/modules/tickets/tickets-service.ts';
import { applyTemplateConfig } from '#server/modules/exams/project-templates.ts';
import { seedDemoItems } from '#server/modules/items/demo-items.ts';
import { seedDemoPaper } from './demo-papers.ts';
import { DEMO_CANDIDATES, seedDemoSeasons } from './demo-seasons.ts';
import { seedDemoResults } from './demo-results.ts';
import type { Db, Queryable } from './client.ts';
import { ROOT_TENANT } from './seed.ts';

/**
 * Demo data (`npm run seed:demo`, or `DEMO_DATA=1` on start; docs/decisions/0095): a realistic
 * board examination a newcomer can click through — a Class 10 board project (Active) with
 * categories for Mathematics and Science down to topics, its flows, a team holding grants, and
 * two exams; plus an entrance-test project still in Setup, to try the set-up stepper, a Draft
 * to archive, an Archived one to restore, and a user on no team (the empty state). Later exam
 * issues extend it. Idempotent: nothing is created when the board project exists.
 *
 * There is no account with a known password (ARCHITECTURE.md §1): the demo users share one
 * password, `DEMO_PASSWORD` or a generated one printed once.
 */
export const DEMO_PROJECT_CODE = 'BOARD10-2027';
export const DEMO_EMAIL_DOMAIN = 'demo.exam-portal.local';

interface DemoUser {
  key: string;
  firstName: string;
  lastName: string;
  role: RoleName;
  /** What they do, for the printed list. */
  job: string;
  /** 'staff' unless said otherwise. */
  userType?: string | null;
}

const demoUsers: DemoUser[] = [
  { key: 'meera.iyer', firstName: 'Meera', lastName: 'Iyer', role: 'ExamManager', job: 'Controller of examinations (manages every project)' },
  { key: 'arjun.shah', firstName: 'Arjun', lastName: 'Shah', role: 'ExamStaff', job: 'ProjectAdmin of the board project' },
  { key: 'priya.nair', firstName: 'Priya', lastName: 'Nair', role: 'ExamStaff', job: 'ItemAuthor (Mathematics and Science)' },
  { key: 'vikram.rao', firstName: 'Vikram', lastName: 'Rao', role: 'ExamStaff', job: 'ItemReviewer; second evaluator of the unit test essays' },
  { key: 'kavita.desai', firstName: 'Kavita', lastName: 'Desai', role: 'ExamStaff', job: 'PaperSetter, Mathematics' },
  { key: 'fatima.khan', firstName: 'Fatima', lastName: 'Khan', role: 'ExamStaff', job: 'Moderator, Mathematics' },
  { key: 'rohan.das', firstName: 'Rohan', lastName: 'Das', role: 'ExamStaff', job: 'Evaluator, Science and Mathematics (marks the unit test essays)' },
  { key: 'sunita.patel', firstName: 'Sunita', lastName: 'Patel', role: 'ExamStaff', job: 'Invigilator and CenterManager' },
  { key: 'anil.kumar', firstName: 'Anil', lastName: 'Kumar', role: 'ExamStaff', job: 'On no project team yet (sees whom to ask)' },
  // The support desk (issue 23): a ticket whose conversation three people take part in.
  { key: 'asha.menon', firstName: 'Asha', lastName: 'Menon', role: 'Candidate', job: 'Candidate with a ticket in progress', userType: null },
  { key: 'ravi.verma', firstName: 'Ravi', lastName: 'Verma', role: 'SupportAgent', job: 'Support agent, Technical Support (holds the ticket)' },
  { key: 'lata.shah', firstName: 'Lata', lastName: 'Shah', role: 'SupportAdmin', job: 'Support admin (follows the ticket)' },
  ...DEMO_CANDIDATES.map((c) => ({
    key: c.key,
    firstName: c.firstName,
    lastName: c.lastName,
    role: 'Candidate' as const,
    job: `Candidate, March 2027 sitting (registration ${c.status})`,
  })),
];

/** The agent of the demo ticket works in this seeded group. */
const DEMO_SUPPORT_GROUP = 'Technical Support';

async function principalOf(db: Queryable, email: string): Promise<Principal> {
  const { rows } = await db.query<Omit<Principal, 'permissions'> & { permissions: string[] }>(
    `select u.id as "userId", u.tenant_id as "tenantId", u.email, u.first_name as "firstName", u.last_name as "lastName",
            u.user_type as "userType", u.reseller_id as "resellerId", u.institute_id as "instituteId",
            coalesce(array_agg(distinct r.name) filter (where r.name is not null), '{}') as roles,
            coalesce(array_agg(distinct rp.permission) filter (where rp.permission is not null), '{}') as permissions
     from users u left join user_roles ur on ur.user_id = u.id left join roles r on r.id = ur.role_id
     left join role_permissions rp on rp.role_id = r.id where u.tenant_id = $1 and u.email = $2 group by u.id`,
    [ROOT_TENANT, email],
  );
  if (!rows[0]) throw new Error(`demo user ${email} is missing`);
  return { ...rows[0], permissions: new Set(rows[0].permissions) };
}

/**
 * A support ticket through the services, as the screens would make it: raised by the candidate,
 * claimed by the agent, and a conversation the support admin joins — so the ticket page shows
 * chat and history in one timeline, and the candidate can address either member of staff.
 */
async function seedDemoSupport(db: Db): Promise<void> {
  const deps = { db, clock: systemClock, events: new DomainEventBus() };
  const [candidate, agent, admin] = await Promise.all(['asha.menon', 'ravi.verma', 'lata.shah'].map((key) => principalOf(db, emailOf(key))));
  const group = await db.query<{ id: number }>(`select id::int as id from support_groups where tenant_id = $1 and name = $2`, [
    ROOT_TENANT,
    DEMO_SUPPORT_GROUP,
  ]);
  if (!group.rows[0]) throw new Error(`The seeded support group "${DEMO_SUPPORT_GROUP}" is missing: run the first-start seed first.`);
  await db.query(`insert into support_group_members (group_id, user_id) values ($1, $2) on conflict do nothing`, [group.rows[0].id, agent.userId]);
  const ticket = await createTicket(deps, candidate, {
    title: 'The mock test freezes after question 12',
    description: 'In the Class 10 mathematics mock test the screen stops responding when I open question 12. I use Chrome on a school laptop.',
    supportTicketPriorityId: 3,
    supportGroupId: group.rows[0].id,
  });
  const say = (p: Principal, message: string, toUserId?: string) => sendMessage(deps, p, { ticketId: ticket.id, message, toUserId });
  await say(candidate, 'I tried twice and it froze both times.');
  await applyTransition(deps, agent, ticket.id, { type: 'ticket.claim' });
  await say(agent, 'Thanks Asha. Could you tell me which browser version you have? (Menu → Help → About)');
  await say(candidate, 'Chrome 131.');
  await say(admin, 'Lata from support here: other candidates see the same on question 12, we are looking at the item.', candidate.userId);
  await say(candidate, 'Thank you both. I will wait for your answer.', agent.userId);
  // The dashboards (issue 21, docs/decisions/0266): a reply Asha has not read yet, a ticket that
  // waits on Ravi, one no one has taken in his group, and resolutions on three days for the chart.
  await say(agent, 'We found it: the item had a broken image. It is fixed; please try the mock test again.');
  const waiting = await createTicket(deps, candidate, {
    title: 'My admit card photo is blurred',
    description: 'The photo on my admit card is blurred. Can it be printed again with a clear photo?',
    supportTicketPriorityId: 2,
    supportGroupId: group.rows[0].id,
  });
  await applyTransition(deps, agent, waiting.id, { type: 'ticket.claim' });
  await sendMessage(deps, candidate, { ticketId: waiting.id, message: 'I uploaded a sharper photo yesterday.' });
  const kavya = await principalOf(db, emailOf('kavya.shah'));
  await createTicket(deps, kavya, {
    title: 'The timer on the mock test looks wrong',
    description: 'The timer showed 95 minutes for a 90-minute paper.',
    supportTicketPriorityId: 2,
    supportGroupId: group.rows[0].id,
  });
  const resolvedDaysAgo = [0, 1, 3];
  for (const [i, daysAgo] of resolvedDaysAgo.entries()) {
    const done = await createTicket(deps, kavya, {
      title: ['Which documents do I bring to the centre?', 'I cannot find my roll number', 'The register page asks for my city twice'][i],
      description: 'Please help.',
      supportTicketPriorityId: 1,
      supportGroupId: group.rows[0].id,
    });
    await applyTransition(deps, agent, done.id, { type: 'ticket.claim' });
    await applyTransition(deps, agent, done.id, { type: 'ticket.resolve', answer: 'Answered on the chat.' });
    if (daysAgo > 0)
      await db.query(
        `update support_tickets set resolved_at = resolved_at - make_interval(days => $2), created_at = created_at - make_interval(days => $2 + 1) where id = $1`,
        [done.id, daysAgo],
      );
  }
}

const boardGrants: Array<[key: string, permission: ExamPermission, exam: 'MATH-10' | 'SCI-10' | null]> = [
  ['meera.iyer', 'ProjectAdmin', null],
  ['arjun.shah', 'ProjectAdmin', null],
  ['priya.nair', 'ItemAuthor', null],
  ['vikram.rao', 'ItemReviewer', null],
  ['kavita.desai', 'PaperSetter', 'MATH-10'],
  ['fatima.khan', 'Moderator', 'MATH-10'],
  ['rohan.das', 'Evaluator', 'SCI-10'],
  ['rohan.das', 'Evaluator', 'MATH-10'],
  // The second, blind marker of the double-marked unit test essay (docs/decisions/0259).
  ['vikram.rao', 'Evaluator', 'MATH-10'],
  ['sunita.patel', 'Invigilator', null],
  ['sunita.patel', 'CenterManager', null],
];

/** Topics added under the template's units (subject → unit → topic). */
const topics: Record<string, string[]> = {
  Algebra: ['Polynomials', 'Pair of linear equations', 'Quadratic equations', 'Arithmetic progressions'],
  Geometry: ['Triangles', 'Circles', 'Coordinate geometry'],
  Physics: ['Light: reflection and refraction', 'Electricity', 'Magnetic effects of current'],
  Chemistry: ['Chemical reactions and equations', 'Acids, bases and salts', 'Carbon and its compounds'],
  Biology: ['Life processes', 'Heredity', 'Our environment'],
};

const cbseGradeBands = [
  { grade: 'A1', minPercent: 91 },
  { grade: 'A2', minPercent: 81 },
  { grade: 'B1', minPercent: 71 },
  { grade: 'B2', minPercent: 61 },
  { grade: 'C1', minPercent: 51 },
  { grade: 'C2', minPercent: 41 },
  { grade: 'D', minPercent: 33 },
  { grade: 'E', minPercent: 0 },
];

export interface DemoResult {
  created: boolean;
  /** Set when this call created the users with a generated password. */
  password?: string;
  users: Array<{ email: string; name: string; role: RoleName; job: string }>;
}

const emailOf = (key: string) => `${key}@${DEMO_EMAIL_DOMAIN}`;

async function templateConfig(tx: Queryable, name: string) {
  const { rows } = await tx.query<{ id: number; config: never }>(`select id::int as id, config from project_templates where tenant_id = $1 and name = $2`, [
    ROOT_TENANT,
    name,
  ]);
  if (!rows[0]) throw new Error(`The seeded template "${name}" is missing: run the first-start seed first.`);
  return rows[0];
}

async function history(tx: Queryable, projectId: number, actor: string, steps: Array<[string, string | null, string, string?]>) {
  for (const [event, from, to, reason] of steps) {
    await tx.query(`insert into project_history (project_id, event, from_status, to_status, actor_id, reason) values ($1, $2, $3, $4, $5, $6)`, [
      projectId,
      event,
      from,
      to,
      actor,
      reason ?? null,
    ]);
  }
}

/**
 * An exam whose published results were withdrawn (docs/decisions/0169): its screen
 * (/workspace/exam) shows the edit of its rules and every move, the withdrawal with its reason.
 */
async function seedWithdrawnExam(tx: Queryable, projectId: number, manager: string, admin: string) {
  const { rows } = await tx.query<{ id: number }>(
    `insert into exams (tenant_id, project_id, code, name, description, status, pass_rules, grade_bands, created_by, updated_by, version)
     values ($1, $2, 'ENG-10', 'English (withdrawn results)', 'Language and literature, 80 marks; results withdrawn for re-marking.', 'Evaluation',
             '{"passPercent": 35, "sectionMinimumPercent": 25}', $3, $4, $5, 8) returning id::int as id`,
    [ROOT_TENANT, projectId, JSON.stringify(cbseGradeBands), manager, admin],
  );
  const examId = rows[0].id;
  const steps: Array<[event: string, from: string | null, to: string | null, actor: string, reason: string | null, details: object]> = [
    ['exam.create', null, 'Draft', manager, null, {}],
    ['exam.edit', null, null, admin, null, { fields: ['passRules'], version: 2 }],
    ['exam.schedule', 'Draft', 'Scheduled', manager, null, {}],
    ['exam.start', 'Scheduled', 'Live', manager, null, {}],
    ['exam.end', 'Live', 'Evaluation', manager, null, {}],
    ['exam.publishResults', 'Evaluation', 'ResultsPublished', admin, null, {}],
    ['exam.withdrawResults', 'ResultsPublished', 'Evaluation', admin, 'Answer key error in Q14; re-marking section B', {}],
  ];
  for (const [index, [event, from, to, actor, reason, details]] of steps.entries()) {
    await tx.query(
      `insert into exam_history (exam_id, event, from_status, to_status, actor_id, reason, details, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, now() - make_interval(days => $8))`,
      [examId, event, from, to, actor, reason, JSON.stringify(details), (steps.length - index) * 3],
    );
  }
}

export async function seedDemoData(db: Db, options: { password?: string } = {}): Promise<DemoResult> {
  const list = demoUsers.map((u) => ({ email: emailOf(u.key), name: `${u.firstName} ${u.lastName}`, role: u.role, job: u.job }));
  const password = options.password ?? randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const result = await seedDemoProjects(db, list, password, passwordHash);
  // The ticket goes through the services, each action its own transaction, once the users exist.
  if (result.created) {
    await seedDemoSupport(db);
    // The administrator's "Bulk uploads" card (issue 21): one finished upload of the first user (the seeded administrator).
    await db.query(
      `insert into user_uploads (tenant_id, file_name, content, size_bytes, uploaded_by, state, message, total_rows, rows_processed, created_count, failed_count, finished_at)
       select $1, 'march-2027-candidates.xlsx', '\\x00', 1, u.id, 'finished', 'Every user was created.', 6, 6, 6, 0, now()
       from users u where u.tenant_id = $1 order by u.created_at, u.id limit 1`,
      [ROOT_TENANT],
    );
    await seedDemoNotifications(db, emailOf, ROOT_TENANT);
  }
  return result;
}

async function seedDemoProjects(db: Db, list: DemoResult['users'], password: string, passwordHash: string): Promise<DemoResult> {
  return db.transaction(async (tx) => {
    const exists = await tx.query(`select 1 from projects where tenant_id = $1 and lower(code) = lower($2)`, [ROOT_TENANT, DEMO_PROJECT_CODE]);
    if (exists.rows.length) return { created: false, users: list };

    const ids = new Map<string, string>();
    for (const user of demoUsers) {
      const { rows } = await tx.query<{ id: string }>(
        `insert into users (tenant_id, first_name, last_name, email, user_name, password_hash, user_type, email_confirmed)
         values ($1, $2, $3, $4, $5, $6, $7, true)
         on conflict do nothing returning id`,
        [
          ROOT_TENANT,
          user.firstName,
          user.lastName,
          emailOf(user.key),
          user.key.replace('.', '_'),
          passwordHash,
          user.userType !== undefined ? user.userType : user.role === 'Candidate' ? 'candidate' : 'staff',
        ],
      );
      const id =
        rows[0]?.id ??
        (await tx.query<{ id: string }>(`select id from users where tenant_id = $1 and email = $2`, [ROOT_TENANT, emailOf(user.key)])).rows[0].id;
      ids.set(user.key, id);
      await tx.query(`insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = $2 and name = $3 on conflict do nothing`, [
        id,
        ROOT_TENANT,
        user.role,
      ]);
    }
    const meera = ids.get('meera.iyer')!;

    // The board project: from the school board template, Active, with topics and two exams.
    const board = await templateConfig(tx, 'School board examination');
    const { rows: projectRows } = await tx.query<{ id: number }>(
      `insert into projects (tenant_id, code, name, description, languages, status, template_id, created_by, updated_by, version)
       values ($1, $2, 'Class 10 Board Examination 2027', 'Secondary school certificate examination, March 2027 sitting: Mathematics and Science papers in English, Hindi and Gujarati.',
               '{en,hi,gu}', 'Active', $3, $4, $4, 3) returning id::int as id`,
      [ROOT_TENANT, DEMO_PROJECT_CODE, board.id, meera],
    );
    const projectId = projectRows[0].id;
    await applyTemplateConfig(tx, ROOT_TENANT, projectId, board.config, meera);
    // Issue 20: the three seeded export templates, also when the tenant's templates predate them.
    await addExportTemplates(tx, ROOT_TENANT, projectId, seededExportTemplates, meera);
    for (const [unit, names] of Object.entries(topics)) {
      const { rows } = await tx.query<{ id: number }>(`select id::int as id from categories where project_id = $1 and name = $2`, [projectId, unit]);
      for (const [index, name] of names.entries()) {
        await tx.query(`insert into categories (tenant_id, project_id, parent_id, name, sort_order, updated_by) values ($1, $2, $3, $4, $5, $6)`, [
          ROOT_TENANT,
          projectId,
          rows[0].id,
          name,
          index,
          meera,
        ]);
      }
    }
    await history(tx, projectId, meera, [
      ['project.create', null, 'Draft'],
      ['project.startSetup', 'Draft', 'Setup'],
      ['project.activate', 'Setup', 'Active'],
      ['project.close', 'Active', 'Closed', 'Board asked to pause while the syllabus was revised'],
      ['project.reopen', 'Closed', 'Active', 'Revised syllabus published; work resumes'],
    ]);
    const exams = new Map<string, number>();
    for (const [code, name, status, description] of [
      ['MATH-10', 'Mathematics (Standard)', 'Scheduled', 'Theory paper, 80 marks, 3 hours; internal assessment 20 marks.'],
      ['SCI-10', 'Science', 'Draft', 'Theory paper, 80 marks, 3 hours; practical assessment 20 marks.'],
    ] as const) {
      const { rows } = await tx.query<{ id: number }>(
        `insert into exams (tenant_id, project_id, code, name, description, status, pass_rules, grade_bands, created_by, updated_by, version)
         values ($1, $2, $3, $4, $5, $6, '{"passPercent": 33}', $7, $8, $8, $9) returning id::int as id`,
        [ROOT_TENANT, projectId, code, name, description, status, JSON.stringify(cbseGradeBands), meera, status === 'Draft' ? 1 : 2],
      );
      exams.set(code, rows[0].id);
      await tx.query(`insert into exam_history (exam_id, event, to_status, actor_id) values ($1, 'exam.create', 'Draft', $2)`, [rows[0].id, meera]);
      if (status === 'Scheduled') {
        await tx.query(`insert into exam_history (exam_id, event, from_status, to_status, actor_id) values ($1, 'exam.schedule', 'Draft', 'Scheduled', $2)`, [
          rows[0].id,
          meera,
        ]);
      }
    }
    await seedWithdrawnExam(tx, projectId, meera, ids.get('arjun.shah')!);
    for (const [key, permission, exam] of boardGrants) {
      await tx.query(`insert into exam_grants (tenant_id, user_id, project_id, exam_id, permission, granted_by) values ($1, $2, $3, $4, $5, $6)`, [
        ROOT_TENANT,
        ids.get(key),
        projectId,
        exam ? exams.get(exam) : null,
        permission,
        meera,
      ]);
    }

    // The item bank: every kind in en / hi / gu, at every point of the item flow (issue 16).
    await seedDemoItems(tx, {
      tenantId: ROOT_TENANT,
      projectId,
      author: ids.get('priya.nair')!,
      reviewer: ids.get('vikram.rao')!,
      admin: ids.get('arjun.shah')!,
      languages: ['en', 'hi', 'gu'],
    });
    // A locked unit-test paper of MATH-10 with sets A–D (issue 17).
    const paper = await seedDemoPaper(tx, {
      tenantId: ROOT_TENANT,
      projectId,
      examId: exams.get('MATH-10')!,
      author: ids.get('priya.nair')!,
      setter: ids.get('kavita.desai')!,
      moderator: ids.get('fatima.khan')!,
    });
    // Centers, the March 2027 season (registration open) and three candidates' registrations (issue 18).
    await seedDemoSeasons(tx, {
      tenantId: ROOT_TENANT,
      projectId,
      examId: exams.get('MATH-10')!,
      paperId: paper.paperId,
      manager: meera,
      centerManager: ids.get('sunita.patel')!,
      candidates: ids,
    });
    // A held sitting with submitted deliveries: Kavya's published results, essays to mark (issue 20).
    const { rows: ahm } = await tx.query<{ id: number }>(`select id::int as id from exam_centers where tenant_id = $1 and code = 'AHM-001'`, [ROOT_TENANT]);
    await seedDemoResults(
      tx,
      {
        tenantId: ROOT_TENANT,
        projectId,
        examId: exams.get('MATH-10')!,
        paperId: paper.paperId,
        manager: meera,
        setter: ids.get('kavita.desai')!,
        moderator: ids.get('fatima.khan')!,
        evaluator: ids.get('rohan.das')!,
        author: ids.get('priya.nair')!,
        candidates: ids,
      },
      ahm[0].id,
      new Date(),
    );

    // An entrance test still in Setup: the stepper opens on it.
    const cbt = await templateConfig(tx, 'Entrance test (CBT, negative marking)');
    const { rows: mockRows } = await tx.query<{ id: number }>(
      `insert into projects (tenant_id, code, name, description, languages, status, template_id, created_by, updated_by, version)
       values ($1, 'JEE-MOCK-2027', 'Engineering entrance mock test 2027', 'Computer-based mock test: Physics, Chemistry and Mathematics with negative marking.',
               '{en,hi}', 'Setup', $2, $3, $3, 2) returning id::int as id`,
      [ROOT_TENANT, cbt.id, meera],
    );
    await applyTemplateConfig(tx, ROOT_TENANT, mockRows[0].id, cbt.config, meera);
    await addExportTemplates(tx, ROOT_TENANT, mockRows[0].id, seededExportTemplates, meera);
    await history(tx, mockRows[0].id, meera, [
      ['project.create', null, 'Draft'],
      ['project.startSetup', 'Draft', 'Setup'],
    ]);
    await tx.query(
      `insert into exams (tenant_id, project_id, code, name, description, created_by, updated_by) values ($1, $2, 'PCM-1', 'Paper 1 (Physics, Chemistry, Mathematics)', '', $3, $3)`,
      [ROOT_TENANT, mockRows[0].id, meera],
    );
    await tx.query(
      `insert into exam_grants (tenant_id, user_id, project_id, permission, granted_by) values ($1, $2, $3, 'ProjectAdmin', $2), ($1, $4, $3, 'ItemAuthor', $2)`,
      [ROOT_TENANT, meera, mockRows[0].id, ids.get('priya.nair')],
    );

    // A draft nobody set up (archive it from the projects list) and a past project already
    // archived (exam managers list it with "Show archived projects" and restore it).
    for (const [code, name, description, status, steps] of [
      ['SCHOLAR-2027', 'Merit scholarship test 2027', 'Draft of a district scholarship test; not set up yet.', 'Draft', [['project.create', null, 'Draft']]],
      [
        'OLYMPIAD-2026',
        'Mathematics olympiad 2026',
        'Regional olympiad, held in January 2026; results published.',
        'Archived',
        [
          ['project.create', null, 'Draft'],
          ['project.startSetup', 'Draft', 'Setup'],
          ['project.activate', 'Setup', 'Active'],
          ['project.close', 'Active', 'Closed'],
          ['project.archive', 'Closed', 'Archived'],
        ],
      ],
    ] as const) {
      const { rows } = await tx.query<{ id: number }>(
        `insert into projects (tenant_id, code, name, description, languages, status, created_by, updated_by, version)
         values ($1, $2, $3, $4, '{en}', $5, $6, $6, $7) returning id::int as id`,
        [ROOT_TENANT, code, name, description, status, meera, steps.length],
      );
      await history(
        tx,
        rows[0].id,
        meera,
        steps.map(([event, from, to]) => [event, from, to]),
      );
      await tx.query(`insert into exam_grants (tenant_id, user_id, project_id, permission, granted_by) values ($1, $2, $3, 'ProjectAdmin', $2)`, [
        ROOT_TENANT,
        meera,
        rows[0].id,
      ]);
    }
    return { created: true, password, users: list };
  });
}

/** The lines printed after demo data is created. */
export function demoDataSummary(result: DemoResult): string {
  if (!result.created) return `Demo data already present (project ${DEMO_PROJECT_CODE}); nothing changed.\n`;
  const width = Math.max(...result.users.map((u) => u.email.length));
  return [
    '',
    `  Demo data created: project ${DEMO_PROJECT_CODE} "Class 10 Board Examination 2027" (Active, 3 exams — ENG-10 with withdrawn results to show the exam screen and its history — items of every kind; MATH-10 has the locked paper MATH-UT-1 with sets A–D and the draft MATH-UT-2; the March 2027 season is open for registration at 6 exam centers, and today's paper sitting is kept on /invigilate/paper), JEE-MOCK-2027 (in Setup), SCHOLAR-2027 (Draft) and OLYMPIAD-2026 (Archived); a support ticket in progress whose conversation a candidate, an agent and a support admin take part in.`,
    `  Sign in as any of these users with the password ${result.password} (shown only now; set DEMO_PASSWORD to choose it):`,
    ...result.users.map((u) => `    ${u.email.padEnd(width)}  ${u.role.padEnd(11)}  ${u.job}`),
    '',
  ].join('\n');
}

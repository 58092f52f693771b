import { randomBytes } from 'node:crypto';
import type { RoleName, ExamPermission } from '#machines/permissions.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { applyTemplateConfig } from '#server/modules/exams/project-templates.ts';
import { seedDemoItems } from '#server/modules/items/demo-items.ts';
import { seedDemoPaper } from './demo-papers.ts';
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
}

const demoUsers: DemoUser[] = [
  { key: 'meera.iyer', firstName: 'Meera', lastName: 'Iyer', role: 'ExamManager', job: 'Controller of examinations (manages every project)' },
  { key: 'arjun.shah', firstName: 'Arjun', lastName: 'Shah', role: 'ExamStaff', job: 'ProjectAdmin of the board project' },
  { key: 'priya.nair', firstName: 'Priya', lastName: 'Nair', role: 'ExamStaff', job: 'ItemAuthor (Mathematics and Science)' },
  { key: 'vikram.rao', firstName: 'Vikram', lastName: 'Rao', role: 'ExamStaff', job: 'ItemReviewer' },
  { key: 'kavita.desai', firstName: 'Kavita', lastName: 'Desai', role: 'ExamStaff', job: 'PaperSetter, Mathematics' },
  { key: 'fatima.khan', firstName: 'Fatima', lastName: 'Khan', role: 'ExamStaff', job: 'Moderator, Mathematics' },
  { key: 'rohan.das', firstName: 'Rohan', lastName: 'Das', role: 'ExamStaff', job: 'Evaluator, Science' },
  { key: 'sunita.patel', firstName: 'Sunita', lastName: 'Patel', role: 'ExamStaff', job: 'Invigilator and CenterManager' },
  { key: 'anil.kumar', firstName: 'Anil', lastName: 'Kumar', role: 'ExamStaff', job: 'On no project team yet (sees whom to ask)' },
];

const boardGrants: Array<[key: string, permission: ExamPermission, exam: 'MATH-10' | 'SCI-10' | null]> = [
  ['meera.iyer', 'ProjectAdmin', null],
  ['arjun.shah', 'ProjectAdmin', null],
  ['priya.nair', 'ItemAuthor', null],
  ['vikram.rao', 'ItemReviewer', null],
  ['kavita.desai', 'PaperSetter', 'MATH-10'],
  ['fatima.khan', 'Moderator', 'MATH-10'],
  ['rohan.das', 'Evaluator', 'SCI-10'],
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

async function history(tx: Queryable, projectId: number, actor: string, steps: Array<[string, string | null, string]>) {
  for (const [event, from, to] of steps) {
    await tx.query(`insert into project_history (project_id, event, from_status, to_status, actor_id) values ($1, $2, $3, $4, $5)`, [
      projectId,
      event,
      from,
      to,
      actor,
    ]);
  }
}

export async function seedDemoData(db: Db, options: { password?: string } = {}): Promise<DemoResult> {
  const list = demoUsers.map((u) => ({ email: emailOf(u.key), name: `${u.firstName} ${u.lastName}`, role: u.role, job: u.job }));
  const password = options.password ?? randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const exists = await tx.query(`select 1 from projects where tenant_id = $1 and lower(code) = lower($2)`, [ROOT_TENANT, DEMO_PROJECT_CODE]);
    if (exists.rows.length) return { created: false, users: list };

    const ids = new Map<string, string>();
    for (const user of demoUsers) {
      const { rows } = await tx.query<{ id: string }>(
        `insert into users (tenant_id, first_name, last_name, email, user_name, password_hash, user_type, email_confirmed)
         values ($1, $2, $3, $4, $5, $6, 'staff', true)
         on conflict do nothing returning id`,
        [ROOT_TENANT, user.firstName, user.lastName, emailOf(user.key), user.key.replace('.', '_'), passwordHash],
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
    await seedDemoPaper(tx, {
      tenantId: ROOT_TENANT,
      projectId,
      examId: exams.get('MATH-10')!,
      author: ids.get('priya.nair')!,
      setter: ids.get('kavita.desai')!,
      moderator: ids.get('fatima.khan')!,
    });

    // An entrance test still in Setup: the stepper opens on it.
    const cbt = await templateConfig(tx, 'Entrance test (CBT, negative marking)');
    const { rows: mockRows } = await tx.query<{ id: number }>(
      `insert into projects (tenant_id, code, name, description, languages, status, template_id, created_by, updated_by, version)
       values ($1, 'JEE-MOCK-2027', 'Engineering entrance mock test 2027', 'Computer-based mock test: Physics, Chemistry and Mathematics with negative marking.',
               '{en,hi}', 'Setup', $2, $3, $3, 2) returning id::int as id`,
      [ROOT_TENANT, cbt.id, meera],
    );
    await applyTemplateConfig(tx, ROOT_TENANT, mockRows[0].id, cbt.config, meera);
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
    `  Demo data created: project ${DEMO_PROJECT_CODE} "Class 10 Board Examination 2027" (Active, 2 exams, items of every kind; MATH-10 has the locked paper MATH-UT-1 with sets A–D and the draft MATH-UT-2), JEE-MOCK-2027 (in Setup), SCHOLAR-2027 (Draft) and OLYMPIAD-2026 (Archived).`,
    `  Sign in as any of these users with the password ${result.password} (shown only now; set DEMO_PASSWORD to choose it):`,
    ...result.users.map((u) => `    ${u.email.padEnd(width)}  ${u.role.padEnd(11)}  ${u.job}`),
    '',
  ].join('\n');
}

import type { FastifyInstance } from 'fastify';
import type { ItemContent } from '#machines/items/item-schema.ts';
import type { Db } from '#server/db/client.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { call, createExam, createProject, grant, managerUser, staffUser, uniqueCode } from '../exams/workspace-kit.ts';

/** A project with an exam, a team (setter, moderator, admin, an author) and items written straight into the item tables. */
export interface PaperWorld {
  projectId: number;
  examId: number;
  manager: TestUser;
  setter: TestUser;
  moderator: TestUser;
  admin: TestUser;
  author: TestUser;
  categories: { algebra: number; geometry: number };
}

export async function paperWorld(app: FastifyInstance): Promise<PaperWorld> {
  const manager = await managerUser(app);
  const setter = await staffUser(app, { firstName: 'Paper', lastName: 'Setter' });
  const moderator = await staffUser(app, { firstName: 'Paper', lastName: 'Moderator' });
  const admin = await staffUser(app, { firstName: 'Project', lastName: 'Admin' });
  const author = await staffUser(app, { firstName: 'Item', lastName: 'Author' });
  const projectId = await createProject(app, manager, { languages: ['en', 'hi'] });
  const examId = await createExam(app, manager, projectId);
  await grant(app, manager, projectId, setter, 'PaperSetter');
  await grant(app, manager, projectId, moderator, 'Moderator', examId);
  await grant(app, manager, projectId, admin, 'ProjectAdmin');
  await grant(app, manager, projectId, author, 'ItemAuthor');
  const category = async (name: string) => {
    const res = await call(app, manager, 'POST', '/api/v1/category', { project: projectId, body: { name } });
    if (res.statusCode !== 201) throw new Error(`category ${res.statusCode}: ${res.body}`);
    return (res.json() as { categoryId: number }).categoryId;
  };
  return {
    projectId,
    examId,
    manager,
    setter,
    moderator,
    admin,
    author,
    categories: { algebra: await category('Algebra'), geometry: await category('Geometry') },
  };
}

export function mcq(n: number, languages: string[] = ['en', 'hi'], keepLast = true): ItemContent {
  const ids = ['A', 'B', 'C', 'D'];
  return {
    kind: 'singleChoice',
    variants: Object.fromEntries(
      languages.map((l) => [
        l,
        {
          stem: `<p>${l === 'hi' ? 'प्रश्न' : 'Question'} ${n}</p>`,
          choices: Object.fromEntries(ids.map((id) => [id, l === 'hi' ? `विकल्प ${id}` : `Option ${id}`])),
        },
      ]),
    ),
    marking: { correct: 4, wrong: -1, unanswered: 0 },
    media: [],
    options: ids.map((id, i) => ({ id, keepLast: keepLast && i === 3 })),
    correct: 'A',
    shuffle: true,
  };
}

/** Writes an item with one version; approved unless told otherwise. */
export async function insertItem(
  db: Db,
  world: Pick<PaperWorld, 'projectId'>,
  options: { categoryId: number; difficulty: 'easy' | 'medium' | 'hard'; approved?: boolean; content?: ItemContent; status?: string },
): Promise<{ itemId: number; versionId: number }> {
  const approved = options.approved ?? true;
  const content = options.content ?? mcq(Math.floor(Math.random() * 1e6));
  const { rows } = await db.query<{ id: number }>(
    `insert into items (tenant_id, project_id, code, kind, category_id, difficulty, status, languages)
     select tenant_id, id, $2, $3, $4, $5, $6, $7 from projects where id = $1 returning id::int as id`,
    [
      world.projectId,
      uniqueCode('ITM'),
      content.kind,
      options.categoryId,
      options.difficulty,
      options.status ?? (approved ? 'Approved' : 'Draft'),
      Object.keys(content.variants),
    ],
  );
  const itemId = rows[0].id;
  const version = await db.query<{ id: number }>(
    `insert into item_versions (item_id, number, content, languages, approved_at) values ($1, 1, $2, $3, ${approved ? 'now()' : 'null'}) returning id::int as id`,
    [itemId, JSON.stringify(content), Object.keys(content.variants)],
  );
  const versionId = version.rows[0].id;
  await db.query(`update items set latest_version_id = $2, approved_version_id = $3 where id = $1`, [itemId, versionId, approved ? versionId : null]);
  return { itemId, versionId };
}

export async function insertItems(db: Db, world: Pick<PaperWorld, 'projectId'>, count: number, options: Parameters<typeof insertItem>[2]) {
  const out = [];
  for (let i = 0; i < count; i += 1) out.push(await insertItem(db, world, { ...options, content: options.content ?? mcq(i) }));
  return out;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A paper call: ExamId header (with the paper id when given). */
export function paperCall(app: FastifyInstance, world: PaperWorld, user: TestUser, method: Method, url: string, body?: unknown, paperId?: number) {
  return call(app, user, method, url, { exam: paperId === undefined ? world.examId : `${world.examId}&${paperId}`, body });
}

export async function createPaper(app: FastifyInstance, world: PaperWorld, body: Record<string, unknown> = {}) {
  const res = await paperCall(app, world, world.setter, 'POST', '/api/v1/paper', {
    code: uniqueCode('PAP'),
    title: 'Mathematics Paper I',
    durationMinutes: 180,
    totalMarks: 80,
    ...body,
  });
  if (res.statusCode !== 201) throw new Error(`create paper ${res.statusCode}: ${res.body}`);
  return res.json() as PaperAnswer;
}

export async function addSection(app: FastifyInstance, world: PaperWorld, paperId: number, body: Record<string, unknown>) {
  const res = await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${paperId}/section`, { title: 'Section', marksPerItem: 1, ...body });
  if (res.statusCode !== 201) throw new Error(`add section ${res.statusCode}: ${res.body}`);
  return res.json() as PaperAnswer;
}

export function sendPaperEvent(app: FastifyInstance, world: PaperWorld, user: TestUser, paperId: number, event: string, extra: Record<string, unknown> = {}) {
  return paperCall(app, world, user, 'POST', `/api/v1/paper/${paperId}/status`, { event, ...extra });
}

export interface PaperAnswer {
  paperId: number;
  status: string;
  version: number;
  totalMarks: number;
  setCount: number;
  actions: string[];
  sections: Array<{ sectionId: number; version: number; itemCount: number; marks: number; rule: unknown }>;
}

/**
 * A paper whose blueprint is clean: 10 fixed items of 2 marks (Algebra, easy) and a draw of
 * 5 medium + 5 hard Geometry items of 4 marks from a bank of 8 + 8: 20 + 40 = 60 marks.
 */
export async function cleanPaper(app: FastifyInstance, db: Db, world: PaperWorld) {
  const fixed = await insertItems(db, world, 10, { categoryId: world.categories.algebra, difficulty: 'easy' });
  await insertItems(db, world, 8, { categoryId: world.categories.geometry, difficulty: 'medium' });
  await insertItems(db, world, 8, { categoryId: world.categories.geometry, difficulty: 'hard' });
  const paper = await createPaper(app, world, { totalMarks: 60 });
  await addSection(app, world, paper.paperId, { title: 'A: Algebra', marksPerItem: 2, rule: { kind: 'fixed', items: fixed.map((f) => f.versionId) } });
  const final = await addSection(app, world, paper.paperId, {
    title: 'B: Geometry',
    marksPerItem: 4,
    rule: {
      kind: 'draw',
      draws: [
        { categoryId: world.categories.geometry, difficulty: 'medium', count: 5 },
        { categoryId: world.categories.geometry, difficulty: 'hard', count: 5 },
      ],
    },
  });
  return { paper: final, fixed };
}

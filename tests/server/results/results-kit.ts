import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ItemContent } from '#machines/items/item-schema.ts';
import type { Db } from '#server/db/client.ts';
import { createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { activateProject, call, grant, staffUser } from '../exams/workspace-kit.ts';
import { addSection, createPaper, insertItem, mcq, paperCall, paperWorld, sendPaperEvent, type PaperWorld } from '../papers/papers-kit.ts';
import { createCenter, createSeason, projectCall } from '../seasons/seasons-kit.ts';

/** 10:00 IST on 10 March 2027, 60 minutes (the delivery tests' sitting). */
export const SITTING = { sitsOn: '2027-03-10', startsAt: '10:00', startsAtIso: '2027-03-10T04:30:00.000Z', durationMinutes: 60 };

export const essayItem: ItemContent = {
  kind: 'essay',
  variants: { en: { stem: '<p>Describe the water cycle.</p>', rubric: '<p>Evaporation 4, condensation 3, precipitation 3.</p>' } },
  marking: { correct: 10, wrong: 0, unanswered: 0 },
  media: [],
  wordLimit: 200,
};

export interface ResultsWorld extends PaperWorld {
  paperId: number;
  seasonId: number;
  seasonPaperId: number;
  evaluatorA: TestUser;
  evaluatorB: TestUser;
  /** Item version ids: three single-choice (key A, +4 / −1, 4 marks each) and the essay (10 marks). */
  mcqVersions: number[];
  essayVersion: number;
}

const day = 24 * 60 * 60 * 1000;

/**
 * A locked paper of two sections: A, three single-choice items at 4 marks (+4 / −1 in the
 * bank); B, one essay at 10 marks: 22 in all. Scheduled online at SITTING; two evaluators of
 * the exam; the paper world's moderator holds Moderator on the exam.
 */
export async function resultsWorld(
  app: FastifyInstance,
  db: Db,
  settings: Record<string, unknown> = {},
  /** Choice items (by index, 0–2) set to be marked by a person (marking.byPerson). */
  byPerson: number[] = [],
): Promise<ResultsWorld> {
  const world = await paperWorld(app);
  await activateProject(app, world.manager, world.projectId);
  const mcqVersions: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const content = mcq(i, ['en']);
    if (byPerson.includes(i)) content.marking = { ...content.marking, byPerson: true };
    mcqVersions.push((await insertItem(db, world, { categoryId: world.categories.algebra, difficulty: 'easy', content })).versionId);
  }
  const essayVersion = (await insertItem(db, world, { categoryId: world.categories.algebra, difficulty: 'hard', content: essayItem })).versionId;
  const paper = await createPaper(app, world, { totalMarks: 22, durationMinutes: 60 });
  await addSection(app, world, paper.paperId, { title: 'A: Choice', marksPerItem: 4, rule: { kind: 'fixed', items: mcqVersions } });
  await addSection(app, world, paper.paperId, { title: 'B: Essay', marksPerItem: 10, rule: { kind: 'fixed', items: [essayVersion] } });
  for (const [user, event] of [
    [world.setter, 'paper.submit'],
    [world.moderator, 'paper.lock'],
  ] as const) {
    const res = await sendPaperEvent(app, world, user, paper.paperId, event);
    if (res.statusCode !== 200) throw new Error(`${event} ${res.statusCode}: ${res.body}`);
  }
  const sets = await paperCall(app, world, world.moderator, 'POST', `/api/v1/paper/${paper.paperId}/sets`, { count: 1 });
  if (sets.statusCode >= 300) throw new Error(`sets ${sets.statusCode}: ${sets.body}`);
  const centerManager = await staffUser(app, { firstName: 'Centre', lastName: 'Manager' });
  await grant(app, world.manager, world.projectId, centerManager, 'CenterManager');
  const center = (await createCenter(app, world.manager)).centerId;
  const season = await createSeason(
    app,
    { ...world, centerManager, lockedPaperId: paper.paperId, draftPaperId: paper.paperId, centers: [center] },
    {
      registrationOpensAt: new Date(Date.now() - day).toISOString(),
      registrationClosesAt: new Date(Date.now() + 30 * day).toISOString(),
    },
  );
  const scheduled = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/paper`, {
    paperId: paper.paperId,
    sitsOn: SITTING.sitsOn,
    startsAt: SITTING.startsAt,
    durationMinutes: SITTING.durationMinutes,
    mode: 'online',
  });
  if (scheduled.statusCode !== 201) throw new Error(`schedule ${scheduled.statusCode}: ${scheduled.body}`);
  const seated = await projectCall(app, world, world.manager, 'PUT', `/api/v1/season/${season.seasonId}/center`, { centerId: center, seats: 90 });
  if (seated.statusCode !== 200) throw new Error(`center ${seated.statusCode}: ${seated.body}`);
  const opened = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/status`, { event: 'season.openRegistration' });
  if (opened.statusCode !== 200) throw new Error(`open ${opened.statusCode}: ${opened.body}`);
  const evaluatorA = await staffUser(app, { firstName: 'Eva', lastName: 'One' });
  const evaluatorB = await staffUser(app, { firstName: 'Eli', lastName: 'Two' });
  await grant(app, world.manager, world.projectId, evaluatorA, 'Evaluator', world.examId);
  await grant(app, world.manager, world.projectId, evaluatorB, 'Evaluator', world.examId);
  await db.query(`update exams set result_settings = result_settings || $2::jsonb, grade_bands = $3, pass_rules = $4 where id = $1`, [
    world.examId,
    JSON.stringify({ doubleMarkPercent: 0, thirdMarkThreshold: 2, reevaluationDays: 7, answerSheet: true, ...settings }),
    JSON.stringify([
      { grade: 'A', minPercent: 75 },
      { grade: 'B', minPercent: 50 },
    ]),
    JSON.stringify({ passPercent: 40 }),
  ]);
  return {
    ...world,
    paperId: paper.paperId,
    seasonId: season.seasonId,
    seasonPaperId: (scheduled.json() as { record: { seasonPaperId: number } }).record.seasonPaperId,
    evaluatorA,
    evaluatorB,
    mcqVersions,
    essayVersion,
  };
}

export interface SatPaper {
  candidate: TestUser;
  deliveryId: number;
  /** Question number of each item version in the candidate's set. */
  numberOf: Map<number, number>;
}

/**
 * A candidate registered and admitted, who sits the paper at SITTING (the clock must be at
 * the start time) and submits `answers` by item version: 'A' is each choice item's key.
 */
export async function sitPaper(app: FastifyInstance, world: ResultsWorld, answers: Map<number, unknown>, firstName = 'Asha'): Promise<SatPaper> {
  const candidate = await createSignedInUser(app, { roles: ['Candidate'], firstName, lastName: 'Candidate' });
  const created = await call(app, candidate, 'POST', '/api/v1/registration', {
    body: { seasonId: world.seasonId, examId: world.examId, seasonPaperIds: [world.seasonPaperId], medium: 'en', preferredCity: 'Ahmedabad' },
  });
  if (created.statusCode !== 201) throw new Error(`register ${created.statusCode}: ${created.body}`);
  const registrationId = (created.json() as { registrationId: number }).registrationId;
  for (const [url, body] of [
    [`/api/v1/registration/${registrationId}/status`, { event: 'registration.approve' }],
    [`/api/v1/registration/${registrationId}/allocate`, {}],
    [`/api/v1/registration/${registrationId}/status`, { event: 'registration.issueAdmitCard' }],
  ] as const) {
    const res = await projectCall(app, world, world.manager, 'POST', url, body);
    if (res.statusCode !== 200) throw new Error(`${url} ${res.statusCode}: ${res.body}`);
  }
  const opened = await call(app, candidate, 'POST', '/api/v1/delivery/mine', { body: { registrationId, seasonPaperId: world.seasonPaperId } });
  if (opened.statusCode >= 300) throw new Error(`open ${opened.statusCode}: ${opened.body}`);
  const delivery = opened.json() as { deliveryId: number; sections: Array<{ items: Array<{ number: number; versionId: string }> }> };
  const numberOf = new Map(delivery.sections.flatMap((s) => s.items.map((i) => [Number(i.versionId), i.number] as [number, number])));
  const id = delivery.deliveryId;
  const started = await call(app, candidate, 'POST', `/api/v1/delivery/mine/${id}/start`, { body: { declaration: true } });
  if (started.statusCode !== 200) throw new Error(`start ${started.statusCode}: ${started.body}`);
  const saves = [...answers].map(([versionId, response]) => ({
    saveId: randomUUID(),
    itemNumber: numberOf.get(versionId)!,
    sequence: 1,
    response,
    marked: false,
  }));
  if (saves.length) {
    const saved = await call(app, candidate, 'PUT', `/api/v1/delivery/mine/${id}/answers`, { body: { saves } });
    if (saved.statusCode !== 200) throw new Error(`save ${saved.statusCode}: ${saved.body}`);
  }
  const submitted = await call(app, candidate, 'POST', `/api/v1/delivery/mine/${id}/submit`);
  if (submitted.statusCode !== 200) throw new Error(`submit ${submitted.statusCode}: ${submitted.body}`);
  return { candidate, deliveryId: id, numberOf };
}

export async function resultOf(db: Db, deliveryId: number) {
  const { rows } = await db.query<{ id: number; status: string; total: number; percent: number; grade: string | null; passed: boolean; scriptId: string }>(
    `select id::int as id, status, total::float8 as total, percent::float8 as percent, grade, passed, script_id as "scriptId" from results where delivery_id = $1`,
    [deliveryId],
  );
  return rows[0];
}

export function examCall(app: FastifyInstance, world: ResultsWorld, user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  return call(app, user, method, url, { project: world.projectId, body });
}

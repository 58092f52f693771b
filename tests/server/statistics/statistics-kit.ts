import type { FastifyInstance } from 'fastify';
import type { ItemContent } from '#machines/items/item-schema.ts';
import type { Db } from '#server/db/client.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { activateProject, grant, staffUser } from '../exams/workspace-kit.ts';
import { admittedCandidate, openDelivery, SITTING, type DeliveryWorld } from '../delivery/delivery-kit.ts';
import { addSection, createPaper, insertItem, mcq, paperCall, paperWorld, sendPaperEvent } from '../papers/papers-kit.ts';
import { createCenter, createSeason, projectCall, type SeasonWorld } from '../seasons/seasons-kit.ts';

/**
 * A small sat exam for the statistics and export tests: one locked paper of four 1-mark single
 * choice items (key A, no negative marking) with one set, scheduled in a season with a center,
 * and candidates whose answers are written straight into delivery_answers.
 */
export interface StatsWorld extends DeliveryWorld {
  versionIds: number[];
}

const day = 24 * 60 * 60 * 1000;
const oneMark = (n: number): ItemContent => ({ ...mcq(n), marking: { correct: 1, wrong: 0, unanswered: 0 } }) as ItemContent;

export async function statsWorld(app: FastifyInstance, db: Db): Promise<StatsWorld> {
  const world = await paperWorld(app);
  await activateProject(app, world.manager, world.projectId);
  const centerManager = await staffUser(app, { firstName: 'Centre', lastName: 'Manager' });
  await grant(app, world.manager, world.projectId, centerManager, 'CenterManager');
  const invigilator = await staffUser(app, { firstName: 'Hall', lastName: 'Invigilator' });
  await grant(app, world.manager, world.projectId, invigilator, 'Invigilator', world.examId);
  const items = [];
  for (let n = 1; n <= 4; n += 1) items.push(await insertItem(db, world, { categoryId: world.categories.algebra, difficulty: 'easy', content: oneMark(n) }));
  const paper = await createPaper(app, world, { totalMarks: 4 });
  await addSection(app, world, paper.paperId, { title: 'A', marksPerItem: 1, rule: { kind: 'fixed', items: items.map((i) => i.versionId) } });
  for (const [user, event] of [
    [world.setter, 'paper.submit'],
    [world.moderator, 'paper.lock'],
  ] as const) {
    const res = await sendPaperEvent(app, world, user, paper.paperId, event);
    if (res.statusCode !== 200) throw new Error(`${event} ${res.statusCode}: ${res.body}`);
  }
  const sets = await paperCall(app, world, world.moderator, 'POST', `/api/v1/paper/${paper.paperId}/sets`, { count: 1 });
  if (sets.statusCode >= 300) throw new Error(`sets ${sets.statusCode}: ${sets.body}`);
  const centers = [(await createCenter(app, world.manager)).centerId];
  const seasonWorld: SeasonWorld = { ...world, centerManager, lockedPaperId: paper.paperId, draftPaperId: 0, centers };
  const season = await createSeason(app, seasonWorld, {
    registrationOpensAt: new Date(Date.now() - day).toISOString(),
    registrationClosesAt: new Date(Date.now() + 30 * day).toISOString(),
  });
  const scheduled = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/paper`, {
    paperId: paper.paperId,
    sitsOn: SITTING.sitsOn,
    startsAt: SITTING.startsAt,
    durationMinutes: SITTING.durationMinutes,
    mode: 'online',
  });
  if (scheduled.statusCode !== 201) throw new Error(`schedule ${scheduled.statusCode}: ${scheduled.body}`);
  const seat = await projectCall(app, world, world.manager, 'PUT', `/api/v1/season/${season.seasonId}/center`, { centerId: centers[0], seats: 90 });
  if (seat.statusCode !== 200) throw new Error(`center ${seat.statusCode}: ${seat.body}`);
  const opened = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/status`, { event: 'season.openRegistration' });
  if (opened.statusCode !== 200) throw new Error(`open ${opened.statusCode}: ${opened.body}`);
  const seasonPaperId = (scheduled.json() as { record: { seasonPaperId: number } }).record.seasonPaperId;
  return { ...seasonWorld, invigilator, seasonId: season.seasonId, seasonPaperId, versionIds: items.map((i) => i.versionId) };
}

/**
 * A candidate who sat the paper: `answers[k]` is the option chosen for the k-th item of the
 * world (by item, not by question number: the set's order is looked up), undefined for none.
 * `status` Submitted by default; Active leaves the delivery unfinished.
 */
export async function satCandidate(
  app: FastifyInstance,
  db: Db,
  world: StatsWorld,
  answers: Array<string | undefined>,
  status: 'Submitted' | 'TimeUp' | 'Waiting' = 'Submitted',
): Promise<{ candidate: TestUser; deliveryId: number }> {
  const { candidate, registrationId } = await admittedCandidate(app, world);
  const delivery = await openDelivery(app, world, candidate, registrationId);
  const numberOf = new Map(delivery.sections.flatMap((s) => s.items).map((i) => [Number(i.versionId), i.number]));
  for (const [k, option] of answers.entries()) {
    if (option === undefined) continue;
    await db.query(
      `insert into delivery_answers (delivery_id, item_number, sequence, save_id, response, saved_at) values ($1, $2, 1, gen_random_uuid(), $3, now())`,
      [delivery.deliveryId, numberOf.get(world.versionIds[k]), JSON.stringify(option)],
    );
  }
  if (status !== 'Waiting') {
    await db.query(`update deliveries set status = $2, started_at = now(), ended_at = now() where id = $1`, [delivery.deliveryId, status]);
  }
  return { candidate, deliveryId: delivery.deliveryId };
}

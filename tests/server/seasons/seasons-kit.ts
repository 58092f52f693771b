import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { activateProject, call, grant, staffUser, uniqueCode } from '../exams/workspace-kit.ts';
import { cleanPaper, paperCall, paperWorld, sendPaperEvent, type PaperWorld } from '../papers/papers-kit.ts';

/** A project (Active) with an exam, a locked paper with sets A–C, a draft paper, a center manager and two centers. */
export interface SeasonWorld extends PaperWorld {
  centerManager: TestUser;
  lockedPaperId: number;
  draftPaperId: number;
  centers: number[];
}

export async function createCenter(app: FastifyInstance, user: TestUser, body: Record<string, unknown> = {}) {
  const res = await call(app, user, 'POST', '/api/v1/examcenter', {
    body: { code: uniqueCode('C'), name: 'Navrangpura Public School', city: 'Ahmedabad', state: 'Gujarat', capacity: 200, cbtCapable: true, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create center ${res.statusCode}: ${res.body}`);
  return res.json() as { centerId: number; code: string; version: number; capacity: number };
}

export async function seasonWorld(app: FastifyInstance, db: Db): Promise<SeasonWorld> {
  const world = await paperWorld(app);
  await activateProject(app, world.manager, world.projectId);
  const centerManager = await staffUser(app, { firstName: 'Centre', lastName: 'Manager' });
  await grant(app, world.manager, world.projectId, centerManager, 'CenterManager');
  const { paper } = await cleanPaper(app, db, world);
  for (const [user, event] of [
    [world.setter, 'paper.submit'],
    [world.moderator, 'paper.lock'],
  ] as const) {
    const res = await sendPaperEvent(app, world, user, paper.paperId, event);
    if (res.statusCode !== 200) throw new Error(`${event} ${res.statusCode}: ${res.body}`);
  }
  const sets = await paperCall(app, world, world.moderator, 'POST', `/api/v1/paper/${paper.paperId}/sets`, { count: 3 });
  if (sets.statusCode >= 300) throw new Error(`sets ${sets.statusCode}: ${sets.body}`);
  const draft = await paperCall(app, world, world.setter, 'POST', '/api/v1/paper', {
    code: uniqueCode('PAP'),
    title: 'Paper II',
    durationMinutes: 120,
    totalMarks: 80,
  });
  const centers = [(await createCenter(app, world.manager)).centerId, (await createCenter(app, world.manager, { city: 'Surat', capacity: 100 })).centerId];
  return { ...world, centerManager, lockedPaperId: paper.paperId, draftPaperId: (draft.json() as { paperId: number }).paperId, centers };
}

export function projectCall(
  app: FastifyInstance,
  world: Pick<SeasonWorld, 'projectId'>,
  user: TestUser,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  return call(app, user, method, url, { project: world.projectId, body });
}

export const seasonBody = (over: Record<string, unknown> = {}) => ({
  code: uniqueCode('S'),
  name: 'March 2027',
  startsOn: '2027-03-01',
  endsOn: '2027-03-31',
  registrationOpensAt: '2026-11-01T00:00:00.000Z',
  registrationClosesAt: '2027-02-15T18:30:00.000Z',
  ...over,
});

export interface SeasonAnswer {
  seasonId: number;
  status: string;
  version: number;
  actions: string[];
  canConfigure: boolean;
  paperCount: number;
  seats: number;
}

export async function createSeason(app: FastifyInstance, world: SeasonWorld, over: Record<string, unknown> = {}) {
  const res = await projectCall(app, world, world.manager, 'POST', '/api/v1/season', seasonBody(over));
  if (res.statusCode !== 201) throw new Error(`create season ${res.statusCode}: ${res.body}`);
  return res.json() as SeasonAnswer;
}

/** A season with the locked paper scheduled and both centers given seats: ready to open registration. */
export async function readySeason(app: FastifyInstance, world: SeasonWorld, seats = [100, 50]) {
  const season = await createSeason(app, world);
  const scheduled = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/paper`, {
    paperId: world.lockedPaperId,
    sitsOn: '2027-03-10',
    startsAt: '10:00',
  });
  if (scheduled.statusCode !== 201) throw new Error(`schedule ${scheduled.statusCode}: ${scheduled.body}`);
  for (const [i, centerId] of world.centers.entries()) {
    const res = await projectCall(app, world, world.manager, 'PUT', `/api/v1/season/${season.seasonId}/center`, { centerId, seats: seats[i] });
    if (res.statusCode !== 200) throw new Error(`center ${res.statusCode}: ${res.body}`);
  }
  return season;
}

const day = 24 * 60 * 60 * 1000;
/** A season whose registration window is open now, with the locked paper scheduled and both centers given seats, in RegistrationOpen. */
export async function openSeason(app: FastifyInstance, world: SeasonWorld, seats = [100, 50], over: Record<string, unknown> = {}) {
  const season = await createSeason(app, world, {
    registrationOpensAt: new Date(Date.now() - day).toISOString(),
    registrationClosesAt: new Date(Date.now() + 30 * day).toISOString(),
    ...over,
  });
  const scheduled = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/paper`, {
    paperId: world.lockedPaperId,
    sitsOn: '2027-03-10',
    startsAt: '10:00',
    mode: 'offline',
  });
  if (scheduled.statusCode !== 201) throw new Error(`schedule ${scheduled.statusCode}: ${scheduled.body}`);
  for (const [i, centerId] of world.centers.entries()) {
    if (!seats[i]) continue;
    const res = await projectCall(app, world, world.manager, 'PUT', `/api/v1/season/${season.seasonId}/center`, { centerId, seats: seats[i] });
    if (res.statusCode !== 200) throw new Error(`center ${res.statusCode}: ${res.body}`);
  }
  const opened = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/status`, { event: 'season.openRegistration' });
  if (opened.statusCode !== 200) throw new Error(`open ${opened.statusCode}: ${opened.body}`);
  const seasonPaperId = (scheduled.json() as { record: { seasonPaperId: number } }).record.seasonPaperId;
  return { seasonId: season.seasonId, seasonPaperId, code: (season as unknown as { code: string }).code };
}

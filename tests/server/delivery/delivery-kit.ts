import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { createSignedInUser, type TestUser, type UserOptions } from '#tests/setup/test-users.ts';
import { call, grant, staffUser } from '../exams/workspace-kit.ts';
import { createSeason, projectCall, seasonWorld, type SeasonWorld } from '../seasons/seasons-kit.ts';

/** The model's sitting (machines/delivery.model.ts): 2027-03-10 10:00 at the centers (04:30 UTC), 60 minutes. */
export const SITTING = { sitsOn: '2027-03-10', startsAt: '10:00', startsAtIso: '2027-03-10T04:30:00.000Z', durationMinutes: 60 };

export interface DeliveryWorld extends SeasonWorld {
  invigilator: TestUser;
  seasonId: number;
  seasonPaperId: number;
}

const day = 24 * 60 * 60 * 1000;

/** A season with the locked paper scheduled online (or on paper) at SITTING, registration open, and an invigilator of the exam. */
export async function deliveryWorld(app: FastifyInstance, db: Db, mode: 'online' | 'offline' = 'online'): Promise<DeliveryWorld> {
  const world = await seasonWorld(app, db);
  const invigilator = await staffUser(app, { firstName: 'Hall', lastName: 'Invigilator' });
  await grant(app, world.manager, world.projectId, invigilator, 'Invigilator', world.examId);
  const sitting = await sittingSeason(app, world, { ...SITTING, mode });
  return { ...world, invigilator, ...sitting };
}

export interface Sitting {
  sitsOn: string;
  /** HH:MM at the centers. */
  startsAt: string;
  durationMinutes: number;
  mode?: 'online' | 'offline';
  /** The season's name (what the console's Season list shows). */
  name?: string;
}

/**
 * A season of its own (a paper sits once per season) running from the sitting's day for 40
 * days, with the locked paper scheduled at `sitting`, seats at every center and registration open.
 */
export async function sittingSeason(app: FastifyInstance, world: SeasonWorld, sitting: Sitting): Promise<{ seasonId: number; seasonPaperId: number }> {
  const season = await createSeason(app, world, {
    ...(sitting.sitsOn === SITTING.sitsOn
      ? {}
      : { startsOn: sitting.sitsOn, endsOn: new Date(Date.parse(sitting.sitsOn) + 40 * day).toISOString().slice(0, 10) }),
    ...(sitting.name ? { name: sitting.name } : {}),
    registrationOpensAt: new Date(Date.now() - day).toISOString(),
    registrationClosesAt: new Date(Date.now() + 30 * day).toISOString(),
  });
  const scheduled = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/paper`, {
    paperId: world.lockedPaperId,
    sitsOn: sitting.sitsOn,
    startsAt: sitting.startsAt,
    durationMinutes: sitting.durationMinutes,
    mode: sitting.mode ?? 'online',
  });
  if (scheduled.statusCode !== 201) throw new Error(`schedule ${scheduled.statusCode}: ${scheduled.body}`);
  for (const centerId of world.centers) {
    const res = await projectCall(app, world, world.manager, 'PUT', `/api/v1/season/${season.seasonId}/center`, { centerId, seats: 90 });
    if (res.statusCode !== 200) throw new Error(`center ${res.statusCode}: ${res.body}`);
  }
  const opened = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${season.seasonId}/status`, { event: 'season.openRegistration' });
  if (opened.statusCode !== 200) throw new Error(`open ${opened.statusCode}: ${opened.body}`);
  const seasonPaperId = (scheduled.json() as { record: { seasonPaperId: number } }).record.seasonPaperId;
  return { seasonId: season.seasonId, seasonPaperId };
}

/** A candidate registered, approved, allocated and with an admit card: ready to sit. */
export async function admittedCandidate(
  app: FastifyInstance,
  world: DeliveryWorld,
  accommodations?: { extraTimePercent: number },
  user: Pick<UserOptions, 'firstName' | 'lastName'> = {},
) {
  const candidate = await createSignedInUser(app, { roles: ['Candidate'], ...user });
  const created = await call(app, candidate, 'POST', '/api/v1/registration', {
    body: {
      seasonId: world.seasonId,
      examId: world.examId,
      seasonPaperIds: [world.seasonPaperId],
      medium: 'en',
      preferredCity: 'Ahmedabad',
      ...(accommodations ? { accommodations } : {}),
    },
  });
  if (created.statusCode !== 201) throw new Error(`register ${created.statusCode}: ${created.body}`);
  const registrationId = (created.json() as { registrationId: number }).registrationId;
  const steps: Array<[string, Record<string, unknown>]> = [
    ...(accommodations
      ? ([[`/api/v1/registration/${registrationId}/accommodations`, { decision: 'approved' }]] as Array<[string, Record<string, unknown>]>)
      : []),
    [`/api/v1/registration/${registrationId}/status`, { event: 'registration.approve' }],
    [`/api/v1/registration/${registrationId}/allocate`, {}],
    [`/api/v1/registration/${registrationId}/status`, { event: 'registration.issueAdmitCard' }],
  ];
  for (const [url, body] of steps) {
    const res = await projectCall(app, world, world.manager, 'POST', url, body);
    if (res.statusCode !== 200) throw new Error(`${url} ${res.statusCode}: ${res.body}`);
  }
  return { candidate, registrationId };
}

export interface DeliveryAnswer {
  deliveryId: number;
  setLetter: string;
  timing: { status: string; remainingMs: number; deadline: string | null; serverNow: string; admitted: boolean };
  sections: Array<{
    sectionId: string;
    items: Array<{ number: number; versionId: string; kind: string; options: string[] | null; content: Record<string, unknown> }>;
  }>;
  answers: Array<{ itemNumber: number; sequence: number; response: unknown; marked: boolean }>;
  actions: string[];
}

export async function openDelivery(app: FastifyInstance, world: DeliveryWorld, candidate: TestUser, registrationId: number) {
  const res = await call(app, candidate, 'POST', '/api/v1/delivery/mine', { body: { registrationId, seasonPaperId: world.seasonPaperId } });
  if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(`open ${res.statusCode}: ${res.body}`);
  return res.json() as DeliveryAnswer;
}

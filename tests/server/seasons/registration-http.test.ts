import { afterAll, beforeAll, expect, it } from 'vitest';
import { registrationMachine, type RegistrationEvent } from '#machines/exams/registration.machine.ts';
import { registrationModelEvents, registrationTestPaths } from '#machines/exams/registration.model.ts';
import { IndependentExpectation } from '#tests/fixtures/expectations/expectation-table.ts';
import { registrationExpectation, registrationStatusesTakingEvent } from '#tests/fixtures/expectations/registration.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { call, grant, staffUser } from '../exams/workspace-kit.ts';
import { openSeason, projectCall, seasonWorld, type SeasonWorld } from './seasons-kit.ts';

/**
 * The registration machine's model paths replayed over HTTP: each step is the request the
 * candidate, registrar, center manager or invigilator makes; the stored status must be what the
 * independent table (tests/fixtures/expectations/registration.ts) expects. At each step one event
 * the table refuses from that status is tried as well and must change nothing.
 */
describeEachDatabase('registration lifecycle over HTTP', (get) => {
  let world: SeasonWorld;
  let invigilator: TestUser;
  let season: Awaited<ReturnType<typeof openSeason>>;
  const recorder = replayRecorder(registrationMachine, 'http', true);
  beforeAll(async () => {
    world = await seasonWorld(get().app, get().db);
    invigilator = await staffUser(get().app, { firstName: 'Hall', lastName: 'Invigilator' });
    await grant(get().app, world.manager, world.projectId, invigilator, 'Invigilator', world.examId);
    season = await openSeason(get().app, world, [150, 100]);
  });
  afterAll(() => void recorder.write());

  async function status(id: number) {
    return (await projectCall(get().app, world, world.manager, 'GET', `/api/v1/registration/${id}`)).json() as {
      status: string;
      center: { centerId: number } | null;
    };
  }

  async function send(id: number, candidate: TestUser, event: RegistrationEvent) {
    const { app } = get();
    const actor = event.by.candidate ? candidate : event.by.invigilator ? invigilator : event.by.centerManager ? world.centerManager : world.manager;
    const reason = 'reason' in event ? event.reason : undefined;
    if (event.type === 'registration.cancel' && event.by.candidate)
      return call(app, candidate, 'POST', `/api/v1/registration/mine/${id}/cancel`, { body: { reason } });
    if (event.type === 'registration.allocate') return projectCall(app, world, actor, 'POST', `/api/v1/registration/${id}/allocate`, {});
    if (event.type === 'registration.move') {
      const current = (await status(id)).center?.centerId;
      return projectCall(app, world, actor, 'POST', `/api/v1/registration/${id}/move`, {
        centerId: current === world.centers[0] ? world.centers[1] : world.centers[0],
      });
    }
    return projectCall(app, world, actor, 'POST', `/api/v1/registration/${id}/status`, { event: event.type, ...(reason ? { reason } : {}) });
  }

  const paths = registrationTestPaths();
  it.each(paths.map((path) => [path.description, path] as const))('should walk %s with the stored status as the table expects', (_d, path) =>
    recorder.run(path, async () => {
      const candidate = await createSignedInUser(get().app, { roles: ['Candidate'] });
      const created = await call(get().app, candidate, 'POST', '/api/v1/registration', {
        body: { seasonId: season.seasonId, examId: world.examId, seasonPaperIds: [season.seasonPaperId], medium: 'en', preferredCity: 'Ahmedabad' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = (created.json() as { registrationId: number }).registrationId;
      const table = new IndependentExpectation(registrationExpectation, {});
      for (const step of path.steps) {
        if (step.event.type === 'xstate.init') continue;
        const event = step.event as RegistrationEvent;
        const before = table.state;
        const res = await send(id, candidate, event);
        const expected = table.next(event);
        expect(res.statusCode, `${event.type} from ${before}: ${res.body}`).toBe(200);
        expect((await status(id)).status, `${event.type} from ${before}`).toBe(expected);

        const refused = (Object.keys(registrationStatusesTakingEvent) as RegistrationEvent['type'][]).find(
          (type) => !registrationStatusesTakingEvent[type].includes(expected),
        );
        if (refused) {
          const answer = await send(
            id,
            candidate,
            registrationModelEvents.find((e) => e.type === refused)!,
          );
          expect(answer.statusCode, `${refused} from ${expected}: ${answer.body}`).toBe(409);
          expect((await status(id)).status).toBe(expected);
        }
      }
    }),
  );
});

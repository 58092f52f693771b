import { afterAll, beforeAll, expect, it } from 'vitest';
import { seasonMachine, type SeasonEvent } from '#machines/exams/season.machine.ts';
import { seasonModelEvents, seasonTestPaths } from '#machines/exams/season.model.ts';
import { IndependentExpectation } from '#tests/fixtures/expectations/expectation-table.ts';
import { seasonExpectation, seasonStatusesTakingEvent } from '#tests/fixtures/expectations/season.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { grant, staffUser } from '../exams/workspace-kit.ts';
import { projectCall, readySeason, seasonWorld, type SeasonWorld } from './seasons-kit.ts';

/**
 * The season machine's model paths replayed over HTTP: each step is the request a person makes,
 * and the stored status must be what the independent table (tests/fixtures/expectations/season.ts)
 * expects. At each step one event the table refuses from that status is tried too and must
 * change nothing.
 */
describeEachDatabase('season lifecycle over HTTP', (get) => {
  let world: SeasonWorld;
  let projectAdmin: TestUser;
  const recorder = replayRecorder(seasonMachine, 'http', true);
  beforeAll(async () => {
    world = await seasonWorld(get().app, get().db);
    projectAdmin = await staffUser(get().app, { firstName: 'Season', lastName: 'Admin' });
    await grant(get().app, world.manager, world.projectId, projectAdmin, 'ProjectAdmin');
  });
  afterAll(() => void recorder.write());

  const userFor = (event: SeasonEvent): TestUser => (event.by.projectAdmin ? projectAdmin : event.by.centerManager ? world.centerManager : world.manager);

  async function status(id: number) {
    return ((await projectCall(get().app, world, world.manager, 'GET', `/api/v1/season/${id}`)).json() as { status: string }).status;
  }

  function send(id: number, event: SeasonEvent) {
    const user = userFor(event);
    if (event.type === 'season.configure') {
      return projectCall(get().app, world, user, 'PUT', `/api/v1/season/${id}/center`, {
        centerId: world.centers[1],
        seats: 40 + Math.floor(Math.random() * 10),
      });
    }
    return projectCall(get().app, world, user, 'POST', `/api/v1/season/${id}/status`, {
      event: event.type,
      ...('reason' in event ? { reason: event.reason } : {}),
    });
  }

  const paths = seasonTestPaths();
  it.each(paths.map((path) => [path.description, path] as const))('should walk %s with the stored status as the table expects', (_d, path) =>
    recorder.run(path, async () => {
      const season = await readySeason(get().app, world);
      const id = season.seasonId;
      const table = new IndependentExpectation(seasonExpectation, {});
      for (const step of path.steps) {
        if (step.event.type === 'xstate.init') continue;
        const event = step.event as SeasonEvent;
        const before = table.state;
        const res = await send(id, event);
        const expected = table.next(event);
        expect(res.statusCode, `${event.type} from ${before}: ${res.body}`).toBe(200);
        expect(await status(id), `${event.type} from ${before}`).toBe(expected);

        const refused = (Object.keys(seasonStatusesTakingEvent) as SeasonEvent['type'][]).find((type) => !seasonStatusesTakingEvent[type].includes(expected));
        if (refused) {
          const answer = await send(
            id,
            seasonModelEvents.find((e) => e.type === refused)!,
          );
          expect(answer.statusCode, `${refused} from ${expected}: ${answer.body}`).toBe(409);
          expect(await status(id)).toBe(expected);
        }
      }
      const history = (await projectCall(get().app, world, world.manager, 'GET', `/api/v1/season/${id}/history`)).json() as Array<{ event: string }>;
      expect(history.map((h) => h.event)).toEqual([
        'season.create',
        ...path.steps.filter((s) => s.event.type !== 'xstate.init' && s.event.type !== 'season.configure').map((s) => s.event.type),
      ]);
    }),
  );
});

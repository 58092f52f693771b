import { afterAll, beforeAll, expect, it } from 'vitest';
import { paperFlowMachine, type PaperEvent } from '#machines/papers/paper-flow.machine.ts';
import { paperFlowTestPaths, paperModelEvents } from '#machines/papers/paper-flow.model.ts';
import { IndependentExpectation } from '#tests/fixtures/expectations/expectation-table.ts';
import { paperFlowExpectation, paperStatusesTakingEvent } from '#tests/fixtures/expectations/paper-flow.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { cleanPaper, paperCall, paperWorld, sendPaperEvent, type PaperAnswer, type PaperWorld } from './papers-kit.ts';

/**
 * The paper flow's model paths replayed over HTTP: every step is sent as the request a person
 * would make, and the stored status must be what the independent table
 * (tests/fixtures/expectations/paper-flow.ts) expects, never what the machine predicts. At every
 * step one event the table refuses from that status is tried as well and must change nothing.
 */
describeEachDatabase('paper flow over HTTP', (get) => {
  let world: PaperWorld;
  const recorder = replayRecorder(paperFlowMachine, 'http', true);
  beforeAll(async () => {
    world = await paperWorld(get().app);
  });
  afterAll(() => void recorder.write());

  const userFor = (event: PaperEvent): TestUser => (event.by.projectAdmin ? world.admin : event.by.moderator ? world.moderator : world.setter);

  async function paper(id: number) {
    return (await paperCall(get().app, world, world.setter, 'GET', `/api/v1/paper/${id}`)).json() as PaperAnswer;
  }

  /** The request a person makes for a model event. */
  async function send(id: number, event: PaperEvent) {
    const { app } = get();
    const user = userFor(event);
    if (event.type === 'paper.edit') {
      const { version } = await paper(id);
      return paperCall(app, world, user, 'PUT', `/api/v1/paper/${id}`, { title: `Edited ${version}`, version });
    }
    if (event.type === 'paper.generateSets') return paperCall(app, world, user, 'POST', `/api/v1/paper/${id}/sets`, { count: 4 });
    if (event.type === 'paper.publish' && (await paper(id)).setCount === 0) {
      // The model's publish carries sets: make them first, as a moderator would.
      await paperCall(app, world, world.moderator, 'POST', `/api/v1/paper/${id}/sets`, { count: 4 });
    }
    const reason = 'reason' in event ? event.reason : undefined;
    return sendPaperEvent(app, world, user, id, event.type, reason ? { reason } : {});
  }

  const paths = paperFlowTestPaths();
  it.each(paths.map((path) => [path.description, path] as const))('should walk %s with the stored status as the table expects', (_d, path) =>
    recorder.run(path, async () => {
      const { app, db } = get();
      const { paper: created } = await cleanPaper(app, db, world);
      const id = created.paperId;
      const table = new IndependentExpectation(paperFlowExpectation, { trail: [] });
      for (const step of path.steps) {
        if (step.event.type === 'xstate.init') continue;
        const event = step.event as PaperEvent;
        const before = table.state;
        const res = await send(id, event);
        const expected = table.next(event);
        expect(res.statusCode, `${event.type} from ${before}: ${res.body}`).toBeLessThan(300);
        const stored = await paper(id);
        expect(stored.status, `${event.type} from ${before}`).toBe(expected);

        // One event the table refuses here is refused over HTTP and changes nothing.
        const refused = (Object.keys(paperStatusesTakingEvent) as PaperEvent['type'][]).find(
          (type) => !paperStatusesTakingEvent[type].includes(expected) && type !== 'paper.edit',
        );
        if (refused) {
          const model = paperModelEvents.find((e) => e.type === refused)!;
          const answer =
            refused === 'paper.generateSets'
              ? await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${id}/sets`, { count: 1 })
              : await sendPaperEvent(app, world, userFor(model), id, refused, { reason: 'probe' });
          expect([400, 409], `${refused} from ${expected}: ${answer.body}`).toContain(answer.statusCode);
          expect((await paper(id)).status).toBe(expected);
        }
      }
      const history = (await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${id}/history`)).json() as Array<{ event: string }>;
      const statusSteps = path.steps.filter((s) => s.event.type !== 'xstate.init' && s.event.type !== 'paper.edit');
      expect(history.filter((h) => h.event !== 'paper.create' && h.event !== 'paper.generateSets').length).toBe(
        statusSteps.filter((s) => s.event.type !== 'paper.generateSets').length,
      );
    }),
  );
});

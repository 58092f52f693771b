import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deliveryMachine, type DeliveryEvent } from '#machines/delivery.machine.ts';
import { deliveryModelInput, deliveryTestPaths } from '#machines/delivery.model.ts';
import { manualClock } from '#server/lib/clock.ts';
import { expireDeliveries } from '#server/modules/delivery/delivery-module.ts';
import { deliveryExpectation, deliveryFacts, deliveryStatusesTakingEvent, timeLeft } from '#tests/fixtures/expectations/delivery.ts';
import { IndependentExpectation } from '#tests/fixtures/expectations/expectation-table.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { call } from '../exams/workspace-kit.ts';
import { projectCall } from '../seasons/seasons-kit.ts';
import { admittedCandidate, deliveryWorld, openDelivery, SITTING, type DeliveryAnswer, type DeliveryWorld } from './delivery-kit.ts';

/**
 * The delivery machine's model paths replayed over HTTP with the server on a fake clock: each
 * step moves the clock to the event's time and makes the request the candidate, the
 * invigilator or the expiry job makes. The stored status and the time left must be what the
 * independent table (tests/fixtures/expectations/delivery.ts) computes. At each step one event
 * the table refuses from that status is tried too, and must answer 409 and change nothing.
 */
const clock = manualClock(new Date(SITTING.startsAtIso));

describeEachDatabase(
  'delivery lifecycle over HTTP',
  (get) => {
    let world: DeliveryWorld;
    const recorder = replayRecorder(deliveryMachine, 'http', true);
    beforeAll(async () => {
      expect(SITTING.startsAtIso).toBe(deliveryModelInput.startsAt);
      expect(SITTING.durationMinutes * 60_000).toBe(deliveryModelInput.allowedMs);
      world = await deliveryWorld(get().app, get().db);
    });
    afterAll(() => void recorder.write());

    async function send(id: number, candidate: TestUser, event: DeliveryEvent) {
      const { app, db } = get();
      const mine = (method: 'POST' | 'PUT', url: string, body?: unknown) => call(app, candidate, method, `/api/v1/delivery/mine/${id}${url}`, { body });
      switch (event.type) {
        case 'delivery.start':
          return mine('POST', '/start', { declaration: true });
        case 'delivery.save':
          return mine('PUT', '/answers', {
            saves: [{ saveId: randomUUID(), itemNumber: 1, sequence: Date.parse(event.at) / 1000, response: 'a', marked: false }],
          });
        case 'delivery.submit':
          return mine('POST', '/submit');
        case 'delivery.timeUp':
          await expireDeliveries(db, clock);
          return { statusCode: 200, body: '' };
        default:
          return projectCall(app, world, world.invigilator, 'POST', `/api/v1/delivery/${id}/event`, {
            event: event.type,
            ...('minutes' in event ? { minutes: event.minutes } : {}),
            ...('reason' in event && event.reason ? { reason: event.reason } : {}),
          });
      }
    }

    const sample: Record<string, DeliveryEvent> = {
      'delivery.admit': { type: 'delivery.admit', by: { invigilator: true }, at: '' },
      'delivery.start': { type: 'delivery.start', by: { candidate: true }, at: '' },
      'delivery.save': { type: 'delivery.save', by: { candidate: true }, at: '' },
      'delivery.pause': { type: 'delivery.pause', by: { invigilator: true }, at: '' },
      'delivery.resume': { type: 'delivery.resume', by: { invigilator: true }, at: '' },
      'delivery.extend': { type: 'delivery.extend', by: { invigilator: true }, minutes: 5, reason: 'Late start', at: '' },
      'delivery.submit': { type: 'delivery.submit', by: { candidate: true }, at: '' },
      'delivery.terminate': { type: 'delivery.terminate', by: { invigilator: true }, reason: 'Malpractice', at: '' },
    };

    const paths = deliveryTestPaths();
    it.each(paths.map((path) => [path.description, path] as const))('should walk %s with the status and time left the table expects', (_d, path) =>
      recorder.run(path, async () => {
        const { app } = get();
        clock.set(new Date(Date.parse(deliveryModelInput.startsAt) - 30 * 60_000));
        const { candidate, registrationId } = await admittedCandidate(app, world);
        const id = (await openDelivery(app, world, candidate, registrationId)).deliveryId;
        const facts = deliveryFacts(SITTING.startsAtIso, SITTING.durationMinutes);
        const table = new IndependentExpectation(deliveryExpectation, facts);
        const read = async () => ((await call(app, candidate, 'GET', `/api/v1/delivery/mine/${id}`)).json() as DeliveryAnswer).timing;
        for (const step of path.steps) {
          if (step.event.type === 'xstate.init') continue;
          const event = step.event as DeliveryEvent;
          const before = table.state;
          clock.set(new Date(event.at));
          const res = await send(id, candidate, event);
          const expected = table.next(event);
          expect(res.statusCode, `${event.type} from ${before}: ${res.body}`).toBe(200);
          const timing = await read();
          expect(timing.status, `${event.type} from ${before}`).toBe(expected);
          if (['Waiting', 'Active', 'Paused'].includes(expected)) {
            const left = timeLeft(facts, Date.parse(event.at));
            expect(timing.remainingMs, `time left after ${event.type}`).toBe(left);
            expect(timing.deadline).toBe(expected === 'Active' ? new Date(Date.parse(event.at) + left).toISOString() : null);
          }

          const refused = Object.keys(deliveryStatusesTakingEvent).find((type) => !deliveryStatusesTakingEvent[type].includes(expected));
          if (refused) {
            const answer = await send(id, candidate, { ...sample[refused], at: event.at });
            expect(answer.statusCode, `${refused} from ${expected}: ${answer.body}`).toBe(409);
            expect((await read()).status).toBe(expected);
          }
        }
      }),
    );
  },
  { deliveryClock: clock },
);

import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it, vi } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { deliveryTasks } from '#server/modules/delivery/delivery-module.ts';
import { roomPushFor } from '#server/modules/delivery/room-push.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { call, staffUser } from '../exams/workspace-kit.ts';
import { projectCall } from '../seasons/seasons-kit.ts';
import { admittedCandidate, deliveryWorld, openDelivery, SITTING, type DeliveryWorld } from './delivery-kit.ts';

const MIN = 60_000;
const clock = manualClock(new Date('2027-03-10T04:00:00.000Z'));
const at = (minutesAfterStart: number) => new Date(Date.parse(SITTING.startsAtIso) + minutesAfterStart * MIN).toISOString();

interface RoomFrame {
  kind: string;
  cursor: number;
  data: { seasonPaperId: number; centerId: number | null; deliveryId: number; cause: string };
}

describeEachDatabase(
  'the invigilator console over the hub (docs/decisions/0248)',
  (get) => {
    let world: DeliveryWorld;
    beforeAll(async () => {
      world = await deliveryWorld(get().app, get().db);
    });

    const roomPushes = async (user: TestUser, after = 0) => {
      const res = await call(get().app, user, 'GET', `/api/hubs/notifications/missed?after=${after}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { events: RoomFrame[] }).events.filter((e) => e.kind === 'delivery.room');
    };

    it('should push every change of a room to the exam’s invigilators and to no one else', async () => {
      clock.set(new Date(at(-30)));
      const { candidate, registrationId } = await admittedCandidate(get().app, world);
      const delivery = await openDelivery(get().app, world, candidate, registrationId);
      const id = delivery.deliveryId;
      const push = roomPushFor(get().db);
      await push.settled();
      const opened = await roomPushes(world.invigilator);
      expect(opened.at(-1)?.data).toMatchObject({ seasonPaperId: world.seasonPaperId, deliveryId: id, cause: 'delivery.open' });
      const centerId = opened.at(-1)!.data.centerId;
      expect(world.centers).toContain(centerId);

      clock.set(new Date(at(0)));
      const start = await call(get().app, candidate, 'POST', `/api/v1/delivery/mine/${id}/start`, { body: { declaration: true } });
      expect(start.statusCode, start.body).toBe(200);
      const save = await call(get().app, candidate, 'PUT', `/api/v1/delivery/mine/${id}/answers`, {
        body: { saves: [{ saveId: randomUUID(), itemNumber: 1, sequence: 1, response: null, marked: true }] },
      });
      expect(save.statusCode, save.body).toBe(200);
      const beat = await call(get().app, candidate, 'POST', `/api/v1/delivery/mine/${id}/telemetry`, { body: { events: [{ kind: 'focusLost' }] } });
      expect(beat.statusCode, beat.body).toBe(200);
      // Changes within the window are coalesced: the last of them arrives as one trailing push.
      const cursor = opened.at(-1)!.cursor;
      await vi.waitFor(
        async () => {
          await push.settled();
          expect((await roomPushes(world.invigilator, cursor)).map((e) => e.data.cause)).toContain('telemetry.focusLost');
        },
        { timeout: 5_000, interval: 100 },
      );

      const paused = await projectCall(get().app, world, world.invigilator, 'POST', `/api/v1/delivery/${id}/event`, {
        event: 'delivery.pause',
        reason: 'Noise',
      });
      expect(paused.statusCode, paused.body).toBe(200);
      await vi.waitFor(
        async () => {
          await push.settled();
          expect((await roomPushes(world.invigilator, cursor)).map((e) => e.data.cause)).toContain('delivery.pause');
        },
        { timeout: 5_000, interval: 100 },
      );

      // The candidate, staff of no grant, and a manager's other users see none of it.
      const stranger = await staffUser(get().app, { firstName: 'Not', lastName: 'Invigilating' });
      expect(await roomPushes(stranger)).toEqual([]);
      expect(await roomPushes(candidate)).toEqual([]);
    });

    it('should push the expiry job’s time up to the room', async () => {
      clock.set(new Date(at(-30)));
      const { candidate, registrationId } = await admittedCandidate(get().app, world);
      const delivery = await openDelivery(get().app, world, candidate, registrationId);
      clock.set(new Date(at(0)));
      expect((await call(get().app, candidate, 'POST', `/api/v1/delivery/mine/${delivery.deliveryId}/start`, { body: { declaration: true } })).statusCode).toBe(
        200,
      );
      clock.set(new Date(at(61)));
      const [job] = deliveryTasks(get().db, clock);
      expect(await job.run()).toMatchObject({ expired: expect.any(Number) });
      await vi.waitFor(
        async () => {
          await roomPushFor(get().db).settled();
          const frames = await roomPushes(world.invigilator);
          expect(frames.some((e) => e.data.deliveryId === delivery.deliveryId && e.data.cause === 'delivery.timeUp')).toBe(true);
        },
        { timeout: 5_000, interval: 100 },
      );
    });
  },
  { deliveryClock: clock },
);

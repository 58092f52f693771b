import { beforeAll, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, staffUser } from '../exams/workspace-kit.ts';
import { projectCall } from '../seasons/seasons-kit.ts';
import { admittedCandidate, deliveryWorld, openDelivery, type DeliveryWorld } from './delivery-kit.ts';

const clock = manualClock(new Date('2027-03-10T04:00:00.000Z'));

interface Verdict {
  verdict: string;
  message: string;
  candidate: { name: string; rollNumber: string; seatNumber: number } | null;
  registrationId: number | null;
  delivery: { deliveryId: number; centerId: number; actions: string[] } | null;
}

describeEachDatabase(
  'the invigilator verifies an admit card in the console (docs/decisions/0249)',
  (get) => {
    let world: DeliveryWorld;
    beforeAll(async () => {
      world = await deliveryWorld(get().app, get().db);
    });

    const verify = (body: Record<string, unknown>, user = world.invigilator) => projectCall(get().app, world, user, 'POST', '/api/v1/delivery/verify', body);
    const tokenOf = async (candidate: Parameters<typeof call>[1], registrationId: number) => {
      const card = await call(get().app, candidate, 'GET', `/api/v1/registration/mine/${registrationId}/admitcard`);
      expect(card.statusCode, card.body).toBe(200);
      return (card.json() as { token: string }).token;
    };

    it('should answer valid for this paper and center with the delivery to admit, then admit early', async () => {
      clock.set(new Date('2027-03-10T04:00:00.000Z'));
      const { candidate, registrationId } = await admittedCandidate(get().app, world);
      const token = await tokenOf(candidate, registrationId);

      const before = await verify({ token, seasonPaperId: world.seasonPaperId });
      expect(before.statusCode, before.body).toBe(200);
      expect(before.json()).toMatchObject({ verdict: 'valid', registrationId, delivery: null, message: expect.stringMatching(/not opened the paper yet/) });

      const delivery = await openDelivery(get().app, world, candidate, registrationId);
      const first = (await verify({ token, seasonPaperId: world.seasonPaperId })).json() as Verdict;
      const centerId = first.delivery!.centerId;
      const ok = await verify({ token: `  ${token}\n`, seasonPaperId: world.seasonPaperId, centerId });
      const verdict = ok.json() as Verdict;
      expect(verdict).toMatchObject({ verdict: 'valid', registrationId, candidate: { seatNumber: expect.any(Number) } });
      expect(verdict.delivery).toMatchObject({ deliveryId: delivery.deliveryId, actions: expect.arrayContaining(['delivery.admit']) });

      const admitted = await projectCall(get().app, world, world.invigilator, 'POST', `/api/v1/delivery/${delivery.deliveryId}/event`, {
        event: 'delivery.admit',
      });
      expect(admitted.statusCode, admitted.body).toBe(200);
      const record = (await projectCall(get().app, world, world.invigilator, 'GET', `/api/v1/delivery/${delivery.deliveryId}`)).json() as {
        history: Array<{ event: string }>;
      };
      expect(record.history.map((h) => h.event)).toEqual(['delivery.open', 'admitCard.verified', 'admitCard.verified', 'delivery.admit']);

      const otherCenter = world.centers.find((c) => c !== centerId)!;
      const wrongCenter = (await verify({ token, seasonPaperId: world.seasonPaperId, centerId: otherCenter })).json() as Verdict;
      expect(wrongCenter).toMatchObject({ verdict: 'elsewhere', delivery: null, message: expect.stringMatching(/another center/) });
    });

    it('should answer forged for an altered code, refuse a stranger, and give clear 400s', async () => {
      const { candidate, registrationId } = await admittedCandidate(get().app, world);
      const token = await tokenOf(candidate, registrationId);
      const altered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      expect((await verify({ token: altered, seasonPaperId: world.seasonPaperId })).json()).toMatchObject({ verdict: 'forged', candidate: null });
      expect((await verify({ token: 'not a code', seasonPaperId: world.seasonPaperId })).json()).toMatchObject({ verdict: 'forged' });

      const stranger = await staffUser(get().app);
      const refused = await call(get().app, stranger, 'POST', '/api/v1/delivery/verify', {
        body: { token, seasonPaperId: world.seasonPaperId },
        headers: { ProjectId: String(world.projectId) },
      });
      expect(refused.statusCode).toBe(404);

      const empty = await verify({ token: '', seasonPaperId: world.seasonPaperId });
      expect(empty.statusCode).toBe(400);
      const unknownPaper = await verify({ token, seasonPaperId: 999_999 });
      expect(unknownPaper.statusCode).toBe(400);
      expect(JSON.stringify(unknownPaper.json())).toMatch(/seasonPaperId.*not scheduled/);
    });
  },
  { deliveryClock: clock },
);

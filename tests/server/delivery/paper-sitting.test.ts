import { beforeAll, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, staffUser } from '../exams/workspace-kit.ts';
import { projectCall } from '../seasons/seasons-kit.ts';
import { admittedCandidate, deliveryWorld, type DeliveryWorld } from './delivery-kit.ts';

const clock = manualClock(new Date('2027-03-10T08:00:00.000Z'));

interface Sheet {
  sets: Record<string, Array<{ number: number; maxMarks: number }>>;
  candidates: Array<{
    registrationId: number;
    attendance: string;
    setLetter: string;
    deliveryId: number | null;
    marks: Record<string, number>;
    total: number | null;
    resultStatus: string | null;
  }>;
}

describeEachDatabase(
  'paper sittings: attendance and marks entry per question (docs/decisions/0249)',
  (get) => {
    let world: DeliveryWorld;
    beforeAll(async () => {
      world = await deliveryWorld(get().app, get().db, 'offline');
    });
    const sheet = async () => {
      const res = await projectCall(get().app, world, world.invigilator, 'GET', `/api/v1/paper-sitting?seasonPaperId=${world.seasonPaperId}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Sheet;
    };
    const enter = (registrationId: number, marks: Array<{ itemNumber: number; marks: number }>) =>
      projectCall(get().app, world, world.invigilator, 'PUT', '/api/v1/paper-sitting/marks', { seasonPaperId: world.seasonPaperId, registrationId, marks });
    const attendance = (registrationId: number, event: 'registration.markAttended' | 'registration.markAbsent') =>
      projectCall(get().app, world, world.invigilator, 'POST', `/api/v1/registration/${registrationId}/status`, { event });

    it('should take marks only for a present candidate, score the result from them and keep every entry in the history', async () => {
      const { registrationId } = await admittedCandidate(get().app, world);
      const first = (await sheet()).candidates.find((c) => c.registrationId === registrationId)!;
      expect(first).toMatchObject({ attendance: 'AdmitCardIssued', deliveryId: null, marks: {}, total: null });
      const items = (await sheet()).sets[first.setLetter];
      expect(items.length).toBeGreaterThan(1);

      const early = await enter(registrationId, [{ itemNumber: 1, marks: 0 }]);
      expect(early.statusCode).toBe(409);
      expect(early.json().messages[0]).toMatch(/marked present/);
      expect((await attendance(registrationId, 'registration.markAttended')).statusCode).toBe(200);

      const [one, ...rest] = items;
      const partial = await enter(registrationId, [{ itemNumber: one.number, marks: one.maxMarks }]);
      expect(partial.statusCode, partial.body).toBe(200);
      expect(partial.json()).toMatchObject({ attendance: 'Attended', marks: { [one.number]: one.maxMarks }, total: one.maxMarks, resultStatus: 'Marking' });

      const all = await enter(
        registrationId,
        rest.map((i) => ({ itemNumber: i.number, marks: i.number % 2 ? 0 : i.maxMarks })),
      );
      expect(all.statusCode, all.body).toBe(200);
      const expected = one.maxMarks + rest.reduce((sum, i) => sum + (i.number % 2 ? 0 : i.maxMarks), 0);
      expect(all.json()).toMatchObject({ total: expected, resultStatus: 'Provisional' });

      // The same result the online scripts get: per item, counted in the totals.
      const deliveryId = (all.json() as { deliveryId: number }).deliveryId;
      const { rows: results } = await get().db.query<{ total: number; maxTotal: number; items: number }>(
        `select r.total::float8 as total, r.max_total::float8 as "maxTotal", (select count(*)::int from result_items i where i.result_id = r.id and i.marks is not null) as items
         from results r where r.delivery_id = $1`,
        [deliveryId],
      );
      expect(results[0]).toEqual({ total: expected, maxTotal: items.reduce((s, i) => s + i.maxMarks, 0), items: items.length });
      const { rows: marking } = await get().db.query(`select 1 from marking_tasks t join results r on r.id = t.result_id where r.delivery_id = $1`, [
        deliveryId,
      ]);
      expect(marking).toEqual([]);

      // A correction is an entry of its own; the same marks again change nothing.
      expect((await enter(registrationId, [{ itemNumber: one.number, marks: 0 }])).json()).toMatchObject({ total: expected - one.maxMarks });
      expect((await enter(registrationId, [{ itemNumber: one.number, marks: 0 }])).statusCode).toBe(200);
      const history = (await projectCall(get().app, world, world.invigilator, 'GET', `/api/v1/delivery/${deliveryId}`)).json() as {
        history: Array<{ event: string; details: { items?: Array<{ number: number; before: number | null; after: number }> } }>;
      };
      expect(history.history.map((h) => h.event)).toEqual(['paper.sat', 'paper.marks', 'paper.marks', 'paper.marks']);
      expect(history.history[3].details.items).toEqual([{ number: one.number, before: one.maxMarks, after: 0 }]);
    });

    it('should refuse an absent candidate, questions outside the set, too many marks and strangers, clearly', async () => {
      const { registrationId } = await admittedCandidate(get().app, world);
      expect((await attendance(registrationId, 'registration.markAbsent')).statusCode).toBe(200);
      expect((await sheet()).candidates.find((c) => c.registrationId === registrationId)?.attendance).toBe('Absent');
      expect((await enter(registrationId, [{ itemNumber: 1, marks: 1 }])).statusCode).toBe(409);

      const { registrationId: present } = await admittedCandidate(get().app, world);
      expect((await attendance(present, 'registration.markAttended')).statusCode).toBe(200);
      const outside = await enter(present, [{ itemNumber: 9_999, marks: 1 }]);
      expect(outside.statusCode).toBe(400);
      expect(JSON.stringify(outside.json())).toMatch(/not in set/);
      const tooMany = await enter(present, [{ itemNumber: 1, marks: 999 }]);
      expect(tooMany.statusCode).toBe(400);
      expect(JSON.stringify(tooMany.json())).toMatch(/out of/);
      expect(
        (
          await enter(present, [
            { itemNumber: 1, marks: 0 },
            { itemNumber: 1, marks: 1 },
          ])
        ).statusCode,
      ).toBe(400);
      expect((await enter(present, [{ itemNumber: 1, marks: -1 }])).statusCode).toBe(400);
      expect((await enter(present, [])).statusCode).toBe(400);
      const unknown = await projectCall(get().app, world, world.invigilator, 'GET', '/api/v1/paper-sitting?seasonPaperId=999999');
      expect(unknown.statusCode).toBe(400);
      const stranger = await staffUser(get().app);
      const refused = await call(get().app, stranger, 'GET', `/api/v1/paper-sitting?seasonPaperId=${world.seasonPaperId}`, { project: world.projectId });
      expect(refused.statusCode).toBe(404);
    });
  },
  { deliveryClock: clock },
);

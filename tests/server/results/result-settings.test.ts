import { beforeAll, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { examCall, resultOf, resultsWorld, sitPaper, SITTING, type ResultsWorld } from './results-kit.ts';

/**
 * The exam's result settings over HTTP (docs/decisions/0259): the exam manager sets them, nobody
 * else; bad input answers 400 naming the field and changes nothing; the exam's history keeps
 * before and after; a new double-marked share decides the rounds of scripts scored afterwards.
 */
const clock = manualClock(new Date(SITTING.startsAtIso));
const valid = { answerSheet: false, reevaluationDays: 14, doubleMarkPercent: 100, thirdMarkThreshold: 1.5 };

describeEachDatabase(
  'result settings',
  (get) => {
    let world: ResultsWorld;
    beforeAll(async () => {
      clock.set(new Date(SITTING.startsAtIso));
      world = await resultsWorld(get().app, get().db);
    });
    const put = (body: unknown, user = world.manager) => examCall(get().app, world, user, 'PUT', `/api/v1/exam/${world.examId}/result-settings`, body);
    const stored = async () => (await examCall(get().app, world, world.manager, 'GET', `/api/v1/exam/${world.examId}/results`)).json().settings;

    it('should let only the exam manager set them, refuse bad input with the field, and keep the change in the history', async () => {
      const before = await stored();
      expect(before).toEqual({ answerSheet: true, reevaluationDays: 7, doubleMarkPercent: 0, thirdMarkThreshold: 2 });
      for (const user of [world.moderator, world.evaluatorA]) {
        const refused = await put(valid, user);
        expect(refused.statusCode).toBe(403);
      }
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ ...valid, reevaluationDays: 1.5 }, 'reevaluationDays'],
        [{ ...valid, reevaluationDays: -1 }, 'reevaluationDays'],
        [{ ...valid, doubleMarkPercent: 150 }, 'doubleMarkPercent'],
        [{ ...valid, doubleMarkPercent: 33.333 }, 'doubleMarkPercent'],
        [{ ...valid, thirdMarkThreshold: 0.125 }, 'thirdMarkThreshold'],
        [{ ...valid, answerSheet: 'yes' }, 'answerSheet'],
        [{ answerSheet: true, reevaluationDays: 7, doubleMarkPercent: 10 }, 'thirdMarkThreshold'],
      ];
      for (const [body, field] of bad) {
        const res = await put(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.body, JSON.stringify(body)).toContain(field);
      }
      expect(await stored()).toEqual(before);

      // A field the schema does not know is dropped, not stored.
      const saved = await put({ ...valid, extra: 1 });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toEqual(valid);
      expect(await stored()).toEqual(valid);
      const { rows } = await get().db.query<{ details: { before: unknown; after: unknown } }>(
        `select details from exam_history where exam_id = $1 and event = 'exam.resultSettings' order by id`,
        [world.examId],
      );
      expect(rows.map((r) => r.details)).toEqual([{ before, after: valid }]);
    });

    it('should plan a blind second mark for every essay scored after the share is set to 100 %, and none at 0 %', async () => {
      const { app, db } = get();
      const roundsOf = async (deliveryId: number) =>
        (
          await db.query<{ round: number }>(`select round from marking_tasks where result_id = $1 order by round`, [(await resultOf(db, deliveryId)).id])
        ).rows.map((r) => r.round);
      expect((await put({ ...valid, doubleMarkPercent: 100 })).statusCode).toBe(200);
      clock.set(new Date(SITTING.startsAtIso));
      const doubled = await sitPaper(app, world, new Map<number, unknown>([[world.essayVersion, 'Water evaporates and falls as rain.']]), 'Dia');
      expect(await roundsOf(doubled.deliveryId)).toEqual([1, 2]);
      expect((await put({ ...valid, doubleMarkPercent: 0 })).statusCode).toBe(200);
      clock.set(new Date(SITTING.startsAtIso));
      const single = await sitPaper(app, world, new Map<number, unknown>([[world.essayVersion, 'Rain falls.']]), 'Sia');
      expect(await roundsOf(single.deliveryId)).toEqual([1]);
      // The earlier script keeps its planned rounds.
      expect(await roundsOf(doubled.deliveryId)).toEqual([1, 2]);
    });
  },
  { deliveryClock: clock },
);

import { beforeAll, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { examCall, resultOf, resultsWorld, sitPaper, SITTING, type ResultsWorld } from './results-kit.ts';

/**
 * "Human marking" for an item that is not an essay (issue 20, docs/decisions/0259): the first
 * single-choice item of the results world is set to be marked by a person. Submitted, its answer
 * is not scored automatically (no −1 for the wrong option) but waits in the evaluators' queue with
 * the chosen option's text and the key as the guide; the mark given counts on the paper's scale.
 * Worked by hand: items 4 marks each (+4 / −1), the essay 10; 22 in all.
 */
const clock = manualClock(new Date(SITTING.startsAtIso));

describeEachDatabase(
  'human marking of a choice item',
  (get) => {
    let world: ResultsWorld;
    beforeAll(async () => {
      clock.set(new Date(SITTING.startsAtIso));
      world = await resultsWorld(get().app, get().db, {}, [0]);
    });

    it('should queue the answer of an item set to human marking instead of scoring it, and count the mark given', async () => {
      const { app, db } = get();
      const [byPerson, auto] = world.mcqVersions;
      // A wrong option on the human-marked item, the key on the automatic one, the essay left blank.
      const sat = await sitPaper(
        app,
        world,
        new Map<number, unknown>([
          [byPerson, 'B'],
          [auto, 'A'],
        ]),
      );
      const question = sat.numberOf.get(byPerson)!;
      const result = await resultOf(db, sat.deliveryId);
      expect(result).toMatchObject({ status: 'Marking', total: 4 });
      const items = await db.query<{ itemNumber: number; marks: number | null; outcome: string; needsHuman: boolean }>(
        `select item_number as "itemNumber", marks::float8 as marks, outcome, needs_human as "needsHuman" from result_items where result_id = $1 and item_number = $2`,
        [result.id, question],
      );
      expect(items.rows[0]).toEqual({ itemNumber: question, marks: null, outcome: 'awaitingMarking', needsHuman: true });

      const queue = await examCall(app, world, world.evaluatorA, 'GET', `/api/v1/marking/queue?examId=${world.examId}`);
      expect(queue.statusCode, queue.body).toBe(200);
      const tasks = queue.json() as Array<{ taskId: number; itemNumber: number; answer: string; rubric: string | null; maxMarks: number; scriptId: string }>;
      // Only the human-marked item is queued: the automatic one is scored, the unanswered essay scores 0.
      expect(tasks.map((t) => t.itemNumber)).toEqual([question]);
      expect(tasks[0]).toMatchObject({ answer: 'Option B', rubric: 'Option A', maxMarks: 4, scriptId: result.scriptId });

      const marked = await examCall(app, world, world.evaluatorA, 'POST', `/api/v1/marking/task/${tasks[0].taskId}`, { marks: 1.5, comment: 'Close' });
      expect(marked.statusCode, marked.body).toBe(200);
      expect(marked.json()).toMatchObject({ state: 'final', resultStatus: 'Provisional' });
      expect(await resultOf(db, sat.deliveryId)).toMatchObject({ status: 'Provisional', total: 5.5 });
    });
  },
  { deliveryClock: clock },
);

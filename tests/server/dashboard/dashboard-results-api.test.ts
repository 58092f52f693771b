import { beforeAll, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call } from '../exams/workspace-kit.ts';
import { examCall, resultOf, resultsWorld, sitPaper, SITTING, type ResultsWorld } from '../results/results-kit.ts';

/**
 * The dashboards' results cards (issue 21 on issue 20's results, docs/decisions/0263): the
 * exam manager's marking progress per exam of the selected project, and the candidate's own
 * published results — nothing before publication, never anyone else's.
 */
const clock = manualClock(new Date(SITTING.startsAtIso));

interface Progress {
  examId: number;
  examName: string;
  scripts: number;
  scriptsMarked: number;
  tasks: number;
  tasksMarked: number;
  evaluators: number;
}

describeEachDatabase(
  'dashboard results and marking progress',
  (get) => {
    let world: ResultsWorld;
    beforeAll(async () => {
      clock.set(new Date(SITTING.startsAtIso));
      world = await resultsWorld(get().app, get().db);
    });

    it("should count the exam's scripts marked and its tasks, and show each candidate only their own published results", async () => {
      const { app, db } = get();
      const progress = async () => {
        const res = await examCall(app, world, world.manager, 'GET', '/api/v1/dashboard/exams/marking');
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as Progress[];
      };
      // No scripts yet: the exam is not listed.
      expect(await progress()).toEqual([]);

      const [m0] = world.mcqVersions;
      const asha = await sitPaper(
        app,
        world,
        new Map<number, unknown>([
          [m0, 'A'],
          [world.essayVersion, 'Water evaporates and falls as rain.'],
        ]),
        'Asha',
      );
      clock.set(new Date(SITTING.startsAtIso));
      const bina = await sitPaper(app, world, new Map<number, unknown>([[world.essayVersion, 'Clouds form and rain falls.']]), 'Bina');
      expect((await resultOf(db, asha.deliveryId)).status).toBe('Marking');

      const before = await progress();
      expect(before).toEqual([{ examId: world.examId, examName: expect.any(String), scripts: 2, scriptsMarked: 0, tasks: 2, tasksMarked: 0, evaluators: 0 }]);

      // Evaluator A marks Asha's essay: one script of two is marked.
      const queue = (await examCall(app, world, world.evaluatorA, 'GET', `/api/v1/marking/queue?examId=${world.examId}`)).json() as Array<{
        taskId: number;
        scriptId: string;
      }>;
      const ashaScript = (await resultOf(db, asha.deliveryId)).scriptId;
      const ashaTask = queue.find((t) => t.scriptId === ashaScript)!;
      expect((await examCall(app, world, world.evaluatorA, 'POST', `/api/v1/marking/task/${ashaTask.taskId}`, { marks: 6, comment: 'ok' })).statusCode).toBe(
        200,
      );
      expect(await progress()).toEqual([expect.objectContaining({ scripts: 2, scriptsMarked: 1, tasks: 2, tasksMarked: 1, evaluators: 1 })]);

      // Before publication the candidate's card is empty.
      const mine = async (user: typeof asha.candidate) => {
        const res = await call(app, user, 'GET', '/api/v1/dashboard/results/mine');
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as { total: number; results: Array<Record<string, unknown>> };
      };
      expect(await mine(asha.candidate)).toEqual({ total: 0, results: [] });

      // Publishing leaves Bina's (still marking) unpublished: Asha sees hers, Bina nothing.
      const published = await examCall(app, world, world.manager, 'POST', `/api/v1/exam/${world.examId}/results/publish`);
      expect(published.json()).toMatchObject({ published: 1, stillMarking: 1 });
      const ashaResult = await resultOf(db, asha.deliveryId);
      expect(await mine(asha.candidate)).toEqual({
        total: 1,
        results: [
          {
            resultId: ashaResult.id,
            examName: expect.any(String),
            paperTitle: expect.any(String),
            status: 'Published',
            percent: ashaResult.percent,
            grade: ashaResult.grade,
            passed: ashaResult.passed,
            publishedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          },
        ],
      });
      expect(await mine(bina.candidate)).toEqual({ total: 0, results: [] });
    });

    it('should keep the marking card to exam staff of the selected project, and the results card to signed-in users', async () => {
      const { app } = get();
      const stranger = await sitPaper(app, world, new Map(), 'Chirag');
      const asCandidate = await examCall(app, world, stranger.candidate, 'GET', '/api/v1/dashboard/exams/marking');
      expect(asCandidate.statusCode).toBe(403);
      const noProject = await call(app, world.manager, 'GET', '/api/v1/dashboard/exams/marking');
      expect(noProject.statusCode).toBeGreaterThanOrEqual(400);
      expect(noProject.statusCode).toBeLessThan(500);
      const anonymous = await app.inject({ method: 'GET', url: '/api/v1/dashboard/results/mine', headers: { tenant: 'root' } });
      expect(anonymous.statusCode).toBe(401);
    });
  },
  { deliveryClock: clock },
);

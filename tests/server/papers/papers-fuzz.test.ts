import fc from 'fast-check';
import { expect, it } from 'vitest';
import { routeMatrix } from '#tests/server/users/route-matrix.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as } from '#tests/setup/test-users.ts';
import { cleanPaper, paperWorld, sendPaperEvent } from './papers-kit.ts';

const paperRoutes = routeMatrix.filter(([, url]) => /^\/api\/v1\/paper(\/|$)/.test(url));

/** Every paper route with generated bodies, path ids and ExamId headers: never a 5xx. */
describeEachDatabase('paper routes under generated input', (get) => {
  it('should never answer 5xx to any body, path id or ExamId header a project admin sends', async () => {
    const { app, db } = get();
    const world = await paperWorld(app);
    const { paper: draft, fixed } = await cleanPaper(app, db, world);
    const { paper: locked } = await cleanPaper(app, db, world);
    await sendPaperEvent(app, world, world.setter, locked.paperId, 'paper.submit');
    await sendPaperEvent(app, world, world.moderator, locked.paperId, 'paper.lock');
    expect(paperRoutes).toHaveLength(21);
    const ids = [draft.paperId, locked.paperId, draft.sections[0].sectionId, fixed[0].versionId, world.categories.geometry];
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom(...ids),
      fc.constantFrom(
        'fixed',
        'draw',
        'easy',
        'hard',
        'paper.lock',
        'paper.unlock',
        'paper.submit',
        'paper.publish',
        'A',
        'free',
        'sectional',
        'online',
        '__proto__',
      ),
      fc.array(fc.oneof(fc.integer(), fc.constantFrom(...ids), fc.string({ maxLength: 6 })), { maxLength: 3 }),
      fc.record(
        { kind: fc.constantFrom('fixed', 'draw', 'x'), items: fc.array(fc.oneof(fc.constantFrom(...ids), fc.integer()), { maxLength: 3 }) },
        { requiredKeys: [] },
      ),
      fc.record({
        kind: fc.constantFrom('draw', 'fixed'),
        draws: fc.array(
          fc.record({
            categoryId: fc.oneof(fc.constantFrom(...ids), fc.integer()),
            difficulty: fc.constantFrom('easy', 'medium', 'hard', 'x'),
            count: fc.integer({ min: -2, max: 600 }),
          }),
          { maxLength: 2 },
        ),
      }),
      fc.dictionary(fc.constantFrom('en', 'hi', 'gu', 'xx'), fc.string({ maxLength: 10 })),
    );
    const fields = [
      'code',
      'title',
      'durationMinutes',
      'totalMarks',
      'instructions',
      'navigation',
      'calculator',
      'mode',
      'version',
      'order',
      'marksPerItem',
      'attemptAny',
      'timeLimitMinutes',
      'shuffleItems',
      'shuffleOptions',
      'rule',
      'event',
      'reason',
      'count',
      'seeds',
      'sectionIds',
      '__proto__',
    ];
    const body = fc.oneof(fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 8 }), fc.anything());
    const pathId = fc.oneof(fc.constantFrom(...ids.map(String)), fc.integer().map(String), fc.string({ maxLength: 10 }).map(encodeURIComponent));
    const letter = fc.oneof(fc.constantFrom('A', 'B', 'Z', 'AA', 'a', '1', '%00'), fc.string({ maxLength: 4 }).map(encodeURIComponent));
    const header = fc.oneof(
      fc.constant(String(world.examId)),
      fc.constant(`${world.examId}&${draft.paperId}`),
      fc.constant(`${world.examId}&${locked.paperId}`),
      fc.string({ maxLength: 12 }),
      fc.constant(undefined),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paperRoutes),
        body,
        pathId,
        pathId,
        letter,
        header,
        async ([method, url], payload, id, sectionId, setLetter, exam) => {
          const path = url
            .replace(':id', id || 'x')
            .replace(':sectionId', sectionId || 'x')
            .replace(':letter', setLetter || 'x');
          const headers: Record<string, string> = { ...as(world.admin), 'content-type': 'application/json' };
          if (exam !== undefined) headers.ExamId = exam;
          const res = await app.inject({
            method: method as 'GET',
            url: path,
            headers,
            ...(method === 'GET' || method === 'DELETE' ? {} : { payload: JSON.stringify(payload) ?? 'null' }),
          });
          expect(res.statusCode, `${method} ${path} answered ${res.statusCode}: ${res.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  }, 240_000);
});

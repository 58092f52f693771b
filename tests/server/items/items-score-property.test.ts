import fc from 'fast-check';
import { expect, it } from 'vitest';
import { score } from '#machines/items/score.ts';
import { itemContent, responseFor } from '#tests/machines/items/support/arbitraries.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call } from '../exams/workspace-kit.ts';
import { itemBench, type Json } from './item-kit.ts';

/**
 * The one scorer (docs/decisions/0120) answers the same over HTTP — item stored as JSON,
 * sanitized, read back, scored by the server — as a direct call on the generated item does
 * (what the client preview runs).
 */
describeEachDatabase('item scoring: server over HTTP = direct call', (get) => {
  it('should give the same score, maximum and outcome for generated items and responses', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    await fc.assert(
      fc.asyncProperty(
        itemContent.chain((item) => fc.tuple(fc.constant(item), fc.array(responseFor(item), { minLength: 1, maxLength: 5 }))),
        async ([content, responses]) => {
          const media = content.media.map((m) => ({ ...m, categoryFileId: null }));
          const created = await call(app, bench.author, 'POST', '/api/v1/item', {
            project: bench.projectId,
            body: { categoryId: bench.categoryId, difficulty: 'medium', content: { ...content, media } },
          });
          expect(created.statusCode, created.body).toBe(201);
          const itemId = (created.json() as Json).itemId;
          for (const response of responses) {
            const direct = score(content, response);
            const res = await call(app, bench.reviewer, 'POST', `/api/v1/item/${itemId}/score`, { project: bench.projectId, body: { responses: response } });
            expect(res.statusCode, res.body).toBe(200);
            const served = res.json() as Json;
            expect({
              score: served.score,
              maxScore: served.maxScore,
              minScore: served.minScore,
              outcome: served.outcome,
              needsHumanMarking: served.needsHumanMarking,
            }).toEqual({
              score: direct.score,
              maxScore: direct.maxScore,
              minScore: direct.minScore,
              outcome: direct.outcome,
              needsHumanMarking: direct.needsHumanMarking,
            });
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

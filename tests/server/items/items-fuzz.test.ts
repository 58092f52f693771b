import fc from 'fast-check';
import { expect, it } from 'vitest';
import { sampleItems } from '#tests/machines/items/support/sample-items.ts';
import { routeMatrix } from '#tests/server/users/route-matrix.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as } from '#tests/setup/test-users.ts';
import { createItem, itemBench } from './item-kit.ts';

const itemRoutes = routeMatrix.filter(([, url]) => /^\/api\/v1\/item(\/|$)/.test(url));

/**
 * Bad input reaches the item bank's handlers (a real project, real items and the author's
 * rights, so the header check does not stop it first): no answer may be a 5xx — bad input is a 400.
 */
describeEachDatabase('item bank routes under generated input', (get) => {
  it('should never answer 5xx to any body, path id, query or version an author sends', async () => {
    const { app } = get();
    const bench = await itemBench(app);
    const items = [];
    for (const content of sampleItems) items.push(await createItem(app, bench, content));
    expect(itemRoutes).toHaveLength(21);
    const sample = fc.constantFrom(...sampleItems);
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(items[0].itemId),
      fc.constant(bench.categoryId),
      fc.constantFrom(
        'submit',
        'approve',
        'requestChanges',
        'retire',
        'comment',
        'moveCategory',
        'singleChoice',
        'essay',
        'easy',
        'hard',
        'en',
        'hi',
        'A',
        '__proto__',
      ),
      fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(items[1].itemId)), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 6 }), fc.constant(null)), { maxKeys: 3 }),
      sample,
      sample.chain((content) => fc.record({ ...Object.fromEntries(Object.entries(content).map(([k, v]) => [k, fc.oneof(fc.constant(v), fc.anything())])) })),
    );
    const fields = [
      'content',
      'responses',
      'versionNumber',
      'version',
      'categoryId',
      'difficulty',
      'cognitiveLevel',
      'code',
      'itemTypeId',
      'action',
      'comment',
      'itemIds',
      'stem',
      'excludeItemId',
      'limit',
      'keyword',
      'pageNumber',
      'pageSize',
      'orderBy',
      'kind',
      'status',
      'language',
      'languagePresent',
      'authorId',
      'duplicatesOnly',
      'includeSubcategories',
      '__proto__',
      'constructor',
    ];
    const record = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 8 });
    const pathId = fc.oneof(
      fc.constant(String(items[2].itemId)),
      fc.constant(String(items[8].itemId)),
      fc.uuid(),
      fc.integer().map(String),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const query = fc.oneof(
      fc.constant(''),
      fc.constant('?from=1&to=1'),
      fc.string({ maxLength: 20 }).map((s) => `?from=${encodeURIComponent(s)}&to=2`),
    );
    const ifMatch = fc.oneof(fc.constant(undefined), fc.constant('"1"'), fc.string({ maxLength: 8 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...itemRoutes),
        fc.oneof(record, fc.anything()),
        pathId,
        pathId,
        query,
        ifMatch,
        async ([method, url], body, id, other, q, match) => {
          const path =
            url
              .replace(':id', id || 'x')
              .replace(':number', other || 'x')
              .replace(':versionId', other || 'x')
              .replace(':jobId', id || 'x') + q;
          const headers: Record<string, string> = { ...as(bench.author), 'content-type': 'application/json', ProjectId: String(bench.projectId) };
          if (match !== undefined) headers['if-match'] = match;
          const res = await app.inject({
            method: method as 'GET',
            url: path,
            headers,
            ...(method === 'GET' || method === 'DELETE' ? {} : { payload: JSON.stringify(body) ?? 'null' }),
          });
          expect(res.statusCode, `${method} ${path} answered ${res.statusCode}: ${res.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 500 },
    );
  }, 240_000);
});

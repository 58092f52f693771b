import { expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';

/** Issue 22: every API answer is serialized by code compiled from its response schema. */
describeEachDatabase('response schemas', (get) => {
  it('should declare a success response schema on every /api route', () => {
    expect(get().app.routesWithoutResponseSchema).toEqual([]);
  });
});

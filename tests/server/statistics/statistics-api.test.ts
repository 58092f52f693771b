import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, staffUser } from '../exams/workspace-kit.ts';
import { paperCall } from '../papers/papers-kit.ts';
import { satCandidate, statsWorld, type StatsWorld } from './statistics-kit.ts';

/**
 * GET /api/v1/paper/:id/statistics over a small sat exam whose every figure was worked out by
 * hand (below), not by running the code. Four 1-mark items, key A; six finished deliveries:
 *
 *        i1 i2 i3 i4 | total        i1: p = 4/6, r_pb = 2/√8 = .70711
 *   P1   A  A  B  A  |  3           i2: p = 3/6, r_pb = 3/√9 = 1 (i2 = i4 = the top half)
 *   P2   A  A  B  A  |  3           i3: p = 2/6, r_pb = −2/√8 = −.70711 (only the bottom half got it)
 *   P3   A  A  B  A  |  3           i4: p = 3/6, r_pb = 1
 *   P4   A  C  B  D  |  1         totals 3,3,3,1,1,1: mean 2, population SD 1, median 2
 *   P5   B  —  A  D  |  1         KR-20 = 4/3·(1 − (2/9 + 1/4 + 2/9 + 1/4)/1) = 4/3·1/18 = 2/27
 *   P6   C  B  A  D  |  1         SEM = 1·√(1 − 2/27) = √(25/27)
 * Upper/lower 27 %: round(6·.27) = 2 each: P1, P2 on top, P5, P6 at the bottom.
 * i3's distractor B (4) beats the key A (2) and its discrimination is negative: both flags.
 * A seventh candidate who has not finished counts nowhere.
 */
describeEachDatabase('item statistics API', (get) => {
  let world: StatsWorld;
  beforeAll(async () => {
    world = await statsWorld(get().app, get().db);
    const rows: Array<Array<string | undefined>> = [
      ['A', 'A', 'B', 'A'],
      ['A', 'A', 'B', 'A'],
      ['A', 'A', 'B', 'A'],
      ['A', 'C', 'B', 'D'],
      ['B', undefined, 'A', 'D'],
      ['C', 'B', 'A', 'D'],
    ];
    for (const answers of rows) await satCandidate(get().app, get().db, world, answers);
    await satCandidate(get().app, get().db, world, ['A', 'A', 'A', 'A'], 'Waiting');
  });

  const statistics = (user = world.moderator, query = '') =>
    paperCall(get().app, world, user, 'GET', `/api/v1/paper/${world.lockedPaperId}/statistics${query}`);

  it('should answer the hand-computed paper figures', async () => {
    const res = await statistics(world.moderator, '?bins=4');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.deliveries).toBe(6);
    expect(body.paper.n).toBe(6);
    expect(body.paper.items).toBe(4);
    expect(body.paper.mean).toBeCloseTo(2, 10);
    expect(body.paper.sd).toBeCloseTo(1, 10);
    expect([body.paper.min, body.paper.max, body.paper.median]).toEqual([1, 3, 2]);
    expect(body.paper.reliabilityKind).toBe('KR-20');
    expect(body.paper.reliability).toBeCloseTo(2 / 27, 10);
    expect(body.paper.sem).toBeCloseTo(Math.sqrt(25 / 27), 10);
    expect(body.paper.maxTotal).toBe(4);
    // Width 1 over [0, 4]: three totals of 1, three of 3.
    expect(body.paper.distribution.map((b: { count: number }) => b.count)).toEqual([0, 3, 0, 3]);
  });

  it('should answer the hand-computed item figures and flag the bad item', async () => {
    const body = (await statistics()).json();
    const byVersion = new Map(body.items.map((i: { versionId: string }) => [i.versionId, i]));
    const [i1, i2, i3, i4] = world.versionIds.map((v) => byVersion.get(String(v)) as Record<string, unknown> & { distractors: unknown[] });
    expect(i1).toMatchObject({
      facility: expect.closeTo(4 / 6, 10),
      pointBiserial: expect.closeTo(2 / Math.sqrt(8), 10),
      upperLowerIndex: 1,
      omittedRate: 0,
      flags: [],
    });
    expect(i2).toMatchObject({
      facility: expect.closeTo(0.5, 10),
      pointBiserial: expect.closeTo(1, 10),
      upperLowerIndex: 1,
      omittedRate: expect.closeTo(1 / 6, 10),
    });
    expect(i3).toMatchObject({
      facility: expect.closeTo(1 / 3, 10),
      pointBiserial: expect.closeTo(-2 / Math.sqrt(8), 10),
      upperLowerIndex: -1,
      key: ['A'],
      flags: ['negativeDiscrimination', 'distractorOverKey'],
    });
    expect(i3.distractors).toEqual([
      { optionId: 'A', correct: true, count: 2, upper: 0, lower: 2 },
      { optionId: 'B', correct: false, count: 4, upper: 2, lower: 0 },
      { optionId: 'C', correct: false, count: 0, upper: 0, lower: 0 },
      { optionId: 'D', correct: false, count: 0, upper: 0, lower: 0 },
    ]);
    expect(i4).toMatchObject({ facility: expect.closeTo(0.5, 10), pointBiserial: expect.closeTo(1, 10), flags: [] });
    expect(body.flagged).toBe(1);
    expect(body.items.map((i: { number: number }) => i.number).sort()).toEqual([1, 2, 3, 4]);
  });

  it('should refuse callers who may not see the paper content, bad input and papers out of reach', async () => {
    const outsider = await staffUser(get().app);
    expect((await statistics(outsider)).statusCode).toBe(404);
    // An item author of the project reaches the exam but not what is in its papers.
    expect((await statistics(world.author)).statusCode).toBe(403);
    expect((await statistics(world.moderator, '?bins=1')).statusCode).toBe(400);
    expect((await statistics(world.moderator, '?bins=abc')).statusCode).toBe(400);
    const missing = await paperCall(get().app, world, world.moderator, 'GET', `/api/v1/paper/999999999/statistics`);
    expect(missing.statusCode).toBe(404);
    const noHeader = await call(get().app, world.moderator, 'GET', `/api/v1/paper/${world.lockedPaperId}/statistics`);
    expect(noHeader.statusCode).toBe(400);
    // With ExamId e&p the path's paper must be p.
    const otherPaper = await paperCall(
      get().app,
      world,
      world.moderator,
      'GET',
      `/api/v1/paper/${world.lockedPaperId}/statistics`,
      undefined,
      world.lockedPaperId + 1,
    );
    expect(otherPaper.statusCode).toBe(404);
  });
});

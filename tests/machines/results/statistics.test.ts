import { describe, expect, it } from 'vitest';
import { correlation, itemStatistics, paperStatistics, upperLowerGroups, variance, type CandidateRow, type ItemMeta } from '#machines/results/statistics.ts';

/**
 * Every figure below was computed by hand (the working is in the comments), not by running
 * the module: a wrong formula cannot agree with them.
 */

const row = (id: string, scores: number[], extra: Record<string, { chosen?: string[]; omitted?: boolean }> = {}): CandidateRow => ({
  id,
  answers: Object.fromEntries(
    scores.map((score, k) => [`i${k + 1}`, { score, omitted: extra[`i${k + 1}`]?.omitted ?? false, chosen: extra[`i${k + 1}`]?.chosen }]),
  ),
});

// Five candidates, four 0/1 items. Totals 4, 3, 2, 1, 1: mean 2.2, Σ(x−m)² = 6.8, variance 1.36.
const dichotomous: CandidateRow[] = [
  row('A', [1, 1, 1, 1], { i1: { chosen: ['a'] } }),
  row('B', [1, 1, 1, 0], { i1: { chosen: ['a'] } }),
  row('C', [1, 1, 0, 0], { i1: { chosen: ['a'] } }),
  row('D', [1, 0, 0, 0], { i1: { chosen: ['a'] } }),
  row('E', [0, 0, 0, 1], { i1: { chosen: ['b'] }, i2: { omitted: true } }),
];
const fourItems: ItemMeta[] = [
  {
    id: 'i1',
    maxScore: 1,
    options: [
      { id: 'a', correct: true },
      { id: 'b', correct: false },
      { id: 'c', correct: false },
    ],
  },
  { id: 'i2', maxScore: 1 },
  { id: 'i3', maxScore: 1 },
  { id: 'i4', maxScore: 1 },
];

describe('statistics', () => {
  it('should compute population variance and Pearson correlation', () => {
    expect(variance([4, 3, 2, 1, 1])).toBeCloseTo(1.36, 10);
    expect(variance([])).toBeNull();
    // x = 1,2,3 and y = 2,4,7: sxy = 5, sxx = 2, syy = 12.667 → 5/√25.333 = 0.99340.
    expect(correlation([1, 2, 3], [2, 4, 7])).toBeCloseTo(0.9934, 4);
    expect(correlation([1, 1, 1], [2, 4, 7])).toBeNull();
    expect(correlation([1], [2])).toBeNull();
  });

  it('should give KR-20, SD, SEM, median and the distribution of a 0/1 paper', () => {
    const paper = paperStatistics(dichotomous, fourItems, 4);
    // p = .8, .6, .4, .4 → Σpq = .16 + .24 + .24 + .24 = .88; KR-20 = 4/3·(1 − .88/1.36) = 8/17.
    expect(paper.reliabilityKind).toBe('KR-20');
    expect(paper.reliability).toBeCloseTo(8 / 17, 10);
    expect(paper.mean).toBeCloseTo(2.2, 10);
    expect(paper.sd).toBeCloseTo(Math.sqrt(1.36), 10);
    // SEM = √1.36·√(9/17) = √0.72.
    expect(paper.sem).toBeCloseTo(Math.sqrt(0.72), 10);
    expect([paper.min, paper.max, paper.median, paper.n, paper.items]).toEqual([1, 4, 2, 5, 4]);
    // Width 1 over [0, 4]: none below 1; D, E at 1; C at 2; B at 3 and A at 4 (the top bin includes 4).
    expect(paper.distribution.map((bin) => bin.count)).toEqual([0, 2, 1, 2]);
    expect(paper.distribution[3]).toMatchObject({ from: 3, to: 4 });
  });

  it('should give facility, point-biserial, rest correlation, the 27 % index, omissions and distractors per item', () => {
    const [i1, i2, , i4] = itemStatistics(dichotomous, fourItems);
    expect(i1.facility).toBeCloseTo(0.8, 10);
    // M1 = 2.5 (A–D), M0 = 1 (E), s = √1.36, √pq = .4 → 1.5·.4/√1.36.
    expect(i1.pointBiserial).toBeCloseTo(0.6 / Math.sqrt(1.36), 10);
    // Rest scores 3, 2, 1, 0, 1: sxy = .4, sxx = .8, syy = 5.2 → .4/√4.16.
    expect(i1.restCorrelation).toBeCloseTo(0.4 / Math.sqrt(4.16), 10);
    // One candidate per group (round(5·.27) = 1): A on top, E at the bottom (D and E tie at 1; E comes later).
    expect(i1.upperLowerIndex).toBe(1);
    expect(i4.upperLowerIndex).toBe(0);
    expect(i1.distractors).toEqual([
      { optionId: 'a', correct: true, count: 4, upper: 1, lower: 0 },
      { optionId: 'b', correct: false, count: 1, upper: 0, lower: 1 },
      { optionId: 'c', correct: false, count: 0, upper: 0, lower: 0 },
    ]);
    expect(i2.omittedRate).toBeCloseTo(0.2, 10);
    expect(i1.omittedRate).toBe(0);
    // Item 4: M1 = 2.5 (A, E), M0 = 2 (B, C, D), √pq = √.24 → .5·√.24/√1.36.
    expect(i4.pointBiserial).toBeCloseTo((0.5 * Math.sqrt(0.24)) / Math.sqrt(1.36), 10);
    expect(i1.flags).toEqual([]);
  });

  it('should flag negative discrimination, a distractor chosen more than the key, and an item without variance', () => {
    const rows = [
      row('A', [1, 1, 1, 0], { i3: { chosen: ['x'] } }),
      row('B', [1, 1, 1, 0], { i3: { chosen: ['x'] } }),
      row('C', [1, 1, 0, 0], { i3: { chosen: ['y'] } }),
      row('D', [1, 0, 0, 1], { i3: { chosen: ['y'] } }),
      row('E', [1, 0, 0, 1], { i3: { chosen: ['y'] } }),
    ];
    const items: ItemMeta[] = [
      { id: 'i1', maxScore: 1 },
      { id: 'i2', maxScore: 1 },
      {
        id: 'i3',
        maxScore: 1,
        options: [
          { id: 'x', correct: true },
          { id: 'y', correct: false },
        ],
      },
      { id: 'i4', maxScore: 1 },
    ];
    const [i1, i2, i3, i4] = itemStatistics(rows, items);
    // Totals 3, 3, 2, 2, 2 (variance .24). Item 4: M1 = 2 (D, E), M0 = 8/3, √pq = √.24, s = √.24 → −2/3.
    expect(i4.pointBiserial).toBeCloseTo(-2 / 3, 10);
    expect(i4.flags).toContain('negativeDiscrimination');
    expect(i3.flags).toEqual(['distractorOverKey']);
    expect(i1.flags).toEqual(['noVariance']);
    expect(i1.pointBiserial).toBeNull();
    expect(i2.flags).toEqual([]);
  });

  it("should give Cronbach's alpha for items worth more than one mark", () => {
    const rows = [row('A', [2, 2, 1]), row('B', [1, 1, 1]), row('C', [0, 1, 0]), row('D', [2, 1, 2])];
    const items: ItemMeta[] = [
      { id: 'i1', maxScore: 2 },
      { id: 'i2', maxScore: 2 },
      { id: 'i3', maxScore: 2 },
    ];
    const paper = paperStatistics(rows, items);
    // Totals 5, 3, 1, 5: variance 11/4. Item variances .6875, .1875, .5 → Σ 1.375; α = 3/2·(1 − .5) = .75.
    expect(paper.reliabilityKind).toBe('alpha');
    expect(paper.reliability).toBeCloseTo(0.75, 10);
    expect(paper.sem).toBeCloseTo(Math.sqrt(2.75) * 0.5, 10);
    expect(itemStatistics(rows, items)[0].facility).toBeCloseTo(0.625, 10);
  });

  it('should keep the upper and lower groups apart and at least one candidate each', () => {
    expect(upperLowerGroups([5, 4, 3, 2, 1, 0, 9, 8, 7, 6])).toEqual({ upper: [6, 7, 8], lower: [3, 4, 5] });
    expect(upperLowerGroups([1, 1])).toEqual({ upper: [0], lower: [1] });
    expect(upperLowerGroups([3])).toEqual({ upper: [], lower: [] });
  });

  it('should leave unmarked answers out of an item and give no figures for an empty sitting', () => {
    const rows: CandidateRow[] = [
      { id: 'A', answers: { e: { score: null, omitted: false } } },
      { id: 'B', answers: { e: { score: 4, omitted: false } } },
    ];
    const [essay] = itemStatistics(rows, [{ id: 'e', maxScore: 10 }]);
    expect(essay.n).toBe(1);
    expect(essay.facility).toBeCloseTo(0.4, 10);
    const empty = paperStatistics([], fourItems);
    expect([empty.mean, empty.sd, empty.reliability, empty.sem, empty.median]).toEqual([null, null, null, null, null]);
  });
});

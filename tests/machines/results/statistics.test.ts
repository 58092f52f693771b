import { describe, expect, it } from 'vitest';
import {
  correlation,
  itemStatistics,
  paperStatistics,
  scoreDistribution,
  totals,
  upperLowerGroups,
  variance,
  type CandidateRow,
  type ItemMeta,
} from '#machines/results/statistics.ts';

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
    expect([empty.mean, empty.sd, empty.reliability, empty.sem, empty.median, empty.min, empty.max]).toEqual([null, null, null, null, null, null, null]);
  });
});

describe('statistics: the edges of each figure', () => {
  it('should correlate two pairs, and give no correlation for lists of different lengths or a constant second list', () => {
    // x = 1, 2 and y = 3, 5: sxy = 1, sxx = .5, syy = 2 → 1/√1 = 1.
    expect(correlation([1, 2], [3, 5])).toBeCloseTo(1, 10);
    expect(correlation([1, 2, 3], [1, 2])).toBeNull();
    expect(correlation([1, 2, 3], [5, 5, 5])).toBeNull();
    expect(correlation([], [])).toBeNull();
  });

  it('should never let the groups overlap, even for a share above one half', () => {
    // round(4 · .9) = 4 would take everyone; at most half of four (two) go in each group.
    expect(upperLowerGroups([1, 2, 3, 4], 0.9)).toEqual({ upper: [3, 2], lower: [1, 0] });
    // round(4 · .27) = 1.
    expect(upperLowerGroups([1, 2, 3, 4])).toEqual({ upper: [3], lower: [0] });
  });

  it('should compare groups of several candidates by the share of the item marks they earned', () => {
    // Item 1 is worth 2, item 2 worth 10. Totals 12, 11, 9, 8, 7, 6, 5, 3, 3, 1: round(10 · .27) = 3 per group,
    // upper = candidates 1–3, lower = 8–10 (8 and 9 tie at 3; both are in it).
    const xs = [2, 2, 1, 1, 1, 1, 1, 0, 1, 0];
    const rows = xs.map((x, k) => row(`c${k}`, [x, 10 - k]));
    const items: ItemMeta[] = [
      { id: 'i1', maxScore: 2 },
      { id: 'i2', maxScore: 10 },
    ];
    expect(totals(rows, items)).toEqual([12, 11, 9, 8, 7, 6, 5, 3, 3, 1]);
    const [i1, i2] = itemStatistics(rows, items);
    // Item 1: upper 5 of 6 marks, lower 1 of 6 → 4/6. Item 2: upper 27 of 30, lower 6 of 30 → .7.
    expect(i1.upperLowerIndex).toBeCloseTo(2 / 3, 10);
    expect(i2.upperLowerIndex).toBeCloseTo(0.7, 10);
    // Item 1: 10 marks over 10 candidates, of 2 each → .5.
    expect(i1.facility).toBeCloseTo(0.5, 10);
  });

  it('should count a candidate with no answer to an item as omitting it with 0 marks', () => {
    const items: ItemMeta[] = [
      {
        id: 'i1',
        maxScore: 1,
        options: [
          { id: 'a', correct: true },
          { id: 'b', correct: false },
        ],
      },
      { id: 'i2', maxScore: 1 },
    ];
    const rows: CandidateRow[] = [
      { id: 'A', answers: { i1: { score: 1, omitted: false, chosen: ['a'] }, i2: { score: 1, omitted: false } } },
      { id: 'B', answers: { i2: { score: 1, omitted: false } } },
      { id: 'C', answers: { i1: { score: 0, omitted: true }, i2: { score: 0, omitted: false } } },
    ];
    expect(totals(rows, items)).toEqual([2, 1, 0]);
    const [i1] = itemStatistics(rows, items);
    // B has no answer and C omitted: 2 of 3.
    expect(i1.omittedRate).toBeCloseTo(2 / 3, 10);
    // One per group (round(3 · .27) = 1): A on top, C at the bottom.
    expect(i1.distractors).toEqual([
      { optionId: 'a', correct: true, count: 1, upper: 1, lower: 0 },
      { optionId: 'b', correct: false, count: 0, upper: 0, lower: 0 },
    ]);
  });

  it('should give no figures for an item nobody sat, and no distractors for an item without options', () => {
    const [i1, i2] = itemStatistics([], fourItems);
    expect(i1).toEqual({
      itemId: 'i1',
      n: 0,
      facility: null,
      pointBiserial: null,
      restCorrelation: null,
      upperLowerIndex: null,
      omittedRate: null,
      distractors: [
        { optionId: 'a', correct: true, count: 0, upper: 0, lower: 0 },
        { optionId: 'b', correct: false, count: 0, upper: 0, lower: 0 },
        { optionId: 'c', correct: false, count: 0, upper: 0, lower: 0 },
      ],
      flags: [],
    });
    expect(i2.distractors).toEqual([]);
    // One candidate: no upper and lower groups to compare.
    const [alone] = itemStatistics([row('A', [1])], [{ id: 'i1', maxScore: 1 }]);
    expect(alone.upperLowerIndex).toBeNull();
    expect(alone.facility).toBe(1);
  });

  it('should give no facility or upper/lower index for an item worth no marks', () => {
    const rows = [row('A', [0, 1]), row('B', [0, 0]), row('C', [0, 1])];
    const [practice] = itemStatistics(rows, [
      { id: 'i1', maxScore: 0 },
      { id: 'i2', maxScore: 1 },
    ]);
    expect(practice.facility).toBeNull();
    expect(practice.upperLowerIndex).toBeNull();
  });

  it('should not flag a point-biserial of exactly 0, a distractor only as popular as the most chosen key, or a single marked answer', () => {
    // Item 1 = 1, 1, 0, 0; totals 1, 2, 1, 2: dx = ±.5, dy = ∓.5 alternately → sxy = 0.
    const rows = [row('A', [1, 0, 0]), row('B', [1, 1, 0]), row('C', [0, 1, 0]), row('D', [0, 1, 1])];
    const plain: ItemMeta[] = ['i1', 'i2', 'i3'].map((id) => ({ id, maxScore: 1 }));
    const [zero] = itemStatistics(rows, plain);
    expect(zero.pointBiserial).toBe(0);
    expect(zero.flags).toEqual([]);

    // Two keys chosen 1 and 2 times, the distractor 2 times: not more than the most chosen key.
    const choice: ItemMeta = {
      id: 'i1',
      maxScore: 1,
      options: [
        { id: 'k1', correct: true },
        { id: 'k2', correct: true },
        { id: 'd', correct: false },
      ],
    };
    const chose = [row('A', [0], { i1: { chosen: ['k2', 'd'] } }), row('B', [1], { i1: { chosen: ['k2'] } }), row('C', [0], { i1: { chosen: ['k1', 'd'] } })];
    const [tie] = itemStatistics(chose, [choice]);
    expect(tie.distractors.map((d) => d.count)).toEqual([1, 2, 2]);
    expect(tie.flags).toEqual([]);
    const [over] = itemStatistics([...chose, row('D', [0], { i1: { chosen: ['d'] } })], [choice]);
    expect(over.flags).toEqual(['distractorOverKey']);

    // Only one marked answer: nothing to compare, so not "everyone scored the same".
    const [single] = itemStatistics([row('A', [1]), { id: 'B', answers: { i1: { score: null, omitted: false } } }], [{ id: 'i1', maxScore: 1 }]);
    expect(single.n).toBe(1);
    expect(single.flags).toEqual([]);
  });

  it('should put scores into bins of equal width, the top one including its upper end and the first taking scores below 0', () => {
    // Width 2.5: [0, 2.5) gets 0, 2.4 and −1; [2.5, 5) gets 2.5; [7.5, 10] gets 7.5 and 10.
    expect(scoreDistribution([0, 2.4, 2.5, 7.5, 10, -1], 10, 4)).toEqual([
      { from: 0, to: 2.5, count: 3 },
      { from: 2.5, to: 5, count: 1 },
      { from: 5, to: 7.5, count: 0 },
      { from: 7.5, to: 10, count: 2 },
    ]);
    expect(scoreDistribution([3, 10], 10, 1)).toEqual([{ from: 0, to: 10, count: 2 }]);
    expect(scoreDistribution([1, 2], 0)).toEqual([]);
    expect(scoreDistribution([1, 2], 10, 0)).toEqual([]);
  });

  it('should take the median of the sorted totals', () => {
    // Totals 1, 0, 1 → sorted 0, 1, 1: median 1.
    const odd = paperStatistics(
      [row('A', [1, 0]), row('B', [0, 0]), row('C', [0, 1])],
      [
        { id: 'i1', maxScore: 1 },
        { id: 'i2', maxScore: 1 },
      ],
    );
    expect(odd.median).toBe(1);
    // Totals 5, 3, 1, 5 → sorted 1, 3, 5, 5: median (3 + 5)/2 = 4.
    const even = paperStatistics(
      [row('A', [2, 2, 1]), row('B', [1, 1, 1]), row('C', [0, 1, 0]), row('D', [2, 1, 2])],
      [
        { id: 'i1', maxScore: 2 },
        { id: 'i2', maxScore: 2 },
        { id: 'i3', maxScore: 2 },
      ],
    );
    expect(even.median).toBe(4);
  });

  it('should give no reliability or SEM for a single item or when every candidate has the same total', () => {
    // One item, scores 1, 0, 1: mean 2/3, variance (1/9 + 4/9 + 1/9)/3 = 2/9.
    const single = paperStatistics([row('A', [1]), row('B', [0]), row('C', [1])], [{ id: 'i1', maxScore: 1 }]);
    expect(single.reliability).toBeNull();
    expect(single.sem).toBeNull();
    expect(single.sd).toBeCloseTo(Math.sqrt(2 / 9), 10);
    // Totals 1 and 1: no variance.
    const same = paperStatistics(
      [row('A', [1, 0]), row('B', [0, 1])],
      [
        { id: 'i1', maxScore: 1 },
        { id: 'i2', maxScore: 1 },
      ],
    );
    expect(same.reliability).toBeNull();
    expect(same.sem).toBeNull();
    expect(same.sd).toBe(0);
  });

  it('should give an SEM for a reliability of 0 but none for a negative one', () => {
    const items: ItemMeta[] = [
      { id: 'i1', maxScore: 1 },
      { id: 'i2', maxScore: 1 },
    ];
    // Items 1, 1, 0, 0 and 1, 0, 1, 0 (uncorrelated): item variances .25 + .25; totals 2, 1, 1, 0 have variance .5 →
    // KR-20 = 2·(1 − .5/.5) = 0; SEM = √.5·√1.
    const zero = paperStatistics([row('A', [1, 1]), row('B', [1, 0]), row('C', [0, 1]), row('D', [0, 0])], items);
    expect(zero.reliability).toBe(0);
    expect(zero.sem).toBeCloseTo(Math.sqrt(0.5), 10);
    // Items 1, 1, 0, 0 and 0, 1, 1, 1: item variances .25 + .1875 = 7/16; totals 1, 2, 1, 1 have variance 3/16 →
    // KR-20 = 2·(1 − 7/3) = −8/3; no SEM.
    const negative = paperStatistics([row('A', [1, 0]), row('B', [1, 1]), row('C', [0, 1]), row('D', [0, 1])], items);
    expect(negative.reliability).toBeCloseTo(-8 / 3, 10);
    expect(negative.sem).toBeNull();
  });

  it("should use Cronbach's alpha, not KR-20, unless every item is worth 1 mark and scored 0 or 1", () => {
    // An item worth 2 marks, although nobody earned more than 1.
    const twoMarks = paperStatistics(
      [row('A', [1, 1]), row('B', [0, 1]), row('C', [0, 0])],
      [
        { id: 'i1', maxScore: 1 },
        { id: 'i2', maxScore: 2 },
      ],
    );
    expect(twoMarks.reliabilityKind).toBe('alpha');
    // 1-mark items with negative marking: −0.25 for a wrong answer.
    const negativeMarks = paperStatistics(
      [row('A', [1, 1]), row('B', [1, 0]), row('C', [0, -0.25])],
      [
        { id: 'i1', maxScore: 1 },
        { id: 'i2', maxScore: 1 },
      ],
    );
    expect(negativeMarks.reliabilityKind).toBe('alpha');
  });
});

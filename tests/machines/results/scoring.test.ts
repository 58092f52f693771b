import { describe, expect, it } from 'vitest';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import type { PaperSet, PaperSnapshot, SetItem } from '#machines/papers/paper-sets.ts';
import { gradeOf, scoreScript, type ExamRules } from '#machines/results/scoring.ts';
import { essay, multipleChoice, singleChoice } from '../items/support/sample-items.ts';

/**
 * Scoring tables (issue 20): the expected marks are worked out by hand from the item's marking
 * (+4 / −1 / 0 in the bank), the paper's marks per item, and the section's "any N of M".
 */
const rules: ExamRules = {
  passPercent: 40,
  gradeBands: [
    { grade: 'A', minPercent: 75 },
    { grade: 'B', minPercent: 50 },
    { grade: 'C', minPercent: 40 },
  ],
};

function paper(sections: Array<{ id: string; attemptAny?: number; items: Array<[versionId: string, content: ItemContent, marks: number]> }>) {
  const snapshot: PaperSnapshot = { sections: [], items: {} };
  const set: PaperSet = { letter: 'A', seed: 's', sections: [] };
  let number = 0;
  for (const s of sections) {
    snapshot.sections.push({
      id: s.id,
      order: snapshot.sections.length + 1,
      title: s.id,
      marksPerItem: 1,
      attemptAny: s.attemptAny ?? null,
      shuffleItems: false,
      shuffleOptions: false,
      fixed: s.items.map((i) => i[0]),
      draws: null,
    });
    const items: SetItem[] = s.items.map(([versionId, content, marks]) => {
      snapshot.items[versionId] = { versionId, itemId: versionId, categoryId: null, difficulty: null, content };
      return { number: ++number, versionId, itemId: versionId, categoryId: null, difficulty: null, marks, options: null, left: null, right: null };
    });
    set.sections.push({ sectionId: s.id, items });
  }
  return { snapshot, set };
}

/** Two sections of two single-choice questions worth 4 marks each (16 marks). */
const twoSectionsOfTwo = () =>
  paper([
    {
      id: 's1',
      items: [
        ['v1', singleChoice, 4],
        ['v2', singleChoice, 4],
      ],
    },
    {
      id: 's2',
      items: [
        ['v3', singleChoice, 4],
        ['v4', singleChoice, 4],
      ],
    },
  ]);

const answers = (entries: Record<number, ItemResponse>) => new Map(Object.entries(entries).map(([k, v]) => [Number(k), v]));

describe('scoreScript: negative marking on the paper scale', () => {
  // Five single-choice items, +4 / −1 in the bank, 4 marks each on the paper: max 20.
  const { snapshot, set } = paper([{ id: 's1', items: [1, 2, 3, 4, 5].map((n) => [`v${n}`, singleChoice, 4] as [string, ItemContent, number]) }]);
  const rows: Array<[label: string, given: Record<number, ItemResponse>, total: number, percent: number, grade: string | null, passed: boolean]> = [
    ['all five right', { 1: 'A', 2: 'A', 3: 'A', 4: 'A', 5: 'A' }, 20, 100, 'A', true],
    ['three right, two wrong: 12 − 2', { 1: 'A', 2: 'A', 3: 'A', 4: 'B', 5: 'C' }, 10, 50, 'B', true],
    ['two right, three unanswered', { 1: 'A', 2: 'A' }, 8, 40, 'C', true],
    ['one right, four wrong: 4 − 4', { 1: 'A', 2: 'B', 3: 'B', 4: 'B', 5: 'B' }, 0, 0, null, false],
    ['all wrong: −5', { 1: 'B', 2: 'B', 3: 'B', 4: 'B', 5: 'B' }, -5, -25, null, false],
    ['nothing answered', {}, 0, 0, null, false],
  ];
  it.each(rows)('should give %s → %d', (_label, given, total, percent, grade, passed) => {
    const s = scoreScript(snapshot, set, answers(given), rules);
    expect(s.total).toBe(total);
    expect(s.maxTotal).toBe(20);
    expect(s.percent).toBe(percent);
    expect(s.grade).toBe(grade);
    expect(s.passed).toBe(passed);
  });

  it('should scale the bank marking to the paper marks (+4 / −1 at 2 marks is +2 / −0.5)', () => {
    const half = paper([
      {
        id: 's1',
        items: [
          ['v1', singleChoice, 2],
          ['v2', singleChoice, 2],
        ],
      },
    ]);
    const s = scoreScript(half.snapshot, half.set, answers({ 1: 'A', 2: 'C' }), rules);
    expect(s.items.map((i) => i.marks)).toEqual([2, -0.5]);
    expect(s.total).toBe(1.5);
    expect(s.items.map((i) => i.outcome)).toEqual(['correct', 'wrong']);
  });

  it('should score an answer of the wrong shape as unanswered instead of failing', () => {
    const s = scoreScript(snapshot, set, answers({ 1: ['A'] as unknown as ItemResponse }), rules);
    expect(s.items[0]).toMatchObject({ marks: 0, outcome: 'unanswered' });
  });
});

describe('scoreScript: attempt any N of M', () => {
  // Section 1: 4 items at 4 marks, any 2 count (max 8). Section 2: one item at 4 marks.
  const { snapshot, set } = paper([
    { id: 's1', attemptAny: 2, items: [1, 2, 3, 4].map((n) => [`a${n}`, singleChoice, 4] as [string, ItemContent, number]) },
    { id: 's2', items: [['b1', singleChoice, 4]] },
  ]);
  const rows: Array<[label: string, given: Record<number, ItemResponse>, section: number, counted: number[], total: number]> = [
    ['all four right: only two count', { 1: 'A', 2: 'A', 3: 'A', 4: 'A' }, 8, [1, 2], 8],
    ['the two right ones count, not the wrong', { 1: 'B', 2: 'A', 3: 'B', 4: 'A', 5: 'A' }, 8, [2, 4], 12],
    ['one right, one unanswered beats the wrong ones', { 1: 'B', 3: 'A', 4: 'B' }, 4, [2, 3], 4],
    ['three wrong, one unanswered: 0 + −1', { 1: 'B', 2: 'B', 3: 'B' }, -1, [1, 4], -1],
    ['nothing answered', {}, 0, [1, 2], 0],
  ];
  it.each(rows)('should count the best two when %s', (_label, given, section, counted, total) => {
    const s = scoreScript(snapshot, set, answers(given), rules);
    expect(s.sections[0]).toEqual({ sectionId: 's1', total: section, maxTotal: 8, attemptAny: 2 });
    expect(s.items.filter((i) => i.sectionId === 's1' && i.counted).map((i) => i.number)).toEqual(counted);
    expect(s.maxTotal).toBe(12);
    expect(s.total).toBe(total);
  });
});

describe('scoreScript: partial credit, essays and the pass rules', () => {
  it('should give partial credit for multiple choice on the paper scale', () => {
    // +4 / −1 in the bank, 1 per correct part given, −1 per wrong part; 8 marks on the paper (×2).
    const partial = { ...multipleChoice, partial: { perCorrect: 1, perWrong: -1, wrongCancels: false } };
    const { snapshot, set } = paper([{ id: 's1', items: [['m1', partial, 8]] }]);
    const at = (given: ItemResponse) => scoreScript(snapshot, set, answers({ 1: given }), rules).items[0];
    expect(at(['A', 'C'])).toMatchObject({ marks: 8, outcome: 'correct' });
    expect(at(['A'])).toMatchObject({ marks: 2, outcome: 'partial' });
    expect(at(['A', 'B'])).toMatchObject({ marks: 0, outcome: 'wrong' });
    expect(at(['B', 'D'])).toMatchObject({ marks: -2, outcome: 'wrong' });
  });

  it('should wait for a person on an answered essay and count their mark once given', () => {
    const { snapshot, set } = paper([
      {
        id: 's1',
        items: [
          ['v1', singleChoice, 4],
          ['e1', essay, 10],
        ],
      },
    ]);
    const waiting = scoreScript(snapshot, set, answers({ 1: 'A', 2: 'Water evaporates and condenses.' }), rules);
    expect(waiting.awaitingMarking).toEqual([2]);
    expect(waiting.items[1]).toMatchObject({ marks: null, needsHumanMarking: true, outcome: 'awaitingMarking' });
    expect(waiting.total).toBe(4);
    const marked = scoreScript(snapshot, set, answers({ 1: 'A', 2: 'Water evaporates and condenses.' }), rules, new Map([[2, 6.5]]));
    expect(marked.awaitingMarking).toEqual([]);
    expect(marked.items[1]).toMatchObject({ marks: 6.5, outcome: 'partial' });
    expect(marked.total).toBe(10.5);
    expect(marked.percent).toBe(75);
    expect(marked.grade).toBe('A');
  });

  it('should not wait for a person on an unanswered essay', () => {
    const { snapshot, set } = paper([{ id: 's1', items: [['e1', essay, 10]] }]);
    const s = scoreScript(snapshot, set, answers({}), rules);
    expect(s.awaitingMarking).toEqual([]);
    expect(s.items[0]).toMatchObject({ marks: 0, outcome: 'unanswered' });
  });

  it('should send an answered item set to human marking to a person, and score it unanswered when it is not answered', () => {
    const byPerson: ItemContent = { ...singleChoice, marking: { ...singleChoice.marking, byPerson: true } };
    const { snapshot, set } = paper([
      {
        id: 's1',
        items: [
          ['v1', singleChoice, 4],
          ['h1', byPerson, 4],
          ['h2', byPerson, 4],
        ],
      },
    ]);
    // Question 2 is answered wrongly: no automatic −1, it waits; question 3 is left: 0 as the bank says.
    const waiting = scoreScript(snapshot, set, answers({ 1: 'A', 2: 'B' }), rules);
    expect(waiting.awaitingMarking).toEqual([2]);
    expect(waiting.items.map((i) => [i.marks, i.outcome, i.needsHumanMarking])).toEqual([
      [4, 'correct', false],
      [null, 'awaitingMarking', true],
      [0, 'unanswered', false],
    ]);
    expect(waiting.total).toBe(4);
    const marked = scoreScript(snapshot, set, answers({ 1: 'A', 2: 'B' }), rules, new Map([[2, 3]]));
    expect(marked.items[1]).toMatchObject({ marks: 3, outcome: 'partial' });
    expect(marked.total).toBe(7);
  });

  it('should fail a candidate below the section minimum even above the pass mark', () => {
    const { snapshot, set } = twoSectionsOfTwo();
    const given = answers({ 1: 'A', 2: 'A', 3: 'A' }); // 12 of 16 = 75 %, section 2 at 50 %
    expect(scoreScript(snapshot, set, given, rules).passed).toBe(true);
    expect(scoreScript(snapshot, set, given, { ...rules, sectionMinimumPercent: 60 }).passed).toBe(false);
  });

  it('should use a corrected key in place of the locked one', () => {
    const { snapshot, set } = paper([{ id: 's1', items: [['v1', singleChoice, 4]] }]);
    expect(scoreScript(snapshot, set, answers({ 1: 'B' }), rules).total).toBe(-1);
    expect(scoreScript(snapshot, set, answers({ 1: 'B' }), rules, new Map(), { v1: { ...singleChoice, correct: 'B' } }).total).toBe(4);
  });

  it('should take the grade of the highest band reached, whatever order the bands are in', () => {
    const bands = [
      { grade: 'C', minPercent: 40 },
      { grade: 'A', minPercent: 75 },
      { grade: 'B', minPercent: 50 },
    ];
    expect([gradeOf(bands, 80), gradeOf(bands, 75), gradeOf(bands, 74.99), gradeOf(bands, 40), gradeOf(bands, 39)]).toEqual(['A', 'A', 'B', 'C', null]);
  });
});

describe('scoreScript: the edges of the marking rules', () => {
  it("should keep a person's mark within 0 … the item's marks and take the outcome from it", () => {
    // Four answered essays of 10 marks: full marks, nothing, more than the item gives, less than nothing.
    const { snapshot, set } = paper([{ id: 's1', items: [1, 2, 3, 4].map((n) => [`e${n}`, essay, 10] as [string, ItemContent, number]) }]);
    const text = 'Water evaporates and condenses.';
    const marks = new Map([
      [1, 10],
      [2, 0],
      [3, 12],
      [4, -2],
    ]);
    const s = scoreScript(snapshot, set, answers({ 1: text, 2: text, 3: text, 4: text }), rules, marks);
    expect(s.items.map((i) => [i.marks, i.outcome])).toEqual([
      [10, 'correct'],
      [0, 'wrong'],
      [10, 'correct'],
      [0, 'wrong'],
    ]);
    expect(s.awaitingMarking).toEqual([]);
    expect(s.total).toBe(20);
    expect(s.maxTotal).toBe(40);
  });

  it('should take the N highest maxima as the maximum of an "any N of M" section, whichever items count', () => {
    // Items of 2, 5 and 3 marks, any 2 count: the maximum is 5 + 3 = 8.
    const { snapshot, set } = paper([
      {
        id: 's1',
        attemptAny: 2,
        items: [
          ['v1', singleChoice, 2],
          ['v2', singleChoice, 5],
          ['v3', singleChoice, 3],
        ],
      },
    ]);
    const all = scoreScript(snapshot, set, answers({ 1: 'A', 2: 'A', 3: 'A' }), rules);
    expect(all.sections).toEqual([{ sectionId: 's1', total: 8, maxTotal: 8, attemptAny: 2 }]);
    expect(all.items.filter((i) => i.counted).map((i) => i.number)).toEqual([2, 3]);
    // Only the 2-mark item answered (right): it counts with one unanswered item (question order breaks the tie at 0).
    const one = scoreScript(snapshot, set, answers({ 1: 'A' }), rules);
    expect(one.sections).toEqual([{ sectionId: 's1', total: 2, maxTotal: 8, attemptAny: 2 }]);
    expect(one.items.filter((i) => i.counted).map((i) => i.number)).toEqual([1, 2]);
    expect(one.percent).toBe(25);
  });

  it('should pass a section exactly at the minimum, and apply no minimum when it is null', () => {
    const { snapshot, set } = twoSectionsOfTwo();
    // 12 of 16 = 75 %, section 2 at 4 of 8 = 50 %: not below a minimum of 50.
    expect(scoreScript(snapshot, set, answers({ 1: 'A', 2: 'A', 3: 'A' }), { ...rules, sectionMinimumPercent: 50 }).passed).toBe(true);
    // Section 1: −1 + 0 of 8 (below 0 %), section 2: 8 of 8; 7 of 16 = 43.75 % ≥ 40.
    const given = answers({ 1: 'B', 3: 'A', 4: 'A' });
    const noMinimum = scoreScript(snapshot, set, given, { ...rules, sectionMinimumPercent: null });
    expect(noMinimum.sections.map((s) => s.total)).toEqual([-1, 8]);
    expect(noMinimum.percent).toBe(43.75);
    expect(noMinimum.passed).toBe(true);
    // A minimum of 0 % fails the section below nothing.
    expect(scoreScript(snapshot, set, given, { ...rules, sectionMinimumPercent: 0 }).passed).toBe(false);
  });

  it('should give 0 % to a paper with no marks to earn', () => {
    const { snapshot, set } = paper([{ id: 's1', items: [] }]);
    const s = scoreScript(snapshot, set, answers({}), rules);
    expect(s).toMatchObject({ total: 0, maxTotal: 0, percent: 0, grade: null, passed: false });
    expect(s.sections).toEqual([{ sectionId: 's1', total: 0, maxTotal: 0, attemptAny: null }]);
  });

  it('should take every mark of a paper sat on paper from a person, answered or not, instead of the automatic marking', () => {
    const { snapshot, set } = paper([
      {
        id: 's1',
        items: [
          ['v1', singleChoice, 4],
          ['v2', singleChoice, 4],
          ['v3', singleChoice, 4],
        ],
      },
    ]);
    // Question 1 has a (wrong) stored answer: no automatic −1; no marks entered yet, every question waits.
    const waiting = scoreScript(snapshot, set, answers({ 1: 'B' }), rules, new Map(), {}, true);
    expect(waiting.awaitingMarking).toEqual([1, 2, 3]);
    // Each waits for its mark, whatever the automatic marking would have said (question 1: wrong).
    expect(waiting.items.map((i) => [i.marks, i.needsHumanMarking, i.outcome])).toEqual([
      [null, true, 'awaitingMarking'],
      [null, true, 'awaitingMarking'],
      [null, true, 'awaitingMarking'],
    ]);
    expect(waiting.total).toBe(0);
    // Marks entered for questions 1 and 2; question 3 still waits.
    const entered = scoreScript(
      snapshot,
      set,
      answers({ 1: 'B' }),
      rules,
      new Map([
        [1, 4],
        [2, 1.5],
      ]),
      {},
      true,
    );
    expect(entered.awaitingMarking).toEqual([3]);
    expect(entered.items.slice(0, 2).map((i) => [i.marks, i.outcome])).toEqual([
      [4, 'correct'],
      [1.5, 'partial'],
    ]);
    expect(entered.total).toBe(5.5);
  });
});

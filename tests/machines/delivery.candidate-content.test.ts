import { describe, expect, it } from 'vitest';
import { candidateContent } from '#machines/delivery.machine.ts';

/**
 * What a candidate's browser gets of an item (candidateContent): every kind keeps its shape and
 * what the screen shows — options, left and right columns, gap lengths — but not its answer key.
 */
const variants = {
  en: { stem: '<p>Q?</p>', choices: { A: 'one', B: 'two' }, rubric: 'Give 1 mark for A' },
  hi: { stem: '<p>प्र?</p>', rubric: null },
};
const shownVariants = { en: { stem: '<p>Q?</p>', choices: { A: 'one', B: 'two' } }, hi: { stem: '<p>प्र?</p>' } };
const common = { variants, marking: { correct: 1, wrong: 0, unanswered: 0 }, media: [] };
const options = [
  { id: 'A', keepLast: false },
  { id: 'B', keepLast: false },
];
const shownCommon = { variants: shownVariants, marking: common.marking, media: [] };

describe('candidate content', () => {
  it.each([
    ['singleChoice', { options, correct: 'A', shuffle: true }, { options, correct: '', shuffle: true }],
    [
      'multipleChoice',
      { options, correct: ['A', 'B'], shuffle: false, partial: { perCorrect: 1, perWrong: 0, wrongCancels: true } },
      { options, correct: [], shuffle: false, partial: null },
    ],
    ['trueFalse', { correct: true }, { correct: false }],
    ['numeric', { answer: 47, tolerance: { mode: 'relative', value: 5 } }, { answer: 0, tolerance: { mode: 'absolute', value: 0 } }],
    ['shortText', { answers: [{ text: 'concave', caseSensitive: false, credit: 1 }], expectedLength: 20 }, { answers: [], expectedLength: 20 }],
    [
      'fillInBlanks',
      { gaps: [{ id: 'G1', answers: [{ text: 'perpendicular', caseSensitive: false }], expectedLength: 15 }], partial: { perCorrect: 1 } },
      { gaps: [{ id: 'G1', answers: [], expectedLength: 15 }], partial: null },
    ],
    [
      'matching',
      { left: options, right: options, pairs: [{ left: 'A', right: 'B' }], shuffle: true, partial: { perCorrect: 1 } },
      { left: options, right: options, pairs: [], shuffle: true, partial: null },
    ],
    ['ordering', { options, correctOrder: ['B', 'A'], shuffle: true }, { options, correctOrder: [], shuffle: true }],
  ])('should show a %s item without its answer key or rubric', (kind, fields, shown) => {
    expect(candidateContent({ kind, ...common, ...fields })).toEqual({ kind, ...shownCommon, ...shown });
  });

  it('should leave the item it was given as it was', () => {
    const item = { kind: 'ordering', ...common, options, correctOrder: ['B', 'A'], shuffle: true };
    candidateContent(item);
    expect(item.correctOrder).toEqual(['B', 'A']);
    expect(item.variants.en.rubric).toBe('Give 1 mark for A');
  });
});

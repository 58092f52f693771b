import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { checkItemContent, isValidItemContent } from '#machines/items/item-validate.ts';
import { itemContent } from './support/arbitraries.ts';
import { fillInBlanks, matching, multipleChoice, ordering, sampleItems, shortText, singleChoice } from './support/sample-items.ts';

const messages = (value: unknown) => checkItemContent(value).map((i) => `${i.path}: ${i.message}`);

describe('checkItemContent', () => {
  it('should accept the sample item of every kind', () => {
    for (const item of sampleItems) expect(messages(item)).toEqual([]);
  });

  it('should accept every generated item', () => {
    fc.assert(
      fc.property(itemContent, (item) => {
        expect(messages(item)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('should name the kinds when the kind is unknown', () => {
    expect(messages({ kind: 'hotspot' })).toEqual([
      '/kind: kind must be one of singleChoice, multipleChoice, trueFalse, numeric, shortText, fillInBlanks, matching, ordering, essay',
    ]);
  });

  it('should refuse a property the kind does not have', () => {
    expect(messages({ ...singleChoice, gaps: [] })).toEqual(['/gaps: is not a property of a singleChoice item']);
  });

  it('should refuse positive marks for a wrong answer', () => {
    expect(messages({ ...singleChoice, marking: { correct: 4, wrong: 1, unanswered: 0 } })).toEqual(['/marking/wrong: must be <= 0']);
  });

  it.each<[string, ItemContent, string]>([
    ['the key is not an option', { ...singleChoice, correct: 'Z' }, '/correct: the correct option is not one of the options'],
    [
      'a kept-last option is followed by a normal one',
      {
        ...singleChoice,
        options: [
          { id: 'A', keepLast: true },
          { id: 'B', keepLast: false },
          { id: 'C', keepLast: false },
          { id: 'D', keepLast: false },
        ],
      },
      '/options: options kept last must come after all the others',
    ],
    [
      'option ids repeat',
      {
        ...singleChoice,
        options: [
          { id: 'A', keepLast: false },
          { id: 'A', keepLast: false },
        ],
      },
      '/options: option ids must be unique in the item',
    ],
    ['maxChoices is below the key', { ...multipleChoice, maxChoices: 1 }, '/maxChoices: maxChoices is smaller than the number of correct options'],
    ['the order misses an option', { ...ordering, correctOrder: ['A', 'M'] }, '/correctOrder: the correct order must list every option once'],
    ['a pair names a missing member', { ...matching, pairs: [{ left: 'GJ', right: 'XX' }] }, '/pairs/0: a pair names a member that does not exist'],
    [
      'no answer earns full marks',
      { ...shortText, answers: [{ text: 'Paris', caseSensitive: false, credit: 0.5 }] },
      '/answers: at least one accepted answer must earn full marks',
    ],
    [
      'an answer is already accepted by an earlier one',
      {
        ...shortText,
        answers: [
          { text: 'Paris', caseSensitive: false, credit: 1 },
          { text: 'PARIS', caseSensitive: true, credit: 0.5 },
        ],
      },
      '/answers/1: "PARIS" is already accepted by an earlier answer',
    ],
    [
      'a gap is missing from a language',
      { ...fillInBlanks, variants: { ...fillInBlanks.variants, hi: { stem: '<p><span data-gap="G1"></span></p>' } } },
      '/variants/hi/stem: the text must hold every gap exactly once',
    ],
    [
      'a gap id is reserved',
      {
        ...fillInBlanks,
        gaps: [{ ...fillInBlanks.gaps[0], id: 'SCORE' }, fillInBlanks.gaps[1]],
        variants: { en: { stem: '<span data-gap="SCORE"></span><span data-gap="G2"></span>' } },
      },
      '/gaps/0/id: SCORE cannot be a gap id',
    ],
    [
      'a language lacks an option text',
      { ...singleChoice, variants: { ...singleChoice.variants, gu: { stem: '<p>?</p>', choices: { A: 'બુધ' } } } },
      '/variants/gu/choices: every option needs its text in this language',
    ],
    [
      'an image is not among the media',
      { ...singleChoice, variants: { en: { ...singleChoice.variants.en, stem: '<img src="media:x.png">' } } },
      "/variants/en: media:x.png is not among the item's media",
    ],
  ])('should refuse an item when %s', (_, item, message) => {
    expect(messages(item)).toContain(message);
    expect(isValidItemContent(item)).toBe(false);
  });

  it('should refuse a language key that is not a language tag', () => {
    expect(messages({ ...singleChoice, variants: { EN: singleChoice.variants.en } })).toEqual(['/variants/EN: is not a language tag (en, hi, gu, …)']);
  });

  it('should accept an item with a language variant missing', () => {
    expect(messages({ ...singleChoice, variants: { hi: singleChoice.variants.hi } })).toEqual([]);
  });

  it('should refuse an item with no language at all', () => {
    expect(messages({ ...singleChoice, variants: {} })).toContain('/variants: at least one language variant is needed');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { checkItemContent, isValidItemContent } from '#machines/items/item-validate.ts';
import { itemContent } from './support/arbitraries.ts';
import { essay, fillInBlanks, matching, multipleChoice, numeric, ordering, sampleItems, shortText, singleChoice, trueFalse } from './support/sample-items.ts';

const messages = (value: unknown) => checkItemContent(value).map((i) => `${i.path}: ${i.message}`);

describe('checkItemContent', () => {
  it('should accept the sample item of every kind', () => {
    for (const item of sampleItems) {
      expect(messages(item)).toEqual([]);
      expect(isValidItemContent(item)).toBe(true);
    }
  });

  it('should name the kinds for a value that is not an object at all', () => {
    const kinds = ['/kind: kind must be one of singleChoice, multipleChoice, trueFalse, numeric, shortText, fillInBlanks, matching, ordering, essay'];
    expect([messages(null), messages(undefined), messages('singleChoice')]).toEqual([kinds, kinds, kinds]);
  });

  it('should call a stray property inside a language variant a property, not a language', () => {
    expect(messages({ ...singleChoice, variants: { en: { ...singleChoice.variants.en, notes: 'x' } } })).toEqual([
      '/variants/en/notes: is not a property of a singleChoice item',
    ]);
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

/**
 * Every rule beyond the schema, one item breaking it (or standing on its boundary), and the whole
 * list of issues expected: nothing more is reported than the one rule broken.
 */
describe('checkItemContent: each rule and its boundary', () => {
  const english = <T extends ItemContent>(item: T, en: Partial<T['variants'][string]> = {}): T => ({
    ...item,
    variants: { en: { ...item.variants.en, ...en } },
  });
  const picture = (key: string) => ({ key, categoryFileId: null, fileName: 'map.png', mimeType: 'image/png' });

  it.each<[string, unknown, string[]]>([
    ['a correct option is listed twice', { ...multipleChoice, correct: ['A', 'A'] }, ['/correct: correct options are listed twice']],
    ['a correct option is not an option', { ...multipleChoice, correct: ['A', 'Z'] }, ['/correct: a correct option is not one of the options']],
    ['minChoices is above maxChoices', { ...multipleChoice, minChoices: 3, maxChoices: 2 }, ['/minChoices: minChoices is above maxChoices']],
    ['maxChoices equals the key and minChoices equals maxChoices', { ...multipleChoice, minChoices: 2, maxChoices: 2 }, []],
    ['maxChoices is 0 (no limit) whatever minChoices', { ...multipleChoice, minChoices: 3, maxChoices: 0 }, []],
    [
      'a kept-last option is followed by a normal one in multiple choice',
      { ...multipleChoice, options: [{ id: 'A', keepLast: true }, ...multipleChoice.options.slice(1)] },
      ['/options: options kept last must come after all the others'],
    ],
    ['all options are kept last', { ...singleChoice, options: singleChoice.options.map((o) => ({ ...o, keepLast: true })) }, []],
    ['the order lists an option twice', { ...ordering, correctOrder: ['A', 'A', 'M'] }, ['/correctOrder: the correct order must list every option once']],
    [
      'the order lists an option that is not one',
      { ...ordering, correctOrder: ['A', 'M', 'X'] },
      ['/correctOrder: the correct order must list every option once'],
    ],
    [
      'the order is longer than the options',
      { ...ordering, correctOrder: ['A', 'M', 'C', 'C'] },
      ['/correctOrder: the correct order must list every option once'],
    ],
    [
      'a kept-last option leads an ordering',
      { ...ordering, options: [{ id: 'C', keepLast: true }, ...ordering.options.slice(1)] },
      ['/options: options kept last must come after all the others'],
    ],
    ['a pair is listed twice', { ...matching, pairs: [matching.pairs[0], matching.pairs[1], matching.pairs[0]] }, ['/pairs/2: a pair is listed twice']],
    ['a pair names a missing right member', { ...matching, pairs: [{ left: 'GJ', right: 'XX' }] }, ['/pairs/0: a pair names a member that does not exist']],
    [
      'a kept-last member leads the left column',
      { ...matching, left: [{ id: 'GJ', keepLast: true }, ...matching.left.slice(1)] },
      ['/left: options kept last must come after all the others'],
    ],
    [
      'a kept-last member leads the right column',
      { ...matching, right: [{ id: 'GAN', keepLast: true }, ...matching.right.slice(1)] },
      ['/right: options kept last must come after all the others'],
    ],
    [
      'an essay has marks for wrong',
      { ...essay, marking: { ...essay.marking, wrong: -1 } },
      ['/marking/wrong: an essay is marked by people from 0 up; it has no marks for wrong'],
    ],
    ['a rubric is given to another kind', english(singleChoice, { rubric: '<p>Mercury</p>' }), ['/variants/en/rubric: only essays have a rubric']],
    [
      'a later answer differs only in case from a case-insensitive one',
      {
        ...shortText,
        answers: [
          { text: 'Paris', caseSensitive: false, credit: 1 },
          { text: 'paris', caseSensitive: false, credit: 0.5 },
        ],
      },
      ['/answers/1: "paris" is already accepted by an earlier answer'],
    ],
    [
      'a case-sensitive answer repeats another, around spaces',
      {
        ...shortText,
        answers: [
          { text: 'Paris', caseSensitive: true, credit: 1 },
          { text: ' Paris ', caseSensitive: true, credit: 0.5 },
        ],
      },
      ['/answers/1: " Paris " is already accepted by an earlier answer'],
    ],
    [
      'a case-sensitive answer comes after another case of the same word',
      {
        ...shortText,
        answers: [
          { text: 'Paris', caseSensitive: true, credit: 1 },
          { text: 'PARIS', caseSensitive: true, credit: 0.5 },
          { text: 'paris', caseSensitive: false, credit: 0.5 },
        ],
      },
      [],
    ],
    [
      'a gap answer is already accepted',
      {
        ...fillInBlanks,
        gaps: [
          {
            ...fillInBlanks.gaps[0],
            answers: [
              { text: 'hydrogen', caseSensitive: false },
              { text: 'Hydrogen', caseSensitive: true },
            ],
          },
          fillInBlanks.gaps[1],
        ],
      },
      ['/gaps/0/answers/1: "Hydrogen" is already accepted by an earlier answer'],
    ],
    [
      'two gaps share an id',
      english(
        { ...fillInBlanks, gaps: [fillInBlanks.gaps[0], { ...fillInBlanks.gaps[1], id: 'G1' }] },
        { stem: '<p><span data-gap="G1"></span> <span data-gap="G1"></span></p>' },
      ),
      ['/gaps: gap ids must be unique'],
    ],
    [
      'a gap id is one QTI reserves',
      english(
        { ...fillInBlanks, gaps: [{ ...fillInBlanks.gaps[0], id: 'RESPONSE' }, fillInBlanks.gaps[1]] },
        { stem: '<p><span data-gap="RESPONSE"></span><span data-gap="G2"></span></p>' },
      ),
      ['/gaps/0/id: RESPONSE cannot be a gap id'],
    ],
    ['the gaps stand in another order in a text', english(fillInBlanks, { stem: '<p><span data-gap="G2"></span> <span data-gap="G1"></span></p>' }), []],
    [
      'an answer repeats an earlier one around spaces, either case rule',
      {
        ...shortText,
        answers: [
          { text: ' Paris ', caseSensitive: false, credit: 1 },
          { text: 'paris ', caseSensitive: false, credit: 0.5 },
          { text: ' PARIS', caseSensitive: true, credit: 0.5 },
        ],
      },
      ['/answers/1: "paris " is already accepted by an earlier answer', '/answers/2: " PARIS" is already accepted by an earlier answer'],
    ],
    [
      'a case-sensitive answer repeats an earlier case-sensitive one with spaces',
      {
        ...shortText,
        answers: [
          { text: ' Paris', caseSensitive: true, credit: 1 },
          { text: 'Paris', caseSensitive: true, credit: 0.5 },
        ],
      },
      ['/answers/1: "Paris" is already accepted by an earlier answer'],
    ],
    [
      'a text holds a gap twice',
      english(fillInBlanks, { stem: '<p><span data-gap="G1"></span><span data-gap="G2"></span><span data-gap="G2"></span></p>' }),
      ['/variants/en/stem: the text must hold every gap exactly once'],
    ],
    ['a short answer shows its box once', english(shortText, { stem: '<p>Capital? <span data-gap="RESPONSE"></span></p>' }), []],
    [
      'a short answer shows its box twice',
      english(shortText, { stem: '<p><span data-gap="RESPONSE"></span><span data-gap="RESPONSE"></span></p>' }),
      ['/variants/en/stem: the answer box may appear once, as data-gap="RESPONSE"'],
    ],
    [
      'a numeric answer names its box otherwise',
      english(numeric, { stem: '<p>g = <span data-gap="G1"></span></p>' }),
      ['/variants/en/stem: the answer box may appear once, as data-gap="RESPONSE"'],
    ],
    [
      'a choice item has a gap',
      english(singleChoice, { stem: '<p><span data-gap="RESPONSE"></span></p>' }),
      ['/variants/en/stem: only text-entry kinds have gaps'],
    ],
    ['true/false has option texts', english(trueFalse, { choices: { A: 'yes' } }), ['/variants/en/choices: this kind has no options']],
    [
      'a language has an option text too many',
      english(singleChoice, { choices: { ...singleChoice.variants.en.choices, E: 'Mars' } }),
      ['/variants/en/choices: every option needs its text in this language'],
    ],
    [
      'a language names another option instead of one',
      english(singleChoice, { choices: { A: 'Mercury', B: 'Venus', C: 'Earth', E: 'Mars' } }),
      ['/variants/en/choices: every option needs its text in this language'],
    ],
    ['two media share a key', { ...singleChoice, media: [picture('map.png'), picture('map.png')] }, ['/media: media keys must be unique']],
    [
      'media are used in an option text and a rubric',
      {
        ...essay,
        media: [picture('rubric.png')],
        variants: { en: { ...essay.variants.en, rubric: '<img src="media:rubric.png"><a href="media:notes.pdf">notes</a>' } },
      },
      ["/variants/en: media:notes.pdf is not among the item's media"],
    ],
    [
      'an option text uses media that are not there',
      english(singleChoice, { choices: { ...singleChoice.variants.en.choices, B: '<img src="media:venus.png">' } }),
      ["/variants/en: media:venus.png is not among the item's media"],
    ],
  ])('should report exactly the broken rule when %s', (_, item, expected) => {
    expect(messages(item)).toEqual(expected);
  });

  it('should report the first eight schema errors only, and name the whole item as /', () => {
    const options = Array.from({ length: 25 }, (_, i) => ({ id: `${i}x`, keepLast: false }));
    expect(messages({ ...singleChoice, options })).toEqual(
      Array.from({ length: 8 }, (_, i) => `/options/${i}/id: must match pattern "^[A-Za-z_][A-Za-z0-9_.-]*$"`),
    );
    expect(messages({ kind: 'trueFalse' })).toEqual(['/: must have required properties variants, marking, media, correct']);
  });
});

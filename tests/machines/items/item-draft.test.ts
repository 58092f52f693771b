import { describe, expect, it } from 'vitest';
import {
  addChoice,
  addGap,
  addVariant,
  blankItem,
  changeKind,
  languagesToShow,
  move,
  nextId,
  removeChoice,
  removeGap,
  removeVariant,
  setText,
  toggleCorrect,
  toggleKeepLast,
  togglePair,
} from '#machines/items/item-draft.ts';
import { ITEM_KINDS, type ItemContent, type ItemOf } from '#machines/items/item-schema.ts';
import { checkItemContent } from '#machines/items/item-validate.ts';
import { score } from '#machines/items/score.ts';

/** Fills every empty text so the server's validator judges structure only. */
function filled(item: ItemContent): ItemContent {
  const variants = Object.fromEntries(
    Object.entries(item.variants).map(([lang, v]) => [
      lang,
      {
        ...v,
        stem: v.stem || `<p>Question in ${lang}</p>`,
        ...(v.choices ? { choices: Object.fromEntries(Object.entries(v.choices).map(([id, text]) => [id, text || `<p>${id} ${lang}</p>`])) } : {}),
      },
    ]),
  );
  return { ...item, variants } as ItemContent;
}

describe('item drafts (the editor edits)', () => {
  it.each(ITEM_KINDS)('should start a %s item that the server validator accepts once texts are written, in two languages', (kind) => {
    const item = filled(blankItem(kind, ['en', 'hi']));
    expect(item.kind).toBe(kind);
    expect(Object.keys(item.variants)).toEqual(['en', 'hi']);
    expect(checkItemContent(item)).toEqual([]);
  });

  it('should number new ids past the taken ones', () => {
    expect(nextId([])).toBe('A');
    expect(nextId(['A', 'B', 'D'])).toBe('C');
    expect(nextId([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'])).toBe('X27');
    expect(nextId(['L1', 'L3'], 'L')).toBe('L2');
  });

  it('should add an option with an empty text in every language, before the kept-last options', () => {
    let item = filled(blankItem('singleChoice', ['en', 'hi']));
    item = toggleKeepLast(item, 'B');
    expect((item as ItemOf<'singleChoice'>).options.map((o) => o.id)).toEqual(['A', 'C', 'D', 'B']);
    item = addChoice(item);
    const single = item as ItemOf<'singleChoice'>;
    expect(single.options.map((o) => o.id)).toEqual(['A', 'C', 'D', 'E', 'B']);
    expect(single.variants.en.choices?.E).toBe('');
    expect(single.variants.hi.choices?.E).toBe('');
    expect(checkItemContent(filled(item))).toEqual([]);
  });

  it('should remove an option with its texts and move the key to a remaining option', () => {
    const item = removeChoice(filled(blankItem('singleChoice', ['en'])), 'A') as ItemOf<'singleChoice'>;
    expect(item.options.map((o) => o.id)).toEqual(['B', 'C', 'D']);
    expect(item.correct).toBe('B');
    expect(item.variants.en.choices).not.toHaveProperty('A');
    expect(checkItemContent(item)).toEqual([]);
    // Never fewer than two options.
    const two = removeChoice(removeChoice(item, 'B'), 'C');
    expect(removeChoice(two, 'D')).toBe(two);
  });

  it('should toggle correct options of multiple choice in option order and never leave none', () => {
    let item = filled(blankItem('multipleChoice', ['en'])) as ItemOf<'multipleChoice'>;
    item = toggleCorrect(item, 'C') as ItemOf<'multipleChoice'>;
    expect(item.correct).toEqual(['A', 'C']);
    item = toggleCorrect(item, 'A') as ItemOf<'multipleChoice'>;
    expect(item.correct).toEqual(['C']);
    expect(toggleCorrect(item, 'C')).toBe(item);
    expect(score(item, ['C']).outcome).toBe('correct');
  });

  it('should keep the ordering key in step with its options', () => {
    let item = filled(blankItem('ordering', ['en'])) as ItemOf<'ordering'>;
    item = { ...item, correctOrder: move(item.correctOrder, 0, 1) };
    expect(item.correctOrder).toEqual(['B', 'A', 'C', 'D']);
    item = addChoice(item) as ItemOf<'ordering'>;
    expect(item.correctOrder).toEqual(['B', 'A', 'C', 'D', 'E']);
    item = removeChoice(item, 'A') as ItemOf<'ordering'>;
    expect(item.correctOrder).toEqual(['B', 'C', 'D', 'E']);
    expect(checkItemContent(filled(item))).toEqual([]);
    expect(score(item, ['B', 'C', 'D', 'E']).outcome).toBe('correct');
  });

  it('should add and remove gaps with their placeholders in every language', () => {
    let item = blankItem('fillInBlanks', ['en', 'gu']) as ItemOf<'fillInBlanks'>;
    item = addGap(item) as ItemOf<'fillInBlanks'>;
    expect(item.gaps.map((g) => g.id)).toEqual(['G1', 'G2']);
    expect(item.variants.gu.stem).toContain('data-gap="G2"');
    expect(checkItemContent(item)).toEqual([]);
    item = removeGap(item, 'G1') as ItemOf<'fillInBlanks'>;
    expect(item.gaps.map((g) => g.id)).toEqual(['G2']);
    expect(item.variants.en.stem).not.toContain('G1');
    expect(checkItemContent(item)).toEqual([]);
    expect(removeGap(item, 'G2')).toBe(item);
  });

  it('should toggle matching pairs and drop pairs of a removed entry', () => {
    let item = filled(blankItem('matching', ['en'])) as ItemOf<'matching'>;
    item = togglePair(item, 'L1', 'R2') as ItemOf<'matching'>;
    expect(item.pairs).toContainEqual({ left: 'L1', right: 'R2' });
    item = removeChoice(item, 'R2', 'right') as ItemOf<'matching'>;
    expect(item.pairs).toEqual([{ left: 'L1', right: 'R1' }]);
    expect(checkItemContent(item)).toEqual([]);
  });

  it('should add a missing language with every option and remove it again, never the last one', () => {
    const item = filled(blankItem('singleChoice', ['en']));
    const withHindi = addVariant(item, 'hi');
    expect(Object.keys(withHindi.variants.hi.choices ?? {})).toEqual(['A', 'B', 'C', 'D']);
    expect(languagesToShow(item, ['en', 'hi', 'gu'])).toEqual([
      { language: 'en', present: true },
      { language: 'hi', present: false },
      { language: 'gu', present: false },
    ]);
    expect(removeVariant(withHindi, 'hi')).toEqual(item);
    expect(removeVariant(item, 'en')).toBe(item);
  });

  it('should set one field of one language only', () => {
    const item = setText(filled(blankItem('essay', ['en', 'hi'])), 'hi', { rubric: '<p>रूब्रिक</p>' });
    expect(item.variants.hi.rubric).toBe('<p>रूब्रिक</p>');
    expect(item.variants.en.rubric).toBe('');
    expect(setText(item, 'gu', { stem: 'x' })).toBe(item);
  });

  it('should change the kind keeping stems and marks', () => {
    const single = setText(blankItem('singleChoice', ['en'], { correct: 4, wrong: -1, unanswered: 0 }), 'en', { stem: '<p>How many?</p>' });
    const numeric = changeKind(single, 'numeric');
    expect(numeric.kind).toBe('numeric');
    expect(numeric.variants.en.stem).toBe('<p>How many?</p>');
    expect(numeric.marking).toEqual({ correct: 4, wrong: -1, unanswered: 0 });
    const essay = changeKind(single, 'essay');
    expect(essay.marking.wrong).toBe(0);
    expect(checkItemContent(essay)).toEqual([]);
  });
});

/** The edits again, each result stated in full, and each edit that must leave the item as it is. */
describe('item drafts: exact results and edits that change nothing', () => {
  const options = (...ids: string[]) => ids.map((id) => ({ id, keepLast: false }));
  const texts = (...ids: string[]) => Object.fromEntries(ids.map((id) => [id, '']));
  const base = { marking: { correct: 1, wrong: 0, unanswered: 0 }, media: [] };

  it.each<[string, ItemContent]>([
    [
      'singleChoice',
      {
        kind: 'singleChoice',
        ...base,
        variants: { en: { stem: '', choices: texts('A', 'B', 'C', 'D') } },
        options: options('A', 'B', 'C', 'D'),
        correct: 'A',
        shuffle: true,
      },
    ],
    [
      'multipleChoice',
      {
        kind: 'multipleChoice',
        ...base,
        variants: { en: { stem: '', choices: texts('A', 'B', 'C', 'D') } },
        options: options('A', 'B', 'C', 'D'),
        correct: ['A'],
        minChoices: 0,
        maxChoices: 0,
        shuffle: true,
        partial: null,
      },
    ],
    ['trueFalse', { kind: 'trueFalse', ...base, variants: { en: { stem: '' } }, correct: true }],
    ['numeric', { kind: 'numeric', ...base, variants: { en: { stem: '' } }, answer: 0, tolerance: { mode: 'absolute', value: 0 } }],
    [
      'shortText',
      { kind: 'shortText', ...base, variants: { en: { stem: '' } }, answers: [{ text: 'answer', caseSensitive: false, credit: 1 }], expectedLength: 20 },
    ],
    [
      'fillInBlanks',
      {
        kind: 'fillInBlanks',
        ...base,
        variants: { en: { stem: '<p><span data-gap="G1"></span></p>' } },
        gaps: [{ id: 'G1', answers: [{ text: 'answer', caseSensitive: false }], expectedLength: 10 }],
        partial: null,
      },
    ],
    [
      'matching',
      {
        kind: 'matching',
        ...base,
        variants: { en: { stem: '', choices: texts('L1', 'L2', 'R1', 'R2') } },
        left: options('L1', 'L2'),
        right: options('R1', 'R2'),
        pairs: [
          { left: 'L1', right: 'R1' },
          { left: 'L2', right: 'R2' },
        ],
        shuffle: true,
        partial: null,
      },
    ],
    [
      'ordering',
      {
        kind: 'ordering',
        ...base,
        variants: { en: { stem: '', choices: texts('A', 'B', 'C', 'D') } },
        options: options('A', 'B', 'C', 'D'),
        correctOrder: ['A', 'B', 'C', 'D'],
        shuffle: true,
      },
    ],
    ['essay', { kind: 'essay', ...base, variants: { en: { stem: '', rubric: '' } }, wordLimit: 300 }],
  ])('should start a %s item as stated', (kind, expected) => {
    expect(blankItem(kind as ItemContent['kind'], ['en'])).toEqual(expected);
  });

  it('should give an essay no marks for wrong even when the marking asked has some, and copy the marking', () => {
    const marking = { correct: 10, wrong: -2, unanswered: -1 };
    const essay = blankItem('essay', ['en'], marking);
    expect(essay.marking).toEqual({ correct: 10, wrong: 0, unanswered: -1 });
    expect(blankItem('numeric', ['en'], marking).marking).not.toBe(marking);
  });

  it('should find the next free id with and without a prefix', () => {
    expect(nextId(['L1', 'L2'], 'L')).toBe('L3');
    expect(nextId(['G2'], 'G')).toBe('G1');
    expect(nextId([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'X27', 'X28'])).toBe('X29');
  });

  it('should add matching members to the column asked, with its own prefix', () => {
    const item = blankItem('matching', ['en', 'hi']) as ItemOf<'matching'>;
    const left = addChoice(item, 'left') as ItemOf<'matching'>;
    expect(left.left.map((c) => c.id)).toEqual(['L1', 'L2', 'L3']);
    expect(left.right).toBe(item.right);
    expect(left.variants.hi.choices).toEqual(texts('L1', 'L2', 'R1', 'R2', 'L3'));
    const right = addChoice(item, 'right') as ItemOf<'matching'>;
    expect(right.right.map((c) => c.id)).toEqual(['R1', 'R2', 'R3']);
    expect(right.pairs).toEqual(item.pairs);
  });

  it.each<[string, () => [ItemContent, ItemContent]]>([
    ['an option to a true/false item', () => [blankItem('trueFalse', ['en']), addChoice(blankItem('trueFalse', ['en']))]],
    ['a matching member to "options"', () => [blankItem('matching', ['en']), addChoice(blankItem('matching', ['en']), 'options')]],
    ['a left member to a choice item', () => [blankItem('singleChoice', ['en']), addChoice(blankItem('singleChoice', ['en']), 'left')]],
  ])('should not add %s', (_, run) => {
    const [before, after] = run();
    expect(after).toEqual(before);
  });

  it('should move the key of multiple choice to the first remaining option when its only correct option goes', () => {
    const item = blankItem('multipleChoice', ['en']) as ItemOf<'multipleChoice'>;
    expect((removeChoice(item, 'A') as ItemOf<'multipleChoice'>).correct).toEqual(['B']);
    const two = toggleCorrect(item, 'C') as ItemOf<'multipleChoice'>;
    expect((removeChoice(two, 'A') as ItemOf<'multipleChoice'>).correct).toEqual(['C']);
    expect((removeChoice(item, 'D') as ItemOf<'multipleChoice'>).correct).toEqual(['A']);
  });

  it('should keep a single choice key that stays, and leave items alone when the option is not there', () => {
    const item = blankItem('singleChoice', ['en']) as ItemOf<'singleChoice'>;
    expect((removeChoice(item, 'C') as ItemOf<'singleChoice'>).correct).toBe('A');
    expect(removeChoice(item, 'Z')).toBe(item);
    expect(removeChoice(blankItem('numeric', ['en']), 'A')).toEqual(blankItem('numeric', ['en']));
  });

  it('should keep one member per matching column and a pair when the last pairs go', () => {
    const item = blankItem('matching', ['en']) as ItemOf<'matching'>;
    const oneLeft = removeChoice(item, 'L1', 'left') as ItemOf<'matching'>;
    expect(oneLeft.left.map((c) => c.id)).toEqual(['L2']);
    expect(oneLeft.pairs).toEqual([{ left: 'L2', right: 'R2' }]);
    expect(removeChoice(oneLeft, 'L2', 'left')).toBe(oneLeft);
    const noPairs = removeChoice(removeChoice(item, 'R1', 'right'), 'L2', 'left') as ItemOf<'matching'>;
    expect(noPairs.pairs).toEqual([{ left: 'L1', right: 'R2' }]);
    expect(noPairs.variants.en.choices).toEqual(texts('L1', 'R2'));
  });

  it('should change correct options of choice kinds only', () => {
    const single = blankItem('singleChoice', ['en']);
    expect((toggleCorrect(single, 'C') as ItemOf<'singleChoice'>).correct).toBe('C');
    const order = blankItem('ordering', ['en']);
    expect(toggleCorrect(order, 'C')).toBe(order);
  });

  it('should move within bounds and copy the list unchanged otherwise', () => {
    const list = ['a', 'b', 'c'];
    expect(move(list, 2, -1)).toEqual(['a', 'c', 'b']);
    expect(move(list, 0, -1)).toEqual(list);
    expect(move(list, 2, 1)).toEqual(list);
    expect(move(list, -1, 1)).toEqual(list);
    expect(move(list, 3, -1)).toEqual(list);
    expect(move(list, 0, 1)).not.toBe(list);
  });

  it('should put an option no longer kept last back before the kept ones, and touch nothing else', () => {
    let item = blankItem('multipleChoice', ['en']);
    item = toggleKeepLast(toggleKeepLast(item, 'B'), 'C');
    expect((item as ItemOf<'multipleChoice'>).options).toEqual([
      { id: 'A', keepLast: false },
      { id: 'D', keepLast: false },
      { id: 'B', keepLast: true },
      { id: 'C', keepLast: true },
    ]);
    item = toggleKeepLast(item, 'B');
    expect((item as ItemOf<'multipleChoice'>).options.map((o) => `${o.id}${o.keepLast ? '!' : ''}`)).toEqual(['A', 'D', 'B', 'C!']);
    expect(toggleKeepLast(item, 'Z')).toBe(item);
    const order = blankItem('ordering', ['en']);
    expect(toggleKeepLast(order, 'A')).toBe(order);
  });

  it('should remove a pair that is there, keep the last one, and leave other kinds alone', () => {
    const item = blankItem('matching', ['en']) as ItemOf<'matching'>;
    const one = togglePair(item, 'L1', 'R1') as ItemOf<'matching'>;
    expect(one.pairs).toEqual([{ left: 'L2', right: 'R2' }]);
    expect(togglePair(one, 'L2', 'R2')).toBe(one);
    expect((togglePair(one, 'L2', 'R1') as ItemOf<'matching'>).pairs).toEqual([
      { left: 'L2', right: 'R2' },
      { left: 'L2', right: 'R1' },
    ]);
    const single = blankItem('singleChoice', ['en']);
    expect(togglePair(single, 'L1', 'R1')).toBe(single);
  });

  it('should write a new gap inside the last paragraph, or in a paragraph of its own', () => {
    const item = setText(blankItem('fillInBlanks', ['en', 'hi']), 'hi', { stem: 'एक <span data-gap="G1"></span>' }) as ItemOf<'fillInBlanks'>;
    const added = addGap(item) as ItemOf<'fillInBlanks'>;
    expect(added.variants.en.stem).toBe('<p><span data-gap="G1"></span> <span data-gap="G2"></span></p>');
    expect(added.variants.hi.stem).toBe('एक <span data-gap="G1"></span><p><span data-gap="G2"></span></p>');
    expect(added.gaps[1]).toEqual({ id: 'G2', answers: [{ text: 'answer', caseSensitive: false }], expectedLength: 10 });
    expect(addGap(blankItem('shortText', ['en']))).toEqual(blankItem('shortText', ['en']));
    const back = removeGap(added, 'G2') as ItemOf<'fillInBlanks'>;
    expect(back.variants.en.stem).toBe('<p><span data-gap="G1"></span></p>');
    expect(removeGap(blankItem('shortText', ['en']), 'G1')).toEqual(blankItem('shortText', ['en']));
  });

  it('should remove only the gap named, a dot in its id taken literally', () => {
    const item: ItemOf<'fillInBlanks'> = {
      ...(blankItem('fillInBlanks', ['en']) as ItemOf<'fillInBlanks'>),
      variants: { en: { stem: '<p><span data-gap="a.b"></span> <span data-gap="axb"></span></p>' } },
      gaps: [
        { id: 'a.b', answers: [{ text: 'x', caseSensitive: false }], expectedLength: 10 },
        { id: 'axb', answers: [{ text: 'y', caseSensitive: false }], expectedLength: 10 },
      ],
    };
    const removed = removeGap(item, 'a.b') as ItemOf<'fillInBlanks'>;
    // The white space before a removed gap goes with it; the one after stays (HTML shows none at a paragraph's start).
    expect(removed.variants.en.stem).toBe('<p> <span data-gap="axb"></span></p>');
    expect(removed.gaps.map((g) => g.id)).toEqual(['axb']);
  });

  it('should add a language once, with the gaps of the text or the rubric of an essay', () => {
    const gaps = addGap(blankItem('fillInBlanks', ['en']));
    expect(addVariant(gaps, 'gu').variants.gu).toEqual({ stem: '<p><span data-gap="G1"></span> <span data-gap="G2"></span></p>' });
    expect(addVariant(blankItem('essay', ['en']), 'hi').variants.hi).toEqual({ stem: '', rubric: '' });
    const item = setText(blankItem('trueFalse', ['en']), 'en', { stem: '<p>?</p>' });
    expect(addVariant(item, 'en')).toBe(item);
    expect(removeVariant(item, 'hi')).toBe(item);
  });

  it('should show the languages the item has beyond the project after the project ones', () => {
    const item = addVariant(blankItem('trueFalse', ['fr']), 'en');
    expect(languagesToShow(item, ['en', 'hi'])).toEqual([
      { language: 'en', present: true },
      { language: 'hi', present: false },
      { language: 'fr', present: true },
    ]);
  });

  it('should keep the stem before the gap of a fill-in-the-blanks kind, and the media, when the kind changes', () => {
    const picture = { key: 'map.png', categoryFileId: null, fileName: 'map.png', mimeType: 'image/png' };
    const single = { ...setText(blankItem('singleChoice', ['en']), 'en', { stem: '<p>Fill:</p>' }), media: [picture] };
    const gaps = changeKind(single, 'fillInBlanks');
    expect(gaps.variants.en.stem).toBe('<p>Fill:</p><p><span data-gap="G1"></span></p>');
    expect(gaps.media).toEqual([picture]);
    expect(changeKind(single, 'singleChoice')).toBe(single);
    expect(changeKind(single, 'numeric').marking).toEqual(single.marking);
  });

  it('should set an option text of one language', () => {
    const item = setText(blankItem('singleChoice', ['en', 'hi']), 'en', { choice: 'B', html: '<p>Venus</p>' });
    expect(item.variants.en.choices).toEqual({ A: '', B: '<p>Venus</p>', C: '', D: '' });
    expect(item.variants.hi.choices).toEqual(texts('A', 'B', 'C', 'D'));
    const essay = setText(blankItem('essay', ['en']), 'en', { stem: '<p>Why?</p>' });
    expect(essay.variants.en).toEqual({ stem: '<p>Why?</p>', rubric: '' });
  });
  it('should add the next letter to multiple choice, at the start when every option is kept last, never kept last itself', () => {
    const multiple = addChoice(blankItem('multipleChoice', ['en'])) as ItemOf<'multipleChoice'>;
    expect(multiple.options.at(-1)).toEqual({ id: 'E', keepLast: false });
    const allKept = { ...(blankItem('singleChoice', ['en']) as ItemOf<'singleChoice'>), options: options('A', 'B').map((o) => ({ ...o, keepLast: true })) };
    expect((addChoice(allKept) as ItemOf<'singleChoice'>).options).toEqual([
      { id: 'C', keepLast: false },
      { id: 'A', keepLast: true },
      { id: 'B', keepLast: true },
    ]);
  });

  it('should keep at least two options of a choice item, and a key that is not the option removed', () => {
    const item = blankItem('singleChoice', ['en']) as ItemOf<'singleChoice'>;
    const two = removeChoice(removeChoice(item, 'A'), 'B') as ItemOf<'singleChoice'>;
    expect(two.options.map((o) => o.id)).toEqual(['C', 'D']);
    expect(removeChoice(two, 'C')).toBe(two);
    const keyC = toggleCorrect(item, 'C');
    expect((removeChoice(keyC, 'A') as ItemOf<'singleChoice'>).correct).toBe('C');
  });

  it('should move an entry up to the first place', () => {
    expect(move(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
  });

  it('should remove exactly the pair named, not others sharing a member', () => {
    const item = togglePair(blankItem('matching', ['en']), 'L1', 'R2');
    expect((togglePair(item, 'L1', 'R1') as ItemOf<'matching'>).pairs).toEqual([
      { left: 'L2', right: 'R2' },
      { left: 'L1', right: 'R2' },
    ]);
  });

  it('should remove every placeholder of a gap from a text', () => {
    const item = setText(addGap(blankItem('fillInBlanks', ['en'])), 'en', {
      stem: '<p><span data-gap="G1"></span> <span data-gap="G2"></span> <span data-gap="G2"></span></p>',
    });
    expect(removeGap(item, 'G2').variants.en.stem).toBe('<p><span data-gap="G1"></span></p>');
  });

  it('should give an essay made from another kind no marks for wrong', () => {
    const single = blankItem('singleChoice', ['en'], { correct: 4, wrong: -1, unanswered: 0 });
    expect(changeKind(single, 'essay').marking).toEqual({ correct: 4, wrong: 0, unanswered: 0 });
  });
});

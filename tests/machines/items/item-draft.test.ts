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

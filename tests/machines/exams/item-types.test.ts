import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { baseItemTypes, checkItemType, ItemTypeKind, ItemTypeSettings, settingsByKind, type ItemTypeMarking } from '#machines/exams/item-types.ts';
import { ITEM_KINDS } from '#machines/items/item-schema.ts';

const marking = (correct: number, wrong = 0): ItemTypeMarking => ({ correct, wrong, unanswered: 0 });
const partial = (perCorrect: number) => ({ perCorrect, perWrong: 0, wrongCancels: false });

describe('checkItemType (the rules the schema cannot say)', () => {
  it('should find nothing wrong with a type that uses only the settings of its kind', () => {
    expect(checkItemType('multipleChoice', { shuffle: true, partial: partial(1), maxChoices: 3 }, marking(4, -1))).toEqual({});
    expect(checkItemType('trueFalse', {}, marking(1))).toEqual({});
  });

  it('should refuse a setting the kind does not take, naming the settings it does take', () => {
    expect(checkItemType('singleChoice', { shuffle: false, caseSensitive: true }, marking(1))).toEqual({
      'settings.caseSensitive': ['caseSensitive does not apply to singleChoice (it takes shuffle).'],
    });
    expect(checkItemType('multipleChoice', { wordLimit: 100 }, marking(2))).toEqual({
      'settings.wordLimit': ['wordLimit does not apply to multipleChoice (it takes shuffle, partial, maxChoices).'],
    });
  });

  it('should say a kind without settings takes none, one message per refused setting', () => {
    expect(checkItemType('trueFalse', { shuffle: true, tolerance: { mode: 'absolute', value: 0.1 } }, marking(1))).toEqual({
      'settings.shuffle': ['shuffle does not apply to trueFalse (it takes no settings).'],
      'settings.tolerance': ['tolerance does not apply to trueFalse (it takes no settings).'],
    });
  });

  it('should refuse marks for a wrong essay answer, and only for essays', () => {
    expect(checkItemType('essay', { wordLimit: 250 }, marking(5, -1))).toEqual({ 'marking.wrong': ['An essay has no marks for a wrong answer: use 0.'] });
    expect(checkItemType('essay', { wordLimit: 250 }, marking(5, 0))).toEqual({});
    expect(checkItemType('shortText', {}, marking(4, -1))).toEqual({});
  });

  it('should refuse partial credit per correct part above the marks for a correct answer, allowing it equal', () => {
    expect(checkItemType('matching', { partial: partial(3) }, marking(2))).toEqual({
      'settings.partial.perCorrect': ['perCorrect cannot exceed the marks for a correct answer.'],
    });
    expect(checkItemType('matching', { partial: partial(2) }, marking(2))).toEqual({});
    expect(checkItemType('matching', { partial: partial(0.5) }, marking(2))).toEqual({});
  });

  it('should take partial: null as all or nothing, whatever the marks', () => {
    expect(checkItemType('multipleChoice', { partial: null }, marking(1))).toEqual({});
  });

  it('should report every broken rule at once, each under its own field', () => {
    expect(checkItemType('essay', { wordLimit: 250, partial: partial(9) }, marking(5, -2))).toEqual({
      'settings.partial': ['partial does not apply to essay (it takes wordLimit).'],
      'marking.wrong': ['An essay has no marks for a wrong answer: use 0.'],
      'settings.partial.perCorrect': ['perCorrect cannot exceed the marks for a correct answer.'],
    });
  });
});

describe('base item types (what the set-up stepper offers)', () => {
  it('should offer one starting type for each of the nine kinds, in the order of the kinds', () => {
    expect(baseItemTypes.map((t) => t.kind)).toEqual([...ITEM_KINDS]);
    expect(baseItemTypes.map((t) => t.name)).toEqual([
      'Single choice',
      'Multiple choice',
      'True or false',
      'Numeric',
      'Short answer',
      'Fill in the blanks',
      'Match the following',
      'Sequence',
      'Long answer',
    ]);
  });

  it('should start each type with exactly the settings its kind takes', () => {
    for (const base of baseItemTypes) expect(Object.keys(base.settings).sort(), base.kind).toEqual([...settingsByKind[base.kind]].sort());
  });

  it('should start every type valid: by the schemas and by the rules the server checks', () => {
    for (const base of baseItemTypes) {
      expect(Value.Check(ItemTypeKind, base.kind), base.kind).toBe(true);
      expect(Value.Check(ItemTypeSettings, base.settings), base.kind).toBe(true);
      expect(checkItemType(base.kind, base.settings, base.marking), base.kind).toEqual({});
    }
  });
});

describe('ItemTypeSettings schema', () => {
  it('should refuse a setting it does not know', () => {
    expect(Value.Check(ItemTypeSettings, { shuffle: true, negativeMarking: true })).toBe(false);
  });

  it('should take a tolerance only as an absolute or relative distance of at least 0', () => {
    expect(Value.Check(ItemTypeSettings, { tolerance: { mode: 'relative', value: 0.05 } })).toBe(true);
    expect(Value.Check(ItemTypeSettings, { tolerance: { mode: 'percent', value: 5 } })).toBe(false);
    expect(Value.Check(ItemTypeSettings, { tolerance: { mode: 'absolute', value: -1 } })).toBe(false);
    expect(Value.Check(ItemTypeSettings, { tolerance: { mode: 'absolute', value: 1, unit: 'cm' } })).toBe(false);
  });

  it('should bound the word limit and the choices allowed, a null word limit meaning none', () => {
    expect(Value.Check(ItemTypeSettings, { wordLimit: null })).toBe(true);
    expect(Value.Check(ItemTypeSettings, { wordLimit: 0 })).toBe(false);
    expect(Value.Check(ItemTypeSettings, { wordLimit: 20_001 })).toBe(false);
    expect(Value.Check(ItemTypeSettings, { maxChoices: 0 })).toBe(true);
    expect(Value.Check(ItemTypeSettings, { maxChoices: 27 })).toBe(false);
  });

  it('should not take a kind outside the nine', () => {
    expect(Value.Check(ItemTypeKind, 'hotspot')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { compileItem, normalizeText } from '#machines/items/compile-item.ts';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { essay, fillInBlanks, multipleChoice, numeric, shortText, singleChoice, trueFalse, unit } from './support/sample-items.ts';

/**
 * The QTI form of an item (docs/decisions/0120) as the export writes it: the declarations a
 * QTI player reads (cardinality, base type, correct response, mapping) and the choice of a
 * standard template. Scores are tested in score.test.ts; this pins what another player sees.
 */
describe('compileItem: the declarations an exported item carries', () => {
  it('should normalize text as the scorer compares it: NFC, trimmed, inner white space collapsed', () => {
    expect(normalizeText('  New \t\n  Delhi ')).toBe('New Delhi');
    expect(normalizeText('e\u0301')).toBe('\u00e9');
  });

  it('should declare a single choice and true/false as one identifier, with match_correct only for +1 / 0 / 0', () => {
    expect(compileItem({ ...singleChoice, marking: unit })).toEqual({
      declarations: [{ identifier: 'RESPONSE', cardinality: 'single', baseType: 'identifier', correct: ['A'] }],
      processing: { template: 'match_correct' },
      responseIds: ['RESPONSE'],
    });
    const tf = compileItem({ ...trueFalse, correct: false });
    expect(tf.declarations).toEqual([{ identifier: 'RESPONSE', cardinality: 'single', baseType: 'identifier', correct: ['false'] }]);
    expect(tf.processing.template).toBeNull();
    for (const marking of [
      { correct: 2, wrong: 0, unanswered: 0 },
      { correct: 1, wrong: -1, unanswered: 0 },
      { correct: 1, wrong: 0, unanswered: -1 },
    ]) {
      expect(compileItem({ ...singleChoice, marking }).processing.template).toBeNull();
    }
  });

  it('should map each option of partial-credit multiple choice, by exact id, with the wrong-part value as default', () => {
    const item: ItemContent = { ...multipleChoice, marking: unit, partial: { perCorrect: 0.5, perWrong: -0.25, wrongCancels: false } };
    expect(compileItem(item).declarations).toEqual([
      {
        identifier: 'RESPONSE',
        cardinality: 'multiple',
        baseType: 'identifier',
        correct: ['A', 'C'],
        mapping: {
          entries: [
            { key: 'A', value: 0.5, caseSensitive: true },
            { key: 'B', value: -0.25, caseSensitive: true },
            { key: 'C', value: 0.5, caseSensitive: true },
            { key: 'D', value: -0.25, caseSensitive: true },
          ],
          defaultValue: -0.25,
        },
      },
    ]);
    expect(compileItem(item).processing.template).toBeNull();
    expect(compileItem({ ...multipleChoice, marking: unit }).declarations[0].mapping).toBeUndefined();
    expect(compileItem({ ...multipleChoice, marking: unit }).processing).toEqual({ template: 'match_correct' });
  });

  it('should compare a numeric answer within its tolerance, both bounds included, or match it exactly', () => {
    const within = compileItem({ ...numeric, tolerance: { mode: 'relative', value: 2 } });
    expect(within.declarations).toEqual([{ identifier: 'RESPONSE', cardinality: 'single', baseType: 'float', correct: [9.81] }]);
    expect(JSON.stringify(within.processing)).toContain(
      JSON.stringify({
        op: 'equal',
        toleranceMode: 'relative',
        tolerance: [2, 2],
        includeLowerBound: true,
        includeUpperBound: true,
        args: [
          { op: 'variable', id: 'RESPONSE' },
          { op: 'correct', id: 'RESPONSE' },
        ],
      }),
    );
    expect(compileItem({ ...numeric, marking: unit, tolerance: { mode: 'absolute', value: 0 } }).processing).toEqual({ template: 'match_correct' });
  });

  it('should give a short answer its full-credit answer as the correct response and map every answer, normalized', () => {
    const item: ItemContent = {
      ...shortText,
      answers: [
        { text: ' Bombay ', caseSensitive: false, credit: 0.5 },
        { text: 'Mumbai  City', caseSensitive: true, credit: 1 },
      ],
    };
    expect(compileItem(item)).toEqual({
      declarations: [
        {
          identifier: 'RESPONSE',
          cardinality: 'single',
          baseType: 'string',
          correct: ['Mumbai City'],
          mapping: {
            entries: [
              { key: 'Bombay', value: 2, caseSensitive: false },
              { key: 'Mumbai City', value: 4, caseSensitive: true },
            ],
            defaultValue: -1,
          },
        },
      ],
      processing: { template: 'map_response' },
      responseIds: ['RESPONSE'],
    });
  });

  it('should declare each gap with its first answer as correct, and map the gaps only with partial credit', () => {
    const spaced: ItemContent = {
      ...fillInBlanks,
      gaps: [{ ...fillInBlanks.gaps[0], answers: [{ text: ' hydrogen  gas ', caseSensitive: false }] }, fillInBlanks.gaps[1]],
    };
    const compiled = compileItem(spaced);
    expect(compiled.responseIds).toEqual(['G1', 'G2']);
    expect(compiled.declarations).toEqual([
      { identifier: 'G1', cardinality: 'single', baseType: 'string', correct: ['hydrogen gas'], mapping: undefined },
      { identifier: 'G2', cardinality: 'single', baseType: 'string', correct: ['oxygen'], mapping: undefined },
    ]);
    const partial = compileItem({ ...fillInBlanks, partial: { perCorrect: 2, perWrong: -1, wrongCancels: false } });
    expect(partial.declarations[0].mapping).toEqual({
      entries: [
        { key: 'hydrogen', value: 2, caseSensitive: false },
        { key: 'हाइड्रोजन', value: 2, caseSensitive: true },
      ],
      defaultValue: -1,
    });
  });

  it('should leave an essay without a correct response, and give marks only to a blank one', () => {
    expect(compileItem(essay)).toEqual({
      declarations: [{ identifier: 'RESPONSE', cardinality: 'single', baseType: 'string', correct: null }],
      processing: { template: null, rules: [] },
      responseIds: ['RESPONSE'],
    });
    const blankMarks = compileItem({ ...essay, marking: { correct: 10, wrong: 0, unanswered: -1 } });
    expect(blankMarks.processing).toEqual({
      template: null,
      rules: [
        {
          type: 'condition',
          branches: [
            {
              when: { op: 'isNull', args: [{ op: 'variable', id: 'RESPONSE' }] },
              then: [{ type: 'set', id: 'SCORE', expr: { op: 'baseValue', baseType: 'float', value: -1 } }],
            },
          ],
        },
      ],
    });
  });
});

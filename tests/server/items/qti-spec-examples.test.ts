import { describe, expect, it } from 'vitest';
import type { ItemResponse } from '#machines/items/item-schema.ts';
import type { QValue } from '#machines/items/qti-engine.ts';
import { score } from '#machines/items/score.ts';
import { importQti } from '#server/lib/items/qti-import.ts';
import {
  capitalQti21,
  capitalQti3,
  choiceQti21,
  choiceQti3,
  essayQti3,
  nobleGasesQti3,
  orderQti3,
  scientistsQti3,
  scoreQtiXml,
  selectPointQti3,
} from './support/qti-fixtures.ts';

async function importOne(xml: string) {
  const result = await importQti(Buffer.from(xml), { fileName: 'item.xml' });
  return result;
}

/** Each row: a QTI response, the same response in our form, and the score the specification's template gives. */
type Row = [label: string, qti: QValue, ours: ItemResponse, expected: number];

function specTable(name: string, xml: string, rows: Row[], mapsTo: string | null) {
  describe(name, () => {
    for (const [label, qti, , expected] of rows) {
      it(`should score ${expected} by the item's own processing when ${label}`, () => {
        expect(scoreQtiXml(xml, { RESPONSE: qti })).toBe(expected);
      });
    }
    if (mapsTo) {
      it(`should import as ${mapsTo} and score every row the same`, async () => {
        const { items, unmapped } = await importOne(xml);
        expect(unmapped).toEqual([]);
        expect(items[0].content.kind).toBe(mapsTo);
        for (const [label, , ours, expected] of rows) expect({ label, score: score(items[0].content, ours).score }).toEqual({ label, score: expected });
      });
    }
  });
}

specTable(
  'QTI 3 choice with match_correct',
  choiceQti3,
  [
    ['the correct choice is made', 'ChoiceB', 'ChoiceB', 1],
    ['another choice is made', 'ChoiceA', 'ChoiceA', 0],
    ['the fixed last choice is made', 'ChoiceD', 'ChoiceD', 0],
    ['no choice is made', null, null, 0],
  ],
  'singleChoice',
);

specTable(
  'QTI 2.1 choice with match_correct',
  choiceQti21,
  [
    ['the correct choice is made', 'ChoiceB', 'ChoiceB', 1],
    ['another choice is made', 'ChoiceC', 'ChoiceC', 0],
    ['no choice is made', null, null, 0],
  ],
  'singleChoice',
);

specTable(
  'QTI 3 multiple response with map_response, bounds 0..2 and default −2',
  nobleGasesQti3('<qti-map-entry map-key="Ne" mapped-value="1"/><qti-map-entry map-key="Ar" mapped-value="1"/><qti-map-entry map-key="Cl" mapped-value="-1"/>'),
  [
    ['both noble gases are chosen', ['Ne', 'Ar'], ['Ne', 'Ar'], 2],
    ['one noble gas is chosen', ['Ne'], ['Ne'], 1],
    ['a noble gas and chlorine are chosen', ['Ne', 'Cl'], ['Ne', 'Cl'], 0],
    ['both noble gases and chlorine are chosen', ['Ne', 'Ar', 'Cl'], ['Ne', 'Ar', 'Cl'], 1],
    ['both noble gases and nitrogen (the −2 default) are chosen', ['Ne', 'Ar', 'N'], ['Ne', 'Ar', 'N'], 0],
    ['only nitrogen is chosen (floored at 0)', ['N'], ['N'], 0],
    ['nothing is chosen', null, null, 0],
  ],
  null,
);

specTable(
  'QTI 3 multiple response with one value per option (map_response, bounds 0..2)',
  nobleGasesQti3(
    '<qti-map-entry map-key="Ne" mapped-value="1"/><qti-map-entry map-key="Ar" mapped-value="1"/>',
    'lower-bound="0" upper-bound="2" default-value="-1"',
  ),
  [
    ['both noble gases are chosen', ['Ne', 'Ar'], ['Ne', 'Ar'], 2],
    ['one noble gas is chosen', ['Ar'], ['Ar'], 1],
    ['one noble gas and one other are chosen', ['Ne', 'O'], ['Ne', 'O'], 0],
    ['both noble gases and one other are chosen', ['Ne', 'Ar', 'O'], ['Ne', 'Ar', 'O'], 1],
    ['nothing is chosen', null, null, 0],
  ],
  'multipleChoice',
);

specTable(
  'QTI 3 text entry with a case-sensitive and a case-blind mapping (map_response)',
  capitalQti3,
  [
    ['the word is typed as written', 'Gandhinagar', 'Gandhinagar', 1],
    ['the word is typed in lower case', 'gandhinagar', 'gandhinagar', 0.5],
    ['the word is typed in capitals', 'GANDHINAGAR', 'GANDHINAGAR', 0.5],
    ['another city is typed', 'Ahmedabad', 'Ahmedabad', 0],
    ['nothing is typed', null, '', 0],
  ],
  'shortText',
);

specTable(
  'QTI 2.1 text entry with caseSensitive mappings (map_response)',
  capitalQti21,
  [
    ['the word is typed as written', 'Gandhinagar', 'Gandhinagar', 1],
    ['the word is typed in another case', 'GandhiNagar', 'GandhiNagar', 0.5],
    ['nothing is typed', null, null, 0],
  ],
  'shortText',
);

specTable(
  'QTI 3 order with match_correct',
  orderQti3,
  [
    ['the order is right', ['Mercury', 'Venus', 'Earth'], ['Mercury', 'Venus', 'Earth'], 1],
    ['two are swapped', ['Venus', 'Mercury', 'Earth'], ['Venus', 'Mercury', 'Earth'], 0],
    ['the order is reversed', ['Earth', 'Venus', 'Mercury'], ['Earth', 'Venus', 'Mercury'], 0],
    ['nothing is ordered', null, null, 0],
  ],
  'ordering',
);

specTable(
  'QTI 3 match with pairs mapped to 1 and 0.5 (map_response)',
  scientistsQti3([1, 0.5, 0.5, 1]),
  [
    [
      'every pair is right',
      ['N G', 'D E', 'C X', 'B X'],
      [
        ['N', 'G'],
        ['D', 'E'],
        ['C', 'X'],
        ['B', 'X'],
      ],
      3,
    ],
    ['one full-value pair is right', ['N G'], [['N', 'G']], 1],
    [
      'a full and a half pair are right',
      ['N G', 'D E'],
      [
        ['N', 'G'],
        ['D', 'E'],
      ],
      1.5,
    ],
    [
      'every pair is wrong',
      ['N E', 'D G'],
      [
        ['N', 'E'],
        ['D', 'G'],
      ],
      0,
    ],
  ],
  null,
);

specTable(
  'QTI 3 match with every pair worth 1 (map_response)',
  scientistsQti3([1, 1, 1, 1]),
  [
    [
      'every pair is right',
      ['N G', 'D E', 'C X', 'B X'],
      [
        ['N', 'G'],
        ['D', 'E'],
        ['C', 'X'],
        ['B', 'X'],
      ],
      4,
    ],
    [
      'two pairs are right',
      ['N G', 'D E'],
      [
        ['N', 'G'],
        ['D', 'E'],
      ],
      2,
    ],
    [
      'one right and one wrong pair',
      ['N G', 'D X'],
      [
        ['N', 'G'],
        ['D', 'X'],
      ],
      1,
    ],
  ],
  'matching',
);

specTable(
  'QTI 3 select point with map_response_point',
  selectPointQti3,
  [
    ['the centre of the circle is chosen', { x: 60, y: 200 }, null, 1],
    ['a point on the circle is chosen', { x: 66, y: 208 }, null, 1],
    ['a point outside the circle is chosen', { x: 71, y: 200 }, null, 0],
    ['nothing is chosen', null, null, 0],
  ],
  null,
);

describe('QTI 3 map_response_point with several points and areas', () => {
  const xml = selectPointQti3
    .replace('cardinality="single" base-type="point"', 'cardinality="multiple" base-type="point"')
    .replace(
      '<qti-area-map-entry shape="circle" coords="60,200,10" mapped-value="1"/>',
      '<qti-area-map-entry shape="circle" coords="60,200,10" mapped-value="1"/><qti-area-map-entry shape="rect" coords="100,100,140,120" mapped-value="2"/><qti-area-map-entry shape="poly" coords="0,0,20,0,0,20" mapped-value="0.5"/>',
    )
    .replace('default-value="0"', 'default-value="-1"');
  it.each<[string, QValue, number]>([
    [
      'two points fall in the same circle (the area counts once)',
      [
        { x: 60, y: 200 },
        { x: 61, y: 201 },
      ],
      1,
    ],
    [
      'points fall in the circle and the rectangle',
      [
        { x: 60, y: 200 },
        { x: 120, y: 110 },
      ],
      3,
    ],
    ['a point falls inside the triangle', [{ x: 5, y: 5 }], 0.5],
    ['a point falls outside every area (the default)', [{ x: 300, y: 300 }], -1],
    [
      'one point is in the rectangle and one outside',
      [
        { x: 100, y: 100 },
        { x: 300, y: 5 },
      ],
      1,
    ],
  ])('should score when %s', (_, points, expected) => {
    expect(scoreQtiXml(xml, { RESPONSE: points })).toBe(expected);
  });
});

describe('QTI import of the specification-form items', () => {
  it('should report select point as having no matching kind, and never guess one', async () => {
    const { items, unmapped } = await importOne(selectPointQti3);
    expect(items).toEqual([]);
    expect(unmapped).toEqual([
      { identifier: 'find-mumbai', title: 'Find Mumbai', source: 'item.xml', reasons: ['qti-select-point-interaction has no matching item kind'] },
    ]);
  });

  it('should report a multiple response whose options carry different negative values', async () => {
    const { items, unmapped } = await importOne(
      nobleGasesQti3(
        '<qti-map-entry map-key="Ne" mapped-value="1"/><qti-map-entry map-key="Ar" mapped-value="1"/><qti-map-entry map-key="Cl" mapped-value="-1"/>',
      ),
    );
    expect(items).toEqual([]);
    expect(unmapped[0].reasons[0]).toMatch(/^its scoring cannot be expressed with our marking rules: for the response .* the package gives -?\d/);
  });

  it('should report a match whose pairs are worth different marks', async () => {
    const { unmapped } = await importOne(scientistsQti3([1, 0.5, 0.5, 1]));
    expect(unmapped[0].reasons[0]).toMatch(/^its scoring cannot be expressed with our marking rules/);
  });

  it('should read the choice item with its prompt in the stem and the fixed choice kept last', async () => {
    const { items } = await importOne(choiceQti3);
    expect(items[0]).toMatchObject({ identifier: 'photosynthesis-gas', title: 'Photosynthesis gas', qtiVersion: '3.0' });
    expect(items[0].content).toEqual({
      kind: 'singleChoice',
      variants: {
        en: {
          stem: '<p>Green plants take in one gas from the air to make their food.</p>\n    <p>Which gas is it?</p>',
          choices: { ChoiceA: 'Oxygen', ChoiceB: 'Carbon dioxide', ChoiceC: 'Nitrogen', ChoiceD: 'None of these' },
        },
      },
      marking: { correct: 1, wrong: 0, unanswered: 0 },
      media: [],
      options: [
        { id: 'ChoiceA', keepLast: false },
        { id: 'ChoiceB', keepLast: false },
        { id: 'ChoiceC', keepLast: false },
        { id: 'ChoiceD', keepLast: true },
      ],
      correct: 'ChoiceB',
      shuffle: false,
    });
  });

  it('should read the QTI 2.1 item as version 2.x', async () => {
    const { items } = await importOne(choiceQti21);
    expect(items[0].qtiVersion).toBe('2.x');
    expect(items[0].content).toMatchObject({ kind: 'singleChoice', correct: 'ChoiceB', marking: { correct: 1, wrong: 0, unanswered: 0 } });
  });

  it('should keep the gap where the text entry was when it sits inside a sentence', async () => {
    const { items } = await importOne(capitalQti3);
    expect(items[0].content).toMatchObject({
      kind: 'shortText',
      variants: { en: { stem: expect.stringContaining('The capital of Gujarat is <span data-gap="RESPONSE"></span>, on the Sabarmati.') } },
      answers: [
        { text: 'Gandhinagar', caseSensitive: true, credit: 1 },
        { text: 'gandhinagar', caseSensitive: false, credit: 0.5 },
      ],
    });
  });

  it('should import the extended text as an essay with its maximum from normal-maximum, in Hindi', async () => {
    const { items } = await importOne(essayQti3);
    expect(items[0].content).toEqual({
      kind: 'essay',
      variants: { hi: { stem: '<p>मानसून भारत की खेती को कैसे प्रभावित करता है?</p>', rubric: null } },
      marking: { correct: 5, wrong: 0, unanswered: 0 },
      media: [],
      wordLimit: null,
    });
    expect(score(items[0].content, 'बारिश से फसलें उगती हैं')).toMatchObject({ score: null, needsHumanMarking: true });
  });
});

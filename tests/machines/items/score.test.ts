import { describe, expect, it } from 'vitest';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import { compiledForm, InvalidResponseError, parseNumberResponse, score, type Outcome } from '#machines/items/score.ts';
import { essay, fillInBlanks, matching, multipleChoice, numeric, ordering, shortText, singleChoice, trueFalse, unit } from './support/sample-items.ts';

type Row = [label: string, response: ItemResponse, expected: number, outcome: Outcome];

function table(item: ItemContent, rows: Row[]) {
  for (const [label, response, expected, outcome] of rows) {
    it(`should give ${expected} (${outcome}) when ${label}`, () => {
      // Each case scores its own copy: score() keeps an item's compiled form, so a compilation
      // made for another case (or another run of the suite, in a mutation run) would otherwise
      // be scored with, and a fault in the compiler would go unseen.
      const result = score(structuredClone(item), response);
      expect(result.score).toBe(expected);
      expect(result.outcome).toBe(outcome);
      expect(result.maxScore).toBe(item.marking.correct);
    });
  }
}

describe('score: single choice, +4 / −1 / 0', () => {
  table(singleChoice, [
    ['the key is chosen', 'A', 4, 'correct'],
    ['a distractor is chosen', 'B', -1, 'wrong'],
    ['the kept-last option is chosen', 'D', -1, 'wrong'],
    ['an id that is not an option is sent', 'Z', -1, 'wrong'],
    ['nothing is chosen', null, 0, 'unanswered'],
    ['an empty string is sent', '', 0, 'unanswered'],
  ]);
  it('should use the marking rule, not a template, when the marks are not +1 / 0 / 0', () => {
    expect(score(singleChoice, 'A').template).toBeNull();
    expect(score({ ...singleChoice, marking: unit }, 'A').template).toBe('match_correct');
  });
});

describe('score: single choice with match_correct (+1 / 0 / 0)', () => {
  table({ ...singleChoice, marking: unit }, [
    ['the key is chosen', 'A', 1, 'correct'],
    ['a distractor is chosen', 'C', 0, 'wrong'],
    ['nothing is chosen', null, 0, 'unanswered'],
  ]);
});

describe('score: true / false', () => {
  table(trueFalse, [
    ['true is the answer given', true, 4, 'correct'],
    ['false is the answer given', false, -1, 'wrong'],
    ['nothing is given', null, 0, 'unanswered'],
  ]);
  table({ ...trueFalse, correct: false }, [
    ['false is the key and false is given', false, 4, 'correct'],
    ['false is the key and true is given', true, -1, 'wrong'],
  ]);
});

describe('score: multiple choice, all or nothing', () => {
  table(multipleChoice, [
    ['exactly the key is chosen', ['A', 'C'], 4, 'correct'],
    ['the key is chosen in another order', ['C', 'A'], 4, 'correct'],
    ['the key is chosen with a duplicate', ['A', 'C', 'A'], 4, 'correct'],
    ['part of the key is chosen', ['A'], -1, 'wrong'],
    ['the key and a wrong option are chosen', ['A', 'B', 'C'], -1, 'wrong'],
    ['only wrong options are chosen', ['B', 'D'], -1, 'wrong'],
    ['nothing is chosen', [], 0, 'unanswered'],
    ['null is sent', null, 0, 'unanswered'],
  ]);
});

describe('score: multiple choice, partial credit per option (Moodle style)', () => {
  const item = { ...multipleChoice, marking: { correct: 2, wrong: -1, unanswered: 0 }, partial: { perCorrect: 1, perWrong: -0.5, wrongCancels: false } };
  table(item, [
    ['exactly the key is chosen', ['A', 'C'], 2, 'correct'],
    ['one correct option is chosen', ['A'], 1, 'partial'],
    ['one correct and one wrong option are chosen', ['A', 'B'], 0.5, 'partial'],
    ['the key and a wrong option are chosen', ['A', 'B', 'C'], 1.5, 'partial'],
    ['only wrong options are chosen (floored at marking.wrong)', ['B', 'D'], -1, 'wrong'],
    ['an id that is not an option is chosen with the key', ['A', 'C', 'Z'], 1.5, 'partial'],
    ['nothing is chosen', null, 0, 'unanswered'],
  ]);
});

describe('score: multiple choice, JEE Advanced (+4 all, +1 per correct, −2 any wrong)', () => {
  const item = {
    ...multipleChoice,
    options: ['A', 'B', 'C', 'D'].map((id) => ({ id, keepLast: false })),
    correct: ['A', 'B', 'C'],
    marking: { correct: 4, wrong: -2, unanswered: 0 },
    partial: { perCorrect: 1, perWrong: 0, wrongCancels: true },
  };
  table(item, [
    ['all three correct options are chosen', ['A', 'B', 'C'], 4, 'correct'],
    ['two correct options are chosen', ['A', 'B'], 2, 'partial'],
    ['one correct option is chosen', ['C'], 1, 'partial'],
    ['a wrong option is chosen with correct ones', ['A', 'B', 'D'], -2, 'wrong'],
    ['only the wrong option is chosen', ['D'], -2, 'wrong'],
    ['nothing is chosen', [], 0, 'unanswered'],
  ]);
});

describe('score: numeric with tolerance', () => {
  table(numeric, [
    ['the exact value is typed', '9.81', 4, 'correct'],
    ['a value at the lower bound is typed', 9.76, 4, 'correct'],
    ['a value at the upper bound is given as a number', 9.86, 4, 'correct'],
    ['a value just outside is typed', '9.87', -1, 'wrong'],
    ['an exponent form inside is typed', '981e-2', 4, 'correct'],
    ['text that is not a number is typed', 'nine', -1, 'wrong'],
    ['a comma decimal is typed (not accepted as a number)', '9,81', -1, 'wrong'],
    ['white space only is typed', '   ', 0, 'unanswered'],
    ['nothing is typed', null, 0, 'unanswered'],
  ]);
  table({ ...numeric, answer: -200, tolerance: { mode: 'relative', value: 5 } }, [
    ['a negative answer within 5 % is typed', '-190', 4, 'correct'],
    ['a negative answer at 5 % is typed', '-210', 4, 'correct'],
    ['a negative answer beyond 5 % is typed', '-211', -1, 'wrong'],
    ['the sign is wrong', '200', -1, 'wrong'],
  ]);
  table({ ...numeric, marking: unit, tolerance: { mode: 'absolute', value: 0 } }, [
    ['the exact value is typed with zero tolerance', '9.81', 1, 'correct'],
    ['a near value is typed with zero tolerance', '9.8100001', 0, 'wrong'],
  ]);
});

describe('score: short text with case rules (map_response)', () => {
  table(shortText, [
    ['the answer is typed as written', 'Paris', 4, 'correct'],
    ['the answer is typed in another case (case-insensitive answer)', 'PARIS', 4, 'correct'],
    ['the answer has extra white space', '  Paris  ', 4, 'correct'],
    ['the Hindi answer is typed', 'पेरिस', 4, 'correct'],
    ['a wrong answer is typed', 'Lyon', -1, 'wrong'],
    ['nothing is typed', '', 0, 'unanswered'],
  ]);
  const york = {
    ...shortText,
    marking: unit,
    answers: [
      { text: 'York', caseSensitive: true, credit: 1 },
      { text: 'york', caseSensitive: false, credit: 0.5 },
    ],
  };
  table(york, [
    ['the case-sensitive answer is typed exactly', 'York', 1, 'correct'],
    ['the answer is typed in lower case', 'york', 0.5, 'partial'],
    ['the answer is typed in upper case', 'YORK', 0.5, 'partial'],
    ['another word is typed', 'Lancaster', 0, 'wrong'],
  ]);
  it('should use map_response when nothing answered scores 0, and the marking rule otherwise', () => {
    expect(score(shortText, 'Paris').template).toBe('map_response');
    expect(score({ ...shortText, marking: { correct: 4, wrong: -1, unanswered: -1 } }, null)).toMatchObject({
      score: -1,
      template: null,
      outcome: 'unanswered',
    });
  });
});

describe('score: fill in the blanks', () => {
  table(fillInBlanks, [
    ['both gaps are right', { G1: 'hydrogen', G2: 'oxygen' }, 4, 'correct'],
    ['both gaps are right in other cases and languages', { G1: 'HYDROGEN', G2: 'ऑक्सीजन' }, 4, 'correct'],
    ['one gap is right and one empty', { G1: 'hydrogen' }, -1, 'wrong'],
    ['one gap is wrong', { G1: 'hydrogen', G2: 'helium' }, -1, 'wrong'],
    ['all gaps are empty', { G1: '', G2: null }, 0, 'unanswered'],
    ['nothing is sent', null, 0, 'unanswered'],
  ]);
  const partial = { ...fillInBlanks, marking: { correct: 4, wrong: -2, unanswered: 0 }, partial: { perCorrect: 2, perWrong: -1, wrongCancels: false } };
  table(partial, [
    ['both gaps are right', { G1: 'hydrogen', G2: 'oxygen' }, 4, 'correct'],
    ['one gap is right and one empty', { G1: 'hydrogen', G2: '' }, 2, 'partial'],
    ['one gap is right and one wrong', { G1: 'hydrogen', G2: 'neon' }, 1, 'partial'],
    ['both gaps are wrong', { G1: 'neon', G2: 'argon' }, -2, 'wrong'],
    ['one gap is wrong and one empty', { G2: 'argon' }, -1, 'wrong'],
  ]);
  it('should list each filled gap with whether it is right', () => {
    expect(score(fillInBlanks, { G1: 'Hydrogen', G2: 'neon' }).parts).toEqual([
      { id: 'G1', correct: true },
      { id: 'G2', correct: false },
    ]);
  });
});

describe('score: matching', () => {
  const key: [string, string][] = [
    ['GJ', 'GAN'],
    ['MH', 'MUM'],
    ['KA', 'BLR'],
  ];
  table(matching, [
    ['every pair is right', key, 4, 'correct'],
    ['every pair is right in another order', [...key].reverse(), 4, 'correct'],
    ['two pairs are right', key.slice(0, 2), -1, 'wrong'],
    [
      'one pair is swapped',
      [
        ['GJ', 'MUM'],
        ['MH', 'GAN'],
        ['KA', 'BLR'],
      ],
      -1,
      'wrong',
    ],
    ['no pair is given', [], 0, 'unanswered'],
  ]);
  const partial = { ...matching, marking: { correct: 3, wrong: 0, unanswered: 0 }, partial: { perCorrect: 1, perWrong: 0, wrongCancels: false } };
  table(partial, [
    ['every pair is right', key, 3, 'correct'],
    ['two pairs are right', key.slice(0, 2), 2, 'partial'],
    [
      'one pair is right and two swapped',
      [
        ['GJ', 'MUM'],
        ['MH', 'GAN'],
        ['KA', 'BLR'],
      ],
      1,
      'partial',
    ],
  ]);
});

describe('score: ordering (match_correct on an ordered response)', () => {
  table(ordering, [
    ['the order is right', ['A', 'M', 'C'], 4, 'correct'],
    ['the order is reversed', ['C', 'M', 'A'], -1, 'wrong'],
    ['the order is rotated', ['M', 'C', 'A'], -1, 'wrong'],
    ['only part of the order is given', ['A', 'M'], -1, 'wrong'],
    ['nothing is given', [], 0, 'unanswered'],
  ]);
  it('should use match_correct for +1 / 0 / 0 ordering', () => {
    expect(compiledForm({ ...ordering, marking: unit }).processing).toEqual({ template: 'match_correct' });
    expect(score({ ...ordering, marking: unit }, ['M', 'A', 'C']).score).toBe(0);
  });
});

describe('score: essay', () => {
  it('should need human marking with no score when an answer is written', () => {
    expect(score(essay, 'Water evaporates, condenses and falls as rain.')).toEqual({
      score: null,
      maxScore: 10,
      minScore: 0,
      outcome: 'awaitingMarking',
      needsHumanMarking: true,
      template: null,
      parts: [],
      words: { count: 7, overLimit: false },
    });
  });
  it('should score the unanswered marks and need no marking when nothing is written', () => {
    expect(score(essay, '  ')).toMatchObject({ score: 0, outcome: 'unanswered', needsHumanMarking: false });
  });
  it('should report the word count over the limit when the essay is too long', () => {
    expect(score({ ...essay, wordLimit: 3 }, 'one two three four').words).toEqual({ count: 4, overLimit: true });
  });
});

describe('score: response shapes', () => {
  it.each([
    [singleChoice, ['A']],
    [multipleChoice, 'A'],
    [trueFalse, 'true'],
    [numeric, [9.81]],
    [matching, ['GJ', 'GAN']],
    [fillInBlanks, 'hydrogen'],
    [fillInBlanks, { G1: 5 }],
    [shortText, 5],
  ] as [ItemContent, ItemResponse][])('should refuse a response of the wrong shape for %#', (item, response) => {
    expect(() => score(item, response)).toThrow(InvalidResponseError);
  });
});

describe('parseNumberResponse', () => {
  it.each([
    ['42', 42],
    [' -3.5 ', -3.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['+7', 7],
    ['', null],
  ])('should read %j as %j', (text, expected) => {
    expect(parseNumberResponse(text)).toBe(expected);
  });
  it.each(['1,000', '12abc', '0x10', 'Infinity', '--1'])('should read %j as not a number', (text) => {
    expect(parseNumberResponse(text)).toBeNaN();
  });
});

describe('score: what the result says besides the marks', () => {
  it.each<[string, ItemContent, ItemResponse, string]>([
    ['a single choice sent as a list', singleChoice, ['A'], 'a single choice takes one option id'],
    ['true/false sent as text', trueFalse, 'true', 'true/false takes true or false'],
    ['multiple choice sent as one id', multipleChoice, 'A', 'multiple choice takes a list of option ids'],
    ['multiple choice with a number in the list', multipleChoice, ['A', 3] as unknown as ItemResponse, 'multiple choice takes a list of option ids'],
    ['an ordering sent as one id', ordering, 'A', 'ordering takes a list of option ids'],
    ['matching sent as flat ids', matching, ['GJ', 'GAN'], 'matching takes a list of [left, right] pairs'],
    ['matching with a pair of three', matching, [['GJ', 'GAN', 'MUM']] as unknown as ItemResponse, 'matching takes a list of [left, right] pairs'],
    ['matching with a number in a pair', matching, [['GJ', 1]] as unknown as ItemResponse, 'matching takes a list of [left, right] pairs'],
    ['matching as one pair object', matching, { GJ: 'GAN' }, 'matching takes a list of [left, right] pairs'],
    ['a number sent as a list', numeric, [9.81] as unknown as ItemResponse, 'a numeric answer takes a number or its text'],
    ['short text sent as a number', shortText, 5, 'a text answer takes text'],
    ['an essay sent as a list', essay, ['words'], 'a text answer takes text'],
    ['gaps sent as text', fillInBlanks, 'hydrogen', 'fill-in-the-blanks takes the text of each gap by gap id'],
    ['gaps sent as a list', fillInBlanks, ['hydrogen'], 'fill-in-the-blanks takes the text of each gap by gap id'],
    ['a gap sent as a number', fillInBlanks, { G1: 'hydrogen', G2: 5 } as unknown as ItemResponse, 'gap G2 takes text'],
  ])('should refuse %s, saying why', (_, item, response, message) => {
    expect(() => score(item, response)).toThrow(new InvalidResponseError(message));
    try {
      score(item, response);
    } catch (error) {
      expect((error as Error).name).toBe('InvalidResponseError');
    }
  });

  it('should report the lowest marks possible, wrong or unanswered', () => {
    expect(score(singleChoice, 'A').minScore).toBe(-1);
    expect(score({ ...singleChoice, marking: { correct: 4, wrong: -1, unanswered: -2 } }, 'A').minScore).toBe(-2);
  });

  it('should hold an answered item marked by a person for the marking queue, and score a blank one', () => {
    const byPerson: ItemContent = { ...multipleChoice, marking: { correct: 4, wrong: -1, unanswered: -0.5, byPerson: true } };
    expect(score(byPerson, ['A'])).toEqual({
      score: null,
      maxScore: 4,
      minScore: -1,
      outcome: 'awaitingMarking',
      needsHumanMarking: true,
      template: null,
      parts: [],
    });
    expect(score(byPerson, [])).toMatchObject({ score: -0.5, outcome: 'unanswered', needsHumanMarking: false });
  });

  it('should list the parts given, each once, with whether they are in the key', () => {
    expect(score(multipleChoice, ['C', 'B', 'C']).parts).toEqual([
      { id: 'C', correct: true },
      { id: 'B', correct: false },
    ]);
    expect(
      score(matching, [
        ['GJ', 'GAN'],
        ['MH', 'BLR'],
        ['GJ', 'GAN'],
      ]).parts,
    ).toEqual([
      { id: 'GJ GAN', correct: true },
      { id: 'MH BLR', correct: false },
    ]);
    expect(score(singleChoice, 'A').parts).toEqual([]);
    expect(score(multipleChoice, null).parts).toEqual([]);
  });

  it('should judge each gap by its own case rule and leave blank gaps out of the parts', () => {
    const cased: ItemContent = {
      ...fillInBlanks,
      gaps: [
        { id: 'G1', answers: [{ text: 'H2', caseSensitive: true }], expectedLength: 5 },
        { id: 'G2', answers: [{ text: 'Oxygen', caseSensitive: false }], expectedLength: 5 },
      ],
    };
    expect(score(cased, { G1: 'h2', G2: ' OXYGEN ' }).parts).toEqual([
      { id: 'G1', correct: false },
      { id: 'G2', correct: true },
    ]);
    expect(score(cased, { G1: 'H2', G2: '   ' }).parts).toEqual([{ id: 'G1', correct: true }]);
    expect(score(cased, { G2: null }).outcome).toBe('unanswered');
  });

  it('should count the words of an essay, none for a blank one, and know no limit when there is none', () => {
    expect(score({ ...essay, wordLimit: null }, 'one two three').words).toEqual({ count: 3, overLimit: false });
    expect(score({ ...essay, wordLimit: 3 }, ' one  two three ').words).toEqual({ count: 3, overLimit: false });
    expect(score(essay, null).words).toEqual({ count: 0, overLimit: false });
    expect(score(essay, '').outcome).toBe('unanswered');
  });

  it('should take a typed number as it is, and an infinite one as wrong', () => {
    expect(parseNumberResponse(9.8)).toBe(9.8);
    expect(parseNumberResponse(Number.POSITIVE_INFINITY)).toBeNaN();
    expect(score(numeric, 9.8)).toMatchObject({ score: 4, outcome: 'correct' });
    expect(score(numeric, Number.NaN)).toMatchObject({ score: -1, outcome: 'wrong' });
  });

  it('should call a score between nothing and the maximum partial, and nothing or less wrong', () => {
    const moodle: ItemContent = {
      ...multipleChoice,
      marking: { correct: 2, wrong: 0, unanswered: 0 },
      partial: { perCorrect: 1, perWrong: -1, wrongCancels: false },
    };
    expect(score(moodle, ['A']).outcome).toBe('partial');
    expect(score(moodle, ['A', 'B']).outcome).toBe('wrong');
    expect(score(moodle, ['A', 'C']).outcome).toBe('correct');
  });
});

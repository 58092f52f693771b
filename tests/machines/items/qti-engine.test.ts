import { describe, expect, it } from 'vitest';
import {
  compileProcessing,
  formatScalar,
  insideArea,
  mapResponse,
  mapResponsePoint,
  normalizePair,
  parseScalar,
  ProcessingError,
  withinTolerance,
  type Expr,
  type QValue,
  type ResponseDeclaration,
} from '#machines/items/qti-engine.ts';

describe('withinTolerance', () => {
  it.each<[number, number, 'exact' | 'absolute' | 'relative', [number, number], boolean, boolean, boolean]>([
    [10, 10, 'exact', [0, 0], true, true, true],
    [10.0000001, 10, 'exact', [0, 0], true, true, false],
    [9.5, 10, 'absolute', [0.5, 0.5], true, true, true],
    [9.5, 10, 'absolute', [0.5, 0.5], false, true, false],
    [10.5, 10, 'absolute', [0.5, 0.5], true, false, false],
    [10.2, 10, 'absolute', [0, 0.25], true, true, true],
    [9.9, 10, 'absolute', [0, 0.25], true, true, false],
    [95, 100, 'relative', [5, 5], true, true, true],
    [94.9, 100, 'relative', [5, 5], true, true, false],
    [-105, -100, 'relative', [5, 5], true, true, true],
    [Number.NaN, 1, 'absolute', [1, 1], true, true, false],
  ])('should say %s is within %s (%s %j, lower %s, upper %s): %s', (x, y, mode, t, lower, upper, expected) => {
    expect(withinTolerance(x, y, mode, t, lower, upper)).toBe(expected);
  });
});

describe('mapResponse', () => {
  const mapping = {
    entries: [
      { key: 'York', value: 1, caseSensitive: true },
      { key: 'york', value: 0.5, caseSensitive: false },
    ],
    defaultValue: -1,
  };
  it('should take the first entry that matches, by its case rule', () => {
    expect([mapResponse(mapping, 'York'), mapResponse(mapping, 'YORK'), mapResponse(mapping, 'Leeds'), mapResponse(mapping, null)]).toEqual([1, 0.5, -1, 0]);
  });
  it('should count each distinct value of a container once and apply the bounds', () => {
    const m = { entries: [{ key: 'A', value: 2, caseSensitive: true }], defaultValue: -1, lowerBound: -1.5, upperBound: 3 };
    expect([mapResponse(m, ['A', 'A']), mapResponse(m, ['A', 'B', 'C', 'D']), mapResponse(m, ['B', 'C', 'D'])]).toEqual([2, -1, -1.5]);
  });
});

describe('areas', () => {
  it.each<[string, number[], { x: number; y: number }, boolean]>([
    ['circle', [0, 0, 5], { x: 3, y: 4 }, true],
    ['circle', [0, 0, 5], { x: 4, y: 4 }, false],
    ['rect', [10, 10, 0, 0], { x: 5, y: 10 }, true],
    ['rect', [0, 0, 10, 10], { x: 11, y: 5 }, false],
    ['ellipse', [0, 0, 4, 2], { x: 4, y: 0 }, true],
    ['ellipse', [0, 0, 4, 2], { x: 0, y: 2.1 }, false],
    ['poly', [0, 0, 10, 0, 10, 10, 0, 10], { x: 5, y: 5 }, true],
    ['poly', [0, 0, 10, 0, 0, 10], { x: 8, y: 8 }, false],
    ['default', [], { x: 1e6, y: -1e6 }, true],
  ])('should say whether a %s %j holds %j', (shape, coords, point, expected) => {
    expect(insideArea(shape as 'circle', coords, point)).toBe(expected);
  });
  it('should count an area once however many points fall in it, and map stray points to the default', () => {
    const mapping = { entries: [{ shape: 'circle' as const, coords: [0, 0, 2], value: 1 }], defaultValue: -0.5 };
    expect(
      mapResponsePoint(mapping, [
        { x: 0, y: 0 },
        { x: 1, y: 1 },
        { x: 9, y: 9 },
      ]),
    ).toBe(0.5);
  });
});

describe('values', () => {
  it('should read pairs unordered and directed pairs as written', () => {
    expect([normalizePair('B A'), parseScalar('pair', ' A  B '), parseScalar('directedPair', 'B A')]).toEqual(['A B', 'A B', 'B A']);
  });
  it('should refuse numbers, booleans and points that are not', () => {
    expect(() => parseScalar('float', 'x')).toThrow('"x" is not a float');
    expect(() => parseScalar('boolean', 'yes')).toThrow('"yes" is not a boolean');
    expect(() => parseScalar('point', '1')).toThrow('"1" is not a point');
  });
});

describe('compileProcessing: NULL and containers', () => {
  const decl = (identifier: string, cardinality: 'single' | 'multiple' | 'ordered', correct: string[]): ResponseDeclaration => ({
    identifier,
    cardinality,
    baseType: 'identifier',
    correct,
  });
  const run = (when: Expr, decls: ResponseDeclaration[], responses: Record<string, string | string[] | null>) =>
    compileProcessing(decls, {
      template: null,
      rules: [{ type: 'condition', branches: [{ when, then: [{ type: 'set', id: 'SCORE', expr: { op: 'baseValue', baseType: 'float', value: 1 } }] }] }],
    })(responses);
  const v = (id: string): Expr => ({ op: 'variable', id });
  const isNull = (id: string): Expr => ({ op: 'isNull', args: [v(id)] });
  const match = (id: string): Expr => ({ op: 'match', args: [v(id), { op: 'correct', id }] });

  it('should let a false decide an and over a NULL, and a true decide an or', () => {
    const decls = [decl('A', 'single', ['x']), decl('B', 'single', ['y'])];
    expect(run({ op: 'and', args: [match('A'), match('B')] }, decls, { A: 'x', B: null })).toBe(0);
    expect(run({ op: 'or', args: [match('A'), match('B')] }, decls, { A: 'x', B: null })).toBe(1);
    expect(run({ op: 'not', args: [match('B')] }, decls, { A: 'x', B: null })).toBe(0);
    expect(run({ op: 'and', args: [isNull('B'), match('A')] }, decls, { A: 'x', B: null })).toBe(1);
  });

  it('should match ordered responses as sequences and multiple responses as sets', () => {
    expect(run(match('O'), [decl('O', 'ordered', ['a', 'b'])], { O: ['b', 'a'] })).toBe(0);
    expect(run(match('O'), [decl('O', 'ordered', ['a', 'b'])], { O: ['a', 'b'] })).toBe(1);
    expect(run(match('M'), [decl('M', 'multiple', ['a', 'b'])], { M: ['b', 'a'] })).toBe(1);
    expect(run(match('M'), [decl('M', 'multiple', ['a', 'b'])], { M: ['a'] })).toBe(0);
  });

  it('should stop at exitResponse and leave SCORE at 0 when nothing sets it', () => {
    const scoreOf = compileProcessing([], {
      template: null,
      rules: [{ type: 'exit' }, { type: 'set', id: 'SCORE', expr: { op: 'baseValue', baseType: 'float', value: 5 } }],
    });
    expect(scoreOf({})).toBe(0);
  });
});

/**
 * Every operator the engine evaluates, read through SCORE: `truth` gives 2 for NULL, 1 for true
 * and 0 for false; `amount` gives the number, or -999 for NULL. The expected values are QTI 3.0's
 * definitions of the operators (qti-member, qti-contains, qti-sum … in the specification).
 */
describe('compileProcessing: each operator', () => {
  const id = (value: string): Expr => ({ op: 'baseValue', baseType: 'identifier', value });
  const n = (value: number): Expr => ({ op: 'baseValue', baseType: 'float', value });
  const str = (value: string): Expr => ({ op: 'baseValue', baseType: 'string', value });
  const multiple = (...args: Expr[]): Expr => ({ op: 'multiple', args });
  const ordered = (...args: Expr[]): Expr => ({ op: 'ordered', args });
  const NULL: Expr = { op: 'null' };
  const isNull = (expr: Expr): Expr => ({ op: 'isNull', args: [expr] });
  const set = (expr: Expr, id = 'SCORE') => ({ type: 'set' as const, id, expr });
  const decls: ResponseDeclaration[] = [
    { identifier: 'ONE', cardinality: 'single', baseType: 'identifier', correct: ['A'] },
    { identifier: 'NONE', cardinality: 'single', baseType: 'identifier', correct: [] },
    { identifier: 'BARE', cardinality: 'single', baseType: 'identifier', correct: null },
    { identifier: 'SEQ', cardinality: 'ordered', baseType: 'identifier', correct: ['A', 'B'] },
  ];
  const truth = (expr: Expr, responses: Record<string, QValue> = {}) =>
    compileProcessing(decls, {
      template: null,
      rules: [
        {
          type: 'condition',
          branches: [
            { when: isNull(expr), then: [set(n(2))] },
            { when: expr, then: [set(n(1))] },
            { when: null, then: [set(n(0))] },
          ],
        },
      ],
    })(responses);
  const amount = (expr: Expr, responses: Record<string, QValue> = {}) =>
    compileProcessing(decls, {
      template: null,
      rules: [
        {
          type: 'condition',
          branches: [
            { when: isNull(expr), then: [set(n(-999))] },
            { when: null, then: [set(expr)] },
          ],
        },
      ],
    })(responses);

  it.each<[string, Expr, number]>([
    ['member: in the container', { op: 'member', args: [id('B'), multiple(id('A'), id('B'))] }, 1],
    ['member: not in it', { op: 'member', args: [id('C'), multiple(id('A'), id('B'))] }, 0],
    ['member: a single value as the container', { op: 'member', args: [id('A'), id('A')] }, 1],
    ['member: a container as the value', { op: 'member', args: [multiple(id('A')), multiple(id('A'), id('B'))] }, 2],
    ['member: NULL value', { op: 'member', args: [NULL, multiple(id('A'))] }, 2],
    ['member: NULL container', { op: 'member', args: [id('A'), NULL] }, 2],
    ['contains: as many of each', { op: 'contains', args: [multiple(id('A'), id('B'), id('B')), multiple(id('B'), id('B'))] }, 1],
    ['contains: one B too many', { op: 'contains', args: [multiple(id('A'), id('B')), multiple(id('B'), id('B'))] }, 0],
    ['contains: NULL', { op: 'contains', args: [multiple(id('A')), NULL] }, 2],
    ['contains: NULL container', { op: 'contains', args: [NULL, multiple(id('A'))] }, 2],
    ['lt', { op: 'lt', args: [n(1), n(2)] }, 1],
    ['lt equal', { op: 'lt', args: [n(2), n(2)] }, 0],
    ['lte equal', { op: 'lte', args: [n(2), n(2)] }, 1],
    ['lte above', { op: 'lte', args: [n(3), n(2)] }, 0],
    ['gt', { op: 'gt', args: [n(3), n(2)] }, 1],
    ['gt equal', { op: 'gt', args: [n(2), n(2)] }, 0],
    ['gte equal', { op: 'gte', args: [n(2), n(2)] }, 1],
    ['gte below', { op: 'gte', args: [n(1), n(2)] }, 0],
    ['lt with text', { op: 'lt', args: [str('1'), n(2)] }, 2],
    ['gte with NULL', { op: 'gte', args: [n(1), NULL] }, 2],
    ['stringMatch ignoring case', { op: 'stringMatch', caseSensitive: false, args: [str('Paris'), str('PARIS')] }, 1],
    ['stringMatch by case', { op: 'stringMatch', caseSensitive: true, args: [str('Paris'), str('PARIS')] }, 0],
    ['stringMatch with a number', { op: 'stringMatch', caseSensitive: false, args: [str('1'), n(1)] }, 2],
    [
      'equal within the tolerance',
      { op: 'equal', toleranceMode: 'absolute', tolerance: [1, 1], includeLowerBound: true, includeUpperBound: true, args: [n(9), n(10)] },
      1,
    ],
    ['equal with NULL', { op: 'equal', toleranceMode: 'exact', tolerance: [0, 0], includeLowerBound: true, includeUpperBound: true, args: [NULL, n(10)] }, 2],
    [
      'equal with text',
      { op: 'equal', toleranceMode: 'exact', tolerance: [0, 0], includeLowerBound: true, includeUpperBound: true, args: [n(10), str('10')] },
      2,
    ],
    ['not of NULL', { op: 'not', args: [NULL] }, 2],
    ['not of false', { op: 'not', args: [{ op: 'lt', args: [n(2), n(1)] }] }, 1],
    ['match: a single value against a container', { op: 'match', args: [id('A'), multiple(id('A'))] }, 0],
    [
      'match: the same point',
      {
        op: 'match',
        args: [
          { op: 'baseValue', baseType: 'point', value: { x: 1, y: 2 } },
          { op: 'baseValue', baseType: 'point', value: { x: 1, y: 2 } },
        ],
      },
      1,
    ],
    [
      'match: another point',
      {
        op: 'match',
        args: [
          { op: 'baseValue', baseType: 'point', value: { x: 1, y: 2 } },
          { op: 'baseValue', baseType: 'point', value: { x: 2, y: 1 } },
        ],
      },
      0,
    ],
    ['match: a point against text', { op: 'match', args: [{ op: 'baseValue', baseType: 'point', value: { x: 1, y: 2 } }, str('1 2')] }, 0],
    ['match: ordered containers in another order', { op: 'match', args: [ordered(id('A'), id('B')), multiple(id('B'), id('A'))] }, 0],
    ['match: ordered containers of another length', { op: 'match', args: [ordered(id('A'), id('B')), ordered(id('A'))] }, 0],
    ['match: multiple containers in another order', { op: 'match', args: [multiple(id('A'), id('B')), multiple(id('B'), id('A'))] }, 1],
    ['match: multiple containers, one repeated', { op: 'match', args: [multiple(id('A'), id('A')), multiple(id('A'), id('B'))] }, 0],
    ['match: the ordered key in another order', { op: 'match', args: [multiple(id('B'), id('A')), { op: 'correct', id: 'SEQ' }] }, 0],
    ['match: a single key', { op: 'match', args: [id('A'), { op: 'correct', id: 'ONE' }] }, 1],
    ['match: an empty key is NULL', { op: 'match', args: [id('A'), { op: 'correct', id: 'NONE' }] }, 2],
    ['match: no key is NULL', { op: 'match', args: [id('A'), { op: 'correct', id: 'BARE' }] }, 2],
    ['or: all NULL', { op: 'or', args: [NULL, NULL] }, 2],
    [
      'and: all true',
      {
        op: 'and',
        args: [
          { op: 'lt', args: [n(1), n(2)] },
          { op: 'gt', args: [n(2), n(1)] },
        ],
      },
      1,
    ],
    [
      'or: all false',
      {
        op: 'or',
        args: [
          { op: 'lt', args: [n(2), n(1)] },
          { op: 'gt', args: [n(1), n(2)] },
        ],
      },
      0,
    ],
  ])('should evaluate %s', (_, expr, expected) => {
    expect(truth(expr)).toBe(expected);
  });

  it.each<[string, Expr, number]>([
    ['sum', { op: 'sum', args: [n(1), n(2), n(3.5)] }, 6.5],
    ['sum over a container', { op: 'sum', args: [multiple(n(1), n(2)), n(3)] }, 6],
    ['sum with NULL', { op: 'sum', args: [n(1), NULL] }, -999],
    ['sum with text', { op: 'sum', args: [n(1), str('2')] }, -999],
    ['sum of nothing', { op: 'sum', args: [] }, -999],
    ['product', { op: 'product', args: [n(2), n(3), n(4)] }, 24],
    ['subtract', { op: 'subtract', args: [n(5), n(2)] }, 3],
    ['subtract of one value', { op: 'subtract', args: [n(5)] }, 5],
    ['min', { op: 'min', args: [n(3), n(-1), n(2)] }, -1],
    ['max', { op: 'max', args: [n(3), n(-1), n(2)] }, 3],
    ['containerSize', { op: 'containerSize', args: [multiple(id('A'), id('B'), id('C'))] }, 3],
    ['containerSize of a single value', { op: 'containerSize', args: [id('A')] }, 1],
    ['containerSize of NULL', { op: 'containerSize', args: [NULL] }, 0],
    ['containerSize skipping NULLs', { op: 'containerSize', args: [multiple(NULL, id('A'), multiple(id('B'), id('C')))] }, 3],
    ['containerSize of an all-NULL container', { op: 'containerSize', args: [multiple(NULL)] }, 0],
  ])('should compute %s', (_, expr, expected) => {
    expect(amount(expr)).toBe(expected);
  });

  it('should read a response before an outcome of the same name, and an outcome set earlier', () => {
    const run = compileProcessing(decls, {
      template: null,
      rules: [
        set(n(3), 'X'),
        set({
          op: 'sum',
          args: [
            { op: 'variable', id: 'X' },
            { op: 'variable', id: 'X' },
          ],
        }),
      ],
    });
    expect(run({})).toBe(6);
    expect(run({ X: 10 })).toBe(20);
    expect(amount({ op: 'variable', id: 'UNSET' })).toBe(-999);
  });

  it('should leave SCORE at 0 when it is set to something not a finite number', () => {
    expect(compileProcessing([], { template: null, rules: [set(n(Number.POSITIVE_INFINITY))] })({})).toBe(0);
    expect(compileProcessing([], { template: null, rules: [set(str('4'))] })({})).toBe(0);
    expect(compileProcessing([], { template: null, rules: [set(n(-2.5))] })({})).toBe(-2.5);
  });

  it('should go on after a condition no branch takes, and stop at an exit inside a branch', () => {
    const never: Expr = { op: 'lt', args: [n(2), n(1)] };
    const always: Expr = { op: 'lt', args: [n(1), n(2)] };
    const go = (when: Expr) =>
      compileProcessing([], { template: null, rules: [{ type: 'condition', branches: [{ when, then: [set(n(1)), { type: 'exit' }] }] }, set(n(3))] })({});
    expect(go(never)).toBe(3);
    expect(go(always)).toBe(1);
  });

  it('should refuse, when compiling, a key or mapping the declarations do not have', () => {
    const compile = (expr: Expr) => () => compileProcessing(decls, { template: null, rules: [set(expr)] });
    expect(compile({ op: 'correct', id: 'Q' })).toThrow(new ProcessingError('no response declaration "Q"'));
    expect(compile({ op: 'mapResponse', id: 'ONE' })).toThrow(new ProcessingError('"ONE" has no mapping'));
    expect(compile({ op: 'mapResponsePoint', id: 'ONE' })).toThrow(new ProcessingError('"ONE" has no area mapping'));
    expect(compile({ op: 'mapResponse', id: 'Q' })).toThrow('no response declaration "Q"');
  });

  it('should run the three templates as the specification writes them', () => {
    const key: ResponseDeclaration = {
      identifier: 'RESPONSE',
      cardinality: 'single',
      baseType: 'identifier',
      correct: ['A'],
      mapping: { entries: [{ key: 'A', value: 2, caseSensitive: true }], defaultValue: -1 },
      areaMapping: { entries: [{ shape: 'circle', coords: [0, 0, 1], value: 3 }], defaultValue: -2 },
    };
    const run = (template: 'match_correct' | 'map_response' | 'map_response_point', response: QValue) =>
      compileProcessing([key], { template })({ RESPONSE: response });
    expect([run('match_correct', 'A'), run('match_correct', 'B'), run('match_correct', null)]).toEqual([1, 0, 0]);
    expect([run('map_response', 'A'), run('map_response', 'B'), run('map_response', null)]).toEqual([2, -1, 0]);
    expect([run('map_response_point', { x: 0, y: 0 }), run('map_response_point', { x: 5, y: 5 }), run('map_response_point', null)]).toEqual([3, -2, 0]);
  });
});

describe('values and mappings at their edges', () => {
  it('should parse each base type as QTI writes it', () => {
    expect(parseScalar('integer', ' 42 ')).toBe(42);
    expect(() => parseScalar('integer', '')).toThrow('"" is not a integer');
    expect(() => parseScalar('float', 'Infinity')).toThrow('"Infinity" is not a float');
    expect([parseScalar('boolean', '1'), parseScalar('boolean', '0'), parseScalar('boolean', ' true '), parseScalar('boolean', 'false')]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(parseScalar('string', ' a b ')).toBe(' a b ');
    expect(parseScalar('identifier', ' A ')).toBe('A');
    expect(parseScalar('point', ' 3  4 ')).toEqual({ x: 3, y: 4 });
    expect(() => parseScalar('point', '3 y')).toThrow('"3 y" is not a point');
    expect(parseScalar('directedPair', ' B   A ')).toBe('B A');
    expect(parseScalar('pair', 'A B')).toBe('A B');
  });

  it('should write points and other values back as text', () => {
    expect([formatScalar({ x: 3, y: -4 }), formatScalar(true), formatScalar(2.5), formatScalar('A B')]).toEqual(['3 -4', 'true', '2.5', 'A B']);
  });

  it('should map numbers and points by value, and keep a total within its bounds', () => {
    const numbers = { entries: [{ key: 3, value: 2, caseSensitive: true }], defaultValue: 0 };
    expect([mapResponse(numbers, 3), mapResponse(numbers, 4), mapResponse(numbers, '3')]).toEqual([2, 0, 0]);
    const points = { entries: [{ key: { x: 1, y: 2 }, value: 5, caseSensitive: true }], defaultValue: -1 };
    expect([mapResponse(points, { x: 1, y: 2 }), mapResponse(points, { x: 2, y: 1 }), mapResponse(points, '1 2')]).toEqual([5, -1, -1]);
    const bounded = { entries: [{ key: 'A', value: 2, caseSensitive: true }], defaultValue: -3, lowerBound: -1, upperBound: 3 };
    expect([mapResponse(bounded, ['A', 'A']), mapResponse(bounded, 'B'), mapResponse(bounded, null), mapResponse(bounded, 'A')]).toEqual([2, -1, 0, 2]);
    expect(mapResponse({ ...bounded, lowerBound: 1 }, null)).toBe(1);
    expect(mapResponse({ entries: [{ key: 'A', value: 2, caseSensitive: true }], defaultValue: 0, upperBound: 3 }, ['A', 'A ', 'A'])).toBe(2);
  });

  it('should take the areas of a point mapping in order, a lone point as one, and only points from a container', () => {
    const mapping = {
      entries: [
        { shape: 'rect' as const, coords: [0, 0, 10, 10], value: 1 },
        { shape: 'circle' as const, coords: [0, 0, 100], value: 4 },
      ],
      defaultValue: -1,
      lowerBound: -1.5,
      upperBound: 4.5,
    };
    expect(mapResponsePoint(mapping, { x: 5, y: 5 })).toBe(1);
    expect(mapResponsePoint(mapping, [{ x: 5, y: 5 }, { x: 50, y: 0 }, 'x'])).toBe(4.5);
    expect(
      mapResponsePoint(mapping, [
        { x: 500, y: 0 },
        { x: 500, y: 1 },
      ]),
    ).toBe(-1.5);
    expect(mapResponsePoint(mapping, 'x')).toBe(0);
    expect(mapResponsePoint({ ...mapping, lowerBound: 2 }, null)).toBe(2);
  });

  it('should read rectangles from either corner and refuse flat ellipses', () => {
    expect(insideArea('rect', [10, 10, 0, 0], { x: 0, y: 0 })).toBe(true);
    expect(insideArea('rect', [10, 10, 0, 0], { x: 5, y: 11 })).toBe(false);
    expect(insideArea('rect', [0, 0, 10, 10], { x: 5, y: -1 })).toBe(false);
    expect(insideArea('ellipse', [0, 0, 0, 2], { x: 0, y: 0 })).toBe(false);
    expect(insideArea('ellipse', [0, 0, 2, 0], { x: 0, y: 0 })).toBe(false);
    expect(insideArea('ellipse', [0, 0, 4, 2], { x: 0, y: 2 })).toBe(true);
    expect(insideArea('circle', [1, 1, 1], { x: 1, y: 2 })).toBe(true);
    expect(insideArea('poly', [0, 0, 10, 0, 10, 10, 0, 10], { x: 11, y: 5 })).toBe(false);
    expect(insideArea('poly', [0, 0, 10, 0, 5, 10], { x: 5, y: 1 })).toBe(true);
  });

  it('should take relative tolerances below and above separately', () => {
    expect(withinTolerance(109, 100, 'relative', [0, 10])).toBe(true);
    expect(withinTolerance(99, 100, 'relative', [0, 10])).toBe(false);
    expect(withinTolerance(150, 100, 'relative', [0, 50], true, false)).toBe(false);
    expect(withinTolerance(150, 100, 'relative', [0, 50])).toBe(true);
    expect(withinTolerance(100, 100, 'relative', [0, 10], false, true)).toBe(false);
    expect(withinTolerance(1, Number.NaN, 'exact', [0, 0])).toBe(false);
  });
});

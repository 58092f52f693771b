import { describe, expect, it } from 'vitest';
import {
  compileProcessing,
  insideArea,
  mapResponse,
  mapResponsePoint,
  normalizePair,
  parseScalar,
  withinTolerance,
  type Expr,
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

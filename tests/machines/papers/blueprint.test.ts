import { describe, expect, it } from 'vitest';
import { computeBlueprint } from '#machines/papers/blueprint.ts';
import type { PaperItem } from '#machines/papers/paper-records.ts';
import { cell, choiceItem, paper, paperItem, section } from './paper-fixtures.ts';

const byVersion = (items: PaperItem[]) => new Map(items.map((i) => [i.versionId, i]));

describe('blueprint', () => {
  it('should count marks and items by section × category × difficulty, with attempt-any-N counted in the section total', () => {
    const items = [0, 1, 2, 3].map((i) => paperItem(i)); // c0 easy, c1 medium, c2 hard, c0 easy
    const bank = [4, 5, 6, 7, 8, 9].map((i) => paperItem(i, { categoryId: 'c9', difficulty: 'hard' }));
    const spec = paper(
      [
        section('A', 1, { kind: 'fixed', items: ['v0', 'v1', 'v2', 'v3'] }, { marksPerItem: 2, attemptAny: 3 }),
        section('B', 2, { kind: 'draw', draws: [cell('c9', 'hard', 5)] }, { marksPerItem: 4 }),
      ],
      26,
    );
    const blueprint = computeBlueprint(spec, byVersion(items), bank);
    expect(blueprint.warnings).toEqual([]);
    expect(blueprint.blocking).toBe(0);
    expect(blueprint.computedMarks).toBe(26); // 3 × 2 + 5 × 4
    expect(blueprint.itemCount).toBe(9);
    expect(blueprint.sections.map((s) => [s.sectionId, s.count, s.marks])).toEqual([
      ['A', 4, 6],
      ['B', 5, 20],
    ]);
    expect(blueprint.sections[0].cells).toEqual([
      { sectionId: 'A', categoryId: 'c0', difficulty: 'easy', count: 2, marks: 4 },
      { sectionId: 'A', categoryId: 'c1', difficulty: 'medium', count: 1, marks: 2 },
      { sectionId: 'A', categoryId: 'c2', difficulty: 'hard', count: 1, marks: 2 },
    ]);
    expect(blueprint.byDifficulty).toEqual([
      { difficulty: 'easy', count: 2, marks: 4 },
      { difficulty: 'medium', count: 1, marks: 2 },
      { difficulty: 'hard', count: 6, marks: 22 },
    ]);
  });

  it('should warn on every problem of issue 17 and mark which ones block a lock', () => {
    const items = [
      paperItem(1),
      paperItem(2, { approved: false }),
      paperItem(3, { itemId: 'i1', versionId: 'v3' }), // a second version of item i1
      paperItem(4, { content: choiceItem(4, [false, false], ['en']) }),
    ];
    const bank = [paperItem(10, { categoryId: 'c5', difficulty: 'easy' }), paperItem(11, { categoryId: 'c5', difficulty: 'easy', approved: false })];
    const spec = paper(
      [
        section('A', 1, { kind: 'fixed', items: ['v1', 'v2', 'v3', 'v4', 'v99'] }),
        section('B', 2, { kind: 'draw', draws: [cell('c5', 'easy', 2)] }),
        section('C', 3, { kind: 'fixed', items: [] }, { attemptAny: 2 }),
      ],
      10,
    );
    const blueprint = computeBlueprint(spec, byVersion(items), bank);
    const codes = blueprint.warnings.map((w) => w.code);
    expect(codes.sort()).toEqual([
      'attemptAnyTooLarge',
      'drawShortfall',
      'duplicateItem',
      'emptySection',
      'languageMissing',
      'notApproved',
      'totalMismatch',
      'unknownItem',
    ]);
    expect(blueprint.blocking).toBe(7);
    expect(blueprint.warnings.find((w) => w.code === 'drawShortfall')).toMatchObject({ wanted: 2, approved: 1, sectionIds: ['B'] });
    expect(blueprint.warnings.find((w) => w.code === 'duplicateItem')).toMatchObject({ itemId: 'i1', sectionIds: ['A'] });
    expect(blueprint.warnings.find((w) => w.code === 'notApproved')).toMatchObject({ versionId: 'v2' });
    expect(blueprint.warnings.find((w) => w.code === 'totalMismatch')).toMatchObject({ declared: 10, computed: 7 }); // 5 listed in A (one unknown) + 2 drawn in B;
    expect(blueprint.languages).toEqual([
      { language: 'en', missing: [], drawPoolMissing: 0 },
      { language: 'hi', missing: ['v4'], drawPoolMissing: 0 },
    ]);
  });

  it('should add up the draws of one cell across sections and leave fixed items out of the pool', () => {
    const bank = [1, 2, 3, 4].map((i) => paperItem(i, { categoryId: 'k', difficulty: 'medium' }));
    const spec = paper(
      [
        section('A', 1, { kind: 'fixed', items: ['v1'] }),
        section('B', 2, { kind: 'draw', draws: [cell('k', 'medium', 2)] }),
        section('C', 3, { kind: 'draw', draws: [cell('k', 'medium', 1)] }),
      ],
      4,
    );
    expect(computeBlueprint(spec, byVersion(bank), bank).warnings).toEqual([]);
    const tooMany = paper([...spec.sections.slice(0, 2), section('C', 3, { kind: 'draw', draws: [cell('k', 'medium', 2)] })], 5);
    expect(computeBlueprint(tooMany, byVersion(bank), bank).warnings).toMatchObject([
      { code: 'drawShortfall', wanted: 4, approved: 3, sectionIds: ['B', 'C'] },
    ]);
  });
});

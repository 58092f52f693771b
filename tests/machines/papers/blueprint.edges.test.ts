import { describe, expect, it } from 'vitest';
import { computeBlueprint, drawPool, sortedSections } from '#machines/papers/blueprint.ts';
import { cellKey, itemLanguages, type PaperItem } from '#machines/papers/paper-records.ts';
import { cell, choiceItem, paper, paperItem, section } from './paper-fixtures.ts';

/** The blueprint's edges: section order, the setter's warning texts, draw pools and language coverage. */

const byVersion = (items: PaperItem[]) => new Map(items.map((i) => [i.versionId, i]));

describe('blueprint edges', () => {
  it('should give an empty pool from an empty bank', () => {
    expect(drawPool([], new Set())).toEqual([]);
  });

  it('should order sections by their order, then by id, without reordering the input', () => {
    const input = [
      { id: 'b', order: 2 },
      { id: 'z', order: 1 },
      { id: 'c', order: 2 },
      { id: 'a', order: 2 },
      { id: 'y', order: 1 },
    ];
    expect(sortedSections(input).map((s) => s.id)).toEqual(['y', 'z', 'a', 'b', 'c']);
    expect(input.map((s) => s.id)).toEqual(['b', 'z', 'c', 'a', 'y']);
    expect(sortedSections([...input].reverse()).map((s) => s.id)).toEqual(['y', 'z', 'a', 'b', 'c']);
  });

  it('should tell the setter in words what is wrong with each section', () => {
    const items = [paperItem(1, { approved: false }), paperItem(2)];
    const spec = paper(
      [
        section('A', 1, { kind: 'fixed', items: [] }, { title: 'Empty' }),
        section('B', 2, { kind: 'fixed', items: ['v1', 'v404', 'v2'] }, { title: 'Mixed', attemptAny: 4 }),
        section('C', 3, { kind: 'fixed', items: ['v404'] }, { title: 'Again' }),
      ],
      10,
    );
    const messages = computeBlueprint(spec, byVersion(items), []).warnings.map((w) => w.message);
    expect(messages).toEqual([
      'Section "Empty" has no items.',
      'Section "Mixed" asks to attempt any 4 of only 3 items.',
      'Section "Mixed" uses item version v1, which is not approved.',
      'Section "Mixed" uses item version v404, which does not exist in this project.',
      'Section "Again" uses item version v404, which does not exist in this project.',
      'Item v404 is used more than once in this paper.',
      'The sections add up to 4 marks, but the paper declares 10.',
    ]);
    const duplicate = computeBlueprint(spec, byVersion(items), []).warnings.find((w) => w.code === 'duplicateItem');
    expect(duplicate).toMatchObject({ itemId: 'version:v404', sectionIds: ['B', 'C'] });
  });

  it('should name a duplicated item by its own id, even one that contains "version:"', () => {
    const odd = paperItem(1, { itemId: 'bank-version:7' });
    const spec = paper([section('A', 1, { kind: 'fixed', items: ['v1', 'v1'] })], 2);
    const duplicate = computeBlueprint(spec, byVersion([odd]), []).warnings.find((w) => w.code === 'duplicateItem');
    expect(duplicate).toMatchObject({ itemId: 'bank-version:7', sectionIds: ['A'], message: 'Item bank-version:7 is used more than once in this paper.' });
  });

  it('should accept attempt-any equal to the item count', () => {
    const spec = paper([section('A', 1, { kind: 'fixed', items: ['v1', 'v2'] }, { attemptAny: 2 })], 2);
    expect(computeBlueprint(spec, byVersion([paperItem(1), paperItem(2)]), []).warnings).toEqual([]);
  });

  it('should count each cell pool on its own, name a section once per cell, and count pool items without a language', () => {
    const enOnly = (i: number, categoryId: string) => paperItem(i, { categoryId, difficulty: 'easy', content: choiceItem(i, [false, false], ['en']) });
    const bank = [enOnly(1, 'c1'), enOnly(2, 'c2'), enOnly(3, 'c2'), paperItem(4, { categoryId: 'c1', difficulty: 'easy' })];
    const spec = paper(
      [section('A', 1, { kind: 'draw', draws: [cell('c1', 'easy', 2), cell('c1', 'easy', 1)] }), section('B', 2, { kind: 'fixed', items: ['v9'] })],
      4,
    );
    const items = byVersion([paperItem(9, { content: choiceItem(9, [false, false], ['en']) })]);
    const blueprint = computeBlueprint(spec, items, bank);
    expect(blueprint.warnings).toEqual([
      {
        code: 'drawShortfall',
        blocking: true,
        categoryId: 'c1',
        difficulty: 'easy',
        wanted: 3,
        approved: 2,
        sectionIds: ['A'],
        message: 'Draw rules ask for 3 easy items of category c1, but only 2 approved items are available.',
      },
      { code: 'languageMissing', blocking: false, language: 'hi', count: 2, message: '2 items have no hi version.' },
    ]);
    expect(blueprint.languages).toEqual([
      { language: 'en', missing: [], drawPoolMissing: 0 },
      { language: 'hi', missing: ['v9'], drawPoolMissing: 1 },
    ]);
    expect(blueprint.byCategory).toEqual([
      { categoryId: 'c1', count: 3, marks: 3 },
      { categoryId: 'c0', count: 1, marks: 1 },
    ]);
  });
});

describe('paper records', () => {
  it('should key a cell without category or difficulty as none', () => {
    expect(cellKey(null, null)).toBe('none|none');
    expect(cellKey('c1', null)).toBe('c1|none');
  });

  it('should list an item languages in order', () => {
    expect(itemLanguages({ content: choiceItem(1, [false], ['hi', 'en', 'bn']) })).toEqual(['bn', 'en', 'hi']);
  });
});

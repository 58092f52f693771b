import { describe, expect, it } from 'vitest';
import {
  checkEquivalence,
  generateSet,
  lockSnapshot,
  seededRandom,
  seededShuffle,
  serializeSet,
  setProfile,
  type PaperSet,
  type PaperSnapshot,
  type SetItem,
  type SnapshotSection,
} from '#machines/papers/paper-sets.ts';
import { choiceItem, matchingItem, paper, paperItem, section } from './paper-fixtures.ts';

/** Sets at their edges: the exact generator stream, pool order, refusals, stored bytes and the equivalence check. */

const snapSection = (over: Partial<SnapshotSection>): SnapshotSection => ({
  id: 's1',
  order: 1,
  title: 'Section 1',
  marksPerItem: 1,
  attemptAny: null,
  shuffleItems: false,
  shuffleOptions: true,
  fixed: null,
  draws: null,
  ...over,
});

const setItem = (versionId: string, over: Partial<SetItem> = {}): SetItem => ({
  number: 1,
  versionId,
  itemId: `i-${versionId}`,
  categoryId: 'c1',
  difficulty: 'easy',
  marks: 1,
  options: null,
  left: null,
  right: null,
  ...over,
});
const oneSet = (letter: string, sections: PaperSet['sections']): PaperSet => ({ letter, seed: 'x', sections });

describe('the seeded generator', () => {
  it('should give the same stream for a seed on every run, so stored sets can be regenerated', () => {
    const random = seededRandom('paper-42|A');
    expect(Array.from({ length: 8 }, () => random(1000))).toEqual([891, 472, 915, 32, 255, 470, 383, 977]);
    const empty = seededRandom('');
    expect(Array.from({ length: 4 }, () => empty(1000))).toEqual([257, 910, 473, 813]);
  });

  it('should draw one number per swap, each within the places not yet fixed', () => {
    const asked: number[] = [];
    const highest = (n: number) => {
      asked.push(n);
      return n - 1;
    };
    expect(seededShuffle(['a', 'b', 'c', 'd'], highest)).toEqual(['a', 'b', 'c', 'd']);
    expect(asked).toEqual([4, 3, 2]);
    expect(seededShuffle(['a', 'b', 'c', 'd'], () => 0)).toEqual(['b', 'c', 'd', 'a']);
  });
});

describe('locking', () => {
  it('should refuse a pinned version it does not know', () => {
    const spec = paper([section('s1', 1, { kind: 'fixed', items: ['v404'] })], 1);
    expect(() => lockSnapshot(spec, new Map(), [])).toThrow(/v404/);
  });

  it('should list each cell pool by version id, whatever the bank order', () => {
    const bank = [paperItem(30), paperItem(3), paperItem(12), paperItem(21)].map((i) => ({ ...i, categoryId: 'c0', difficulty: 'easy' as const }));
    const spec = paper([section('s1', 1, { kind: 'draw', draws: [{ categoryId: 'c0', difficulty: 'easy', count: 2 }] })], 2);
    const snapshot = lockSnapshot(spec, new Map(), bank);
    expect(snapshot.sections[0].draws?.[0].pool).toEqual(['v12', 'v21', 'v3', 'v30']);
  });
});

describe('generating a set', () => {
  const items: PaperSnapshot['items'] = {
    mc: {
      versionId: 'mc',
      itemId: 'i-mc',
      categoryId: 'c1',
      difficulty: 'easy',
      content: { ...choiceItem(1, [false, false, false, false, false, true]), kind: 'multipleChoice', correct: ['o1'] } as never,
    },
    ord: {
      versionId: 'ord',
      itemId: 'i-ord',
      categoryId: 'c1',
      difficulty: 'easy',
      content: { ...choiceItem(2, [false, false, false, false, false, false]), kind: 'ordering' } as never,
    },
    match: { versionId: 'match', itemId: 'i-match', categoryId: 'c1', difficulty: 'easy', content: matchingItem(3, 6) },
  };

  it('should shuffle the options of multiple-choice, ordering and matching items for some seed, keeping the last option last', () => {
    const snapshot: PaperSnapshot = { sections: [snapSection({ fixed: ['mc', 'ord', 'match'] })], items };
    const sets = ['1', '2', '3', '4', '5', '6'].map((seed) => generateSet(snapshot, 'A', seed).sections[0].items);
    const inOrder = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    expect(sets.some((s) => s[0].options?.join() !== ['o1', 'o2', 'o3', 'o4', 'o5', 'o6'].join())).toBe(true);
    expect(sets.every((s) => s[0].options?.[5] === 'o6')).toBe(true);
    expect(sets.some((s) => s[1].options?.join() !== ['o1', 'o2', 'o3', 'o4', 'o5', 'o6'].join())).toBe(true);
    expect(sets.every((s) => [...(s[1].options ?? [])].sort().join() === 'o1,o2,o3,o4,o5,o6')).toBe(true);
    expect(sets.some((s) => s[2].left?.join() !== inOrder(6, 'l').join())).toBe(true);
    expect(sets.some((s) => s[2].right?.join() !== inOrder(6, 'r').join())).toBe(true);
  });

  it('should keep option order when the section does not shuffle options', () => {
    const snapshot: PaperSnapshot = { sections: [snapSection({ fixed: ['mc', 'match'], shuffleOptions: false })], items };
    for (const seed of ['1', '2', '3']) {
      const [mc, match] = generateSet(snapshot, 'A', seed).sections[0].items;
      expect(mc.options).toEqual(['o1', 'o2', 'o3', 'o4', 'o5', 'o6']);
      expect(match).toMatchObject({ options: null, left: ['l0', 'l1', 'l2', 'l3', 'l4', 'l5'], right: ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'] });
    }
  });

  it('should give an empty section when it has neither fixed items nor draw rules', () => {
    expect(generateSet({ sections: [snapSection({})], items }, 'A', '1').sections).toEqual([{ sectionId: 's1', items: [] }]);
  });

  it('should refuse a draw its pool cannot fill, and a version missing from the snapshot', () => {
    const short = snapSection({ draws: [{ categoryId: 'c1', difficulty: 'easy', count: 2, pool: ['mc'] }] });
    expect(() => generateSet({ sections: [short], items }, 'A', '1')).toThrow(/only 1 items left/);
    expect(() => generateSet({ sections: [snapSection({ fixed: ['gone'] })], items }, 'A', '1')).toThrow(/gone/);
  });
});

describe('stored sets and their equivalence', () => {
  it('should write a set with its keys in a fixed order', () => {
    const set: PaperSet = {
      seed: 's',
      sections: [
        {
          items: [{ right: null, left: null, options: ['b', 'a'], marks: 2, difficulty: 'hard', categoryId: 'c', itemId: 'i', versionId: 'v', number: 1 }],
          sectionId: 'x',
        },
      ],
      letter: 'B',
    };
    expect(serializeSet(set)).toBe(
      '{"letter":"B","seed":"s","sections":[{"sectionId":"x","items":[{"number":1,"versionId":"v","itemId":"i","categoryId":"c","difficulty":"hard","marks":2,"options":["b","a"],"left":null,"right":null}]}]}',
    );
  });

  it('should list profile cells in key order', () => {
    const set = oneSet('A', [
      { sectionId: 's2', items: [setItem('a', { categoryId: 'c2' })] },
      { sectionId: 's1', items: [setItem('b', { categoryId: 'c9' }), setItem('c', { categoryId: 'c1' }), setItem('d', { categoryId: 'c1' })] },
    ]);
    expect(Object.keys(setProfile(set))).toEqual(['s1|c1|easy', 's1|c9|easy', 's2|c2|easy']);
  });

  it('should call no sets equivalent, and name a cell that differs in count or marks alone', () => {
    expect(checkEquivalence([])).toEqual({ equivalent: true, differences: [] });
    const a = oneSet('A', [{ sectionId: 's1', items: [setItem('a', { marks: 2 })] }]);
    const moreMarks = oneSet('B', [{ sectionId: 's1', items: [setItem('b', { marks: 3 })] }]);
    const otherCell = oneSet('C', [{ sectionId: 's1', items: [setItem('c', { marks: 1 }), setItem('d', { marks: 1, categoryId: 'c2' })] }]);
    expect(checkEquivalence([a, moreMarks]).differences).toEqual([{ cell: 's1|c1|easy', letter: 'B', count: 1, marks: 3, expectedCount: 1, expectedMarks: 2 }]);
    expect(checkEquivalence([a, otherCell]).differences).toEqual([
      { cell: 's1|c1|easy', letter: 'C', count: 1, marks: 1, expectedCount: 1, expectedMarks: 2 },
      { cell: 's1|c2|easy', letter: 'C', count: 1, marks: 1, expectedCount: 0, expectedMarks: 0 },
    ]);
    const twoForOne = oneSet('D', [{ sectionId: 's1', items: [setItem('e', { marks: 1 }), setItem('f', { marks: 1 })] }]);
    expect(checkEquivalence([a, twoForOne]).differences).toEqual([{ cell: 's1|c1|easy', letter: 'D', count: 2, marks: 2, expectedCount: 1, expectedMarks: 2 }]);
    const missing = oneSet('E', [{ sectionId: 's1', items: [] }]);
    expect(checkEquivalence([a, missing])).toEqual({
      equivalent: false,
      differences: [{ cell: 's1|c1|easy', letter: 'E', count: 0, marks: 0, expectedCount: 1, expectedMarks: 2 }],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { blankItem, setText } from '#machines/items/item-draft.ts';
import { diffContent } from '#machines/items/item-diff.ts';

/**
 * The version diff the item screen shows (docs/decisions/0123): paths into the content JSON,
 * objects key by key in sorted order, arrays index by index, a side missing = added or removed.
 */
describe('diffContent', () => {
  it('should find nothing between equal contents, NaN included', () => {
    const item = blankItem('singleChoice', ['en', 'hi']);
    expect(diffContent(item, structuredClone(item))).toEqual([]);
    expect(diffContent({ answer: Number.NaN }, { answer: Number.NaN })).toEqual([]);
  });

  it('should name a changed text by its path through languages and fields', () => {
    const before = blankItem('singleChoice', ['en', 'hi']);
    const after = setText(before, 'hi', { choice: 'B', html: '<p>ब</p>' });
    expect(diffContent(before, after)).toEqual([{ path: 'variants.hi.choices.B', change: 'changed', before: '', after: '<p>ब</p>' }]);
  });

  it('should walk arrays index by index and report the extra entries of the longer one', () => {
    const before = {
      options: [
        { id: 'A', keepLast: false },
        { id: 'B', keepLast: false },
      ],
    };
    const after = {
      options: [
        { id: 'A', keepLast: false },
        { id: 'B', keepLast: true },
        { id: 'C', keepLast: false },
      ],
    };
    expect(diffContent(before, after)).toEqual([
      { path: 'options[1].keepLast', change: 'changed', before: false, after: true },
      { path: 'options[2]', change: 'added', before: null, after: { id: 'C', keepLast: false } },
    ]);
    expect(diffContent(after, before)).toEqual([
      { path: 'options[1].keepLast', change: 'changed', before: true, after: false },
      { path: 'options[2]', change: 'removed', before: { id: 'C', keepLast: false }, after: null },
    ]);
  });

  it('should list the keys of both sides once, in sorted order, whichever side has them', () => {
    expect(diffContent({ wrong: 0, correct: 1, byPerson: true }, { unanswered: -1, correct: 2, wrong: 0 })).toEqual([
      { path: 'byPerson', change: 'removed', before: true, after: null },
      { path: 'correct', change: 'changed', before: 1, after: 2 },
      { path: 'unanswered', change: 'added', before: null, after: -1 },
    ]);
  });

  it('should report a value that changed shape as changed where it stands, without walking into it', () => {
    expect(diffContent({ partial: null }, { partial: { perCorrect: 1 } })).toEqual([
      { path: 'partial', change: 'changed', before: null, after: { perCorrect: 1 } },
    ]);
    expect(diffContent({ correct: ['A'] }, { correct: { 0: 'A' } })).toEqual([{ path: 'correct', change: 'changed', before: ['A'], after: { 0: 'A' } }]);
    expect(diffContent({ correct: { 0: 'A' } }, { correct: ['A'] })).toEqual([{ path: 'correct', change: 'changed', before: { 0: 'A' }, after: ['A'] }]);
  });

  it('should start paths at the root: a bare index for a top-level array, an empty path for the whole value', () => {
    expect(diffContent(['A', 'B'], ['A', 'C'])).toEqual([{ path: '[1]', change: 'changed', before: 'B', after: 'C' }]);
    expect(diffContent(undefined, { kind: 'essay' })).toEqual([{ path: '', change: 'added', before: null, after: { kind: 'essay' } }]);
    expect(diffContent('x', undefined)).toEqual([{ path: '', change: 'removed', before: 'x', after: null }]);
  });
});

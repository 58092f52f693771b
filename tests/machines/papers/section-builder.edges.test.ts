import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { PAPER_LIMITS } from '#machines/papers/paper-records.ts';
import {
  classifySaveFailure,
  emptySection,
  sectionBuilderMachine,
  sectionProblems,
  type SectionBuilderInput,
  type SectionDraft,
} from '#machines/papers/section-builder.machine.ts';

/** The section editor's boundaries: limits, odd field values, refused moves, and odd server bodies. */

const item = (n: number) => ({ versionId: String(100 + n), label: `ITM-${n} · Question ${n}` });
const items = (n: number) => Array.from({ length: n }, (_, i) => item(i));
const good: SectionDraft = { ...emptySection(), title: 'A', items: [item(1), item(2)] };

function builder(input: SectionBuilderInput = {}) {
  const machine = sectionBuilderMachine.provide({ actors: { saveSection: fromPromise(async () => ({ sectionId: 1, version: 1 })) } });
  return createActor(machine, { input }).start();
}

describe('section problems at the limits', () => {
  it('should shuffle items and options in a new section', () => {
    expect(emptySection()).toMatchObject({ shuffleItems: true, shuffleOptions: true });
    expect(builder().getSnapshot().context).toMatchObject({ dirty: false, draft: { shuffleItems: true, shuffleOptions: true } });
  });

  it('should count a blank title as missing', () => {
    expect(sectionProblems({ ...good, title: '   ' })).toEqual(['titleMissing']);
  });

  it('should accept marks up to 100 000 per item and the most items a section may hold', () => {
    expect(sectionProblems({ ...good, marksPerItem: 100_000 })).toEqual([]);
    expect(sectionProblems({ ...good, marksPerItem: 100_001 })).toEqual(['marksInvalid']);
    expect(sectionProblems({ ...good, items: items(PAPER_LIMITS.itemsPerSection) })).toEqual([]);
  });

  it('should not call attempt-any too large when the section has no items yet', () => {
    expect(sectionProblems({ ...good, items: [], attemptAny: 2 })).toEqual(['noItems']);
  });

  it('should accept a one-minute time limit', () => {
    expect(sectionProblems({ ...good, timeLimitMinutes: 1 })).toEqual([]);
  });

  it('should ignore left-over draw rules on a fixed section', () => {
    const leftOver = [
      { categoryId: '4', difficulty: 'easy' as const, count: 0 },
      { categoryId: '4', difficulty: 'easy' as const, count: 0 },
    ];
    expect(sectionProblems({ ...good, draws: leftOver })).toEqual([]);
  });

  it('should flag one bad draw count among good ones, and accept distinct cells', () => {
    const draw: SectionDraft = {
      ...good,
      kind: 'draw',
      draws: [
        { categoryId: '4', difficulty: 'easy', count: 2 },
        { categoryId: '5', difficulty: 'easy', count: 0 },
      ],
    };
    expect(sectionProblems(draw)).toEqual(['drawCountInvalid']);
    expect(sectionProblems({ ...draw, draws: [draw.draws[0], { categoryId: '4', difficulty: 'hard', count: 1 }] })).toEqual([]);
  });
});

describe('classifying odd refusals', () => {
  it('should call anything that is not an object a plain failure', () => {
    expect(classifySaveFailure(null)).toEqual({ kind: 'failed', messages: [] });
    expect(classifySaveFailure('boom')).toEqual({ kind: 'failed', messages: [] });
    expect(classifySaveFailure(Object.assign(['x'], { statusCode: 400 }))).toEqual({ kind: 'failed', messages: [] });
  });

  it('should keep only the text messages of a body', () => {
    expect(classifySaveFailure({ statusCode: 422, messages: ['too long', 5] })).toEqual({ kind: 'invalid', messages: ['too long'] });
    expect(classifySaveFailure({ statusCode: 400, errors: { title: ['required', 3], count: 'not a list' } })).toEqual({
      kind: 'invalid',
      messages: ['required'],
    });
  });

  it('should fall back to the title when the body has no messages, and to nothing without one', () => {
    expect(classifySaveFailure({ statusCode: 500, title: 'Server error' })).toEqual({ kind: 'failed', messages: ['Server error'] });
    expect(classifySaveFailure({ statusCode: 500, errors: [['hidden']] })).toEqual({ kind: 'failed', messages: [] });
    expect(classifySaveFailure({ statusCode: 500 })).toEqual({ kind: 'failed', messages: [] });
  });

  it('should read only a numeric status', () => {
    expect(classifySaveFailure({ status: '400', messages: ['x'] })).toEqual({ kind: 'failed', messages: ['x'] });
    expect(classifySaveFailure({ status: 422, messages: ['x'] })).toEqual({ kind: 'invalid', messages: ['x'] });
  });
});

describe('the section builder with odd edits', () => {
  it('should fail the save when the view provides no way to save', async () => {
    const actor = createActor(sectionBuilderMachine, { input: { draft: good } }).start();
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(actor.getSnapshot().context).toMatchObject({ sectionId: null, version: null, failure: { kind: 'failed', messages: [] } });
  });

  it('should read field values by the field they set', () => {
    const actor = builder();
    const set = (field: 'title' | 'marksPerItem' | 'attemptAny' | 'timeLimitMinutes' | 'shuffleItems' | 'shuffleOptions', value: unknown) => {
      actor.send({ type: 'field.set', field, value });
      return actor.getSnapshot().context.draft[field];
    };
    expect(set('title', null)).toBe('');
    expect(set('shuffleItems', false)).toBe(false);
    expect(set('shuffleItems', 'yes')).toBe(false);
    expect(set('shuffleItems', true)).toBe(true);
    expect(set('shuffleOptions', false)).toBe(false);
    expect(set('marksPerItem', '')).toBe(0);
    expect(set('marksPerItem', '2.5')).toBe(2.5);
    expect(set('attemptAny', null)).toBeNull();
    expect(set('attemptAny', undefined)).toBeNull();
    expect(set('timeLimitMinutes', '30')).toBe(30);
  });

  it('should keep other languages when one instruction is set, and drop a blanked one', () => {
    const actor = builder({ draft: { instructions: { en: 'Answer all' } } });
    actor.send({ type: 'instructions.set', language: 'hi', text: 'सभी' });
    expect(actor.getSnapshot().context.draft.instructions).toEqual({ en: 'Answer all', hi: 'सभी' });
    actor.send({ type: 'instructions.set', language: 'en', text: '  ' });
    expect(actor.getSnapshot().context.draft.instructions).toEqual({ hi: 'सभी' });
  });

  it('should switch the rule kind', () => {
    const actor = builder();
    actor.send({ type: 'rule.kind', kind: 'draw' });
    expect(actor.getSnapshot().context).toMatchObject({ dirty: true, draft: { kind: 'draw' } });
  });

  it('should refuse moves onto themselves or off either end without marking the draft edited', () => {
    const actor = builder({ draft: { items: items(3) } });
    for (const [from, to] of [
      [1, 1],
      [-1, 0],
      [3, 0],
      [2, 3],
      [0, -1],
    ])
      actor.send({ type: 'items.move', from, to });
    expect(actor.getSnapshot().context).toMatchObject({ dirty: false, announcement: null, draft: { items: items(3) } });
    actor.send({ type: 'items.move', from: 0, to: 2 });
    expect(actor.getSnapshot().context.draft.items.map((i) => i.versionId)).toEqual(['101', '102', '100']);
    expect(actor.getSnapshot().context.announcement).toEqual({ kind: 'moved', label: item(0).label, position: 3, of: 3 });
  });

  it('should refuse an item beyond the section limit', () => {
    const actor = builder({ draft: { items: items(PAPER_LIMITS.itemsPerSection) } });
    actor.send({ type: 'items.add', item: { versionId: 'new', label: 'one too many' } });
    expect(actor.getSnapshot().context).toMatchObject({ dirty: false });
    expect(actor.getSnapshot().context.draft.items).toHaveLength(PAPER_LIMITS.itemsPerSection);
  });

  it('should announce the removal of an item that is not listed with an empty label', () => {
    const actor = builder({ draft: { items: items(2) } });
    actor.send({ type: 'items.remove', versionId: 'nope' });
    expect(actor.getSnapshot().context.announcement).toEqual({ kind: 'removed', label: '', position: 0, of: 1 });
  });

  it('should add draw rules for other categories of the same difficulty, but no unknown difficulty and none past the limit', () => {
    const actor = builder({ draft: { kind: 'draw' } });
    actor.send({ type: 'draws.add', draw: { categoryId: '4', difficulty: 'easy', count: 1 } });
    actor.send({ type: 'draws.add', draw: { categoryId: '5', difficulty: 'easy', count: 1 } });
    actor.send({ type: 'draws.add', draw: { categoryId: '6', difficulty: 'extreme' as 'easy', count: 1 } });
    expect(actor.getSnapshot().context.draft.draws.map((d) => d.categoryId)).toEqual(['4', '5']);

    const full = Array.from({ length: PAPER_LIMITS.drawsPerSection }, (_, i) => ({ categoryId: String(i), difficulty: 'easy' as const, count: 1 }));
    const fullActor = builder({ draft: { kind: 'draw', draws: full } });
    fullActor.send({ type: 'draws.add', draw: { categoryId: 'x', difficulty: 'hard', count: 1 } });
    expect(fullActor.getSnapshot().context.draft.draws).toHaveLength(PAPER_LIMITS.drawsPerSection);
    expect(fullActor.getSnapshot().context.dirty).toBe(false);
  });
});

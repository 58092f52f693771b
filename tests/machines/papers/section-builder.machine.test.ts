import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  classifySaveFailure,
  draftItemCount,
  emptySection,
  sectionBuilderMachine,
  sectionProblems,
  type SaveSectionRequest,
  type SectionDraft,
} from '#machines/papers/section-builder.machine.ts';

/** The paper builder's section editor (docs/decisions/0143): the draft, its problems, the save and its refusals. */

function builder(save: (request: SaveSectionRequest) => Promise<{ sectionId: number; version: number }>, input = {}) {
  const machine = sectionBuilderMachine.provide({ actors: { saveSection: fromPromise(({ input: request }) => save(request)) } });
  return createActor(machine, { input }).start();
}

const item = (n: number) => ({ versionId: String(100 + n), label: `ITM-${n} · Question ${n}` });

describe('section problems', () => {
  it('should name every reason a draft cannot be saved, and none for a good one', () => {
    const good: SectionDraft = { ...emptySection(), title: 'A', items: [item(1), item(2)] };
    expect(sectionProblems(good)).toEqual([]);
    expect(sectionProblems(emptySection())).toEqual(['titleMissing', 'noItems']);
    expect(sectionProblems({ ...good, marksPerItem: 0 })).toEqual(['marksInvalid']);
    expect(sectionProblems({ ...good, marksPerItem: Number.NaN })).toEqual(['marksInvalid']);
    expect(sectionProblems({ ...good, attemptAny: 3 })).toEqual(['attemptAnyTooLarge']);
    expect(sectionProblems({ ...good, attemptAny: 2 })).toEqual([]);
    expect(sectionProblems({ ...good, attemptAny: 0 })).toEqual(['attemptAnyInvalid']);
    expect(sectionProblems({ ...good, attemptAny: 1.5 })).toEqual(['attemptAnyInvalid']);
    expect(sectionProblems({ ...good, timeLimitMinutes: 0 })).toEqual(['timeLimitInvalid']);
    expect(sectionProblems({ ...good, timeLimitMinutes: 1441 })).toEqual(['timeLimitInvalid']);
    expect(sectionProblems({ ...good, timeLimitMinutes: 1440 })).toEqual([]);
    const draw: SectionDraft = { ...good, kind: 'draw', draws: [{ categoryId: '4', difficulty: 'easy', count: 2 }] };
    expect(sectionProblems(draw)).toEqual([]);
    expect(draftItemCount(draw)).toBe(2);
    expect(sectionProblems({ ...draw, draws: [{ categoryId: '4', difficulty: 'easy', count: 0 }] })).toEqual(['noItems', 'drawCountInvalid']);
    expect(
      sectionProblems({
        ...draw,
        draws: [
          { categoryId: '4', difficulty: 'easy', count: 1 },
          { categoryId: '4', difficulty: 'easy', count: 1 },
        ],
      }),
    ).toEqual(['drawTwice']);
    expect(sectionProblems({ ...good, items: Array.from({ length: 501 }, (_, i) => item(i)) })).toEqual(['tooManyItems']);
  });

  it('should sort a refused save by what the setter must do', () => {
    expect(classifySaveFailure({ statusCode: 409, messages: ['This paper is Locked'], currentStatus: 'Locked' })).toEqual({
      kind: 'locked',
      messages: ['This paper is Locked'],
    });
    expect(classifySaveFailure({ statusCode: 409, messages: ['changed by Priya'], currentVersion: 4 })).toEqual({
      kind: 'stale',
      messages: ['changed by Priya'],
    });
    expect(classifySaveFailure({ status: 400, title: 'Bad', errors: { 'rule.draws[0].count': ['only 3 in the bank'] } })).toEqual({
      kind: 'invalid',
      messages: ['only 3 in the bank'],
    });
    expect(classifySaveFailure({ statusCode: 500, messages: ['boom'] })).toEqual({ kind: 'failed', messages: ['boom'] });
    expect(classifySaveFailure(new Error('network'))).toEqual({ kind: 'failed', messages: [] });
  });
});

describe('the section builder machine', () => {
  it('should add items once, reorder them (announcing each move), remove them, and save what is shown', async () => {
    const save = vi.fn(async () => ({ sectionId: 7, version: 1 }));
    const actor = builder(save);
    actor.send({ type: 'field.set', field: 'title', value: 'Section A' });
    for (const n of [1, 2, 3]) actor.send({ type: 'items.add', item: item(n) });
    actor.send({ type: 'items.add', item: item(2) });
    expect(actor.getSnapshot().context.draft.items.map((i) => i.versionId)).toEqual(['101', '102', '103']);
    expect(actor.getSnapshot().context.announcement).toEqual({ kind: 'added', label: item(3).label, position: 3, of: 3 });

    actor.send({ type: 'items.move', from: 2, to: 0 });
    expect(actor.getSnapshot().context.draft.items.map((i) => i.versionId)).toEqual(['103', '101', '102']);
    expect(actor.getSnapshot().context.announcement).toEqual({ kind: 'moved', label: item(3).label, position: 1, of: 3 });
    // Moves off the ends or onto themselves change nothing.
    actor.send({ type: 'items.move', from: 0, to: -1 });
    actor.send({ type: 'items.move', from: 2, to: 3 });
    actor.send({ type: 'items.move', from: 1, to: 1 });
    expect(actor.getSnapshot().context.draft.items.map((i) => i.versionId)).toEqual(['103', '101', '102']);

    actor.send({ type: 'items.remove', versionId: '101' });
    expect(actor.getSnapshot().context.draft.items.map((i) => i.versionId)).toEqual(['103', '102']);
    expect(actor.getSnapshot().context.announcement).toEqual({ kind: 'removed', label: item(1).label, position: 0, of: 2 });
    expect(actor.getSnapshot().context.dirty).toBe(true);

    actor.send({ type: 'field.set', field: 'attemptAny', value: '1' });
    actor.send({ type: 'field.set', field: 'timeLimitMinutes', value: '' });
    actor.send({ type: 'instructions.set', language: 'hi', text: 'सभी प्रश्न' });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().value).toBe('saving');
    await waitFor(actor, (s) => s.matches('editing'));
    expect(save).toHaveBeenCalledWith(
      expect.objectContaining({
        sectionId: null,
        version: null,
        draft: expect.objectContaining({ title: 'Section A', attemptAny: 1, timeLimitMinutes: null, instructions: { hi: 'सभी प्रश्न' } }),
      }),
    );
    expect(actor.getSnapshot().context).toMatchObject({ sectionId: 7, version: 1, dirty: false, failure: null });
  });

  it('should not save a draft with problems', () => {
    const save = vi.fn(async () => ({ sectionId: 1, version: 1 }));
    const actor = builder(save);
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(save).not.toHaveBeenCalled();
  });

  it('should keep draw rules one per cell and edit their counts', () => {
    const actor = builder(async () => ({ sectionId: 1, version: 1 }), { draft: { title: 'B', kind: 'draw' } });
    actor.send({ type: 'draws.add', draw: { categoryId: '4', difficulty: 'medium', count: 1 } });
    actor.send({ type: 'draws.add', draw: { categoryId: '4', difficulty: 'medium', count: 5 } });
    actor.send({ type: 'draws.add', draw: { categoryId: '4', difficulty: 'hard', count: 1 } });
    actor.send({ type: 'draws.count', index: 0, count: 3 });
    expect(actor.getSnapshot().context.draft.draws).toEqual([
      { categoryId: '4', difficulty: 'medium', count: 3 },
      { categoryId: '4', difficulty: 'hard', count: 1 },
    ]);
    actor.send({ type: 'draws.remove', index: 1 });
    expect(actor.getSnapshot().context.draft.draws).toEqual([{ categoryId: '4', difficulty: 'medium', count: 3 }]);
  });

  it('should keep the draft and say why when the server refuses, and turn read-only when the paper was locked', async () => {
    const refusals = [
      { statusCode: 409, messages: ['This paper was changed by Ravi'], currentVersion: 5 },
      { statusCode: 409, messages: ['This paper is Locked: it cannot be edited until a project admin unlocks it.'], currentStatus: 'Locked' },
    ];
    const actor = builder(
      async () => {
        throw refusals.shift();
      },
      { sectionId: 3, version: 2, draft: { title: 'A', items: [item(1)] } },
    );
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(actor.getSnapshot().context.failure).toEqual({ kind: 'stale', messages: ['This paper was changed by Ravi'] });
    expect(actor.getSnapshot().context.draft.items).toEqual([item(1)]);
    // Any edit clears the failure; a second save meets a locked paper.
    actor.send({ type: 'field.set', field: 'title', value: 'A again' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.matches('readOnly'));
    expect(actor.getSnapshot().context.failure?.kind).toBe('locked');
    actor.send({ type: 'items.add', item: item(9) });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().value).toBe('readOnly');
    expect(actor.getSnapshot().context.draft.items).toEqual([item(1)]);
  });
});

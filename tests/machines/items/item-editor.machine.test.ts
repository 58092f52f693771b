import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { blankItem, setText } from '#machines/items/item-draft.ts';
import { issuesOf, itemEditorMachine, type ActionRequest, type EditorRecord, type SaveRequest } from '#machines/items/item-editor.machine.ts';
import type { ItemContent } from '#machines/items/item-schema.ts';

function content(stem = '<p>2 + 2 = ?</p>'): ItemContent {
  let item = blankItem('trueFalse', ['en']);
  item = setText(item, 'en', { stem });
  return item;
}

function record(overrides: Partial<EditorRecord> = {}): EditorRecord {
  return {
    itemId: 7,
    code: 'ITM-000007',
    version: 3,
    versionNumber: 1,
    status: 'Draft',
    content: content(),
    actions: ['submit', 'comment'],
    editable: true,
    editCreatesVersion: false,
    categoryId: 2,
    difficulty: 'medium',
    ...overrides,
  };
}

function start(
  options: {
    load?: (input: { itemId: number }) => Promise<EditorRecord>;
    save?: (request: SaveRequest) => Promise<EditorRecord>;
    act?: (request: ActionRequest) => Promise<EditorRecord>;
    itemId?: number | null;
  } = {},
) {
  const load = vi.fn(options.load ?? (async (_input: { itemId: number }) => record()));
  const save = vi.fn(options.save ?? (async (request: SaveRequest) => record({ content: request.draft.content, version: 4 })));
  const act = vi.fn(options.act ?? (async () => record({ status: 'review', actions: ['comment'], editable: false })));
  const machine = itemEditorMachine.provide({
    actors: {
      loadItem: fromPromise(({ input }) => load(input)),
      saveItem: fromPromise(({ input }) => save(input)),
      performAction: fromPromise(({ input }) => act(input)),
    },
  });
  const itemId = options.itemId === undefined ? 7 : options.itemId;
  const actor = createActor(machine, {
    input: { itemId, initial: itemId === null ? { content: content(), categoryId: 2, difficulty: 'easy' } : undefined },
  }).start();
  return { actor, load, save, act };
}

const editing = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => s.matches('editing'));

describe('item editor actor', () => {
  it('should load the item and edit a copy of it', async () => {
    const { actor } = start();
    await editing(actor);
    expect(actor.getSnapshot().context.record?.code).toBe('ITM-000007');
    expect(actor.getSnapshot().context.dirty).toBe(false);
    actor.send({ type: 'draft.text', language: 'en', field: { stem: '<p>3 + 3 = 6</p>' } });
    expect(actor.getSnapshot().context.draft?.content.variants.en.stem).toBe('<p>3 + 3 = 6</p>');
    expect(actor.getSnapshot().context.record?.content.variants.en.stem).toBe('<p>2 + 2 = ?</p>');
    expect(actor.getSnapshot().context.dirty).toBe(true);
  });

  it('should not count the same text again as an edit', async () => {
    const { actor } = start();
    await editing(actor);
    actor.send({ type: 'draft.text', language: 'en', field: { stem: '<p>2 + 2 = ?</p>' } });
    expect(actor.getSnapshot().context.dirty).toBe(false);
  });

  it('should show a load failure and load again on reload', async () => {
    let calls = 0;
    const { actor } = start({
      load: async () => {
        calls++;
        if (calls === 1) throw { status: 500 };
        return record();
      },
    });
    await waitFor(actor, (s) => s.matches('loadFailed'));
    actor.send({ type: 'reload' });
    await editing(actor);
    expect(actor.getSnapshot().context.record).not.toBeNull();
  });

  it('should save with the version it read and keep the answer as the new record', async () => {
    const { actor, save } = start();
    await editing(actor);
    actor.send({ type: 'draft.meta', difficulty: 'hard' });
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.notice === 'saved');
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ itemId: 7, version: 3, draft: expect.objectContaining({ difficulty: 'hard' }) }));
    expect(actor.getSnapshot().context.record?.version).toBe(4);
    expect(actor.getSnapshot().context.dirty).toBe(false);
  });

  it('should refuse to send content the validator rejects, listing the problems', async () => {
    const { actor, save } = start();
    await editing(actor);
    const broken = { ...content(), marking: { correct: 0, wrong: 0, unanswered: 0 } } as ItemContent;
    actor.send({ type: 'draft.change', content: broken });
    actor.send({ type: 'save' });
    await editing(actor);
    expect(save).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.issues.length).toBeGreaterThan(0);
    expect(actor.getSnapshot().context.issues[0].path).toContain('marking');
  });

  it('should keep every edit after a 409 and say someone else saved first', async () => {
    const conflict = { status: 409, title: 'Changed by Asha Rao' };
    const { actor } = start({
      save: async () => {
        throw conflict;
      },
    });
    await editing(actor);
    actor.send({ type: 'draft.text', language: 'en', field: { stem: '<p>mine</p>' } });
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.conflict !== null);
    const { context } = actor.getSnapshot();
    expect(context.conflict).toBe(conflict);
    expect(context.draft?.content.variants.en.stem).toBe('<p>mine</p>');
    expect(context.dirty).toBe(true);
    // Reloading is the author's choice, and takes the newer version.
    actor.send({ type: 'reload' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.conflict === null);
    expect(actor.getSnapshot().context.draft?.content.variants.en.stem).toBe('<p>2 + 2 = ?</p>');
  });

  it('should show the server’s 400 problems by path', async () => {
    const { actor } = start({
      save: async () => {
        throw { status: 400, errors: { 'content.variants.en.stem': ['Too long.'] } };
      },
    });
    await editing(actor);
    actor.send({ type: 'draft.meta', difficulty: 'easy' });
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.issues.length > 0);
    expect(actor.getSnapshot().context.issues).toEqual([{ path: 'content.variants.en.stem', message: 'Too long.' }]);
    expect(issuesOf({ issues: [{ path: 'a', message: 'b' }, { path: 1 }] })).toEqual([{ path: 'a', message: 'b' }]);
  });

  it('should create a new item and report it created', async () => {
    const { actor, save } = start({ itemId: null });
    await editing(actor);
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.context.notice === 'created');
    expect(save).toHaveBeenCalledWith(expect.objectContaining({ itemId: null, version: null }));
    expect(actor.getSnapshot().context.itemId).toBe(7);
  });

  it('should take only the review outcomes the server offers, and only with nothing unsaved (a comment excepted)', async () => {
    const { actor, act } = start();
    await editing(actor);
    actor.send({ type: 'action.take', action: 'approve' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    actor.send({ type: 'draft.meta', difficulty: 'easy' });
    actor.send({ type: 'action.take', action: 'submit' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    actor.send({ type: 'action.take', action: 'comment', comment: 'Looks fine' });
    await waitFor(actor, (s) => s.context.notice === 'acted');
    expect(act).toHaveBeenCalledWith({ itemId: 7, version: 3, action: 'comment', comment: 'Looks fine' });
    expect(act).toHaveBeenCalledTimes(1);
  });

  it('should keep an approved item read-only until the author starts the next version, then save it as that version', async () => {
    const approved = record({ status: 'Approved', editable: true, editCreatesVersion: true, actions: ['retire', 'comment'] });
    const { actor, save } = start({
      load: async () => approved,
      save: async (request) => record({ content: request.draft.content, versionNumber: 2, version: 5 }),
    });
    await editing(actor);
    actor.send({ type: 'draft.text', language: 'en', field: { stem: '<p>changed</p>' } });
    expect(actor.getSnapshot().context.dirty).toBe(false);
    actor.send({ type: 'save' });
    expect(save).not.toHaveBeenCalled();
    actor.send({ type: 'version.start' });
    expect(actor.getSnapshot().context.unlocked).toBe(true);
    actor.send({ type: 'draft.text', language: 'en', field: { stem: '<p>changed</p>' } });
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.context.notice === 'versioned');
    expect(actor.getSnapshot().context.record?.versionNumber).toBe(2);
    expect(actor.getSnapshot().context.unlocked).toBe(false);
  });

  it('should not unlock an item in review (not editable and no new version)', async () => {
    const { actor } = start({ load: async () => record({ status: 'review', editable: false, editCreatesVersion: false, actions: ['approve'] }) });
    await editing(actor);
    actor.send({ type: 'version.start' });
    expect(actor.getSnapshot().context.unlocked).toBe(false);
  });

  // Mutation survivors of the narrowed run of 7 December (decision 0286).
  it('should ask for the item it was opened with, and send an outcome without words as an empty comment', async () => {
    const { actor, load, act } = start();
    await editing(actor);
    expect(load).toHaveBeenCalledWith({ itemId: 7 });
    actor.send({ type: 'action.take', action: 'submit' });
    await waitFor(actor, (s) => s.context.notice === 'acted');
    expect(act).toHaveBeenCalledWith({ itemId: 7, version: 3, action: 'submit', comment: '' });
  });

  it('should change the category and the difficulty each on its own', async () => {
    const { actor } = start();
    await editing(actor);
    actor.send({ type: 'draft.meta', categoryId: 4 });
    expect(actor.getSnapshot().context.draft).toMatchObject({ categoryId: 4, difficulty: 'medium' });
    actor.send({ type: 'draft.meta', difficulty: 'hard' });
    expect(actor.getSnapshot().context.draft).toMatchObject({ categoryId: 4, difficulty: 'hard' });
    actor.send({ type: 'draft.meta', categoryId: null });
    expect(actor.getSnapshot().context.draft).toMatchObject({ categoryId: null, difficulty: 'hard' });
  });

  it('should take neither an outcome nor a next version on a new item, which has no record yet', async () => {
    const { actor, act } = start({ itemId: null });
    await editing(actor);
    actor.send({ type: 'action.take', action: 'comment', comment: 'Early' });
    actor.send({ type: 'version.start' });
    const snapshot = actor.getSnapshot();
    expect([snapshot.status, snapshot.value, snapshot.context.unlocked]).toEqual(['active', 'editing', false]);
    expect(act).not.toHaveBeenCalled();
  });

  it.each([
    ['a 409 as statusCode', { statusCode: 409 }, 'conflict'],
    ['a 409 as a string', { status: '409' }, 'saveError'],
    ['a bare string', '409', 'saveError'],
    ['a 400 without problems', { status: 400, title: 'Bad request' }, 'saveError'],
    ['a 400 whose problems lack a message', { status: 400, issues: [{ path: 'stem' }, null] }, 'saveError'],
    ['a 400 with problems by path', { status: 400, errors: { stem: 'Too long.' } }, 'issues'],
    // Only a 400 carries the item's problems: another failure with a list is still a failure.
    ['a 503 with problems by path', { status: 503, errors: { stem: 'Too long.' } }, 'saveError'],
    ['a 409 with problems by path', { status: 409, errors: { stem: 'Too long.' } }, 'conflict'],
  ] as const)('should read %s as %s', async (_name, error, shown) => {
    const { actor } = start({
      save: async () => {
        throw error;
      },
    });
    await editing(actor);
    actor.send({ type: 'draft.meta', difficulty: 'hard' });
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.matches('editing') && (s.context.conflict !== null || s.context.issues.length > 0 || s.context.saveError !== null));
    const { context } = actor.getSnapshot();
    expect({ conflict: context.conflict !== null, issues: context.issues.length > 0, saveError: context.saveError !== null }).toEqual({
      conflict: shown === 'conflict',
      issues: shown === 'issues',
      saveError: shown === 'saveError',
    });
    expect(context.dirty, 'the edit is kept').toBe(true);
  });

  it('should keep running, keep the edit and show the failure when a save fails without any reason', async () => {
    const { actor } = start({
      save: async () => {
        throw null;
      },
    });
    await editing(actor);
    actor.send({ type: 'draft.meta', difficulty: 'hard' });
    actor.send({ type: 'save' });
    await waitFor(actor, (s) => s.matches('editing'));
    const snapshot = actor.getSnapshot();
    // The screen shows the failure when `saveError` is truthy, so `false` would show nothing.
    expect([snapshot.status, snapshot.context.dirty, Boolean(snapshot.context.saveError)]).toEqual(['active', true, true]);
  });

  it('should read the problems of a refusal only from well-formed lists', () => {
    expect(issuesOf(null)).toEqual([]);
    expect(issuesOf('problems')).toEqual([]);
    expect(issuesOf({ errors: 'Too long.' })).toEqual([]);
    expect(issuesOf({ errors: null, issues: 'none' })).toEqual([]);
    expect(issuesOf({ issues: [null, { path: 'stem' }, { message: 'm' }, { path: 'a', message: 'b' }] })).toEqual([{ path: 'a', message: 'b' }]);
    expect(issuesOf({ errors: { stem: ['Too long.', 'Empty.'], marks: 'Above 0.' } })).toEqual([
      { path: 'stem', message: 'Too long.' },
      { path: 'stem', message: 'Empty.' },
      { path: 'marks', message: 'Above 0.' },
    ]);
  });

  it('should fail loudly when the view provides no way to load', async () => {
    const actor = createActor(itemEditorMachine, { input: { itemId: 7 } }).start();
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect((actor.getSnapshot().context.loadError as Error).message).toBe('loadItem must be provided by the view');
  });
});

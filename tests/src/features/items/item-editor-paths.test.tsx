import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, EventObject } from 'xstate';
import { computeCoverage, transitionsTakenBy } from '#machines/graph-coverage.ts';
import type { EditorRecord } from '#machines/items/item-editor.machine.ts';
import { itemEditorMachine } from '#machines/items/item-editor.machine.ts';
import { editorModelContent, itemEditorTestPaths } from '#machines/items/item-editor.model.ts';
import type { ItemRecord } from '#machines/items/item-records.ts';
import { allPermissions } from '#machines/permissions.ts';
import { liveActors } from '#src/app/live-actors.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { selectProject } from '#src/app/stores/workspace-selection.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { IndependentExpectation, pathName, sampleTakingEveryRule, tableEvent } from '#tests/fixtures/expectations/expectation-table.ts';
import { freshItemEditorFacts, itemEditorExpectation, mayEdit, type ItemEditorFacts } from '#tests/fixtures/expectations/item-editor.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';
import { chooseOption } from '#tests/src/support/select.ts';

/**
 * The item editor's generated paths walked through the real editor screen in jsdom (issue 14).
 * Each step is what a person does there: a click on a right answer, the marks typed, the
 * difficulty chosen, Save, "Load their version", the review tab's outcome buttons, "Edit as
 * version n+1"; the server's answers are the item API's calls, settled by the test. After every
 * step the live editor actor, the screen and the calls made are checked against the hand-written
 * table (tests/fixtures/expectations/item-editor.ts). A step the screen does not offer there (Save
 * with nothing changed, an outcome the server did not list) is checked as not offered.
 *
 * Not sampled: a new item (its blank draft fails the check until its texts are typed) and
 * `draft.text` (the rich text editor needs a layout jsdom lacks); the machine replay walks those,
 * and tests/e2e/items.test.ts types into the editor in Chromium.
 */
const api = vi.hoisted(() => ({
  get: vi.fn(),
  create: vi.fn(),
  edit: vi.fn(),
  review: vi.fn(),
  comments: vi.fn(),
  versions: vi.fn(),
  duplicatesOfStem: vi.fn(),
  categoryFiles: vi.fn(),
  score: vi.fn(),
}));
const projects = vi.hoisted(() => ({ categories: vi.fn(), itemTypes: vi.fn(), flows: vi.fn() }));
vi.mock('#src/features/items/api/items-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/items/api/items-api.ts')>()),
  itemsApi: api,
}));
vi.mock('#src/features/projects/api/projects-api.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#src/features/projects/api/projects-api.ts')>()),
  projectsApi: projects,
}));
const { default: ItemEditorPage } = await import('#src/features/items/item-editor-page.tsx');

const opened = itemEditorTestPaths().filter(
  (path) => path.steps[0].state.context.itemId !== null && !path.steps.some((step) => step.event.type === 'draft.text'),
);
const facts = () => freshItemEditorFacts({ isNew: false, stem: editorModelContent().variants.en.stem });
// Every rule of the table and every transition these paths can take, on as few paths as the greedy cover finds.
const paths = sampleTakingEveryRule(itemEditorExpectation, facts, opened, (path) => transitionsTakenBy(itemEditorMachine, [path]));
const recorder = replayRecorder(itemEditorMachine, 'jsdom', true);

/** The item API's answer for an editor record (the fields the editor does not use filled in). */
function asItemRecord(record: EditorRecord): ItemRecord {
  return {
    ...record,
    kind: record.content.kind,
    itemTypeId: null,
    categoryName: 'Polynomials',
    cognitiveLevel: null,
    languages: ['en'],
    missingLanguages: [],
    stemText: 'Which is prime?',
    maxScore: record.content.marking.correct,
    approvedVersionId: null,
    author: { userId: '00000000-0000-4000-8000-000000000001', name: 'Priya Nair' },
    updatedOn: '2026-11-25T09:00:00.000Z',
    duplicate: null,
    versionId: 90,
    flowId: 1,
    updatedBy: null,
    createdOn: '2026-11-25T09:00:00.000Z',
  } as ItemRecord;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['items', 'projects', 'users', 'ui', 'errors']);
});
beforeEach(() => {
  act(() => {
    userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
    selectProject({ projectId: 5, code: 'BOARD', name: 'Board 2027', languages: ['en'], status: 'Active' });
  });
  projects.categories.mockResolvedValue([{ categoryId: 3, parentId: null, name: 'Polynomials', sortOrder: 0, isRetired: false, fileCount: 0, version: 1 }]);
  projects.itemTypes.mockResolvedValue([]);
  projects.flows.mockResolvedValue([
    {
      flowId: 1,
      name: 'Item review',
      recordKind: 'item',
      isActive: true,
      states: [],
      definition: { stages: [{ id: 'review', name: 'Peer review', permission: 'ItemReviewer' }] },
    },
  ]);
  api.comments.mockResolvedValue([]);
  api.duplicatesOfStem.mockResolvedValue([]);
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  act(() => selectProject(null));
});
afterAll(() => void recorder.write());

/** The editor at /items/9, every call to the item API waiting for the test. */
function mountEditor() {
  const waiting = { load: [] as Pending[], save: [] as Pending[], act: [] as Pending[] };
  const calls = { loads: 0, saves: [] as Array<number | null>, actions: [] as Array<{ action: string; version: number }> };
  const hold = (list: Pending[]) => new Promise((resolve, reject) => list.push({ resolve, reject }));
  api.get.mockImplementation(() => ((calls.loads += 1), hold(waiting.load)));
  api.edit.mockImplementation((_id: number, body: { version?: number }) => (calls.saves.push(body.version ?? null), hold(waiting.save)));
  api.review.mockImplementation(
    (_id: number, body: { action: string; version: number }) => (calls.actions.push({ action: body.action, version: body.version }), hold(waiting.act)),
  );
  const success = vi.spyOn(notify, 'success');
  const { user } = renderAt('/items/9', { '/items/:itemId': <ItemEditorPage /> });
  const actor = () => {
    const entry = liveActors().find((a) => a.id === 'item-editor' && !a.stopped);
    if (!entry) throw new Error('the editor runs no item-editor actor');
    return entry.actorRef as AnyActorRef;
  };
  return { user, waiting, calls, actor, success };
}

/** What the screen must show in the state the table expects. */
async function expectScreen(state: string, facts: ItemEditorFacts, where: string) {
  await waitFor(() => {
    if (state === 'loading') {
      expect(screen.getByRole('status').textContent, `${where}: loading`).toBe('Loading…');
      expect(screen.queryByTestId('save-item')).toBeNull();
      return;
    }
    if (state === 'loadFailed') {
      expect(screen.getByTestId('error-state'), `${where}: the load failed`).toBeInTheDocument();
      expect(within(screen.getByTestId('error-state')).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
      return;
    }
    const record = facts.record!;
    expect(screen.getByTestId('item-status').textContent, `${where}: the status`).toBe(record.status === 'review' ? 'Peer review' : record.status);
    expect(screen.getByTestId('item-version').textContent).toBe(`Version ${record.versionNumber}`);
    const editable = mayEdit(facts);
    const save = screen.queryByTestId('save-item');
    expect(save !== null, `${where}: Save offered exactly where the author may edit`).toBe(editable);
    expect(screen.queryByTestId('read-only-note') !== null, `${where}: read-only note`).toBe(!editable);
    expect(screen.queryByTestId('edit-new-version') !== null, `${where}: "Edit as version n+1"`).toBe(record.editCreatesVersion && !facts.unlocked);
    if (state === 'editing' && save) expect((save as HTMLButtonElement).disabled, `${where}: Save only with changes`).toBe(!facts.dirty);
    if (state === 'saving') expect(save?.getAttribute('aria-busy'), `${where}: Save busy while it saves`).toBe('true');
    expect(
      {
        conflict: screen.queryByTestId('conflict') !== null,
        issues: screen.queryByTestId('item-issues') !== null,
        error: screen.queryByTestId('save-error') !== null,
      },
      `${where}: the problem shown`,
    ).toEqual({ conflict: facts.problem === 'conflict', issues: facts.problem === 'issues', error: facts.problem === 'error' });
    expect((screen.getByTestId('marks-correct') as HTMLInputElement).value, `${where}: the marks on screen`).toBe(String(facts.marksCorrect));
  });
}

const notices: Record<string, string> = { saved: 'editor.notice.saved', versioned: 'editor.notice.versioned', acted: 'editor.notice.acted' };

describe('item editor paths through the editor screen (jsdom)', { timeout: 60_000 }, () => {
  it('should sample paths that take every rule of the table and every transition they can', () => {
    const all = computeCoverage(itemEditorMachine, opened).transitions.covered.sort();
    expect(computeCoverage(itemEditorMachine, paths).transitions.covered.sort()).toEqual(all);
    expect(paths.length).toBeLessThan(40);
  });

  it.each(paths.map((path) => [pathName(path), path] as const))('should walk %s', (_name, path) =>
    recorder.run(path, async () => {
      const editor = mountEditor();
      const independent = new IndependentExpectation(itemEditorExpectation, facts());
      const trail: string[] = [];
      for (const { event } of path.steps) {
        const name = tableEvent(event);
        if (event.type !== 'xstate.init') trail.push(name);
        const where = trail.join(' → ') || 'on arrival';
        const before = independent.state;
        let sent: EventObject & Record<string, unknown> = event;
        if (/^(done|error)\.(load|save|act)$/.test(name)) {
          const [outcome, call] = name.split('.') as ['done' | 'error', 'load' | 'save' | 'act'];
          const pending = editor.waiting[call].shift();
          expect(pending, `${where}: the screen asked the server`).toBeDefined();
          const output = (event as EventObject & { output?: EditorRecord }).output;
          await act(async () =>
            outcome === 'done'
              ? pending!.resolve(call === 'act' ? { record: asItemRecord(output!) } : asItemRecord(output!))
              : pending!.reject((event as EventObject & { error: unknown }).error),
          );
        } else if (event.type === 'draft.change') {
          const content = (event as EventObject & { content: { marking: { correct: number } } }).content;
          const facts = independent.facts;
          if (content.marking.correct === 0) {
            const marks = screen.getByTestId('marks-correct') as HTMLInputElement;
            if (!marks.readOnly) {
              // Typed over the whole value (an emptied field keeps its number until one is typed).
              await editor.user.type(marks, '0', { initialSelectionStart: 0, initialSelectionEnd: marks.value.length });
            }
            sent = { type: 'draft.change', content: { marking: { correct: 0 }, variants: { en: { stem: facts.stem } } } };
          } else {
            const right = screen.getByTestId('correct-C').getAttribute('data-state') === 'checked' ? 'B' : 'C';
            await editor.user.click(screen.getByText(`${right} is correct`));
            sent = { type: 'draft.change', content: { marking: { correct: facts.marksCorrect }, variants: { en: { stem: facts.stem } } } };
          }
        } else if (event.type === 'draft.meta') {
          const field = within(screen.getByTestId('item-difficulty')).getByRole('combobox');
          const difficulty = independent.facts.difficulty === 'hard' ? 'easy' : 'hard';
          if (field.hasAttribute('disabled') || field.getAttribute('aria-disabled') === 'true' || field.hasAttribute('data-disabled')) {
            expect(before === 'editing' && !mayEdit(independent.facts), `${where}: difficulty locked only where the author may not edit`).toBe(true);
          } else await chooseOption(editor.user, field, difficulty === 'hard' ? 'Hard' : 'Easy');
          sent = { type: 'draft.meta', difficulty };
        } else if (event.type === 'save') {
          const save = screen.queryByTestId('save-item') as HTMLButtonElement | null;
          if (save && !save.disabled) await editor.user.click(save);
        } else if (event.type === 'reload') {
          // After a failed load it is the error's "Try again"; over a conflict, "Load their version".
          const reload =
            before === 'loadFailed'
              ? within(screen.getByTestId('error-state')).getByRole('button', { name: 'Try again' })
              : screen.queryByTestId('conflict-reload');
          if (reload) await editor.user.click(reload);
          else expect(independent.facts.record, `${where}: "Load their version" is offered over a stored item's conflict`).toBeNull();
        } else if (event.type === 'action.take') {
          const { action } = event as EventObject & { action: string };
          const tab = screen.queryByRole('tab', { name: 'Review' });
          if (tab) {
            await editor.user.click(tab);
            const panel = await screen.findByTestId('review-panel');
            const button = within(panel).queryByTestId(`review-${action}`) as HTMLButtonElement | null;
            if (button && !button.disabled) {
              if (action === 'comment') await editor.user.type(within(panel).getByRole('textbox', { name: /Comment/ }), 'Reword B');
              await editor.user.click(button);
            }
          }
        } else if (event.type === 'version.start') {
          const start = screen.queryByTestId('edit-new-version');
          if (start) await editor.user.click(start);
        } else if (event.type === 'notice.dismiss') {
          // The screen says it and dismisses it itself: the announcement was made once.
          const notice = independent.facts.notice;
          if (notice && notices[notice]) {
            const text = i18n.t(`items:${notices[notice]}`, { n: independent.facts.record!.versionNumber });
            await waitFor(() => expect(editor.success, `${where}: the screen announced it`).toHaveBeenLastCalledWith(text));
          }
        }
        // The screen reacts after its own events; the actor after the answer.
        await waitFor(() => expect(editor.actor().getSnapshot().value, `${where}: the state`).toBe(expectedNext(independent, sent)));
        independent.check(sent, editor.actor().getSnapshot(), where);
        expect(editor.calls, `${where}: what was asked of the server`).toEqual({
          loads: independent.facts.loadsAsked,
          saves: independent.facts.savesSent,
          actions: independent.facts.actionsSent,
        });
        await expectScreen(independent.state, independent.facts, where);
      }
    }),
  );
});

/** The state the table expects after `event`, without taking the step (check() takes it). */
function expectedNext(independent: IndependentExpectation<ItemEditorFacts>, event: EventObject): string {
  if (event.type === 'xstate.init') return independent.state;
  const probe = new IndependentExpectation(independent.table, structuredClone(independent.facts));
  probe.state = independent.state;
  return probe.next(event);
}

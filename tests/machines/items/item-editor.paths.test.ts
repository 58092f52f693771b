import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyActorRef, type EventObject } from 'xstate';
import { itemEditorMachine } from '#machines/items/item-editor.machine.ts';
import { editorModelContent, itemEditorTestPaths } from '#machines/items/item-editor.model.ts';
import { IndependentExpectation, pathName, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { freshItemEditorFacts, itemEditorExpectation, newItemEditorExpectation } from '#tests/fixtures/expectations/item-editor.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from '../support/replay-path.ts';

/**
 * Every generated path of the item editor walked on a live actor (issue 14). Each step is checked
 * against the hand-written table (tests/fixtures/expectations/item-editor.ts): the state, the
 * record and draft it must hold, the problem it shows, the notice, and every call it made to the
 * server, with the version it sent.
 */
const paths = itemEditorTestPaths();
const isNewPath = (path: (typeof paths)[number]) => path.steps[0].state.context.itemId === null;
const facts = (isNew: boolean) => () => freshItemEditorFacts({ isNew, stem: editorModelContent().variants.en.stem });

describe('item editor model', () => {
  const recorder = replayRecorder(itemEditorMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(paths.map((path) => [pathName(path) || 'the start', path] as const))('should walk %s', (_name, path) =>
    recorder.run(path, async () => {
      const isNew = isNewPath(path);
      const independent = new IndependentExpectation(isNew ? newItemEditorExpectation : itemEditorExpectation, facts(isNew)());
      const calls = { loads: 0, saves: [] as Array<number | null>, actions: [] as Array<{ action: string; version: number }> };
      const waiting = new Map<string, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
      const deferred = (id: string) => new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
      const machine = itemEditorMachine.provide({
        actors: {
          loadItem: fromPromise(() => ((calls.loads += 1), deferred('load')) as never),
          saveItem: fromPromise(({ input }) => (calls.saves.push(input.version), deferred('save')) as never),
          performAction: fromPromise(({ input }) => (calls.actions.push({ action: input.action, version: input.version }), deferred('act')) as never),
        },
      });
      await replayPath(path, {
        independent: {
          delay: (name) => independent.delay(name),
          check: (event: EventObject, live, trail) => {
            independent.check(event, live, trail);
            const expected = independent.facts;
            expect(calls, `${trail}: what was asked of the server`).toEqual({
              loads: expected.loadsAsked,
              saves: expected.savesSent,
              actions: expected.actionsSent,
            });
            expect(live.context.notice, `${trail}: what the screen announces`).toBe(expected.notice);
          },
        },
        start: () =>
          createActor(machine, {
            input: isNew ? { itemId: null, initial: { content: editorModelContent(), categoryId: 3, difficulty: 'medium' } } : { itemId: 9 },
          }).start(),
        settle: (event: EventObject, _actor: AnyActorRef) => {
          const [, outcome, id] = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type) ?? [];
          const call = waiting.get(id);
          if (!call) return false;
          waiting.delete(id);
          if (outcome === 'done') call.resolve((event as EventObject & { output: unknown }).output);
          else call.reject((event as EventObject & { error: unknown }).error);
          return true;
        },
        expectSame: (live, model) => expect(live.value).toEqual(model.value),
      });
    }),
  );

  it('should take every rule of the independent table on some path (a transition the machine lacks has no path)', () => {
    const opened = paths.filter((path) => !isNewPath(path));
    const created = paths.filter(isNewPath);
    const missed = new Set(rulesNoPathTakes(itemEditorExpectation, facts(false), opened as never));
    const missedNew = rulesNoPathTakes(newItemEditorExpectation, facts(true), created as never);
    expect([...missed].filter((rule) => missedNew.includes(rule))).toEqual([]);
  });

  it('should reach every state and transition of the item editor', () => {
    const report = reportMachineCoverage(itemEditorMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

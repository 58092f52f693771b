import { afterAll, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  autosaveMachine,
  autosaveStatus,
  isAnswered,
  paletteState,
  restoredQueue,
  timeLeftOnScreen,
  type QueuedSave,
  type SaveBatchAnswer,
} from '#machines/delivery-autosave.machine.ts';
import { autosaveTestPaths } from '#machines/delivery-autosave.model.ts';
import { autosaveExpectation, freshAutosaveFacts } from '#tests/fixtures/expectations/delivery-autosave.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

function harness(answer: (saves: QueuedSave[]) => Promise<unknown>, stored: Array<{ itemNumber: number; storedSequence: number }> = []) {
  let n = 0;
  const calls: QueuedSave[][] = [];
  const machine = autosaveMachine.provide({
    actors: {
      saveBatch: fromPromise<SaveBatchAnswer, { saves: QueuedSave[] }>(async ({ input }) => {
        calls.push(input.saves);
        await answer(input.saves);
        return { acknowledged: input.saves.map((s) => s.saveId), stored };
      }),
    },
  });
  const actor = createActor(machine, { input: { sequences: { 2: 4 }, newId: () => `id-${(n += 1)}` } }).start();
  return { actor, calls };
}

describe('delivery autosave queue', () => {
  it('should debounce changes into one call carrying the newest save per question with growing sequences', async () => {
    vi.useFakeTimers();
    const { actor, calls } = harness(async () => undefined);
    actor.send({ type: 'answer', itemNumber: 1, response: 'a', marked: false });
    actor.send({ type: 'answer', itemNumber: 1, response: 'b', marked: false });
    actor.send({ type: 'answer', itemNumber: 2, response: 'c', marked: true });
    expect(autosaveStatus(actor.getSnapshot())).toEqual({ state: 'saving', waiting: 2 });
    await vi.advanceTimersByTimeAsync(900);
    expect(calls).toEqual([
      [
        { saveId: 'id-2', itemNumber: 1, sequence: 2, response: 'b', marked: false },
        { saveId: 'id-3', itemNumber: 2, sequence: 5, response: 'c', marked: true },
      ],
    ]);
    expect(autosaveStatus(actor.getSnapshot())).toEqual({ state: 'saved', waiting: 0 });
    vi.useRealTimers();
  });

  it('should keep saves queued while offline, count them, and flush them when back online', async () => {
    vi.useFakeTimers();
    let online = false;
    const { actor, calls } = harness(async () => {
      if (!online) throw { status: null };
    });
    actor.send({ type: 'answer', itemNumber: 1, response: 'a', marked: false });
    actor.send({ type: 'flush' });
    await vi.advanceTimersByTimeAsync(10);
    actor.send({ type: 'answer', itemNumber: 3, response: 'x', marked: false });
    actor.send({ type: 'answer', itemNumber: 4, response: 'y', marked: false });
    expect(autosaveStatus(actor.getSnapshot())).toEqual({ state: 'offline', waiting: 3 });
    online = true;
    actor.send({ type: 'online' });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.at(-1)!.map((s) => s.itemNumber)).toEqual([1, 3, 4]);
    expect(autosaveStatus(actor.getSnapshot())).toEqual({ state: 'saved', waiting: 0 });
    vi.useRealTimers();
  });

  it('should go above a higher sequence another device stored, so its next change wins', async () => {
    vi.useFakeTimers();
    const { actor, calls } = harness(async () => undefined, [{ itemNumber: 1, storedSequence: 9 }]);
    actor.send({ type: 'answer', itemNumber: 1, response: 'a', marked: false });
    actor.send({ type: 'flush' });
    await vi.advanceTimersByTimeAsync(10);
    actor.send({ type: 'answer', itemNumber: 1, response: 'b', marked: false });
    actor.send({ type: 'flush' });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((batch) => batch.map((s) => s.sequence))).toEqual([[1], [10]]);
    vi.useRealTimers();
  });

  it('should start from the saves kept before a reload: the newest per question, sent with their own ids, sequences above them', () => {
    const kept = [
      { saveId: 'k1', itemNumber: 1, sequence: 3, response: 'a', marked: false },
      { saveId: 'k0', itemNumber: 1, sequence: 2, response: 'b', marked: false },
      { saveId: 'k2', itemNumber: 2, sequence: 1, response: 'c', marked: true },
    ];
    expect(restoredQueue({ sequences: { 1: 1, 2: 5, 3: 7 }, queued: kept, newId: () => 'x' })).toEqual({
      pending: { 1: kept[0], 2: kept[2] },
      sequences: { 1: 3, 2: 5, 3: 7 },
    });
    const fresh = createActor(autosaveMachine, { input: { newId: () => 'x' } }).start();
    expect(fresh.getSnapshot().value).toBe('saved');
    const resumed = createActor(autosaveMachine, { input: { queued: kept, newId: () => 'x' } }).start();
    expect(resumed.getSnapshot().value).toBe('waiting');
  });

  it('should hold on 409 and keep the change that came while a save was out', async () => {
    vi.useFakeTimers();
    const { actor } = harness(async () => {
      throw { status: 409 };
    });
    actor.send({ type: 'answer', itemNumber: 1, response: 'a', marked: false });
    actor.send({ type: 'flush' });
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().value).toBe('held');
    expect(autosaveStatus(actor.getSnapshot()).waiting).toBe(1);
    vi.useRealTimers();
  });

  it('should name the five palette states and count down from the server deadline whatever the browser clock says', () => {
    expect([
      paletteState(false, null, false),
      paletteState(true, null, false),
      paletteState(true, 'a', false),
      paletteState(true, [], true),
      paletteState(true, ['a'], true),
    ]).toEqual(['notVisited', 'notAnswered', 'answered', 'marked', 'answeredMarked']);
    const deadline = '2027-03-10T05:30:00.000Z';
    const serverNow = Date.parse('2027-03-10T05:00:00.000Z');
    const browserTenMinutesSlow = serverNow - 10 * 60_000;
    const offset = serverNow - browserTenMinutesSlow;
    expect(timeLeftOnScreen(deadline, 0, offset, browserTenMinutesSlow)).toBe(30 * 60_000);
    expect(timeLeftOnScreen(deadline, 0, offset, browserTenMinutesSlow + 31 * 60_000)).toBe(0);
    expect(timeLeftOnScreen(null, 1234, offset, 0)).toBe(1234);
  });
});

/** A queue whose calls the test answers by hand, with the [question, sequence] pairs of every call. */
function liveQueue() {
  const calls: QueuedSave[][] = [];
  let settle: { resolve: (a: SaveBatchAnswer) => void; reject: (e: unknown) => void } | null = null;
  let n = 0;
  const machine = autosaveMachine.provide({
    actors: {
      saveBatch: fromPromise<SaveBatchAnswer, { saves: QueuedSave[] }>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            calls.push(input.saves);
            settle = { resolve, reject };
          }),
      ),
    },
  });
  return {
    start: () => createActor(machine, { input: { sequences: {}, newId: () => `save-${(n += 1)}` } }).start(),
    pairs: () => calls.map((c) => c.map((s) => [s.itemNumber, s.sequence] as [number, number]).sort((a, b) => a[0] - b[0])),
    settle: () => settle!,
  };
}

describe('the autosave model against the queue', () => {
  const paths = autosaveTestPaths();
  const recorder = replayRecorder(autosaveMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it('should walk every generated path as issue 19 and decision 0243 say', async () => {
    for (const path of paths) {
      const live = liveQueue();
      await recorder.run(path, () =>
        replayPath(path, {
          independent: new IndependentExpectation(autosaveExpectation, freshAutosaveFacts(live.pairs)),
          start: live.start,
          settle: (event) => {
            const e = event as unknown as { output?: SaveBatchAnswer; error?: unknown };
            if (event.type.startsWith('xstate.done.actor.')) live.settle().resolve(e.output!);
            else live.settle().reject(e.error);
            return true;
          },
          expectSame: (snapshot, model) => expect(snapshot.value).toEqual(model.value),
        }),
      );
    }
  });

  it('should have paths taking every rule of the table, and every state and transition', () => {
    expect(rulesNoPathTakes(autosaveExpectation, freshAutosaveFacts, paths)).toEqual([]);
    const report = reportMachineCoverage(autosaveMachine, paths);
    // A transient state decides at once where to go: no path rests there, and its edges are
    // taken within the event that led to it. `restoring` has saves only after a reload, which the
    // first tests here cover; the model starts with none.
    // `held --resume--> saved` guards a queue held with nothing waiting, which no event reaches (a
    // refused call keeps what it carried); kept in the machine as a safe default.
    const transient = /\.(restoring|next)$|\(always\)|--> \S+\.(restoring|next)$|held --resume--> deliveryAutosave\.saved$/;
    expect(report.states.covered.filter((s) => !transient.test(s))).toEqual(report.states.total.filter((s) => !transient.test(s)));
    expect(report.transitions.covered.filter((t) => !transient.test(t)).sort()).toEqual(report.transitions.total.filter((t) => !transient.test(t)).sort());
  });
});

// Issue 14 survivors: the restored queue without kept saves, sequences the server answers,
// failure counting, a rejection without a body, and what counts as an answered question.
describe('delivery autosave queue, edges', () => {
  it('should start from the stored sequences alone when nothing was kept, with nothing in flight', () => {
    expect(restoredQueue({ sequences: { 1: 2, 4: 9 }, newId: () => 'x' })).toEqual({ pending: {}, sequences: { 1: 2, 4: 9 } });
    const actor = createActor(autosaveMachine, { input: { sequences: { 1: 2 }, newId: () => 'x' } }).start();
    expect(actor.getSnapshot().context).toMatchObject({ pending: {}, sending: [], failures: 0, sequences: { 1: 2 } });
  });

  it('should keep the first of two kept saves that carry the same sequence', () => {
    const first = { saveId: 'k1', itemNumber: 1, sequence: 3, response: 'a', marked: false };
    const again = { saveId: 'k2', itemNumber: 1, sequence: 3, response: 'b', marked: false };
    expect(restoredQueue({ queued: [first, again], newId: () => 'x' }).pending).toEqual({ 1: first });
  });

  it('should leave the sequences as they were when the answer names no stored ones, and clear what was in flight', async () => {
    vi.useFakeTimers();
    // An answer without the optional `stored` list.
    const machine = autosaveMachine.provide({
      actors: { saveBatch: fromPromise<SaveBatchAnswer, { saves: QueuedSave[] }>(async ({ input }) => ({ acknowledged: input.saves.map((s) => s.saveId) })) },
    });
    const actor = createActor(machine, { input: { sequences: { 2: 4 }, newId: () => 'id-1' } }).start();
    actor.send({ type: 'answer', itemNumber: 1, response: 'a', marked: false });
    actor.send({ type: 'flush' });
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().value).toBe('saved');
    expect(actor.getSnapshot().context.sequences).toEqual({ 1: 1, 2: 4 });
    expect(actor.getSnapshot().context.sending).toEqual([]);
    vi.useRealTimers();
  });

  it('should not go back below its own sequence when the server names a lower stored one', async () => {
    vi.useFakeTimers();
    const { actor, calls } = harness(async () => undefined, [{ itemNumber: 2, storedSequence: 3 }]);
    actor.send({ type: 'answer', itemNumber: 2, response: 'a', marked: false });
    actor.send({ type: 'flush' });
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().context.sequences[2]).toBe(5);
    actor.send({ type: 'answer', itemNumber: 2, response: 'b', marked: false });
    actor.send({ type: 'flush' });
    await vi.advanceTimersByTimeAsync(10);
    expect(calls.map((batch) => batch.map((s) => s.sequence))).toEqual([[5], [6]]);
    vi.useRealTimers();
  });

  it('should count failed calls in a row, and start counting again after one is taken', async () => {
    vi.useFakeTimers();
    let fail = true;
    const { actor } = harness(async () => {
      if (fail) throw { status: 503 };
    });
    actor.send({ type: 'answer', itemNumber: 1, response: 'a', marked: false });
    actor.send({ type: 'flush' });
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().context.failures).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(actor.getSnapshot().value).toBe('offline');
    expect(actor.getSnapshot().context.failures).toBe(2);
    fail = false;
    actor.send({ type: 'online' });
    await vi.advanceTimersByTimeAsync(10);
    expect(actor.getSnapshot().context).toMatchObject({ failures: 0, pending: {} });
    vi.useRealTimers();
  });

  it('should go offline, keeping the save, when the call rejects without any error body', async () => {
    vi.useFakeTimers();
    for (const error of [null, undefined]) {
      const { actor } = harness(async () => Promise.reject(error));
      actor.send({ type: 'answer', itemNumber: 1, response: 'a', marked: false });
      actor.send({ type: 'flush' });
      await vi.advanceTimersByTimeAsync(10);
      expect(actor.getSnapshot().value).toBe('offline');
      expect(autosaveStatus(actor.getSnapshot())).toEqual({ state: 'offline', waiting: 1 });
      actor.stop();
    }
    vi.useRealTimers();
  });

  it('should count a question answered only when its response holds something', () => {
    expect(isAnswered(undefined)).toBe(false);
    expect(isAnswered('')).toBe(false);
    expect(isAnswered(null)).toBe(false);
    expect(isAnswered('Stryker was here!')).toBe(true);
    // trueFalse and numeric responses: false and 0 are answers.
    expect(isAnswered(false)).toBe(true);
    expect(isAnswered(0)).toBe(true);
    // fillInBlanks: text by gap id; answered when some gap holds text.
    expect(isAnswered({})).toBe(false);
    expect(isAnswered({ g1: null, g2: '' })).toBe(false);
    expect(isAnswered({ g1: null, g2: 'Paris' })).toBe(true);
    // Choices, pairs, orderings.
    expect(isAnswered([])).toBe(false);
    expect(isAnswered(['opt-1'])).toBe(true);
    expect(isAnswered([['l1', 'r1']])).toBe(true);
  });
});

import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type AnyStateMachine } from 'xstate';
import { TOAST_AUTO_HIDE_MS, TOAST_LIMIT, toastQueueMachine, toastTimerMachine, type QueuedToast } from '#machines/toast-queue.machine.ts';
import { toastQueueGraph, toastQueueTestPaths, toastTimerTestPaths, type ToastQueueModelEvent } from '#machines/toast-queue.model.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { freshToastQueueFacts, toastQueueExpectation } from '#tests/fixtures/expectations/toast-queue.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

afterEach(() => {
  vi.useRealTimers();
});

function startQueue() {
  vi.useFakeTimers();
  return createActor(toastQueueMachine, { input: {} }).start();
}

const ids = (list: QueuedToast[]) => list.map((t) => t.id);

describe('toast-queue machine', () => {
  it('should show pushed toasts with the spec limits when created without options', () => {
    const actor = startQueue();
    expect(TOAST_LIMIT).toBe(3);
    expect(TOAST_AUTO_HIDE_MS).toBe(5000);
    actor.send({ type: 'toast.push', toast: { content: 'Saved' } });
    expect(actor.getSnapshot().value).toBe('showing');
    expect(actor.getSnapshot().context.visible).toEqual([{ id: 'toast-1', duration: 5000, paused: false, content: 'Saved' }]);
  });

  it('should dismiss the oldest toast when a fourth is pushed', () => {
    const actor = startQueue();
    for (const n of [1, 2, 3, 4]) actor.send({ type: 'toast.push', toast: { content: `t${n}` } });
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-2', 'toast-3', 'toast-4']);
    expect(actor.getSnapshot().context.queued).toEqual([]);
    expect(actor.getSnapshot().value).toBe('showing');
  });

  it('should hide a toast after 5000 ms and not before', async () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { content: 'Saved' } });
    await vi.advanceTimersByTimeAsync(4999);
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().context.visible).toEqual([]);
    expect(actor.getSnapshot().value).toBe('empty');
  });

  it('should keep a toast while paused and give it its full time again when resumed', async () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { content: 'Details' } });
    await vi.advanceTimersByTimeAsync(3000);
    actor.send({ type: 'toast.pause', id: 'toast-1' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(actor.getSnapshot().context.visible).toEqual([{ id: 'toast-1', duration: 5000, paused: true, content: 'Details' }]);
    actor.send({ type: 'toast.resume', id: 'toast-1' });
    await vi.advanceTimersByTimeAsync(4999);
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('empty');
  });

  it('should keep a toast without a duration until it is dismissed', async () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { content: 'Sticky', duration: null } });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1']);
    actor.send({ type: 'toast.dismiss', id: 'toast-1' });
    expect(actor.getSnapshot().value).toBe('empty');
  });

  it('should queue a fourth toast when every shown toast is held open, and show it when one closes', async () => {
    const actor = startQueue();
    for (const n of [1, 2, 3]) {
      actor.send({ type: 'toast.push', toast: { content: `t${n}` } });
      actor.send({ type: 'toast.pause', id: `toast-${n}` });
    }
    actor.send({ type: 'toast.push', toast: { content: 't4' } });
    expect(actor.getSnapshot().value).toBe('saturated');
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1', 'toast-2', 'toast-3']);
    expect(ids(actor.getSnapshot().context.queued)).toEqual(['toast-4']);
    // The queued toast's timer starts only when it is shown.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ids(actor.getSnapshot().context.queued)).toEqual(['toast-4']);
    actor.send({ type: 'toast.dismiss', id: 'toast-2' });
    expect(actor.getSnapshot().value).toBe('showing');
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1', 'toast-3', 'toast-4']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1', 'toast-3']);
  });

  it('should dismiss the oldest running toast, not a held one, when the limit is exceeded', () => {
    const actor = startQueue();
    for (const n of [1, 2, 3]) actor.send({ type: 'toast.push', toast: { content: `t${n}` } });
    actor.send({ type: 'toast.pause', id: 'toast-1' });
    actor.send({ type: 'toast.push', toast: { content: 't4' } });
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1', 'toast-3', 'toast-4']);
  });

  it('should replace the content of a toast pushed again with the same id', () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { id: 'network', content: 'first' } });
    actor.send({ type: 'toast.push', toast: { id: 'network', content: 'second' } });
    expect(actor.getSnapshot().context.visible).toEqual([{ id: 'network', duration: 5000, paused: false, content: 'second' }]);
  });

  it('should remove everything on clear', () => {
    const actor = startQueue();
    for (const n of [1, 2, 3]) {
      actor.send({ type: 'toast.push', toast: { content: `t${n}` } });
      actor.send({ type: 'toast.pause', id: `toast-${n}` });
    }
    actor.send({ type: 'toast.push', toast: { content: 't4' } });
    actor.send({ type: 'toast.clear' });
    expect(actor.getSnapshot().value).toBe('empty');
    expect(actor.getSnapshot().context).toMatchObject({ visible: [], queued: [] });
    expect(Object.keys(actor.getSnapshot().children)).toEqual([]);
  });
});

describe('toast-queue machine: ids, holds and replacements', () => {
  it('should show a toast pushed with a new id beside one pushed with another id', () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { id: 'network', content: 'offline' } });
    actor.send({ type: 'toast.push', toast: { id: 'saved', content: 'Saved' } });
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['network', 'saved']);
  });

  it('should replace only the toast with the pushed id, and take its new duration', () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { id: 'a', content: 'first a' } });
    actor.send({ type: 'toast.push', toast: { id: 'b', content: 'first b' } });
    actor.send({ type: 'toast.push', toast: { id: 'a', content: 'second a', duration: null } });
    expect(actor.getSnapshot().context.visible).toEqual([
      { id: 'a', duration: null, paused: false, content: 'second a' },
      { id: 'b', duration: 5000, paused: false, content: 'first b' },
    ]);
    actor.send({ type: 'toast.push', toast: { id: 'b', content: 'second b' } });
    expect(actor.getSnapshot().context.visible[1]).toEqual({ id: 'b', duration: 5000, paused: false, content: 'second b' });
  });

  it('should change nothing when an unknown toast is dismissed while others wait', () => {
    const actor = startQueue();
    for (const n of [1, 2, 3]) {
      actor.send({ type: 'toast.push', toast: { content: `t${n}` } });
      actor.send({ type: 'toast.pause', id: `toast-${n}` });
    }
    actor.send({ type: 'toast.push', toast: { content: 't4' } });
    actor.send({ type: 'toast.dismiss', id: 'no-such-toast' });
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().value).toBe('saturated');
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1', 'toast-2', 'toast-3']);
    expect(ids(actor.getSnapshot().context.queued)).toEqual(['toast-4']);
  });

  it('should stay showing when an unknown toast is dismissed', () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { content: 't1' } });
    actor.send({ type: 'toast.dismiss', id: 'no-such-toast' });
    expect(actor.getSnapshot().value).toBe('showing');
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-1']);
  });

  it('should hold only the timer of the toast that is paused', async () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { content: 't1' } });
    actor.send({ type: 'toast.push', toast: { content: 't2' } });
    actor.send({ type: 'toast.pause', id: 'toast-2' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(ids(actor.getSnapshot().context.visible)).toEqual(['toast-2']);
    actor.send({ type: 'toast.resume', id: 'toast-2' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(actor.getSnapshot().value).toBe('empty');
  });

  it('should hold a toast without a timer, and a queued one, without failing', () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { content: 'sticky', duration: null } });
    actor.send({ type: 'toast.pause', id: 'toast-1' });
    actor.send({ type: 'toast.resume', id: 'toast-1' });
    for (const n of [2, 3]) {
      actor.send({ type: 'toast.push', toast: { content: `t${n}` } });
      actor.send({ type: 'toast.pause', id: `toast-${n}` });
    }
    actor.send({ type: 'toast.pause', id: 'toast-1' });
    actor.send({ type: 'toast.push', toast: { content: 't4' } });
    actor.send({ type: 'toast.pause', id: 'toast-4' });
    actor.send({ type: 'toast.resume', id: 'toast-4' });
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().context.queued).toEqual([{ id: 'toast-4', duration: 5000, paused: false, content: 't4' }]);
    expect(actor.getSnapshot().context.visible.map((t) => t.paused)).toEqual([true, true, true]);
  });

  it('should hold a toast without a timer that is shown after one with a timer, and a queued one, without failing', () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { content: 't1' } });
    actor.send({ type: 'toast.push', toast: { content: 'sticky', duration: null } });
    actor.send({ type: 'toast.pause', id: 'toast-2' });
    actor.send({ type: 'toast.resume', id: 'toast-2' });
    actor.send({ type: 'toast.pause', id: 'toast-1' });
    actor.send({ type: 'toast.pause', id: 'toast-2' });
    actor.send({ type: 'toast.push', toast: { content: 't3', duration: null } });
    actor.send({ type: 'toast.pause', id: 'toast-3' });
    actor.send({ type: 'toast.push', toast: { content: 't4' } });
    actor.send({ type: 'toast.pause', id: 'toast-4' });
    expect(actor.getSnapshot().status).toBe('active');
    expect(ids(actor.getSnapshot().context.queued)).toEqual(['toast-4']);
  });

  it('should replace the content of a waiting toast pushed again with its id, not queue it twice', () => {
    const actor = startQueue();
    for (const n of [1, 2, 3]) {
      actor.send({ type: 'toast.push', toast: { content: `t${n}` } });
      actor.send({ type: 'toast.pause', id: `toast-${n}` });
    }
    actor.send({ type: 'toast.push', toast: { id: 'upload', content: 'uploading' } });
    actor.send({ type: 'toast.push', toast: { id: 'upload', content: 'uploaded' } });
    expect(actor.getSnapshot().context.queued).toEqual([{ id: 'upload', duration: 5000, paused: false, content: 'uploaded' }]);
  });

  it('should leave a toast that is already held as it was when it is held again', () => {
    const actor = startQueue();
    actor.send({ type: 'toast.push', toast: { content: 't1' } });
    actor.send({ type: 'toast.pause', id: 'toast-1' });
    const held = actor.getSnapshot().context.visible[0];
    actor.send({ type: 'toast.pause', id: 'toast-1' });
    // The same object: a view keyed on it does not render the toast again.
    expect(actor.getSnapshot().context.visible[0]).toBe(held);
  });

  it('should use the spec limits when it is started without input', () => {
    vi.useFakeTimers();
    // The test model behind /machines draws the queue without any input.
    const actor = createActor(toastQueueMachine as AnyStateMachine).start();
    expect(actor.getSnapshot().context).toMatchObject({ limit: 3, defaultDuration: 5000 });
  });
});

describe('toast-queue model', () => {
  const paths = toastQueueTestPaths();

  // The queue's own rules are under test: a toast's timer is another actor, so here it never
  // fires by itself and the path sends its `toast.expired` the way that actor would.
  const silentTimer = fromCallback(() => () => {});
  type Snapshot = Parameters<typeof toastQueueGraph.serializeState>[0];

  const recorder = replayRecorder(toastQueueMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(paths.map((path) => [path.description, path] as const))('should walk %s', async (_description, path) => {
    await recorder.run(path, () =>
      replayPath(path, {
        independent: new IndependentExpectation(toastQueueExpectation, freshToastQueueFacts()),
        start: () => createActor(toastQueueMachine.provide({ actors: { toastTimer: silentTimer as never } }), { input: {} }).start(),
        concretize: (event, live) => {
          const wanted = toastQueueGraph.serializeEvent(event as ToastQueueModelEvent);
          const match = toastQueueGraph.events(live as Snapshot).find((e) => toastQueueGraph.serializeEvent(e) === wanted);
          if (!match) throw new Error(`the live queue offers no ${wanted}`);
          return match;
        },
        expectSame: (live, model) => {
          expect(toastQueueGraph.serializeState(live as Snapshot)).toBe(toastQueueGraph.serializeState(model as Snapshot));
          // Every shown toast with a duration has its timer running, and nothing else does.
          const timed = (live as Snapshot).context.visible.filter((t) => t.duration !== null).map((t) => t.id);
          expect(Object.keys(live.children).sort()).toEqual(timed.sort());
        },
      }),
    );
  });

  it('should take every rule of the independent expectation on some path', () => {
    expect(rulesNoPathTakes(toastQueueExpectation, freshToastQueueFacts, paths as never)).toEqual([]);
  });

  it('should reach every state and transition of the queue', () => {
    const report = reportMachineCoverage(toastQueueMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

describe('toast-timer model', () => {
  const paths = toastTimerTestPaths();

  it.each(paths.map((path) => [path.description, path] as const))('should walk %s', async (_description, path) => {
    await replayPath(path, {
      start: () => {
        const timer = toastTimerMachine.provide({ actions: { reportExpired: () => {} } });
        return createActor(timer, { input: { id: 'toast-1', duration: 5000 } }).start();
      },
      delays: { duration: 5000 },
      expectSame: (live, model) => expect(live.value).toEqual(model.value),
    });
  });

  it('should reach every state and transition of a toast timer', () => {
    const report = reportMachineCoverage(toastTimerMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

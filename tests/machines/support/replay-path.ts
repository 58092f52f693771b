import { vi } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot, EventObject } from 'xstate';
import { delayOfEvent } from '#machines/test-model.ts';
import type { IndependentCheck } from '#tests/fixtures/expectations/expectation-table.ts';

export interface ReplayOptions {
  /** A fresh, started actor for the path (fake timers are on while it runs). */
  start: () => AnyActorRef;
  /** Milliseconds of a named delay (`xstate.after.<name>.…`); numeric delays need no entry. */
  delays?: Record<string, number>;
  /**
   * Handles an event the replay cannot send as is: an invoked actor finishing
   * (`xstate.done.actor.*` / `xstate.error.actor.*`). Return true when handled.
   */
  settle?: (event: EventObject, actor: AnyActorRef) => boolean | Promise<boolean>;
  /**
   * The event to send for a model event, given the live snapshot: models that abstract ids
   * name events by role, and the live actor's ids differ from the graph's.
   */
  concretize?: (event: EventObject, live: AnyMachineSnapshot) => EventObject;
  /** Compares the live snapshot with the model's after each step. */
  expectSame: (live: AnyMachineSnapshot, model: AnyMachineSnapshot, event: EventObject) => void;
  /**
   * The actor's rules written independently of the machine (tests/fixtures/expectations):
   * every step is checked against it too, and delays last as long as it says, not as long as
   * the machine says.
   */
  independent?: IndependentCheck;
}

/**
 * Walks one model path against a live actor: sends each event, advances fake time for the
 * delayed ones, lets the test settle invoked actors, and checks the live snapshot against the
 * model's at every step.
 */
export async function replayPath(path: { steps: ReadonlyArray<{ event: EventObject; state: AnyMachineSnapshot }> }, options: ReplayOptions) {
  vi.useFakeTimers();
  const actor = options.start();
  const trail: string[] = [];
  try {
    for (const step of path.steps) {
      const { event } = step;
      trail.push(event.type);
      if (event.type === 'xstate.init') {
        // The initial snapshot: nothing to send.
      } else if (event.type.startsWith('xstate.after.')) {
        const key = delayOfEvent(event.type)!;
        const ms = options.independent ? options.independent.delay(key) : /^\d+$/.test(key) ? Number(key) : options.delays?.[key];
        if (ms === undefined) throw new Error(`replay: no duration for the delay '${key}'`);
        await vi.advanceTimersByTimeAsync(ms);
      } else if (event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.')) {
        const handled = await options.settle?.(event, actor);
        if (!handled) throw new Error(`replay: nothing settles ${event.type}`);
        await vi.advanceTimersByTimeAsync(0);
      } else {
        actor.send(options.concretize ? options.concretize(event, actor.getSnapshot()) : event);
        await vi.advanceTimersByTimeAsync(0);
      }
      options.independent?.check(event, actor.getSnapshot(), trail.join(' → '));
      options.expectSame(actor.getSnapshot(), step.state, event);
    }
  } finally {
    actor.stop();
    vi.useRealTimers();
  }
}

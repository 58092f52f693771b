import { assign, setup, type ActorRefFrom } from 'xstate';
import type { DeliveryStatus } from './delivery.machine.ts';

/**
 * The candidate screen's clock (issue 19, docs/decisions/0246): time left counted down from the
 * server's deadline, read on the server's clock. Every server answer (`timing`) brings the
 * deadline and the server's time; the offset between that time and the browser's time when the
 * answer arrived corrects a browser clock that is minutes off. While the delivery runs the
 * clock ticks every second; paused (or not yet started) it shows the server's time left, still;
 * at zero it is `expired`, and the screen saves what is left and asks the server to settle it.
 * A later answer with time left (an extension) runs it again.
 */
export interface CountdownTiming {
  status: DeliveryStatus;
  /** The server's time of the answer (ISO). */
  serverNow: string;
  /** When time runs out (ISO); null while the clock is stopped. */
  deadline: string | null;
  remainingMs: number;
}

export interface CountdownContext {
  deadline: string | null;
  remainingMs: number;
  /** serverNow − the browser's time when the answer arrived. */
  offsetMs: number;
  /** Time left on screen. */
  leftMs: number;
  running: boolean;
  now: () => number;
}

export type CountdownEvent = { type: 'timing'; timing: CountdownTiming; receivedAt: number };

export interface CountdownInput {
  timing: CountdownTiming;
  receivedAt: number;
  /** The browser's clock (a fake one in tests). */
  now?: () => number;
}

export const COUNTDOWN_TICK_MS = 1_000;

/** Time left on screen: the deadline read on the server's clock. */
export function countdownLeft(context: Pick<CountdownContext, 'deadline' | 'remainingMs' | 'offsetMs' | 'running'>, browserNow: number): number {
  if (!context.running || !context.deadline) return context.remainingMs;
  return Math.max(0, Date.parse(context.deadline) - (browserNow + context.offsetMs));
}

function learned(timing: CountdownTiming, receivedAt: number, now: () => number): Omit<CountdownContext, 'now'> {
  const clock = {
    deadline: timing.deadline,
    remainingMs: timing.remainingMs,
    offsetMs: Date.parse(timing.serverNow) - receivedAt,
    running: timing.status === 'Active' && timing.deadline !== null,
  };
  return { ...clock, leftMs: countdownLeft(clock, now()) };
}

export const countdownMachine = setup({
  types: { context: {} as CountdownContext, events: {} as CountdownEvent, input: {} as CountdownInput },
  delays: { tick: COUNTDOWN_TICK_MS },
  guards: {
    isRunning: ({ context }) => context.running && context.leftMs > 0,
    // Asked after isRunning: a running clock that does not run on has reached zero (time left never goes below it).
    isOut: ({ context }) => context.running,
    runsOn: ({ context, event }) => {
      const next = learned(event.timing, event.receivedAt, context.now);
      return next.running && next.leftMs > 0;
    },
    isOutOn: ({ context, event }) => learned(event.timing, event.receivedAt, context.now).running,
    hasTimeAfterTick: ({ context }) => countdownLeft(context, context.now()) > 0,
  },
  actions: {
    learn: assign(({ context, event }) => learned(event.timing, event.receivedAt, context.now)),
    tick: assign({ leftMs: ({ context }) => countdownLeft(context, context.now()) }),
  },
}).createMachine({
  id: 'deliveryCountdown',
  context: ({ input }) => {
    const now = input.now ?? (() => Date.now());
    return { ...learned(input.timing, input.receivedAt, now), now };
  },
  /** Where the clock opens follows the first answer (a reload mid-sitting opens it running). */
  initial: 'opening',
  on: {
    timing: [
      { guard: 'runsOn', target: '.running', reenter: true, actions: 'learn' },
      { guard: 'isOutOn', target: '.expired', actions: 'learn' },
      { target: '.stopped', actions: 'learn' },
    ],
  },
  states: {
    opening: { always: [{ guard: 'isRunning', target: 'running' }, { guard: 'isOut', target: 'expired' }, { target: 'stopped' }] },
    running: {
      tags: ['running'],
      after: {
        tick: [
          { guard: 'hasTimeAfterTick', target: 'running', reenter: true, actions: 'tick' },
          { target: 'expired', actions: 'tick' },
        ],
      },
    },
    /** Paused, or not started: the server's time left, not counting. */
    stopped: { tags: ['stopped'] },
    expired: { tags: ['expired'] },
  },
});

export type CountdownActor = ActorRefFrom<typeof countdownMachine>;

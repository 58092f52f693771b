import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';
import { countdownMachine, type CountdownEvent } from './delivery-countdown.machine.ts';

/**
 * The model's clocks: the server says 10:00:00 UTC on 10 March 2027; this browser's clock is 10
 * minutes slow, so every answer "arrives" at 09:50:00 by the browser.
 */
export const COUNTDOWN_SERVER_NOW = '2027-03-10T10:00:00.000Z';
export const COUNTDOWN_BROWSER_NOW = Date.parse(COUNTDOWN_SERVER_NOW) - 10 * 60_000;
const at = (minutes: number) => new Date(Date.parse(COUNTDOWN_SERVER_NOW) + minutes * 60_000).toISOString();

/** Not started yet (the waiting room), 60 minutes allowed. */
export const countdownModelInput = {
  timing: { status: 'Waiting' as const, serverNow: COUNTDOWN_SERVER_NOW, deadline: null, remainingMs: 60 * 60_000 },
  receivedAt: COUNTDOWN_BROWSER_NOW,
};

/** Running with 10 minutes left, paused with 5 left, and running with none left. */
export const countdownModelEvents: CountdownEvent[] = [
  {
    type: 'timing',
    timing: { status: 'Active', serverNow: COUNTDOWN_SERVER_NOW, deadline: at(10), remainingMs: 10 * 60_000 },
    receivedAt: COUNTDOWN_BROWSER_NOW,
  },
  { type: 'timing', timing: { status: 'Paused', serverNow: COUNTDOWN_SERVER_NOW, deadline: null, remainingMs: 5 * 60_000 }, receivedAt: COUNTDOWN_BROWSER_NOW },
  {
    type: 'timing',
    timing: { status: 'Active', serverNow: COUNTDOWN_SERVER_NOW, deadline: COUNTDOWN_SERVER_NOW, remainingMs: 0 },
    receivedAt: COUNTDOWN_BROWSER_NOW,
  },
];

export function countdownModel() {
  return createMachineTestModel(countdownMachine, {
    // The graph's clock stands still; a replay's fake clock moves a second per tick.
    input: { ...countdownModelInput, now: () => COUNTDOWN_BROWSER_NOW },
    events: () => countdownModelEvents,
    serializeState: (s) => JSON.stringify([s.value, s.context.leftMs, s.context.remainingMs]),
    serializeEvent: (e) => (e.type === 'timing' ? `timing ${e.timing.status} ${e.timing.remainingMs / 60_000} min` : e.type),
  });
}

export function countdownTestPaths() {
  return transitionCoveringPaths(countdownModel());
}

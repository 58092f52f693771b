import type { EventObject } from 'xstate';
import { dashboardCardMachine } from './dashboard-card.machine.ts';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';

/**
 * The dashboard card's model: a person's retry, a live update's refresh, and the card's load
 * answering or failing. Nodes are told apart by state and by whether stale data is shown, so
 * a failed refresh and the one after it are both on some path.
 */
export const dashboardCardModelEvents: EventObject[] = [
  { type: 'card.retry' },
  { type: 'card.refresh' },
  { type: 'xstate.done.actor.load', output: 'figures' } as EventObject,
  { type: 'xstate.error.actor.load', error: { messages: ['Server unavailable'], statusCode: 503 } } as EventObject,
];

export function dashboardCardModel() {
  return createMachineTestModel(dashboardCardMachine, {
    events: () => dashboardCardModelEvents,
    exhaustive: true,
    input: { load: () => new Promise<never>(() => {}) },
    serializeState: (snapshot) => `${JSON.stringify(snapshot.value)}|${snapshot.context.stale ? 'stale' : 'fresh'}`,
  });
}

export function dashboardCardTestPaths() {
  return transitionCoveringPaths(dashboardCardModel());
}

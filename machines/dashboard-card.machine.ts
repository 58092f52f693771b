import { assign, fromPromise, setup } from 'xstate';

/**
 * One dashboard card's data (issue 21, docs/decisions/0266): every card of `/` runs its own
 * copy, so each loads, fails and retries on its own.
 *
 * - `loading` → `ready` with the data, or `failed` with the reason;
 * - `failed` --card.retry--> `loading`;
 * - `ready` --card.refresh--> `ready.refreshing` (a live update: the data stays on screen while it
 *   reloads; a failed refresh keeps the old data and marks it `stale`, the next refresh tries again).
 */
export interface DashboardCardInput<T> {
  load: () => Promise<T>;
}

export interface DashboardCardContext<T> {
  load: () => Promise<T>;
  data: T | null;
  error: unknown;
  /** The last refresh failed: what shows is the data of an earlier load. */
  stale: boolean;
}

export type DashboardCardEvent = { type: 'card.retry' } | { type: 'card.refresh' };

export function createDashboardCardMachine<T>() {
  return setup({
    types: {
      context: {} as DashboardCardContext<T>,
      input: {} as DashboardCardInput<T>,
      events: {} as DashboardCardEvent,
    },
    actors: {
      load: fromPromise<T, { load: () => Promise<T> }>(({ input }) => input.load()),
    },
  }).createMachine({
    id: 'dashboard-card',
    context: ({ input }) => ({ load: input.load, data: null, error: null, stale: false }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: 'load',
          src: 'load',
          input: ({ context }) => ({ load: context.load }),
          onDone: { target: 'ready', actions: assign({ data: ({ event }) => event.output, error: null, stale: false }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
        },
      },
      failed: { on: { 'card.retry': 'loading' } },
      ready: {
        initial: 'shown',
        states: {
          shown: { on: { 'card.refresh': 'refreshing' } },
          refreshing: {
            invoke: {
              // The same id in both states: one load runs at a time, and its answer is `xstate.done.actor.load` wherever it lands.
              id: 'load',
              src: 'load',
              input: ({ context }) => ({ load: context.load }),
              onDone: { target: 'shown', actions: assign({ data: ({ event }) => event.output, stale: false }) },
              onError: { target: 'shown', actions: assign({ stale: true }) },
            },
            // A push arriving mid-reload asks again once this one is back.
            on: { 'card.refresh': { target: 'refreshing', reenter: true } },
          },
        },
      },
    },
  });
}

/** The card's machine as the /machines page and the model draw it (the data's type is the screen's). */
export const dashboardCardMachine = createDashboardCardMachine<unknown>();

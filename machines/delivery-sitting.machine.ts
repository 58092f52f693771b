import { sendTo, setup, type ActorRefFrom } from 'xstate';
import { autosaveMachine, type AutosaveInput } from './delivery-autosave.machine.ts';
import { connectionMachine, type BrowserReportKind } from './delivery-connection.machine.ts';
import { countdownMachine, type CountdownTiming } from './delivery-countdown.machine.ts';

/**
 * The candidate's sitting on the screen (issue 19, docs/decisions/0246): the delivery actor of
 * the browser, with three children the screen subscribes to — the autosave queue
 * (`autosave`), the line to the server (`connection`: heartbeats, the browser's reports,
 * reconnects) and the clock (`countdown`). The browser's online and offline reach both the
 * queue and the line; every server answer's timing reaches the clock and the line (a paused
 * delivery beats faster). `end` stops the children: after the end nothing is saved or sent.
 */
export type SittingEvent =
  | { type: 'online' }
  | { type: 'offline' }
  | { type: 'timing'; timing: CountdownTiming; receivedAt: number }
  | { type: 'report'; kind: BrowserReportKind }
  | { type: 'end' };

export interface SittingInput {
  autosave: AutosaveInput;
  timing: CountdownTiming;
  receivedAt: number;
  now?: () => number;
}

export const sittingMachine = setup({
  types: { events: {} as SittingEvent, input: {} as SittingInput, context: {} as { input: SittingInput } },
  actors: { autosave: autosaveMachine, connection: connectionMachine, countdown: countdownMachine },
}).createMachine({
  id: 'deliverySitting',
  context: ({ input }) => ({ input }),
  initial: 'sitting',
  states: {
    sitting: {
      invoke: [
        { id: 'autosave', systemId: 'autosave', src: 'autosave', input: ({ context }) => context.input.autosave },
        {
          id: 'connection',
          systemId: 'connection',
          src: 'connection',
          input: ({ context }) => ({ paused: context.input.timing.status === 'Paused', now: context.input.now }),
        },
        {
          id: 'countdown',
          systemId: 'countdown',
          src: 'countdown',
          input: ({ context }) => ({ timing: context.input.timing, receivedAt: context.input.receivedAt, now: context.input.now }),
        },
      ],
      on: {
        online: { actions: [sendTo('autosave', { type: 'online' }), sendTo('connection', { type: 'online' })] },
        offline: { actions: [sendTo('autosave', { type: 'offline' }), sendTo('connection', { type: 'offline' })] },
        timing: {
          actions: [
            sendTo('countdown', ({ event }) => event),
            sendTo('connection', ({ event }) => ({ type: 'status' as const, paused: event.timing.status === 'Paused' })),
          ],
        },
        report: { actions: sendTo('connection', ({ event }) => event) },
        end: 'ended',
      },
    },
    ended: { type: 'final' },
  },
});

export type SittingActor = ActorRefFrom<typeof sittingMachine>;

import { assign, emit, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { CountdownTiming } from './delivery-countdown.machine.ts';

/**
 * The candidate browser's line to the server during a sitting (issue 19, docs/decisions/0246):
 * heartbeats (every 30 s while the delivery runs, every 3 s while it is paused, so a resume
 * shows at once), and the browser's own reports — focus lost and regained, fullscreen exited —
 * sent at once with the next heartbeat. Every answer's timing is emitted for the screen and the
 * countdown. A failed call or the browser's `offline` keeps the reports and retries; when a
 * call goes through again, a `reconnected` report (with how long the line was down) goes with
 * it. The server notes each call's IP and raises an IP change itself.
 */
export type BrowserReportKind = 'focusLost' | 'focusRegained' | 'fullscreenExited';
export type TelemetryKind = 'heartbeat' | 'reconnected' | BrowserReportKind;

export interface TelemetryReport {
  kind: TelemetryKind;
  details?: Record<string, string | number | boolean>;
}

export interface ConnectionContext {
  /** Reports not yet taken by the server, oldest first. */
  reports: TelemetryReport[];
  /** The reports of the call under way. */
  sending: TelemetryReport[];
  paused: boolean;
  /** When the line went down (browser ms); null while it is up. */
  downSince: number | null;
  reconnects: number;
  now: () => number;
}

export type ConnectionEvent = { type: 'report'; kind: BrowserReportKind } | { type: 'status'; paused: boolean } | { type: 'online' } | { type: 'offline' };

export interface ConnectionInput {
  paused?: boolean;
  now?: () => number;
}

export const HEARTBEAT_MS = 30_000;
export const PAUSED_HEARTBEAT_MS = 3_000;
export const CONNECTION_RETRY_MS = 5_000;

export const connectionMachine = setup({
  types: {
    context: {} as ConnectionContext,
    events: {} as ConnectionEvent,
    input: {} as ConnectionInput,
    emitted: {} as { type: 'timing'; timing: CountdownTiming; receivedAt: number },
  },
  actors: {
    sendTelemetry: fromPromise<CountdownTiming, { events: TelemetryReport[] }>(async () => {
      throw new Error('sendTelemetry is provided by the screen');
    }),
  },
  delays: {
    heartbeat: HEARTBEAT_MS,
    pausedHeartbeat: PAUSED_HEARTBEAT_MS,
    retry: CONNECTION_RETRY_MS,
  },
  guards: { isPaused: ({ context }) => context.paused },
  actions: {
    queue: assign({ reports: ({ context }, params: { kind: BrowserReportKind }) => [...context.reports, { kind: params.kind }] }),
    setPaused: assign({ paused: (_, params: { paused: boolean }) => params.paused }),
    takeBatch: assign(({ context }) => {
      const back = context.downSince === null ? [] : [{ kind: 'reconnected' as const, details: { offlineMs: Math.max(0, context.now() - context.downSince) } }];
      const batch = [...back, ...context.reports];
      return { sending: batch.length ? batch : [{ kind: 'heartbeat' as const }], reports: [] };
    }),
    delivered: assign(({ context }) => ({
      sending: [],
      reconnects: context.reconnects + (context.sending.some((r) => r.kind === 'reconnected') ? 1 : 0),
      downSince: null,
    })),
    // What did not go out waits for the next call; a heartbeat is not worth keeping.
    undelivered: assign(({ context }) => ({
      reports: [...context.sending.filter((r) => r.kind !== 'heartbeat' && r.kind !== 'reconnected'), ...context.reports],
      sending: [],
      downSince: context.downSince ?? context.now(),
    })),
    wentDown: assign({ downSince: ({ context }) => context.downSince ?? context.now() }),
  },
}).createMachine({
  id: 'deliveryConnection',
  context: ({ input }) => ({
    reports: [],
    sending: [],
    paused: input.paused ?? false,
    downSince: null,
    reconnects: 0,
    now: input.now ?? (() => Date.now()),
  }),
  initial: 'idle',
  on: { status: { actions: { type: 'setPaused', params: ({ event }) => ({ paused: event.paused }) } } },
  states: {
    idle: {
      tags: ['online'],
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'isPaused', target: 'paused' }, { target: 'running' }] },
        running: { after: { heartbeat: '#deliveryConnection.sending' } },
        /** A paused delivery beats faster, so the resume shows at once. */
        paused: { after: { pausedHeartbeat: '#deliveryConnection.sending' } },
      },
      on: {
        report: { actions: { type: 'queue', params: ({ event }) => ({ kind: event.kind }) }, target: 'sending' },
        offline: { actions: 'wentDown', target: 'offline' },
        // A pause or a resume sets the next heartbeat's delay anew.
        status: { actions: { type: 'setPaused', params: ({ event }) => ({ paused: event.paused }) }, target: '.choosing' },
      },
    },
    sending: {
      tags: ['online'],
      entry: 'takeBatch',
      on: { report: { actions: { type: 'queue', params: ({ event }) => ({ kind: event.kind }) } } },
      invoke: {
        id: 'sendTelemetry',
        src: 'sendTelemetry',
        input: ({ context }) => ({ events: context.sending }),
        onDone: {
          target: 'idle',
          actions: ['delivered', emit(({ context, event }) => ({ type: 'timing' as const, timing: event.output, receivedAt: context.now() }))],
        },
        onError: { target: 'offline', actions: 'undelivered' },
      },
    },
    offline: {
      tags: ['offline'],
      after: { retry: 'sending' },
      on: { report: { actions: { type: 'queue', params: ({ event }) => ({ kind: event.kind }) } }, online: 'sending' },
    },
  },
});

export type ConnectionActor = ActorRefFrom<typeof connectionMachine>;

import { assign, fromCallback, sendTo, setup, type AnyEventObject } from 'xstate';
import { CloseCodes, type ClientMessage, type EventFrame, type ServerFrame } from './realtime-protocol.ts';

/**
 * The client's connection to the real-time hub `/api/hubs/notifications` (issue 8, protocol in
 * docs/decisions/0050 and ./realtime-protocol.ts; client rules in docs/decisions/0056).
 *
 * closed ──session.start──▶ online.connecting ──socket.ready──▶ online.connected
 *   ▲                            │  ▲                               │
 *   │ session.end                │  └──after backoff── reconnecting ◀┘ socket.closed (other codes)
 *   │                            └─ 4401/4403 ─▶ awaitingToken ──token.refreshed / after backoff──▶ connecting
 *   └──────────── offline (navigator) ◀── browser.offline / browser.online ──▶ connecting
 *
 * The socket is an invoked callback actor (`socket`): it opens the WebSocket, sends the `auth`
 * frame with the last processed cursor as `after` (the server replays what was missed) and
 * reports frames and the close back. Event frames at or below the last cursor are dropped, so
 * a replay that overlaps what already arrived doubles nothing. Back-off grows exponentially
 * with full jitter; the random source and the timers are injected (`delays.backoff`).
 */
export interface RealtimeConnectionContext {
  token: string | null;
  /** The cursor of the last event processed (null: none yet; the `ready` frame gives the start). */
  cursor: number | null;
  /** Failed attempts since the last `ready` (drives the back-off). */
  attempt: number;
  /** Whether the socket has been ready at least once in this session (a later ready is a resume). */
  everConnected: boolean;
  lastCloseCode: number | null;
  userId: string | null;
}

export interface SocketInput {
  token: string;
  after: number | null;
}

export type RealtimeConnectionEvent =
  | { type: 'session.start'; token: string }
  | { type: 'session.end' }
  | { type: 'token.refreshed'; token: string }
  | { type: 'browser.offline' }
  | { type: 'browser.online' }
  | { type: 'socket.frame'; frame: ServerFrame }
  | { type: 'socket.closed'; code: number };

/** Delay before reconnect attempt `attempt` (1, 2, …): full jitter over min(cap, base·2^(attempt-1)). */
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 30_000;
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  // Never 0, so a flapping server is not hammered: at least a quarter of the base.
  return Math.max(BACKOFF_BASE_MS / 4, Math.round(random() * ceiling));
}

const frameOf = (event: AnyEventObject) => (event as Extract<RealtimeConnectionEvent, { type: 'socket.frame' }>).frame;
const codeOf = (event: AnyEventObject) => (event as Extract<RealtimeConnectionEvent, { type: 'socket.closed' }>).code;
const tokenOf = (event: AnyEventObject) => (event as unknown as { token: string }).token;

export const realtimeConnectionMachine = setup({
  types: {
    context: {} as RealtimeConnectionContext,
    events: {} as RealtimeConnectionEvent,
    tags: {} as 'live',
  },
  actors: {
    /** The WebSocket; the runtime provides it (src/app/realtime/realtime-runtime.ts). */
    socket: fromCallback<ClientMessage, SocketInput>(() => {
      throw new Error('realtime-connection: provide the socket actor');
    }),
  },
  delays: {
    backoff: ({ context }) => backoffDelay(context.attempt),
  },
  guards: {
    isReady: ({ event }) => frameOf(event).type === 'ready',
    /** An event frame newer than the last one processed. */
    isNewEvent: ({ context, event }) => {
      const frame = frameOf(event);
      return frame.type === 'event' && (context.cursor === null || frame.cursor > context.cursor);
    },
    isResync: ({ event }) => frameOf(event).type === 'resync',
    isPermissionsChanged: ({ event }) => frameOf(event).type === 'permissions.changed',
    /** The hub refused the socket's token: expired (4401) or of a session it considers over (4403). */
    tokenRefused: ({ event }) => codeOf(event) === CloseCodes.unauthenticated || codeOf(event) === CloseCodes.sessionEnded,
  },
  actions: {
    setToken: assign({ token: ({ event }) => tokenOf(event) }),
    startSession: assign({ token: ({ event }) => tokenOf(event), cursor: null, attempt: 0, everConnected: false, lastCloseCode: null, userId: null }),
    endSession: assign({ token: null, cursor: null, attempt: 0, everConnected: false, userId: null }),
    recordReady: assign(({ context, event }) => {
      const frame = frameOf(event) as Extract<ServerFrame, { type: 'ready' }>;
      // A fresh client starts at the server's newest event; a resuming one keeps its own cursor.
      return { cursor: context.cursor ?? frame.cursor, attempt: 0, everConnected: true, userId: frame.userId };
    }),
    recordEvent: assign({ cursor: ({ event }) => (frameOf(event) as EventFrame).cursor }),
    recordResync: assign({ cursor: ({ event }) => (frameOf(event) as Extract<ServerFrame, { type: 'resync' }>).cursor }),
    recordClose: assign({ lastCloseCode: ({ event }) => codeOf(event) }),
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    resetAttempts: assign({ attempt: 0 }),
    reauthenticate: sendTo('socket', ({ context }) => ({ type: 'auth', token: context.token! }) satisfies ClientMessage),
    /** The runtime's hooks (no I/O in the machine). */
    connected: (_, _params: { resumed: boolean }) => {},
    deliverEvent: (_, _params: { frame: EventFrame }) => {},
    resync: () => {},
    permissionsChanged: (_, _params: { permissions: string[] }) => {},
    /**
     * The runtime checks the session: a newer token than the refused one comes back as
     * `token.refreshed`; otherwise it refreshes, and a session that is really over fails that
     * refresh and signs out (the auth session is the authority), which sends `session.end`.
     */
    requestToken: (_, _params: { refusedToken: string | null; code: number }) => {},
  },
}).createMachine({
  id: 'realtime-connection',
  context: { token: null, cursor: null, attempt: 0, everConnected: false, lastCloseCode: null, userId: null },
  initial: 'closed',
  on: {
    'session.end': { target: '.closed', actions: 'endSession' },
  },
  states: {
    /** Signed out (or not started): no socket. */
    closed: {
      on: { 'session.start': { target: 'online', actions: 'startSession' } },
    },
    /** The browser has a network (as far as it knows) and a session: a socket is open or opening. */
    online: {
      initial: 'connecting',
      invoke: {
        id: 'socket',
        src: 'socket',
        input: ({ context }) => ({ token: context.token!, after: context.cursor }),
      },
      on: {
        'browser.offline': { target: 'offline' },
        'socket.closed': [
          {
            guard: 'tokenRefused',
            target: 'awaitingToken',
            actions: ['recordClose', { type: 'requestToken', params: ({ context, event }) => ({ refusedToken: context.token, code: event.code }) }],
          },
          { target: 'reconnecting', actions: 'recordClose' },
        ],
      },
      states: {
        connecting: {
          on: {
            'socket.frame': [
              {
                guard: 'isReady',
                target: 'connected',
                actions: [{ type: 'connected', params: ({ context }) => ({ resumed: context.everConnected }) }, 'recordReady'],
              },
            ],
            // The socket still authenticates with the old token: start over with the new one.
            'token.refreshed': { target: '#realtime-connection.online', reenter: true, actions: 'setToken' },
          },
        },
        connected: {
          tags: 'live',
          on: {
            'socket.frame': [
              {
                guard: 'isNewEvent',
                actions: [{ type: 'deliverEvent', params: ({ event }) => ({ frame: event.frame as EventFrame }) }, 'recordEvent'],
              },
              { guard: 'isResync', actions: ['recordResync', 'resync'] },
              {
                guard: 'isPermissionsChanged',
                actions: {
                  type: 'permissionsChanged',
                  params: ({ event }) => ({ permissions: (event.frame as Extract<ServerFrame, { type: 'permissions.changed' }>).permissions }),
                },
              },
              // Duplicates (cursor at or below the last one), pong, reauthenticated: nothing to do.
            ],
            'token.refreshed': { actions: ['setToken', 'reauthenticate'] },
          },
        },
      },
    },
    /** The socket was lost: wait (exponential back-off with jitter), then open a new one. */
    reconnecting: {
      entry: 'countAttempt',
      after: { backoff: { target: 'online' } },
      on: {
        'browser.offline': { target: 'offline' },
        'token.refreshed': { actions: 'setToken' },
      },
    },
    /**
     * The token was refused: the runtime gets a newer one (or the session ends). Without one,
     * the same token is tried again after the back-off (a refresh that failed for the network).
     */
    awaitingToken: {
      entry: 'countAttempt',
      after: { backoff: { target: 'online' } },
      on: {
        'token.refreshed': { target: 'online', actions: ['setToken', 'resetAttempts'] },
        'browser.offline': { target: 'offline' },
      },
    },
    /** The browser says it has no network: no socket, no attempts until it comes back. */
    offline: {
      on: {
        'browser.online': { target: 'online', actions: 'resetAttempts' },
        'token.refreshed': { actions: 'setToken' },
      },
    },
  },
});

export type RealtimeConnectionMachine = typeof realtimeConnectionMachine;

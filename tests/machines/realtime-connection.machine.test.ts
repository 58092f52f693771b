import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type AnyMachineSnapshot, type EventObject } from 'xstate';
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  backoffDelay,
  realtimeConnectionMachine,
  type RealtimeConnectionContext,
  type SocketInput,
} from '#machines/realtime-connection.machine.ts';
import { concretizeRealtimeEvent, realtimeConnectionTestPaths, realtimeEventRole, realtimeStateKey } from '#machines/realtime-connection.model.ts';
import { CloseCodes, type ClientMessage, type EventFrame, type ServerFrame } from '#machines/realtime-protocol.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { realtimeConnectionExpectation } from '#tests/fixtures/expectations/realtime-connection.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

afterEach(() => {
  vi.useRealTimers();
});

const AT = '2026-11-22T10:00:00.000Z';
const ev = (cursor: number, kind: EventFrame['kind'] = 'chat.message'): ServerFrame => ({
  type: 'event',
  cursor,
  kind,
  ticketId: 7,
  data: { n: cursor },
  at: AT,
});

/** A live actor with a fake socket: records every socket opened (its input and the frames sent on it). */
function harness(options: { backoff?: number | ((ctx: RealtimeConnectionContext) => number) } = {}) {
  const sockets: Array<{ input: SocketInput; sent: ClientMessage[]; open: boolean }> = [];
  const delivered: EventFrame[] = [];
  const calls = {
    connected: [] as boolean[],
    resync: 0,
    permissions: [] as string[][],
    requestToken: [] as Array<{ refusedToken: string | null; code: number }>,
  };
  const backoff = options.backoff ?? 1000;
  const machine = realtimeConnectionMachine.provide({
    actors: {
      socket: fromCallback<ClientMessage, SocketInput>(({ input, receive }) => {
        const socket = { input, sent: [] as ClientMessage[], open: true };
        sockets.push(socket);
        receive((message) => socket.sent.push(message));
        return () => {
          socket.open = false;
        };
      }),
    },
    delays: { backoff: typeof backoff === 'number' ? backoff : ({ context }) => backoff(context) },
    actions: {
      connected: (_, params) => calls.connected.push(params.resumed),
      deliverEvent: (_, params) => delivered.push(params.frame),
      resync: () => (calls.resync += 1),
      permissionsChanged: (_, params) => calls.permissions.push(params.permissions),
      requestToken: (_, params) => calls.requestToken.push(params),
    },
  });
  const actor = createActor(machine);
  const frame = (f: ServerFrame) => actor.send({ type: 'socket.frame', frame: f });
  return { actor, sockets, delivered, calls, frame, openSockets: () => sockets.filter((s) => s.open) };
}

describe('backoffDelay', () => {
  it('should grow exponentially up to the cap, scaled by the injected random', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, () => 1))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(backoffDelay(6, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(40, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(4, () => 0.5)).toBe(4000);
  });

  it('should never wait less than a quarter of the base (full jitter without a zero)', () => {
    expect(backoffDelay(1, () => 0)).toBe(BACKOFF_BASE_MS / 4);
    expect(backoffDelay(10, () => 0)).toBe(BACKOFF_BASE_MS / 4);
  });
});

describe('realtime-connection machine', () => {
  it('should open a socket with the token after sign-in and be live once the hub is ready', () => {
    const h = harness();
    h.actor.start();
    expect(h.actor.getSnapshot().value).toBe('closed');
    expect(h.sockets).toHaveLength(0);
    h.actor.send({ type: 'session.start', token: 'A' });
    expect(h.actor.getSnapshot().value).toEqual({ online: 'connecting' });
    expect(h.sockets[0].input).toEqual({ token: 'A', after: null });
    h.frame({ type: 'ready', userId: 'u1', cursor: 41, expiresAt: AT });
    expect(h.actor.getSnapshot().hasTag('live')).toBe(true);
    expect(h.actor.getSnapshot().context).toMatchObject({ cursor: 41, userId: 'u1', attempt: 0 });
    expect(h.calls.connected).toEqual([false]);
  });

  it('should resume from its cursor after a drop and process a replay that overlaps what it had exactly once', async () => {
    vi.useFakeTimers();
    const h = harness();
    h.actor.start();
    h.actor.send({ type: 'session.start', token: 'A' });
    h.frame({ type: 'ready', userId: 'u1', cursor: 10, expiresAt: AT });
    h.frame(ev(11));
    h.frame(ev(12));
    h.actor.send({ type: 'socket.closed', code: 1006 });
    expect(h.actor.getSnapshot().value).toBe('reconnecting');
    expect(h.openSockets()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(h.sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sockets[1].input).toEqual({ token: 'A', after: 12 });
    h.frame({ type: 'ready', userId: 'u1', cursor: 15, expiresAt: AT });
    // The server replays after 12; a frame that was already processed arrives again.
    for (const cursor of [12, 13, 14, 13, 15]) h.frame(ev(cursor));
    expect(h.delivered.map((f) => f.cursor)).toEqual([11, 12, 13, 14, 15]);
    expect(h.calls.connected).toEqual([false, true]);
    expect(h.actor.getSnapshot().context.cursor).toBe(15);
  });

  it('should wait longer after each failed attempt, with the injected jitter, and start over once connected', async () => {
    vi.useFakeTimers();
    const random = vi.fn(() => 0.5);
    const h = harness({ backoff: (ctx) => backoffDelay(ctx.attempt, random) });
    h.actor.start();
    h.actor.send({ type: 'session.start', token: 'A' });
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      h.actor.send({ type: 'socket.closed', code: 1006 });
      const opened = h.sockets.length;
      let waited = 0;
      while (h.sockets.length === opened) {
        await vi.advanceTimersByTimeAsync(100);
        waited += 100;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([500, 1000, 2000, 4000]);
    expect(random).toHaveBeenCalledTimes(4);
    h.frame({ type: 'ready', userId: 'u1', cursor: 1, expiresAt: AT });
    expect(h.actor.getSnapshot().context.attempt).toBe(0);
  });

  it('should close the socket while the browser is offline and reconnect at once when it is back', () => {
    const h = harness();
    h.actor.start();
    h.actor.send({ type: 'session.start', token: 'A' });
    h.frame({ type: 'ready', userId: 'u1', cursor: 3, expiresAt: AT });
    h.actor.send({ type: 'browser.offline' });
    expect(h.actor.getSnapshot().value).toBe('offline');
    expect(h.openSockets()).toHaveLength(0);
    h.actor.send({ type: 'browser.online' });
    expect(h.actor.getSnapshot().value).toEqual({ online: 'connecting' });
    expect(h.openSockets().map((s) => s.input)).toEqual([{ token: 'A', after: 3 }]);
  });

  // Issue 14 survivor: removing `token.refreshed` from `offline` (or its setToken) survived.
  // The auth session refreshes on its own timer while the network is gone; the socket opened
  // when the browser is back must authenticate with that newer token, not the expired one.
  it('should keep a token refreshed while offline and open the next socket with it', () => {
    const h = harness();
    h.actor.start();
    h.actor.send({ type: 'session.start', token: 'A' });
    h.frame({ type: 'ready', userId: 'u1', cursor: 3, expiresAt: AT });
    h.actor.send({ type: 'browser.offline' });
    h.actor.send({ type: 'token.refreshed', token: 'B' });
    expect(h.actor.getSnapshot().value).toBe('offline');
    expect(h.openSockets()).toHaveLength(0);
    expect(h.actor.getSnapshot().context.token).toBe('B');
    h.actor.send({ type: 'browser.online' });
    expect(h.openSockets().map((s) => s.input)).toEqual([{ token: 'B', after: 3 }]);
  });

  it('should re-authenticate the open socket after a token refresh and reconnect with the new token after a 4401', () => {
    const h = harness();
    h.actor.start();
    h.actor.send({ type: 'session.start', token: 'A' });
    h.frame({ type: 'ready', userId: 'u1', cursor: 3, expiresAt: AT });
    h.actor.send({ type: 'token.refreshed', token: 'B' });
    expect(h.sockets).toHaveLength(1);
    expect(h.sockets[0].sent).toEqual([{ type: 'auth', token: 'B' }]);

    h.actor.send({ type: 'socket.closed', code: CloseCodes.unauthenticated });
    expect(h.actor.getSnapshot().value).toBe('awaitingToken');
    expect(h.calls.requestToken).toEqual([{ refusedToken: 'B', code: CloseCodes.unauthenticated }]);
    h.actor.send({ type: 'token.refreshed', token: 'C' });
    expect(h.openSockets().map((s) => s.input)).toEqual([{ token: 'C', after: 3 }]);
  });

  it('should ask the runtime for a token when the hub ends the session, retry after the back-off, and stop on sign-out', async () => {
    vi.useFakeTimers();
    const h = harness();
    h.actor.start();
    h.actor.send({ type: 'session.start', token: 'A' });
    h.frame({ type: 'ready', userId: 'u1', cursor: 3, expiresAt: AT });
    h.actor.send({ type: 'socket.closed', code: CloseCodes.sessionEnded });
    expect(h.actor.getSnapshot().value).toBe('awaitingToken');
    expect(h.calls.requestToken).toEqual([{ refusedToken: 'A', code: CloseCodes.sessionEnded }]);
    expect(h.openSockets()).toHaveLength(0);
    // No answer (the refresh failed for the network): the same token is tried again later.
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.openSockets().map((s) => s.input)).toEqual([{ token: 'A', after: 3 }]);

    // The session really ended: the auth session signs out, and the connection closes.
    h.actor.send({ type: 'session.end' });
    expect(h.actor.getSnapshot().value).toBe('closed');
    expect(h.actor.getSnapshot().context).toMatchObject({ token: null, cursor: null });
    expect(h.openSockets()).toHaveLength(0);
    h.actor.send({ type: 'session.start', token: 'B' });
    expect(h.openSockets().map((s) => s.input)).toEqual([{ token: 'B', after: null }]);
  });

  it('should hand resyncs and permission changes to the runtime', () => {
    const h = harness();
    h.actor.start();
    h.actor.send({ type: 'session.start', token: 'A' });
    h.frame({ type: 'ready', userId: 'u1', cursor: 3, expiresAt: AT });
    h.frame({ type: 'resync', cursor: 2000 });
    h.frame(ev(1999));
    h.frame({ type: 'permissions.changed', permissions: ['P'] });
    expect(h.calls.resync).toBe(1);
    expect(h.delivered).toEqual([]);
    expect(h.calls.permissions).toEqual([['P']]);
    expect(h.actor.getSnapshot().context.cursor).toBe(2000);
  });
});

// Issue 14 survivor: the machine's own socket is a placeholder the runtime must replace.
describe('realtime-connection without a socket', () => {
  it('should stop with an error naming the missing socket actor when the runtime does not provide one', () => {
    const errors: unknown[] = [];
    const actor = createActor(realtimeConnectionMachine);
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    actor.send({ type: 'session.start', token: 'A' });
    expect(actor.getSnapshot().status).toBe('error');
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('realtime-connection: provide the socket actor');
  });
});

describe('realtime-connection model', () => {
  const paths = realtimeConnectionTestPaths();

  const recorder = replayRecorder(realtimeConnectionMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(paths.map((path) => [path.description, path] as const))('should walk %s', (_description, path) =>
    recorder.run(path as never, async () => {
      const h = harness();
      await replayPath(path as never, {
        independent: new IndependentExpectation(realtimeConnectionExpectation, { token: null, sockets: () => h.sockets as never }),
        start: () => h.actor.start(),
        delays: { backoff: 1000 },
        concretize: (event: EventObject, live: AnyMachineSnapshot) => concretizeRealtimeEvent(event, live.context as RealtimeConnectionContext),
        expectSame: (live, model, event) => {
          expect(live.value).toEqual(model.value);
          expect(realtimeStateKey(live as never)).toEqual(realtimeStateKey(model as never));
          // A socket is open exactly while the machine is online.
          expect(h.openSockets()).toHaveLength(live.matches('online') ? 1 : 0);
          const role = realtimeEventRole(event);
          if (role === 'frame.event(duplicate)') expect(h.delivered.at(-1)?.cursor ?? -1).toBeLessThan((live.context as RealtimeConnectionContext).cursor! + 1);
          if (role === 'frame.event(new)' && live.matches({ online: 'connected' }))
            expect(h.delivered.at(-1)?.cursor).toBe((live.context as RealtimeConnectionContext).cursor);
        },
      });
      // Delivered events strictly increase: nothing doubled, whatever the path.
      const cursors = h.delivered.map((f) => f.cursor);
      expect(cursors).toEqual([...new Set(cursors)].sort((a, b) => a - b));
    }),
  );

  it('should take every rule of the independent table on some path (a transition the machine lacks has no path)', () => {
    expect(rulesNoPathTakes(realtimeConnectionExpectation, () => ({ token: null, sockets: () => [] }), paths as never)).toEqual([]);
  });

  it('should reach every state and transition of the realtime connection', () => {
    const report = reportMachineCoverage(realtimeConnectionMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import { connectionMachine, HEARTBEAT_MS, PAUSED_HEARTBEAT_MS, type ConnectionActor, type TelemetryReport } from '#machines/delivery-connection.machine.ts';
import { countdownMachine, type CountdownTiming } from '#machines/delivery-countdown.machine.ts';
import { sittingMachine } from '#machines/delivery-sitting.machine.ts';

/**
 * The sitting's children beyond their model walks (issue 19, decision 0246): the clock on
 * timings the model does not send, the line's bookkeeping of calls and reconnects, and the
 * sitting passing a pause to the line.
 */
afterEach(() => vi.useRealTimers());

const SERVER_NOW = '2027-03-10T10:00:00.000Z';
const NOW = Date.parse(SERVER_NOW);
const timing = (over: Partial<CountdownTiming>): CountdownTiming => ({
  status: 'Active',
  serverNow: SERVER_NOW,
  deadline: '2027-03-10T10:30:00.000Z',
  remainingMs: 30 * 60_000,
  ...over,
});

describe('the countdown, on what the server says', () => {
  const open = (t: CountdownTiming) => createActor(countdownMachine, { input: { timing: t, receivedAt: NOW, now: () => NOW } }).start();

  it('should open expired at once when a reload finds the time already run out', () => {
    const actor = open(timing({ deadline: SERVER_NOW, remainingMs: 0 }));
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().context.leftMs).toBe(0);
  });

  it('should open running with time left, and stopped on a delivery that is over', () => {
    expect(open(timing({})).getSnapshot().value).toBe('running');
    expect(open(timing({ status: 'TimeUp', deadline: null, remainingMs: 0 })).getSnapshot().value).toBe('stopped');
  });

  it('should not count down a paused delivery, even with a deadline in the answer', () => {
    const actor = open(timing({ status: 'Paused', remainingMs: 20 * 60_000 }));
    expect(actor.getSnapshot().value).toBe('stopped');
    expect(actor.getSnapshot().context.leftMs).toBe(20 * 60_000);
    actor.send({ type: 'timing', timing: timing({ status: 'Paused', remainingMs: 5 * 60_000 }), receivedAt: NOW });
    expect(actor.getSnapshot().value).toBe('stopped');
    expect(actor.getSnapshot().context.leftMs).toBe(5 * 60_000);
  });

  it('should not count down an active delivery without a deadline', () => {
    const actor = open(timing({ deadline: null, remainingMs: 20 * 60_000 }));
    expect(actor.getSnapshot().value).toBe('stopped');
    actor.send({ type: 'timing', timing: timing({ deadline: null, remainingMs: 10 * 60_000 }), receivedAt: NOW });
    expect(actor.getSnapshot().value).toBe('stopped');
    expect(actor.getSnapshot().context.leftMs).toBe(10 * 60_000);
  });
});

/** A connection whose calls the test answers by hand. */
function liveConnection() {
  const calls: TelemetryReport[][] = [];
  const pending: Array<{ resolve: (t: CountdownTiming) => void; reject: (e: unknown) => void }> = [];
  const machine = connectionMachine.provide({
    actors: {
      sendTelemetry: fromPromise<CountdownTiming, { events: TelemetryReport[] }>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            calls.push(input.events);
            pending.push({ resolve, reject });
          }),
      ),
    },
  });
  return { machine, calls, last: () => pending.at(-1)! };
}

describe('the connection, call by call', () => {
  it('should measure how long the line was down on the browser clock', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    const live = liveConnection();
    const actor = createActor(live.machine, { input: {} }).start();
    actor.send({ type: 'offline' });
    await vi.advanceTimersByTimeAsync(2_500);
    actor.send({ type: 'online' });
    expect(live.calls).toEqual([[{ kind: 'reconnected', details: { offlineMs: 2_500 } }]]);
    actor.stop();
  });

  it('should count only the calls that carried a reconnect', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    const live = liveConnection();
    const actor = createActor(live.machine, { input: {} }).start();
    actor.send({ type: 'report', kind: 'focusLost' });
    live.last().resolve(timing({}));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.reconnects).toBe(0);
    actor.send({ type: 'offline' });
    actor.send({ type: 'online' });
    expect(live.calls.at(-1)).toEqual([{ kind: 'reconnected', details: { offlineMs: 0 } }]);
    live.last().resolve(timing({}));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.reconnects).toBe(1);
    actor.stop();
  });

  it('should have no call under way before the first, after one went through and after one failed', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    const live = liveConnection();
    const actor = createActor(live.machine, { input: {} }).start();
    expect(actor.getSnapshot().context.sending).toEqual([]);
    actor.send({ type: 'report', kind: 'focusLost' });
    expect(actor.getSnapshot().context.sending).toEqual([{ kind: 'focusLost' }]);
    live.last().resolve(timing({}));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.sending).toEqual([]);
    actor.send({ type: 'report', kind: 'fullscreenExited' });
    live.last().reject(new TypeError('Failed to fetch'));
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('offline');
    expect(actor.getSnapshot().context).toMatchObject({ sending: [], reports: [{ kind: 'fullscreenExited' }] });
    actor.stop();
  });

  it('should fail every call, keeping the reports, until the screen provides the call', async () => {
    const errors: unknown[] = [];
    const inspect = (e: InspectionEvent) => {
      if (e.type === '@xstate.event' && e.event.type === 'xstate.error.actor.sendTelemetry') errors.push((e.event as { error?: unknown }).error);
    };
    const actor = createActor(connectionMachine, { input: {}, inspect }).start();
    actor.send({ type: 'report', kind: 'focusLost' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('offline'));
    expect(actor.getSnapshot().context.reports).toEqual([{ kind: 'focusLost' }]);
    expect(errors).toEqual([new Error('sendTelemetry is provided by the screen')]);
    actor.stop();
  });
});

describe('the sitting, passing a pause to the line', () => {
  function openSitting(status: 'Active' | 'Paused') {
    const live = liveConnection();
    const machine = sittingMachine.provide({ actors: { connection: live.machine } });
    const t = status === 'Paused' ? timing({ status, deadline: null, remainingMs: 20 * 60_000 }) : timing({});
    const actor = createActor(machine, { input: { autosave: { newId: () => 'save-1' }, timing: t, receivedAt: NOW, now: () => Date.now() } }).start();
    const line = () => (actor.getSnapshot().children.connection as ConnectionActor).getSnapshot();
    return { actor, live, line };
  }

  it('should beat every 3 s when the sitting opens paused', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    const { actor, live, line } = openSitting('Paused');
    expect(line().context.paused).toBe(true);
    await vi.advanceTimersByTimeAsync(PAUSED_HEARTBEAT_MS);
    expect(live.calls).toEqual([[{ kind: 'heartbeat' }]]);
    actor.stop();
  });

  it('should beat every 30 s when the sitting opens running', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    const { actor, live, line } = openSitting('Active');
    expect(line().context.paused).toBe(false);
    await vi.advanceTimersByTimeAsync(PAUSED_HEARTBEAT_MS);
    expect(live.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS - PAUSED_HEARTBEAT_MS);
    expect(live.calls).toEqual([[{ kind: 'heartbeat' }]]);
    actor.stop();
  });

  it('should tell the line of a pause and of a resume from the server’s timing', () => {
    const { actor, line } = openSitting('Active');
    actor.send({ type: 'timing', timing: timing({ status: 'Paused', deadline: null, remainingMs: 20 * 60_000 }), receivedAt: NOW });
    expect(line().context.paused).toBe(true);
    actor.send({ type: 'timing', timing: timing({}), receivedAt: NOW });
    expect(line().context.paused).toBe(false);
    actor.stop();
  });
});

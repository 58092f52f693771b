import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { connectionMachine, type TelemetryReport } from '#machines/delivery-connection.machine.ts';
import { connectionTestPaths, connectionModelTiming } from '#machines/delivery-connection.model.ts';
import { countdownMachine, type CountdownTiming } from '#machines/delivery-countdown.machine.ts';
import { COUNTDOWN_BROWSER_NOW, countdownModelInput, countdownTestPaths } from '#machines/delivery-countdown.model.ts';
import { sittingMachine } from '#machines/delivery-sitting.machine.ts';
import { sittingModelInput, sittingTestPaths } from '#machines/delivery-sitting.model.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import {
  connectionExpectation,
  countdownExpectation,
  sittingExpectation,
  type ConnectionFacts,
  type CountdownFacts,
  type SittingFacts,
} from '#tests/fixtures/expectations/delivery-sitting.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

/**
 * The delivery actor of the candidate's browser and its children (issue 19, decision 0246):
 * the countdown, the connection and the sitting that holds them with the autosave queue. Each
 * has its model's paths replayed against a live actor, every step checked against the tables
 * written from the spec (tests/fixtures/expectations/delivery-sitting.ts).
 */
afterEach(() => vi.useRealTimers());

const countdownFacts = (): CountdownFacts => ({ last: null, browserNow: () => Date.now() });

describe('the countdown', () => {
  it('should count down from the server deadline with a browser clock 10 minutes slow, and expire on time', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(COUNTDOWN_BROWSER_NOW);
    const actor = createActor(countdownMachine, { input: countdownModelInput }).start();
    expect(actor.getSnapshot().value).toBe('stopped');
    actor.send({
      type: 'timing',
      timing: { status: 'Active', serverNow: '2027-03-10T10:00:00.000Z', deadline: '2027-03-10T10:00:05.000Z', remainingMs: 5_000 },
      receivedAt: COUNTDOWN_BROWSER_NOW,
    });
    expect(actor.getSnapshot().context.leftMs).toBe(5_000);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(actor.getSnapshot().context.leftMs).toBe(2_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(actor.getSnapshot().value).toBe('expired');
    actor.stop();
  });

  const paths = countdownTestPaths();
  const recorder = replayRecorder(countdownMachine, 'machine', true);
  afterAll(() => void recorder.write());
  it.each(paths.map((p) => [p.description, p] as const))('should walk %s', (_d, path) =>
    recorder.run(path, () =>
      replayPath(path, {
        independent: new IndependentExpectation(countdownExpectation, countdownFacts()),
        start: () => {
          vi.setSystemTime(COUNTDOWN_BROWSER_NOW);
          return createActor(countdownMachine, { input: countdownModelInput }).start();
        },
        expectSame: (live, model) => expect(live.value).toEqual(model.value),
      }),
    ),
  );

  it('should have paths taking every rule of the table, and every state and transition', () => {
    expect(rulesNoPathTakes(countdownExpectation, countdownFacts, paths)).toEqual([]);
    // The graph's clock stands still, so no path ticks down to zero: the first test here does, live.
    const report = reportMachineCoverage(countdownMachine, paths);
    report.transitions.total = report.transitions.total.filter((t) => !/running --xstate\.after\.tick.*--> deliveryCountdown\.expired$/.test(t));
    // A transient state decides at once where to go: no path rests there, and its edges are
    // taken within the event that led to it (which the coverage counts as the edge into it).
    // The one the countdown starts in is counted, read off the first snapshot.
    const transient = /\.(opening|choosing)$|\(always\)|--> \S+\.(opening|choosing)$/;
    expect(report.states.covered).toEqual(report.states.total.filter((s) => !transient.test(s) || s === 'deliveryCountdown.opening'));
    expect(report.transitions.covered.filter((t) => !transient.test(t)).sort()).toEqual(report.transitions.total.filter((t) => !transient.test(t)).sort());
  });
});

/** A connection whose calls the test answers by hand, with the kinds of every call it made. */
function liveConnection() {
  const calls: TelemetryReport[][] = [];
  let settle: { resolve: (t: CountdownTiming) => void; reject: (e: unknown) => void } | null = null;
  const machine = connectionMachine.provide({
    actors: {
      sendTelemetry: fromPromise<CountdownTiming, { events: TelemetryReport[] }>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            calls.push(input.events);
            settle = { resolve, reject };
          }),
      ),
    },
  });
  return { machine, calls, settle: () => settle! };
}

const connectionFacts = (calls: () => string[][] = () => []): ConnectionFacts => ({
  paused: false,
  waiting: [],
  inFlight: [],
  down: false,
  expectedCalls: [],
  calls,
});

describe('the connection', () => {
  it('should send a reconnect with how long the line was down, and the reports kept meanwhile', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const live = liveConnection();
    const timings: CountdownTiming[] = [];
    const actor = createActor(live.machine, { input: {} }).start();
    actor.on('timing', (e) => timings.push(e.timing));
    actor.send({ type: 'offline' });
    actor.send({ type: 'report', kind: 'focusLost' });
    actor.send({ type: 'report', kind: 'fullscreenExited' });
    await vi.advanceTimersByTimeAsync(2_000);
    actor.send({ type: 'online' });
    expect(live.calls.at(-1)).toEqual([{ kind: 'reconnected', details: { offlineMs: 2_000 } }, { kind: 'focusLost' }, { kind: 'fullscreenExited' }]);
    live.settle().resolve(connectionModelTiming);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.reconnects).toBe(1);
    expect(timings).toEqual([connectionModelTiming]);
    actor.stop();
  });

  const paths = connectionTestPaths();
  const recorder = replayRecorder(connectionMachine, 'machine', true);
  afterAll(() => void recorder.write());
  it.each(paths.map((p) => [p.description, p] as const))('should walk %s', (_d, path) => {
    const live = liveConnection();
    return recorder.run(path, () =>
      replayPath(path, {
        independent: new IndependentExpectation(
          connectionExpectation,
          connectionFacts(() => live.calls.map((c) => c.map((r) => r.kind))),
        ),
        start: () => createActor(live.machine, { input: {} }).start(),
        settle: (event) => {
          if (event.type.startsWith('xstate.done.actor.')) live.settle().resolve((event as unknown as { output: CountdownTiming }).output);
          else live.settle().reject((event as unknown as { error: unknown }).error);
          return true;
        },
        expectSame: (liveSnapshot, model) => expect(liveSnapshot.value).toEqual(model.value),
      }),
    );
  });

  it('should have paths taking every rule of the table, and every state and transition', () => {
    expect(rulesNoPathTakes(connectionExpectation, () => connectionFacts(), paths)).toEqual([]);
    const report = reportMachineCoverage(connectionMachine, paths);
    // A transient state decides at once where to go: no path rests there, and its edges are
    // taken within the event that led to it (which the coverage counts as the edge into it).
    // The one the countdown starts in is counted, read off the first snapshot.
    const transient = /\.(opening|choosing)$|\(always\)|--> \S+\.(opening|choosing)$/;
    expect(report.states.covered).toEqual(report.states.total.filter((s) => !transient.test(s) || s === 'deliveryCountdown.opening'));
    expect(report.transitions.covered.filter((t) => !transient.test(t)).sort()).toEqual(report.transitions.total.filter((t) => !transient.test(t)).sort());
  });
});

const sittingFacts = (): SittingFacts => ({ network: 'online', clock: 'running' });

describe('the sitting', () => {
  const paths = sittingTestPaths();
  const recorder = replayRecorder(sittingMachine, 'machine', true);
  afterAll(() => void recorder.write());
  it.each(paths.map((p) => [p.description, p] as const))('should walk %s', (_d, path) =>
    recorder.run(path, () =>
      replayPath(path, {
        independent: new IndependentExpectation(sittingExpectation, sittingFacts()),
        start: () => {
          vi.setSystemTime(sittingModelInput.receivedAt);
          const machine = sittingMachine.provide({
            actors: {
              // The line's calls never answer here: the sitting's routing is what is checked.
              connection: connectionMachine.provide({ actors: { sendTelemetry: fromPromise(() => new Promise<CountdownTiming>(() => undefined)) } }),
            },
          });
          return createActor(machine, { input: { ...sittingModelInput, now: () => Date.now() } }).start();
        },
        expectSame: (live, model) => expect(live.value).toEqual(model.value),
      }),
    ),
  );

  it('should have paths taking every rule of the table', () => {
    expect(rulesNoPathTakes(sittingExpectation, sittingFacts, paths)).toEqual([]);
    const report = reportMachineCoverage(sittingMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
  });
});

import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type EventObject } from 'xstate';
import { CURRENT_VERSION, compareVersions, parseVersion, versionCheckMachine } from '#machines/version-check.machine.ts';
import { versionCheckTestPaths } from '#machines/version-check.model.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { RUNNING_VERSION, versionCheckExpectation } from '#tests/fixtures/expectations/version-check.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('compareVersions', () => {
  it.each([
    ['1.2.300', '1.2.253', 1],
    ['1.10.0', '1.9.9', 1],
    ['1.2.253', '1.2.253', 0],
    ['1.2.9', '1.2.253', -1],
    ['2', '1.99.99', 1],
    ['1.2', '1.2.0', 0],
    ['v1.3.0', '1.2.253', 1],
  ])('should order %s against %s as %i', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });

  it('should refuse what is not a version', () => {
    expect(parseVersion('1.2.x')).toBeNull();
    expect(parseVersion(12)).toBeNull();
    expect(() => compareVersions('latest', '1.2.253')).toThrow('Not a version: latest');
    expect(() => compareVersions('1.2.253', 'next')).toThrow('Not a version: next');
  });

  it.each([
    ['1.10.0', [1, 10, 0]],
    [' 1.2.300\n', [1, 2, 300]],
    ['v1.3.0', [1, 3, 0]],
    ['V2.0', [2, 0]],
    ['7', [7]],
  ])('should read %j as its parts', (text, parts) => {
    expect(parseVersion(text)).toEqual(parts);
  });

  it.each(['', 'x1.2.3', '1.2.3-beta', '1..2', '.1.2', '1.2.', 'vv1.2', '1.v2', 'version 1.2'])('should refuse %j', (text) => {
    expect(parseVersion(text)).toBeNull();
  });

  it.each([
    ['1.2', '1.2.1', -1],
    ['1.2.1', '1.2', 1],
    ['1.3', '1.2.999', 1],
  ])('should count a missing part as 0: %s against %s is %i', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });

  // Issue 14 survivor: the first part may have several digits too.
  it('should read a version whose first part has several digits', () => {
    expect(parseVersion('10.0.1')).toEqual([10, 0, 1]);
    expect(parseVersion('v2026')).toEqual([2026]);
    expect(Math.sign(compareVersions('10.0.0', '9.9.9'))).toBe(1);
  });

  it('should know the running version of spec §9', () => {
    expect(CURRENT_VERSION).toBe('1.2.253');
  });
});

function machineWith(version: () => Promise<{ version: string }>, clear = vi.fn(async () => 1)) {
  const reload = vi.fn<() => void>();
  const machine = versionCheckMachine.provide({
    actors: { fetchDeployedVersion: fromPromise(version), clearCaches: fromPromise(clear) },
    actions: { reload },
  });
  return { machine, reload, clear };
}

describe('version-check machine', () => {
  it('should be latest when the deployed version is the running one', async () => {
    const { machine, reload, clear } = machineWith(async () => ({ version: '1.2.253' }));
    const actor = createActor(machine, { input: {} }).start();
    const done = await waitFor(actor, (s) => s.hasTag('settled'));
    expect(done.value).toBe('latest');
    expect(clear).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it('should clear the caches and reload once when a newer version is deployed', async () => {
    const { machine, reload, clear } = machineWith(async () => ({ version: '1.10.0' }));
    const actor = createActor(machine, { input: { currentVersion: '1.9.9' } }).start();
    const done = await waitFor(actor, (s) => s.hasTag('settled'));
    expect(done.value).toEqual({ outdated: 'reloading' });
    expect(done.context.deployedVersion).toBe('1.10.0');
    expect(clear).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  // Issue 14 survivor: `isNewer` mutated to `!== 0` reloaded on a rollback. A rollback
  // (deployed older than running) must leave the page alone: outdated only when deployed > running.
  it('should stay latest without clearing or reloading when an older version is deployed (a rollback)', async () => {
    const { machine, reload, clear } = machineWith(async () => ({ version: '1.2.9' }));
    const actor = createActor(machine, { input: { currentVersion: '1.2.253' } }).start();
    const done = await waitFor(actor, (s) => s.hasTag('settled'));
    expect(done.value).toBe('latest');
    expect(done.context.deployedVersion).toBe('1.2.9');
    expect(clear).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it('should not reload again for a version it already reloaded for', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { machine, reload, clear } = machineWith(async () => ({ version: '1.2.300' }));
    const actor = createActor(machine, { input: { reloadedFor: '1.2.300' } }).start();
    const done = await waitFor(actor, (s) => s.hasTag('settled'));
    expect(done.value).toEqual({ outdated: 'reloadSuppressed' });
    expect(clear).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith('Version 1.2.300 is deployed but this page still runs 1.2.253 after a reload; not reloading again.');
  });

  // Issue 14 survivor: the reload held back is only for the very version reloaded for.
  it('should reload for a newer version than the one it already reloaded for', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { machine, reload, clear } = machineWith(async () => ({ version: '1.2.301' }));
    const actor = createActor(machine, { input: { reloadedFor: '1.2.300' } }).start();
    const done = await waitFor(actor, (s) => s.hasTag('settled'));
    expect(done.value).toEqual({ outdated: 'reloading' });
    expect(clear).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('should log a failed check and proceed as latest', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { machine, reload } = machineWith(async () => {
      throw new Error('GET /meta.json answered 502');
    });
    const actor = createActor(machine, { input: {} }).start();
    const done = await waitFor(actor, (s) => s.hasTag('settled'));
    expect(done.value).toBe('latest');
    expect(done.context.error).toBe('GET /meta.json answered 502');
    expect(warn).toHaveBeenCalledWith('Version check failed, continuing with 1.2.253: GET /meta.json answered 502');
    expect(reload).not.toHaveBeenCalled();
  });

  it('should still reload when deleting the caches fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { machine, reload } = machineWith(
      async () => ({ version: '1.3.0' }),
      vi.fn(async () => {
        throw new Error('SecurityError');
      }),
    );
    const done = await waitFor(createActor(machine, { input: {} }).start(), (s) => s.hasTag('settled'));
    expect(done.value).toEqual({ outdated: 'reloading' });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('should fetch /meta.json without the HTTP cache and refuse a body without a valid version', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ version: 'next' }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const machine = versionCheckMachine.provide({ actions: { reload: () => {} } });
      const done = await waitFor(createActor(machine, { input: {} }).start(), (s) => s.hasTag('settled'));
      expect(fetchMock).toHaveBeenCalledWith('/meta.json', { cache: 'no-store', headers: { accept: 'application/json' } });
      expect(done.value).toBe('latest');
      expect(done.context.error).toBe('GET /meta.json has no valid version: "next"');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('version-check model', () => {
  const paths = versionCheckTestPaths();
  const recorder = replayRecorder(versionCheckMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(paths.map((path) => [path.description, path] as const))('should walk %s', (_description, path) =>
    recorder.run(path, async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
      const controlled = (name: string) => fromPromise(() => new Promise((resolve, reject) => pending.set(name, { resolve, reject })));
      const reload = vi.fn<() => void>();
      const input = path.steps[0].state.context;
      const independent = new IndependentExpectation(versionCheckExpectation, {
        running: RUNNING_VERSION,
        reloadedFor: input.reloadedFor,
        deployed: null,
        reloads: () => reload.mock.calls.length,
      });
      await replayPath(path, {
        independent,
        start: () =>
          createActor(
            versionCheckMachine.provide({
              actors: { fetchDeployedVersion: controlled('fetchDeployedVersion') as never, clearCaches: controlled('clearCaches') as never },
              actions: { reload },
            }),
            { input: { currentVersion: input.currentVersion, reloadedFor: input.reloadedFor } },
          ).start(),
        settle: (event: EventObject) => {
          const [, kind, , id] = event.type.split('.');
          const waiting = pending.get(id);
          if (!waiting) return false;
          if (kind === 'done') waiting.resolve((event as EventObject & { output: unknown }).output);
          else waiting.reject((event as EventObject & { error: unknown }).error);
          return true;
        },
        expectSame: (live, model) => {
          expect(live.value).toEqual(model.value);
          expect(live.context).toEqual(model.context);
          expect(reload).toHaveBeenCalledTimes(live.matches({ outdated: 'reloading' }) ? 1 : 0);
        },
      });
    }),
  );

  it('should take every rule of the independent table on some path (a transition the machine lacks has no path)', () => {
    const missing = [null, '1.2.300'].flatMap((reloadedFor) =>
      rulesNoPathTakes(
        versionCheckExpectation,
        () => ({ running: RUNNING_VERSION, reloadedFor, deployed: null, reloads: () => 0 }),
        paths.filter((p) => p.steps[0].state.context.reloadedFor === reloadedFor),
      ),
    );
    // A rule is missing only when neither kind of tab takes it.
    const counts = new Map<string, number>();
    missing.forEach((rule) => counts.set(rule, (counts.get(rule) ?? 0) + 1));
    expect([...counts].filter(([, n]) => n === 2).map(([rule]) => rule)).toEqual([]);
  });

  it('should reach every state and transition of the version check', () => {
    const report = reportMachineCoverage(versionCheckMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

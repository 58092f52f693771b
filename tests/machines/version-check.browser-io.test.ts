import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { versionCheckMachine, type VersionCheckInput } from '#machines/version-check.machine.ts';

/**
 * The version check's own browser I/O (spec §4: GET /meta.json, delete every Cache Storage
 * cache, reload once), with fetch, caches and location as stand-ins (the machine tests replace
 * the actors and the reload action; these run the real ones).
 */
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function run(input: { currentVersion?: string; reloadedFor?: string | null } = {}) {
  return waitFor(createActor(versionCheckMachine, { input }).start(), (s) => s.hasTag('settled'));
}

describe('version check against the browser', () => {
  it('should take the deployed version from /meta.json, delete every cache, and reload the page once', async () => {
    const fetchMock = vi.fn(async () => json({ version: '1.2.300' }));
    const deleted: string[] = [];
    const caches = { keys: vi.fn(async () => ['app-shell', 'fonts']), delete: vi.fn(async (name: string) => deleted.push(name) > 0) };
    const reload = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('caches', caches);
    vi.stubGlobal('location', { reload });
    const done = await run();
    expect(fetchMock).toHaveBeenCalledWith('/meta.json', { cache: 'no-store', headers: { accept: 'application/json' } });
    expect(done.value).toEqual({ outdated: 'reloading' });
    expect(done.context.deployedVersion).toBe('1.2.300');
    expect(deleted).toEqual(['app-shell', 'fonts']);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('should carry on as latest when /meta.json answers an error status', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ version: '9.9.9' }, 503)),
    );
    const done = await run();
    expect(done.value).toBe('latest');
    expect(done.context.error).toBe('GET /meta.json answered 503');
    expect(warn).toHaveBeenCalledWith('Version check failed, continuing with 1.2.253: GET /meta.json answered 503');
  });

  it('should carry on as latest when /meta.json has no body to read a version from', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(null)),
    );
    const done = await run();
    expect(done.value).toBe('latest');
    expect(done.context.error).toBe('GET /meta.json has no valid version: undefined');
  });

  it('should say what a failure that is not an Error was', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject('offline')),
    );
    const done = await run();
    expect(done.context.error).toBe('offline');
  });

  it('should reload without Cache Storage (none in this browser), and log a cache deletion that fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const reload = vi.fn();
    vi.stubGlobal('location', { reload });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ version: '2.0.0' })),
    );
    expect((await run()).value).toEqual({ outdated: 'reloading' });
    expect(reload).toHaveBeenCalledTimes(1);

    vi.stubGlobal('caches', { keys: async () => ['app-shell'], delete: async () => Promise.reject(new Error('SecurityError: denied')) });
    expect((await run()).value).toEqual({ outdated: 'reloading' });
    expect(warn).toHaveBeenCalledWith('Could not delete the browser caches: SecurityError: denied');
    expect(reload).toHaveBeenCalledTimes(2);
  });

  // Issue 14 survivor: a browser without Cache Storage has nothing to delete, which is no failure.
  it('should reload without a cache warning where the browser has no Cache Storage', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const reload = vi.fn();
    vi.stubGlobal('location', { reload });
    vi.stubGlobal('caches', undefined);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ version: '2.0.0' })),
    );
    expect((await run()).value).toEqual({ outdated: 'reloading' });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('should not break where there is no page to reload (no location)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ version: '2.0.0' })),
    );
    vi.stubGlobal('location', undefined);
    const actor = createActor(versionCheckMachine, { input: {} }).start();
    const done = await waitFor(actor, (s) => s.hasTag('settled'));
    expect(done.value).toEqual({ outdated: 'reloading' });
    expect(actor.getSnapshot().status, 'the reload entry action did not throw').toBe('active');
    expect(actor.getSnapshot().error).toBeUndefined();
  });

  it('should start without an input: the running version of spec §9 and no earlier reload', async () => {
    vi.stubGlobal('location', { reload: vi.fn() });
    // As a caller that passes no input at all (the type asks for one; JavaScript callers need not).
    const machine = versionCheckMachine.provide({ actors: { fetchDeployedVersion: fromPromise(async () => ({ version: '1.2.253' })) } });
    const actor = createActor(machine, { input: undefined as unknown as VersionCheckInput }).start();
    const done = await waitFor(actor, (s) => s.hasTag('settled'));
    expect(done.value).toBe('latest');
    expect(done.context).toEqual({ currentVersion: '1.2.253', deployedVersion: '1.2.253', reloadedFor: null, error: null });
  });
});

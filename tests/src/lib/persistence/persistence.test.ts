import { createStore } from '@xstate/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, assign } from 'xstate';
import { actorSlice, storeSlice } from '#src/lib/persistence/adapters.ts';
import { deriveKey, encryptText } from '#src/lib/persistence/crypto.ts';
import { createPersistence, persistenceFailures, type PersistenceOptions } from '#src/lib/persistence/persistence.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** localStorage stand-in; `full` makes writes fail as a full quota does. */
function memoryStorage() {
  const items = new Map<string, string>();
  const storage = {
    full: false,
    writes: 0,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (storage.full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      storage.writes += 1;
      items.set(key, value);
    },
    removeItem: (key: string) => void items.delete(key),
    items,
  };
  return storage;
}

const SECRET = 'k8Qw-3vN1sY0pZ7rT2uX5bC9eH4jL6mA';
const STORAGE_KEY = 'exam-portal:state';

function projectStore() {
  return createStore({
    context: { selected: null as Record<string, unknown> | null, refresh: false },
    on: {
      select: (context, event: { record: Record<string, unknown> }) => ({ ...context, selected: event.record }),
      hydrate: (_context, event: { state: { selected: Record<string, unknown> | null; refresh: boolean } }) => event.state,
    },
  });
}

function setup(storage = memoryStorage(), overrides: Partial<PersistenceOptions> = {}) {
  const warn = vi.fn();
  const persistence = createPersistence({
    configured: true,
    secret: SECRET,
    productKey: 'exam-portal',
    storage,
    subtle: crypto.subtle,
    logger: { warn },
    ...overrides,
  });
  const project = projectStore();
  const language = createStore({
    context: { i18n: null as string | null },
    on: { update: (_c, event: { i18n: string | null }) => ({ i18n: event.i18n }) },
  });
  persistence.register('project', storeSlice(project, { restore: (value) => project.trigger.hydrate({ state: value as never }) }));
  persistence.register('localization', storeSlice(language, { restore: (value) => language.trigger.update({ i18n: (value as { i18n: string }).i18n }) }));
  return { persistence, project, language, storage, warn };
}

/** A browser that saved state, then reloads: the stored entry of a first session. */
async function savedSession() {
  const first = setup();
  await first.persistence.rehydrate();
  first.project.trigger.select({ record: { projectId: 42, name: 'Board exams 2026' } });
  first.language.trigger.update({ i18n: 'gu' });
  await first.persistence.flush();
  return first.storage;
}

describe('encrypted persistence', () => {
  it('should save changed slices encrypted under the product key and restore them after a reload (round trip)', async () => {
    const storage = await savedSession();
    const raw = storage.getItem(STORAGE_KEY)!;
    expect(Object.keys(JSON.parse(raw)).sort()).toEqual(['localization', 'project']);
    expect(JSON.parse(raw).project).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/);
    expect(raw).not.toContain('Board exams');

    const reloaded = setup(storage);
    const result = await reloaded.persistence.rehydrate();
    expect(result).toEqual({ status: 'restored', restored: ['project', 'localization'], failures: [] });
    expect(reloaded.project.getSnapshot().context).toEqual({ selected: { projectId: 42, name: 'Board exams 2026' }, refresh: false });
    expect(reloaded.language.getSnapshot().context).toEqual({ i18n: 'gu' });
    expect(reloaded.warn).not.toHaveBeenCalled();
  });

  it('should start clean, remove the store and log why when the key is wrong', async () => {
    const storage = await savedSession();
    const other = setup(storage, { secret: 'another-deployment-secret' });
    const result = await other.persistence.rehydrate();
    expect(result.status).toBe('clean');
    expect(result.failures.map((f) => [f.reason, f.slice])).toEqual([
      ['decryptFailed', 'project'],
      ['decryptFailed', 'localization'],
    ]);
    expect(other.warn).toHaveBeenCalledWith('[persistence] project: Could not decrypt state. Please verify that you are using the correct secret key.');
    expect(other.project.getSnapshot().context).toEqual({ selected: null, refresh: false });
    expect(storage.getItem(STORAGE_KEY)).toBeNull();
  });

  it('should start clean when a ciphertext was tampered with', async () => {
    const storage = await savedSession();
    const root = JSON.parse(storage.getItem(STORAGE_KEY)!);
    const [version, iv, sealed] = (root.project as string).split('.');
    root.project = `${version}.${iv}.${sealed[0] === 'A' ? 'B' : 'A'}${sealed.slice(1)}`;
    storage.items.set(STORAGE_KEY, JSON.stringify(root));
    const reloaded = setup(storage);
    const result = await reloaded.persistence.rehydrate();
    expect(result.failures.map((f) => [f.reason, f.slice])).toEqual([['decryptFailed', 'project']]);
    // All or nothing: the intact localization slice is not applied either.
    expect(reloaded.language.getSnapshot().context).toEqual({ i18n: null });
    expect(storage.getItem(STORAGE_KEY)).toBeNull();
  });

  it('should refuse a ciphertext moved to another slice', async () => {
    const storage = await savedSession();
    const root = JSON.parse(storage.getItem(STORAGE_KEY)!);
    storage.items.set(STORAGE_KEY, JSON.stringify({ ...root, project: root.localization }));
    const result = await setup(storage).persistence.rehydrate();
    expect(result.failures.map((f) => [f.reason, f.slice])).toEqual([['decryptFailed', 'project']]);
  });

  it('should start clean when the stored JSON is truncated', async () => {
    const storage = await savedSession();
    storage.items.set(STORAGE_KEY, storage.getItem(STORAGE_KEY)!.slice(0, -7));
    const reloaded = setup(storage);
    const result = await reloaded.persistence.rehydrate();
    expect(result.status).toBe('clean');
    expect(result.failures).toEqual([{ reason: 'parseFailed', slice: null, message: 'Failed to parse state as JSON.' }]);
    expect(reloaded.warn).toHaveBeenCalledWith('[persistence] Failed to parse state as JSON.');
  });

  it('should start clean when a slice decrypts to truncated JSON', async () => {
    const storage = memoryStorage();
    const key = await deriveKey(SECRET, 'exam-portal', crypto.subtle);
    const truncated = await encryptText(key, '{"selected":{"projectId":42,"na', 'exam-portal:project', crypto.subtle);
    storage.items.set(STORAGE_KEY, JSON.stringify({ project: truncated }));
    const result = await setup(storage).persistence.rehydrate();
    expect(result.failures.map((f) => [f.reason, f.slice, f.message])).toEqual([['parseFailed', 'project', 'Failed to parse state as JSON.']]);
  });

  it('should start clean when a saved slice is not a string (outbound state)', async () => {
    const storage = memoryStorage();
    storage.items.set(STORAGE_KEY, JSON.stringify({ project: { selected: { projectId: 1 } } }));
    const reloaded = setup(storage);
    const result = await reloaded.persistence.rehydrate();
    expect(result.failures.map((f) => [f.reason, f.slice])).toEqual([['outboundNotString', 'project']]);
    expect(reloaded.warn).toHaveBeenCalledWith('[persistence] project: Expected outbound state to be a string.');
  });

  it.each([
    ['no configuration', { configured: false }, 'No configuration provided.'],
    ['no secret key', { secret: '' }, 'No secret key provided.'],
  ])('should report %s distinctly, leave storage alone and save nothing', async (_case, overrides, message) => {
    const storage = await savedSession();
    const before = storage.getItem(STORAGE_KEY);
    const session = setup(storage, overrides);
    const result = await session.persistence.rehydrate();
    expect(result.status).toBe('disabled');
    expect(result.failures.map((f) => f.message)).toEqual([message]);
    expect(session.warn).toHaveBeenCalledWith(`[persistence] ${message}`);
    session.project.trigger.select({ record: { projectId: 9 } });
    await session.persistence.flush();
    expect(storage.getItem(STORAGE_KEY)).toBe(before);
  });

  it('should name all five spec failures distinctly', () => {
    const spec = ['noConfiguration', 'noSecretKey', 'outboundNotString', 'decryptFailed', 'parseFailed'] as const;
    expect(new Set(spec.map((reason) => persistenceFailures[reason])).size).toBe(5);
  });

  it('should keep the state in memory and report when the storage quota is exceeded, then save once there is room', async () => {
    const { persistence, project, storage, warn } = setup();
    await persistence.rehydrate();
    storage.full = true;
    project.trigger.select({ record: { projectId: 7 } });
    await persistence.flush();
    expect(persistence.failures.map((f) => f.reason)).toEqual(['quotaExceeded']);
    expect(warn).toHaveBeenCalledWith('[persistence] The browser storage is full; the latest state was not saved.');
    expect(project.getSnapshot().context.selected).toEqual({ projectId: 7 });
    expect(storage.getItem(STORAGE_KEY)).toBeNull();

    storage.full = false;
    project.trigger.select({ record: { projectId: 8 } });
    await persistence.flush();
    const reloaded = setup(storage);
    await reloaded.persistence.rehydrate();
    expect(reloaded.project.getSnapshot().context.selected).toEqual({ projectId: 8 });
  });

  it('should not write before rehydration, so defaults never overwrite saved state', async () => {
    const storage = await savedSession();
    const before = storage.getItem(STORAGE_KEY);
    const reloaded = setup(storage);
    reloaded.language.trigger.update({ i18n: 'es' });
    await reloaded.persistence.flush();
    expect(storage.getItem(STORAGE_KEY)).toBe(before);
    await reloaded.persistence.rehydrate();
    expect(reloaded.language.getSnapshot().context.i18n).toBe('gu');
  });

  it('should not write again when nothing changed', async () => {
    const { persistence, project, storage } = setup();
    await persistence.rehydrate();
    project.trigger.select({ record: { projectId: 1 } });
    await persistence.flush();
    const writes = storage.writes;
    project.trigger.select({ record: { projectId: 1 } });
    await persistence.flush();
    expect(storage.writes).toBe(writes);
  });

  it('should give up waiting after 5000 ms and ignore what arrives later', async () => {
    vi.useFakeTimers();
    let releaseKey!: () => void;
    const slow = {
      ...crypto.subtle,
      importKey: (...args: Parameters<SubtleCrypto['importKey']>) => new Promise((resolve) => (releaseKey = () => resolve(crypto.subtle.importKey(...args)))),
      deriveKey: crypto.subtle.deriveKey.bind(crypto.subtle),
      decrypt: crypto.subtle.decrypt.bind(crypto.subtle),
      encrypt: crypto.subtle.encrypt.bind(crypto.subtle),
    } as unknown as SubtleCrypto;
    const storage = memoryStorage();
    storage.items.set(STORAGE_KEY, '{}');
    const { persistence, warn } = setup(storage, { subtle: slow });
    const settled = vi.fn();
    persistence.rehydrate().then(settled);
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toHaveBeenCalledWith({
      status: 'timeout',
      restored: [],
      failures: [{ reason: 'timeout', slice: null, message: 'Restoring the saved state took longer than 5000 ms; starting without it.' }],
    });
    expect(warn).toHaveBeenCalledWith('[persistence] Restoring the saved state took longer than 5000 ms; starting without it.');
    vi.useRealTimers();
    releaseKey();
  });

  it("should restore and save an actor's context slice registered after rehydration", async () => {
    const machine = createMachine({
      types: {} as {
        context: { authUser: { email: string } | null };
        events: { type: 'session.restored'; authUser: unknown } | { type: 'signIn'; email: string };
      },
      context: { authUser: null },
      on: {
        'session.restored': { actions: assign({ authUser: ({ event }) => event.authUser as { email: string } }) },
        signIn: { actions: assign({ authUser: ({ event }) => ({ email: event.email }) }) },
      },
    });
    const first = setup();
    await first.persistence.rehydrate();
    const actor = createActor(machine).start();
    first.persistence.register(
      'authUser',
      actorSlice(actor, { select: (s) => s.context.authUser, restore: (value) => actor.send({ type: 'session.restored', authUser: value }) }),
    );
    actor.send({ type: 'signIn', email: 'asha@example.test' });
    await first.persistence.flush();

    const reloaded = setup(first.storage);
    await reloaded.persistence.rehydrate();
    const later = createActor(machine).start();
    reloaded.persistence.register(
      'authUser',
      actorSlice(later, { select: (s) => s.context.authUser, restore: (value) => later.send({ type: 'session.restored', authUser: value }) }),
    );
    expect(later.getSnapshot().context.authUser).toEqual({ email: 'asha@example.test' });
  });

  it('should keep the saved state of a slice that has not registered yet when others are written', async () => {
    const first = setup();
    await first.persistence.rehydrate();
    const extra = createStore({ context: { value: 1 }, on: { set: (_c, e: { value: number }) => ({ value: e.value }) } });
    first.persistence.register('extra', storeSlice(extra, { restore: () => {} }));
    extra.trigger.set({ value: 2 });
    await first.persistence.flush();

    // A reload where `extra` registers only later: writing `project` must keep `extra`.
    const reloaded = setup(first.storage);
    await reloaded.persistence.rehydrate();
    reloaded.project.trigger.select({ record: { projectId: 3 } });
    await reloaded.persistence.flush();
    expect(Object.keys(JSON.parse(first.storage.getItem(STORAGE_KEY)!)).sort()).toEqual(['extra', 'project']);
  });

  it('should forget everything on clear (logout) and drop a write in flight', async () => {
    const { persistence, project, storage } = setup();
    await persistence.rehydrate();
    project.trigger.select({ record: { projectId: 5 } });
    await persistence.flush();
    project.trigger.select({ record: { projectId: 6 } });
    await persistence.clear();
    await persistence.flush();
    expect(storage.getItem(STORAGE_KEY)).toBeNull();
  });
});

describe('sign-out keeps the language (issue 21)', () => {
  it('should save the language again when it is set after clear (what sign-out does), so a reload still has it', async () => {
    const first = setup();
    await first.persistence.rehydrate();
    first.project.trigger.select({ record: { projectId: 9 } });
    first.language.trigger.update({ i18n: 'gu' });
    await first.persistence.flush();
    await first.persistence.clear();
    // destroyClientSession (src/app/auth/auth-session.ts) sets the kept language again.
    first.language.trigger.update({ i18n: 'gu' });
    await first.persistence.flush();

    const reloaded = setup(first.storage);
    await reloaded.persistence.rehydrate();
    expect(reloaded.language.getSnapshot().context.i18n).toBe('gu');
    expect(reloaded.project.getSnapshot().context.selected).toBeNull();
  });

  it('should keep nothing when nothing is named', async () => {
    const first = setup();
    await first.persistence.rehydrate();
    first.language.trigger.update({ i18n: 'hi' });
    await first.persistence.flush();
    await first.persistence.clear();
    const reloaded = setup(first.storage);
    await reloaded.persistence.rehydrate();
    expect(reloaded.language.getSnapshot().context.i18n).toBeNull();
  });
});

describe('the browser-key layer (issue 23, docs/decisions/0100)', () => {
  const browserKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

  it('should keep state copied out of storage closed to anyone holding only the published secret', async () => {
    const key = await browserKey();
    const first = setup(memoryStorage(), { wrapKey: async () => key });
    await first.persistence.rehydrate();
    first.project.trigger.select({ record: { projectId: 7, name: 'Lifted' } });
    await first.persistence.flush();

    // Another client with the secret from /config.js but not this browser's key.
    const copied = memoryStorage();
    for (const [name, value] of first.storage.items) copied.items.set(name, value);
    const thief = setup(copied);
    const stolen = await thief.persistence.rehydrate();
    expect(stolen.failures.map((f) => [f.reason, f.slice])).toEqual([['decryptFailed', 'project']]);
    expect(thief.project.getSnapshot().context.selected).toBeNull();

    // The same browser reads it back.
    const again = setup(first.storage, { wrapKey: async () => key });
    expect((await again.persistence.rehydrate()).status).toBe('restored');
    expect(again.project.getSnapshot().context.selected).toEqual({ projectId: 7, name: 'Lifted' });
  });

  it('should read state saved before the browser key existed and write it again wrapped', async () => {
    const storage = await savedSession();
    const key = await browserKey();
    const upgraded = setup(storage, { wrapKey: async () => key });
    expect((await upgraded.persistence.rehydrate()).status).toBe('restored');
    await upgraded.persistence.flush();
    const plain = setup(storage);
    expect((await plain.persistence.rehydrate()).failures.map((f) => f.reason)).toEqual(['decryptFailed', 'decryptFailed']);
  });

  it('should ask for the browser key only once there is saved state to open or state to save', async () => {
    const key = await browserKey();
    let asked = 0;
    const wrapKey = async () => {
      asked += 1;
      return key;
    };
    const first = setup(memoryStorage(), { wrapKey });
    expect((await first.persistence.rehydrate()).status).toBe('clean');
    expect(asked).toBe(0);
    first.project.trigger.select({ record: { projectId: 3, name: 'Later' } });
    await first.persistence.flush();
    expect(asked).toBe(1);
    // What was written is sealed with the key: a client without it cannot open it.
    const copied = memoryStorage();
    for (const [name, value] of first.storage.items) copied.items.set(name, value);
    expect((await setup(copied).persistence.rehydrate()).failures.map((f) => f.reason)).toEqual(['decryptFailed']);
    const again = setup(first.storage, { wrapKey });
    expect((await again.persistence.rehydrate()).status).toBe('restored');
    expect(asked).toBe(2);
  });
});

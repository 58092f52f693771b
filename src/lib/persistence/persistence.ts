import { decryptText, deriveKey, encryptText } from './crypto.ts';

/** Spec §4/§9: the app renders after rehydration, or after this long at the latest. */
export const PERSIST_TIMEOUT_MS = 5000;

/**
 * Why saved state could not be used or saved. The first five are spec §4's, worded as the
 * encryption transform the spec describes them from; the others are what a browser can add.
 */
export const persistenceFailures = {
  noConfiguration: 'No configuration provided.',
  noSecretKey: 'No secret key provided.',
  outboundNotString: 'Expected outbound state to be a string.',
  decryptFailed: 'Could not decrypt state. Please verify that you are using the correct secret key.',
  parseFailed: 'Failed to parse state as JSON.',
  quotaExceeded: 'The browser storage is full; the latest state was not saved.',
  storageUnavailable: 'The browser storage cannot be used; the state is not saved.',
  cryptoUnavailable: 'Web Crypto is not available here (not a secure context); the state is not saved.',
  timeout: `Restoring the saved state took longer than ${PERSIST_TIMEOUT_MS} ms; starting without it.`,
} as const;

export type PersistenceFailureReason = keyof typeof persistenceFailures;

export interface PersistenceFailure {
  reason: PersistenceFailureReason;
  /** The slice it concerns, or null for the whole store. */
  slice: string | null;
  message: string;
}

/**
 * One slice of state to save and restore: an @xstate/store store or an actor's context slice
 * (see adapters.ts). `restore` receives parsed JSON and must validate it.
 */
export interface PersistedSlice<T = unknown> {
  read(): T;
  restore(value: unknown): void;
  subscribe(onChange: () => void): () => void;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface PersistenceOptions {
  /** Whether the page received a runtime configuration at all. */
  configured: boolean;
  secret: string;
  /** The product's key prefix. */
  productKey: string;
  storage: StorageLike | null;
  subtle: SubtleCrypto | null;
  logger?: Pick<Console, 'warn'>;
  timeoutMs?: number;
  /**
   * A non-extractable key of this browser (src/lib/security/device-keys.ts). When there is one,
   * every slice is sealed with it inside the configured-secret layer, so state copied out of
   * storage cannot be opened with the published secret alone (docs/decisions/0100). State
   * written before it existed is still read, and is rewritten wrapped.
   */
  wrapKey?: () => Promise<CryptoKey | null>;
}

/** JSON never starts like this, so a wrapped slice is told from an older plain one. */
const WRAPPED = 'wrapped:';

export interface RehydrateResult {
  /**
   * restored: saved state was applied. clean: nothing saved, or it was unusable and was
   * discarded. disabled: persistence cannot work here (see failures). timeout: gave up waiting.
   */
  status: 'restored' | 'clean' | 'disabled' | 'timeout';
  /** Slices that received saved values. */
  restored: string[];
  failures: PersistenceFailure[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isQuotaError(error: unknown) {
  const e = error as { name?: string; code?: number };
  return e?.name === 'QuotaExceededError' || e?.name === 'NS_ERROR_DOM_QUOTA_REACHED' || e?.code === 22 || e?.code === 1014;
}

class SliceFailure extends Error {
  constructor(
    readonly reason: PersistenceFailureReason,
    readonly slice: string | null,
  ) {
    super(persistenceFailures[reason]);
  }
}

/**
 * Encrypted persistence of client state slices (spec §4 "Persistence", docs/decisions/0012).
 *
 * Everything lives in one storage entry, `<productKey>:state`: a JSON object mapping each
 * slice name to its encrypted JSON. Slices register before `rehydrate()` (or later: a late
 * slice is restored from what was read). Any unusable entry (not a string, wrong key or
 * tampered, not JSON) discards the whole saved state: the app starts clean, never half-restored,
 * and every reason is logged. Writes start only after rehydration and follow each change.
 */
export function createPersistence(options: PersistenceOptions) {
  const storageKey = `${options.productKey}:state`;
  const logger = options.logger ?? console;
  const timeoutMs = options.timeoutMs ?? PERSIST_TIMEOUT_MS;
  const slices = new Map<string, PersistedSlice>();
  const unsubscribers = new Map<string, () => void>();
  const failures: PersistenceFailure[] = [];

  let phase: 'idle' | 'rehydrating' | 'ready' | 'disabled' = 'idle';
  let rehydration: Promise<RehydrateResult> | null = null;
  let key: CryptoKey | null = null;
  let wrapKey: CryptoKey | null = null;
  let wrapKeyLoading: Promise<CryptoKey | null> | null = null;
  /** The browser key, asked for once, when there is saved state to open or state to save (docs/decisions/0180). */
  const loadWrapKey = async () => {
    wrapKeyLoading ??= options.wrapKey ? options.wrapKey().catch(() => null) : Promise.resolve(null);
    wrapKey = (await wrapKeyLoading) ?? null;
  };
  /** Slices read without the browser-key layer while a key exists: written again, wrapped. */
  const unwrapped = new Set<string>();
  /** Ciphertext per slice as stored (slices not registered yet included, so writes keep them). */
  let sealed: Record<string, string> = {};
  /** Parsed values read at rehydration, for slices that register later. */
  let opened: Record<string, unknown> = {};
  /** JSON last written per slice: an unchanged slice is not encrypted again. */
  let written: Record<string, string> = {};
  const dirty = new Set<string>();
  let writeScheduled = false;
  let writes: Promise<void> = Promise.resolve();
  let generation = 0;

  function report(reason: PersistenceFailureReason, slice: string | null = null) {
    const failure: PersistenceFailure = { reason, slice, message: persistenceFailures[reason] };
    failures.push(failure);
    logger.warn(`[persistence] ${slice ? `${slice}: ` : ''}${failure.message}`);
    return failure;
  }

  const subtle = () => options.subtle!;
  const context = (slice: string) => `${options.productKey}:${slice}`;

  function watch(name: string) {
    const slice = slices.get(name);
    if (!slice || unsubscribers.has(name)) return;
    unsubscribers.set(
      name,
      slice.subscribe(() => {
        dirty.add(name);
        scheduleWrite();
      }),
    );
  }

  function restoreSlice(name: string, value: unknown) {
    try {
      slices.get(name)?.restore(value);
      written[name] = JSON.stringify(value);
      if (unwrapped.has(name)) {
        delete written[name];
        dirty.add(name);
        if (phase === 'ready') scheduleWrite();
      }
      return true;
    } catch (error) {
      logger.warn(`[persistence] ${name}: the saved value does not fit; starting it clean.`, error);
      return false;
    }
  }

  function scheduleWrite() {
    if (phase !== 'ready' || writeScheduled) return;
    writeScheduled = true;
    queueMicrotask(() => {
      writeScheduled = false;
      writes = writes.then(writeDirty, writeDirty);
    });
  }

  async function writeDirty() {
    if (phase !== 'ready' || !key) return;
    await loadWrapKey();
    if (phase !== 'ready') return;
    const round = generation;
    const names = [...dirty];
    dirty.clear();
    let changed = false;
    for (const name of names) {
      const slice = slices.get(name);
      if (!slice) continue;
      let json: string;
      try {
        json = JSON.stringify(slice.read());
      } catch (error) {
        logger.warn(`[persistence] ${name}: the value cannot be saved as JSON.`, error);
        continue;
      }
      if (written[name] === json) continue;
      const inner = wrapKey ? `${WRAPPED}${await encryptText(wrapKey, json, context(name), subtle())}` : json;
      const text = await encryptText(key, inner, context(name), subtle());
      if (round !== generation) return;
      sealed[name] = text;
      written[name] = json;
      changed = true;
    }
    if (!changed || round !== generation) return;
    try {
      options.storage!.setItem(storageKey, JSON.stringify(sealed));
    } catch (error) {
      report(isQuotaError(error) ? 'quotaExceeded' : 'storageUnavailable');
      // Nothing is lost in memory; the next change tries again with everything.
      written = {};
      for (const name of slices.keys()) dirty.add(name);
    }
  }

  /** Reads, checks and opens everything stored; throws a SliceFailure list on any problem. */
  async function readStored(): Promise<{ sealed: Record<string, string>; opened: Record<string, unknown> } | SliceFailure[]> {
    const raw = options.storage!.getItem(storageKey);
    if (raw === null) return { sealed: {}, opened: {} };
    let root: unknown;
    try {
      root = JSON.parse(raw);
    } catch {
      return [new SliceFailure('parseFailed', null)];
    }
    if (!isRecord(root)) return [new SliceFailure('parseFailed', null)];
    const problems: SliceFailure[] = [];
    const values: Record<string, unknown> = {};
    const texts: Record<string, string> = {};
    for (const [name, entry] of Object.entries(root)) {
      if (typeof entry !== 'string') {
        problems.push(new SliceFailure('outboundNotString', name));
        continue;
      }
      let plaintext: string;
      try {
        plaintext = await decryptText(key!, entry, context(name), subtle());
        if (plaintext.startsWith(WRAPPED)) {
          if (!wrapKey) throw new Error('sealed with a key this browser does not have');
          plaintext = await decryptText(wrapKey, plaintext.slice(WRAPPED.length), context(name), subtle());
        } else if (wrapKey) unwrapped.add(name);
      } catch {
        problems.push(new SliceFailure('decryptFailed', name));
        continue;
      }
      try {
        values[name] = JSON.parse(plaintext);
        texts[name] = entry;
      } catch {
        problems.push(new SliceFailure('parseFailed', name));
      }
    }
    return problems.length ? problems : { sealed: texts, opened: values };
  }

  async function run(): Promise<RehydrateResult> {
    const disabled = (reason: PersistenceFailureReason): RehydrateResult => {
      phase = 'disabled';
      return { status: 'disabled', restored: [], failures: [report(reason)] };
    };
    if (!options.configured) return disabled('noConfiguration');
    if (!options.secret) return disabled('noSecretKey');
    if (!options.subtle || typeof crypto === 'undefined' || typeof crypto.getRandomValues !== 'function') return disabled('cryptoUnavailable');
    if (!options.storage) return disabled('storageUnavailable');
    try {
      key = await deriveKey(options.secret, options.productKey, options.subtle);
    } catch {
      return disabled('cryptoUnavailable');
    }
    // A first visit has nothing to open: the browser key (and its code) waits for the first write.
    let hasStored = true;
    try {
      hasStored = options.storage.getItem(storageKey) !== null;
    } catch {
      // readStored reports the storage below.
    }
    if (hasStored) await loadWrapKey();
    let stored: Awaited<ReturnType<typeof readStored>>;
    try {
      stored = await readStored();
    } catch {
      return disabled('storageUnavailable');
    }
    if (phase !== 'rehydrating') return { status: 'timeout', restored: [], failures: [] };

    if (Array.isArray(stored)) {
      // Spec §4: a corrupted or wrong-key store starts clean, and says why.
      const reported = stored.map((problem) => report(problem.reason, problem.slice));
      try {
        options.storage.removeItem(storageKey);
      } catch {
        // Could not remove it: the next write replaces it anyway.
      }
      phase = 'ready';
      for (const name of slices.keys()) watch(name);
      return { status: 'clean', restored: [], failures: reported };
    }

    sealed = stored.sealed;
    opened = stored.opened;
    const restored: string[] = [];
    for (const name of slices.keys()) {
      if (name in opened && restoreSlice(name, opened[name])) restored.push(name);
    }
    phase = 'ready';
    for (const name of slices.keys()) watch(name);
    if (dirty.size) scheduleWrite();
    return { status: restored.length ? 'restored' : 'clean', restored, failures: [] };
  }

  return {
    storageKey,

    /**
     * Adds a slice. Before rehydration it is restored with the others; after, at once from what
     * was read (an actor created later, like the auth session, registers then). Returns a
     * function that stops saving it.
     */
    register<T>(name: string, slice: PersistedSlice<T>): () => void {
      slices.set(name, slice as PersistedSlice);
      if (phase === 'ready') {
        if (name in opened) restoreSlice(name, opened[name]);
        watch(name);
      }
      return () => {
        unsubscribers.get(name)?.();
        unsubscribers.delete(name);
        slices.delete(name);
      };
    },

    /**
     * Restores every registered slice. Resolves when done, or after 5000 ms (then the app goes
     * on without the saved state, and what arrives later is ignored). Never rejects.
     */
    rehydrate(): Promise<RehydrateResult> {
      if (rehydration) return rehydration;
      phase = 'rehydrating';
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<RehydrateResult>((resolve) => {
        timer = setTimeout(() => {
          if (phase !== 'rehydrating') return;
          const failure = report('timeout');
          phase = key ? 'ready' : 'disabled';
          if (phase === 'ready') for (const name of slices.keys()) watch(name);
          resolve({ status: 'timeout', restored: [], failures: [failure] });
        }, timeoutMs);
      });
      const work = run().catch((error: unknown) => {
        logger.warn('[persistence] restoring the saved state failed', error);
        phase = 'disabled';
        return { status: 'disabled', restored: [], failures: [] } as RehydrateResult;
      });
      rehydration = Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
      return rehydration;
    },

    /** Resolves once every change so far is written. */
    async flush(): Promise<void> {
      // The write of the latest changes is queued in a microtask; wait for it, then for the chain.
      await Promise.resolve();
      await writes;
    },

    /**
     * Logout: forgets the saved state (storage and memory). Later changes are saved again
     * from scratch; pending writes from before are dropped.
     */
    async clear(): Promise<void> {
      generation += 1;
      dirty.clear();
      sealed = {};
      opened = {};
      written = {};
      await writes.catch(() => {});
      try {
        options.storage?.removeItem(storageKey);
      } catch {
        // Nothing more to do.
      }
    },

    /** Every failure so far, in order. */
    get failures(): readonly PersistenceFailure[] {
      return failures;
    },
  };
}

export type Persistence = ReturnType<typeof createPersistence>;

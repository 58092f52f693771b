import { assign, fromPromise, setup } from 'xstate';

/** Spec §9: the version this build is. */
export const CURRENT_VERSION = '1.2.253';

/** `1.2.300` → [1, 2, 300]; null when it is not a dotted list of whole numbers (a leading `v` is allowed). */
export function parseVersion(version: unknown): number[] | null {
  if (typeof version !== 'string') return null;
  const text = version.trim().replace(/^v/i, '');
  if (!/^\d+(\.\d+)*$/.test(text)) return null;
  return text.split('.').map(Number);
}

/**
 * Semantic comparison of two versions, part by part as numbers (so 1.2.300 > 1.2.253 and
 * 1.10.0 > 1.9.9); a missing part counts as 0. Positive when `a` is newer.
 */
export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) throw new Error(`Not a version: ${left ? b : a}`);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

export interface VersionCheckInput {
  currentVersion?: string;
  /** The deployed version this tab already reloaded for (kept in session storage): no second reload for it. */
  reloadedFor?: string | null;
}

export interface VersionCheckContext {
  currentVersion: string;
  deployedVersion: string | null;
  reloadedFor: string | null;
  error: string | null;
}

function describe(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}

/** The deployed version carried by `xstate.done.actor.fetchDeployedVersion`. */
const deployedOf = (event: unknown) => (event as { output: { version: string } }).output.version;
const errorOf = (event: unknown) => (event as { error: unknown }).error;

export const versionCheckMachine = setup({
  types: {
    context: {} as VersionCheckContext,
    input: {} as VersionCheckInput,
    /** `settled`: the check has reached its end (latest, reloading, or a reload held back). */
    tags: {} as 'settled',
  },
  actors: {
    /** GET /meta.json (spec §7) → its `version`. */
    fetchDeployedVersion: fromPromise<{ version: string }>(async () => {
      const response = await fetch('/meta.json', { cache: 'no-store', headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`GET /meta.json answered ${response.status}`);
      const body = (await response.json()) as { version?: unknown };
      if (!parseVersion(body?.version)) throw new Error(`GET /meta.json has no valid version: ${JSON.stringify(body?.version)}`);
      return { version: String(body.version) };
    }),
    /** Deletes every Cache Storage cache (spec §4: "all browser caches are deleted"). */
    clearCaches: fromPromise<number>(async () => {
      if (typeof caches === 'undefined') return 0;
      const names = await caches.keys();
      await Promise.all(names.map((name) => caches.delete(name)));
      return names.length;
    }),
  },
  guards: {
    isNewer: ({ context, event }) => compareVersions(deployedOf(event), context.currentVersion) > 0,
    /** This tab already reloaded for this deployed version and still runs the old build: no loop. */
    hasReloadedForDeployed: ({ context }) => context.reloadedFor !== null && context.reloadedFor === context.deployedVersion,
  },
  actions: {
    recordDeployed: assign({ deployedVersion: ({ event }) => deployedOf(event) }),
    recordFailure: assign({ error: ({ event }) => describe(errorOf(event)) }),
    logFailure: ({ context }) => console.warn(`Version check failed, continuing with ${context.currentVersion}: ${context.error}`),
    logCacheFailure: ({ event }) => console.warn(`Could not delete the browser caches: ${describe(errorOf(event))}`),
    /** The runtime remembers the version in session storage first (see src/app/version-check.ts). */
    reload: () => globalThis.location?.reload(),
    logReloadSuppressed: ({ context }) =>
      console.warn(`Version ${context.deployedVersion} is deployed but this page still runs ${context.currentVersion} after a reload; not reloading again.`),
  },
}).createMachine({
  id: 'version-check',
  context: ({ input }) => ({
    currentVersion: input?.currentVersion ?? CURRENT_VERSION,
    deployedVersion: null,
    reloadedFor: input?.reloadedFor ?? null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchDeployedVersion',
        src: 'fetchDeployedVersion',
        onDone: [
          { guard: 'isNewer', target: 'outdated', actions: 'recordDeployed' },
          { target: 'latest', actions: 'recordDeployed' },
        ],
        // Spec §4: a failed check is logged and the app proceeds as latest.
        onError: { target: 'latest', actions: ['recordFailure', 'logFailure'] },
      },
    },
    latest: { type: 'final', tags: 'settled' },
    /** A newer version is deployed: clear the caches, then reload once. */
    outdated: {
      initial: 'clearingCaches',
      states: {
        clearingCaches: {
          invoke: {
            id: 'clearCaches',
            src: 'clearCaches',
            onDone: [{ guard: 'hasReloadedForDeployed', target: 'reloadSuppressed' }, { target: 'reloading' }],
            onError: [
              { guard: 'hasReloadedForDeployed', target: 'reloadSuppressed', actions: 'logCacheFailure' },
              { target: 'reloading', actions: 'logCacheFailure' },
            ],
          },
        },
        reloading: { type: 'final', tags: 'settled', entry: 'reload' },
        reloadSuppressed: { type: 'final', tags: 'settled', entry: 'logReloadSuppressed' },
      },
    },
  },
});

export type VersionCheckMachine = typeof versionCheckMachine;

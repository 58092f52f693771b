import { appConfig, hasRuntimeConfig } from '#src/lib/config.ts';
import { storeSlice } from '#src/lib/persistence/adapters.ts';
import { createPersistence, type RehydrateResult } from '#src/lib/persistence/persistence.ts';
import { authUserStore } from '../auth/auth-user-store.ts';
import { persistedSliceNames, sliceStores, type SliceName } from './slices.ts';

function browserStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage blocked by the browser's settings.
    return null;
  }
}

/** The app's encrypted persistence (spec §4), keyed under the product key of the runtime config. */
export const clientPersistence = createPersistence({
  configured: hasRuntimeConfig(),
  secret: appConfig.persistSecret,
  productKey: appConfig.productKey,
  storage: browserStorage(),
  subtle: globalThis.crypto?.subtle ?? null,
  // Its code loads only when there is state to open or save (docs/decisions/0180).
  wrapKey: async () => (await import('#src/lib/security/device-keys.ts')).deviceKeys.persist(),
});

/** What the persistence needs of a slice store: its context, its changes, and events. */
interface SliceStore {
  getSnapshot(): { context: unknown };
  subscribe(listener: (snapshot: { context: unknown }) => void): { unsubscribe(): void };
  send(event: { type: string; [key: string]: unknown }): void;
}
const storeOf = (name: SliceName) => sliceStores[name] as unknown as SliceStore;

for (const name of persistedSliceNames) {
  if (name === 'authUser') {
    // The auth-session actor's persisted mirror (src/app/auth): in the first render, without XState.
    clientPersistence.register(name, storeSlice(authUserStore, { restore: (value) => authUserStore.trigger.hydrate({ state: value }) }));
    continue;
  }
  const store = storeOf(name);
  const restore =
    name === 'localization'
      ? (value: unknown) => store.send({ type: 'update', i18n: (value as { i18n?: unknown } | null)?.i18n ?? null })
      : (value: unknown) => store.send({ type: 'hydrate', state: value });
  clientPersistence.register(name, storeSlice(store, { restore }));
}

/** Restores the saved slices; main.tsx renders once this settles (5000 ms at most). */
export function rehydrateClientState(): Promise<RehydrateResult> {
  return clientPersistence.rehydrate();
}

/** Logout: forgets the saved state. */
export function clearPersistedState(): Promise<void> {
  return clientPersistence.clear();
}

/**
 * Resets the whole client state: every slice back to its initial value (those named in `keep`
 * excepted), and the saved state forgotten.
 */
export async function resetClientState({ keep = [] }: { keep?: SliceName[] } = {}): Promise<void> {
  for (const name of Object.keys(sliceStores) as SliceName[]) {
    if (!keep.includes(name)) storeOf(name).send({ type: 'reset' });
  }
  await clientPersistence.clear();
}

import { useCallback, useSyncExternalStore } from 'react';

/** What the hook needs of a store: an @xstate/store store (or anything shaped like one). */
export interface ReadableStore<Snapshot> {
  getSnapshot(): Snapshot;
  subscribe(listener: (snapshot: Snapshot) => void): { unsubscribe(): void };
}

/**
 * Reads a value of a store and re-renders when it changes, with React's own
 * useSyncExternalStore. For the first-render path only (the notifications host): @xstate/react's
 * useSelector would pull XState's interpreter into the entry chunk (docs/decisions/0064).
 * `select` must return a primitive or a part of the snapshot (never a new object per call), so
 * an unchanged store gives an unchanged value.
 */
export function useStoreValue<Snapshot, Value>(store: ReadableStore<Snapshot>, select: (snapshot: Snapshot) => Value): Value {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const subscription = store.subscribe(onChange);
      return () => subscription.unsubscribe();
    },
    [store],
  );
  const read = () => select(store.getSnapshot());
  return useSyncExternalStore(subscribe, read, read);
}

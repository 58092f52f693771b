import type { PersistedSlice } from './persistence.ts';

interface Subscribable<TSnapshot> {
  getSnapshot(): TSnapshot;
  subscribe(listener: (snapshot: TSnapshot) => void): { unsubscribe(): void };
}

/** Calls `onChange` only when the selected value is a different one. */
function changes<TSnapshot, T>(source: Subscribable<TSnapshot>, select: (snapshot: TSnapshot) => T, onChange: () => void) {
  let previous = select(source.getSnapshot());
  const subscription = source.subscribe((snapshot) => {
    const next = select(snapshot);
    if (Object.is(next, previous)) return;
    previous = next;
    onChange();
  });
  return () => subscription.unsubscribe();
}

/**
 * An @xstate/store store as a persisted slice: saves its context (or `select` of it) and
 * restores through `restore`, which sends the store an event (the slice stores of
 * src/app/stores have a validating `hydrate` event for this).
 *
 *   persistence.register('project', storeSlice(projectStore, { restore: (v) => projectStore.trigger.hydrate({ state: v }) }));
 */
export function storeSlice<TContext, T = TContext>(
  store: Subscribable<{ context: TContext }>,
  options: { select?: (context: TContext) => T; restore: (value: unknown) => void },
): PersistedSlice<T> {
  const select = options.select ?? ((context: TContext) => context as unknown as T);
  return {
    read: () => select(store.getSnapshot().context),
    restore: options.restore,
    subscribe: (onChange) => changes(store, (snapshot) => select(snapshot.context), onChange),
  };
}

/**
 * A part of an XState actor's snapshot as a persisted slice. The auth-session actor persists
 * its `authUser` and `userPermissions` like this:
 *
 *   persistence.register('authUser', actorSlice(session, {
 *     select: (snapshot) => snapshot.context.authUser,
 *     restore: (value) => session.send({ type: 'session.restored', authUser: value }),
 *   }));
 */
export function actorSlice<TSnapshot, T>(
  actor: Subscribable<TSnapshot>,
  options: { select: (snapshot: TSnapshot) => T; restore: (value: unknown) => void },
): PersistedSlice<T> {
  return {
    read: () => options.select(actor.getSnapshot()),
    restore: options.restore,
    subscribe: (onChange) => changes(actor, options.select, onChange),
  };
}

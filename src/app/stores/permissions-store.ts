import { createStore } from '@xstate/store';
import { isRecord } from './storable.ts';

export interface PermissionsState {
  permissions: string[];
}

const onlyStrings = (value: unknown): string[] =>
  Array.isArray(value) ? [...new Set(value.filter((p): p is string => typeof p === 'string' && p.length > 0))] : [];

/**
 * A list of permission strings (`Permissions.<Resource>.<Action>`): the user permissions slice
 * (fetched after sign-in) and the exam permissions slice. `update` replaces the list (anything
 * that is not a list of strings empties it); `remove` empties it.
 */
export function createPermissionsStore() {
  return createStore({
    context: { permissions: [] } as PermissionsState,
    on: {
      update: (_context, event: { permissions: unknown }): PermissionsState => ({ permissions: onlyStrings(event.permissions) }),
      remove: (): PermissionsState => ({ permissions: [] }),
      reset: (): PermissionsState => ({ permissions: [] }),
      hydrate: (_context, event: { state: unknown }): PermissionsState => ({
        permissions: isRecord(event.state) ? onlyStrings(event.state.permissions) : [],
      }),
    },
  });
}

export type PermissionsStore = ReturnType<typeof createPermissionsStore>;

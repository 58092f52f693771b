import { createStore } from '@xstate/store';
import { isRecord, storableRecord } from './storable.ts';

/** A business record the client selected (its fields are the feature's business). */
export type SelectedRecord = Record<string, unknown>;

export interface SelectionState<T extends object = SelectedRecord> {
  selected: T | null;
}

/**
 * A selection slice of spec §4: one chosen record or null. `select` stores the payload (a
 * JSON-safe copy); `remove`, or a failure while storing (a payload that is not a record or
 * not storable, or `failure`), resets to null. `update` is the same as `select`: the spec's
 * name for it on the season, user and exam slices ("removed if their update throws").
 */
export function createSelectionStore<T extends object = SelectedRecord>() {
  const select = (_context: SelectionState<T>, event: { record: T | null }): SelectionState<T> => ({ selected: storableRecord<T>(event.record) });
  return createStore({
    context: { selected: null } as SelectionState<T>,
    on: {
      select,
      update: select,
      remove: (): SelectionState<T> => ({ selected: null }),
      failure: (): SelectionState<T> => ({ selected: null }),
      reset: (): SelectionState<T> => ({ selected: null }),
      /** Restores a saved state (persistence); anything unexpected restores null. */
      hydrate: (_context, event: { state: unknown }): SelectionState<T> => ({
        selected: isRecord(event.state) ? storableRecord<T>(event.state.selected) : null,
      }),
    },
  });
}

export type SelectionStore<T extends object = SelectedRecord> = ReturnType<typeof createSelectionStore<T>>;

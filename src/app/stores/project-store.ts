import { createStore } from '@xstate/store';
import type { SelectedRecord } from './selection-store.ts';
import { isRecord, storableRecord } from './storable.ts';

export interface ProjectState {
  selected: SelectedRecord | null;
  /** Spec §3: flips on every refresh action, so views that show the project reload it. */
  refresh: boolean;
}

export const initialProjectState: ProjectState = { selected: null, refresh: false };

/** The project slice: a selection slice plus its refresh flag. */
export function createProjectStore() {
  const select = (context: ProjectState, event: { record: SelectedRecord | null }): ProjectState => ({
    ...context,
    selected: storableRecord(event.record),
  });
  return createStore({
    context: initialProjectState,
    on: {
      select,
      update: select,
      remove: (context): ProjectState => ({ ...context, selected: null }),
      failure: (context): ProjectState => ({ ...context, selected: null }),
      refresh: (context): ProjectState => ({ ...context, refresh: !context.refresh }),
      reset: (): ProjectState => initialProjectState,
      hydrate: (_context, event: { state: unknown }): ProjectState => {
        const state = isRecord(event.state) ? event.state : {};
        return { selected: storableRecord(state.selected), refresh: state.refresh === true };
      },
    },
  });
}

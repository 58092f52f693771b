import { createStore } from '@xstate/store';
import { isRecord, storableValue } from './storable.ts';

/** Spec §4: the show-project-config-stepper flag; default true, `remove` resets it to true. */
export function createStepperStore() {
  return createStore({
    context: { show: true },
    on: {
      update: (_context, event: { show: unknown }) => ({ show: typeof event.show === 'boolean' ? event.show : true }),
      remove: () => ({ show: true }),
      reset: () => ({ show: true }),
    },
  });
}

/**
 * A slice holding one JSON value or null (the error detail, the project status): `update`
 * stores it, and an update that fails (a value that cannot be stored) removes it.
 */
export function createValueStore<T = unknown>() {
  return createStore({
    context: { value: null } as { value: T | null },
    on: {
      update: (_context, event: { value: T | null }) => ({ value: storableValue<T>(event.value) }),
      remove: () => ({ value: null as T | null }),
      reset: () => ({ value: null as T | null }),
      hydrate: (_context, event: { state: unknown }) => ({ value: isRecord(event.state) ? storableValue<T>(event.state.value) : null }),
    },
  });
}

/**
 * Spec §4: the success-message slice. `update` stores a message; an update that fails (not a
 * non-empty text) removes it; `remove` clears it.
 */
export function createSuccessMessageStore() {
  return createStore({
    context: { message: null as string | null },
    on: {
      update: (_context, event: { message: unknown }) => ({
        message: typeof event.message === 'string' && event.message.trim() !== '' ? event.message : null,
      }),
      remove: () => ({ message: null }),
      reset: () => ({ message: null }),
    },
  });
}

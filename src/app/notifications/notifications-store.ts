import { createStore } from '@xstate/store';

/**
 * Which notification surfaces have been asked for. The toaster (sonner, the toast-queue actor)
 * and the snackbar load on their first use, not with the first render (docs/decisions/0016).
 */
export const notificationsStore = createStore({
  context: { toasts: false, snackbar: false },
  on: {
    activate: (context, event: { part: 'toasts' | 'snackbar' }) => (context[event.part] ? context : { ...context, [event.part]: true }),
  },
});

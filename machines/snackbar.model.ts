import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';
import { snackbarMachine, type SnackbarEvent } from './snackbar.machine.ts';

/** Opens with defaults only, and one with every field chosen. */
export const snackbarModelOpens: SnackbarEvent[] = [
  { type: 'snackbar.open' },
  {
    type: 'snackbar.open',
    options: {
      message: 'Ticket claimed',
      variant: 'alert',
      alert: { color: 'success', variant: 'outlined' },
      transition: 'SlideUp',
      anchorOrigin: { vertical: 'top', horizontal: 'center' },
      close: false,
      actionButton: true,
    },
  },
];

export function snackbarModel() {
  return createMachineTestModel(snackbarMachine, {
    events: () => snackbarModelOpens,
  });
}

/** Paths taking every edge of the snackbar's graph. */
export function snackbarTestPaths() {
  return transitionCoveringPaths(snackbarModel());
}

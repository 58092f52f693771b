import { createActor } from 'xstate';
import { snackbarMachine } from '#machines/snackbar.machine.ts';
import { registerLiveActor } from '#src/app/live-actors.ts';
import { i18n } from '#src/i18n/i18n.ts';

/** The app's snackbar (the snackbar slice of spec §3), loaded with its first use. */
export const snackbarActor = createActor(snackbarMachine, { systemId: 'snackbar' }).start();
registerLiveActor('snackbar', snackbarMachine, snackbarActor);

let onAction: (() => void) | null = null;
/** The handler of the latest open's 'UNDO' button. */
export function setActionHandler(handler: (() => void) | null) {
  onAction = handler;
}
snackbarActor.on('snackbar.action', () => {
  const handler = onAction;
  onAction = null;
  handler?.();
});

// The snackbar's texts are needed as soon as it shows.
void i18n.loadNamespaces('notifications');

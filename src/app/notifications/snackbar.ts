import type { SnackbarOptions } from '#machines/snackbar.machine.ts';
import { notificationsStore } from './notifications-store.ts';

export interface OpenSnackbarOptions extends SnackbarOptions {
  /** Called when the 'UNDO' button is pressed (the snackbar then closes). */
  onAction?: () => void;
}

let runtime: Promise<typeof import('./snackbar-runtime.ts')> | undefined;
function loadRuntime() {
  notificationsStore.trigger.activate({ part: 'snackbar' });
  return (runtime ??= import('./snackbar-runtime.ts'));
}

/**
 * Opens the snackbar (spec §3/§4): fields left out take the defaults ('Note archived', bottom
 * right, Fade, close button, no action button). It closes with its close button, its 'UNDO'
 * button or after 6000 ms, never on a click elsewhere.
 */
export async function openSnackbar({ onAction, ...options }: OpenSnackbarOptions = {}): Promise<void> {
  const { snackbarActor, setActionHandler } = await loadRuntime();
  setActionHandler(onAction ?? null);
  snackbarActor.send({ type: 'snackbar.open', options });
}

export async function closeSnackbar(): Promise<void> {
  if (!runtime) return;
  (await runtime).snackbarActor.send({ type: 'snackbar.close' });
}

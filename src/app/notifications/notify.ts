import { TOAST_AUTO_HIDE_MS } from '#machines/toast-queue.machine.ts';
import { isCatalogueText, type DisplayText } from '#src/lib/error-catalogue.ts';
import { normalizeError, type ErrorDisplay } from '#src/lib/normalize-error.ts';
import { notificationsStore } from './notifications-store.ts';
import type { ToastContent } from './toast-content.ts';

/** Spec §9: the error toast closes after this long (unless its details are open). */
export const ERROR_TOAST_CLOSE_MS = 5000;

export type { MessageKind, ToastContent } from './toast-content.ts';

export interface NotifyOptions {
  /** A toast with the same id replaces its content instead of stacking. */
  id?: string;
  /** Milliseconds; null keeps it until closed. Default 5000. */
  duration?: number | null;
}

let runtime: Promise<typeof import('./toast-runtime.ts')> | undefined;
function loadRuntime() {
  notificationsStore.trigger.activate({ part: 'toasts' });
  return (runtime ??= import('./toast-runtime.ts'));
}

async function push(content: ToastContent, options: NotifyOptions = {}, fallbackDuration = TOAST_AUTO_HIDE_MS): Promise<string> {
  const { pushToast } = await loadRuntime();
  return pushToast(content, { id: options.id, duration: options.duration === undefined ? fallbackDuration : options.duration });
}

function isErrorDisplay(value: unknown): value is ErrorDisplay {
  return typeof value === 'object' && value !== null && 'lines' in value && 'title' in value && 'details' in value;
}

/** Network failures share one toast: ten failed calls while offline show one message. */
function errorToastId(display: ErrorDisplay): string | undefined {
  const [first] = display.lines;
  return display.lines.length === 1 && isCatalogueText(first) && first.catalogue === 'network' ? 'error-network' : undefined;
}

/**
 * The toasts other features call. Each resolves with the toast's id (or null when there was
 * nothing to show); the toast-queue actor decides when it is visible.
 *
 *   notify.success(t('users:saved'));
 *   notify.error(rejectedValue);            // any failed call's rejected value, a string, …
 */
export const notify = {
  success: (message: DisplayText, options?: NotifyOptions) => push({ kind: 'success', message }, options),
  info: (message: DisplayText, options?: NotifyOptions) => push({ kind: 'info', message }, options),
  warning: (message: DisplayText, options?: NotifyOptions) => push({ kind: 'warning', message }, options),
  /** The red error toast of spec §8 for an error of any shape (through normalizeError). */
  async error(error: unknown, options?: NotifyOptions): Promise<string | null> {
    const display = isErrorDisplay(error) ? error : await normalizeError(error);
    if (!display) return null;
    return push({ kind: 'error', display }, { id: options?.id ?? errorToastId(display), duration: options?.duration }, ERROR_TOAST_CLOSE_MS);
  },
  async dismiss(id: string) {
    if (!runtime) return;
    (await runtime).toastActor.send({ type: 'toast.dismiss', id });
  },
  async clear() {
    if (!runtime) return;
    (await runtime).toastActor.send({ type: 'toast.clear' });
  },
};

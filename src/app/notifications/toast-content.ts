import type { DisplayText } from '#src/lib/error-catalogue.ts';
import type { ErrorDisplay } from '#src/lib/normalize-error.ts';

/**
 * What a toast shows. Its own module so `notify` (which loads the toast runtime on first use)
 * and the runtime both depend on it, and not on each other.
 */
export type MessageKind = 'success' | 'info' | 'warning';
export type ToastContent = { kind: MessageKind; message: DisplayText } | { kind: 'error'; display: ErrorDisplay };

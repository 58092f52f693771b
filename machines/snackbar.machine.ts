import { assign, emit, setup } from 'xstate';

/** Spec §9: the snackbar hides itself after this long. */
export const SNACKBAR_AUTO_HIDE_MS = 6000;
/** Spec §9: transition durations. */
export const SNACKBAR_ENTER_MS = 225;
export const SNACKBAR_EXIT_MS = 195;

export const snackbarTransitions = ['SlideLeft', 'SlideUp', 'SlideRight', 'SlideDown', 'Grow', 'Fade'] as const;
export type SnackbarTransition = (typeof snackbarTransitions)[number];
export const alertColors = ['primary', 'secondary', 'success', 'warning', 'error', 'info'] as const;
export type AlertColor = (typeof alertColors)[number];
export const alertVariants = ['filled', 'outlined', 'standard'] as const;
export type AlertVariant = (typeof alertVariants)[number];

/** The snackbar slice of spec §3. */
export interface SnackbarState {
  open: boolean;
  /** Flipped on every open (spec §3), so a view can tell two opens with the same text apart. */
  action: boolean;
  /** null shows the default message, 'Note archived' (translated by the view). */
  message: string | null;
  variant: 'default' | 'alert';
  alert: { color: AlertColor; variant: AlertVariant };
  transition: SnackbarTransition;
  anchorOrigin: { vertical: 'top' | 'bottom'; horizontal: 'left' | 'center' | 'right' };
  /** The close button is shown. */
  close: boolean;
  /** The 'UNDO' action button is shown. */
  actionButton: boolean;
}

/** What an open may set; anything left out takes its default (spec §4). */
export type SnackbarOptions = Partial<Omit<SnackbarState, 'open' | 'action' | 'alert' | 'anchorOrigin'>> & {
  alert?: Partial<SnackbarState['alert']>;
  anchorOrigin?: Partial<SnackbarState['anchorOrigin']>;
};

/** Spec §4: the defaults an open fills missing fields from. */
export const snackbarDefaults: Omit<SnackbarState, 'open' | 'action'> = {
  message: null,
  variant: 'default',
  alert: { color: 'primary', variant: 'filled' },
  transition: 'Fade',
  anchorOrigin: { vertical: 'bottom', horizontal: 'right' },
  close: true,
  actionButton: false,
};

export const initialSnackbarState: SnackbarState = { open: false, action: false, ...snackbarDefaults };

// Only a string can be one of the allowed strings: includes() needs no type check first.
const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly unknown[]).includes(value) ? (value as T) : fallback;

/** Opening: open, the action flag flipped, and every missing or invalid field from the defaults. */
export function openedState(previous: SnackbarState, options: SnackbarOptions = {}): SnackbarState {
  const d = snackbarDefaults;
  return {
    open: true,
    action: !previous.action,
    message: typeof options.message === 'string' && options.message.trim() !== '' ? options.message : d.message,
    variant: oneOf(options.variant, ['default', 'alert'] as const, d.variant),
    alert: {
      color: oneOf(options.alert?.color, alertColors, d.alert.color),
      variant: oneOf(options.alert?.variant, alertVariants, d.alert.variant),
    },
    transition: oneOf(options.transition, snackbarTransitions, d.transition),
    anchorOrigin: {
      vertical: oneOf(options.anchorOrigin?.vertical, ['top', 'bottom'] as const, d.anchorOrigin.vertical),
      horizontal: oneOf(options.anchorOrigin?.horizontal, ['left', 'center', 'right'] as const, d.anchorOrigin.horizontal),
    },
    close: typeof options.close === 'boolean' ? options.close : d.close,
    actionButton: typeof options.actionButton === 'boolean' ? options.actionButton : d.actionButton,
  };
}

export type SnackbarEvent =
  | { type: 'snackbar.open'; options?: SnackbarOptions }
  /** The close button. A click away from the snackbar is not an event: it does not close it. */
  | { type: 'snackbar.close' }
  /** The 'UNDO' button: tells whoever opened the snackbar, then closes it. */
  | { type: 'snackbar.action' };

export const snackbarMachine = setup({
  types: {
    context: {} as SnackbarState,
    events: {} as SnackbarEvent,
    emitted: {} as { type: 'snackbar.action' },
  },
  delays: {
    autoHide: SNACKBAR_AUTO_HIDE_MS,
    exit: SNACKBAR_EXIT_MS,
  },
  actions: {
    applyOpen: assign(({ context, event }) => openedState(context, (event as Extract<SnackbarEvent, { type: 'snackbar.open' }>).options)),
    /** Spec §4: closing sets open to false (the rest stays for the exit transition). */
    markClosed: assign({ open: false }),
    emitAction: emit({ type: 'snackbar.action' as const }),
  },
}).createMachine({
  id: 'snackbar',
  context: initialSnackbarState,
  initial: 'closed',
  states: {
    closed: {
      on: { 'snackbar.open': { target: 'opened', actions: 'applyOpen' } },
    },
    /** Shown; hides itself after 6000 ms. A new open replaces it and starts the time again. */
    opened: {
      after: { autoHide: 'closing' },
      on: {
        'snackbar.open': { target: 'opened', reenter: true, actions: 'applyOpen' },
        'snackbar.close': 'closing',
        'snackbar.action': { target: 'closing', actions: 'emitAction' },
      },
    },
    /** The exit transition (195 ms) plays; then it is gone. */
    closing: {
      entry: 'markClosed',
      after: { exit: 'closed' },
      on: { 'snackbar.open': { target: 'opened', actions: 'applyOpen' } },
    },
  },
});

export type SnackbarMachine = typeof snackbarMachine;

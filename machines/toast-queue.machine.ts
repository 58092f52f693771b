import { assign, enqueueActions, sendParent, setup } from 'xstate';

/** Spec §4 and §9: at most this many toasts are shown at once. */
export const TOAST_LIMIT = 3;
/** Spec §9: a toast hides itself after this long unless told otherwise. */
export const TOAST_AUTO_HIDE_MS = 5000;

/**
 * One toast as the queue knows it. `content` is whatever the view renders (the queue never
 * looks inside); `duration` null keeps the toast until it is closed.
 */
export interface QueuedToast<TContent = unknown> {
  id: string;
  duration: number | null;
  /** Its timer is held (details expanded, pointer or focus on it): never dismissed to make room. */
  paused: boolean;
  content: TContent;
}

export interface ToastRequest<TContent = unknown> {
  /** Pushing an id that is already shown or queued replaces that toast's content instead. */
  id?: string;
  /** Milliseconds; null = until closed; default 5000. */
  duration?: number | null;
  content: TContent;
}

// ---------------------------------------------------------------------------------------------
// The timer of one visible toast with a duration: counts it down, holds while paused, tells
// the queue when it ran out. A resumed toast gets its whole duration again
// (docs/decisions/0013).
// ---------------------------------------------------------------------------------------------

export interface ToastTimerInput {
  id: string;
  /** Milliseconds. A toast without a duration gets no timer at all. */
  duration: number;
}

export const toastTimerMachine = setup({
  types: {
    context: {} as ToastTimerInput,
    input: {} as ToastTimerInput,
    events: {} as { type: 'toast.pause' } | { type: 'toast.resume' },
  },
  delays: {
    duration: ({ context }) => context.duration,
  },
  actions: {
    reportExpired: sendParent(({ context }) => ({ type: 'toast.expired' as const, id: context.id })),
  },
}).createMachine({
  id: 'toast-timer',
  context: ({ input }) => ({ id: input.id, duration: input.duration }),
  initial: 'counting',
  states: {
    counting: {
      after: { duration: 'expired' },
      on: { 'toast.pause': 'paused' },
    },
    paused: {
      on: { 'toast.resume': 'counting' },
    },
    expired: { type: 'final', entry: 'reportExpired' },
  },
});

// ---------------------------------------------------------------------------------------------
// The queue: decides which toasts are visible. The view (sonner) renders exactly `visible`.
// ---------------------------------------------------------------------------------------------

export interface ToastQueueContext {
  visible: QueuedToast[];
  queued: QueuedToast[];
  limit: number;
  defaultDuration: number;
  /** Source of generated ids. */
  sequence: number;
}

export type ToastQueueEvent =
  | { type: 'toast.push'; toast: ToastRequest }
  | { type: 'toast.dismiss'; id: string }
  | { type: 'toast.expired'; id: string }
  | { type: 'toast.pause'; id: string }
  | { type: 'toast.resume'; id: string }
  | { type: 'toast.clear' };

export interface ToastQueueInput {
  limit?: number;
  defaultDuration?: number;
}

type Lists = Pick<ToastQueueContext, 'visible' | 'queued'>;

/** An id that no toast has (a push without one) is never known. */
function isKnown(context: Lists, id: string | undefined) {
  return context.visible.some((t) => t.id === id) || context.queued.some((t) => t.id === id);
}

/** The toast a push would add (its id generated when the caller gave none). */
function toastFromRequest(context: ToastQueueContext, request: ToastRequest): QueuedToast {
  return {
    id: request.id ?? `toast-${context.sequence + 1}`,
    duration: request.duration === undefined ? context.defaultDuration : request.duration,
    paused: false,
    content: request.content,
  };
}

/** The oldest visible toast that may be dismissed to make room (a paused one never is). */
function oldestDismissable(context: Lists): QueuedToast | undefined {
  return context.visible.find((t) => !t.paused);
}

/** Removes a toast; a visible one frees a slot that the head of the queue takes. */
export function withoutToast(context: Lists, id: string): Lists & { promoted: QueuedToast | null } {
  if (context.queued.some((t) => t.id === id)) {
    return { visible: context.visible, queued: context.queued.filter((t) => t.id !== id), promoted: null };
  }
  if (!context.visible.some((t) => t.id === id)) return { ...context, promoted: null };
  const [head, ...rest] = context.queued;
  const visible = context.visible.filter((t) => t.id !== id);
  return head ? { visible: [...visible, head], queued: rest, promoted: head } : { visible, queued: context.queued, promoted: null };
}

function setPaused(context: Lists, id: string, paused: boolean): Lists {
  const flip = (list: QueuedToast[]) => list.map((t) => (t.id === id && t.paused !== paused ? { ...t, paused } : t));
  return { visible: flip(context.visible), queued: flip(context.queued) };
}

type PushEvent = Extract<ToastQueueEvent, { type: 'toast.push' }>;

/** A shown toast with a duration has a timer: a child actor named by the toast's id. */
function timerInput(toast: QueuedToast | null | undefined): ToastTimerInput | null {
  return toast && toast.duration !== null ? { id: toast.id, duration: toast.duration } : null;
}
type IdEvent = Extract<ToastQueueEvent, { id: string }>;

export const toastQueueMachine = setup({
  types: {
    context: {} as ToastQueueContext,
    input: {} as ToastQueueInput,
    events: {} as ToastQueueEvent,
  },
  actors: {
    toastTimer: toastTimerMachine,
  },
  guards: {
    /** The pushed id is already shown or queued: its content is replaced, nothing else moves. */
    isKnownToast: ({ context, event }) => isKnown(context, (event as PushEvent).toast.id),
    hasRoom: ({ context }) => context.visible.length < context.limit,
    hasDismissable: ({ context }) => oldestDismissable(context) !== undefined,
    /**
     * After removing the event's toast nothing is shown (asked while showing, where nothing
     * waits; an unknown id removes nothing, so something stays).
     */
    isLastToast: ({ context, event }) => withoutToast(context, (event as IdEvent).id).visible.length === 0,
    /** After removing the event's toast nothing waits (asked while saturated; an unknown id removes nothing). */
    drainsQueue: ({ context, event }) => withoutToast(context, (event as IdEvent).id).queued.length === 0,
  },
  actions: {
    replaceContent: assign(({ context, event }) => {
      const { toast } = event as PushEvent;
      const replace = (list: QueuedToast[]) =>
        list.map((t) => (t.id === toast.id ? { ...t, content: toast.content, duration: toast.duration === undefined ? t.duration : toast.duration } : t));
      return { visible: replace(context.visible), queued: replace(context.queued) };
    }),
    /** Shows the pushed toast and starts its timer. */
    showToast: enqueueActions(({ context, event, enqueue }) => {
      const toast = toastFromRequest(context, (event as PushEvent).toast);
      enqueue.assign({ visible: [...context.visible, toast], sequence: context.sequence + 1 });
      const timer = timerInput(toast);
      if (timer) enqueue.spawnChild('toastTimer', { id: timer.id, input: timer });
    }),
    /** The limit is reached: the pushed toast waits in the queue. */
    queueToast: assign(({ context, event }) => ({
      queued: [...context.queued, toastFromRequest(context, (event as PushEvent).toast)],
      sequence: context.sequence + 1,
    })),
    /** Spec §4: the oldest toast is dismissed when the limit is exceeded; the queue head takes its place. */
    dismissOldest: enqueueActions(({ context, enqueue }) => {
      const oldest = oldestDismissable(context);
      if (!oldest) return;
      const next = withoutToast(context, oldest.id);
      enqueue.stopChild(oldest.id);
      enqueue.assign({ visible: next.visible, queued: next.queued });
      const timer = timerInput(next.promoted);
      if (timer) enqueue.spawnChild('toastTimer', { id: timer.id, input: timer });
    }),
    removeToast: enqueueActions(({ context, event, enqueue }) => {
      const { id } = event as IdEvent;
      const next = withoutToast(context, id);
      // Only a shown toast with a duration has a timer; stopping a child that is not there does nothing.
      enqueue.stopChild(id);
      enqueue.assign({ visible: next.visible, queued: next.queued });
      const timer = timerInput(next.promoted);
      if (timer) enqueue.spawnChild('toastTimer', { id: timer.id, input: timer });
    }),
    pauseToast: enqueueActions(({ context, event, enqueue }) => {
      const { id } = event as IdEvent;
      enqueue.assign(setPaused(context, id, true));
      if (timerInput(context.visible.find((t) => t.id === id))) enqueue.sendTo(id, { type: 'toast.pause' });
    }),
    resumeToast: enqueueActions(({ context, event, enqueue }) => {
      const { id } = event as IdEvent;
      enqueue.assign(setPaused(context, id, false));
      if (timerInput(context.visible.find((t) => t.id === id))) enqueue.sendTo(id, { type: 'toast.resume' });
    }),
    clearToasts: enqueueActions(({ context, enqueue }) => {
      for (const toast of context.visible) enqueue.stopChild(toast.id);
      enqueue.assign({ visible: [], queued: [] });
    }),
  },
}).createMachine({
  id: 'toast-queue',
  context: ({ input }) => ({
    visible: [],
    queued: [],
    limit: input?.limit ?? TOAST_LIMIT,
    defaultDuration: input?.defaultDuration ?? TOAST_AUTO_HIDE_MS,
    sequence: 0,
  }),
  initial: 'empty',
  states: {
    /** Nothing shown. */
    empty: {
      on: {
        'toast.push': { target: 'showing', actions: 'showToast' },
      },
    },
    /** One to `limit` toasts shown, none waiting. */
    showing: {
      on: {
        'toast.push': [
          { guard: 'isKnownToast', actions: 'replaceContent' },
          { guard: 'hasRoom', actions: 'showToast' },
          { guard: 'hasDismissable', actions: ['dismissOldest', 'showToast'] },
          // Every shown toast is held open by its reader: the new one waits its turn.
          { target: 'saturated', actions: 'queueToast' },
        ],
        'toast.dismiss': [{ guard: 'isLastToast', target: 'empty', actions: 'removeToast' }, { actions: 'removeToast' }],
        'toast.expired': [{ guard: 'isLastToast', target: 'empty', actions: 'removeToast' }, { actions: 'removeToast' }],
        'toast.pause': { actions: 'pauseToast' },
        'toast.resume': { actions: 'resumeToast' },
        'toast.clear': { target: 'empty', actions: 'clearToasts' },
      },
    },
    /** The limit is shown and more toasts wait; each freed slot goes to the head of the queue. */
    saturated: {
      on: {
        'toast.push': [
          { guard: 'isKnownToast', actions: 'replaceContent' },
          { guard: 'hasDismissable', actions: ['queueToast', 'dismissOldest'] },
          { actions: 'queueToast' },
        ],
        'toast.dismiss': [{ guard: 'drainsQueue', target: 'showing', actions: 'removeToast' }, { actions: 'removeToast' }],
        'toast.expired': [{ guard: 'drainsQueue', target: 'showing', actions: 'removeToast' }, { actions: 'removeToast' }],
        'toast.pause': { actions: 'pauseToast' },
        'toast.resume': { actions: 'resumeToast' },
        'toast.clear': { target: 'empty', actions: 'clearToasts' },
      },
    },
  },
});

export type ToastQueueMachine = typeof toastQueueMachine;

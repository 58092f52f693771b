import type { SnapshotFrom } from 'xstate';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';
import { toastQueueMachine, toastTimerMachine, type ToastQueueEvent } from './toast-queue.machine.ts';

type QueueSnapshot = SnapshotFrom<typeof toastQueueMachine>;
/** `role` is for the graph only (the machine ignores it): which of the toasts an id names. */
export type ToastQueueModelEvent = ToastQueueEvent & { role?: 'shown' | 'queued' };

/** How many toasts may wait in the model (the real queue is unbounded; two show every rule). */
const MODEL_QUEUE_BOUND = 2;

/**
 * The toast-queue graph, abstracted to what its rules look at: how many toasts are shown,
 * which of them are held open, and how many wait. Ids and contents are left out, so events
 * are named by role ("dismiss the oldest shown toast"), and a replay picks the concrete id
 * from the live actor with `events`.
 */
export const toastQueueGraph = {
  exhaustive: true,
  serializeState: (snapshot: QueueSnapshot) =>
    JSON.stringify({
      value: snapshot.value,
      visible: snapshot.context.visible.map((t) => (t.paused ? 'held' : 'running')),
      queued: snapshot.context.queued.length,
    }),
  serializeEvent: (event: ToastQueueModelEvent) => {
    if (event.type === 'toast.push') return event.toast.id ? 'toast.push(again)' : 'toast.push';
    return event.role ? `${event.type}(${event.role})` : event.type;
  },
  events: (snapshot: QueueSnapshot): ToastQueueModelEvent[] => {
    const { visible, queued, sequence } = snapshot.context;
    const events: ToastQueueModelEvent[] = [];
    if (queued.length < MODEL_QUEUE_BOUND) events.push({ type: 'toast.push', toast: { content: `toast ${sequence + 1}` } });
    const first = visible[0] ?? queued[0];
    if (first) events.push({ type: 'toast.push', toast: { id: first.id, content: `${first.id} again` } });
    const running = visible.find((t) => !t.paused);
    const held = visible.find((t) => t.paused);
    if (visible[0]) events.push({ type: 'toast.dismiss', id: visible[0].id, role: 'shown' });
    if (queued[0]) events.push({ type: 'toast.dismiss', id: queued[0].id, role: 'queued' });
    if (running) {
      events.push({ type: 'toast.expired', id: running.id });
      events.push({ type: 'toast.pause', id: running.id });
    }
    if (held) events.push({ type: 'toast.resume', id: held.id });
    events.push({ type: 'toast.clear' });
    return events;
  },
};

export function toastQueueModel() {
  return createMachineTestModel(toastQueueMachine, toastQueueGraph as never);
}

/** Paths taking every edge of the queue's graph (as abstracted above). */
export function toastQueueTestPaths() {
  return transitionCoveringPaths(toastQueueModel());
}

/** The timer of one toast: counts, pauses, resumes, expires. */
export function toastTimerTestPaths() {
  // Alone in the graph the timer has no queue to tell when it expires.
  const standalone = toastTimerMachine.provide({ actions: { reportExpired: () => {} } });
  return transitionCoveringPaths(createMachineTestModel(standalone, { input: { id: 'toast-1', duration: 5000 } }));
}

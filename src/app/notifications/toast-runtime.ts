import { createActor } from 'xstate';
import { toastQueueMachine } from '#machines/toast-queue.machine.ts';
import { registerLiveActor } from '#src/app/live-actors.ts';
import { i18n } from '#src/i18n/i18n.ts';
import type { ToastContent } from './toast-content.ts';

/** The app's one toast queue (loaded with the first toast). */
export const toastActor = createActor(toastQueueMachine, { input: {}, systemId: 'toast-queue' }).start();
registerLiveActor('toast-queue', toastQueueMachine, toastActor);

let sequence = 0;

/** Queues a toast once its texts can render (the namespaces load on first use). */
export async function pushToast(content: ToastContent, options: { id?: string; duration: number | null }): Promise<string> {
  const id = options.id ?? `toast-${Date.now().toString(36)}-${++sequence}`;
  await i18n.loadNamespaces(['errors', 'notifications']);
  toastActor.send({ type: 'toast.push', toast: { id, duration: options.duration, content } });
  return id;
}

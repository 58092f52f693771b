import { createStore } from '@xstate/store';
import type { QueuedSave } from '#machines/delivery-autosave.machine.ts';
import { clientPersistence } from '#src/app/stores/persisted-state.ts';
import { storeSlice } from '#src/lib/persistence/adapters.ts';

/**
 * The candidate's unacknowledged saves, per delivery, in the app's encrypted client state
 * (docs/decisions/0012, 0244): a reload or a closed tab while offline loses no answer. The
 * autosave actor's queue is written here on every change; the screen starts its actor from it
 * and drops it once the delivery has ended. Registered when the sitting's code loads, so the
 * first render does not carry it.
 */
type Queues = Record<string, QueuedSave[]>;

const isSave = (value: unknown): value is QueuedSave => {
  const save = value as QueuedSave | null;
  return (
    typeof save === 'object' &&
    save !== null &&
    typeof save.saveId === 'string' &&
    Number.isInteger(save.itemNumber) &&
    Number.isInteger(save.sequence) &&
    typeof save.marked === 'boolean'
  );
};

export const offlineQueueStore = createStore({
  context: { queues: {} as Queues },
  on: {
    keep: (context, event: { deliveryId: number; saves: QueuedSave[] }) => {
      const queues = { ...context.queues };
      if (event.saves.length) queues[event.deliveryId] = event.saves.map((s) => ({ ...s }));
      else delete queues[event.deliveryId];
      return { queues };
    },
    /** Restores what was saved; anything that is not a list of saves is dropped. */
    hydrate: (_context, event: { state: unknown }) => {
      const saved = (event.state as { queues?: unknown } | null)?.queues;
      const queues: Queues = {};
      if (saved && typeof saved === 'object') for (const [id, list] of Object.entries(saved)) if (Array.isArray(list) && list.every(isSave)) queues[id] = list;
      return { queues };
    },
  },
});

clientPersistence.register('deliveryQueue', storeSlice(offlineQueueStore, { restore: (value) => offlineQueueStore.trigger.hydrate({ state: value }) }));

export const queuedSaves = (deliveryId: number): QueuedSave[] => offlineQueueStore.getSnapshot().context.queues[deliveryId] ?? [];
export const keepQueue = (deliveryId: number, saves: QueuedSave[]) => offlineQueueStore.trigger.keep({ deliveryId, saves });

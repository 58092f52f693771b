import type { EventObject } from 'xstate';
import { autosaveMachine, type AutosaveEvent } from './delivery-autosave.machine.ts';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';

/**
 * The autosave queue's model: changes to two questions, a navigation, the browser going off and
 * on line, the screen's resume, and each way a batch call can end (taken; taken while another
 * device stored a higher sequence; refused with 409; failed with no answer).
 */
export const autosaveModelEvents: Array<AutosaveEvent | EventObject> = [
  { type: 'answer', itemNumber: 1, response: 'A', marked: false },
  { type: 'answer', itemNumber: 2, response: 'B', marked: true },
  { type: 'flush' },
  { type: 'online' },
  { type: 'offline' },
  { type: 'resume' },
  { type: 'xstate.done.actor.saveBatch', output: { acknowledged: [] } } as EventObject,
  { type: 'xstate.done.actor.saveBatch', output: { acknowledged: [], stored: [{ itemNumber: 1, storedSequence: 7 }] } } as EventObject,
  { type: 'xstate.error.actor.saveBatch', error: { status: 409 } } as EventObject,
  { type: 'xstate.error.actor.saveBatch', error: { status: null } } as EventObject,
];

export function autosaveModel() {
  let n = 0;
  return createMachineTestModel(autosaveMachine, {
    input: { sequences: {}, newId: () => `save-${(n += 1)}` },
    events: () => autosaveModelEvents as AutosaveEvent[],
    // Ids and sequences grow on every change: a node is the state, which questions wait, which are out.
    serializeState: (s) => JSON.stringify([s.value, Object.keys(s.context.pending).sort(), s.context.sending.map((q) => q.itemNumber).sort()]),
    serializeEvent: (e) => {
      const event = e as EventObject & { itemNumber?: number; output?: { stored?: unknown[] }; error?: { status: number | null } };
      if (event.type === 'answer') return `answer ${event.itemNumber}`;
      if (event.type.startsWith('xstate.done.')) return event.output?.stored ? 'done (a higher sequence stored)' : 'done';
      if (event.type.startsWith('xstate.error.')) return `error ${event.error?.status ?? 'network'}`;
      return event.type;
    },
  });
}

export function autosaveTestPaths() {
  return transitionCoveringPaths(autosaveModel());
}

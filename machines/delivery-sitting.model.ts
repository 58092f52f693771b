import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';
import { sittingMachine, type SittingEvent, type SittingInput } from './delivery-sitting.machine.ts';

const SERVER_NOW = '2027-03-10T10:00:00.000Z';
const BROWSER_NOW = Date.parse(SERVER_NOW);

/** A delivery running with 30 minutes left, no answers yet. */
export const sittingModelInput: SittingInput = {
  autosave: { newId: () => 'save-1' },
  timing: { status: 'Active', serverNow: SERVER_NOW, deadline: '2027-03-10T10:30:00.000Z', remainingMs: 30 * 60_000 },
  receivedAt: BROWSER_NOW,
  now: () => BROWSER_NOW,
};

export const sittingModelEvents: SittingEvent[] = [
  { type: 'offline' },
  { type: 'online' },
  { type: 'timing', timing: { status: 'Paused', serverNow: SERVER_NOW, deadline: null, remainingMs: 20 * 60_000 }, receivedAt: BROWSER_NOW },
  { type: 'report', kind: 'focusLost' },
  { type: 'end' },
];

export function sittingModel() {
  return createMachineTestModel(sittingMachine, {
    input: sittingModelInput,
    events: (snapshot) => (snapshot.status === 'done' ? [] : sittingModelEvents),
    exhaustive: true,
    serializeState: (s) => JSON.stringify(s.value),
    serializeEvent: (e) => e.type,
  });
}

export function sittingTestPaths() {
  return transitionCoveringPaths(sittingModel());
}

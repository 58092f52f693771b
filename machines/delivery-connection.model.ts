import type { EventObject } from 'xstate';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';
import { connectionMachine, type ConnectionEvent } from './delivery-connection.machine.ts';

/** What the server answers a telemetry call in the model: the delivery runs, 30 minutes left. */
export const connectionModelTiming = {
  status: 'Active' as const,
  serverNow: '2027-03-10T10:00:00.000Z',
  deadline: '2027-03-10T10:30:00.000Z',
  remainingMs: 30 * 60_000,
};

export const connectionModelEvents: Array<ConnectionEvent | EventObject> = [
  { type: 'report', kind: 'focusLost' },
  { type: 'status', paused: true },
  { type: 'status', paused: false },
  { type: 'online' },
  { type: 'offline' },
  { type: 'xstate.done.actor.sendTelemetry', output: connectionModelTiming } as EventObject,
  { type: 'xstate.error.actor.sendTelemetry', error: new TypeError('Failed to fetch') } as EventObject,
];

export function connectionModel() {
  return createMachineTestModel(connectionMachine, {
    input: { now: () => Date.parse('2027-03-10T10:00:00.000Z') },
    events: () => connectionModelEvents as ConnectionEvent[],
    // Reports pile up on some paths: a node is the state, whether any wait, paused, and down.
    serializeState: (s) => JSON.stringify([s.value, s.context.reports.length > 0, s.context.paused, s.context.downSince !== null]),
    serializeEvent: (e) => (e.type === 'status' ? `status ${(e as { paused: boolean }).paused ? 'paused' : 'running'}` : e.type),
  });
}

export function connectionTestPaths() {
  return transitionCoveringPaths(connectionModel());
}

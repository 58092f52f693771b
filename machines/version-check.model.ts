import type { EventObject } from 'xstate';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';
import { CURRENT_VERSION, versionCheckMachine } from './version-check.machine.ts';

/** What /meta.json may say in the model: newer, the same, older; or the fetch fails. */
export const versionCheckModelEvents: EventObject[] = [
  { type: 'xstate.done.actor.fetchDeployedVersion', output: { version: '1.2.300' } } as EventObject,
  { type: 'xstate.done.actor.fetchDeployedVersion', output: { version: CURRENT_VERSION } } as EventObject,
  { type: 'xstate.done.actor.fetchDeployedVersion', output: { version: '1.2.9' } } as EventObject,
  { type: 'xstate.error.actor.fetchDeployedVersion', error: new Error('GET /meta.json answered 503') } as EventObject,
  { type: 'xstate.done.actor.clearCaches', output: 2 } as EventObject,
  { type: 'xstate.error.actor.clearCaches', error: new Error('SecurityError') } as EventObject,
];

export function versionCheckModel(reloadedFor: string | null) {
  return createMachineTestModel(versionCheckMachine, {
    input: { currentVersion: CURRENT_VERSION, reloadedFor },
    events: () => versionCheckModelEvents,
  });
}

/**
 * Paths taking every edge, for a first visit and for a tab that already reloaded for 1.2.300
 * (where reloading again would loop).
 */
export function versionCheckTestPaths() {
  return [...transitionCoveringPaths(versionCheckModel(null)), ...transitionCoveringPaths(versionCheckModel('1.2.300'))];
}

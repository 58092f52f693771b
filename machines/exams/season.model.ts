import { createMachineTestModel, transitionCoveringPaths } from '../test-model.ts';
import { seasonMachine, type SeasonEvent } from './season.machine.ts';

/**
 * The events the model-based tests send to the season lifecycle: each event type once, from a
 * party allowed to send it and with what it must carry. Shared by the machine test, the HTTP
 * replay and the /machines page, so the listed paths are the walked ones.
 */
export const seasonModelEvents: SeasonEvent[] = [
  { type: 'season.openRegistration', by: { projectAdmin: true }, readiness: { projectStatus: 'Active', papers: 2, seats: 300 } },
  { type: 'season.closeRegistration', by: { examManager: true } },
  { type: 'season.reopenRegistration', by: { projectAdmin: true }, reason: 'Two centers were added late' },
  { type: 'season.start', by: { examManager: true } },
  { type: 'season.complete', by: { projectAdmin: true } },
  { type: 'season.configure', by: { centerManager: true } },
];

export function seasonModel() {
  return createMachineTestModel(seasonMachine, {
    events: (snapshot) => seasonModelEvents.filter((event) => snapshot.can(event)),
    exhaustive: true,
  });
}

/** Paths that walk every transition (self-transitions included) of the season lifecycle. */
export function seasonTestPaths() {
  return transitionCoveringPaths(seasonModel());
}

import { createMachineTestModel, transitionCoveringPaths } from '../test-model.ts';
import { paperFlowMachine, type PaperEvent } from './paper-flow.machine.ts';

/**
 * The events the model-based tests send to the paper flow: each event type once, from a party
 * allowed to send it and with what it must carry. Shared by the machine tests, the HTTP replay
 * and the /machines page, so the listed paths are the walked ones.
 */
export const paperModelEvents: PaperEvent[] = [
  { type: 'paper.edit', by: { paperSetter: true } },
  { type: 'paper.submit', by: { paperSetter: true } },
  { type: 'paper.requestChanges', by: { moderator: true }, reason: 'Section B needs two more hard items' },
  { type: 'paper.lock', by: { moderator: true }, problems: 0 },
  { type: 'paper.unlock', by: { projectAdmin: true }, reason: 'Question 12 has a typo in Hindi' },
  { type: 'paper.generateSets', by: { paperSetter: true } },
  { type: 'paper.publish', by: { moderator: true }, sets: 4 },
];

export function paperFlowModel() {
  return createMachineTestModel(paperFlowMachine, {
    events: (snapshot) => paperModelEvents.filter((event) => snapshot.can(event)),
    exhaustive: true,
  });
}

/** Paths that walk every transition (self-transitions included) of the paper flow. */
export function paperFlowTestPaths() {
  return transitionCoveringPaths(paperFlowModel());
}

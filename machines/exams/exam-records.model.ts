import { createMachineTestModel, transitionCoveringPaths } from '../test-model.ts';
import { compileFlow, flowModelEvents, type FlowDefinition } from './review-flow.machine.ts';
import { examStatusMachine, type ExamEvent } from './exam-status.machine.ts';
import { projectStatusMachine, type ProjectEvent } from './project-status.machine.ts';

/**
 * The events the model-based tests send to the project and exam lifecycles: each event type
 * once, from a party allowed to send it and with what it must carry. Shared by the machine
 * tests, the HTTP replays and the /machines page, so the listed paths are the walked ones.
 */
export const projectModelEvents: ProjectEvent[] = [
  { type: 'project.startSetup', by: { projectAdmin: true } },
  { type: 'project.activate', by: { projectAdmin: true }, setup: { itemTypes: 1, categories: 1 } },
  { type: 'project.close', by: { projectAdmin: true } },
  { type: 'project.reopen', by: { projectAdmin: true }, setup: { itemTypes: 1, categories: 1 } },
  // A Closed project without what items need reopens into Setup (docs/decisions/0165).
  { type: 'project.reopen', by: { projectAdmin: true }, setup: { itemTypes: 0, categories: 0 } },
  { type: 'project.archive', by: { tenantManager: true } },
  { type: 'project.restore', by: { tenantManager: true } },
  { type: 'project.edit', by: { projectAdmin: true } },
  { type: 'project.configure', by: { projectAdmin: true } },
];

export const examModelEvents: ExamEvent[] = [
  { type: 'exam.schedule', by: { projectAdmin: true }, projectStatus: 'Active' },
  { type: 'exam.unschedule', by: { projectAdmin: true } },
  { type: 'exam.start', by: { examManager: true }, projectStatus: 'Active' },
  { type: 'exam.end', by: { examManager: true } },
  { type: 'exam.publishResults', by: { moderator: true } },
  { type: 'exam.withdrawResults', by: { moderator: true }, reason: 'A key error in question 14' },
  { type: 'exam.close', by: { projectAdmin: true } },
  { type: 'exam.edit', by: { projectAdmin: true } },
];

export function projectStatusModel() {
  return createMachineTestModel(projectStatusMachine, {
    // Only what the state takes: refused events are the refusal tests' business, not paths.
    events: (snapshot) => projectModelEvents.filter((event) => snapshot.can(event)),
    exhaustive: true,
  });
}

export function examStatusModel() {
  return createMachineTestModel(examStatusMachine, {
    events: (snapshot) => examModelEvents.filter((event) => snapshot.can(event)),
    exhaustive: true,
  });
}

/** Paths that walk every transition (self-transitions included) of the project lifecycle. */
export function projectStatusTestPaths() {
  return transitionCoveringPaths(projectStatusModel());
}

export function examStatusTestPaths() {
  return transitionCoveringPaths(examStatusModel());
}

/** Paths that walk every transition of a compiled review flow (the /machines page lists them per flow). */
export function flowTestPaths(definition: FlowDefinition, flowId: string | number = 'preview') {
  const machine = compileFlow(definition, flowId);
  const events = flowModelEvents(definition);
  return transitionCoveringPaths(
    createMachineTestModel(machine, {
      events: (snapshot) => events.filter((event) => snapshot.can(event)),
      exhaustive: true,
    }),
  );
}

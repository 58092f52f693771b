import { setup, transition, type AnyStateMachine } from 'xstate';
import { examPermissionNames, type ExamPermission } from '../permissions.ts';

/**
 * Review flows (EXAMS.md §2 "Flow", docs/decisions/0092): a project admin defines ordered
 * stages (e.g. Author review → Subject expert → Approver), the exam permission that acts at
 * each, who submits drafts and who may retire. `compileFlow` turns a definition into an XState
 * machine at run time; the server restores it at a record's stored stage and accepts an event
 * only when the machine takes it for that caller, as it does for the ticket lifecycle.
 *
 * States: `Draft` → one state per stage, in order → `Approved`; `Retired` is final.
 * - `flow.submit` (Draft → first stage) by the submit permission;
 * - `flow.approve` (a stage → the next, the last → Approved) by that stage's permission;
 * - `flow.requestChanges` (a stage → Draft, with a comment) by that stage's permission;
 * - `flow.retire` (Draft, any stage or Approved → Retired) by the retire permission.
 */

export const FLOW_FIXED_STATES = ['Draft', 'Approved', 'Retired'] as const;
export const FLOW_LIMITS = { stages: 10, nameLength: 100 } as const;
/** Stage ids become state keys: no dots or hashes (XState path and id syntax). */
export const STAGE_ID_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,39}$';

export interface FlowStage {
  id: string;
  name: string;
  permission: ExamPermission;
}

export interface FlowDefinition {
  stages: FlowStage[];
  submitPermission: ExamPermission;
  retirePermission: ExamPermission;
}

export type FlowEvent =
  | { type: 'flow.submit'; by: readonly ExamPermission[] }
  | { type: 'flow.approve'; by: readonly ExamPermission[] }
  | { type: 'flow.requestChanges'; by: readonly ExamPermission[]; comment: string }
  | { type: 'flow.retire'; by: readonly ExamPermission[] };
export type FlowEventType = FlowEvent['type'];

/** Problems that make a definition unusable (empty when it compiles). */
export function checkFlowDefinition(definition: FlowDefinition): string[] {
  const issues: string[] = [];
  if (definition.stages.length < 1) issues.push('A flow needs at least one stage.');
  if (definition.stages.length > FLOW_LIMITS.stages) issues.push(`A flow has at most ${FLOW_LIMITS.stages} stages.`);
  const seen = new Set<string>();
  const idPattern = new RegExp(STAGE_ID_PATTERN);
  for (const [index, stage] of definition.stages.entries()) {
    if (!idPattern.test(stage.id)) issues.push(`stages[${index}].id "${stage.id}" must start with a letter and use letters, digits, _ or - (at most 40).`);
    if ((FLOW_FIXED_STATES as readonly string[]).includes(stage.id))
      issues.push(`stages[${index}].id "${stage.id}" is reserved (Draft, Approved and Retired are fixed states).`);
    if (seen.has(stage.id)) issues.push(`stages[${index}].id "${stage.id}" is used twice.`);
    seen.add(stage.id);
    if (!stage.name.trim()) issues.push(`stages[${index}].name is required.`);
    if (!examPermissionNames.includes(stage.permission)) issues.push(`stages[${index}].permission "${stage.permission}" is not an exam permission.`);
  }
  for (const field of ['submitPermission', 'retirePermission'] as const) {
    if (!examPermissionNames.includes(definition[field])) issues.push(`${field} "${definition[field]}" is not an exam permission.`);
  }
  return issues;
}

const holds = (event: FlowEvent, permission: ExamPermission) => event.by.includes(permission);
const hasComment = (event: FlowEvent) => event.type === 'flow.requestChanges' && typeof event.comment === 'string' && event.comment.trim().length > 0;

/** The flow as a machine (`id`: `flow-<flowId>`). Throws on a definition `checkFlowDefinition` refuses. */
export function compileFlow(definition: FlowDefinition, flowId: string | number = 'preview') {
  const issues = checkFlowDefinition(definition);
  if (issues.length) throw new Error(`Invalid flow: ${issues.join(' ')}`);
  const { stages, submitPermission, retirePermission } = definition;
  const stageStates = Object.fromEntries(
    stages.map((stage, index) => [
      stage.id,
      {
        tags: ['inReview'],
        description: `${stage.name} (${stage.permission})`,
        on: {
          'flow.approve': {
            target: index + 1 < stages.length ? stages[index + 1].id : 'Approved',
            guard: { type: 'holds', params: { permission: stage.permission } },
          },
          'flow.requestChanges': { target: 'Draft', guard: { type: 'holdsWithComment', params: { permission: stage.permission } } },
          'flow.retire': { target: 'Retired', guard: { type: 'holds', params: { permission: retirePermission } } },
        },
      },
    ]),
  );
  return setup({
    types: { events: {} as FlowEvent },
    guards: {
      holds: ({ event }, params: { permission: ExamPermission }) => holds(event, params.permission),
      holdsWithComment: ({ event }, params: { permission: ExamPermission }) => holds(event, params.permission) && hasComment(event),
    },
  }).createMachine({
    id: `flow-${flowId}`,
    initial: 'Draft',
    states: {
      Draft: {
        tags: ['editable'],
        on: {
          'flow.submit': { target: stages[0].id, guard: { type: 'holds', params: { permission: submitPermission } } },
          'flow.retire': { target: 'Retired', guard: { type: 'holds', params: { permission: retirePermission } } },
        },
      },
      ...stageStates,
      Approved: {
        tags: ['approved'],
        on: { 'flow.retire': { target: 'Retired', guard: { type: 'holds', params: { permission: retirePermission } } } },
      },
      Retired: { tags: ['retired'], type: 'final' },
    },
  } as never) as unknown as AnyStateMachine;
}

export type FlowDecision =
  { accepted: true; from: string; to: string } | { accepted: false; reason: 'stage' | 'permission' | 'fields' | 'unknownStage'; from: string };

/** Whether a record at `stage` may take `event` from a caller holding `event.by`, and where it goes. */
export function decideFlow(machine: AnyStateMachine, stage: string, event: FlowEvent): FlowDecision {
  if (!(stage in machine.states)) return { accepted: false, reason: 'unknownStage', from: stage };
  const snapshot = machine.resolveState({ value: stage, context: {} });
  if (snapshot.can(event)) {
    const [next] = transition(machine, snapshot, event);
    return { accepted: true, from: stage, to: next.value as string };
  }
  const node = machine.states[stage];
  if (!node.transitions.has(event.type)) return { accepted: false, reason: 'stage', from: stage };
  // The comment is what is missing when the same request with one would pass. (A request that
  // had a comment already failed `can` above with it, so it needs no separate check.)
  if (event.type === 'flow.requestChanges' && snapshot.can({ ...event, comment: 'x' })) return { accepted: false, reason: 'fields', from: stage };
  return { accepted: false, reason: 'permission', from: stage };
}

/** Every state of a flow in order: Draft, the stages, Approved, Retired. */
export function flowStates(definition: FlowDefinition): string[] {
  return ['Draft', ...definition.stages.map((s) => s.id), 'Approved', 'Retired'];
}

/**
 * Where a record stands after its flow is edited, so an edit never strands it
 * (docs/decisions/0092): a stage that still exists keeps its records; a record in a removed
 * stage moves back to the nearest earlier stage of the old flow that still exists, else to
 * Draft — never forward, so nothing is approved by an edit. Draft, Approved and Retired stay.
 */
export function relocateStage(previous: FlowDefinition, next: FlowDefinition, stage: string): string {
  if ((FLOW_FIXED_STATES as readonly string[]).includes(stage)) return stage;
  const surviving = new Set(next.stages.map((s) => s.id));
  if (surviving.has(stage)) return stage;
  const index = previous.stages.findIndex((s) => s.id === stage);
  for (let i = index - 1; i >= 0; i -= 1) {
    if (surviving.has(previous.stages[i].id)) return previous.stages[i].id;
  }
  return 'Draft';
}

/**
 * The events the model-based paths of a flow send: each event once per permission the flow
 * uses, so every guarded edge is tried by someone allowed and someone not.
 */
export function flowModelEvents(definition: FlowDefinition): FlowEvent[] {
  const permissions = [...new Set([definition.submitPermission, definition.retirePermission, ...definition.stages.map((s) => s.permission)])];
  return permissions.flatMap((permission) => [
    { type: 'flow.submit', by: [permission] },
    { type: 'flow.approve', by: [permission] },
    { type: 'flow.requestChanges', by: [permission], comment: 'Option C is also defensible; tighten the stem.' },
    { type: 'flow.retire', by: [permission] },
  ]);
}

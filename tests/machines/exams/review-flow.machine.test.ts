import { describe, expect, it } from 'vitest';
import { flowTestPaths } from '#machines/exams/exam-records.model.ts';
import {
  checkFlowDefinition,
  compileFlow,
  decideFlow,
  flowStates,
  relocateStage,
  type FlowDefinition,
  type FlowEvent,
} from '#machines/exams/review-flow.machine.ts';
import type { ExamPermission } from '#machines/permissions.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';

const threeStages: FlowDefinition = {
  stages: [
    { id: 'review', name: 'Peer review', permission: 'ItemReviewer' },
    { id: 'expert', name: 'Subject expert', permission: 'Moderator' },
    { id: 'approve', name: 'Approval', permission: 'ProjectAdmin' },
  ],
  submitPermission: 'ItemAuthor',
  retirePermission: 'ProjectAdmin',
};

/**
 * What the three-stage flow must do, written by hand from EXAMS.md §2 (not read off the
 * compiled machine): [from, event, permission, expected stage or null for refused].
 */
const expectations: Array<[string, FlowEvent['type'], ExamPermission, string | null]> = [
  ['Draft', 'flow.submit', 'ItemAuthor', 'review'],
  ['Draft', 'flow.submit', 'ItemReviewer', null],
  ['Draft', 'flow.approve', 'ProjectAdmin', null],
  ['Draft', 'flow.retire', 'ProjectAdmin', 'Retired'],
  ['Draft', 'flow.retire', 'ItemAuthor', null],
  ['review', 'flow.approve', 'ItemReviewer', 'expert'],
  ['review', 'flow.approve', 'ItemAuthor', null],
  ['review', 'flow.approve', 'Moderator', null],
  ['review', 'flow.requestChanges', 'ItemReviewer', 'Draft'],
  ['review', 'flow.submit', 'ItemAuthor', null],
  ['review', 'flow.retire', 'ProjectAdmin', 'Retired'],
  ['review', 'flow.retire', 'ItemReviewer', null],
  ['expert', 'flow.approve', 'Moderator', 'approve'],
  ['expert', 'flow.approve', 'ItemReviewer', null],
  ['expert', 'flow.requestChanges', 'Moderator', 'Draft'],
  ['expert', 'flow.retire', 'ProjectAdmin', 'Retired'],
  ['expert', 'flow.retire', 'Moderator', null],
  ['approve', 'flow.approve', 'ProjectAdmin', 'Approved'],
  ['approve', 'flow.requestChanges', 'ProjectAdmin', 'Draft'],
  ['approve', 'flow.retire', 'ProjectAdmin', 'Retired'],
  ['Approved', 'flow.retire', 'ProjectAdmin', 'Retired'],
  ['Approved', 'flow.approve', 'ProjectAdmin', null],
  ['Approved', 'flow.requestChanges', 'ProjectAdmin', null],
  ['Retired', 'flow.retire', 'ProjectAdmin', null],
  ['Retired', 'flow.submit', 'ItemAuthor', null],
];

const event = (type: FlowEvent['type'], permission: ExamPermission): FlowEvent =>
  type === 'flow.requestChanges' ? { type, by: [permission], comment: 'Distractor B is ambiguous.' } : ({ type, by: [permission] } as FlowEvent);

describe('review flow compiled to a machine', () => {
  const machine = compileFlow(threeStages, 7);

  it('should name the machine after the flow and order its states Draft, stages, Approved, Retired', () => {
    expect(machine.id).toBe('flow-7');
    expect(Object.keys(machine.states)).toEqual(['Draft', 'review', 'expert', 'approve', 'Approved', 'Retired']);
    expect(flowStates(threeStages)).toEqual(['Draft', 'review', 'expert', 'approve', 'Approved', 'Retired']);
  });

  it('should take exactly the transitions written down by hand, for exactly the permissions named', () => {
    const wrong = expectations.filter(([from, type, permission, to]) => {
      const decision = decideFlow(machine, from, event(type, permission));
      return (decision.accepted ? decision.to : null) !== to;
    });
    expect(wrong).toEqual([]);
  });

  it('should refuse request-changes without a comment as missing fields, and an unknown stage as such', () => {
    expect(decideFlow(machine, 'review', { type: 'flow.requestChanges', by: ['ItemReviewer'], comment: ' ' })).toEqual({
      accepted: false,
      reason: 'fields',
      from: 'review',
    });
    expect(decideFlow(machine, 'gone', { type: 'flow.approve', by: ['ProjectAdmin'] })).toMatchObject({ reason: 'unknownStage' });
    expect(decideFlow(machine, 'review', { type: 'flow.approve', by: ['ItemAuthor'] })).toMatchObject({ reason: 'permission' });
    expect(decideFlow(machine, 'Approved', { type: 'flow.approve', by: ['ProjectAdmin'] })).toMatchObject({ reason: 'stage' });
  });

  it('should refuse request-changes without a comment from a caller who may not request changes as a permission matter', () => {
    expect(decideFlow(machine, 'review', { type: 'flow.requestChanges', by: ['ItemAuthor'], comment: '' })).toEqual({
      accepted: false,
      reason: 'permission',
      from: 'review',
    });
    expect(decideFlow(machine, 'review', { type: 'flow.requestChanges', by: ['ItemAuthor'], comment: 'Looks wrong' })).toEqual({
      accepted: false,
      reason: 'permission',
      from: 'review',
    });
  });

  it('should refuse request-changes with no comment at all as a missing field, not fail', () => {
    for (const comment of [undefined, null, 5]) {
      const sent = { type: 'flow.requestChanges', by: ['Moderator'], comment } as unknown as FlowEvent;
      expect(decideFlow(machine, 'expert', sent), String(comment)).toEqual({ accepted: false, reason: 'fields', from: 'expert' });
    }
  });

  it('should answer an unknown stage with a refusal, not a decision', () => {
    expect(decideFlow(machine, 'gone', { type: 'flow.retire', by: ['ProjectAdmin'] })).toEqual({ accepted: false, reason: 'unknownStage', from: 'gone' });
  });

  it('should tag every stage in review and describe it by its name and the permission that moves it on', () => {
    const flow = compileFlow(threeStages, 7);
    for (const stage of threeStages.stages) {
      expect(flow.resolveState({ value: stage.id, context: {} }).hasTag('inReview'), stage.id).toBe(true);
      expect(flow.states[stage.id].description).toBe(`${stage.name} (${stage.permission})`);
    }
    expect(flow.resolveState({ value: 'Draft', context: {} }).hasTag('inReview')).toBe(false);
  });

  it('should name a flow compiled without an id the preview flow', () => {
    expect(compileFlow(threeStages).id).toBe('flow-preview');
  });

  it('should refuse definitions that cannot compile, saying why', () => {
    expect(checkFlowDefinition({ ...threeStages, stages: [] })).toEqual(['A flow needs at least one stage.']);
    expect(
      checkFlowDefinition({
        ...threeStages,
        stages: [
          { id: 'Approved', name: 'x', permission: 'Moderator' },
          { id: 'a.b', name: 'y', permission: 'Moderator' },
          { id: 'dup', name: 'z', permission: 'Moderator' },
          { id: 'dup', name: ' ', permission: 'Wizard' as ExamPermission },
        ],
      }),
    ).toEqual([
      'stages[0].id "Approved" is reserved (Draft, Approved and Retired are fixed states).',
      'stages[1].id "a.b" must start with a letter and use letters, digits, _ or - (at most 40).',
      'stages[3].id "dup" is used twice.',
      'stages[3].name is required.',
      'stages[3].permission "Wizard" is not an exam permission.',
    ]);
    expect(() => compileFlow({ ...threeStages, stages: [] })).toThrow('Invalid flow: A flow needs at least one stage.');
  });

  it('should compile a flow of one stage and of up to ten, and refuse eleven', () => {
    const stage = (n: number) => ({ id: `s${n}`, name: `Stage ${n}`, permission: 'Moderator' as const });
    const stages = (count: number) => Array.from({ length: count }, (_, n) => stage(n + 1));
    expect(checkFlowDefinition({ ...threeStages, stages: stages(1) })).toEqual([]);
    expect(Object.keys(compileFlow({ ...threeStages, stages: stages(1) }).states)).toEqual(['Draft', 's1', 'Approved', 'Retired']);
    expect(checkFlowDefinition({ ...threeStages, stages: stages(10) })).toEqual([]);
    expect(checkFlowDefinition({ ...threeStages, stages: stages(11) })).toEqual(['A flow has at most 10 stages.']);
  });

  it('should refuse submit and retire permissions that are not exam permissions, joining all issues in the error', () => {
    const definition = { ...threeStages, submitPermission: 'Author' as ExamPermission, retirePermission: 'Owner' as ExamPermission };
    expect(checkFlowDefinition(definition)).toEqual([
      'submitPermission "Author" is not an exam permission.',
      'retirePermission "Owner" is not an exam permission.',
    ]);
    expect(() => compileFlow(definition)).toThrow(
      'Invalid flow: submitPermission "Author" is not an exam permission. retirePermission "Owner" is not an exam permission.',
    );
  });

  it('should walk every transition on its model paths, each step as the hand-written table expects', () => {
    const paths = flowTestPaths(threeStages, 'example');
    const walked = new Set<string>();
    for (const path of paths) {
      for (let i = 1; i < path.steps.length; i += 1) {
        const from = path.steps[i - 1].state.value as string;
        const sent = path.steps[i].event as FlowEvent;
        const row = expectations.find(([f, type, permission]) => f === from && type === sent.type && sent.by.includes(permission));
        expect(row, `${from} ${sent.type} by ${sent.by.join()}`).toBeDefined();
        expect(path.steps[i].state.value).toBe(row![3]);
        walked.add(`${from} ${sent.type}`);
      }
    }
    const accepted = expectations.filter(([, , , to]) => to !== null).map(([from, type]) => `${from} ${type}`);
    expect([...walked].sort()).toEqual([...new Set(accepted)].sort());
    const report = reportMachineCoverage(compileFlow(threeStages, 'example'), paths);
    expect(report.transitions.covered).toEqual(report.transitions.total);
  });
});

describe('relocateStage (editing a flow never strands a record)', () => {
  const twoStages: FlowDefinition = { ...threeStages, stages: [threeStages.stages[0], threeStages.stages[2]] };

  it('should keep records in stages that survive and in the fixed states', () => {
    for (const stage of ['Draft', 'review', 'approve', 'Approved', 'Retired']) expect(relocateStage(threeStages, twoStages, stage)).toBe(stage);
  });

  it('should move a record of a removed stage back to the nearest earlier surviving stage', () => {
    expect(relocateStage(threeStages, twoStages, 'expert')).toBe('review');
  });

  it('should move it to Draft when no earlier stage survives, never forward', () => {
    const onlyApproval: FlowDefinition = { ...threeStages, stages: [{ id: 'final', name: 'Final', permission: 'ProjectAdmin' }] };
    expect(relocateStage(threeStages, onlyApproval, 'review')).toBe('Draft');
    expect(relocateStage(threeStages, onlyApproval, 'approve')).toBe('Draft');
  });
});

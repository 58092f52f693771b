import { describe, expect, it } from 'vitest';
import { examModelEvents, examStatusTestPaths, projectModelEvents, projectStatusTestPaths } from '#machines/exams/exam-records.model.ts';
import { decideExam, examActions, examStatusMachine, examStatusNames, type ExamEvent, type ExamParty } from '#machines/exams/exam-status.machine.ts';
import {
  decideProject,
  projectActions,
  projectStatusMachine,
  projectStatusNames,
  type ProjectEvent,
  type ProjectParty,
} from '#machines/exams/project-status.machine.ts';
import { examTransitionTable, expectedExamStatus, expectedProjectStatus, projectTransitionTable } from '#tests/fixtures/exam-record-transitions.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';

const projectParties: ProjectParty[] = ['tenantManager', 'projectAdmin'];
const examParties: ExamParty[] = ['examManager', 'projectAdmin', 'moderator'];
/** Whether an event says the project has an item type and a category (read here, not by the machine's own helper). */
const setUpOf = (event: ProjectEvent) => !('setup' in event) || (event.setup.itemTypes > 0 && event.setup.categories > 0);
const projectEvent = (type: ProjectEvent['type'], party: ProjectParty, setUp = true) =>
  ({ ...projectModelEvents.find((e) => e.type === type && setUpOf(e) === setUp)!, by: { [party]: true } }) as ProjectEvent;
const edgeOf = (from: string, type: string, setUp: boolean | undefined) => `${from} ${type}${setUp === undefined ? '' : setUp ? ' (set up)' : ' (not set up)'}`;
const examEvent = (type: ExamEvent['type'], party: ExamParty) => ({ ...examModelEvents.find((e) => e.type === type)!, by: { [party]: true } }) as ExamEvent;

describe('project-status machine', () => {
  it('should list the five statuses of EXAMS.md in order and start in Draft', () => {
    expect(projectStatusNames).toEqual(['Draft', 'Setup', 'Active', 'Closed', 'Archived']);
    expect(projectStatusMachine.config.initial).toBe('Draft');
  });

  it('should decide every (status, event, party) exactly as the hand-written table says', () => {
    const wrong: string[] = [];
    for (const from of projectStatusNames) {
      for (const row of projectTransitionTable) {
        for (const party of projectParties) {
          const decision = decideProject(from, projectEvent(row.event, party, row.setUp ?? true));
          const expected = row.who.includes(party) ? expectedProjectStatus(from, row.event, row.setUp ?? true) : undefined;
          const got = decision.accepted ? decision.to : undefined;
          if (got !== expected) wrong.push(`${row.event} from ${from} by ${party}: ${got} (expected ${expected})`);
          if (!decision.accepted) {
            const reason = expectedProjectStatus(from, row.event) === undefined ? 'status' : 'role';
            if (decision.reason !== reason) wrong.push(`${row.event} from ${from} by ${party}: reason ${decision.reason}, expected ${reason}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should refuse an event the status does not take as such, before asking who sends it', () => {
    expect(decideProject('Archived', { type: 'project.close', by: { tenantManager: true } })).toEqual({ accepted: false, reason: 'status', from: 'Archived' });
    expect(decideProject('Active', { type: 'project.startSetup', by: {} })).toEqual({ accepted: false, reason: 'status', from: 'Active' });
    expect(decideProject('Draft', { type: 'project.archive', by: { projectAdmin: true } })).toEqual({ accepted: false, reason: 'role', from: 'Draft' });
  });

  it('should refuse activation until the project has an item type and a category, naming what is missing', () => {
    expect(decideProject('Setup', { type: 'project.activate', by: { projectAdmin: true }, setup: { itemTypes: 0, categories: 0 } })).toEqual({
      accepted: false,
      reason: 'setup',
      from: 'Setup',
      missing: ['an item type', 'a category'],
    });
    expect(decideProject('Setup', { type: 'project.activate', by: { projectAdmin: true }, setup: { itemTypes: 3, categories: 0 } })).toMatchObject({
      missing: ['a category'],
    });
    expect(decideProject('Setup', { type: 'project.activate', by: { projectAdmin: true }, setup: { itemTypes: 1, categories: 1 } })).toMatchObject({
      accepted: true,
      to: 'Active',
    });
  });

  it('should reopen a Closed project to Active only when it is set up, and to Setup otherwise (decision 0165)', () => {
    const by = { projectAdmin: true };
    expect(decideProject('Closed', { type: 'project.reopen', by, setup: { itemTypes: 2, categories: 5 } })).toEqual({
      accepted: true,
      from: 'Closed',
      to: 'Active',
    });
    expect(decideProject('Closed', { type: 'project.reopen', by, setup: { itemTypes: 0, categories: 5 } })).toEqual({
      accepted: true,
      from: 'Closed',
      to: 'Setup',
    });
    expect(decideProject('Closed', { type: 'project.reopen', by, setup: { itemTypes: 1, categories: 0 } })).toEqual({
      accepted: true,
      from: 'Closed',
      to: 'Setup',
    });
    expect(decideProject('Closed', { type: 'project.reopen', by: {}, setup: { itemTypes: 1, categories: 1 } })).toMatchObject({
      accepted: false,
      reason: 'role',
    });
  });

  it('should offer a project admin no archive or restore, and a tenant manager both', () => {
    expect(projectActions('Closed', { projectAdmin: true })).toEqual(['project.reopen']);
    expect(projectActions('Closed', { tenantManager: true })).toEqual(['project.reopen', 'project.archive']);
    expect(projectActions('Archived', { projectAdmin: true })).toEqual([]);
    expect(projectActions('Archived', { tenantManager: true })).toEqual(['project.restore']);
  });

  it('should walk every transition of the table on its model paths, each step as the table expects', () => {
    const paths = projectStatusTestPaths();
    const walked = new Set<string>();
    for (const path of paths) {
      for (let i = 1; i < path.steps.length; i += 1) {
        const from = path.steps[i - 1].state.value as (typeof projectStatusNames)[number];
        const event = path.steps[i].event as ProjectEvent;
        expect(path.steps[i].state.value, `${path.description} at ${event.type}`).toBe(expectedProjectStatus(from, event.type, setUpOf(event)));
        const row = projectTransitionTable.find(
          (r) => r.event === event.type && r.from.includes(from) && (r.setUp === undefined || r.setUp === setUpOf(event)),
        );
        walked.add(edgeOf(from, event.type, row?.setUp));
      }
    }
    const tableEdges = projectTransitionTable.flatMap((row) => row.from.map((from) => edgeOf(from, row.event, row.setUp)));
    expect([...walked].sort()).toEqual(tableEdges.sort());
    const report = reportMachineCoverage(projectStatusMachine, paths);
    expect(report.transitions.covered).toEqual(report.transitions.total);
  });
});

describe('exam-status machine', () => {
  it('should list the six statuses of EXAMS.md in order and start in Draft', () => {
    expect(examStatusNames).toEqual(['Draft', 'Scheduled', 'Live', 'Evaluation', 'ResultsPublished', 'Closed']);
    expect(examStatusMachine.config.initial).toBe('Draft');
  });

  it('should decide every (status, event, party) exactly as the hand-written table says', () => {
    const wrong: string[] = [];
    for (const from of examStatusNames) {
      for (const row of examTransitionTable) {
        for (const party of examParties) {
          const decision = decideExam(from, examEvent(row.event, party));
          const expected = row.who.includes(party) ? expectedExamStatus(from, row.event) : undefined;
          const got = decision.accepted ? decision.to : undefined;
          if (got !== expected) wrong.push(`${row.event} from ${from} by ${party}: ${got} (expected ${expected})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should say why the table refuses: the status does not take the event, else the caller may not', () => {
    const refusals: Array<[string, unknown]> = [];
    const expected: Array<[string, unknown]> = [];
    for (const from of examStatusNames) {
      for (const row of examTransitionTable) {
        for (const party of examParties) {
          if (row.who.includes(party) && expectedExamStatus(from, row.event) !== undefined) continue;
          const decision = decideExam(from, examEvent(row.event, party));
          const reason = expectedExamStatus(from, row.event) === undefined ? 'status' : 'role';
          refusals.push([`${row.event} from ${from} by ${party}`, decision]);
          expected.push([`${row.event} from ${from} by ${party}`, { accepted: false, reason, from }]);
        }
      }
    }
    expect(refusals).toEqual(expected);
    expect(decideExam('Closed', { type: 'exam.close', by: {} })).toEqual({ accepted: false, reason: 'status', from: 'Closed' });
  });

  it('should refuse scheduling and going live while the project is not Active', () => {
    for (const projectStatus of ['Draft', 'Setup', 'Closed', 'Archived'] as const) {
      expect(decideExam('Draft', { type: 'exam.schedule', by: { projectAdmin: true }, projectStatus })).toEqual({
        accepted: false,
        reason: 'project',
        from: 'Draft',
      });
      expect(decideExam('Scheduled', { type: 'exam.start', by: { examManager: true }, projectStatus })).toMatchObject({ reason: 'project' });
    }
  });

  it('should refuse withdrawing results without a reason', () => {
    expect(decideExam('ResultsPublished', { type: 'exam.withdrawResults', by: { moderator: true }, reason: '   ' })).toEqual({
      accepted: false,
      reason: 'fields',
      from: 'ResultsPublished',
    });
  });

  it('should refuse withdrawing results with no reason at all as a missing field, not fail', () => {
    for (const reason of [undefined, null, 42]) {
      const event = { type: 'exam.withdrawResults', by: { moderator: true }, reason } as unknown as ExamEvent;
      expect(decideExam('ResultsPublished', event), String(reason)).toEqual({ accepted: false, reason: 'fields', from: 'ResultsPublished' });
    }
    expect(decideExam('ResultsPublished', { type: 'exam.withdrawResults', by: { moderator: true }, reason: 'Key error in Q14' })).toEqual({
      accepted: true,
      from: 'ResultsPublished',
      to: 'Evaluation',
    });
  });

  it('should let a moderator only publish and withdraw results', () => {
    const offered = examStatusNames.flatMap((status) => examActions(status, { moderator: true }));
    expect(offered).toEqual(['exam.publishResults', 'exam.withdrawResults']);
    expect(examActions('Draft', { projectAdmin: true })).toEqual(['exam.schedule', 'exam.edit']);
    expect(examActions('Closed', { examManager: true })).toEqual([]);
  });

  it('should walk every transition of the table on its model paths, each step as the table expects', () => {
    const paths = examStatusTestPaths();
    const walked = new Set<string>();
    for (const path of paths) {
      for (let i = 1; i < path.steps.length; i += 1) {
        const from = path.steps[i - 1].state.value as (typeof examStatusNames)[number];
        const event = path.steps[i].event as ExamEvent;
        expect(path.steps[i].state.value, `${path.description} at ${event.type}`).toBe(expectedExamStatus(from, event.type));
        walked.add(`${from} ${event.type}`);
      }
    }
    const tableEdges = examTransitionTable.flatMap((row) => row.from.map((from) => `${from} ${row.event}`));
    expect([...walked].sort()).toEqual(tableEdges.sort());
    const report = reportMachineCoverage(examStatusMachine, paths);
    expect(report.transitions.covered).toEqual(report.transitions.total);
  });
});

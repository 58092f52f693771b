import { describe, expect, it } from 'vitest';
import {
  decideResult,
  resultActions,
  resultMachine,
  resultStatusNames,
  withinReevaluationWindow,
  type ResultContext,
  type ResultEvent,
} from '#machines/results/result.machine.ts';
import { resultModelInput, resultTestPaths } from '#machines/results/result.model.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { resultExpectation, resultFacts } from '#tests/fixtures/expectations/result.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';

const at = '2027-04-01T06:30:00.000Z';
const published: ResultContext = { publishedAt: '2027-04-01T06:30:00.000Z', reevaluationDays: 7 };
const request = (when: string, items = [3]): ResultEvent => ({ type: 'result.requestReevaluation', by: { candidate: true }, items, at: when });

describe('result machine', () => {
  it('should list the statuses of EXAMS.md §2 and start Provisional', () => {
    expect(resultStatusNames).toEqual(['Provisional', 'Marking', 'Moderated', 'Published', 'ReevaluationRequested', 'Revised', 'Withheld']);
    expect(resultMachine.config.initial).toBe('Provisional');
  });

  it('should refuse publishing while marking goes on, and say it is the status', () => {
    expect(decideResult('Marking', published, { type: 'result.publish', by: { moderator: true }, at })).toEqual({
      accepted: false,
      reason: 'status',
      from: 'Marking',
    });
  });

  it('should let a candidate ask only within the window, naming items', () => {
    expect(decideResult('Published', published, request('2027-04-08T06:30:00.000Z'))).toMatchObject({ accepted: true, to: 'ReevaluationRequested' });
    expect(decideResult('Published', published, request('2027-04-08T06:30:01.000Z'))).toEqual({ accepted: false, reason: 'window', from: 'Published' });
    expect(decideResult('Published', { ...published, reevaluationDays: 0 }, request(at))).toMatchObject({ reason: 'window' });
    expect(decideResult('Published', published, request(at, []))).toMatchObject({ reason: 'fields' });
    expect(decideResult('Published', published, { ...request(at), by: { moderator: true } })).toMatchObject({ reason: 'role' });
    expect(withinReevaluationWindow({ publishedAt: null, reevaluationDays: 7 }, at)).toBe(false);
  });

  it('should need a reason to withhold, and record the publication time', () => {
    expect(decideResult('Provisional', published, { type: 'result.withhold', by: { examManager: true }, reason: ' ', at })).toMatchObject({
      reason: 'fields',
    });
    const d = decideResult('Moderated', { publishedAt: null, reevaluationDays: 7 }, { type: 'result.publish', by: { examManager: true }, at });
    expect(d).toMatchObject({ accepted: true, to: 'Published', context: { publishedAt: at } });
  });

  it('should list what each party may do now', () => {
    expect(resultActions('Provisional', published, { moderator: true }, at).sort()).toEqual(['result.moderate', 'result.publish', 'result.withhold']);
    expect(resultActions('Published', published, { candidate: true }, at)).toEqual(['result.requestReevaluation']);
    expect(resultActions('Published', published, { candidate: true }, '2027-05-01T00:00:00.000Z')).toEqual([]);
  });

  it('should walk every transition on its model paths as the independent table expects', () => {
    const paths = resultTestPaths();
    for (const path of paths) {
      const table = new IndependentExpectation(resultExpectation, resultFacts(resultModelInput.reevaluationDays));
      for (const step of path.steps) {
        if (step.event.type === 'xstate.init') continue;
        expect(step.state.value, `${path.description} at ${step.event.type}`).toBe(table.next(step.event));
      }
    }
    expect(rulesNoPathTakes(resultExpectation, () => resultFacts(resultModelInput.reevaluationDays), paths)).toEqual([]);
    const report = reportMachineCoverage(resultMachine, paths);
    expect(report.transitions.covered).toEqual(report.transitions.total);
  });
});

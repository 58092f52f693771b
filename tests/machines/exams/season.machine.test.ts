import { describe, expect, it } from 'vitest';
import {
  decideSeason,
  seasonActions,
  seasonIsConfigurable,
  seasonMachine,
  seasonMissing,
  seasonStatusNames,
  type SeasonEvent,
  type SeasonParty,
} from '#machines/exams/season.machine.ts';
import { seasonModelEvents, seasonTestPaths } from '#machines/exams/season.model.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { seasonExpectation, seasonStatusesTakingEvent } from '#tests/fixtures/expectations/season.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';

const parties: SeasonParty[] = ['examManager', 'projectAdmin', 'centerManager'];
const eventAs = (type: SeasonEvent['type'], party: SeasonParty) =>
  ({ ...seasonModelEvents.find((e) => e.type === type)!, by: { [party]: true } }) as SeasonEvent;

describe('season machine', () => {
  it('should list the five statuses of EXAMS.md in order and start in Planned', () => {
    expect(seasonStatusNames).toEqual(['Planned', 'RegistrationOpen', 'RegistrationClosed', 'InProgress', 'Completed']);
    expect(seasonMachine.config.initial).toBe('Planned');
  });

  it('should decide every (status, event, party) as the independent table does', () => {
    const wrong: string[] = [];
    for (const from of seasonStatusNames) {
      for (const type of Object.keys(seasonStatusesTakingEvent) as SeasonEvent['type'][]) {
        for (const party of parties) {
          const event = eventAs(type, party);
          const table = new IndependentExpectation(seasonExpectation, {});
          table.state = from;
          const expected = table.next(event);
          const decision = decideSeason(from, event);
          const got = decision.accepted ? decision.to : from;
          if (got !== expected) wrong.push(`${type} from ${from} by ${party}: ${got} (expected ${expected})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should refuse opening registration until the season is ready, naming what is missing', () => {
    const by = { projectAdmin: true };
    expect(decideSeason('Planned', { type: 'season.openRegistration', by, readiness: { projectStatus: 'Setup', papers: 0, seats: 0 } })).toEqual({
      accepted: false,
      reason: 'readiness',
      from: 'Planned',
      missing: ['an Active project', 'a scheduled paper', 'a center with seats'],
    });
    expect(decideSeason('Planned', { type: 'season.openRegistration', by, readiness: { projectStatus: 'Active', papers: 1, seats: 0 } })).toMatchObject({
      missing: ['a center with seats'],
    });
    expect(decideSeason('Planned', { type: 'season.openRegistration', by, readiness: { projectStatus: 'Active', papers: 1, seats: 1 } })).toMatchObject({
      accepted: true,
      to: 'RegistrationOpen',
    });
  });

  it('should name everything as missing when the readiness is not known at all', () => {
    const all = ['an Active project', 'a scheduled paper', 'a center with seats'];
    expect(seasonMissing(undefined)).toEqual(all);
    expect(seasonMissing({ projectStatus: 'Active', papers: 2, seats: 40 })).toEqual([]);
    const withoutReadiness = { type: 'season.openRegistration', by: { examManager: true } } as SeasonEvent;
    expect(decideSeason('Planned', withoutReadiness)).toEqual({ accepted: false, reason: 'readiness', from: 'Planned', missing: all });
  });

  it('should refuse reopening with no reason at all as a missing field, not fail', () => {
    for (const reason of [undefined, null, 7]) {
      const event = { type: 'season.reopenRegistration', by: { projectAdmin: true }, reason } as unknown as SeasonEvent;
      expect(decideSeason('RegistrationClosed', event), String(reason)).toEqual({ accepted: false, reason: 'fields', from: 'RegistrationClosed' });
    }
    expect(decideSeason('RegistrationClosed', { type: 'season.reopenRegistration', by: { projectAdmin: true }, reason: 'Late fee waived' })).toEqual({
      accepted: true,
      from: 'RegistrationClosed',
      to: 'RegistrationOpen',
    });
  });

  it('should refuse reopening without a reason and a center manager moving the season', () => {
    expect(decideSeason('RegistrationClosed', { type: 'season.reopenRegistration', by: { examManager: true }, reason: '  ' })).toMatchObject({
      accepted: false,
      reason: 'fields',
    });
    expect(decideSeason('RegistrationOpen', { type: 'season.closeRegistration', by: { centerManager: true } })).toMatchObject({
      accepted: false,
      reason: 'role',
    });
    expect(decideSeason('InProgress', { type: 'season.configure', by: { examManager: true } })).toMatchObject({ accepted: false, reason: 'status' });
  });

  it('should offer each party only its actions, and freeze the schedule once the sitting starts', () => {
    expect(seasonActions('RegistrationClosed', { projectAdmin: true })).toEqual(['season.reopenRegistration', 'season.start', 'season.configure']);
    expect(seasonActions('RegistrationClosed', { centerManager: true })).toEqual(['season.configure']);
    expect(seasonActions('Completed', { examManager: true })).toEqual([]);
    expect(seasonStatusNames.filter(seasonIsConfigurable)).toEqual(['Planned', 'RegistrationOpen', 'RegistrationClosed']);
  });

  it('should walk every transition on its model paths, each step as the independent table expects', () => {
    const paths = seasonTestPaths();
    for (const path of paths) {
      const table = new IndependentExpectation(seasonExpectation, {});
      for (const step of path.steps) {
        if (step.event.type === 'xstate.init') continue;
        expect(step.state.value, `${path.description} at ${step.event.type}`).toBe(table.next(step.event));
      }
    }
    expect(rulesNoPathTakes(seasonExpectation, () => ({}), paths)).toEqual([]);
    const report = reportMachineCoverage(seasonMachine, paths);
    expect(report.transitions.covered).toEqual(report.transitions.total);
  });
});

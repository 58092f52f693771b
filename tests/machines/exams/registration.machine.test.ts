import { describe, expect, it } from 'vitest';
import {
  decideRegistration,
  holdsSeat,
  registrationActions,
  registrationMachine,
  registrationStatusNames,
  type RegistrationEvent,
  type RegistrationParty,
} from '#machines/exams/registration.machine.ts';
import { registrationModelEvents, registrationTestPaths } from '#machines/exams/registration.model.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { registrationExpectation, registrationStatusesTakingEvent } from '#tests/fixtures/expectations/registration.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';

const parties: RegistrationParty[] = ['candidate', 'registrar', 'centerManager', 'invigilator'];
const eventAs = (type: RegistrationEvent['type'], party: RegistrationParty) =>
  ({ ...registrationModelEvents.find((e) => e.type === type)!, by: { [party]: true } }) as RegistrationEvent;

describe('registration machine', () => {
  it('should list the statuses of EXAMS.md and start in Submitted', () => {
    expect(registrationStatusNames).toEqual(['Submitted', 'Approved', 'Rejected', 'Allocated', 'AdmitCardIssued', 'Attended', 'Absent', 'Cancelled']);
    expect(registrationMachine.config.initial).toBe('Submitted');
  });

  it('should decide every (status, event, party) as the independent table does', () => {
    const wrong: string[] = [];
    for (const from of registrationStatusNames) {
      for (const type of Object.keys(registrationStatusesTakingEvent) as RegistrationEvent['type'][]) {
        for (const party of parties) {
          const event = eventAs(type, party);
          const table = new IndependentExpectation(registrationExpectation, {});
          table.state = from;
          const expected = table.next(event);
          const decision = decideRegistration(from, event);
          if ((decision.accepted ? decision.to : from) !== expected) wrong.push(`${type} from ${from} by ${party}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should refuse rejecting and cancelling without a reason, and say why', () => {
    expect(decideRegistration('Submitted', { type: 'registration.reject', by: { registrar: true }, reason: ' ' })).toEqual({
      accepted: false,
      reason: 'fields',
      from: 'Submitted',
    });
    expect(decideRegistration('Allocated', { type: 'registration.cancel', by: { candidate: true }, reason: '' })).toMatchObject({ reason: 'fields' });
    expect(decideRegistration('Submitted', { type: 'registration.approve', by: { candidate: true } })).toMatchObject({ reason: 'role' });
    expect(decideRegistration('Attended', { type: 'registration.cancel', by: { registrar: true }, reason: 'x' })).toMatchObject({ reason: 'status' });
  });

  it('should refuse rejecting and cancelling with a reason that is not text as a missing field, not fail', () => {
    for (const reason of [undefined, null, 3]) {
      const reject = { type: 'registration.reject', by: { registrar: true }, reason } as unknown as RegistrationEvent;
      const cancel = { type: 'registration.cancel', by: { candidate: true }, reason } as unknown as RegistrationEvent;
      expect(decideRegistration('Submitted', reject), String(reason)).toEqual({ accepted: false, reason: 'fields', from: 'Submitted' });
      expect(decideRegistration('Allocated', cancel), String(reason)).toEqual({ accepted: false, reason: 'fields', from: 'Allocated' });
    }
    expect(decideRegistration('Submitted', { type: 'registration.reject', by: { registrar: true }, reason: 'Age limit' })).toEqual({
      accepted: true,
      from: 'Submitted',
      to: 'Rejected',
    });
  });

  it('should offer each party its actions and know which statuses hold a seat', () => {
    expect(registrationActions('AdmitCardIssued', { invigilator: true })).toEqual(['registration.markAttended', 'registration.markAbsent']);
    expect(registrationActions('Allocated', { candidate: true })).toEqual(['registration.cancel']);
    expect(registrationStatusNames.filter(holdsSeat)).toEqual(['Allocated', 'AdmitCardIssued']);
  });

  it('should walk every transition on its model paths as the independent table expects', () => {
    const paths = registrationTestPaths();
    for (const path of paths) {
      const table = new IndependentExpectation(registrationExpectation, {});
      for (const step of path.steps) {
        if (step.event.type === 'xstate.init') continue;
        expect(step.state.value, `${path.description} at ${step.event.type}`).toBe(table.next(step.event));
      }
    }
    expect(rulesNoPathTakes(registrationExpectation, () => ({}), paths)).toEqual([]);
    const report = reportMachineCoverage(registrationMachine, paths);
    expect(report.transitions.covered).toEqual(report.transitions.total);
  });
});

import { createMachineTestModel, transitionCoveringPaths } from '../test-model.ts';
import { registrationMachine, type RegistrationEvent } from './registration.machine.ts';

/** The registration lifecycle's model events: each type once, from an allowed party, with what it carries. */
export const registrationModelEvents: RegistrationEvent[] = [
  { type: 'registration.approve', by: { registrar: true } },
  { type: 'registration.reject', by: { registrar: true }, reason: 'The fee has not been paid' },
  { type: 'registration.allocate', by: { centerManager: true } },
  { type: 'registration.move', by: { centerManager: true } },
  { type: 'registration.issueAdmitCard', by: { registrar: true } },
  { type: 'registration.markAttended', by: { invigilator: true } },
  { type: 'registration.markAbsent', by: { invigilator: true } },
  { type: 'registration.cancel', by: { candidate: true }, reason: 'I will sit the next season' },
];

export function registrationModel() {
  return createMachineTestModel(registrationMachine, {
    events: (snapshot) => registrationModelEvents.filter((event) => snapshot.can(event)),
    exhaustive: true,
  });
}

export function registrationTestPaths() {
  return transitionCoveringPaths(registrationModel());
}

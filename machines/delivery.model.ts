import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';
import { deliveryMachine, remainingAt, type DeliveryEvent, type DeliverySnapshot } from './delivery.machine.ts';

/** The model's sitting: 10:00 IST on 10 March 2027, 60 minutes (the HTTP replay schedules the same). */
export const deliveryModelInput = { startsAt: '2027-03-10T04:30:00.000Z', allowedMs: 60 * 60_000 } as const;

const MIN = 60_000;
const later = (iso: string, by: number) => new Date(Date.parse(iso) + by).toISOString();

/**
 * The delivery's model events, each at a time after the last event: admit 15 minutes before
 * the start, start at the start time (or 5 minutes after an early admission), a save a minute
 * later, a pause of 5 minutes' active time, a resume 3 minutes later (paused time), an
 * extension of 5 minutes, a submit, a terminate, and time up exactly when time runs out.
 */
export function deliveryModelEvents(snapshot: DeliverySnapshot): DeliveryEvent[] {
  const c = snapshot.context;
  const last = c.lastAt;
  const left = remainingAt(c, last);
  const candidate = { candidate: true };
  const invigilator = { invigilator: true };
  const events: DeliveryEvent[] = [
    { type: 'delivery.admit', by: invigilator, at: later(c.startsAt, -15 * MIN) },
    { type: 'delivery.start', by: candidate, at: c.admitted ? later(last, 5 * MIN) : Date.parse(last) < Date.parse(c.startsAt) ? c.startsAt : last },
    { type: 'delivery.save', by: candidate, at: later(last, MIN) },
    { type: 'delivery.pause', by: invigilator, reason: 'Power cut in the hall', at: later(last, 5 * MIN) },
    { type: 'delivery.resume', by: invigilator, at: later(last, 3 * MIN) },
    { type: 'delivery.extend', by: invigilator, minutes: 5, reason: 'Lost time to the power cut', at: later(last, MIN) },
    { type: 'delivery.submit', by: candidate, at: later(last, 2 * MIN) },
    { type: 'delivery.terminate', by: invigilator, reason: 'Caught with notes', at: later(last, MIN) },
    { type: 'delivery.timeUp', by: { system: true }, at: later(last, left) },
  ];
  return events.filter((event) => snapshot.can(event));
}

export function deliveryModel() {
  return createMachineTestModel(deliveryMachine, {
    input: deliveryModelInput,
    events: deliveryModelEvents,
    exhaustive: true,
    // Times grow on every path; a node is the status with whether the candidate was admitted,
    // time was extended and the clock was ever stopped.
    serializeState: (s) => JSON.stringify([s.value, s.context.admitted, s.context.extensionMs > 0, s.context.usedMs > 0]),
    serializeEvent: (e) => e.type,
  });
}

export function deliveryTestPaths() {
  return transitionCoveringPaths(deliveryModel());
}

import type { DeliveryClock } from '#machines/delivery.machine.ts';

/** A delivery's clock for the machine tests: an hour's paper at 04:30 on 10 March 2027, nothing used yet. */
export const clock = (over: Partial<DeliveryClock> = {}): DeliveryClock => ({
  startsAt: '2027-03-10T04:30:00.000Z',
  allowedMs: 60 * 60_000,
  extensionMs: 0,
  usedMs: 0,
  activeSince: null,
  admitted: false,
  lastAt: '2027-03-10T04:00:00.000Z',
  ...over,
});

/** That day at hh:mm UTC. */
export const at = (hhmm: string) => `2027-03-10T${hhmm}:00.000Z`;

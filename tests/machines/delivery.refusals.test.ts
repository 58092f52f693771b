import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { decideDelivery, deliveryActions, deliveryMachine, type DeliveryClock, type DeliveryEvent } from '#machines/delivery.machine.ts';
import { at, clock } from './support/delivery-clock.ts';

/**
 * What the server answers when it refuses an event (decideDelivery: 409 status, 403 role, 400
 * fields, 409 time), guard by guard: the wrong party, an event stamped before the last one, and
 * the edges of the admit window and of an extension's minutes.
 */
const candidate = { candidate: true };
const invigilator = { invigilator: true };
const running = clock({ activeSince: at('04:30'), lastAt: at('04:30') });
const paused = clock({ usedMs: 10 * 60_000, lastAt: at('04:40') });

/** An event each guard would take from the right party at the right time. */
const taken: Array<[string, DeliveryClock, DeliveryEvent, 'Waiting' | 'Active' | 'Paused']> = [
  ['admit', clock(), { type: 'delivery.admit', by: invigilator, at: at('04:10') }, 'Waiting'],
  ['start', clock(), { type: 'delivery.start', by: candidate, at: at('04:30') }, 'Waiting'],
  ['resume', paused, { type: 'delivery.resume', by: invigilator, at: at('04:50') }, 'Paused'],
  ['timeUp', running, { type: 'delivery.timeUp', by: { system: true }, at: at('05:30') }, 'Active'],
  ['extend', clock(), { type: 'delivery.extend', by: invigilator, at: at('04:10'), minutes: 5, reason: 'Late bus' }, 'Waiting'],
  ['terminate', paused, { type: 'delivery.terminate', by: invigilator, at: at('04:50'), reason: 'Phone found' }, 'Paused'],
];

describe('delivery refusals', () => {
  it.each(taken)('should take a %s from the right party on time', (_name, c, event, status) => {
    expect(decideDelivery(status, c, event)).toMatchObject({ accepted: true, from: status });
  });

  it.each(taken)('should refuse a %s from any other party as a role refusal', (_name, c, event, status) => {
    const other = 'candidate' in event.by ? invigilator : candidate;
    expect(decideDelivery(status, c, { ...event, by: other })).toEqual({ accepted: false, reason: 'role', from: status });
  });

  it.each(taken)('should refuse a %s stamped before the last event taken as a time refusal', (_name, c, event, status) => {
    const later = new Date(Date.parse(event.at) + 60_000).toISOString();
    expect(decideDelivery(status, { ...c, lastAt: later }, event)).toEqual({ accepted: false, reason: 'time', from: status });
  });

  it('should take an event stamped at the very instant of the last one', () => {
    const admit: DeliveryEvent = { type: 'delivery.admit', by: invigilator, at: at('04:00') };
    expect(decideDelivery('Waiting', clock(), admit)).toMatchObject({ accepted: true, clock: { admitted: true, lastAt: at('04:00') } });
  });

  it('should admit early only once, and only before the start time', () => {
    const admit: DeliveryEvent = { type: 'delivery.admit', by: invigilator, at: at('04:10') };
    expect(decideDelivery('Waiting', clock({ admitted: true }), admit)).toEqual({ accepted: false, reason: 'time', from: 'Waiting' });
    expect(decideDelivery('Waiting', clock(), { ...admit, at: at('04:30') })).toEqual({ accepted: false, reason: 'time', from: 'Waiting' });
    expect(decideDelivery('Waiting', clock(), { ...admit, at: at('04:29') })).toMatchObject({ accepted: true });
  });

  it('should take an extension of 1 and of 240 whole minutes, and refuse a fraction of a minute', () => {
    const extend = { type: 'delivery.extend', by: invigilator, at: at('04:10'), reason: 'Power cut' } as const;
    expect(decideDelivery('Waiting', clock(), { ...extend, minutes: 1 })).toMatchObject({ accepted: true, clock: { extensionMs: 60_000 } });
    expect(decideDelivery('Waiting', clock(), { ...extend, minutes: 240 })).toMatchObject({ accepted: true, clock: { extensionMs: 240 * 60_000 } });
    expect(decideDelivery('Waiting', clock(), { ...extend, minutes: 2.5 })).toEqual({ accepted: false, reason: 'fields', from: 'Waiting' });
  });

  it('should refuse a reason that is not text as missing, not fail on it', () => {
    // A request body is JSON: the reason can arrive as a number or null.
    const terminate = { type: 'delivery.terminate', by: invigilator, at: at('04:50') };
    for (const reason of [42, null, {}]) {
      expect(decideDelivery('Paused', paused, { ...terminate, reason } as unknown as DeliveryEvent)).toEqual({
        accepted: false,
        reason: 'fields',
        from: 'Paused',
      });
    }
  });

  it('should say a finished delivery takes no event at all', () => {
    expect(decideDelivery('Submitted', running, { type: 'delivery.save', by: candidate, at: at('04:40') })).toEqual({
      accepted: false,
      reason: 'status',
      from: 'Submitted',
    });
  });

  it('should offer each party only the buttons it may press now', () => {
    expect(deliveryActions('Paused', paused, candidate, at('04:50'))).toEqual([]);
    expect(deliveryActions('Active', running, invigilator, at('04:50'))).toEqual(['delivery.pause', 'delivery.extend', 'delivery.terminate']);
    expect(deliveryActions('Active', running, candidate, at('04:50'))).toEqual(['delivery.save', 'delivery.submit']);
    expect(deliveryActions('Active', running, { system: true }, at('05:30'))).toEqual(['delivery.timeUp']);
  });
});

describe('delivery machine input', () => {
  it('should restore a stored clock from its input', () => {
    const stored = { ...running, extensionMs: 5 * 60_000, usedMs: 60_000, admitted: true };
    expect(createActor(deliveryMachine, { input: stored }).start().getSnapshot().context).toEqual(stored);
  });

  it('should let a candidate admitted early start before the start time', () => {
    const actor = createActor(deliveryMachine, { input: { startsAt: at('04:30'), allowedMs: 60 * 60_000, admitted: true } }).start();
    actor.send({ type: 'delivery.start', by: candidate, at: at('04:20') });
    expect(actor.getSnapshot().value).toBe('Active');
  });

  it('should open a new delivery with a stopped, unused clock, half an hour before the start', () => {
    const actor = createActor(deliveryMachine, { input: { startsAt: at('04:30'), allowedMs: 60 * 60_000 } }).start();
    expect(actor.getSnapshot().context).toEqual(clock());
  });
});

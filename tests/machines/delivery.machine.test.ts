import { describe, expect, it } from 'vitest';
import {
  candidateContent,
  deadlineOf,
  decideDelivery,
  deliveryActions,
  deliveryMachine,
  deliveryStatusNames,
  remainingAt,
  type DeliveryEvent,
} from '#machines/delivery.machine.ts';
import { deliveryModelInput, deliveryTestPaths } from '#machines/delivery.model.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { deliveryExpectation, deliveryFacts, timeLeft } from '#tests/fixtures/expectations/delivery.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { at, clock } from './support/delivery-clock.ts';

describe('delivery machine', () => {
  it('should list the statuses of EXAMS.md §4 and start in Waiting', () => {
    expect(deliveryStatusNames).toEqual(['Waiting', 'Active', 'Paused', 'Submitted', 'TimeUp', 'Terminated']);
    expect(deliveryMachine.config.initial).toBe('Waiting');
  });

  it('should refuse a start before the start time unless admitted early, and say why', () => {
    const start: DeliveryEvent = { type: 'delivery.start', by: { candidate: true }, at: at('04:20') };
    expect(decideDelivery('Waiting', clock(), start)).toEqual({ accepted: false, reason: 'time', from: 'Waiting' });
    expect(decideDelivery('Waiting', clock({ admitted: true }), start)).toMatchObject({ accepted: true, to: 'Active' });
    expect(decideDelivery('Waiting', clock(), { ...start, at: at('04:30') })).toMatchObject({ accepted: true, to: 'Active' });
    expect(decideDelivery('Waiting', clock(), { ...start, by: { invigilator: true } })).toMatchObject({ reason: 'role' });
    expect(decideDelivery('Submitted', clock(), start)).toMatchObject({ reason: 'status' });
  });

  it('should not count paused time and add extensions to the deadline', () => {
    let c = clock({ activeSince: at('04:30'), lastAt: at('04:30') });
    expect(deadlineOf(c)).toBe(at('05:30'));
    const pause = decideDelivery('Active', c, { type: 'delivery.pause', by: { invigilator: true }, at: at('04:40') });
    if (!pause.accepted) throw new Error('pause refused');
    c = pause.clock;
    expect(c.usedMs).toBe(10 * 60_000);
    expect(remainingAt(c, at('05:40'))).toBe(50 * 60_000);
    expect(deadlineOf(c)).toBeNull();
    const resume = decideDelivery('Paused', c, { type: 'delivery.resume', by: { invigilator: true }, at: at('04:55') });
    if (!resume.accepted) throw new Error('resume refused');
    const extend = decideDelivery('Active', resume.clock, {
      type: 'delivery.extend',
      by: { invigilator: true },
      minutes: 5,
      reason: 'Power cut',
      at: at('05:00'),
    });
    if (!extend.accepted) throw new Error('extend refused');
    expect(deadlineOf(extend.clock)).toBe(at('05:50'));
    expect(remainingAt(extend.clock, at('05:00'))).toBe(60 * 60_000 - 15 * 60_000 + 5 * 60_000);
  });

  it('should refuse saving and submitting with no time left, and time up only then', () => {
    const c = clock({ activeSince: at('04:30'), lastAt: at('04:30') });
    expect(decideDelivery('Active', c, { type: 'delivery.save', by: { candidate: true }, at: at('05:30') })).toMatchObject({ reason: 'time' });
    expect(decideDelivery('Active', c, { type: 'delivery.submit', by: { candidate: true }, at: at('05:31') })).toMatchObject({ reason: 'time' });
    expect(decideDelivery('Active', c, { type: 'delivery.timeUp', by: { system: true }, at: at('05:29') })).toMatchObject({ reason: 'time' });
    expect(decideDelivery('Active', c, { type: 'delivery.timeUp', by: { system: true }, at: at('05:30') })).toMatchObject({ to: 'TimeUp' });
    expect(decideDelivery('Active', c, { type: 'delivery.save', by: { candidate: true }, at: at('04:29') })).toMatchObject({ reason: 'time' });
  });

  it('should want a reason and 1–240 minutes to extend, a reason to terminate', () => {
    const base = { type: 'delivery.extend', by: { invigilator: true }, at: at('04:10') } as const;
    expect(decideDelivery('Waiting', clock(), { ...base, minutes: 5, reason: ' ' })).toMatchObject({ reason: 'fields' });
    expect(decideDelivery('Waiting', clock(), { ...base, minutes: 0, reason: 'x' })).toMatchObject({ reason: 'fields' });
    expect(decideDelivery('Waiting', clock(), { ...base, minutes: 241, reason: 'x' })).toMatchObject({ reason: 'fields' });
    expect(decideDelivery('Paused', clock(), { type: 'delivery.terminate', by: { invigilator: true }, reason: '', at: at('04:10') })).toMatchObject({
      reason: 'fields',
    });
    expect(deliveryActions('Paused', clock(), { invigilator: true }, at('04:10'))).toEqual(['delivery.resume', 'delivery.extend', 'delivery.terminate']);
  });

  it('should hide the answer key from the candidate', () => {
    const shown = candidateContent({
      kind: 'singleChoice',
      variants: { en: { stem: '<p>2+2?</p>', choices: { a: '4', b: '5' }, rubric: 'secret' } },
      options: [{ id: 'a' }, { id: 'b' }],
      correct: 'a',
      shuffle: true,
    });
    expect(shown.correct).toBe('');
    expect(JSON.stringify(shown)).not.toContain('secret');
  });

  it('should walk every transition on its model paths as the independent table expects, time left included', () => {
    const paths = deliveryTestPaths();
    for (const path of paths) {
      const facts = deliveryFacts(deliveryModelInput.startsAt, 60);
      const table = new IndependentExpectation(deliveryExpectation, facts);
      for (const step of path.steps) {
        if (step.event.type === 'xstate.init') continue;
        expect(step.state.value, `${path.description} at ${step.event.type}`).toBe(table.next(step.event));
        const when = (step.event as DeliveryEvent).at;
        expect(remainingAt(step.state.context, when), `${path.description} at ${step.event.type}`).toBe(timeLeft(facts, Date.parse(when)));
      }
    }
    expect(rulesNoPathTakes(deliveryExpectation, () => deliveryFacts(deliveryModelInput.startsAt, 60), paths)).toEqual([]);
    const report = reportMachineCoverage(deliveryMachine, paths);
    expect(report.transitions.covered).toEqual(report.transitions.total);
  });
});

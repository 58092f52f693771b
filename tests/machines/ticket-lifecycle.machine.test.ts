import { createActor } from 'xstate';
import { afterAll, describe, expect, it } from 'vitest';
import {
  availableActions,
  decide,
  snapshotAt,
  statusName,
  ticketLifecycleMachine,
  ticketStatusNames,
  ticketStatuses,
  type TicketActor,
  type TicketEvent,
  type TicketEventType,
  type TicketParty,
  type TicketStatus,
} from '#machines/ticket-lifecycle.machine.ts';
import { ticketLifecyclePaths, ticketModelEvents } from '#machines/ticket-lifecycle.model.ts';
import { expectedStatusAfter, ticketTransitionTable } from '#tests/fixtures/ticket-transitions.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';

const table = ticketTransitionTable;
const parties: TicketParty[] = ['requester', 'agent', 'assignee', 'supportAdmin', 'system'];
const fullEvent = (type: TicketEventType, by: TicketActor): TicketEvent =>
  ({ ...ticketModelEvents.find((e) => e.type === type), by, at: '2026-03-02T10:00:00.000Z' }) as TicketEvent;
const closedRecently = { closedAt: '2026-03-01T10:00:00.000Z' };

describe('ticket lifecycle machine', () => {
  it('should number the seven statuses as TICKETS.md does', () => {
    expect(ticketStatuses).toEqual({ Open: 1, InProgress: 2, OnHold: 3, Escalated: 4, Resolved: 5, Closed: 6, Cancelled: 7 });
    expect(statusName(4)).toBe('Escalated');
    expect(statusName(9)).toBeUndefined();
  });

  it('should start a new ticket Open', () => {
    expect(createActor(ticketLifecycleMachine).start().getSnapshot().value).toBe('Open');
  });

  it('should accept every transition of the table from each party allowed to send it', () => {
    for (const row of table) {
      for (const from of row.from) {
        for (const party of row.who) {
          const event = fullEvent(row.event, { [party]: true });
          const decision = decide(from, event, closedRecently);
          const to = typeof row.to === 'function' ? row.to(event) : row.to;
          expect(decision, `${row.event} from ${from} by ${party}`).toMatchObject({ accepted: true, from, to });
        }
      }
    }
  });

  it('should reassign to InProgress when a user is named and to Open for a group only', () => {
    const toUser = decide('OnHold', { type: 'ticket.reassign', by: { assignee: true }, toSupportUserId: 'u2' });
    expect(toUser).toMatchObject({ accepted: true, to: 'InProgress' });
    const toGroup = decide('InProgress', { type: 'ticket.reassign', by: { supportAdmin: true }, toSupportGroupId: 3 });
    expect(toGroup).toMatchObject({ accepted: true, to: 'Open' });
  });

  it('should refuse every other (event, status, party) and say why', () => {
    let refusals = 0;
    for (const type of Object.keys(Object.fromEntries(table.map((r) => [r.event, 1]))) as TicketEventType[]) {
      const row = table.find((r) => r.event === type)!;
      for (const status of ticketStatusNames) {
        for (const party of parties) {
          const allowed = row.from.includes(status) && row.who.includes(party);
          if (allowed) continue;
          refusals += 1;
          const decision = decide(status, fullEvent(type, { [party]: true }), closedRecently);
          expect(decision.accepted, `${type} from ${status} by ${party}`).toBe(false);
          if (!decision.accepted) {
            expect(decision.reason, `${type} from ${status} by ${party}`).toBe(row.from.includes(status) ? 'role' : 'status');
          }
        }
      }
    }
    expect(refusals).toBe(12 * 7 * 5 - table.reduce((n, r) => n + r.from.length * r.who.length, 0));
  });

  it('should refuse an event that lacks a required field and name the field', () => {
    expect(decide('InProgress', { type: 'ticket.hold', by: { assignee: true }, onHoldReason: '   ' })).toEqual({
      accepted: false,
      reason: 'fields',
      from: 'InProgress',
      missing: ['onHoldReason'],
    });
    expect(decide('Resolved', { type: 'ticket.reopen', by: { requester: true } })).toMatchObject({ reason: 'fields', missing: ['reopenReason'] });
    expect(decide('Open', { type: 'ticket.reassign', by: { supportAdmin: true } })).toMatchObject({
      reason: 'fields',
      missing: ['toSupportGroupId', 'toSupportUserId'],
    });
    expect(decide('InProgress', { type: 'ticket.escalate', by: { assignee: true }, targetSupportGroupId: 2 })).toMatchObject({ missing: ['description'] });
  });

  it('should reopen a closed ticket only within 30 days of closing', () => {
    const closedAt = '2026-03-01T10:00:00.000Z';
    const reopen = (at: string) => decide('Closed', { type: 'ticket.reopen', by: { requester: true }, reopenReason: 'again', at }, { closedAt });
    expect(reopen('2026-03-31T10:00:00.000Z')).toMatchObject({ accepted: true, to: 'Open' });
    expect(reopen('2026-03-31T10:00:00.001Z')).toMatchObject({ accepted: false, reason: 'window' });
  });

  it('should record when a ticket closed and forget it when reopened', () => {
    const closed = decide('Resolved', { type: 'ticket.close', by: { system: true }, at: '2026-05-05T05:05:05.000Z' });
    expect(closed.accepted && closed.snapshot.context.closedAt).toBe('2026-05-05T05:05:05.000Z');
    const reopened = decide(
      'Closed',
      { type: 'ticket.reopen', by: { supportAdmin: true }, reopenReason: 'r', at: '2026-05-06T00:00:00.000Z' },
      { closedAt: '2026-05-05T05:05:05.000Z' },
    );
    expect(reopened.accepted && reopened.snapshot.context.closedAt).toBeNull();
  });

  it('should let the requester edit only while Open and staff until the ticket is final', () => {
    expect(decide('Open', { type: 'ticket.edit', by: { requester: true } }).accepted).toBe(true);
    expect(decide('InProgress', { type: 'ticket.edit', by: { requester: true } })).toMatchObject({ accepted: false, reason: 'role' });
    expect(decide('Resolved', { type: 'ticket.edit', by: { assignee: true } }).accepted).toBe(true);
    expect(decide('Closed', { type: 'ticket.edit', by: { supportAdmin: true } })).toMatchObject({ accepted: false, reason: 'status' });
    expect(decide('Cancelled', { type: 'ticket.edit', by: { supportAdmin: true } })).toMatchObject({ accepted: false, reason: 'status' });
  });

  it('should keep chat open from Open to Resolved and read-only once Closed or Cancelled', () => {
    const open = ticketStatusNames.filter((s) => snapshotAt(s).hasTag('chatOpen'));
    expect(open).toEqual(['Open', 'InProgress', 'OnHold', 'Escalated', 'Resolved']);
  });

  it('should list the actions each party may start', () => {
    expect(availableActions('Open', { agent: true })).toEqual(['ticket.claim', 'ticket.acceptBotAnswer']);
    expect(availableActions('Open', { requester: true })).toEqual(['ticket.cancel', 'ticket.edit']);
    // The assignee may not cancel (requester and support admin only) nor accept the bot's answer (agents).
    expect(availableActions('InProgress', { assignee: true })).toEqual([
      'ticket.release',
      'ticket.hold',
      'ticket.reassign',
      'ticket.escalate',
      'ticket.resolve',
      'ticket.edit',
    ]);
    expect(availableActions('Resolved', { requester: true })).toEqual(['ticket.close', 'ticket.reopen']);
    expect(availableActions('Closed', { requester: true }, { closedAt: '2026-01-01T00:00:00.000Z', at: '2026-03-01T00:00:00.000Z' })).toEqual([]);
    expect(availableActions('Cancelled', { supportAdmin: true })).toEqual([]);
  });
});

describe('ticket lifecycle model-based paths', () => {
  const paths = ticketLifecyclePaths();

  const recorder = replayRecorder(ticketLifecycleMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(
    paths.map(
      (path) =>
        [
          path.steps
            .slice(1)
            .map((s) => s.event.type)
            .join(' → '),
          path,
        ] as const,
    ),
  )('should take %s through the statuses TICKETS.md gives, step by step', (trail, path) =>
    recorder.run({ ...path, description: trail } as never, async () => {
      const actor = createActor(ticketLifecycleMachine).start();
      let expected: TicketStatus = 'Open';
      for (const step of path.steps.slice(1)) {
        expected = expectedStatusAfter(expected, step.event);
        actor.send(step.event as TicketEvent);
        expect(actor.getSnapshot().value, `${trail}: after ${step.event.type}`).toBe(expected);
      }
      actor.stop();
    }),
  );

  it('should reach every status and every transition', () => {
    const report = reportMachineCoverage(ticketLifecycleMachine, paths);
    expect(report.states.covered).toHaveLength(7);
    expect(report.transitions.covered.length).toBe(report.transitions.total.length);
  });
});

describe('ticket lifecycle: what the mutation run showed untested (issue 14)', () => {
  it('should reassign to the group only when the named user is null, and want a target when both are null', () => {
    const toGroup = decide('InProgress', { type: 'ticket.reassign', by: { assignee: true }, toSupportGroupId: 3, toSupportUserId: null });
    expect(toGroup).toMatchObject({ accepted: true, to: 'Open' });
    expect(decide('OnHold', { type: 'ticket.reassign', by: { supportAdmin: true }, toSupportGroupId: null, toSupportUserId: null })).toEqual({
      accepted: false,
      reason: 'fields',
      from: 'OnHold',
      missing: ['toSupportGroupId', 'toSupportUserId'],
    });
  });

  it('should let a support admin who is not the assignee edit until the ticket is final', () => {
    for (const status of ['InProgress', 'OnHold', 'Escalated', 'Resolved'] as const) {
      expect(decide(status, { type: 'ticket.edit', by: { supportAdmin: true } }), status).toMatchObject({ accepted: true, to: status });
      expect(availableActions(status, { supportAdmin: true }), status).toContain('ticket.edit');
      expect(availableActions(status, { requester: true }), status).not.toContain('ticket.edit');
    }
  });

  it('should let a Closed ticket without a recorded close time be reopened (no window to measure)', () => {
    const reopen: TicketEvent = { type: 'ticket.reopen', by: { requester: true }, reopenReason: 'still broken', at: '2030-01-01T00:00:00.000Z' };
    expect(decide('Closed', reopen)).toMatchObject({ accepted: true, to: 'Open' });
    expect(decide('Closed', reopen, { closedAt: null })).toMatchObject({ accepted: true, to: 'Open' });
    expect(availableActions('Closed', { requester: true })).toEqual(['ticket.reopen']);
  });

  it('should offer the reopen of a Closed ticket only within its window, and of a Resolved one always', () => {
    const closedAt = '2026-03-01T10:00:00.000Z';
    expect(availableActions('Closed', { supportAdmin: true }, { closedAt, at: '2026-03-10T00:00:00.000Z' })).toEqual(['ticket.reopen']);
    expect(availableActions('Closed', { supportAdmin: true }, { closedAt, at: '2026-04-10T00:00:00.000Z' })).toEqual([]);
    // From Resolved there is no window: a reopen is offered whenever the party may send it.
    expect(availableActions('Resolved', { supportAdmin: true }, { closedAt, at: '2026-04-10T00:00:00.000Z' })).toEqual([
      'ticket.close',
      'ticket.reopen',
      'ticket.edit',
    ]);
  });
});

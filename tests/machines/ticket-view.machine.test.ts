import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventObject } from 'xstate';
import { actionNeedsInput, actionsFor, ticketViewMachine, type ActionRequest, type ViewedTicket } from '#machines/ticket-view.machine.ts';
import { claimedTicket, openTicketForAgent, ticketViewTestPaths } from '#machines/ticket-view.model.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { ticketViewExpectation } from '#tests/fixtures/expectations/ticket-view.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { replayPath } from './support/replay-path.ts';

afterEach(() => {
  vi.useRealTimers();
});

function start(options: { load?: () => Promise<ViewedTicket>; perform?: (request: ActionRequest) => Promise<ViewedTicket> } = {}) {
  const load = vi.fn(options.load ?? (async () => openTicketForAgent));
  const perform = vi.fn(options.perform ?? (async () => claimedTicket));
  const actor = createActor(
    ticketViewMachine.provide({
      actors: { loadTicket: fromPromise(() => load()), performAction: fromPromise(({ input }) => perform(input)) },
    }),
    { input: { ticketId: 7 } },
  ).start();
  return { actor, load, perform };
}

describe('ticket-view machine', () => {
  it('should offer exactly the lifecycle machine’s actions for the viewer', () => {
    expect(actionsFor(openTicketForAgent)).toEqual(['ticket.claim', 'ticket.acceptBotAnswer']);
    expect(actionsFor(claimedTicket)).toEqual([
      'ticket.release',
      'ticket.hold',
      'ticket.reassign',
      'ticket.escalate',
      'ticket.resolve',
      'ticket.acceptBotAnswer',
      'ticket.edit',
    ]);
    expect(actionsFor({ ...openTicketForAgent, viewer: { requester: true, agent: false, assignee: false, supportAdmin: false } })).toEqual([
      'ticket.cancel',
      'ticket.edit',
    ]);
    expect(actionsFor(null)).toEqual([]);
  });

  it('should ask for input only where the machine requires fields or the step is final', () => {
    expect(['ticket.claim', 'ticket.release', 'ticket.resume'].map((a) => actionNeedsInput(a as never))).toEqual([false, false, false]);
    expect(
      ['ticket.hold', 'ticket.resolve', 'ticket.reassign', 'ticket.escalate', 'ticket.cancel', 'ticket.reopen', 'ticket.close', 'ticket.edit'].every((a) =>
        actionNeedsInput(a as never),
      ),
    ).toBe(true);
  });

  it('should send a direct action at once and show the updated ticket', async () => {
    vi.useFakeTimers();
    const { actor, perform } = start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.claim' });
    expect(actor.getSnapshot().matches({ ready: 'submitting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(perform).toHaveBeenCalledWith({ ticketId: 7, action: 'ticket.claim', fields: {} });
    expect(actor.getSnapshot().context.ticket?.statusId).toBe(2);
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
  });

  it('should ignore an action the viewer may not take', async () => {
    vi.useFakeTimers();
    const { actor, perform } = start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.resolve' });
    actor.send({ type: 'action.start', action: 'ticket.release' });
    await vi.advanceTimersByTimeAsync(0);
    expect(perform).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
  });

  it('should keep the dialog open with the field errors of a 400', async () => {
    vi.useFakeTimers();
    const { actor } = start({
      load: async () => claimedTicket,
      perform: async () => {
        throw { status: 400, title: 'One or more validation errors occurred.', errors: { onHoldReason: ['The onHoldReason field is required.'] } };
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.hold' });
    actor.send({ type: 'action.change', fields: { onHoldReason: ' ' } });
    actor.send({ type: 'action.submit' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ onHoldReason: ['The onHoldReason field is required.'] });
    expect(actor.getSnapshot().context.fields).toEqual({ onHoldReason: ' ' });
  });

  it('should reload after a 409 and say what the ticket is now', async () => {
    vi.useFakeTimers();
    let loads = 0;
    const { actor } = start({
      load: async () => (++loads === 1 ? openTicketForAgent : { ...claimedTicket, viewer: { ...claimedTicket.viewer, assignee: false } }),
      perform: async () => {
        throw { statusCode: 409, messages: ['Ticket 7 was changed by someone else; it is now InProgress.'], currentStatus: 'InProgress' };
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.claim' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.changedTo).toBe('InProgress');
    expect(actor.getSnapshot().context.ticket?.statusId).toBe(2);
    expect(loads).toBe(2);
    actor.send({ type: 'notice.dismiss' });
    expect(actor.getSnapshot().context.changedTo).toBeNull();
  });

  // Issue 14 survivor: `isConflict` without its 404 half survived. A 404 after an action means
  // the ticket left the viewer's reach (reassigned to another group): the view reloads it and,
  // when the reload is refused too, shows the load failure instead of a stale ticket.
  it('should reload after a 404 to an action and show the failure when the ticket is out of reach', async () => {
    vi.useFakeTimers();
    let loads = 0;
    const gone = { statusCode: 404, messages: ['Ticket 7 was not found.'] };
    const { actor } = start({
      load: async () => {
        loads += 1;
        if (loads === 1) return openTicketForAgent;
        throw gone;
      },
      perform: async () => {
        throw gone;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.claim' });
    await vi.advanceTimersByTimeAsync(0);
    expect(loads).toBe(2);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.loadError).toEqual(gone);
    expect(actor.getSnapshot().context.action).toBeNull();
  });

  it('should reload after a 404 to an action and show the ticket as it is now when it is still readable', async () => {
    vi.useFakeTimers();
    let loads = 0;
    const { actor } = start({
      load: async () => (++loads === 1 ? openTicketForAgent : claimedTicket),
      perform: async () => {
        throw { statusCode: 404, messages: ['Ticket 7 was not found.'] };
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.claim' });
    await vi.advanceTimersByTimeAsync(0);
    expect(loads).toBe(2);
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.ticket?.statusId).toBe(2);
    expect(actor.getSnapshot().context.changedTo).toBe('InProgress');
  });
});

describe('ticket-view model', () => {
  const paths = ticketViewTestPaths();

  const recorder = replayRecorder(ticketViewMachine, 'machine', true);
  afterAll(() => void recorder.write());

  it.each(paths.map((path) => [path.description, path] as const))('should walk %s', (_description, path) =>
    recorder.run(path, async () => {
      const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
      const controlled = (name: string) => fromPromise(() => new Promise((resolve, reject) => pending.set(name, { resolve, reject })));
      await replayPath(path, {
        independent: new IndependentExpectation(ticketViewExpectation, { ticket: null, action: null, changedTo: null }),
        start: () =>
          createActor(
            ticketViewMachine.provide({
              actors: {
                loadTicket: fromPromise(({ self }) => new Promise((resolve, reject) => pending.set(self.id, { resolve, reject }))) as never,
                performAction: controlled('performAction') as never,
              },
            }),
            { input: { ticketId: 7 } },
          ).start(),
        settle: (event: EventObject) => {
          const [, kind, , id] = event.type.split('.');
          const waiting = pending.get(id);
          if (!waiting) return false;
          pending.delete(id);
          if (kind === 'done') waiting.resolve((event as EventObject & { output: unknown }).output);
          else waiting.reject((event as EventObject & { error: unknown }).error);
          return true;
        },
        expectSame: (live, model) => {
          expect(live.value).toEqual(model.value);
          expect(live.context.ticket).toEqual(model.context.ticket);
          expect(live.context.action).toEqual(model.context.action);
          expect(live.context.changedTo).toEqual(model.context.changedTo);
        },
      });
    }),
  );

  it('should take every rule of the independent table on some path (a transition the machine lacks has no path)', () => {
    expect(rulesNoPathTakes(ticketViewExpectation, () => ({ ticket: null, action: null, changedTo: null }), paths as never)).toEqual([]);
  });

  it('should reach every state and transition of the ticket view', () => {
    const report = reportMachineCoverage(ticketViewMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

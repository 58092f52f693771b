import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type EventObject } from 'xstate';
import { actionNeedsInput, actionsFor, ticketViewMachine, type ActionRequest, type ViewedTicket } from '#machines/ticket-view.machine.ts';
import { claimedTicket, openTicketForAgent, ticketViewTestPaths } from '#machines/ticket-view.model.ts';
import { reportMachineCoverage } from '#tests/setup/machine-coverage.ts';
import { IndependentExpectation, rulesNoPathTakes } from '#tests/fixtures/expectations/expectation-table.ts';
import { freshTicketViewFacts, ticketViewExpectation } from '#tests/fixtures/expectations/ticket-view.ts';
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

describe('ticket-view machine: what the mutation run showed untested (issue 14)', () => {
  const requester = { requester: true, agent: false, assignee: false, supportAdmin: false };
  const DAY = 24 * 60 * 60 * 1000;
  const now = new Date('2026-11-25T12:00:00.000Z');
  const closedDaysAgo = (days: number): ViewedTicket => ({
    ticketId: 7,
    statusId: 6,
    closedOn: new Date(now.getTime() - days * DAY).toISOString(),
    viewer: requester,
  });

  it('should offer a Closed ticket’s reopen only within 30 days of its close date (TICKETS.md)', () => {
    expect(actionsFor(closedDaysAgo(5), now)).toEqual(['ticket.reopen']);
    expect(actionsFor(closedDaysAgo(29.9), now)).toEqual(['ticket.reopen']);
    expect(actionsFor(closedDaysAgo(31), now)).toEqual([]);
  });

  it('should offer nothing for a status it does not know', () => {
    expect(actionsFor({ ...openTicketForAgent, statusId: 99 })).toEqual([]);
  });

  it('should never offer the system’s childrenDone, even to a viewer marked as the system', () => {
    const escalated = { ticketId: 7, statusId: 4, closedOn: null, viewer: { ...claimedTicket.viewer, system: true } } as ViewedTicket;
    expect(actionsFor(escalated)).not.toContain('ticket.childrenDone');
  });

  it('should ask the view for the ticket by its id on the first load, a reload and the reload after a conflict', async () => {
    vi.useFakeTimers();
    const asked: number[] = [];
    const actor = createActor(
      ticketViewMachine.provide({
        actors: {
          loadTicket: fromPromise(async ({ input }: { input: { ticketId: number } }) => {
            asked.push(input.ticketId);
            return openTicketForAgent;
          }),
          performAction: fromPromise<ViewedTicket, ActionRequest>(async () => {
            throw { statusCode: 409, messages: ['Ticket 31 was changed by someone else; it is now Open.'] };
          }),
        },
      }),
      { input: { ticketId: 31 } },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'ticket.reload' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    actor.send({ type: 'action.start', action: 'ticket.claim' });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([31, 31, 31]);
    expect(actor.getSnapshot().context.changedTo).toBe('Open');
  });

  it('should send the fields an action was started with', async () => {
    vi.useFakeTimers();
    const { actor, perform } = start({ load: async () => claimedTicket });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.hold', fields: { onHoldReason: 'Waiting for the centre' } });
    expect(actor.getSnapshot().context.fields).toEqual({ onHoldReason: 'Waiting for the centre' });
    actor.send({ type: 'action.change', fields: { note: 'second field' } });
    actor.send({ type: 'action.submit' });
    await vi.advanceTimersByTimeAsync(0);
    expect(perform).toHaveBeenCalledWith({ ticketId: 7, action: 'ticket.hold', fields: { onHoldReason: 'Waiting for the centre', note: 'second field' } });
  });

  it('should return to the ticket with the error when a direct action gets a 400 without field errors', async () => {
    vi.useFakeTimers();
    const refused = { status: 400, title: 'Bad request', messages: ['The ticket is not yours to claim.'] };
    const { actor } = start({
      perform: async () => {
        throw refused;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.claim' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.actionError).toEqual(refused);
    expect(actor.getSnapshot().context.fieldErrors).toBeNull();
  });

  it('should treat field errors as a form’s only on a 400 (a 500 that carries `errors` returns to the ticket)', async () => {
    vi.useFakeTimers();
    const broken = { statusCode: 500, messages: ['Something went wrong'], errors: { title: ['not the caller’s fault'] } };
    const { actor } = start({
      perform: async () => {
        throw broken;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.claim' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toBeNull();
    expect(actor.getSnapshot().context.actionError).toEqual(broken);
  });

  it.each([null, undefined, 'offline'])('should return to the ticket when an action fails with %j, not an error object', async (thrown) => {
    vi.useFakeTimers();
    const { actor } = start({ perform: () => Promise.reject(thrown) });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'action.start', action: 'ticket.claim' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.action).toBeNull();
    expect(actor.getSnapshot().context.actionError).toBe(thrown);
  });

  it('should fail loudly when the view provides no way to load or to act', async () => {
    vi.useFakeTimers();
    const bare = createActor(ticketViewMachine, { input: { ticketId: 7 } }).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(bare.getSnapshot().value).toBe('failed');
    expect((bare.getSnapshot().context.loadError as Error).message).toBe('loadTicket must be provided by the view');
    const loadOnly = createActor(ticketViewMachine.provide({ actors: { loadTicket: fromPromise(async () => openTicketForAgent) } }), {
      input: { ticketId: 7 },
    }).start();
    await vi.advanceTimersByTimeAsync(0);
    loadOnly.send({ type: 'action.start', action: 'ticket.claim' });
    await vi.advanceTimersByTimeAsync(0);
    expect((loadOnly.getSnapshot().context.actionError as Error).message).toBe('performAction must be provided by the view');
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
        independent: new IndependentExpectation(ticketViewExpectation, freshTicketViewFacts()),
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
    expect(rulesNoPathTakes(ticketViewExpectation, freshTicketViewFacts, paths as never)).toEqual([]);
  });

  it('should reach every state and transition of the ticket view', () => {
    const report = reportMachineCoverage(ticketViewMachine, paths);
    expect(report.states.covered).toEqual(report.states.total);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
  });
});

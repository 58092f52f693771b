import type { EventObject } from 'xstate';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';
import { ticketViewMachine, type TicketViewEvent, type ViewedTicket } from './ticket-view.machine.ts';

/** An Open ticket seen by an agent of its group (claim needs no input, hold is not offered yet). */
export const openTicketForAgent: ViewedTicket = {
  ticketId: 7,
  statusId: 1,
  closedOn: null,
  viewer: { requester: false, agent: true, assignee: false, supportAdmin: false },
};
/** The same ticket claimed by that agent. */
export const claimedTicket: ViewedTicket = { ...openTicketForAgent, statusId: 2, viewer: { ...openTicketForAgent.viewer, assignee: true } };

export const ticketViewModelEvents: Array<TicketViewEvent | EventObject> = [
  { type: 'ticket.reload' },
  { type: 'action.start', action: 'ticket.claim' },
  { type: 'action.start', action: 'ticket.hold' },
  { type: 'action.start', action: 'ticket.resolve' },
  { type: 'action.change', fields: { onHoldReason: 'Waiting for a screenshot' } },
  { type: 'action.submit' },
  { type: 'action.cancel' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.loadTicket', output: openTicketForAgent } as EventObject,
  { type: 'xstate.error.actor.loadTicket', error: { statusCode: 404, messages: ['Ticket 7 was not found.'] } } as EventObject,
  { type: 'xstate.done.actor.refreshTicket', output: claimedTicket } as EventObject,
  { type: 'xstate.error.actor.refreshTicket', error: { statusCode: 404 } } as EventObject,
  { type: 'xstate.done.actor.reloadAfterConflict', output: claimedTicket } as EventObject,
  { type: 'xstate.error.actor.reloadAfterConflict', error: { statusCode: 404 } } as EventObject,
  { type: 'xstate.done.actor.performAction', output: claimedTicket } as EventObject,
  { type: 'xstate.error.actor.performAction', error: { statusCode: 409, currentStatus: 'InProgress' } } as EventObject,
  // The ticket left the viewer's reach meanwhile (reassigned to another group).
  { type: 'xstate.error.actor.performAction', error: { statusCode: 404, messages: ['Ticket 7 was not found.'] } } as EventObject,
  { type: 'xstate.error.actor.performAction', error: { status: 400, errors: { onHoldReason: ['The onHoldReason field is required.'] } } } as EventObject,
  { type: 'xstate.error.actor.performAction', error: { statusCode: 500, messages: ['Something went wrong'] } } as EventObject,
];

export function ticketViewModel() {
  return createMachineTestModel(ticketViewMachine, {
    input: { ticketId: 7 },
    events: () => ticketViewModelEvents,
    serializeState: (snapshot) =>
      JSON.stringify([
        snapshot.value,
        snapshot.context.ticket?.statusId ?? null,
        snapshot.context.action,
        Boolean(snapshot.context.fieldErrors),
        Boolean(snapshot.context.actionError),
        snapshot.context.changedTo,
      ]),
  });
}

export function ticketViewTestPaths() {
  return transitionCoveringPaths(ticketViewModel());
}

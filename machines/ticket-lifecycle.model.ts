import { createTestModel } from '@xstate/graph';
import { ticketLifecycleMachine, type TicketEvent } from './ticket-lifecycle.machine.ts';

/**
 * The events the model-based tests send: each event type once, from a party allowed to send
 * it and carrying its required fields. Shared by the tests (machine, HTTP replay, UI) and the
 * /machines page, so the paths listed there are the paths the tests walk.
 */
export const ticketModelEvents: TicketEvent[] = [
  { type: 'ticket.claim', by: { agent: true } },
  { type: 'ticket.release', by: { assignee: true } },
  { type: 'ticket.hold', by: { assignee: true }, onHoldReason: 'Waiting for the candidate to send a screenshot' },
  { type: 'ticket.resume', by: { assignee: true } },
  { type: 'ticket.reassign', by: { supportAdmin: true }, toSupportGroupId: 2 },
  { type: 'ticket.reassign', by: { supportAdmin: true }, toSupportUserId: 'agent-2' },
  { type: 'ticket.escalate', by: { assignee: true }, targetSupportGroupId: 3, description: 'Needs the exam administration team' },
  { type: 'ticket.childrenDone', by: { system: true } },
  { type: 'ticket.resolve', by: { assignee: true }, answer: 'Cleared the browser cache; it works now.' },
  { type: 'ticket.acceptBotAnswer', by: { agent: true }, supportTicketBotId: 'bot-1' },
  { type: 'ticket.close', by: { requester: true }, at: '2026-03-01T10:00:00.000Z' },
  { type: 'ticket.reopen', by: { requester: true }, reopenReason: 'It broke again', at: '2026-03-02T10:00:00.000Z' },
  { type: 'ticket.cancel', by: { requester: true }, cancelReason: 'Solved it myself' },
  { type: 'ticket.edit', by: { supportAdmin: true } },
];

export const ticketLifecycleModel = createTestModel(ticketLifecycleMachine, {
  events: ticketModelEvents,
  // A node per (previous status, event, status): the shortest paths then walk every
  // transition, self-transitions (edit, reassign to the same status) included.
  serializeState: (state, event, previous) => `${JSON.stringify(previous?.value ?? null)}|${event ? JSON.stringify(event) : ''}|${JSON.stringify(state.value)}`,
});

/** Shortest paths to every (previous status, event, status) triple: every transition is walked. */
export function ticketLifecyclePaths() {
  return ticketLifecycleModel.getShortestPaths();
}

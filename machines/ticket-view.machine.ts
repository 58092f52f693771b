import { and, assign, fromPromise, setup } from 'xstate';
import type { DoneActorEvent, ErrorActorEvent } from 'xstate';
import { availableActions, statusName, ticketEventRules, type TicketActor, type TicketEventType } from './ticket-lifecycle.machine.ts';

/**
 * One open ticket on screen: loads it, offers exactly the actions the lifecycle machine
 * allows the viewer, asks for what an action must carry, sends it, and when someone else
 * changed the ticket first (409) reloads it and says so. The view provides `loadTicket` and
 * `performAction`; the rules come from ticket-lifecycle.machine.ts, never from here.
 */
export interface ViewedTicket {
  ticketId: number;
  statusId: number;
  closedOn: string | null;
  viewer: Required<Pick<TicketActor, 'requester' | 'agent' | 'assignee' | 'supportAdmin'>>;
}

export type TicketAction = Exclude<TicketEventType, 'ticket.childrenDone'>;

export interface TicketViewContext<T extends ViewedTicket = ViewedTicket> {
  ticketId: number;
  ticket: T | null;
  loadError: unknown;
  action: TicketAction | null;
  fields: Record<string, unknown>;
  fieldErrors: Record<string, string[]> | null;
  actionError: unknown;
  /** Set after a conflict: the status the ticket had when it was reloaded. */
  changedTo: string | null;
}

export type TicketViewEvent =
  | { type: 'ticket.reload' }
  | { type: 'action.start'; action: TicketAction; fields?: Record<string, unknown> }
  | { type: 'action.change'; fields: Record<string, unknown> }
  | { type: 'action.submit' }
  | { type: 'action.cancel' }
  | { type: 'notice.dismiss' };

export interface ActionRequest {
  ticketId: number;
  action: TicketAction;
  fields: Record<string, unknown>;
}

/** Actions that ask the user for something (a reason, an answer, a group) or for a confirmation. */
export function actionNeedsInput(action: TicketAction): boolean {
  const rule = ticketEventRules[action];
  return action === 'ticket.edit' || action === 'ticket.close' || Boolean(rule.requires?.length || rule.requiresAnyOf?.length);
}

/** The actions the viewer may start on the ticket now, in the lifecycle machine's order. */
export function actionsFor(ticket: ViewedTicket | null, now = new Date()): TicketAction[] {
  if (!ticket) return [];
  const status = statusName(ticket.statusId);
  if (!status) return [];
  return availableActions(status, ticket.viewer, { closedAt: ticket.closedOn, at: now.toISOString() }).filter(
    (type): type is TicketAction => type !== 'ticket.childrenDone',
  );
}

const statusOf = (error: unknown): number | undefined => {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { statusCode?: unknown; status?: unknown };
  return typeof e.statusCode === 'number' ? e.statusCode : typeof e.status === 'number' ? e.status : undefined;
};

export const ticketViewMachine = setup({
  types: {
    context: {} as TicketViewContext,
    events: {} as TicketViewEvent,
    input: {} as { ticketId: number },
  },
  actors: {
    loadTicket: fromPromise<ViewedTicket, { ticketId: number }>(async () => {
      throw new Error('loadTicket must be provided by the view');
    }),
    performAction: fromPromise<ViewedTicket, ActionRequest>(async () => {
      throw new Error('performAction must be provided by the view');
    }),
  },
  guards: {
    isAllowedAction: ({ context, event }) => event.type === 'action.start' && actionsFor(context.ticket).includes(event.action),
    needsInput: ({ event }) => event.type === 'action.start' && actionNeedsInput(event.action),
    isConflict: (_, error: unknown) => statusOf(error) === 409 || statusOf(error) === 404,
    // A status (400) is only read off an object that is not null: that needs no second check.
    isInvalidInput: (_, error: unknown) => statusOf(error) === 400 && 'errors' in (error as object),
    isAskingForInput: ({ context }) => context.action !== null && actionNeedsInput(context.action),
  },
  actions: {
    storeTicket: assign({ ticket: (_, ticket: ViewedTicket) => ticket, loadError: null }),
    storeLoadError: assign({ loadError: (_, error: unknown) => error }),
    beginAction: assign({
      action: ({ event }) => (event.type === 'action.start' ? event.action : null),
      fields: ({ event }) => (event.type === 'action.start' ? { ...event.fields } : {}),
      fieldErrors: null,
      actionError: null,
    }),
    changeFields: assign({ fields: ({ context, event }) => (event.type === 'action.change' ? { ...context.fields, ...event.fields } : context.fields) }),
    endAction: assign({ action: null, fields: {}, fieldErrors: null, actionError: null }),
    storeFieldErrors: assign({ fieldErrors: (_, error: unknown) => (error as { errors: Record<string, string[]> }).errors, actionError: null }),
    storeActionError: assign({ actionError: (_, error: unknown) => error }),
    noteChange: assign({ changedTo: ({ context }) => (context.ticket ? (statusName(context.ticket.statusId) ?? null) : null) }),
    dismissNotice: assign({ changedTo: null }),
  },
}).createMachine({
  id: 'ticketView',
  context: ({ input }) => ({
    ticketId: input.ticketId,
    ticket: null,
    loadError: null,
    action: null,
    fields: {},
    fieldErrors: null,
    actionError: null,
    changedTo: null,
  }),
  initial: 'loading',
  on: { 'notice.dismiss': { actions: 'dismissNotice' } },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadTicket',
        src: 'loadTicket',
        input: ({ context }) => ({ ticketId: context.ticketId }),
        onDone: { target: 'ready', actions: { type: 'storeTicket', params: ({ event }: { event: DoneActorEvent<ViewedTicket> }) => event.output } },
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
      },
    },
    failed: {
      on: { 'ticket.reload': 'loading' },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'action.start': [
              { guard: and(['isAllowedAction', 'needsInput']), target: 'editing', actions: 'beginAction' },
              { guard: 'isAllowedAction', target: 'submitting', actions: 'beginAction' },
            ],
            'ticket.reload': 'refreshing',
          },
        },
        editing: {
          on: {
            'action.change': { actions: 'changeFields' },
            'action.submit': 'submitting',
            'action.cancel': { target: 'idle', actions: 'endAction' },
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'performAction',
            src: 'performAction',
            input: ({ context }) => ({ ticketId: context.ticketId, action: context.action!, fields: context.fields }),
            onDone: {
              target: 'idle',
              actions: [{ type: 'storeTicket', params: ({ event }: { event: DoneActorEvent<ViewedTicket> }) => event.output }, 'endAction'],
            },
            onError: [
              {
                guard: { type: 'isConflict', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                target: 'reloadingAfterConflict',
                actions: 'endAction',
              },
              {
                guard: { type: 'isInvalidInput', params: ({ event }: { event: ErrorActorEvent }) => event.error },
                target: 'editing',
                actions: { type: 'storeFieldErrors', params: ({ event }: { event: ErrorActorEvent }) => event.error },
              },
              {
                guard: 'isAskingForInput',
                target: 'editing',
                actions: { type: 'storeActionError', params: ({ event }: { event: ErrorActorEvent }) => event.error },
              },
              // The action ends first: ending it clears the error, which the ticket screen must still show.
              { target: 'idle', actions: ['endAction', { type: 'storeActionError', params: ({ event }: { event: ErrorActorEvent }) => event.error }] },
            ],
          },
        },
        refreshing: {
          tags: ['busy'],
          invoke: {
            id: 'refreshTicket',
            src: 'loadTicket',
            input: ({ context }) => ({ ticketId: context.ticketId }),
            onDone: { target: 'idle', actions: { type: 'storeTicket', params: ({ event }: { event: DoneActorEvent<ViewedTicket> }) => event.output } },
            onError: { target: '#ticketView.failed', actions: { type: 'storeLoadError', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
          },
        },
        reloadingAfterConflict: {
          tags: ['busy'],
          invoke: {
            id: 'reloadAfterConflict',
            src: 'loadTicket',
            input: ({ context }) => ({ ticketId: context.ticketId }),
            onDone: {
              target: 'idle',
              actions: [{ type: 'storeTicket', params: ({ event }: { event: DoneActorEvent<ViewedTicket> }) => event.output }, 'noteChange'],
            },
            onError: { target: '#ticketView.failed', actions: { type: 'storeLoadError', params: ({ event }: { event: ErrorActorEvent }) => event.error } },
          },
        },
      },
    },
  },
});

import type { EventObject } from 'xstate';
import { notificationCenterMachine, type NotificationCenterEvent, type NotificationDto, type NotificationPageResult } from './notification-center.machine.ts';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';

/** A notification of the model: a ticket reply, `hoursAgo` old. The ids are what the events name. */
export function modelNotification(id: number, hoursAgo: number, read = false): NotificationDto {
  const createdOn = new Date(Date.UTC(2026, 11, 6, 12) - hoursAgo * 3_600_000).toISOString();
  return {
    id,
    kind: 'ticket.reply',
    titleKey: 'kinds.ticket.reply',
    params: { ticketId: id, title: `Hall ticket ${id}`, from: 'Chen Agent' },
    link: `/tickets/${id}`,
    createdOn,
    readOn: read ? createdOn : null,
    archivedOn: null,
  };
}

const firstPage: NotificationPageResult = { data: [modelNotification(1, 1), modelNotification(2, 2, true)], hasNextPage: true, unreadCount: 1 };
const lastPage: NotificationPageResult = { data: [modelNotification(3, 3)], hasNextPage: false, unreadCount: 2 };
const failure = { messages: ['Server unavailable'], statusCode: 503 };

/**
 * Every kind of event once: the person's (open, close, more, read, read all, archive, UNDO),
 * the hub's pushes, and each call answering or failing. Notification 1 is the one acted on;
 * 4 arrives by push.
 */
export const notificationCenterModelEvents: Array<NotificationCenterEvent | (EventObject & Record<string, unknown>)> = [
  { type: 'count.load' },
  { type: 'hub.created', notification: modelNotification(4, 0), unreadCount: 3 },
  { type: 'hub.count', unreadCount: 7 },
  { type: 'hub.resync' },
  { type: 'list.open' },
  { type: 'list.close' },
  { type: 'list.reload' },
  { type: 'list.more' },
  { type: 'item.read', id: 1 },
  { type: 'item.readAll' },
  { type: 'item.archive', id: 1 },
  { type: 'item.unarchive', id: 1 },
  // An answer to a change told to the server: which change it answers is the path's earlier steps
  // (a replay settles the waiting call); the op here only makes the event well-formed.
  { type: 'mutation.done', op: 'read', id: 1, unreadCount: 0, notification: modelNotification(1, 1, true) },
  { type: 'mutation.failed', op: 'read', id: 1, error: failure },
  { type: 'xstate.done.actor.fetchCount', output: 2 },
  { type: 'xstate.error.actor.fetchCount', error: failure },
  { type: 'xstate.done.actor.fetchFirstPage', output: firstPage },
  { type: 'xstate.error.actor.fetchFirstPage', error: failure },
  { type: 'xstate.done.actor.fetchNextPage', output: lastPage },
  { type: 'xstate.error.actor.fetchNextPage', error: failure },
];

/**
 * Nodes are told apart by state, by notification 1 (absent, unread, read), and by whether an
 * archive or a "read all" was made (so their answers and UNDO are on some path). Counts, times
 * and the other notifications change what is shown, not where the machine goes, and would make
 * the graph endless. Whether more can be shown is left out too: the first page always has more,
 * so "Show older" is reached that way.
 */
export function notificationCenterModel() {
  return createMachineTestModel(notificationCenterMachine, {
    // Only what the state takes (an answer to a call nobody made is not a path), and a person's
    // changes only where the list is on screen to make them (their answers may come later).
    events: (snapshot) =>
      notificationCenterModelEvents.filter(
        (event) => snapshot.can(event as NotificationCenterEvent) && (!event.type.startsWith('item.') || snapshot.matches({ list: 'ready' })),
      ),
    exhaustive: true,
    serializeState: (snapshot) => {
      const { items, archived, readByReadAll } = snapshot.context;
      const first = items.find((n) => n.id === 1);
      const one = first ? (first.readOn ? 'read' : 'unread') : 'absent';
      return [JSON.stringify(snapshot.value), one, archived.length > 0, readByReadAll.length > 0].join('|');
    },
  });
}

export function notificationCenterTestPaths() {
  return transitionCoveringPaths(notificationCenterModel());
}

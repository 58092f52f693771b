import { createActor, fromCallback, fromPromise } from 'xstate';
import {
  notificationCenterMachine,
  type MutationInput,
  type NotificationPageResult,
  type NotificationCenterActor,
  type NotificationCenterEvent,
} from '#machines/notification-center.machine.ts';
import type { NotificationCountData, NotificationCreatedData } from '#machines/realtime-protocol.ts';
import { registerLiveActor } from '#src/app/live-actors.ts';
import { setUnreadCount } from '#src/app/notifications/unread-count.ts';
import { realtimeUserId, subscribeRealtime, subscribeRealtimeStatus, type RealtimeNotice } from '#src/app/realtime/realtime-events.ts';
import { inboxApi } from './api/inbox-api.ts';

/**
 * The running notification center (docs/decisions/0262): the notification-center actor with
 * its calls, fed by the realtime bus; its count goes to the bell's tiny store. Loaded after the
 * first content, once someone is signed in (src/app/realtime/realtime-boot.ts); follows the
 * hub's user: a new person gets a fresh actor, signing out clears the bell.
 */
export type InboxApi = Pick<typeof inboxApi, 'unreadCount' | 'search' | 'markRead' | 'markAllRead' | 'archive' | 'unarchive'>;

export function createInboxActor(api: InboxApi = inboxApi): NotificationCenterActor {
  const machine = notificationCenterMachine.provide({
    actors: {
      fetchCount: fromPromise(async () => (await api.unreadCount()).unreadCount),
      fetchPage: fromPromise<NotificationPageResult, { pageNumber: number; pageSize: number }>(async ({ input }) => {
        const page = await api.search(input);
        return { data: page.data, hasNextPage: page.hasNextPage, unreadCount: page.unreadCount };
      }),
      mutate: fromCallback<NotificationCenterEvent, MutationInput>(({ input, sendBack }) => {
        const { op, id, key } = input;
        const call =
          op === 'readAll'
            ? api.markAllRead().then((r) => ({ unreadCount: r.unreadCount, notification: null }))
            : (op === 'read' ? api.markRead : op === 'archive' ? api.archive : api.unarchive)(id!).then((r) => ({
                unreadCount: r.unreadCount,
                notification: r.notification,
              }));
        call.then(
          (r) => sendBack({ type: 'mutation.done', op, id, key, ...r }),
          (error: unknown) => sendBack({ type: 'mutation.failed', op, id, key, error }),
        );
      }),
    },
  });
  return createActor(machine);
}

/** Hands the hub's notices to the actor. */
export function feedFromRealtime(actor: NotificationCenterActor, notice: RealtimeNotice) {
  if (notice.type === 'resync' || (notice.type === 'connected' && notice.resumed)) return actor.send({ type: 'hub.resync' });
  if (notice.type !== 'event') return;
  const { frame } = notice;
  if (frame.kind === 'notification.created') {
    const data = frame.data as unknown as NotificationCreatedData;
    actor.send({ type: 'hub.created', notification: data.notification, unreadCount: data.unreadCount });
  } else if (frame.kind === 'notification.count') {
    actor.send({ type: 'hub.count', unreadCount: (frame.data as unknown as NotificationCountData).unreadCount });
  }
}

let current: { actor: NotificationCenterActor; userId: string; release: () => void } | null = null;
const actorListeners = new Set<() => void>();

/** The running actor, for the /notifications page (null while nobody is signed in here). */
export function inboxActor(): NotificationCenterActor | null {
  return current?.actor ?? null;
}

export function subscribeInboxActor(listener: () => void): () => void {
  actorListeners.add(listener);
  return () => actorListeners.delete(listener);
}

function follow(userId: string | null) {
  if (current && current.userId === userId) return;
  if (current) {
    current.release();
    current.actor.stop();
    current = null;
    setUnreadCount(null);
  }
  if (userId) {
    const actor = createInboxActor();
    actor.on('count.changed', ({ unreadCount }) => setUnreadCount(unreadCount));
    actor.start();
    actor.send({ type: 'count.load' });
    current = { actor, userId, release: registerLiveActor('notification-center', notificationCenterMachine, actor) };
  }
  for (const listener of [...actorListeners]) listener();
}

let started = false;

/** Starts following the hub (once): the count loads when the hub says who is signed in. */
export function startInbox(): void {
  if (started) return;
  started = true;
  subscribeRealtime((notice) => {
    if (current) feedFromRealtime(current.actor, notice);
  });
  subscribeRealtimeStatus(() => follow(realtimeUserId()));
  follow(realtimeUserId());
}

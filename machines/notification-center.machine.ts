import { assign, emit, enqueueActions, fromCallback, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { NotificationDto, NotificationKind } from './realtime-protocol.ts';

export type { NotificationDto, NotificationKind };
export { notificationKinds } from './realtime-protocol.ts';
export type NotificationChannel = 'inApp' | 'email' | 'both' | 'none';

/**
 * The notification center on the client (issue 21, docs/decisions/0262): the unread count the
 * bell shows and the list of `/notifications`. No I/O of its own: the calls are provided
 * actors, the hub's pushes arrive as events (`hub.created`, `hub.count`, `hub.resync`).
 *
 * - `count` region: `idle` → `loading` (GET unread count) → `known`; a failure retries on the
 *   next push or `count.load`. Pushes set the count directly: the server sends the new count
 *   with every change, so nothing is counted here.
 * - `list` region: `closed` until `list.open`; `loading` → `ready` | `failed`; `list.more`
 *   appends the next page. A pushed notification is put on top of a loaded list.
 * - Mutations (read, read all, archive, UNDO) change the list at once and run as child
 *   callbacks; a failure puts the item back as it was and emits `mutation.failed`. An archive
 *   emits `archived` so the screen opens the snackbar whose UNDO sends `item.unarchive`.
 */
export interface NotificationPageResult {
  data: NotificationDto[];
  hasNextPage: boolean;
  unreadCount: number;
}

export type MutationOp = 'read' | 'readAll' | 'archive' | 'unarchive';

export interface MutationInput {
  op: MutationOp;
  id: number | null;
  /** The child's id: its answer names it, and the child is stopped once it has answered. */
  key?: string;
}

export interface NotificationCenterContext {
  unreadCount: number | null;
  items: NotificationDto[];
  pageNumber: number;
  hasMore: boolean;
  loadingMore: boolean;
  error: unknown;
  /** Archived here and not yet restored or gone for good: what UNDO puts back. */
  archived: NotificationDto[];
  /** The notifications the last "read all" turned read on screen: unread again if the server refuses it. */
  readByReadAll: number[];
  pageSize: number;
  /** Changes told to the server so far: names each one's child. */
  changesMade: number;
}

export type NotificationCenterEvent =
  | { type: 'count.load' }
  | { type: 'hub.created'; notification: NotificationDto; unreadCount: number }
  | { type: 'hub.count'; unreadCount: number }
  | { type: 'hub.resync' }
  | { type: 'list.open' }
  | { type: 'list.close' }
  | { type: 'list.reload' }
  | { type: 'list.more' }
  | { type: 'item.read'; id: number }
  | { type: 'item.readAll' }
  | { type: 'item.archive'; id: number }
  | { type: 'item.unarchive'; id: number }
  | { type: 'mutation.done'; op: MutationOp; id: number | null; key?: string; unreadCount: number; notification: NotificationDto | null }
  | { type: 'mutation.failed'; op: MutationOp; id: number | null; key?: string; error: unknown };

export type NotificationCenterEmitted =
  { type: 'archived'; id: number } | { type: 'mutation.failed'; op: MutationOp; error: unknown } | { type: 'count.changed'; unreadCount: number };

export const NOTIFICATION_PAGE_SIZE = 20;

const byNewest = (a: NotificationDto, b: NotificationDto) => b.createdOn.localeCompare(a.createdOn) || b.id - a.id;
const withItem = (items: NotificationDto[], item: NotificationDto) => [...items.filter((n) => n.id !== item.id), item].sort(byNewest);

export const notificationCenterMachine = setup({
  types: {
    context: {} as NotificationCenterContext,
    events: {} as NotificationCenterEvent,
    emitted: {} as NotificationCenterEmitted,
  },
  actors: {
    fetchCount: fromPromise<number>(async () => {
      throw new Error('provide fetchCount');
    }),
    fetchPage: fromPromise<NotificationPageResult, { pageNumber: number; pageSize: number }>(async () => {
      throw new Error('provide fetchPage');
    }),
    mutate: fromCallback<NotificationCenterEvent, MutationInput>(({ sendBack, input }) => {
      sendBack({ type: 'mutation.failed', op: input.op, id: input.id, key: input.key, error: new Error('provide mutate') });
    }),
  },
  actions: {
    /** Tells the server about a change, in a child of its own until the answer comes. */
    tellServer: enqueueActions(({ context, enqueue }, change: MutationInput) => {
      const key = `change-${context.changesMade + 1}`;
      enqueue.assign({ changesMade: context.changesMade + 1 });
      enqueue.spawnChild('mutate', { id: key, input: { ...change, key } });
    }),
    /** The answer came: its child has nothing more to do. */
    forgetChange: enqueueActions(({ enqueue }, key: string | undefined) => {
      if (key) enqueue.stopChild(key);
    }),
    setCount: enqueueActions(({ context, enqueue }, count: number) => {
      if (context.unreadCount === count) return;
      enqueue.assign({ unreadCount: count });
      enqueue.emit({ type: 'count.changed', unreadCount: count });
    }),
  },
}).createMachine({
  id: 'notification-center',
  context: () => ({
    unreadCount: null,
    items: [],
    pageNumber: 0,
    hasMore: false,
    loadingMore: false,
    error: null,
    archived: [],
    readByReadAll: [],
    pageSize: NOTIFICATION_PAGE_SIZE,
    changesMade: 0,
  }),
  type: 'parallel',
  on: {
    'hub.created': {
      actions: [
        { type: 'setCount', params: ({ event }) => event.unreadCount },
        assign({ items: ({ context, event }) => (context.pageNumber > 0 ? withItem(context.items, event.notification) : context.items) }),
      ],
    },
    'hub.count': { actions: { type: 'setCount', params: ({ event }) => event.unreadCount } },
    'item.read': {
      guard: ({ context, event }) => context.items.some((n) => n.id === event.id && n.readOn === null),
      actions: [
        assign({
          items: ({ context, event }) => context.items.map((n) => (n.id === event.id ? { ...n, readOn: new Date().toISOString() } : n)),
        }),
        { type: 'setCount', params: ({ context }) => Math.max(0, (context.unreadCount ?? 1) - 1) },
        { type: 'tellServer', params: ({ event }) => ({ op: 'read', id: event.id }) },
      ],
    },
    'item.readAll': {
      actions: [
        assign({
          items: ({ context }) => context.items.map((n) => (n.readOn ? n : { ...n, readOn: new Date().toISOString() })),
          readByReadAll: ({ context }) => context.items.filter((n) => !n.readOn).map((n) => n.id),
        }),
        { type: 'setCount', params: 0 },
        { type: 'tellServer', params: { op: 'readAll', id: null } },
      ],
    },
    'item.archive': {
      guard: ({ context, event }) => context.items.some((n) => n.id === event.id),
      actions: [
        assign(({ context, event }) => {
          const item = context.items.find((n) => n.id === event.id)!;
          return { items: context.items.filter((n) => n.id !== event.id), archived: [...context.archived.filter((n) => n.id !== event.id), item] };
        }),
        { type: 'tellServer', params: ({ event }) => ({ op: 'archive', id: event.id }) },
        emit(({ event }) => ({ type: 'archived' as const, id: event.id })),
      ],
    },
    'item.unarchive': {
      actions: [
        assign(({ context, event }) => {
          const item = context.archived.find((n) => n.id === event.id);
          return {
            items: item ? withItem(context.items, { ...item, archivedOn: null }) : context.items,
            archived: context.archived.filter((n) => n.id !== event.id),
          };
        }),
        { type: 'tellServer', params: ({ event }) => ({ op: 'unarchive', id: event.id }) },
      ],
    },
    'mutation.done': {
      actions: [
        { type: 'forgetChange', params: ({ event }) => event.key },
        { type: 'setCount', params: ({ event }) => event.unreadCount },
        assign({
          items: ({ context, event }) => {
            const fresh = event.notification;
            if (!fresh || event.op === 'archive') return context.items;
            // The server's version replaces the one on screen; an item no longer listed stays out.
            return context.items.map((n) => (n.id === fresh.id ? fresh : n));
          },
        }),
      ],
    },
    'mutation.failed': {
      actions: [
        { type: 'forgetChange', params: ({ event }) => event.key },
        assign(({ context, event }) => {
          if (event.op === 'archive') {
            const item = context.archived.find((n) => n.id === event.id);
            return { items: item ? withItem(context.items, item) : context.items, archived: context.archived.filter((n) => n.id !== event.id) };
          }
          if (event.op === 'unarchive') return { items: context.items.filter((n) => n.id !== event.id) };
          if (event.op === 'read') return { items: context.items.map((n) => (n.id === event.id ? { ...n, readOn: null } : n)) };
          // A refused "read all" leaves unread what it had turned read (what was read before stays read).
          const unread = new Set(context.readByReadAll);
          return { items: context.items.map((n) => (unread.has(n.id) ? { ...n, readOn: null } : n)), readByReadAll: [] };
        }),
        emit(({ event }) => ({ type: 'mutation.failed' as const, op: event.op, error: event.error })),
        // The server's count is the truth after a failed change.
        enqueueActions(({ enqueue }) => enqueue.raise({ type: 'count.load' })),
      ],
    },
  },
  states: {
    count: {
      initial: 'idle',
      states: {
        idle: { on: { 'count.load': 'loading', 'hub.resync': 'loading' } },
        loading: {
          invoke: {
            id: 'fetchCount',
            src: 'fetchCount',
            onDone: { target: 'known', actions: { type: 'setCount', params: ({ event }) => event.output } },
            onError: 'idle',
          },
        },
        known: { on: { 'count.load': 'loading', 'hub.resync': 'loading' } },
      },
    },
    list: {
      initial: 'closed',
      states: {
        closed: { on: { 'list.open': 'loading' } },
        loading: {
          entry: assign({ error: null }),
          // Leaving the page mid-load closes the list: the answer is dropped, and the next visit loads afresh.
          on: { 'list.close': 'closed' },
          invoke: {
            id: 'fetchFirstPage',
            src: 'fetchPage',
            input: ({ context }) => ({ pageNumber: 1, pageSize: context.pageSize }),
            onDone: {
              target: 'ready',
              actions: [
                assign({ items: ({ event }) => [...event.output.data].sort(byNewest), pageNumber: 1, hasMore: ({ event }) => event.output.hasNextPage }),
                { type: 'setCount', params: ({ event }) => event.output.unreadCount },
              ],
            },
            onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
          },
        },
        ready: {
          initial: 'idle',
          on: {
            'list.reload': '#notification-center.list.loading',
            'hub.resync': '#notification-center.list.loading',
            'list.close': '#notification-center.list.closed',
          },
          states: {
            idle: { on: { 'list.more': { guard: ({ context }) => context.hasMore, target: 'more' } } },
            more: {
              entry: assign({ loadingMore: true }),
              // However it is left (an answer, a resync, the page closing), nothing is loading more.
              exit: assign({ loadingMore: false }),
              invoke: {
                id: 'fetchNextPage',
                src: 'fetchPage',
                input: ({ context }) => ({ pageNumber: context.pageNumber + 1, pageSize: context.pageSize }),
                onDone: {
                  target: 'idle',
                  actions: assign({
                    items: ({ context, event }) => event.output.data.reduce(withItem, context.items),
                    pageNumber: ({ context }) => context.pageNumber + 1,
                    hasMore: ({ event }) => event.output.hasNextPage,
                  }),
                },
                onError: { target: 'idle', actions: assign({ error: ({ event }) => event.error }) },
              },
            },
          },
        },
        failed: { on: { 'list.reload': 'loading', 'list.open': 'loading', 'list.close': 'closed' } },
      },
    },
  },
});

export type NotificationCenterMachine = typeof notificationCenterMachine;
export type NotificationCenterActor = ActorRefFrom<NotificationCenterMachine>;

import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import {
  notificationCenterMachine,
  type MutationInput,
  type NotificationCenterEvent,
  type NotificationDto,
  type NotificationPageResult,
} from '#machines/notification-center.machine.ts';

/** Expected values are written from issue 21 / decision 0262, not read back from the machine. */
const n = (id: number, createdOn: string, readOn: string | null = null): NotificationDto => ({
  id,
  kind: 'ticket.reply',
  titleKey: 'kinds.ticket.reply',
  params: { ticketId: id, title: `T${id}`, from: 'Chen' },
  link: `/tickets/${id}`,
  createdOn,
  readOn,
  archivedOn: null,
});

function harness(options: { count?: number; pages?: NotificationPageResult[]; fail?: Partial<Record<MutationInput['op'], boolean>>; unread?: number } = {}) {
  const calls: MutationInput[] = [];
  const pages = [...(options.pages ?? [])];
  const emitted: Array<{ type: string; [k: string]: unknown }> = [];
  const machine = notificationCenterMachine.provide({
    actors: {
      fetchCount: fromPromise(async () => options.count ?? 0),
      fetchPage: fromPromise(async () => {
        const page = pages.shift();
        if (!page) throw new Error('offline');
        return page;
      }),
      mutate: fromCallback<NotificationCenterEvent, MutationInput>(({ input, sendBack }) => {
        calls.push(input);
        queueMicrotask(() =>
          options.fail?.[input.op]
            ? sendBack({ type: 'mutation.failed', op: input.op, id: input.id, error: new Error('500') })
            : sendBack({ type: 'mutation.done', op: input.op, id: input.id, unreadCount: options.unread ?? 0, notification: null }),
        );
      }),
    },
  });
  const actor = createActor(machine).start();
  for (const type of ['archived', 'mutation.failed', 'count.changed'] as const) actor.on(type, (e) => void emitted.push(e as never));
  return { actor, calls, emitted };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('notification-center machine', () => {
  it('should load the unread count, and follow the counts the hub pushes', async () => {
    const { actor, emitted } = harness({ count: 4 });
    expect(actor.getSnapshot().context.unreadCount).toBeNull();
    actor.send({ type: 'count.load' });
    await waitFor(actor, (s) => s.matches({ count: 'known' }));
    expect(actor.getSnapshot().context.unreadCount).toBe(4);
    actor.send({ type: 'hub.count', unreadCount: 2 });
    expect(actor.getSnapshot().context.unreadCount).toBe(2);
    expect(emitted.filter((e) => e.type === 'count.changed').map((e) => e.unreadCount)).toEqual([4, 2]);
  });

  it('should load the list newest first and put a pushed notification on top, once', async () => {
    const { actor } = harness({ pages: [{ data: [n(1, '2026-12-01T08:00:00Z'), n(2, '2026-12-02T08:00:00Z')], hasNextPage: false, unreadCount: 2 }] });
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([2, 1]);
    const pushed = n(3, '2026-12-02T09:00:00Z');
    actor.send({ type: 'hub.created', notification: pushed, unreadCount: 3 });
    actor.send({ type: 'hub.created', notification: pushed, unreadCount: 3 });
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([3, 2, 1]);
    expect(actor.getSnapshot().context.unreadCount).toBe(3);
  });

  it('should not keep pushed notifications while the list was never opened (the page loads them)', () => {
    const { actor } = harness();
    actor.send({ type: 'hub.created', notification: n(9, '2026-12-02T09:00:00Z'), unreadCount: 1 });
    expect(actor.getSnapshot().context.items).toEqual([]);
    expect(actor.getSnapshot().context.unreadCount).toBe(1);
  });

  it('should page on with list.more and stop at the last page', async () => {
    const { actor } = harness({
      pages: [
        { data: [n(5, '2026-12-02T05:00:00Z')], hasNextPage: true, unreadCount: 2 },
        { data: [n(4, '2026-12-01T05:00:00Z')], hasNextPage: false, unreadCount: 2 },
      ],
    });
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'list.more' });
    await waitFor(actor, (s) => s.matches({ list: { ready: 'idle' } }) && s.context.pageNumber === 2);
    expect(actor.getSnapshot().context).toMatchObject({ hasMore: false, pageNumber: 2 });
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([5, 4]);
    actor.send({ type: 'list.more' });
    expect(actor.getSnapshot().matches({ list: { ready: 'idle' } })).toBe(true);
  });

  it('should show a failed list and load again on reload', async () => {
    const { actor } = harness({ pages: [] });
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'failed' }));
    expect(actor.getSnapshot().context.error).toBeInstanceOf(Error);
  });

  it('should mark one read at once, and all read, telling the server each time', async () => {
    const { actor, calls } = harness({
      unread: 1,
      pages: [{ data: [n(1, '2026-12-01T08:00:00Z'), n(2, '2026-12-02T08:00:00Z')], hasNextPage: false, unreadCount: 2 }],
    });
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'item.read', id: 1 });
    expect(actor.getSnapshot().context.items.find((i) => i.id === 1)!.readOn).not.toBeNull();
    expect(actor.getSnapshot().context.unreadCount).toBe(1);
    // Reading it again asks nothing.
    actor.send({ type: 'item.read', id: 1 });
    actor.send({ type: 'item.readAll' });
    expect(actor.getSnapshot().context.items.every((i) => i.readOn !== null)).toBe(true);
    expect(actor.getSnapshot().context.unreadCount).toBe(0);
    expect(calls).toEqual([
      { op: 'read', id: 1 },
      { op: 'readAll', id: null },
    ]);
  });

  it('should archive at once, announce it for the snackbar, and bring it back in place on UNDO', async () => {
    const { actor, calls, emitted } = harness({
      pages: [{ data: [n(1, '2026-12-01T08:00:00Z'), n(2, '2026-12-02T08:00:00Z'), n(3, '2026-12-03T08:00:00Z')], hasNextPage: false, unreadCount: 3 }],
    });
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'item.archive', id: 2 });
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([3, 1]);
    expect(emitted).toContainEqual({ type: 'archived', id: 2 });
    await tick();
    actor.send({ type: 'item.unarchive', id: 2 });
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([3, 2, 1]);
    expect(calls).toEqual([
      { op: 'archive', id: 2 },
      { op: 'unarchive', id: 2 },
    ]);
  });

  it('should put an archived notification back when the server refuses, and say so', async () => {
    const { actor, emitted } = harness({ fail: { archive: true }, pages: [{ data: [n(1, '2026-12-01T08:00:00Z')], hasNextPage: false, unreadCount: 1 }] });
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'item.archive', id: 1 });
    expect(actor.getSnapshot().context.items).toEqual([]);
    await tick();
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([1]);
    expect(emitted.some((e) => e.type === 'mutation.failed' && e.op === 'archive')).toBe(true);
  });
});

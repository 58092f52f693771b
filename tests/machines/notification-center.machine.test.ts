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
        calls.push({ op: input.op, id: input.id });
        queueMicrotask(() =>
          options.fail?.[input.op]
            ? sendBack({ type: 'mutation.failed', op: input.op, id: input.id, key: input.key, error: new Error('500') })
            : sendBack({ type: 'mutation.done', op: input.op, id: input.id, key: input.key, unreadCount: options.unread ?? 0, notification: null }),
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

  it('should keep each change running until its answer, and no longer', async () => {
    const { actor } = harness({
      fail: { archive: true },
      pages: [{ data: [n(1, '2026-12-01T08:00:00Z'), n(2, '2026-12-02T08:00:00Z')], hasNextPage: false, unreadCount: 2 }],
    });
    const changes = () => Object.keys(actor.getSnapshot().children).filter((id) => id.startsWith('change-'));
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'item.read', id: 1 });
    actor.send({ type: 'item.archive', id: 2 });
    expect(changes()).toEqual(['change-1', 'change-2']);
    // One answered, one refused: neither is left behind.
    await tick();
    expect(changes()).toEqual([]);
    actor.send({ type: 'item.readAll' });
    expect(changes()).toEqual(['change-3']);
    await tick();
    expect(changes()).toEqual([]);
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

/**
 * The server's answers come from the test: `mutate` only records the call, and the test sends
 * the `mutation.done` / `mutation.failed` the running callback would send back.
 */
async function controlled(options: { counts?: number[]; pages?: NotificationPageResult[] } = {}) {
  const calls: MutationInput[] = [];
  const pageInputs: Array<{ pageNumber: number; pageSize: number }> = [];
  const counts = [...(options.counts ?? [])];
  const pages = [...(options.pages ?? [])];
  const emitted: Array<{ type: string; [k: string]: unknown }> = [];
  const machine = notificationCenterMachine.provide({
    actors: {
      fetchCount: fromPromise(async () => counts.shift() ?? 0),
      fetchPage: fromPromise<NotificationPageResult, { pageNumber: number; pageSize: number }>(async ({ input }) => {
        pageInputs.push(input);
        const page = pages.shift();
        if (!page) throw new Error('offline');
        return page;
      }),
      mutate: fromCallback<NotificationCenterEvent, MutationInput>(({ input }) => void calls.push(input)),
    },
  });
  const actor = createActor(machine).start();
  for (const type of ['archived', 'mutation.failed', 'count.changed'] as const) actor.on(type, (e) => void emitted.push(e as never));
  if (options.pages?.length) {
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }), { timeout: 2_000 });
  }
  const ids = () => actor.getSnapshot().context.items.map((i) => i.id);
  const item = (id: number) => actor.getSnapshot().context.items.find((i) => i.id === id);
  return { actor, calls, pageInputs, emitted, ids, item };
}

const page = (data: NotificationDto[], hasNextPage = false): NotificationPageResult => ({
  data,
  hasNextPage,
  unreadCount: data.filter((d) => !d.readOn).length,
});
const threeUnread = () => [n(1, '2026-12-01T08:00:00Z'), n(2, '2026-12-02T08:00:00Z'), n(3, '2026-12-03T08:00:00Z')];
const refused = (op: MutationInput['op'], id: number | null) => ({ type: 'mutation.failed' as const, op, id, error: new Error('500') });

describe('notification-center machine: start and order', () => {
  it('should start with no count, an empty list, nothing more to load and nothing to undo', () => {
    const { actor } = harness();
    expect(actor.getSnapshot().context).toMatchObject({
      unreadCount: null,
      items: [],
      pageNumber: 0,
      hasMore: false,
      loadingMore: false,
      error: null,
      archived: [],
    });
  });

  it('should order notifications of the same moment by the newer id first', async () => {
    const at = '2026-12-01T08:00:00Z';
    const { ids } = await controlled({ pages: [page([n(2, at), n(5, at), n(1, at), n(4, at), n(3, at)])] });
    expect(ids()).toEqual([5, 4, 3, 2, 1]);
  });

  it('should ask the server for page 1 of 20 on open and for page 2 on list.more', async () => {
    const { actor, pageInputs } = await controlled({ pages: [page([n(5, '2026-12-02T05:00:00Z')], true), page([n(4, '2026-12-01T05:00:00Z')])] });
    actor.send({ type: 'list.more' });
    await waitFor(actor, (s) => s.context.pageNumber === 2, { timeout: 2_000 });
    expect(pageInputs).toEqual([
      { pageNumber: 1, pageSize: 20 },
      { pageNumber: 2, pageSize: 20 },
    ]);
  });

  it('should announce a count only when it changes', () => {
    const { actor, emitted } = harness();
    actor.send({ type: 'hub.count', unreadCount: 3 });
    actor.send({ type: 'hub.count', unreadCount: 3 });
    actor.send({ type: 'hub.created', notification: n(7, '2026-12-02T09:00:00Z'), unreadCount: 3 });
    actor.send({ type: 'hub.count', unreadCount: 2 });
    expect(emitted.filter((e) => e.type === 'count.changed')).toEqual([
      { type: 'count.changed', unreadCount: 3 },
      { type: 'count.changed', unreadCount: 2 },
    ]);
  });
});

describe('notification-center machine: read', () => {
  it('should mark only the clicked notification read', async () => {
    const { actor, item } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'item.read', id: 2 });
    expect(item(2)!.readOn).not.toBeNull();
    expect([item(1)!.readOn, item(3)!.readOn]).toEqual([null, null]);
  });

  it('should keep every notification as it was, only read, after read all', async () => {
    const { actor } = await controlled({ pages: [page([n(1, '2026-12-01T08:00:00Z', '2026-12-01T09:00:00Z'), n(2, '2026-12-02T08:00:00Z')])] });
    actor.send({ type: 'item.readAll' });
    const items = actor.getSnapshot().context.items;
    expect(items.map(({ id, link, readOn }) => ({ id, link, read: readOn !== null }))).toEqual([
      { id: 2, link: '/tickets/2', read: true },
      { id: 1, link: '/tickets/1', read: true },
    ]);
    // An item read before keeps the moment it was read.
    expect(items[1]!.readOn).toBe('2026-12-01T09:00:00Z');
  });

  it("should show the server's version of a notification once the read is confirmed", async () => {
    const { actor, item } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'item.read', id: 2 });
    const confirmed = { ...n(2, '2026-12-02T08:00:00Z', '2026-12-05T10:00:00Z'), params: { ticketId: 2, title: 'Renamed', from: 'Chen' } };
    actor.send({ type: 'mutation.done', op: 'read', id: 2, unreadCount: 2, notification: confirmed });
    expect(item(2)).toEqual(confirmed);
    expect(item(1)).toEqual(n(1, '2026-12-01T08:00:00Z'));
    expect(item(3)).toEqual(n(3, '2026-12-03T08:00:00Z'));
    expect(actor.getSnapshot().context.unreadCount).toBe(2);
  });

  it('should not bring back a notification that left the list when a late confirmation names it', async () => {
    const { actor, ids } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'mutation.done', op: 'read', id: 9, unreadCount: 3, notification: n(9, '2026-12-04T08:00:00Z', '2026-12-05T10:00:00Z') });
    expect(ids()).toEqual([3, 2, 1]);
  });

  it('should make a notification unread again when the server refuses the read, leaving the others read', async () => {
    const { actor, item, emitted } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'item.read', id: 1 });
    actor.send({ type: 'item.read', id: 2 });
    actor.send(refused('read', 1));
    expect(item(1)!.readOn).toBeNull();
    expect(item(2)!.readOn).not.toBeNull();
    expect(item(3)!.readOn).toBeNull();
    expect(emitted).toContainEqual({ type: 'mutation.failed', op: 'read', error: new Error('500') });
  });

  it('should make unread again what read all turned read when the server refuses it, keeping what was read before', async () => {
    const { actor, item, emitted } = await controlled({
      pages: [page([n(1, '2026-12-01T08:00:00Z', '2026-12-01T09:00:00Z'), n(2, '2026-12-02T08:00:00Z'), n(3, '2026-12-03T08:00:00Z')])],
    });
    actor.send({ type: 'item.readAll' });
    expect([item(1)!.readOn, item(2)!.readOn, item(3)!.readOn].every((readOn) => readOn !== null)).toBe(true);
    actor.send(refused('readAll', null));
    expect(item(1)!.readOn).toBe('2026-12-01T09:00:00Z');
    expect([item(2)!.readOn, item(3)!.readOn]).toEqual([null, null]);
    expect(emitted).toContainEqual({ type: 'mutation.failed', op: 'readAll', error: new Error('500') });
  });

  it('should ask the server for the unread count again after a refused change', async () => {
    const { actor } = await controlled({ counts: [3, 2], pages: [page(threeUnread())] });
    actor.send({ type: 'count.load' });
    await waitFor(actor, (s) => s.matches({ count: 'known' }) && s.context.unreadCount === 3, { timeout: 2_000 });
    actor.send({ type: 'item.read', id: 1 });
    expect(actor.getSnapshot().context.unreadCount).toBe(2);
    actor.send({ type: 'hub.count', unreadCount: 1 });
    actor.send(refused('read', 1));
    await tick();
    expect(actor.getSnapshot().context.unreadCount).toBe(2);
  });
});

describe('notification-center machine: archive and UNDO', () => {
  it('should ignore an archive of a notification that is not in the list', async () => {
    const { actor, ids, calls, emitted } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'item.archive', id: 9 });
    expect(ids()).toEqual([3, 2, 1]);
    expect(calls).toEqual([]);
    expect(emitted.filter((e) => e.type === 'archived')).toEqual([]);
    expect(actor.getSnapshot().context.archived).toEqual([]);
  });

  it('should UNDO each of two archives, each bringing back its own notification', async () => {
    const { actor, ids } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'item.archive', id: 1 });
    actor.send({ type: 'item.archive', id: 2 });
    expect(ids()).toEqual([3]);
    actor.send({ type: 'item.unarchive', id: 2 });
    expect(ids()).toEqual([3, 2]);
    expect(actor.getSnapshot().context.archived.map((a) => a.id)).toEqual([1]);
    actor.send({ type: 'item.unarchive', id: 1 });
    expect(ids()).toEqual([3, 2, 1]);
    expect(actor.getSnapshot().context.archived).toEqual([]);
  });

  it('should UNDO to the version archived last when the same notification was archived twice', async () => {
    const { actor, item } = await controlled({
      pages: [page(threeUnread()), page([n(1, '2026-12-01T08:00:00Z'), n(2, '2026-12-02T08:00:00Z', '2026-12-04T08:00:00Z')])],
    });
    actor.send({ type: 'item.archive', id: 2 });
    // A reload answered before the archive was saved: 2 is listed again, read meanwhile.
    actor.send({ type: 'list.reload' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }) && s.context.items.length === 2, { timeout: 2_000 });
    actor.send({ type: 'item.archive', id: 2 });
    expect(actor.getSnapshot().context.archived.map((a) => a.id)).toEqual([2]);
    actor.send({ type: 'item.unarchive', id: 2 });
    expect(item(2)!.readOn).toBe('2026-12-04T08:00:00Z');
  });

  it('should keep a notification restored by UNDO when the archive is confirmed after it', async () => {
    const { actor, item } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'item.archive', id: 2 });
    actor.send({ type: 'item.unarchive', id: 2 });
    actor.send({
      type: 'mutation.done',
      op: 'archive',
      id: 2,
      unreadCount: 3,
      notification: { ...n(2, '2026-12-02T08:00:00Z'), archivedOn: '2026-12-05T10:00:00Z' },
    });
    expect(item(2)).toEqual(n(2, '2026-12-02T08:00:00Z'));
  });

  it('should put back only the refused archive and keep the other one undoable', async () => {
    const { actor, ids } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'item.archive', id: 1 });
    actor.send({ type: 'item.archive', id: 2 });
    actor.send(refused('archive', 2));
    expect(ids()).toEqual([3, 2]);
    expect(actor.getSnapshot().context.archived.map((a) => a.id)).toEqual([1]);
    actor.send({ type: 'item.unarchive', id: 1 });
    expect(ids()).toEqual([3, 2, 1]);
  });

  it('should take a notification out again when the server refuses its UNDO', async () => {
    const { actor, ids, emitted } = await controlled({ pages: [page(threeUnread())] });
    actor.send({ type: 'item.archive', id: 2 });
    actor.send({ type: 'item.unarchive', id: 2 });
    expect(ids()).toEqual([3, 2, 1]);
    actor.send(refused('unarchive', 2));
    expect(ids()).toEqual([3, 1]);
    expect(emitted).toContainEqual({ type: 'mutation.failed', op: 'unarchive', error: new Error('500') });
  });
});

describe('notification-center machine without provided actors', () => {
  it('should stay without a count when fetchCount is not provided', async () => {
    const actor = createActor(notificationCenterMachine).start();
    actor.send({ type: 'count.load' });
    await waitFor(actor, (s) => s.matches({ count: 'idle' }), { timeout: 2_000 });
    expect(actor.getSnapshot().context.unreadCount).toBeNull();
  });

  it('should fail the list, naming the missing fetchPage', async () => {
    const actor = createActor(notificationCenterMachine).start();
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'failed' }), { timeout: 2_000 });
    expect(actor.getSnapshot().context.error).toEqual(new Error('provide fetchPage'));
  });

  it('should refuse every change, naming the missing mutate, and undo it on screen', async () => {
    const machine = notificationCenterMachine.provide({ actors: { fetchPage: fromPromise(async () => page(threeUnread())) } });
    const actor = createActor(machine).start();
    const failures: unknown[] = [];
    actor.on('mutation.failed', (e) => void failures.push(e));
    actor.send({ type: 'list.open' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }), { timeout: 2_000 });
    actor.send({ type: 'item.read', id: 2 });
    expect(actor.getSnapshot().context.items.find((i) => i.id === 2)!.readOn).toBeNull();
    expect(failures).toEqual([{ type: 'mutation.failed', op: 'read', error: new Error('provide mutate') }]);
  });
});

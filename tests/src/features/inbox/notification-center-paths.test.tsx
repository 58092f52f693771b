import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { transition, type EventObject } from 'xstate';
import { computeCoverage, transitionsTakenBy } from '#machines/graph-coverage.ts';
import { notificationCenterMachine, type MutationOp, type NotificationDto } from '#machines/notification-center.machine.ts';
import { modelNotification, notificationCenterModelEvents, notificationCenterTestPaths } from '#machines/notification-center.model.ts';
import { NotificationsHost } from '#src/app/notifications/notifications-host.tsx';
import { closeSnackbar } from '#src/app/notifications/snackbar.ts';
import { publishRealtime, setRealtimeUserId } from '#src/app/realtime/realtime-events.ts';
import { NotificationBell } from '#src/app/shell/notification-bell.tsx';
import { inboxActor, startInbox } from '#src/features/inbox/inbox-runtime.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import {
  IndependentExpectation,
  pathName,
  rulesNoPathTakes,
  sampleTakingEveryRule,
  stepName,
  tableEvent,
} from '#tests/fixtures/expectations/expectation-table.ts';
import {
  freshNotificationCenterFacts,
  mutationOps,
  notificationCenterExpectation,
  type NotificationCenterFacts,
} from '#tests/fixtures/expectations/notification-center.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';

/**
 * The notification center's generated paths walked through the running inbox in jsdom (issue
 * 14): the runtime the app starts (src/features/inbox/inbox-runtime.ts) with its actor, the
 * bell, the /notifications list and the snackbar. A person's events are clicks, a push is a
 * notice on the realtime bus, and every call goes to a small in-memory server whose answers
 * wait until the path says how each call ends. After every step the live actor and the screen
 * are checked against the independent table (tests/fixtures/expectations/notification-center.ts).
 * A step the screen does not offer there (UNDO with no snackbar, an answer to no call) is
 * checked as not offered, and the table is not moved.
 */
interface Call {
  kind: 'unreadCount' | 'search' | MutationOp;
  id: number | null;
  pageNumber?: number;
  settle: (ok: boolean) => Promise<EventObject>;
}

const server = vi.hoisted(() => ({ calls: [] as unknown[], rows: [] as unknown[] }));

/** The in-memory server: 21 notifications (20 a page), 1 the newest and unread. */
function resetServer() {
  server.calls.length = 0;
  server.rows = Array.from({ length: 21 }, (_, index) => modelNotification(index + 1, index + 1, index % 3 === 1));
}
const rows = () => server.rows as NotificationDto[];
const live = () => rows().filter((n) => !n.archivedOn);
const unread = () => live().filter((n) => !n.readOn).length;
const calls = () => server.calls as Call[];
const failure = { messages: ['The server could not do that.'], statusCode: 500 };

/** A call that waits: the path settles it, then the server applies it (or not) and answers. */
function waiting<T>(call: Omit<Call, 'settle'>, answer: () => T, apply: () => void = () => {}) {
  return new Promise<T>((resolve, reject) => {
    calls().push({
      ...call,
      settle: async (ok) => {
        if (!ok) {
          reject(failure);
          return { type: 'failed', error: failure };
        }
        apply();
        const body = answer();
        resolve(body);
        return { type: 'done', output: body };
      },
    } as Call);
  });
}

const marked = (id: number) => ({ notification: rows().find((n) => n.id === id)!, unreadCount: unread() });
const update = (id: number, change: Partial<NotificationDto>) => {
  server.rows = rows().map((n) => (n.id === id ? { ...n, ...change } : n));
};

vi.mock('#src/features/inbox/api/inbox-api.ts', () => ({
  inboxApi: {
    unreadCount: () => waiting({ kind: 'unreadCount', id: null }, () => ({ unreadCount: unread() })),
    search: ({ pageNumber, pageSize }: { pageNumber: number; pageSize: number }) =>
      waiting({ kind: 'search', id: null, pageNumber }, () => {
        const all = [...live()].sort((a, b) => b.createdOn.localeCompare(a.createdOn) || b.id - a.id);
        const data = all.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
        return { data, hasNextPage: pageNumber * pageSize < all.length, unreadCount: unread(), currentPage: pageNumber, totalPages: 2, totalCount: all.length };
      }),
    markRead: (id: number) =>
      waiting(
        { kind: 'read', id },
        () => marked(id),
        () => update(id, { readOn: new Date().toISOString() }),
      ),
    markAllRead: () =>
      waiting(
        { kind: 'readAll', id: null },
        () => ({ updated: 1, unreadCount: unread() }),
        () => {
          server.rows = rows().map((n) => ({ ...n, readOn: n.readOn ?? new Date().toISOString() }));
        },
      ),
    archive: (id: number) =>
      waiting(
        { kind: 'archive', id },
        () => marked(id),
        () => update(id, { archivedOn: new Date().toISOString() }),
      ),
    unarchive: (id: number) =>
      waiting(
        { kind: 'unarchive', id },
        () => marked(id),
        () => update(id, { archivedOn: null }),
      ),
  },
}));

const generated = notificationCenterTestPaths();
type ModelPath = (typeof generated)[number];

/**
 * The model's nodes do not tell "an UNDO waits for its answer" from "nothing waits", so no
 * generated path answers an UNDO or a "read all" right after it. These paths do: the shortest
 * generated path ending in that change, with one answer more, each step taken by the machine.
 */
function answeredAfter(change: string): ModelPath[] {
  const types = (path: ModelPath) => path.steps.map((step) => step.event.type);
  // An UNDO is offered after an archive only.
  const [shortest] = generated
    .filter((path) => types(path).at(-1) === change && (change !== 'item.unarchive' || types(path).includes('item.archive')))
    .sort((a, b) => a.steps.length - b.steps.length);
  return ['mutation.done', 'mutation.failed'].map((type) => {
    const event = notificationCenterModelEvents.find((e) => e.type === type)!;
    const [state] = transition(notificationCenterMachine, shortest.state, event as never);
    return {
      description: `${shortest.description} → ${type}`,
      state,
      steps: [...shortest.steps, { event, state }],
    } as ModelPath;
  });
}

const paths = [
  ...sampleTakingEveryRule(notificationCenterExpectation, freshNotificationCenterFacts, generated, (path) =>
    transitionsTakenBy(notificationCenterMachine, [path]),
  ),
  ...answeredAfter('item.unarchive'),
  ...answeredAfter('item.readAll'),
];
const recorder = replayRecorder(notificationCenterMachine, 'jsdom', true);
/** The kinds of change answered on the system across the sample, each as done and as failed. */
const answersApplied = new Set<string>();

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['notifications', 'tickets', 'ui', 'errors']);
  // jsdom has no Web Animations; the snackbar's transition asks for one.
  HTMLElement.prototype.animate = function animate() {
    return { cancel: () => {} } as Animation;
  } as typeof HTMLElement.prototype.animate;
});
afterEach(async () => {
  cleanup();
  await act(async () => {
    await closeSnackbar();
  });
});
afterAll(() => {
  act(() => setRealtimeUserId(null));
  recorder.write();
});

const { default: NotificationsPage } = await import('#src/features/inbox/inbox-page.tsx');

/** The id a list row is about, from its title ("… replied on ticket #7: …"). */
const rowId = (row: HTMLElement) => Number(/ticket #(\d+)/.exec(row.textContent ?? '')?.[1]);
const titleOf = (id: number) => `Chen Agent replied on ticket #${id}: Hall ticket ${id}`;

/** What the bell and the page must show in the state the table expects. */
async function expectScreen(state: string, facts: NotificationCenterFacts, pageOpen: boolean, where: string) {
  await waitFor(() => {
    const badge = screen.queryByTestId('notification-count');
    if (facts.count && facts.count > 0) expect(badge?.textContent, `${where}: the bell`).toBe(facts.count > 99 ? '99+' : String(facts.count));
    else expect(badge, `${where}: no badge without unread`).toBeNull();
    if (!pageOpen) return;
    const list = state.split('|')[1];
    if (list === 'list.loading') expect(screen.getByTestId('notifications-loading'), where).toBeInTheDocument();
    if (list === 'list.failed') expect(screen.getByRole('button', { name: 'Try again' }), `${where}: a retry`).toBeInTheDocument();
    if (list.startsWith('list.ready')) {
      const shown = screen.queryAllByTestId('notification-item').map((row) => ({ id: rowId(row), unread: row.dataset.unread === 'true' }));
      expect(shown, `${where}: the list`).toEqual(facts.items.map((n) => ({ id: n.id, unread: n.unread })));
      const older = screen.queryByRole('button', { name: 'Show older' });
      expect(older !== null, `${where}: "Show older" while there is more`).toBe(facts.hasMore);
      expect(screen.getByRole('button', { name: 'Mark all read' }).hasAttribute('disabled'), `${where}: "Mark all read" with nothing unread`).toBe(
        !facts.count,
      );
    }
  });
}

const push = (kind: 'notification.created' | 'notification.count', data: Record<string, unknown>) =>
  act(() => publishRealtime({ type: 'event', frame: { type: 'event', cursor: 1, kind, ticketId: null, data, at: new Date().toISOString() } }));

describe('notification center paths through the bell and the list (jsdom)', () => {
  it('should sample paths that take every rule of the table and every transition', () => {
    // A rule no generated path takes is one the machine lacks. An answer's rules are per kind of
    // change and state: the model's shortest paths do not make every change before every state,
    // so those are checked by the walks below instead (each kind answered both ways).
    const untaken = rulesNoPathTakes(notificationCenterExpectation, freshNotificationCenterFacts, generated);
    expect(untaken.filter((rule) => !/--mutation\.(done|failed) \(when/.test(rule))).toEqual([]);
    const report = computeCoverage(notificationCenterMachine, paths);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
    expect(paths.length).toBeLessThan(150);
  });

  it.each(paths.map((path, index) => [pathName(path), path, index] as const))('should walk %s', (_name, path, index) =>
    recorder.run(path, async () => {
      resetServer();
      const user = userEvent.setup();
      // The hub says who is signed in; the runtime starts a fresh actor for them and reads the count.
      act(() => setRealtimeUserId(`user-${index}`));
      startInbox();
      const actor = inboxActor()!;
      const independent = new IndependentExpectation(notificationCenterExpectation, freshNotificationCenterFacts());
      independent.next({ type: 'count.load' });
      const shell = render(
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <NotificationBell />
          </MemoryRouter>
          <NotificationsHost />
        </I18nextProvider>,
      );
      let page: ReturnType<typeof render> | null = null;
      const trail: string[] = [];

      for (const { event } of path.steps.slice(1)) {
        const name = tableEvent(event);
        trail.push(stepName(event));
        const where = trail.join(' → ');
        /** The event the system really got, for the table; null when the screen did not offer the step. */
        let happened: (EventObject & Record<string, unknown>) | null = null;
        /** Clicks the button when the screen offers it; whether it did. */
        const click = async (button: HTMLElement | null) => {
          if (!button || button.hasAttribute('disabled')) return false;
          await user.click(button);
          return true;
        };

        if (name === 'count.load') {
          // The runtime asks for the count when it starts; a new start is a new person.
          happened = null;
        } else if (name === 'hub.created') {
          const notification = modelNotification(100 + trail.length, 0);
          server.rows = [...rows(), notification];
          push('notification.created', { notification, unreadCount: unread() });
          happened = { type: 'hub.created', notification, unreadCount: unread() };
        } else if (name === 'hub.count') {
          // Another tab read the oldest unread one.
          const other = [...live()].reverse().find((n) => !n.readOn && n.id !== 1);
          if (other) update(other.id, { readOn: new Date().toISOString() });
          push('notification.count', { unreadCount: unread() });
          happened = { type: 'hub.count', unreadCount: unread() };
        } else if (name === 'hub.resync') {
          act(() => publishRealtime({ type: 'resync' }));
          happened = event;
        } else if (name === 'list.open') {
          if (!page) {
            page = render(
              <I18nextProvider i18n={i18n}>
                <MemoryRouter>
                  <NotificationsPage />
                </MemoryRouter>
              </I18nextProvider>,
            );
            happened = event;
          }
        } else if (name === 'list.close') {
          if (page) {
            page.unmount();
            page = null;
            happened = event;
          }
        } else if (name === 'list.reload') {
          if (await click(screen.queryByRole('button', { name: 'Try again' }))) happened = event;
        } else if (name === 'list.more') {
          if (await click(screen.queryByRole('button', { name: 'Show older' }))) happened = event;
        } else if (name === 'item.read') {
          if (await click(screen.queryByRole('button', { name: `Mark read: ${titleOf(1)}` }))) happened = { type: 'item.read', id: 1 };
        } else if (name === 'item.readAll') {
          if (await click(screen.queryByRole('button', { name: 'Mark all read' }))) happened = event;
        } else if (name === 'item.archive') {
          if (await click(screen.queryByRole('button', { name: `Archive: ${titleOf(1)}` }))) happened = { type: 'item.archive', id: 1 };
        } else if (name === 'item.unarchive') {
          const snackbar = screen.queryByTestId('snackbar');
          if (await click(snackbar ? within(snackbar).queryByRole('button', { name: 'UNDO' }) : null)) happened = { type: 'item.unarchive', id: 1 };
        } else {
          // An answer: the waiting call of that kind ends as the path says. A change's answer is the
          // newest change's: so an UNDO is answered before the archive it undoes, as the network may.
          const kind = name.endsWith('fetchCount') ? 'unreadCount' : name.includes('fetch') ? 'search' : 'change';
          const pageNumber = name.endsWith('fetchFirstPage') ? 1 : name.endsWith('fetchNextPage') ? 2 : undefined;
          const call = (kind === 'change' ? [...calls()].reverse() : calls()).find((c) =>
            kind === 'change' ? c.kind !== 'unreadCount' && c.kind !== 'search' : c.kind === kind && (pageNumber === undefined || c.pageNumber === pageNumber),
          );
          if (call) {
            calls().splice(calls().indexOf(call), 1);
            const ok = name.startsWith('done') || name === 'mutation.done';
            let answer: EventObject = { type: 'none' };
            await act(async () => {
              answer = await call.settle(ok);
            });
            const body = answer as EventObject & { output?: unknown };
            if (kind === 'unreadCount')
              happened = {
                type: `${ok ? 'done' : 'error'}.fetchCount`,
                output: ok ? (body.output as { unreadCount: number }).unreadCount : undefined,
              } as EventObject;
            else if (kind === 'search')
              happened = { type: `${ok ? 'done' : 'error'}.${pageNumber === 1 ? 'fetchFirstPage' : 'fetchNextPage'}`, output: body.output } as EventObject;
            else {
              happened = ok
                ? ({ type: 'mutation.done', op: call.kind, id: call.id, ...(body.output as object) } as EventObject)
                : ({ type: 'mutation.failed', op: call.kind, id: call.id, error: failure } as EventObject);
              answersApplied.add(`${call.kind} ${ok ? 'done' : 'failed'}`);
            }
          }
        }

        if (happened) independent.next(happened);
        await waitFor(() => independent.check({ type: 'xstate.init' }, actor.getSnapshot(), where));
        await expectScreen(independent.state, independent.facts, page !== null, where);
      }
      page?.unmount();
      shell.unmount();
    }),
  );

  it('should have answered every kind of change on the system, as done and as failed', () => {
    expect([...answersApplied].sort().join(', ')).toEqual(
      mutationOps
        .flatMap((op) => [`${op} done`, `${op} failed`])
        .sort()
        .join(', '),
    );
  });
});

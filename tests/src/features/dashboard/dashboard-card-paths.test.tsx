import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, EventObject } from 'xstate';
import { dashboardCardMachine } from '#machines/dashboard-card.machine.ts';
import { dashboardCardTestPaths } from '#machines/dashboard-card.model.ts';
import { computeCoverage, transitionsTakenBy } from '#machines/graph-coverage.ts';
import { liveActors } from '#src/app/live-actors.ts';
import { publishRealtime } from '#src/app/realtime/realtime-events.ts';
import { CARD_LIVE_RELOAD_MS, DashboardCard } from '#src/features/dashboard/components/dashboard-card.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { IndependentExpectation, pathName, sampleTakingEveryRule, tableEvent } from '#tests/fixtures/expectations/expectation-table.ts';
import { dashboardCardExpectation, freshDashboardCardFacts, type DashboardCardFacts } from '#tests/fixtures/expectations/dashboard-card.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';

/**
 * The dashboard card's generated paths walked through a real card in jsdom (issue 14): the
 * person's retry is a click on "Try again", a live update is a ticket push from the realtime
 * hub, and the card's load is a promise the test settles. After every step the live actor and
 * the screen are checked against the independent table (tests/fixtures/expectations/dashboard-card.ts),
 * never against the machine's own prediction. A step the screen does not offer (retrying a card
 * that has not failed, an answer to a load nobody asked for) is checked as not offered instead.
 */
const paths = sampleTakingEveryRule(dashboardCardExpectation, freshDashboardCardFacts, dashboardCardTestPaths(), (path) =>
  transitionsTakenBy(dashboardCardMachine, [path]),
);
const recorder = replayRecorder(dashboardCardMachine, 'jsdom', true);

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['dashboard', 'ui', 'errors']);
});
afterEach(cleanup);
afterAll(() => void recorder.write());

/** A card whose loads wait for the test: each call is kept, newest last. */
function mountCard() {
  const loads: Array<{ resolve: (value: string) => void; reject: (error: unknown) => void; settled: boolean }> = [];
  const load = () =>
    new Promise<string>((resolve, reject) => {
      const entry = { resolve, reject, settled: false };
      loads.push(entry);
    });
  const { user } = renderAt(
    '/',
    <DashboardCard id="open" title="Open tickets" to="/tickets" linkLabel="All tickets" load={load} liveTickets>
      {(data) => <p data-testid="card-open-data">{data}</p>}
    </DashboardCard>,
  );
  const actor = liveActors().find((entry) => entry.id === 'dashboard-card:open' && !entry.stopped)?.actorRef as AnyActorRef | undefined;
  if (!actor) throw new Error('the card runs no live dashboard-card actor');
  const pending = () => loads.filter((entry) => !entry.settled);
  /** Settles every superseded load first (their answers must be dropped), then the newest. */
  const answer = async (outcome: 'resolve' | 'reject', value: string) => {
    const waiting = pending();
    for (const older of waiting.slice(0, -1)) {
      older.settled = true;
      older.resolve('superseded');
    }
    const newest = waiting.at(-1)!;
    newest.settled = true;
    await act(async () => (outcome === 'resolve' ? newest.resolve(value) : newest.reject(Object.assign(new Error('Network Error'), { code: 'ERR_NETWORK' }))));
  };
  return { user, actor, loads, pending, answer };
}

/** What the card must show in the state the table expects. */
async function expectCard(state: string, facts: DashboardCardFacts, trail: string) {
  await waitFor(() => {
    const card = screen.getByTestId('card-open');
    // The link to the full list is there whatever the card's data does.
    expect(within(card).getByRole('link', { name: 'All tickets' }).getAttribute('href')).toBe('/tickets');
    const skeleton = within(card).queryByRole('status', { name: 'Loading Open tickets…' });
    const alert = within(card).queryByRole('alert');
    const retry = within(card).queryByRole('button', { name: 'Try again' });
    const data = within(card).queryByTestId('card-open-data');
    const stale = within(card).queryByText('Could not refresh: these figures are from earlier.');
    if (state === 'loading') {
      expect(skeleton, `${trail}: a skeleton while it loads`).not.toBeNull();
      expect(card.getAttribute('aria-busy')).toBe('true');
      expect([alert, retry, data]).toEqual([null, null, null]);
    } else if (state === 'failed') {
      expect(alert?.textContent, `${trail}: the card's own error`).toContain('This card could not load.');
      expect(retry, `${trail}: a retry`).not.toBeNull();
      expect([skeleton, data]).toEqual([null, null]);
    } else {
      // Shown or reloading behind it: the newest answer that came back, never a superseded one.
      expect(data?.textContent, `${trail}: the data on screen`).toBe(facts.shown);
      expect(stale !== null, `${trail}: marked stale exactly after a failed reload`).toBe(facts.stale);
      expect([skeleton, alert, retry]).toEqual([null, null, null]);
      expect(card.hasAttribute('aria-busy')).toBe(false);
    }
  });
}

const ticketPush = () =>
  publishRealtime({
    type: 'event',
    frame: { type: 'event', cursor: 1, kind: 'ticket.changed', ticketId: 7, data: { ticketId: 7, change: 'status' }, at: new Date().toISOString() },
  });

describe('dashboard card paths through a card (jsdom)', () => {
  it('should sample paths that take every rule of the table and every transition', () => {
    const report = computeCoverage(dashboardCardMachine, paths);
    expect(report.transitions.covered.sort()).toEqual(report.transitions.total.sort());
    expect(paths.length).toBeLessThan(20);
  });

  it.each(paths.map((path) => [pathName(path), path] as const))('should walk %s', (_name, path) =>
    recorder.run(path, async () => {
      const card = mountCard();
      const independent = new IndependentExpectation(dashboardCardExpectation, freshDashboardCardFacts());
      const trail: string[] = [];
      for (const [index, { event }] of path.steps.entries()) {
        const name = tableEvent(event);
        let sent: EventObject = event;
        if (event.type !== 'xstate.init') trail.push(name);
        const where = trail.join(' → ') || 'on arrival';
        if (name === 'done.load' || name === 'error.load') {
          if (card.pending().length === 0) {
            // Nobody is waiting for an answer here: the step cannot happen, and the state stays.
            expect(['loading', 'ready.refreshing'], where).not.toContain(independent.state);
          } else {
            const value = `figures ${index}`;
            await card.answer(name === 'done.load' ? 'resolve' : 'reject', value);
            sent = { type: name, output: value } as EventObject;
          }
        } else if (name === 'card.retry') {
          const retry = screen.queryByRole('button', { name: 'Try again' });
          if (retry) await card.user.click(retry);
          else expect(independent.state, `${where}: "Try again" is offered only on a failed card`).not.toBe('failed');
        } else if (name === 'card.refresh') {
          act(ticketPush);
          // Pushes are gathered for a moment before the card reloads once.
          await act(() => new Promise((resolve) => setTimeout(resolve, CARD_LIVE_RELOAD_MS + 50)));
        }
        independent.check(sent, card.actor.getSnapshot(), where);
        expect(card.loads.length, `${where}: loads asked for`).toBe(independent.facts.loadsAsked);
        await expectCard(independent.state, independent.facts, where);
      }
    }),
  );
});

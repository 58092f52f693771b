import type { Browser, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import { allTransitionsOf, transitionsTakenBy } from '#machines/graph-coverage.ts';
import { realtimeConnectionMachine, type RealtimeConnectionContext } from '#machines/realtime-connection.machine.ts';
import { concretizeRealtimeEvent, realtimeConnectionTestPaths, realtimeEventRole } from '#machines/realtime-connection.model.ts';
import { CloseCodes } from '#machines/realtime-protocol.ts';
import {
  IndependentExpectation,
  rulesNoPathTakes,
  sampleTakingEveryRule,
  stateKey,
  stepPairs,
  tableEvent,
} from '#tests/fixtures/expectations/expectation-table.ts';
import { realtimeConnectionExpectation, type RealtimeFacts } from '#tests/fixtures/expectations/realtime-connection.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { collectPageErrors, launchBrowser, newContext, pauseClock } from './support/browser.ts';
import { startHarnessServer } from './support/harness-server.ts';

/**
 * The realtime connection's model paths in Chromium (issue 14): the app's real runtime with
 * the browser's WebSocket and online/offline events (tests/e2e/fixtures/realtime/), the hub
 * played by the test through Playwright's WebSocket routing, and the browser taken offline and
 * back by Playwright. A sample of the generated paths takes every rule of the hand-written table
 * (tests/fixtures/expectations/realtime-connection.ts), every transition and every pair of
 * consecutive steps; after each step
 * the runtime's state, its live tag and the sockets the hub saw (how many are open, the token
 * the open one last authenticated with) are checked against the table.
 *
 * Time is the page's fake clock, moved only for a back-off: not at all before the spec's floor
 * (a quarter of the 1 s base; the harness draws 0), then past it.
 *
 * What the world cannot do is not sampled: a hub frame or close with no socket open, a token
 * refreshed while signed out (the runtime takes a token as a sign-in), a sign-in while the
 * browser is offline (the runtime then says offline at once), the browser going offline or
 * online when it already is. Nor is a 4403 close: the runtime gives the current token one fresh
 * socket before asking for a new one (decision 0056), a step the machine alone does not take;
 * the 4401 close takes the same rules.
 */
const harnessPath = '/tests/e2e/fixtures/realtime/index.html';
const BACKOFF_FLOOR_MS = 250;

let harnessServer: Awaited<ReturnType<typeof startHarnessServer>>;
let browser: Browser;

beforeAll(async () => {
  harnessServer = await startHarnessServer(harnessPath, ['xstate', '@xstate/store']);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await harnessServer?.close();
});

type Path = ReturnType<typeof realtimeConnectionTestPaths>[number];
const eventsOf = (path: Path) => path.steps.slice(1).map(({ event }) => event);
const codeOf = (event: EventObject) => (event as EventObject & { code?: number }).code;
const freshFacts = (): RealtimeFacts => ({ token: null, sockets: () => [] });

/** Whether the browser, the session and the hub can take every step of the path, in order. */
function walkable(path: Path): boolean {
  const table = new IndependentExpectation(realtimeConnectionExpectation, freshFacts());
  let offline = false;
  for (const event of eventsOf(path)) {
    const state = table.state;
    const socketOpen = state.startsWith('online.');
    switch (event.type) {
      case 'session.start':
        if (state !== 'closed' || offline) return false;
        break;
      case 'token.refreshed':
        if (state === 'closed') return false;
        break;
      case 'browser.offline':
        if (offline) return false;
        offline = true;
        break;
      case 'browser.online':
        if (!offline) return false;
        offline = false;
        break;
      case 'socket.frame':
        if (!socketOpen) return false;
        break;
      case 'socket.closed':
        if (!socketOpen || codeOf(event) === CloseCodes.sessionEnded) return false;
        break;
    }
    table.next(event);
  }
  return true;
}

const walkablePaths = realtimeConnectionTestPaths().filter(walkable);
// Every transition, and every pair of consecutive steps: a token refreshed while offline must be
// the one the socket speaks with once the browser is back, which only the step after shows.
const sample = sampleTakingEveryRule(realtimeConnectionExpectation, freshFacts, walkablePaths, (path) => [
  ...transitionsTakenBy(realtimeConnectionMachine, [path]),
  ...stepPairs(realtimeConnectionExpectation, freshFacts, path),
]);
const roleOf = (event: EventObject) => (event.type.startsWith('xstate.after.') ? tableEvent(event) : realtimeEventRole(event));
const named = (path: Path) => eventsOf(path).map(roleOf).join(' → ');

describe('realtime connection paths in Chromium', () => {
  const recorder = replayRecorder(realtimeConnectionMachine, 'chromium', true);
  afterAll(() => void recorder.write());

  it('should sample paths that take every rule of the table and every transition the world can take', () => {
    expect(rulesNoPathTakes(realtimeConnectionExpectation, freshFacts, sample)).toEqual([]);
    const covered = (paths: Path[]) => new Set(transitionsTakenBy(realtimeConnectionMachine, paths));
    expect(covered(sample)).toEqual(covered(walkablePaths));
    console.log(
      `realtime connection: ${sample.length} of ${walkablePaths.length} walkable paths (of ${realtimeConnectionTestPaths().length}), ` +
        `${covered(sample).size} of ${allTransitionsOf(realtimeConnectionMachine).length} transitions`,
    );
  });

  it.each(sample.map((path) => [named(path), path] as const))('should walk %s', (name, path) =>
    recorder.run({ ...path, description: name }, async () => {
      const context = await newContext(browser, harnessServer.baseUrl);
      await context.clock.install();
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const sockets: Array<{ route: WebSocketRoute; open: boolean; auth: string[] }> = [];
      await page.routeWebSocket(/\/e2e-hub$/, (route) => {
        const socket = { route, open: true, auth: [] as string[] };
        sockets.push(socket);
        route.onMessage((message) => {
          const frame = JSON.parse(String(message)) as { type: string; token?: string };
          if (frame.type === 'auth' && frame.token) socket.auth.push(frame.token);
        });
        route.onClose(() => void (socket.open = false));
      });
      await page.goto(harnessPath);
      // The harness page has nothing to show: its body is ready, not visible.
      await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 60_000 });
      await pauseClock(page);

      const live = () => page.evaluate(() => window.realtimeHarness.state());
      const table = new IndependentExpectation(realtimeConnectionExpectation, freshFacts());
      let tokens = 0;
      let newest: string | null = null;
      for (const [step, modelEvent] of eventsOf(path).entries()) {
        const trail = `${name}: step ${step + 1} (${roleOf(modelEvent)})`;
        const open = sockets.filter((s) => s.open);
        switch (modelEvent.type) {
          case 'session.start':
            newest = `token-${++tokens}`;
            await page.evaluate((token) => window.realtimeHarness.signIn(token), newest);
            break;
          case 'session.end':
            newest = null;
            await page.evaluate(() => window.realtimeHarness.signOut());
            break;
          case 'token.refreshed':
            newest = `token-${++tokens}`;
            await page.evaluate((token) => window.realtimeHarness.refresh(token), newest);
            break;
          case 'browser.offline':
          case 'browser.online':
            await context.setOffline(modelEvent.type === 'browser.offline');
            break;
          case 'socket.frame': {
            // The frame for the live cursor: a "new" event is the next one, a "duplicate" the last.
            const { context: liveContext } = await live();
            const { frame } = concretizeRealtimeEvent(modelEvent, liveContext as RealtimeConnectionContext) as EventObject & { frame: unknown };
            expect(open, `${trail}: the hub has one socket to send on`).toHaveLength(1);
            open[0].route.send(JSON.stringify(frame));
            break;
          }
          case 'socket.closed':
            expect(open, `${trail}: the hub has one socket to close`).toHaveLength(1);
            open[0].open = false;
            await open[0].route.close({ code: codeOf(modelEvent), reason: 'closed by the test hub' });
            break;
          default: {
            // after.backoff: nothing moves before the floor, then the next attempt starts.
            expect(tableEvent(modelEvent)).toBe('after.backoff');
            const before = (await live()).value;
            await page.clock.runFor(BACKOFF_FLOOR_MS - 1);
            expect((await live()).value, `${trail}: not before ${BACKOFF_FLOOR_MS} ms`).toEqual(before);
            await page.clock.runFor(1);
          }
        }
        const expected = table.next(modelEvent);
        const online = expected.startsWith('online.');
        await expect
          .poll(
            async () => {
              const now = await live();
              const openNow = sockets.filter((s) => s.open);
              return { state: stateKey(now.value), live: now.live, openSockets: openNow.length, token: online ? (openNow[0]?.auth.at(-1) ?? null) : null };
            },
            { message: trail, timeout: 5000 },
          )
          .toEqual({ state: expected, live: expected === 'online.connected', openSockets: online ? 1 : 0, token: online ? newest : null });
      }
      expect(errors).toEqual([]);
      await context.close();
    }),
  );
});

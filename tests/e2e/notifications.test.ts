import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import { allTransitionsOf, transitionsTakenBy } from '#machines/graph-coverage.ts';
import { snackbarMachine } from '#machines/snackbar.machine.ts';
import { snackbarTestPaths } from '#machines/snackbar.model.ts';
import { toastQueueMachine } from '#machines/toast-queue.machine.ts';
import { toastQueueGraph, toastQueueTestPaths } from '#machines/toast-queue.model.ts';
import { IndependentExpectation, rulesNoPathTakes, sampleTakingEveryRule, stepPairs, tableEvent } from '#tests/fixtures/expectations/expectation-table.ts';
import { snackbarExpectation, type SnackbarFacts } from '#tests/fixtures/expectations/snackbar.ts';
import { freshToastQueueFacts, toastQueueExpectation } from '#tests/fixtures/expectations/toast-queue.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { collectPageErrors, launchBrowser, newContext, pauseClock, screenshot } from './support/browser.ts';
import { startHarnessServer } from './support/harness-server.ts';

const harnessPath = '/tests/e2e/fixtures/notifications/index.html';
let harnessServer: Awaited<ReturnType<typeof startHarnessServer>>;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  harnessServer = await startHarnessServer(harnessPath, [
    'react',
    'react-dom/client',
    'react/jsx-dev-runtime',
    'react-i18next',
    'i18next',
    'sonner',
    'xstate',
    '@xstate/react',
    '@xstate/store',
  ]);
  baseUrl = harnessServer.baseUrl;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await harnessServer?.close();
});

async function openHarness(): Promise<{ page: Page; errors: string[] }> {
  const context = await newContext(browser, baseUrl, { viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto(harnessPath);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, errors };
}

/** Waits for the snackbar's running transition to end (its box is final then). */
const settled = (page: Page) => page.getByTestId('snackbar').evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)).then(() => true));

const liveToasts = (page: Page) => page.locator('[data-sonner-toast]:not([data-removed="true"])');

const serverError = {
  messages: ['Ticket 7 cannot be claimed: it is Closed.'],
  source: 'tickets',
  exception: 'ConflictException',
  errorId: '3f6b1c7e-9d2a-4e55-8a49-6c1f2a6b7d10',
  supportMessage: 'Quote this error id to the support team.',
  statusCode: 409,
};

describe('toasts in the browser', () => {
  it('should show the error toast red at the top centre, with details that hold it open, and close it', async () => {
    const { page, errors } = await openHarness();
    await page.evaluate((body) => window.harness.notify.error(body), serverError);
    const toast = page.getByTestId('error-toast');
    await toast.getByText('Ticket 7 cannot be claimed: it is Closed.').waitFor();
    // The theme's error colour (it differs per mode), and red: the red channel dominates.
    const background = await toast.evaluate((el) => getComputedStyle(el).backgroundColor);
    const errorMain = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.style.backgroundColor = 'var(--colors-error-main)';
      document.body.append(probe);
      const value = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return value;
    });
    expect(background).toBe(errorMain);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(150);
    expect(r - Math.max(g, b)).toBeGreaterThan(100);
    expect(await toast.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
    // Once sonner's entrance has played: centred horizontally, at the top.
    await expect.poll(async () => (await toast.boundingBox())!.y, { timeout: 5000 }).toBeGreaterThanOrEqual(16);
    const box = (await toast.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - 640)).toBeLessThanOrEqual(2);
    expect(box.y).toBeLessThan(40);

    await toast.getByRole('button', { name: 'Show details' }).click();
    await toast.getByText('Error id', { exact: true }).waitFor();
    expect(await toast.locator('dt').allTextContents()).toEqual(['Error id', 'Status code', 'Support message']);
    expect(await toast.locator('dd').allTextContents()).toEqual(['3f6b1c7e-9d2a-4e55-8a49-6c1f2a6b7d10', '409', 'Quote this error id to the support team.']);
    await screenshot(page, 'error-toast-details');
    await page.mouse.move(5, 790);
    await page.waitForTimeout(6500);
    expect(await page.evaluate(() => window.harness.visibleToasts())).toEqual([{ id: expect.any(String), paused: true }]);

    await toast.getByRole('button', { name: 'Close' }).click();
    await toast.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('should close the error toast by itself after 5 s when its details stay closed', async () => {
    const { page } = await openHarness();
    const started = Date.now();
    await page.evaluate(() => window.harness.notify.error('Upload failed.'));
    await page.getByTestId('error-toast').waitFor();
    await page.mouse.move(5, 790);
    await page.getByTestId('error-toast').waitFor({ state: 'detached', timeout: 15_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    await page.context().close();
  });

  it('should show at most 3 toasts and drop the oldest for a fourth', async () => {
    const { page } = await openHarness();
    await page.mouse.move(5, 790);
    for (const n of [1, 2, 3, 4]) await page.evaluate((text) => window.harness.notify.info(text), `Message ${n}`);
    await page.getByText('Message 4').waitFor();
    await page.getByText('Message 1').waitFor({ state: 'detached' });
    expect(await liveToasts(page).count()).toBe(3);
    for (const n of [2, 3, 4]) expect(await page.getByText(`Message ${n}`).isVisible()).toBe(true);
    await screenshot(page, 'three-toasts');
    await page.context().close();
  });
});

describe('the snackbar in the browser', () => {
  it('should open at the bottom right with the defaults, ignore a click away, and close with its button', async () => {
    const { page, errors } = await openHarness();
    await page.evaluate(() => window.harness.openSnackbar());
    const snackbar = page.getByTestId('snackbar');
    await snackbar.getByText('Note archived').waitFor();
    const enter = await snackbar.evaluate((el) => el.getAnimations().map((a) => (a.effect as KeyframeEffect).getTiming().duration));
    expect(enter).toEqual([225]);
    await settled(page);
    const box = (await snackbar.boundingBox())!;
    expect(Math.round(1280 - (box.x + box.width))).toBe(24);
    expect(Math.round(800 - (box.y + box.height))).toBe(24);
    expect(await snackbar.getByRole('button', { name: 'UNDO' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Elsewhere' }).click();
    await page.mouse.click(600, 300);
    expect(await snackbar.getAttribute('data-state')).toBe('opened');

    await snackbar.getByRole('button', { name: 'Close' }).click();
    expect(await snackbar.evaluate((el) => el.getAnimations().map((a) => (a.effect as KeyframeEffect).getTiming().duration))).toEqual([195]);
    await snackbar.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('should run UNDO and close, and hide by itself after 6000 ms', async () => {
    const { page } = await openHarness();
    await page.evaluate(() => window.harness.openSnackbar({ actionButton: true, variant: 'alert', alert: { color: 'success' }, transition: 'SlideLeft' }));
    const snackbar = page.getByTestId('snackbar');
    await snackbar.getByRole('button', { name: 'UNDO' }).click();
    expect(await page.evaluate(() => window.harness.undone)).toBe(1);
    await snackbar.waitFor({ state: 'detached' });

    const opened = Date.now();
    await page.evaluate(() =>
      window.harness.openSnackbar({ message: 'Autosaved', anchorOrigin: { vertical: 'top', horizontal: 'left' }, transition: 'SlideDown' }),
    );
    await snackbar.getByText('Autosaved').waitFor();
    await settled(page);
    const box = (await snackbar.boundingBox())!;
    expect([Math.round(box.x), Math.round(box.y)]).toEqual([24, 24]);
    await snackbar.waitFor({ state: 'detached', timeout: 15_000 });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(5900);
    await page.context().close();
  });

  it('should play each of the six transitions', async () => {
    const { page } = await openHarness();
    const seen: Record<string, string> = {};
    for (const transition of ['SlideLeft', 'SlideUp', 'SlideRight', 'SlideDown', 'Grow', 'Fade'] as const) {
      // The enter animation is read inside the page, frame by frame, as it starts: a check from
      // outside could come after its 195 ms on a loaded machine, and find none.
      seen[transition] = await page.evaluate(async (t) => {
        window.harness.openSnackbar({ message: t, transition: t });
        const deadline = performance.now() + 5000;
        while (performance.now() < deadline) {
          const el = document.querySelector('[data-testid="snackbar"]');
          const animations = el?.textContent?.includes(t) ? el.getAnimations() : [];
          if (animations.length)
            return animations
              .map((a) => JSON.stringify((a.effect as KeyframeEffect).getKeyframes().map(({ opacity, transform }) => ({ opacity, transform }))))
              .join();
          await new Promise((resolve) => requestAnimationFrame(resolve));
        }
        throw new Error(`The ${t} snackbar showed no enter animation`);
      }, transition);
      const snackbar = page.getByTestId('snackbar');
      await page.evaluate(() => window.harness.closeSnackbar());
      await snackbar.waitFor({ state: 'detached' });
    }
    expect(new Set(Object.values(seen)).size).toBe(6);
    expect(seen.Fade).toContain('"opacity":"0"');
    expect(seen.SlideLeft).toContain('translateX(calc(100% + 24px))');
    await page.context().close();
  });
});

/**
 * The snackbar machine's model paths in Chromium (issue 14): a sample of the generated paths
 * that together take every rule of the hand-written table (tests/fixtures/expectations/snackbar.ts),
 * every transition of the graph and every pair of consecutive steps, walked on the real snackbar with its own controls (its
 * Close and UNDO buttons; openSnackbar and closeSnackbar as features call them). A path runs
 * inside the page, so no round trip falls between two steps: an open during the 195 ms exit
 * must land in it. What the screen showed after each step is then checked against the table,
 * the spec's defaults and its two durations.
 */
describe('snackbar paths in Chromium', () => {
  type Path = ReturnType<typeof snackbarTestPaths>[number];
  type Options = { message?: string; variant?: string; transition?: string; close?: boolean; actionButton?: boolean } & {
    alert?: { color?: string; variant?: string };
    anchorOrigin?: { vertical?: string; horizontal?: string };
  };
  type Step = { kind: 'open'; options?: Options } | { kind: 'close' | 'action' | 'autoHide' | 'exit' };
  interface Screen {
    phase: string;
    message?: string;
    variant?: string;
    alert?: string | null;
    transition?: string;
    vertical?: string;
    horizontal?: string;
    undoButton?: boolean;
    closeButton?: boolean;
    undone: number;
    /** For a delay: how long the screen stayed as it was, from the step that started the delay. */
    waited?: number;
  }

  const freshFacts = (): SnackbarFacts => ({ opens: 0, undos: 0, lastOptions: undefined, undoSignals: () => 0 });
  const openOptions = (event: EventObject) => (event as EventObject & { options?: Options }).options;
  const stepOf = (event: EventObject): Step => {
    const name = tableEvent(event);
    if (name === 'snackbar.open') return { kind: 'open', options: openOptions(event) };
    if (name === 'after.autoHide') return { kind: 'autoHide' };
    if (name === 'after.exit') return { kind: 'exit' };
    return { kind: name === 'snackbar.action' ? 'action' : 'close' };
  };
  /** UNDO has a button only when the open asked for one (spec §4): a path pressing it otherwise has no control here. */
  const walkable = (path: Path) => {
    let undoShown = false;
    return path.steps.slice(1).every(({ event }) => {
      if (event.type === 'snackbar.open') undoShown = openOptions(event)?.actionButton === true;
      return event.type !== 'snackbar.action' || undoShown;
    });
  };
  const sample = sampleTakingEveryRule(
    snackbarExpectation,
    freshFacts,
    snackbarTestPaths().filter(walkable),
    // Every transition, and every pair of consecutive steps: an open over an open one must
    // start the 6000 ms again, which only a path with a later auto-hide shows.
    (path) => [...transitionsTakenBy(snackbarMachine, [path]), ...stepPairs(snackbarExpectation, freshFacts, path)],
  );
  const named = (path: Path) =>
    path.steps
      .slice(1)
      .map(({ event }) => `${tableEvent(event)}${openOptions(event) ? '(every field)' : ''}`)
      .join(' → ');

  const recorder = replayRecorder(snackbarMachine, 'chromium', true);
  afterAll(() => void recorder.write());

  it('should sample paths that take every rule of the table and every transition of the graph', () => {
    expect(transitionsTakenBy(snackbarMachine, sample)).toHaveLength(allTransitionsOf(snackbarMachine).length);
    expect(rulesNoPathTakes(snackbarExpectation, freshFacts, sample)).toEqual([]);
  });

  /** Runs the steps in the page and reads the snackbar after each: its phase, what it shows, the UNDO count. */
  const walk = (page: Page, steps: Step[]) =>
    page.evaluate(async (steps): Promise<Screen[]> => {
      const snackbar = () => document.querySelector<HTMLElement>('[data-testid="snackbar"]');
      const phase = () => snackbar()?.dataset.state ?? 'closed';
      const until = async (done: () => boolean, ms: number) => {
        const start = performance.now();
        while (!done() && performance.now() - start < ms) await new Promise((resolve) => setTimeout(resolve, 2));
      };
      const button = (name: string) =>
        [...(snackbar()?.querySelectorAll('button') ?? [])].find((b) => (b.getAttribute('aria-label') ?? b.textContent)?.trim() === name);
      const read = (waited?: number): Screen => {
        const el = snackbar();
        const anchor = document.querySelector<HTMLElement>('[data-testid="snackbar-anchor"]');
        if (!el) return { phase: 'closed', undone: window.harness.undone, waited };
        return {
          phase: el.dataset.state!,
          message: el.querySelector('span')?.textContent ?? '',
          variant: el.dataset.variant,
          alert: el.dataset.alert ?? null,
          transition: el.dataset.transition,
          vertical: anchor?.dataset.vertical,
          horizontal: anchor?.dataset.horizontal,
          undoButton: Boolean(button('UNDO')),
          closeButton: Boolean(button('Close')),
          undone: window.harness.undone,
          waited,
        };
      };
      let since = performance.now();
      const screens: Screen[] = [];
      for (const step of steps) {
        const before = phase();
        if (step.kind === 'open') {
          await window.harness.openSnackbar(step.options as Parameters<typeof window.harness.openSnackbar>[0]);
          since = performance.now();
          await until(() => phase() === 'opened', 5000);
          // An open over an open one changes only its content: let React commit it.
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          screens.push(read());
        } else if (step.kind === 'close' || step.kind === 'action') {
          const control = button(step.kind === 'action' ? 'UNDO' : 'Close');
          if (control) control.click();
          else await window.harness.closeSnackbar();
          since = performance.now();
          await until(() => phase() !== before, 1000);
          screens.push(read());
        } else {
          await until(() => phase() !== before, step.kind === 'autoHide' ? 10_000 : 3000);
          const waited = performance.now() - since;
          since = performance.now();
          screens.push(read(waited));
        }
      }
      return screens;
    }, steps);

  it.each(sample.map((path) => [named(path), path] as const))('should walk %s', (name, path) =>
    recorder.run({ ...path, description: name }, async () => {
      const { page, errors } = await openHarness();
      const events = path.steps.slice(1).map((step) => step.event);
      const screens = await walk(page, events.map(stepOf));
      const table = new IndependentExpectation(snackbarExpectation, freshFacts());
      for (const [i, event] of events.entries()) {
        const expected = table.next(event);
        const screen = screens[i];
        const trail = `${name}: after ${tableEvent(event)}`;
        expect(screen.phase, trail).toBe(expected);
        if (expected === 'opened') {
          // Spec §4: what the open chose, and the defaults for what it left out.
          const chosen = (table.facts.lastOptions ?? {}) as Options;
          const variant = chosen.variant ?? 'default';
          expect(screen, trail).toMatchObject({
            message: chosen.message ?? 'Note archived',
            variant,
            alert: variant === 'alert' ? `${chosen.alert?.color ?? 'primary'} ${chosen.alert?.variant ?? 'filled'}` : null,
            transition: chosen.transition ?? 'Fade',
            vertical: chosen.anchorOrigin?.vertical ?? 'bottom',
            horizontal: chosen.anchorOrigin?.horizontal ?? 'right',
            closeButton: chosen.close ?? true,
            undoButton: chosen.actionButton ?? false,
          });
        }
        expect(screen.undone, `${trail}: UNDO tells the opener exactly once`).toBe(table.facts.undos);
        const delay = /^after\.(.+)$/.exec(tableEvent(event))?.[1];
        if (delay) {
          const spec = snackbarExpectation.delays![delay];
          expect(screen.waited!, `${trail}: not before ${spec} ms`).toBeGreaterThanOrEqual(spec - 20);
          expect(screen.waited!, `${trail}: soon after ${spec} ms`).toBeLessThan(spec + 1500);
        }
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }),
  );
});

/**
 * The toast queue's model paths in Chromium (issue 14): a sample that takes every rule of the
 * hand-written table (tests/fixtures/expectations/toast-queue.ts) and every transition of the
 * graph, walked on the real toaster as features use it: `notify.error` and `notify.dismiss`,
 * each toast's Close button and its details toggle (open details hold a toast, spec §8).
 *
 * Time is the page's fake clock, and it moves only before a step where the path lets a toast
 * expire (by one tick, a minute); every other step comes at the same instant as the one before. A
 * toast that expires gets the duration that ends its run at that step; the others keep theirs
 * until closed (`duration: null`). A path where that duration would have ended an earlier run
 * of the same toast cannot be walked on a clock, and is left out. After each step the page's
 * queue actor and the toasts on screen are compared with the table's lists.
 */
describe('toast queue paths in Chromium', () => {
  // A tick is long beside the frames the page is given while the screen settles (16 ms each,
  // see the checks below), so they never add up to a toast's duration.
  const TICK_MS = 60_000;
  type Path = ReturnType<typeof toastQueueTestPaths>[number];
  type QueueEvent = EventObject & { id?: string; toast?: { id?: string }; role?: string };
  const eventsOf = (path: Path) => path.steps.slice(1).map(({ event }) => event as QueueEvent);
  const kindOf = (event: QueueEvent) => toastQueueGraph.serializeEvent(event as never);

  /** How far the clock moves before a step: a tick before a toast expires, nothing otherwise. */
  const gapBefore = (event: QueueEvent) => (event.type === 'toast.expired' ? TICK_MS : 0);

  /** Each expiring toast's duration in ms (table ids), or null when a clock cannot walk the path. */
  function expiringDurations(path: Path): Map<string, number> | null {
    const table = new IndependentExpectation(toastQueueExpectation, freshToastQueueFacts());
    const durations = new Map<string, number>();
    const finishedRuns = new Map<string, number[]>();
    const runningSince = new Map<string, number>();
    let now = 0;
    for (const event of eventsOf(path)) {
      now += gapBefore(event);
      table.next(event);
      if (event.type === 'toast.expired') {
        const since = runningSince.get(event.id!);
        if (since === undefined) return null;
        durations.set(event.id!, now - since);
        runningSince.delete(event.id!);
      }
      const counting = new Set(table.facts.shown.filter((t) => !t.held).map((t) => t.id));
      for (const [id, since] of runningSince)
        if (!counting.has(id)) {
          runningSince.delete(id);
          finishedRuns.set(id, [...(finishedRuns.get(id) ?? []), now - since]);
        }
      for (const id of counting) if (!runningSince.has(id)) runningSince.set(id, now);
    }
    for (const [id, ms] of durations) if ((finishedRuns.get(id) ?? []).some((run) => run >= ms)) return null;
    return durations;
  }

  const sample = sampleTakingEveryRule(
    toastQueueExpectation,
    freshToastQueueFacts,
    toastQueueTestPaths().filter((path) => expiringDurations(path) !== null),
    // Every transition, and every kind of step (a push of a known id replaces its content).
    (path) => [...transitionsTakenBy(toastQueueMachine, [path]), ...eventsOf(path).map(kindOf)],
  );
  const named = (path: Path) => eventsOf(path).map(kindOf).join(' → ');

  const recorder = replayRecorder(toastQueueMachine, 'chromium', true);
  afterAll(() => void recorder.write());

  it('should sample paths that take every rule of the table and every transition of the graph', () => {
    expect(transitionsTakenBy(toastQueueMachine, sample)).toHaveLength(allTransitionsOf(toastQueueMachine).length);
    expect(rulesNoPathTakes(toastQueueExpectation, freshToastQueueFacts, sample)).toEqual([]);
  });

  /** The page's queue and screen, with page ids: the actor's state and lists, and each live toast's text and toggle. */
  const observe = (page: Page) =>
    page.evaluate(async () => ({
      queue: await window.harness.toastQueue(),
      screen: [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]:not([data-removed="true"]) [data-toast-id]')].map((el) => ({
        id: el.dataset.toastId!,
        // The message line (an error toast may have a title line above it).
        text: [...el.querySelectorAll('p')].map((p) => p.textContent ?? '').find((line) => line.startsWith('toast-')) ?? '',
        held: el.querySelector('[aria-expanded]')?.getAttribute('aria-expanded') === 'true',
      })),
    }));

  it.each(sample.map((path) => [named(path), path] as const))('should walk %s', (name, path) =>
    recorder.run({ ...path, description: name }, async () => {
      const durations = expiringDurations(path)!;
      const context = await newContext(browser, baseUrl, { viewport: { width: 1280, height: 800 } });
      await context.clock.install();
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await page.goto(harnessPath);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      await pauseClock(page);

      const pageIds: string[] = [];
      const pageId = (tableId: string) => pageIds[Number(tableId.replace('toast-', '')) - 1];
      const tableId = (id: string) => `toast-${pageIds.indexOf(id) + 1}`;
      const texts = new Map<string, string>();
      const table = new IndependentExpectation(toastQueueExpectation, freshToastQueueFacts());
      const inPage = (id: string, selector: string) =>
        page.evaluate(([id, selector]) => document.querySelector<HTMLElement>(`[data-toast-id="${id}"] ${selector}`)!.click(), [id, selector] as const);

      for (const [step, event] of eventsOf(path).entries()) {
        if (gapBefore(event) > 0) await page.clock.runFor(gapBefore(event));
        const trail = `${name}: step ${step + 1} (${kindOf(event)})`;
        const shownBefore = table.facts.shown.map((t) => t.id);
        if (event.type === 'toast.push') {
          const again = event.toast?.id;
          const id = again ?? `toast-${table.facts.handedOut + 1}`;
          const text = again ? `${id} again` : `${id} message`;
          const duration = durations.get(id) ?? null;
          const returned = await page.evaluate(([body, id, duration]) => window.harness.notify.error(body, { id: id ?? undefined, duration }), [
            { ...serverError, messages: [text] },
            again ? pageId(again) : null,
            duration,
          ] as const);
          if (!again) pageIds.push(returned!);
          texts.set(id, text);
        } else if (event.type === 'toast.dismiss') {
          if (shownBefore.includes(event.id!)) await inPage(pageId(event.id!), 'button[aria-label="Close"]');
          else await page.evaluate((id) => window.harness.notify.dismiss(id), pageId(event.id!));
        } else if (event.type === 'toast.pause' || event.type === 'toast.resume') {
          await inPage(pageId(event.id!), '[aria-expanded]');
        } else if (event.type === 'toast.clear') {
          await page.evaluate(() => window.harness.notify.clear());
        }
        // toast.expired: the tick before this step ran the toast's time out.
        const expected = table.next(event);
        const shown = table.facts.shown;
        await expect
          .poll(
            async () => {
              // The clock is paused: give the toaster a frame to render what the step changed.
              await page.clock.runFor(16);
              const { queue, screen } = await observe(page);
              return {
                state: queue.state,
                shown: queue.visible.map((t) => ({ id: tableId(t.id), held: t.paused })),
                waiting: queue.queued.map(tableId),
                screen: screen.map((t) => ({ id: tableId(t.id), text: t.text, held: t.held })).sort((a, b) => a.id.localeCompare(b.id)),
              };
            },
            { message: trail, timeout: 5000 },
          )
          .toEqual({
            state: expected,
            shown,
            waiting: table.facts.waiting,
            screen: shown.map((t) => ({ id: t.id, text: texts.get(t.id), held: t.held })).sort((a, b) => a.id.localeCompare(b.id)),
          });
      }
      expect(errors).toEqual([]);
      await context.close();
    }),
  );
});

describe('the banner in the browser', () => {
  it('should say the spec text at the top of the page', async () => {
    const { page } = await openHarness();
    await page.evaluate(() => window.harness.showBanner());
    const banner = page.getByRole('alert');
    await banner.getByText("We're currently experiencing technical difficulties. Please try again later.").waitFor();
    expect((await banner.boundingBox())!.y).toBe(0);
    await page.context().close();
  });
});

describe('downloads in the browser', () => {
  it('should stream a download through the app client with progress in 65536-byte steps', async () => {
    const { page, errors } = await openHarness();
    const result = await page.evaluate(() => window.harness.download(`${location.origin}/package-lock.json`));
    const size = (await page.request.get('/package-lock.json').then((r) => r.body())).length;
    expect(result).toMatchObject({ size });
    const { loaded } = result as { loaded: number[] };
    expect(loaded.at(-1)).toBe(size);
    expect(loaded.slice(0, -1)).toEqual(Array.from({ length: Math.floor(size / 65536) }, (_, i) => (i + 1) * 65536));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("should read a failed download's streamed JSON body into the error toast and reject with it as a Blob", async () => {
    const { page } = await openHarness();
    await page.route('**/exports/users.xlsx', (route) =>
      route.fulfill({
        status: 404,
        json: {
          messages: ['The export does not exist.'],
          source: 'users',
          exception: 'NotFound',
          errorId: 'e-9',
          supportMessage: 'Quote e-9.',
          statusCode: 404,
        },
      }),
    );
    const result = await page.evaluate(() => window.harness.download(`${location.origin}/exports/users.xlsx`));
    expect(result).toEqual({ rejected: 'blob', loaded: [] });
    const toast = page.getByTestId('error-toast');
    await toast.getByText('The export does not exist.').waitFor();
    await toast.getByRole('button', { name: 'Show details' }).click();
    expect(await toast.locator('dd').allTextContents()).toEqual(['e-9', '404', 'Quote e-9.']);
    await page.context().close();
  });
});

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import { versionCheckMachine } from '#machines/version-check.machine.ts';
import { versionCheckTestPaths } from '#machines/version-check.model.ts';
import { IndependentExpectation, tableEvent } from '#tests/fixtures/expectations/expectation-table.ts';
import { RUNNING_VERSION, versionCheckExpectation, type VersionCheckFacts } from '#tests/fixtures/expectations/version-check.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { runtimeConfig } from './support/signed-in-page.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

/** Counts page loads in session storage (survives reloads, not new tabs). */
const countLoads = () => {
  sessionStorage.setItem('e2e-loads', String(Number(sessionStorage.getItem('e2e-loads') ?? '0') + 1));
};
const loads = (page: Page) => page.evaluate(() => Number(sessionStorage.getItem('e2e-loads')));
const cacheNames = (page: Page) => page.evaluate(() => caches.keys());

async function openWithDeployedVersion(
  version: () => string | number,
): Promise<{ context: BrowserContext; page: Page; console: string[]; answered: Array<string | number> }> {
  const context = await newContext(browser, server.url);
  await context.addInitScript(countLoads);
  // Every /meta.json answer, in order: the check runs after the first content, so a test must
  // wait for it before changing what is deployed.
  const answered: Array<string | number> = [];
  await context.route('**/meta.json', (route) => {
    const answer = version();
    answered.push(answer);
    return typeof answer === 'number' ? route.fulfill({ status: answer, body: 'unavailable' }) : route.fulfill({ json: { version: answer } });
  });
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  return { context, page, console: messages, answered };
}

describe('version check', () => {
  it('should delete every cache and reload once when a newer version is deployed, and not loop', async () => {
    let deployed = '1.2.253';
    const { context, page, console, answered } = await openWithDeployedVersion(() => deployed);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    // The first load's check has seen 1.2.253 before anything new is deployed.
    await expect.poll(() => answered.length, { timeout: 15_000 }).toBeGreaterThan(0);
    // What an old build left behind in Cache Storage.
    await page.evaluate(async () => {
      for (const name of ['app-shell-v1', 'api-responses']) await (await caches.open(name)).put('/cached', new Response('old'));
    });
    expect((await cacheNames(page)).sort()).toEqual(['api-responses', 'app-shell-v1']);
    expect(await loads(page)).toBe(1);

    // A new deployment: 1.2.300 > 1.2.253. This page still runs 1.2.253 after reloading
    // (the test serves the old build), so a second reload would be a loop.
    deployed = '1.2.300';
    const suppressed = page.waitForEvent('console', {
      predicate: (m) => m.text() === 'Version 1.2.300 is deployed but this page still runs 1.2.253 after a reload; not reloading again.',
      timeout: 30_000,
    });
    await page.reload();
    await suppressed;
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.waitForTimeout(1500);
    // The reload by the user, then exactly one by the version check.
    expect(await loads(page)).toBe(3);
    expect(await cacheNames(page)).toEqual([]);
    expect(console.filter((m) => m.includes('not reloading again'))).toHaveLength(1);
    await context.close();
  });

  it('should stay, caches untouched, when the deployed version is older (semantic: 1.2.9 < 1.2.253)', async () => {
    const { context, page, console } = await openWithDeployedVersion(() => '1.2.9');
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.evaluate(async () => void (await caches.open('keep-me')).put('/x', new Response('x')));
    await page.waitForTimeout(1500);
    expect(await loads(page)).toBe(1);
    expect(await cacheNames(page)).toEqual(['keep-me']);
    expect(console.filter((m) => m.includes('Version'))).toEqual([]);
    await context.close();
  });

  it('should log a failed check and carry on as latest', async () => {
    const { context, page, console } = await openWithDeployedVersion(() => 503);
    const failed = page.waitForEvent('console', { predicate: (m) => m.text().startsWith('Version check failed'), timeout: 30_000 });
    await page.goto('/');
    expect((await failed).text()).toBe('Version check failed, continuing with 1.2.253: GET /meta.json answered 503');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.waitForTimeout(1000);
    expect(await loads(page)).toBe(1);
    expect(console.filter((m) => m.includes('reloading'))).toEqual([]);
    await context.close();
  });

  it('should ask the real server for /meta.json and stay when it serves the running version', async () => {
    const context = await newContext(browser, server.url);
    await context.addInitScript(countLoads);
    const page = await context.newPage();
    const meta = page.waitForResponse((response) => new URL(response.url()).pathname === '/meta.json', { timeout: 30_000 });
    await page.goto('/');
    const response = await meta;
    expect(await response.json()).toEqual({ version: '1.2.253' });
    await page.waitForTimeout(1000);
    expect(await loads(page)).toBe(1);
    await context.close();
  });
});

/**
 * The version-check machine's model paths in Chromium (issue 14): what /meta.json answers and
 * whether Cache Storage refuses are set from the path, the real app loads, and the end of every
 * step the page can show is checked against the hand-written table
 * (tests/fixtures/expectations/version-check.ts): the loads counted in session storage, the
 * reload marker, the caches and the console. `outdated.clearingCaches` passes in one task and
 * has nothing to show, so only the states after it are looked at.
 */
describe('version check paths in Chromium', () => {
  type Path = ReturnType<typeof versionCheckTestPaths>[number];
  // Each outcome once: a path that another one continues (it ends in the passing
  // `clearingCaches`) and the same walk generated twice are left out.
  const all = versionCheckTestPaths();
  const key = (path: Path) => `${path.steps[0].state.context.reloadedFor}|${path.steps.map((step) => JSON.stringify(step.event)).join(' ')}`;
  const paths = all.filter(
    (path, i) => all.findIndex((other) => key(other) === key(path)) === i && !all.some((other) => other !== path && key(other).startsWith(`${key(path)} `)),
  );
  const recorder = replayRecorder(versionCheckMachine, 'chromium', true);
  afterAll(() => void recorder.write());

  const named = (path: Path) => {
    const reloadedFor = path.steps[0].state.context.reloadedFor as string | null;
    const steps = path.steps.slice(1).map(({ event }) => {
      const version = (event as EventObject & { output?: { version?: string } }).output?.version;
      return version ? `${tableEvent(event)} ${version}` : tableEvent(event);
    });
    return `${reloadedFor ? `reloaded for ${reloadedFor}` : 'first visit'}: ${steps.join(' → ')}`;
  };

  it.each(paths.map((path) => [named(path), path] as const))('should walk %s', (_name, path) =>
    recorder.run(path, async () => {
      const events = path.steps.slice(1).map((step) => step.event);
      const fetched = events.find((e) => tableEvent(e).endsWith('.fetchDeployedVersion'))!;
      const deployed = (fetched as EventObject & { output?: { version: string } }).output?.version ?? null;
      const reloadedFor = path.steps[0].state.context.reloadedFor as string | null;
      const cachesRefuse = events.some((e) => tableEvent(e) === 'error.clearCaches');
      const markerKey = `${(await runtimeConfig(server)).productKey}:reloaded-for-version`;

      const { context, page, console, answered } = await openWithDeployedVersion(() => deployed ?? 503);
      // A tab that already reloaded once for this deployment, and a browser whose Cache Storage refuses.
      await context.addInitScript(
        ({ key, value, refuse }) => {
          if (value !== null && sessionStorage.getItem('e2e-loads') === '1') sessionStorage.setItem(key, value);
          if (refuse) CacheStorage.prototype.keys = () => Promise.reject(new DOMException('The operation is insecure.', 'SecurityError'));
        },
        { key: markerKey, value: reloadedFor, refuse: cachesRefuse },
      );
      await page.goto('/');
      await expect.poll(() => answered.length, { timeout: 30_000 }).toBeGreaterThan(0);

      const facts: VersionCheckFacts = { running: RUNNING_VERSION, reloadedFor, deployed: null, reloads: () => 0 };
      const table = new IndependentExpectation(versionCheckExpectation, facts);
      for (const event of events) {
        const state = table.next(event);
        const trail = `${named(path)}: after ${tableEvent(event)}`;
        if (state === 'latest') {
          if (deployed === null) await expect.poll(() => console.some((m) => m.startsWith('Version check failed')), { timeout: 15_000 }).toBe(true);
          await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
          await page.waitForTimeout(1000);
          expect(await loads(page), `${trail}: latest never reloads`).toBe(1);
        } else if (state === 'outdated.reloading') {
          await expect.poll(() => loads(page).catch(() => 0), { timeout: 30_000 }).toBe(2);
          expect(await page.evaluate((key) => sessionStorage.getItem(key), markerKey), `${trail}: the tab remembers the version`).toBe(facts.deployed);
        } else if (state === 'outdated.reloadSuppressed') {
          await expect.poll(() => console.some((m) => m.endsWith('not reloading again.')), { timeout: 30_000 }).toBe(true);
          expect(await loads(page), `${trail}: no second reload for the same version`).toBe(1);
        }
        if (tableEvent(event) === 'error.clearCaches')
          await expect.poll(() => console.includes('Could not delete the browser caches: The operation is insecure.'), { timeout: 15_000 }).toBe(true);
      }
      await context.close();
    }),
  );
});

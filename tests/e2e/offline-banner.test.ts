import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, type TestUser } from '#tests/setup/test-users.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import { seededDataDir } from './support/seeded-data-dir.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';

/**
 * Issue 23, "An offline banner appears while the server cannot be reached" (docs/decisions/0281):
 * the user only reads a screen, the browser stays online, the server goes away. The banner shows
 * without any call of the screen's own, and goes once the server is back on the same address.
 */
let server: RunningServer;
let browser: Browser;
let candidate: TestUser;
let tab: SignedInPage | undefined;

beforeAll(async () => {
  const prepared = await seededDataDir(async (db) => createUser(db, { roles: ['Candidate'], firstName: 'Ivo', lastName: 'Petrov' }));
  candidate = prepared.value;
  [server, browser] = await Promise.all([startServer({ dataDir: prepared.dataDir }), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await tab?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

/** Waits until no request of the page is in flight for half a second (the banner chunk's own imports included). */
async function settled(page: Page) {
  let inFlight = 0;
  let quietSince = Date.now();
  page.on('request', () => (inFlight += 1));
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    if (inFlight === 0) quietSince = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  while (inFlight > 0 || Date.now() - quietSince < 500) await page.waitForTimeout(100);
}

it('should show the offline banner while the server is gone, with no call made, and drop it when the server is back', async () => {
  tab = await signedInPage(browser, server, candidate);
  const { page } = tab;
  const ready = new Promise<void>((resolve) =>
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => String(payload).includes('"type":"ready"') && resolve())),
  );
  // The banner's code comes with the notifications host, once the first content is up, before it
  // can be needed offline.
  const bannerCode = page.waitForResponse((response) => /\/assets\/notifications-host-[^/]+\.js$/.test(response.url()), { timeout: 30_000 });
  await page.goto('/tickets');
  await page.getByRole('heading', { level: 1, name: 'My tickets' }).waitFor({ timeout: 20_000 });
  await ready;
  await bannerCode;
  await settled(page);
  const banner = page.getByTestId('connection-banner');
  expect(await banner.count()).toBe(0);

  // From here on the screen itself makes no call: only the runtime's health question may go out.
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && url.pathname !== '/api/health' && !url.pathname.startsWith('/api/hubs/')) calls.push(url.pathname);
  });
  const { port, dataDir } = server;
  expect(await server.stop()).toBe(0);
  await banner.waitFor({ timeout: 20_000 });
  await expect(banner.getAttribute('data-message')).resolves.toBe('network');
  await expect(banner.innerText()).resolves.toMatch(/can't be reached/);
  expect(calls).toEqual([]);
  await screenshot(page, 'offline-banner-server-gone');

  server = await startServer({ dataDir, port });
  // The back-off may be at its 30 s ceiling by now.
  await banner.waitFor({ state: 'detached', timeout: 60_000 });
}, 180_000);

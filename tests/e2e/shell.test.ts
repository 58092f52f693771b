import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { layoutShiftTotal, recordLayoutShifts } from './support/layout-shift.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';

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

async function open(path: string, width = 1400): Promise<Page> {
  const context = await newContext(browser, server.url, { viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

describe('the dashboard shell', () => {
  it('should render header, persistent drawer and breadcrumbs on a large screen', async () => {
    const page = await open('/');
    const errors = collectPageErrors(page);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const drawer = page.getByTestId('app-drawer');
    await expect(drawer.getAttribute('data-variant')).resolves.toBe('persistent');
    const box = await drawer.boundingBox();
    expect(box?.width).toBe(260);
    const header = await page.getByTestId('app-header').boundingBox();
    expect(header!.height).toBeGreaterThanOrEqual(60);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.innerText()).resolves.toMatch(/Home\s*Overview\s*Dashboard/);
    await screenshot(page, 'shell-light-ltr');

    await page.getByRole('button', { name: 'Close menu' }).click();
    await expect(page.getByTestId('app-drawer').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByTestId('app-drawer').getAttribute('data-variant')).resolves.toBe('persistent');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('should not move the page when the persistent drawer appears (layout shift ≤ 0.02, issue 22)', async () => {
    const context = await newContext(browser, server.url, { viewport: { width: 1350, height: 940 } });
    const page = await context.newPage();
    await recordLayoutShifts(page);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await page.waitForTimeout(500);
    expect(await layoutShiftTotal(page)).toBeLessThanOrEqual(0.02);
    await context.close();
  });

  it('should use a temporary drawer below the lg breakpoint, closed with Escape', async () => {
    const page = await open('/', 800);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await expect(page.getByTestId('app-drawer').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Main navigation' });
    await drawer.waitFor();
    await expect(page.getByTestId('app-drawer').getAttribute('data-variant')).resolves.toBe('temporary');
    // Focus moved into the modal drawer; the page behind it is inert.
    await expect(page.evaluate(() => document.activeElement?.closest('[role=dialog]')?.id)).resolves.toBe('app-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await expect(page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).resolves.toBe('false');
    await page.context().close();
  });

  it('should start as a 60 px mini drawer with labelled icons when the configuration asks for it', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.route('**/config.js', async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace('"miniDrawer":false', '"miniDrawer":true');
      await route.fulfill({ response, body });
    });
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const drawer = page.getByTestId('app-drawer');
    await expect(drawer.getAttribute('data-variant')).resolves.toBe('mini');
    expect((await drawer.boundingBox())?.width).toBe(60);
    await expect(drawer.getByRole('link', { name: 'Dashboard' }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(drawer.getAttribute('data-variant')).resolves.toBe('persistent');
    // The width animates over the 225 ms enter transition.
    await expect.poll(async () => (await drawer.boundingBox())?.width, { timeout: 5000 }).toBe(260);
    await context.close();
  });

  it('should serve a deep link and keep it across a reload', async () => {
    const page = await open('/reports/2026/spring');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByText('The page /reports/2026/spring does not exist or has moved.').waitFor();
    const response = await page.reload();
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/reports/2026/spring');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.context().close();
  });
});

describe('the fallback error screen', () => {
  it('should show after a render error and go home with a reload after 2 s', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    // The not-found screen's chunk is replaced by a component that throws while rendering.
    await page.route(/\/assets\/not-found-page-[\w-]+\.js$/, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: 'export default function Broken() { throw new Error("render failure injected by the test"); }',
      }),
    );
    await page.goto('/deep/broken/page');
    await page.getByRole('heading', { name: 'Something Went Wrong!' }).waitFor();
    await page.getByText('Please try again after some time.').waitFor();
    await expect(page.getByText('Or', { exact: true }).isVisible()).resolves.toBe(true);
    await page.unrouteAll();
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));

    const clickedAt = Date.now();
    const button = page.getByRole('button', { name: /Back to home|Returning home/ });
    await page.getByRole('button', { name: 'Back to home' }).click();
    await expect(button.getAttribute('aria-busy')).resolves.toBe('true');
    await page.waitForURL((url) => url.pathname === '/', { timeout: 10_000 });
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(1900);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    // A reload started a fresh page: the flag set before is gone.
    await expect(page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).resolves.toBeUndefined();
    await context.close();
  });

  it('should stack its layout below 1070 px and sit side by side above', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.route(/\/assets\/not-found-page-[\w-]+\.js$/, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: 'export default function B() { throw new Error("x"); }' }),
    );
    await page.goto('/x');
    const screen = page.getByTestId('error-screen');
    await screen.waitFor();
    await expect(screen.evaluate((el) => getComputedStyle(el).flexDirection)).resolves.toBe('row');
    await page.setViewportSize({ width: 1000, height: 800 });
    await expect(screen.evaluate((el) => getComputedStyle(el).flexDirection)).resolves.toBe('column');
    await context.close();
  });

  it("should show when the main application chunk fails, with 'Chunk loading failed.'", async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (msg) => messages.push(msg.text()));
    await page.route(/\/assets\/app-[\w-]+\.js$/, (route) => route.abort('failed'));
    await page.goto('/');
    await page.getByRole('heading', { name: 'Something Went Wrong!' }).waitFor();
    expect(messages.some((m) => m.includes('ChunkLoadError') && m.includes('Chunk loading failed.'))).toBe(true);
    await context.close();
  });
});

describe('the boot splash (issue 23)', () => {
  it('should show the splash from the HTML while the app loads on a slow line, and replace it with the app', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Every script waits until the splash has been seen: a slow line, made deterministic.
    await page.route(/\/(assets\/[\w-]+\.js|config\.js)$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'commit' });
    const splash = page.getByTestId('boot-splash');
    await splash.waitFor({ state: 'visible', timeout: 10_000 });
    await expect(splash.getAttribute('role')).resolves.toBe('status');
    await expect(splash.innerText()).resolves.toContain('Exam Portal');
    const box = await splash.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await screenshot(page, 'boot-splash');
    release();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 20_000 });
    await expect(splash.count()).resolves.toBe(0);
    await context.close();
  }, 40_000);
});

describe('the style sheet and the first paint (issue 22, docs/decisions/0295)', () => {
  it('should paint the splash while the style sheet is still on its way, and render the app styled once it has come', async () => {
    const context = await newContext(browser, server.url, { viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const sheetRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/boot-[\w-]+\.css$/.test(request.url())) sheetRequests.push(request.url());
    });
    await page.route(/\/assets\/boot-[\w-]+\.css$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'commit' });
    // A style sheet the parser meets holds back every paint: with it held, no first contentful paint.
    await page.waitForFunction(() => performance.getEntriesByType('paint').some((entry) => entry.name === 'first-contentful-paint'), null, {
      timeout: 10_000,
    });
    await expect(page.getByTestId('boot-splash').isVisible()).resolves.toBe(true);
    // The app waits for its style sheet: nothing of it is drawn unstyled.
    await page.waitForTimeout(500);
    await expect(page.getByTestId('app-header').count()).resolves.toBe(0);
    release();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 20_000 });
    const header = await page.getByTestId('app-header').boundingBox();
    expect(header!.height).toBeGreaterThanOrEqual(60);
    await expect(page.evaluate(() => getComputedStyle(document.body).fontFamily)).resolves.toMatch(/Public Sans/);
    await expect(page.locator('link[rel="stylesheet"][href*="/assets/boot-"]').count()).resolves.toBe(1);
    // The style sheet reuses the preload's response: one request.
    expect(sheetRequests).toHaveLength(1);
    await context.close();
  }, 40_000);
});

describe('static endpoints', () => {
  it('should serve /meta.json and /config.js to the browser', async () => {
    const context = await newContext(browser, server.url);
    const meta = await context.request.get('/meta.json');
    expect(await meta.json()).toEqual({ version: '1.2.253' });
    const page = await context.newPage();
    await page.goto('/');
    const config = await page.evaluate(() => (window as unknown as { __APP_CONFIG__: Record<string, unknown> }).__APP_CONFIG__);
    expect(config).toMatchObject({ userService: '/api', i18n: 'en-IN', defaultPath: '/', version: '1.2.253' });
    await context.close();
  });
});

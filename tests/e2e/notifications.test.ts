import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { freePort } from './support/server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const harnessPath = '/tests/e2e/fixtures/notifications/index.html';
let vite: ViteDevServer;
let cacheDir: string;
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-vite-'));
  const port = await freePort();
  vite = await createServer({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    cacheDir,
    logLevel: 'error',
    clearScreen: false,
    server: { host: '127.0.0.1', port, strictPort: true, hmr: false, watch: null },
    optimizeDeps: {
      entries: [harnessPath.slice(1)],
      include: ['react', 'react-dom/client', 'react/jsx-dev-runtime', 'react-i18next', 'i18next', 'sonner', 'xstate', '@xstate/react', '@xstate/store'],
    },
  });
  await vite.listen();
  baseUrl = `http://127.0.0.1:${port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
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
      await page.evaluate((t) => window.harness.openSnackbar({ message: t, transition: t }), transition);
      const snackbar = page.getByTestId('snackbar');
      await snackbar.getByText(transition).waitFor();
      seen[transition] = await snackbar.evaluate((el) =>
        el
          .getAnimations()
          .map((a) => JSON.stringify((a.effect as KeyframeEffect).getKeyframes().map(({ opacity, transform }) => ({ opacity, transform }))))
          .join(),
      );
      await page.evaluate(() => window.harness.closeSnackbar());
      await snackbar.waitFor({ state: 'detached' });
    }
    expect(new Set(Object.values(seen)).size).toBe(6);
    expect(seen.Fade).toContain('"opacity":"0"');
    expect(seen.SlideLeft).toContain('translateX(calc(100% + 24px))');
    await page.context().close();
  });
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

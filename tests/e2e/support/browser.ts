import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's Chromium (or CHROME_PATH); no test ever downloads a browser. */
export const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Flags that work on this machine's closed network (ARCHITECTURE.md §4). */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromePath)) {
    throw new Error(`Chromium not found at ${chromePath}. Install it with: apt-get install -y chromium (or set CHROME_PATH).`);
  }
  return chromium.launch({ executablePath: chromePath, headless: true, args: chromiumArgs });
}

export async function newContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport: { width: 1400, height: 900 }, ...options });
}

/** Fails the test on any uncaught page error or console error (besides expected ones). */
export function collectPageErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  return errors;
}

export const screenshotDir = path.resolve(import.meta.dirname, '../../../test-results/screenshots');

/** Screenshots for people to look at (kept out of git under test-results/). */
export async function screenshot(page: Page, name: string) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * Stops the page's fake clock (installed with `context.clock.install()`): after the install,
 * time still flows with the real one, so a slow step would let a timer run out early. Paused,
 * the page's time moves only when the test runs it forward.
 */
export async function pauseClock(page: Page) {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000);
}

import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { launchBrowser, screenshotDir } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';

/**
 * Issue 13, "Layering and layout bugs found by a first-time user": after scrolling a long list
 * the sticky header stays on top and its buttons work, the last row's menu opens above the rows
 * and the pagination below it, the drawer's background reaches the bottom of the window, and no
 * empty band sits above the ticket table.
 */
let server: RunningServer;
let browser: Browser;
let admin: SignedInPage;

const EXTRA_USERS = 12;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = await signedInPage(browser, server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
  for (let i = 0; i < EXTRA_USERS; i += 1) {
    const res = await fetch(`${server.url}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}`, tenant: 'root' },
      body: JSON.stringify({
        firstName: 'Layer',
        lastName: `Person ${i}`,
        email: `layer.${i}@example.test`,
        userName: `layer.${String(i).padStart(2, '0')}`,
        password: 'saffron kettle meadow 93',
        confirmPassword: 'saffron kettle meadow 93',
      }),
    });
    if (res.status >= 300) throw new Error(`POST /api/users answered ${res.status}: ${await res.text()}`);
  }
});

afterAll(async () => {
  await admin?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

/** The element the browser would hit at the centre of `target` is `target` or inside it. */
async function isOnTop(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox();
  if (!box) return false;
  const handle = await target.elementHandle();
  return page.evaluate(
    ([x, y, element]) => {
      const hit = document.elementFromPoint(x, y);
      return !!hit && (hit === element || element!.contains(hit));
    },
    [box.x + box.width / 2, box.y + box.height / 2, handle] as const,
  );
}

describe('layering after scrolling a long list', () => {
  it('should keep the header clickable, open the last row menu above the rows and paint the drawer to the bottom', async () => {
    const { page, errors } = admin;
    await page.setViewportSize({ width: 1400, height: 560 });
    await page.goto('/users');
    const table = page.getByTestId('users-table');
    await table.waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(10);

    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);

    // The header stays on top of the scrolled content.
    const header = page.getByTestId('app-header');
    expect((await header.boundingBox())!.y).toBe(0);
    const settings = page.getByTestId('settings-trigger');
    const userMenu = page.getByTestId('user-menu');
    expect(await isOnTop(page, settings)).toBe(true);
    expect(await isOnTop(page, userMenu)).toBe(true);

    await settings.click();
    await page.getByTestId('settings-panel').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-panel').waitFor({ state: 'detached' });

    await userMenu.click();
    const accountMenu = page.getByRole('menu');
    await accountMenu.waitFor();
    expect(await isOnTop(page, accountMenu.getByRole('menuitem', { name: 'Sign out' }))).toBe(true);
    await page.keyboard.press('Escape');
    await accountMenu.waitFor({ state: 'hidden' });

    // The last row's menu opens above the rows and the pagination.
    const lastRow = table.locator('tbody tr').last();
    const rowName = (await lastRow.locator('td').nth(1).innerText()).trim();
    await lastRow.getByRole('button', { name: /^Actions for / }).click();
    const rowMenu = page.getByRole('menu');
    await rowMenu.waitFor();
    await page.screenshot({ path: `${screenshotDir}/layering-row-menu.png` });
    const items = rowMenu.getByRole('menuitem');
    expect(await items.count()).toBeGreaterThan(1);
    for (const item of await items.all()) {
      expect(await item.isVisible()).toBe(true);
      expect(await isOnTop(page, item), `menu item over ${rowName}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await rowMenu.waitFor({ state: 'hidden' });

    // The drawer's background reaches the bottom of the window however far the page scrolled.
    const drawer = page.getByTestId('app-drawer');
    const drawerBox = (await drawer.boundingBox())!;
    expect(drawerBox.y).toBeLessThanOrEqual(0);
    expect(drawerBox.y + drawerBox.height).toBeGreaterThanOrEqual(559.5);
    const bottomLeft = await page.evaluate(() => document.elementFromPoint(20, window.innerHeight - 4)?.closest('[data-testid="app-drawer"]') !== null);
    expect(bottomLeft).toBe(true);
    await page.screenshot({ path: `${screenshotDir}/layering-scrolled.png` });
    expect(errors).toEqual([]);
  });

  it('should put the ticket table right under the filters, with no empty band', async () => {
    const { page } = admin;
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto('/tickets');
    const search = page.getByRole('searchbox', { name: 'Search tickets' });
    await search.waitFor();
    const searchBox = (await search.boundingBox())!;
    // The search box's own block is only as tall as the input.
    const wrapper = (await search.locator('xpath=..').boundingBox())!;
    expect(wrapper.height).toBeLessThan(searchBox.height + 8);
  });
});

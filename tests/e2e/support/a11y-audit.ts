import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThemeDirection, ThemeMode } from '#src/lib/config.ts';
import { auditedScreens, type AuditedScreen } from './a11y-routes.ts';
import { expectAccessible } from './axe.ts';
import { collectPageErrors, launchBrowser, newContext } from './browser.ts';
import { seedLayout } from './layout.ts';
import { removeDataDir, startServer, type RunningServer } from './server.ts';

/**
 * The accessibility audit's server and browser for one test file: started before its tests,
 * stopped after. The audit is split over several files (one per mode and direction) so that
 * the e2e run's two workers share it; each file has its own server.
 */
export function auditServer() {
  const running = {} as { server: RunningServer; browser: Browser };
  beforeAll(async () => {
    [running.server, running.browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.server?.stop();
    if (running.server) await removeDataDir(running.server.dataDir);
  });

  /** Opens a screen with the given layout and waits until its colours can be measured. */
  async function visit(screen: AuditedScreen, layout: Parameters<typeof seedLayout>[1]) {
    const context = await newContext(running.browser, running.server.url, screen.viewport ? { viewport: screen.viewport } : {});
    await seedLayout(context, { ...screen.layout, ...layout });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await screen.prepare?.(page, running.server);
    await page.goto(screen.path);
    await screen.ready(page);
    await screen.act?.(page);
    // Let transitions (225 ms) and web fonts settle before colours are measured.
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(300);
    return { page, errors };
  }

  return { running, visit };
}

/**
 * Every screen of tests/e2e/support/a11y-routes.ts in one mode and direction passes axe-core
 * (WCAG 2.2 A/AA and best practices: contrast, landmarks, heading order, labels …) in real
 * Chromium.
 */
export function auditEveryScreen(mode: ThemeMode, direction: ThemeDirection) {
  const { visit } = auditServer();
  describe(`accessibility audit in ${mode} ${direction}`, () => {
    for (const screen of auditedScreens) {
      it(`should find no axe violations on the ${screen.name} in ${mode} ${direction}`, async () => {
        const { page } = await visit(screen, { mode, themeDirection: direction });
        await expect(page.evaluate(() => [document.documentElement.dataset.mode, document.documentElement.dir])).resolves.toEqual([mode, direction]);
        await expectAccessible(page, `${screen.name} (${mode}, ${direction})`, screen.axe);
        await page.context().close();
      });
    }
  });
}

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { presetColors, type ThemeMode } from '#src/lib/config.ts';
import { auditServer } from './support/a11y-audit.ts';
import { auditedScreens } from './support/a11y-routes.ts';
import { expectAccessible, tabStops } from './support/axe.ts';
import { collectPageErrors, newContext } from './support/browser.ts';
import { openSettings } from './support/layout.ts';

/**
 * Every preset keeps AA contrast in both modes, every language passes the audit, the audit
 * fails where it should, and the shell works by keyboard alone with visible focus. Every
 * screen in light and dark, ltr and rtl, is audited in a11y-<mode>-<direction>.test.ts.
 */

const { running, visit } = auditServer();
const modes: ThemeMode[] = ['light', 'dark'];

describe('contrast in every preset', () => {
  const dashboard = auditedScreens.find((s) => s.name === 'dashboard')!;
  const panel = auditedScreens.find((s) => s.name === 'theme settings panel')!;
  for (const mode of modes) {
    for (const preset of presetColors) {
      it(`should keep the shell and the settings panel AA in ${preset} ${mode}`, async () => {
        const { page } = await visit(dashboard, { mode, presetColor: preset });
        await expect(page.evaluate(() => document.documentElement.dataset.preset)).resolves.toBe(preset);
        await expectAccessible(page, `dashboard (${preset}, ${mode})`);
        await panel.act!(page);
        await page.waitForTimeout(300);
        await expectAccessible(page, `settings panel (${preset}, ${mode})`);
        await page.context().close();
      });
    }
  }
});

describe('every language', () => {
  const dashboard = auditedScreens.find((s) => s.name === 'dashboard')!;
  for (const language of ['en-US', 'fr', 'es', 'hi', 'gu']) {
    it(`should pass the audit with the UI in ${language}`, async () => {
      const { page } = await visit(dashboard, {});
      const settings = await openSettings(page);
      await settings.getByTestId(`language-${language}`).click();
      await page.waitForFunction((lng) => document.documentElement.lang === lng, language);
      await page.keyboard.press('Escape');
      await page.getByTestId('settings-panel').waitFor({ state: 'detached' });
      await page.evaluate(() => document.fonts.ready);
      await expectAccessible(page, `dashboard (${language})`);
      await page.context().close();
    });
  }
});

describe('the audit itself', () => {
  it("should fail on a page with a violation, under the server's real CSP", async () => {
    const dashboard = auditedScreens.find((s) => s.name === 'dashboard')!;
    const { page } = await visit(dashboard, { mode: 'dark' });
    const csp = await page.evaluate(async () => (await fetch('/')).headers.get('content-security-policy'));
    expect(csp).toContain("script-src 'self'");
    await page.evaluate(() => {
      const main = document.getElementById('main-content')!;
      main.insertAdjacentHTML('beforeend', '<button type="button"><svg aria-hidden="true"></svg></button><p style="color:#333">dim text</p>');
    });
    const failure = await expectAccessible(page, 'dashboard with defects').then(
      () => 'no error',
      (error: Error) => error.message,
    );
    expect(failure).toContain('Accessibility violations in dashboard with defects:');
    expect(failure).toContain('[button-name] (critical)');
    expect(failure).toContain('[color-contrast] (serious)');
    await page.context().close();
  });
});

describe('keyboard', () => {
  async function dashboardPage(width = 1400): Promise<{ page: Page; errors: string[] }> {
    const context = await newContext(running.browser, running.server.url, { viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    // The header's end (the visitor's "Sign in" link) loads after the content (decision 0006);
    // waiting for it keeps the tab order the same on a fast and a busy machine.
    await page.getByTestId('sign-in-link').waitFor();
    return { page, errors };
  }

  it('should offer a skip link first, visible when focused, that moves focus to the content', async () => {
    const { page, errors } = await dashboardPage();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    const box = await skip.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.height).toBeGreaterThan(20);
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main-content');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('should reach every control of the shell with Tab, each with a visible focus ring', async () => {
    const { page } = await dashboardPage();
    const stops = await tabStops(page, 7);
    // The drawer lists what the visitor may open: the dashboard and (issue 20) results; the
    // header ends with the visitor's way in.
    expect(stops.map((s) => s.name)).toEqual(['Skip to main content', 'Dashboard', 'Results', 'Close menu', 'Theme settings', 'Sign in', 'Home']);
    expect(stops.filter((s) => !s.visible || !s.focusVisible)).toEqual([]);
    await page.context().close();
  });

  it('should run the settings panel by keyboard alone and give focus back when it closes', async () => {
    const { page } = await dashboardPage();
    const trigger = page.getByTestId('settings-trigger');
    await trigger.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Theme settings' });
    await dialog.waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('[role=dialog]')?.id === 'settings-panel');

    // Focus starts on the close button; then one stop per radio group, the two switches, the reset button.
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Close settings');
    const stops = await tabStops(page, 8);
    expect(stops.map((s) => s.name)).toEqual([
      'Light',
      'Blue',
      'Left to right',
      'Mini drawer',
      'Boxed content',
      'Public Sans (default)',
      'English (India)',
      'Reset to defaults',
    ]);
    expect(stops.filter((s) => !s.visible || !s.focusVisible)).toEqual([]);
    await expect(page.evaluate(() => document.activeElement?.closest('[role=dialog]')?.id)).resolves.toBe('settings-panel');

    // Back to the mode group: arrow keys choose, Space toggles a switch, all applied at once.
    for (let i = 0; i < 7; i += 1) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.documentElement.dataset.mode === 'dark');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.documentElement.dataset.preset === 'theme1');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(dialog.getByRole('switch', { name: 'Mini drawer' }).isChecked()).resolves.toBe(true);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect(trigger.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(trigger.getAttribute('aria-expanded')).resolves.toBe('false');
    await page.context().close();
  });
});

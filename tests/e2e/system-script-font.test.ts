import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromePath, chromiumArgs, collectPageErrors, newContext } from './support/browser.ts';
import { closeSettings, openSettings } from './support/layout.ts';
import { renderedFonts } from './support/rendered-fonts.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { woffToSfnt } from './support/woff-to-sfnt.ts';

/**
 * Issue 23: `npm test` failed on desktops with Debian's fonts-noto-core, where a *system*
 * Devanagari font answered the generic `sans-serif` before the shipped web font was reached.
 * This file gives Chromium such a system font whatever the machine has — the shipped Noto Sans
 * Devanagari, unwrapped from WOFF and installed through a fontconfig file of its own — and shows
 * that the check of the themes test (the font Chromium drew with, tests/e2e/support/rendered-fonts.ts)
 * fails on the old font stack and holds on the app's.
 */

/** The body font stack before issue 23: the generic family before the script faces. */
const OLD_STACK = `'Public Sans', 'Public Sans Fallback', sans-serif, 'Noto Sans Devanagari', 'Noto Sans Gujarati'`;

let server: RunningServer;
let browser: Browser;
let fontDir: string;

beforeAll(async () => {
  fontDir = await mkdtemp(path.join(tmpdir(), 'system-script-font-'));
  await mkdir(path.join(fontDir, 'fonts'));
  const woff = await readFile(
    path.resolve(import.meta.dirname, '../../node_modules/@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff'),
  );
  await writeFile(path.join(fontDir, 'fonts', 'NotoSansDevanagari-Regular.ttf'), woffToSfnt(woff));
  await writeFile(
    path.join(fontDir, 'fonts.conf'),
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${path.join(fontDir, 'fonts')}</dir>
  <cachedir>${path.join(fontDir, 'cache')}</cachedir>
</fontconfig>
`,
  );
  [server, browser] = await Promise.all([
    startServer(),
    chromium.launch({
      executablePath: chromePath,
      headless: true,
      args: chromiumArgs,
      env: { ...process.env, FONTCONFIG_FILE: path.join(fontDir, 'fonts.conf') },
    }),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
  if (fontDir) await rm(fontDir, { recursive: true, force: true });
});

async function hindiDashboard(page: Page) {
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  const panel = await openSettings(page);
  await panel.getByTestId('language-hi').click();
  await page.getByRole('heading', { level: 2, name: 'थीम सेटिंग्स' }).waitFor();
  await closeSettings(page);
  const heading = page.getByRole('heading', { level: 1, name: 'डैशबोर्ड' });
  await heading.waitFor();
  await page.evaluate(() => document.fonts.ready);
  return heading;
}

describe('a machine with its own Devanagari font (issue 23)', () => {
  it('should really have the system font: Chromium draws Devanagari with it where a page names no web font', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.setContent('<html lang="hi"><body><p style="font-family: sans-serif">डैशबोर्ड</p></body></html>');
    await expect(renderedFonts(page.locator('p'))).resolves.toEqual([expect.objectContaining({ familyName: 'Noto Sans Devanagari', isCustomFont: false })]);
    await context.close();
  });

  it('should catch the old font stack: the system font answers sans-serif and the shipped face is never used', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    const heading = await hindiDashboard(page);
    // Set through the CSSOM (the server's CSP allows no inline <style>).
    await heading.evaluate((element, stack) => element.style.setProperty('font-family', stack, 'important'), OLD_STACK);
    const fonts = await renderedFonts(heading);
    expect(fonts).not.toEqual([expect.objectContaining({ familyName: 'Noto Sans Devanagari', isCustomFont: true })]);
    expect(fonts).toEqual([expect.objectContaining({ isCustomFont: false })]);
    await context.close();
  }, 60_000);

  it('should draw Hindi with the shipped web font on the app as it is', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const heading = await hindiDashboard(page);
    await expect(renderedFonts(heading)).resolves.toEqual([expect.objectContaining({ familyName: 'Noto Sans Devanagari', isCustomFont: true })]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_DOMAIN } from '#server/db/demo-data.ts';
import { expectAccessible } from './support/axe.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInContext } from './support/signed-in-page.ts';

/**
 * Issue 19 in Chromium on the demo data: Kavya Shah sits the online mock test — declaration,
 * start, a Gujarati question switched to English, an answer, a question marked for review, the
 * palette's states and the autosave indicator; a reload resumes her answers; submit shows the
 * summary first and ends with the receipt. axe on the instructions, the sitting and the receipt.
 */
const PASSWORD = 'demo pass phrase 2027 ok';
let server: RunningServer;
let browser: Browser;
let candidate: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD: PASSWORD }, startupTimeoutMs: 240_000 }), launchBrowser()]);
  const context = await newContext(browser, server.url);
  await signInContext(context, server, { email: `kavya.shah@${DEMO_EMAIL_DOMAIN}`, password: PASSWORD });
  const page = await context.newPage();
  candidate = { context, page, errors: collectPageErrors(page) };
}, 300_000);

afterAll(async () => {
  await candidate?.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

describe('a candidate sits a paper in Chromium', { timeout: 300_000 }, () => {
  it('should sit the mock test, keep the answers over a reload, and submit with a summary and a receipt', async () => {
    const { page } = candidate;
    await page.goto('/sit');
    await page.getByRole('heading', { level: 1, name: 'Sit a paper' }).waitFor();
    await page.locator('[data-testid^="sit-"]').first().click();
    await page.getByTestId('delivery-screen').waitFor();
    await page.getByRole('heading', { name: 'Instructions' }).waitFor();
    await expect(page.getByTestId('waiting-countdown').textContent()).resolves.toBe('You may start now.');
    await expectAccessible(page, 'delivery instructions');
    expect(await page.getByTestId('delivery-start').isDisabled()).toBe(true);
    await page.getByTestId('delivery-declaration').click();
    await page.getByTestId('delivery-start').click();

    // The sitting: question 1 in Gujarati (her medium), switched to English.
    const question = page.getByTestId('question-1');
    await question.waitFor();
    await expect(question.getAttribute('lang')).resolves.toBe('gu');
    await page.getByTestId('question-language-en').click();
    await expect(page.getByTestId('question-1').getAttribute('lang')).resolves.toBe('en');
    const timer = await page.getByTestId('delivery-timer').textContent();
    expect(timer).toMatch(/^01:(29|30):\d\d$/);
    expect(await page.getByTestId('palette-2').getAttribute('data-state')).toBe('notVisited');

    await page.getByTestId('question-1').locator('[data-testid^="preview-option-"]').first().click();
    await page.getByTestId('save-next').click();
    await page.getByTestId('question-2').waitFor();
    expect(await page.getByTestId('palette-1').getAttribute('data-state')).toBe('answered');
    await page.getByTestId('mark-next').click();
    await page.getByTestId('question-3').waitFor();
    expect(await page.getByTestId('palette-2').getAttribute('data-state')).toBe('marked');
    await expect(page.getByTestId('palette-1').getAttribute('aria-label')).resolves.toBe('Question 1: Answered');
    await page.locator('[data-testid="autosave-indicator"][data-state="saved"]').waitFor({ timeout: 15_000 });
    await expect(page.getByTestId('autosave-indicator').textContent()).resolves.toBe('Saved');
    await expectAccessible(page, 'delivery sitting');
    await screenshot(page, 'delivery-sitting');

    // A reload resumes the same answers and marks.
    await page.reload();
    await page.getByTestId('question-1').waitFor();
    expect(await page.getByTestId('palette-1').getAttribute('data-state')).toBe('answered');
    expect(await page.getByTestId('palette-2').getAttribute('data-state')).toBe('marked');

    await page.getByTestId('delivery-submit').click();
    await page.getByTestId('submit-summary').waitFor();
    await expect(page.getByTestId('summary-answered').textContent()).resolves.toBe('1');
    await expect(page.getByTestId('summary-marked').textContent()).resolves.toBe('1');
    await page.getByTestId('submit-confirm-yes').click();
    await page.getByTestId('delivery-receipt').waitFor();
    expect(await page.getByTestId('receipt-answered').textContent()).toMatch(/^1 of \d+$/);
    expect(Number(await page.getByTestId('receipt-id').textContent())).toBeGreaterThan(0);
    await expectAccessible(page, 'delivery receipt');
    expect(candidate.errors).toEqual([]);
  });
});

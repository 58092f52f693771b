import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_DOMAIN } from '#server/db/demo-data.ts';
import { expectAccessible } from './support/axe.ts';
import { chooseOption } from './support/select.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInContext } from './support/signed-in-page.ts';

/**
 * Issue 19 in Chromium on the demo data: Kavya Shah sits the online mock test — declaration,
 * start, a Gujarati question switched to English, an answer, a question marked for review, the
 * palette's states and the autosave indicator; a reload resumes her answers; submit shows the
 * summary first and ends with the receipt. Meanwhile Sunita Patel, the invigilator, follows her
 * on the console, pauses her (Kavya's screen freezes), resumes her and extends her time with a
 * reason. axe on the instructions, the sitting, the console, its extend dialog and the receipt.
 */
const PASSWORD = 'demo pass phrase 2027 ok';
let server: RunningServer;
let browser: Browser;
let candidate: { context: BrowserContext; page: Page; errors: string[] };
let invigilator: { context: BrowserContext; page: Page; errors: string[] };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD: PASSWORD }, startupTimeoutMs: 240_000 }), launchBrowser()]);
  const context = await newContext(browser, server.url);
  await signInContext(context, server, { email: `kavya.shah@${DEMO_EMAIL_DOMAIN}`, password: PASSWORD });
  const page = await context.newPage();
  candidate = { context, page, errors: collectPageErrors(page) };
  const staff = await newContext(browser, server.url);
  await signInContext(staff, server, { email: `sunita.patel@${DEMO_EMAIL_DOMAIN}`, password: PASSWORD });
  const staffPage = await staff.newPage();
  invigilator = { context: staff, page: staffPage, errors: collectPageErrors(staffPage) };
}, 300_000);

afterAll(async () => {
  await candidate?.context.close().catch(() => undefined);
  await invigilator?.context.close().catch(() => undefined);
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

    // The mock test allows a calculator: it stays open while she answers, works by mouse and
    // keyboard, and Escape closes it with the focus back on its button.
    await page.getByTestId('calculator-open').click();
    const calculator = page.getByTestId('calculator-panel');
    await calculator.waitFor();
    for (const key of ['1', '2', 'multiply', '3', 'equals']) await calculator.getByTestId(`calculator-key-${key}`).click();
    await expect(calculator.getByTestId('calculator-display').textContent()).resolves.toBe('36');
    await page.keyboard.type('+4=');
    await expect(calculator.getByTestId('calculator-display').textContent()).resolves.toBe('40');
    await page.getByTestId('question-3').click();
    expect(await calculator.isVisible(), 'a click on the question keeps it open').toBe(true);
    await calculator.getByTestId('calculator-key-divide').click();
    await page.keyboard.type('0=');
    await expect(calculator.getByTestId('calculator-display').textContent()).resolves.toBe('Error');
    await expectAccessible(page, 'delivery sitting: the calculator open');
    await page.keyboard.press('Escape');
    await calculator.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'calculator-open', undefined, { timeout: 5_000 });

    // A reload resumes the same answers and marks.
    await page.reload();
    await page.getByTestId('question-1').waitFor();
    expect(await page.getByTestId('palette-1').getAttribute('data-state')).toBe('answered');
    expect(await page.getByTestId('palette-2').getAttribute('data-state')).toBe('marked');

    // The invigilator works on the board project and opens the mock test's room.
    const desk = invigilator.page;
    await desk.goto('/projects?q=BOARD10');
    await desk.getByTestId('projects-table').getByRole('button', { name: 'Class 10 Board Examination 2027', exact: true }).click();
    await desk.getByRole('heading', { level: 1, name: 'Exams of Class 10 Board Examination 2027' }).waitFor();
    await desk.goto('/invigilate');
    await desk.getByRole('heading', { level: 1, name: 'Invigilator console' }).waitFor();
    await chooseOption(desk, desk, 'Season', 'Online mock test');
    const paperTrigger = desk.getByRole('combobox', { name: 'Paper' });
    await paperTrigger.click();
    await desk
      .getByRole('listbox')
      .getByRole('option', { name: /^MATH-UT-1 · / })
      .click();
    const row = desk.locator('[data-testid^="console-row-"]', { hasText: 'Kavya Shah' });
    await row.waitFor();
    await expect(row.locator('td').nth(1).textContent()).resolves.toBe('In progress');
    await expectAccessible(desk, 'invigilator console');

    // Pause: Kavya's screen says so at once (the hub's push, decision 0245; her heartbeat asks only
    // every 30 s) and takes no answers; resume gives it back.
    await row.locator('[data-testid^="console-pause-"]').click();
    await page.getByTestId('delivery-paused').waitFor({ timeout: 15_000 });
    await row.locator('[data-testid^="console-resume-"]').click();
    await page.getByTestId('delivery-paused').waitFor({ state: 'detached', timeout: 15_000 });

    // Extend by 10 minutes with a reason: the console shows the time, Kavya's clock follows.
    const before = await row.locator('td').nth(2).textContent();
    const seconds = (clock: string | null) => (clock ?? '').split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
    const clockBefore = seconds(await page.getByTestId('delivery-timer').textContent());
    await row.locator('[data-testid^="console-extend-"]').click();
    const dialog = desk.getByTestId('console-dialog');
    await dialog.waitFor();
    await expectAccessible(desk, 'invigilator console: extend time', { exclude: ['[data-sonner-toaster]'] });
    expect(await desk.getByTestId('console-dialog-confirm').isDisabled()).toBe(true);
    await dialog.getByLabel('Minutes').fill('10');
    await dialog.getByLabel('Reason').fill('The centre lost power for ten minutes.');
    await desk.getByTestId('console-dialog-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    const minutes = (text: string | null) => Number(text?.match(/\d+/)?.[0]);
    await expect.poll(async () => minutes(await row.locator('td').nth(2).textContent()), { timeout: 15_000 }).toBeGreaterThanOrEqual(minutes(before) + 9);
    await page.reload();
    await page.getByTestId('question-1').waitFor();
    // Ten minutes more, less the seconds the extension and the reload took.
    const gained = seconds(await page.getByTestId('delivery-timer').textContent()) - clockBefore;
    expect(gained).toBeGreaterThan(540);
    expect(gained).toBeLessThanOrEqual(600);
    expect(invigilator.errors).toEqual([]);

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

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_DOMAIN } from '#server/db/demo-data.ts';
import type { ThemeDirection, ThemeMode } from '#src/lib/config.ts';
import { expectAccessible } from './support/axe.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { seedLayout } from './support/layout.ts';
import { chooseOption } from './support/select.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInContext } from './support/signed-in-page.ts';

/**
 * Issue 19's paper mode in Chromium on the demo data (docs/decisions/0249): Sunita Patel, the
 * invigilator, opens /invigilate/paper, picks today's "Paper sitting" at AHM-002 with the
 * RoomPicker, marks Isha Trivedi present and Aarav Mehta absent, and enters Isha's marks per
 * question: one too many first (the field says so, the save waits, nothing typed is lost), then
 * within the maximum. The sheet over HTTP has the marks and the scored total. axe on the
 * attendance sheet and the marks form, and on the sheet in light and dark, ltr and rtl.
 */
const PASSWORD = 'demo pass phrase 2027 ok';
const SEASON = 'Paper sitting';
const CENTER = 'AHM-002 · Maninagar Vidyalaya';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD: PASSWORD }, startupTimeoutMs: 240_000 }), launchBrowser()]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

/** Sunita's tab on the board project, in the given theme. */
async function invigilatorTab(layout: { mode?: ThemeMode; themeDirection?: ThemeDirection } = {}) {
  const context = await newContext(browser, server.url);
  if (layout.mode || layout.themeDirection) await seedLayout(context, layout);
  const token = await signInContext(context, server, { email: `sunita.patel@${DEMO_EMAIL_DOMAIN}`, password: PASSWORD });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.goto('/projects?q=BOARD10');
  await page.getByTestId('projects-table').getByRole('button', { name: 'Class 10 Board Examination 2027', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Exams of Class 10 Board Examination 2027' }).waitFor();
  return { page, errors, token, close: () => context.close() };
}

/** Opens paper mode and picks today's paper sitting at AHM-002; resolves with the sheet's request (its URL and ProjectId header). */
async function openRoom(page: Page): Promise<{ url: URL; projectId: string }> {
  await page.goto('/invigilate/paper');
  await page.getByRole('heading', { level: 1, name: 'Paper sittings' }).waitFor();
  await page.getByText('Choose a season and a paper sat on paper.').waitFor();
  await chooseOption(page, page.getByTestId('paper-season'), 'Season', SEASON);
  const paper = page.getByTestId('paper-paper').getByRole('combobox', { name: 'Paper' });
  await paper.click();
  await page
    .getByRole('listbox')
    .getByRole('option', { name: /^MATH-UT-1 · / })
    .click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
  const sheetRequest = page.waitForRequest((r) => r.url().includes('/api/v1/paper-sitting?') && r.url().includes('centerId='));
  await chooseOption(page, page.getByTestId('paper-center'), 'Centre', CENTER);
  const request = await sheetRequest;
  await page.getByTestId('paper-table').waitFor();
  return { url: new URL(request.url()), projectId: (await request.allHeaders())['projectid'] };
}

const rowOf = (page: Page, name: string) => page.locator('[data-testid^="paper-row-"]', { hasText: name });

describe('paper mode in Chromium', { timeout: 300_000 }, () => {
  it('should mark attendance, refuse a mark over the maximum without losing the others, store and score the marks, and pass axe in every theme', async () => {
    const desk = await invigilatorTab();
    const { page } = desk;
    const sheetRequest = await openRoom(page);
    const isha = rowOf(page, 'Isha Trivedi');
    const aarav = rowOf(page, 'Aarav Mehta');
    await expect(isha.locator('td').nth(1).textContent()).resolves.toBe('Not marked');
    await expect(aarav.locator('td').nth(1).textContent()).resolves.toBe('Not marked');
    await expectAccessible(page, 'paper mode: attendance sheet');

    await isha.getByRole('button', { name: 'Present: Isha Trivedi' }).click();
    await isha.locator('td').nth(1).getByText('Present', { exact: true }).waitFor();
    await aarav.getByRole('button', { name: 'Absent: Aarav Mehta' }).click();
    await aarav.locator('td').nth(1).getByText('Absent', { exact: true }).waitFor();
    // Marks are entered only for those present.
    await expect(aarav.getByRole('button').count()).resolves.toBe(0);

    await isha.getByRole('button', { name: 'Enter marks: Isha Trivedi' }).click();
    const form = page.getByTestId('paper-marks-form');
    await form.waitFor();
    const set = await isha.locator('td').nth(2).textContent();
    await expect(form.getByRole('heading').textContent()).resolves.toBe(`Marks of Isha Trivedi (set ${set})`);
    const fields = form.getByRole('spinbutton');
    const count = await fields.count();
    expect(count).toBeGreaterThan(1);
    const maxima: number[] = [];
    const numbers: string[] = [];
    for (let i = 0; i < count; i += 1) {
      maxima.push(Number(await fields.nth(i).getAttribute('max')));
      const label = await fields.nth(i).evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? '');
      numbers.push(label.match(/^Question (\d+) \(out of /)?.[1] ?? `no number in ${label}`);
    }
    // Full marks on the first question, one mark on each other (at most its maximum).
    const marks = maxima.map((max, i) => (i === 0 ? max : Math.min(1, max)));

    // One too many on the first question, the others filled after it.
    await fields.nth(0).fill(String(maxima[0] + 1));
    for (let i = 1; i < count; i += 1) await fields.nth(i).fill(String(marks[i]));
    await form.getByText(`Between 0 and ${maxima[0]}.`).waitFor();
    await expect(fields.nth(0).getAttribute('aria-invalid')).resolves.toBe('true');
    expect(await page.getByTestId('paper-marks-save').isDisabled()).toBe(true);
    await expectAccessible(page, 'paper mode: marks form with an error');
    for (let i = 1; i < count; i += 1) await expect(fields.nth(i).inputValue()).resolves.toBe(String(marks[i]));

    await fields.nth(0).fill(String(marks[0]));
    await form.getByText(`Between 0 and ${maxima[0]}.`).waitFor({ state: 'detached' });
    await page.getByTestId('paper-marks-save').click();
    await form.getByText('Saved: the result is scored again.').waitFor();
    const total = marks.reduce((sum, m) => sum + m, 0);
    await expect(isha.locator('td').nth(3).textContent()).resolves.toBe(String(total));
    await expectAccessible(page, 'paper mode: marks form saved');
    await screenshot(page, 'delivery-paper-marks');

    // Over HTTP: the marks stored per question, the result scored from them, the attendance kept.
    const res = await fetch(`${server.url}${sheetRequest.url.pathname}${sheetRequest.url.search}`, {
      headers: { authorization: `Bearer ${desk.token}`, ProjectId: sheetRequest.projectId },
    });
    expect(res.status).toBe(200);
    const sheet = (await res.json()) as {
      candidates: Array<{ candidateName: string; attendance: string; marks: Record<string, number>; total: number | null; resultStatus: string | null }>;
    };
    const byName = Object.fromEntries(sheet.candidates.map((c) => [c.candidateName, c]));
    expect(byName['Isha Trivedi']).toMatchObject({ attendance: 'Attended', total, resultStatus: expect.any(String) });
    expect(byName['Isha Trivedi'].marks).toEqual(Object.fromEntries(marks.map((m, i) => [numbers[i], m])));
    expect(byName['Aarav Mehta']).toMatchObject({ attendance: 'Absent', total: null, resultStatus: null });
    expect(byName['Aarav Mehta'].marks).toEqual({});
    expect(desk.errors).toEqual([]);
    await desk.close();

    // The sheet with a present, an absent and a scored candidate, in every theme.
    for (const mode of ['light', 'dark'] as const) {
      for (const themeDirection of ['ltr', 'rtl'] as const) {
        const tab = await invigilatorTab({ mode, themeDirection });
        await openRoom(tab.page);
        await rowOf(tab.page, 'Isha Trivedi').getByRole('button', { name: 'Enter marks: Isha Trivedi' }).waitFor();
        await expect(tab.page.evaluate(() => [document.documentElement.dataset.mode, document.documentElement.dir])).resolves.toEqual([mode, themeDirection]);
        await tab.page.evaluate(() => document.fonts.ready);
        await tab.page.waitForTimeout(300);
        await expectAccessible(tab.page, `paper mode: attendance sheet (${mode}, ${themeDirection})`);
        expect(tab.errors).toEqual([]);
        await tab.close();
      }
    }
  });
});

import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { expectAccessible } from './support/axe.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { seedLayout } from './support/layout.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInContext } from './support/signed-in-page.ts';

/**
 * Issue 17's paper workspace in Chromium on the demo data (docs/decisions/0142–0146): the demo
 * paper listed; a new 2-section paper built from the bank (fixed items reordered from the
 * keyboard, a draw rule by category × difficulty), its blueprint clean, sent for review and
 * locked; 4 sets generated, equivalent and byte-identical from their seeds; set C previewed in
 * Hindi; its PDF downloaded; unlocked with a reason; axe on every screen, and the demo paper’s
 * sets and Gujarati preview again in dark right-to-left.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
const refused: string[] = [];

const PROJECT = 'Class 10 Board Examination 2027';
const CODE = 'E2E-UT-2';

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD: 'demo pass phrase 2027 ok' }, startupTimeoutMs: 240_000 }),
    launchBrowser(),
  ]);
  context = await newContext(browser, server.url, { acceptDownloads: true });
  await signInContext(context, server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
  page = await context.newPage();
  errors = collectPageErrors(page);
  page.on('response', async (response) => {
    if (response.status() >= 400)
      refused.push(`${response.request().method()} ${response.url()} ${response.status()} ${await response.text().catch(() => '')}`);
  });
  // The board project and its Mathematics exam, chosen as a person does.
  await page.goto('/projects?q=BOARD10');
  await page.getByTestId('projects-table').getByRole('button', { name: PROJECT, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: `Exams of ${PROJECT}` }).waitFor();
  await page.getByRole('button', { name: 'Work on Mathematics (Standard)' }).click();
  await page.getByTestId('workspace-bar').getByTestId('workspace-exam').getByText('Mathematics (Standard)').waitFor();
}, 300_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

/** Chooses an option of an Ark UI Select inside `testId` by a pattern of its name. */
async function choose(testId: string, option: RegExp, on: Page = page) {
  const trigger = on.getByTestId(testId).getByRole('combobox');
  await trigger.click();
  const listbox = on.getByRole('listbox');
  if (
    !(await listbox.waitFor({ timeout: 5000 }).then(
      () => true,
      () => false,
    ))
  )
    await trigger.click();
  await listbox.getByRole('option', { name: option }).first().click();
  await listbox.waitFor({ state: 'hidden' });
}

/** Waits until no finite animation runs (toasts fading in or out are measured at their final colours). */
async function settled(on: Page = page) {
  await on.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
}

async function fill(testId: string, value: string) {
  const field = page.getByTestId(testId);
  await field.fill(value);
}

describe('papers in Chromium', { timeout: 300_000 }, () => {
  it('should list the demo paper, reach papers from the drawer, and build a 2-section paper from the bank', async () => {
    // The drawer links to the papers of the selected exam.
    await page.goto('/');
    await page.getByRole('link', { name: 'Papers' }).first().click();
    await page.waitForURL(/\/workspace\/papers$/);
    await page.getByRole('heading', { level: 1, name: 'Papers of Mathematics (Standard)' }).waitFor();
    await page.getByTestId('paper-status-MATH-UT-1').getByText('Locked').waitFor();
    await settled();
    await expectAccessible(page, 'the papers list');

    await page.getByTestId('new-paper').click();
    await page.getByTestId('paper-form').waitFor();
    await fill('paper-code', CODE);
    await fill('paper-title', 'Unit test 2: roots and similar triangles');
    await fill('paper-duration', '45');
    await fill('paper-marks', '10');
    await fill('paper-instructions-en', 'Answer every question.');
    await fill('paper-instructions-hi', 'सभी प्रश्नों के उत्तर दीजिए।');
    await settled();
    await expectAccessible(page, 'the new paper dialog');
    await page.getByTestId('paper-form-save').click();
    await page.waitForURL(/\/workspace\/papers\/\d+$/);
    await page.getByRole('heading', { level: 1, name: new RegExp(CODE) }).waitFor();
    await page.getByTestId('paper-status').getByText('Draft').waitFor();
    // The paper is selected: the workspace bar shows it.
    await page.getByTestId('workspace-paper').getByText(CODE).waitFor();

    // Section A: four fixed items from the bank, the fourth moved to the top from the keyboard.
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByTestId('section-editor').waitFor();
    await fill('section-title', 'Section A: Quadratic equations');
    await fill('section-marks', '1');
    await fill('bank-search-input', 'DEMO-MATH-00');
    for (const n of ['001', '002', '003', '004']) {
      await page.getByTestId(`bank-add-DEMO-MATH-${n}`).click();
      await page.getByTestId(`bank-add-DEMO-MATH-${n}`).getByText('Added').waitFor();
    }
    await page
      .getByTestId('fixed-item-4')
      .getByText(/DEMO-MATH-004/)
      .waitFor();
    await page.getByTestId('move-4').focus();
    await page.keyboard.press('Home');
    await page
      .getByTestId('fixed-item-1')
      .getByText(/DEMO-MATH-004/)
      .waitFor();
    await page
      .getByTestId('reorder-announcement')
      .getByText(/moved to position 1 of 4/)
      .waitFor();
    // The handle keeps the focus through the move, so a second key press moves it again.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('move-1');
    await page.keyboard.press('ArrowDown');
    await page
      .getByTestId('fixed-item-2')
      .getByText(/DEMO-MATH-004/)
      .waitFor();
    // Drag and drop too: the first row (DEMO-MATH-001) dropped on the last.
    await page.getByTestId('fixed-item-1').dragTo(page.getByTestId('fixed-item-4'));
    await expect
      .poll(() => page.locator('[data-testid^="fixed-item-"]').evaluateAll((rows) => rows.map((r) => r.textContent?.match(/DEMO-MATH-\d+/)?.[0])))
      .toEqual(['DEMO-MATH-004', 'DEMO-MATH-002', 'DEMO-MATH-003', 'DEMO-MATH-001']);
    await settled();
    await expectAccessible(page, 'the section editor');
    await page.getByTestId('section-save').click();
    await page.getByTestId('section-editor').waitFor({ state: 'detached' });
    await page.getByTestId('section-1').getByText('4 items × 1 marks = 4 marks').waitFor();

    // Section B: draw two medium items on triangles, 3 marks each.
    await page.getByTestId('add-section').click();
    await page.getByTestId('section-editor').waitFor();
    await fill('section-title', 'Section B: Triangles');
    await fill('section-marks', '3');
    await page.getByTestId('rule-draw').click();
    await choose('draw-category', /Triangles/);
    await choose('draw-difficulty', /^Medium$/);
    await page.getByTestId('draw-add').click();
    await fill('draw-count-1', '2');
    await page.getByTestId('section-summary').getByText('2 items per set, 6 marks to earn.').waitFor();
    await page.getByTestId('section-save').click();
    await page.getByTestId('section-editor').waitFor({ state: 'detached' });
    await page.getByTestId('section-2').getByText('2 items × 3 marks = 6 marks').waitFor();
    await page.getByTestId('section-draws-2').getByText('Triangles · Medium: 2 items drawn for each set').waitFor();
    // Sections reorder from the keyboard: B up, then back down; the focus stays on the moved section.
    await page.getByTestId('move-section-up-2').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('section-1').getByRole('heading', { name: 'Section B: Triangles' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('move-section-down-1');
    await page.keyboard.press('Enter');
    await page.getByTestId('section-1').getByRole('heading', { name: 'Section A: Quadratic equations' }).waitFor();
    await settled();
    await expectAccessible(page, 'the paper builder');

    // The blueprint: 10 of 10 marks, nothing blocks the lock.
    await page.getByRole('tab', { name: 'Blueprint' }).click();
    await page.getByTestId('blueprint-totals').getByText('10 of 10 marks in 6 items.').waitFor();
    await page.getByTestId('blueprint-totals').getByText('Ready to lock').waitFor();
    await page.getByTestId('coverage-hi').waitFor();
    await settled();
    await expectAccessible(page, 'the blueprint');
  });

  it('should send the paper for review, lock it, generate 4 equivalent sets and preview set C in Hindi', async () => {
    await page.getByTestId('flow-submit').click();
    await page.getByTestId('paper-status').getByText('In review').waitFor();
    await page.getByTestId('flow-lock').click();
    await page.getByTestId('paper-status').getByText('Locked').waitFor();
    // Locked: no more editing of sections.
    await page.getByRole('tab', { name: 'Sections' }).click();
    await page.getByTestId('section-1').waitFor();
    expect(await page.getByTestId('edit-section-1').count()).toBe(0);

    await page.getByRole('tab', { name: 'Sets' }).click();
    await fill('sets-count', '4');
    await page.getByTestId('sets-generate').click();
    for (const letter of ['A', 'B', 'C', 'D']) await page.getByTestId(`set-row-${letter}`).waitFor();
    await page.getByTestId('sets-equivalence').getByText('All sets are equivalent').waitFor();
    expect((await page.getByTestId('set-seed-C').textContent())?.trim()).toMatch(/^[0-9a-f]{24}$/);
    await page.getByTestId('set-verify-C').click();
    await page.getByTestId('set-identical-C').waitFor();
    await page.getByTestId('sets-compare').waitFor();
    await settled();
    await expectAccessible(page, 'the sets and their comparison');

    await page.getByTestId('set-preview-C').click();
    await page.waitForURL(/\/sets\/C$/);
    await page.getByTestId('question-1').waitFor();
    await choose('set-preview-language', /^Hindi$/);
    await page.waitForURL(/lang=hi/);
    await page.getByTestId('set-preview').getByText('सभी प्रश्नों के उत्तर दीजिए।').waitFor();
    const stem = (await page.getByTestId('question-1-stem').textContent()) ?? '';
    expect(stem).toMatch(/[\u0900-\u097F]/);
    // The candidate's own words are Hindi too.
    await page.getByTestId('question-1').getByText('प्रश्न 1').waitFor();
    expect(await page.getByTestId('set-preview').getAttribute('lang')).toBe('hi');
    // Six questions, numbered 1–6 across both sections.
    expect(await page.locator('[data-testid^="question-"][data-testid$="-stem"]').count()).toBe(6);
    await screenshot(page, 'paper-set-c-hindi');
    await settled();
    await expectAccessible(page, 'the set preview in Hindi');
  });

  it('should download set C as a bilingual PDF and its answer key, then unlock the paper with a reason', async () => {
    await page.getByTestId('back-to-sets').click();
    await page.getByTestId('set-row-C').waitFor();
    await choose('print-languages', /English \+ Hindi/);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByTestId('set-pdf-C').click()]);
    expect(download.suggestedFilename()).toBe(`${CODE}-set-C-en-hi.pdf`);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(10_000);
    const [key] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByTestId('set-key-C').click()]);
    expect(key.suggestedFilename()).toBe(`${CODE}-set-C-answer-key.pdf`);

    await page.getByTestId('flow-unlock').click();
    await page.getByTestId('flow-reason').waitFor();
    await expect.poll(() => page.getByTestId('flow-reason-confirm').isDisabled()).toBe(true);
    await fill('flow-reason-text', 'Question 3 needs a Gujarati version first');
    await page.getByTestId('flow-reason-confirm').click();
    await page.getByTestId('paper-status').getByText('Draft').waitFor();
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByTestId('paper-history').getByText('Reason: Question 3 needs a Gujarati version first').waitFor();
    await page.getByRole('tab', { name: 'Sets' }).click();
    await page.getByText('Sets come from a locked paper').waitFor();
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  });
  it('should keep the demo paper’s sets, their comparison and the Gujarati preview axe-clean in dark and right-to-left', async () => {
    const dark = await newContext(browser, server.url);
    await seedLayout(dark, { mode: 'dark', themeDirection: 'rtl' });
    await signInContext(dark, server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
    const tab = await dark.newPage();
    const tabErrors = collectPageErrors(tab);
    try {
      await tab.goto('/projects?q=BOARD10');
      await tab.getByTestId('projects-table').getByRole('button', { name: PROJECT, exact: true }).click();
      await tab.getByRole('button', { name: 'Work on Mathematics (Standard)' }).click();
      await tab.getByTestId('workspace-bar').getByTestId('workspace-exam').getByText('Mathematics (Standard)').waitFor();
      await tab.goto('/workspace/papers');
      await tab.getByTestId('paper-link-MATH-UT-1').click();
      await tab.getByRole('tab', { name: 'Sets' }).click();
      await tab.getByTestId('set-row-D').waitFor();
      await tab.getByTestId('sets-compare').waitFor();
      expect(await tab.evaluate(() => [document.documentElement.dataset.mode, document.documentElement.dir])).toEqual(['dark', 'rtl']);
      await settled(tab);
      await expectAccessible(tab, 'the demo paper’s sets (dark, rtl)');
      await tab.getByTestId('set-preview-B').click();
      await tab.getByTestId('question-1').waitFor();
      await choose('set-preview-language', /^Gujarati$/, tab);
      await tab.getByTestId('question-1').getByText('પ્રશ્ન 1').waitFor();
      expect(await tab.getByTestId('set-preview').getAttribute('dir')).toBe('ltr');
      await settled(tab);
      await expectAccessible(tab, 'the set preview in Gujarati (dark, rtl)');
      expect(tabErrors).toEqual([]);
    } finally {
      await dark.close();
    }
  });
});

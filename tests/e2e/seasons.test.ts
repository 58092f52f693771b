import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_DOMAIN } from '#server/db/demo-data.ts';
import { qrTextsInPdf } from '#tests/fixtures/pdf-qr.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { expectAccessible } from './support/axe.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInContext } from './support/signed-in-page.ts';

/**
 * Issue 18 in Chromium on the demo data: a candidate registers for the open March 2027 season
 * (Ark Steps); an administrator approves and allocates her from the queue and issues her admit
 * card; she downloads the PDF; the QR code printed in it — decoded from the PDF's image with
 * jsQR — is accepted by the verify screen, and an altered code is called forged. axe on every
 * screen on the way, and on centers, seasons and a season's tabs.
 */
const PASSWORD = 'demo pass phrase 2027 ok';
const PROJECT = 'Class 10 Board Examination 2027';
let server: RunningServer;
let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let candidate: { context: BrowserContext; page: Page; errors: string[] };
const refused: string[] = [];

async function tab(who: { email: string; password: string }) {
  const context = await newContext(browser, server.url, { acceptDownloads: true });
  await signInContext(context, server, who);
  const page = await context.newPage();
  page.on('response', async (response) => {
    if (response.status() >= 400)
      refused.push(`${response.request().method()} ${response.url()} ${response.status()} ${await response.text().catch(() => '')}`);
  });
  return { context, page, errors: collectPageErrors(page) };
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD: PASSWORD }, startupTimeoutMs: 240_000 }), launchBrowser()]);
  admin = await tab({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
  candidate = await tab({ email: `asha.menon@${DEMO_EMAIL_DOMAIN}`, password: PASSWORD });
  // The administrator works on the board project, chosen as a person does.
  await admin.page.goto('/projects?q=BOARD10');
  await admin.page.getByTestId('projects-table').getByRole('button', { name: PROJECT, exact: true }).click();
  await admin.page.getByRole('heading', { level: 1, name: `Exams of ${PROJECT}` }).waitFor();
}, 300_000);

afterAll(async () => {
  await admin?.context.close().catch(() => undefined);
  await candidate?.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

async function choose(page: Page, testId: string, option: RegExp) {
  const trigger = page.getByTestId(testId).getByRole('combobox');
  await trigger.click();
  const listbox = page.getByRole('listbox');
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

/** Chooses a row menu's item by pointer. */
async function rowAction(page: Page, menu: string, item: string) {
  await page.getByRole('button', { name: menu }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe('registrations and admit cards in Chromium', { timeout: 300_000 }, () => {
  let pdf: Buffer;

  it('should let a candidate register for the open season step by step', async () => {
    const { page } = candidate;
    await page.goto('/registrations/mine');
    await page.getByRole('heading', { level: 1, name: 'My registrations' }).waitFor();
    await expectAccessible(page, 'my registrations (none yet)');
    await page.getByTestId('register-link').click();
    await page.getByRole('heading', { level: 1, name: 'Register for an exam' }).waitFor();
    await choose(page, 'register-exam', /March 2027 sitting/);
    await page.getByTestId('register-paper-MATH-UT-1').getByRole('checkbox').isChecked();
    await expectAccessible(page, 'registering: exam and papers');
    await page.getByTestId('register-next').click();
    await page.getByTestId('register-medium-en').click();
    await page.getByTestId('register-next').click();
    await choose(page, 'register-city', /^Surat$/);
    await page.getByTestId('register-next').click();
    await page.getByTestId('register-extra-time').waitFor();
    await expectAccessible(page, 'registering: accommodations');
    await page.getByTestId('register-next').click();
    await page.getByTestId('register-review').getByText('Surat').waitFor();
    await expectAccessible(page, 'registering: review');
    await page.getByTestId('register-submit').click();
    await page.getByRole('heading', { level: 1, name: 'My registrations' }).waitFor();
    await page.getByText('Waiting for approval.').waitFor();
  });

  it('should let an administrator approve, allocate and issue the admit card from the queue', async () => {
    const { page } = admin;
    await page.goto('/workspace/registrations');
    await page.getByRole('heading', { level: 1, name: 'Registrations' }).waitFor();
    await page.getByTestId('registrations-table').getByText('Asha Menon').waitFor();
    await expectAccessible(page, 'the approval queue');
    // Accommodations asked for with the registration are granted from the row.
    await rowAction(page, 'Actions for Neha Joshi', 'Grant accommodations');
    await page.getByTestId('registrations-table').getByRole('row').filter({ hasText: 'Neha Joshi' }).getByText('Approved').waitFor();
    // A registration is rejected with a reason, asked for in a dialog.
    await rowAction(page, 'Actions for Dev Parmar', 'Reject');
    const reject = page.getByRole('dialog', { name: 'Reject the registration of Dev Parmar' });
    await reject.waitFor();
    await expectAccessible(page, 'the reject dialog');
    await reject.getByTestId('reason-text').fill('The registration names a paper of another board.');
    await reject.getByTestId('reason-confirm').click();
    await page.getByTestId('registrations-table').getByText('Dev Parmar').waitFor({ state: 'detached' });
    await rowAction(page, 'Actions for Asha Menon', 'Approve');
    await page.getByTestId('registrations-table').getByText('Asha Menon').waitFor({ state: 'detached' });

    await page.goto('/workspace/registrations?status=Approved');
    await page.getByTestId('registrations-table').getByText('Asha Menon').waitFor();
    await rowAction(page, 'Actions for Asha Menon', 'Allocate (preferred city)');
    await page.getByTestId('registrations-table').getByText('Asha Menon').waitFor({ state: 'detached' });

    await page.goto('/workspace/registrations?status=Allocated');
    const row = page.getByTestId('registrations-table').getByRole('row').filter({ hasText: 'Asha Menon' });
    await row.getByText(/SUR-001/).waitFor();
    await rowAction(page, 'Actions for Asha Menon', 'Issue admit card');
    await page.getByTestId('registrations-table').getByText('Asha Menon').waitFor({ state: 'detached' });

    await page.goto('/workspace/registrations?status=Rejected');
    await page.getByTestId('registrations-table').getByText('Dev Parmar').waitFor();
    await page.getByTestId('registrations-table').getByText('Rahul Bhatt').waitFor();
    // Moving a candidate whose card is issued: a dialog of the season's centers.
    await page.goto('/workspace/registrations?status=AdmitCardIssued');
    // Kavya holds two issued cards (this season's and the online mock test's, issue 19): the row
    // of this season is the one with its roll number.
    await page.getByTestId('registrations-table').getByRole('row').filter({ hasText: 'MAR27' }).getByRole('button', { name: 'Actions for Kavya Shah' }).click();
    await page.getByRole('menuitem', { name: 'Move to another center…' }).click();
    const move = page.getByRole('dialog', { name: 'Move Kavya Shah to another center' });
    await move.getByTestId('center-choice-confirm').waitFor();
    await expectAccessible(page, 'the move dialog');
    await move.getByRole('button', { name: 'Cancel' }).click();
    await move.waitFor({ state: 'detached' });
  });

  it('should let the candidate download the admit card whose printed QR code carries her token', async () => {
    const { page } = candidate;
    await page.goto('/registrations/mine');
    await page.getByText('Your admit card is ready: print it and bring it to every paper.').waitFor();
    await expectAccessible(page, 'my registrations with an admit card');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.getByRole('button', { name: /^Download admit card: / }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^admit-card-MAR27SUR-001\d{5}\.pdf$/);
    pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('should accept the QR code on the verify screen and call an altered one forged', async () => {
    const [token] = qrTextsInPdf(pdf);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const { page } = admin;
    await page.goto('/admitcards/verify');
    await page.getByRole('heading', { level: 1, name: 'Verify an admit card' }).waitFor();
    await expectAccessible(page, 'the verify screen');
    await page.getByTestId('verify-token').fill(token);
    await page.getByTestId('verify-check').click();
    await expect.poll(() => page.getByTestId('verify-verdict').getAttribute('data-verdict')).toBe('valid');
    await page.getByTestId('verify-name').getByText('Asha Menon').waitFor();
    await expectAccessible(page, 'a valid verdict');

    const [payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { r: number };
    const altered = `${Buffer.from(JSON.stringify({ ...claims, r: claims.r + 1 })).toString('base64url')}.${signature}`;
    await page.getByTestId('verify-token').fill(altered);
    await page.getByTestId('verify-check').click();
    await expect.poll(() => page.getByTestId('verify-verdict').getAttribute('data-verdict')).toBe('forged');
    await page.getByText('Forged or altered').waitFor();
  });

  it('should show centers, seasons and a season’s tabs, each accessible', async () => {
    const { page } = admin;
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('examcenter/search')) sent.push(`${request.postData()} ${JSON.stringify(request.headers())}`);
    });
    page.on('response', async (response) => {
      if (response.url().includes('examcenter/search')) sent.push(`answer ${response.status()} ${(await response.text()).slice(0, 300)}`);
    });
    await page.goto('/workspace/centers?city=Ahmedabad');
    await page
      .getByTestId('centers-table')
      .getByText('AHM-002')
      .waitFor()
      .catch(async (error: unknown) => {
        await screenshot(page, 'seasons-centers');
        throw new Error(`${String(error)}\n${sent.join('\n')}\n${refused.join('\n')}\n${admin.errors.join('\n')}\n${(await page.content()).slice(0, 3000)}`);
      });
    await expect.poll(() => page.getByTestId('centers-table').getByText('SUR-001').count()).toBe(0);
    await expectAccessible(page, 'exam centers filtered by city');
    await page.goto('/workspace/seasons');
    await page.getByTestId('season-link-MAR27').click();
    await page.getByRole('heading', { level: 1, name: 'March 2027 sitting' }).waitFor();
    await page.getByTestId('schedule-table').getByText('MATH-UT-1').waitFor();
    await expectAccessible(page, 'a season’s schedule');
    // The season opened is in the workspace bar (decision 0236).
    await page.getByTestId('workspace-season').getByText('March 2027 sitting').waitFor();
    await page.getByRole('tab', { name: 'Section settings' }).click();
    await page
      .getByRole('group', { name: /MATH-UT-1/ })
      .getByRole('textbox')
      .first()
      .waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('group', { name: /MATH-UT-1/ })
          .getByRole('textbox')
          .first()
          .inputValue(),
      )
      .toBe('15');
    await expectAccessible(page, 'the season tab Section settings');
    for (const [name, ready] of [
      ['Live sets', 'sets-MATH-UT-1'],
      ['Centers and seats', 'season-centers-table'],
      ['Admit cards', 'issue-admit-cards'],
    ] as const) {
      await page.getByRole('tab', { name }).click();
      await page.getByTestId(ready).waitFor();
      await expectAccessible(page, `the season tab ${name}`);
    }
    await page.getByTestId('batches-table').getByRole('row').nth(1).waitFor();
    // Last November's Completed sitting, its candidates marked attended and absent.
    await page.goto('/workspace/seasons');
    await page.getByTestId('season-link-NOV26').waitFor();
    await page.goto('/workspace/registrations?status=Attended&seasonId=');
    // Isha sat both November's paper and the results demo's held unit test: two attended rows.
    await page.getByTestId('registrations-table').getByText('Isha Trivedi').first().waitFor();
    await expectAccessible(page, 'attendance in the queue');
    expect(refused).toEqual([]);
    expect(admin.errors).toEqual([]);
    expect(candidate.errors).toEqual([]);
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';

/**
 * Issue 15's client in Chromium on the demo data (docs/decisions/0095): a project created from a
 * template through the set-up stepper, a reviewer granted on it, the project › exam selection
 * kept over a reload, and switching the project clearing the exam.
 */
let server: RunningServer;
let browser: Browser;
let admin: SignedInPage;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD: 'demo pass phrase 2027 ok' }, startupTimeoutMs: 240_000 }), launchBrowser()]);
  admin = await signedInPage(browser, server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
}, 300_000);

afterAll(async () => {
  await admin?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

describe('the exam workspace in Chromium', () => {
  it('should create a project from a template through the stepper and grant a reviewer on it', async () => {
    const { page, errors } = admin;
    const refused: string[] = [];
    page.on('response', async (response) => {
      if (response.status() >= 400) refused.push(`${response.request().method()} ${response.url()} ${response.status()} ${await response.text().catch(() => '')}`);
    });
    await page.goto('/projects');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByTestId('projects-table').getByText('Class 10 Board Examination 2027').waitFor();

    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.waitFor();
    await dialog.getByRole('option', { name: 'Entrance test (CBT, negative marking)' }).waitFor({ state: 'attached' });
    await dialog.getByLabel('Template').selectOption({ label: 'Entrance test (CBT, negative marking)' });
    await dialog.getByLabel('Code').fill('NEET-MOCK-E2E');
    await dialog.getByLabel('Name').fill('Medical entrance mock E2E');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The show-project-config-stepper flag is true by default: the stepper opens on the new project.
    await page.waitForURL(/\/projects\/setup$/);
    await page.getByRole('heading', { level: 1, name: 'Set up Medical entrance mock E2E' }).waitFor();
    await page.getByTestId('workspace-bar').getByText('Medical entrance mock E2E').waitFor();
    await page.getByTestId('setup-status').getByText('Draft').waitFor();

    await page.getByTestId('setup-next').click();
    // The template's item types were copied: +4 / −1 single correct among them.
    const itemTypes = page.getByTestId('setup-itemTypes');
    await itemTypes.getByRole('heading', { name: /^Item types \([1-9]\d*\)$/ }).waitFor();
    await itemTypes.getByText('+4 / -1').first().waitFor();
    await page.getByTestId('setup-next').click();
    await page.getByTestId('setup-categories').getByRole('heading', { name: /^Categories \(\d+\)$/ }).waitFor();
    await page.getByTestId('setup-next').click();
    await page.getByTestId('setup-flows').getByRole('heading', { name: /^Review flows \([1-9]\d*\)$/ }).waitFor();
    await page.getByTestId('setup-next').click();

    const team = page.getByTestId('setup-team');
    // The creator holds ProjectAdmin on the new project (docs/decisions/0090).
    await team
      .getByTestId('team-table')
      .getByText('Project administrator')
      .waitFor()
      .catch(async (error: unknown) => {
        await screenshot(page, 'team-step-failure');
        throw new Error(`the team step shows: ${await team.innerHTML()}\nrefused: ${refused.join('\n')}`, { cause: error });
      });
    await team.getByRole('button', { name: 'Grant a permission' }).click();
    const grant = page.getByRole('dialog', { name: 'Grant a permission' });
    await grant.getByLabel('Name or e-mail').fill('vikram');
    await grant.getByRole('button', { name: 'Find' }).click();
    await grant.getByLabel('User').locator('option', { hasText: 'Vikram Rao' }).waitFor({ state: 'attached' });
    await grant.getByLabel('Permission').selectOption({ label: 'Item reviewer' });
    await grant.getByRole('button', { name: 'Grant', exact: true }).click();
    await grant.waitFor({ state: 'hidden' });
    const row = team.getByTestId('team-table').getByRole('row', { name: /Vikram Rao/ });
    await row.getByText('Item reviewer').waitFor();
    await screenshot(page, 'project-setup-team');

    await page.getByTestId('setup-next').click();
    await page.getByTestId('setup-done').getByRole('heading', { name: 'Set-up complete' }).waitFor();
    await page.getByRole('button', { name: 'Go to the exams' }).click();
    await page.waitForURL(/\/exams$/);
    await page.getByRole('heading', { level: 1, name: 'Exams of Medical entrance mock E2E' }).waitFor();

    // What the screens did is what the server holds: the project moved to Setup.
    await page.goto('/projects?q=NEET-MOCK');
    await page.getByTestId('projects-table').getByRole('row', { name: /NEET-MOCK-E2E/ }).getByText('Being set up').waitFor();
    expect(errors).toEqual([]);
  });

  it('should keep the selected project and exam over a reload, and clear the exam when the project changes', async () => {
    const { page, errors } = admin;
    await page.goto('/projects?q=BOARD10');
    await page.getByTestId('projects-table').getByRole('button', { name: 'Class 10 Board Examination 2027', exact: true }).click();
    // An active project opens its exams, not the stepper.
    await page.getByRole('heading', { level: 1, name: 'Exams of Class 10 Board Examination 2027' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/exams');
    await page.getByRole('button', { name: 'Work on Mathematics (Standard)' }).click();
    const bar = page.getByTestId('workspace-bar');
    await bar.getByTestId('workspace-exam').getByText('Mathematics (Standard)').waitFor();
    await page.getByTestId('breadcrumbs').getByText('Mathematics (Standard)').waitFor();

    await page.reload();
    await page.getByTestId('workspace-bar').getByTestId('workspace-project').getByText('Class 10 Board Examination 2027').waitFor();
    await page.getByTestId('workspace-bar').getByTestId('workspace-exam').getByText('Mathematics (Standard)').waitFor();
    await page.getByTestId('exam-current-MATH-10').waitFor();
    await screenshot(page, 'workspace-bar-selected');

    // Switch the project from the workspace bar's menu: the exam goes.
    await page.getByTestId('workspace-project').click();
    await page.getByTestId('workspace-project-menu').getByRole('menuitem', { name: /Engineering entrance mock test 2027/ }).click();
    await page.getByTestId('workspace-project').getByText('Engineering entrance mock test 2027').waitFor();
    await page.getByTestId('workspace-exam').getByText('none selected').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Exams of Engineering entrance mock test 2027' }).waitFor();
    await page.reload();
    await page.getByTestId('workspace-exam').getByText('none selected').waitFor();
    expect(await page.getByTestId('breadcrumbs').getByText('Mathematics (Standard)').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

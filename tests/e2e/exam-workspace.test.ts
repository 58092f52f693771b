import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, screenshot } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';
import { chooseOption } from './support/select.ts';

/**
 * Issue 15's client in Chromium on the demo data (docs/decisions/0095): a project created from a
 * template through the set-up stepper, a reviewer granted on it, the project › exam selection
 * kept over a reload, and switching the project clearing the exam.
 */
let server: RunningServer;
let browser: Browser;
let admin: SignedInPage;
const DEMO_PASSWORD = 'demo pass phrase 2027 ok';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD }, startupTimeoutMs: 240_000 }), launchBrowser()]);
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
      if (response.status() >= 400)
        refused.push(`${response.request().method()} ${response.url()} ${response.status()} ${await response.text().catch(() => '')}`);
    });
    await page.goto('/projects');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByTestId('projects-table').getByText('Class 10 Board Examination 2027').waitFor();

    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.waitFor();
    await chooseOption(page, dialog, 'Template', 'Entrance test (CBT, negative marking)');
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
    // Each type is editable in place; the template's +4 / −1 marking is there.
    const marks = await itemTypes.getByRole('form').evaluateAll((forms) =>
      forms.map((form) =>
        [...form.querySelectorAll('input')]
          .slice(1, 3)
          .map((input) => (input as HTMLInputElement).value)
          .join(' / '),
      ),
    );
    expect(marks).toContain('4 / -1');
    await page.getByTestId('setup-next').click();
    await page
      .getByTestId('setup-categories')
      .getByRole('heading', { name: /^Categories \(\d+\)$/ })
      .waitFor();
    await page.getByTestId('setup-next').click();
    await page
      .getByTestId('setup-flows')
      .getByRole('heading', { name: /^Review flows \([1-9]\d*\)$/ })
      .waitFor();
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
    // The user picker searches the server as one types (Ark Combobox); a match is chosen from its list.
    const userField = grant.getByRole('combobox', { name: 'User' });
    await userField.pressSequentially('vikram');
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /^Vikram Rao </ })
      .click();
    await expect.poll(() => userField.inputValue()).toMatch(/^Vikram Rao </);
    await chooseOption(page, grant, 'Permission', 'Item reviewer');
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
    await page
      .getByTestId('projects-table')
      .getByRole('row', { name: /NEET-MOCK-E2E/ })
      .getByText('Being set up')
      .waitFor();
    expect(errors).toEqual([]);
  }, 90_000);

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
    await page
      .getByTestId('workspace-project-menu')
      .getByRole('menuitem', { name: /Engineering entrance mock test 2027/ })
      .click();
    await page.getByTestId('workspace-project').getByText('Engineering entrance mock test 2027').waitFor();
    await page.getByTestId('workspace-exam').getByText('none selected').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Exams of Engineering entrance mock test 2027' }).waitFor();
    await page.reload();
    await page.getByTestId('workspace-exam').getByText('none selected').waitFor();
    expect(await page.getByTestId('breadcrumbs').getByText('Mathematics (Standard)').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 60_000);

  it('should edit the set-up steps, keep the input over a concurrent change from another tab, and reach every slice from the menu', async () => {
    const { page, errors } = admin;
    await page.goto('/projects?q=NEET-MOCK');
    await page.getByTestId('projects-table').getByRole('button', { name: 'Medical entrance mock E2E', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Set up Medical entrance mock E2E' }).waitFor();
    await expectAccessible(page, 'the basics step');

    // Basics: the server refuses nothing the form lets through, and the form refuses an empty name itself.
    const basics = page.getByTestId('basics-form');
    await basics.getByRole('textbox', { name: /^Name/ }).fill('');
    await basics.getByRole('button', { name: 'Save basics' }).click();
    await basics.getByText('Enter a name.').waitFor();
    await basics.getByRole('textbox', { name: /^Name/ }).fill('Medical entrance mock E2E 2027');
    await basics.getByText('Gujarati').click();
    await basics.getByRole('button', { name: 'Save basics' }).click();
    await page.getByRole('heading', { level: 1, name: 'Set up Medical entrance mock E2E 2027' }).waitFor();

    // Item types: this tab starts an edit, another tab saves the same type first.
    await page.getByTestId('setup-next').click();
    const row = page.getByTestId('setup-itemTypes').getByRole('form').first();
    const typeName = (await row.getAttribute('aria-label'))!;
    const correctBefore = await row.getByRole('textbox', { name: /^Correct/ }).inputValue();
    await row.getByRole('textbox', { name: /^Wrong/ }).fill('-2');
    const other = await page.context().newPage();
    await other.goto('/workspace/item-types');
    await other.getByRole('heading', { level: 1, name: 'Item types' }).waitFor();
    const otherRow = other.getByRole('form', { name: typeName, exact: true });
    await otherRow.getByRole('textbox', { name: /^Correct/ }).fill(String(Number(correctBefore) + 1));
    await otherRow.getByRole('button', { name: `Save ${typeName}` }).click();
    await other.getByText(`${typeName} was saved.`).first().waitFor();
    await expectAccessible(other, 'the item types screen');
    await other.close();

    await row.getByRole('button', { name: `Save ${typeName}` }).click();
    const notice = row.getByTestId('stale-edit');
    await notice.getByText(/saved this while you were editing/).waitFor();
    expect(await row.getByRole('textbox', { name: /^Wrong/ }).inputValue()).toBe('-2');
    await screenshot(page, 'project-setup-stale-edit');
    await expectAccessible(page, 'the item types step with a stale-edit notice');
    await notice.getByRole('button', { name: 'Save mine over it' }).click();
    await notice.waitFor({ state: 'detached' });
    const saved = page.getByTestId('setup-itemTypes').getByRole('form', { name: typeName, exact: true });
    expect(await saved.getByRole('textbox', { name: /^Wrong/ }).inputValue()).toBe('-2');
    // Saving mine over theirs kept only my fields' values: the correct mark is what this tab had.
    expect(await saved.getByRole('textbox', { name: /^Correct/ }).inputValue()).toBe(correctBefore);

    // Flows on their own screen: add a named stage and save; a blank stage is refused first.
    await page.goto('/workspace/flows');
    await page.getByRole('heading', { level: 1, name: 'Review flows' }).waitFor();
    const flow = page.getByTestId('flows-editor').getByRole('form').first();
    await flow.getByRole('button', { name: 'Add a stage' }).click();
    await flow.getByRole('button', { name: 'Save flow' }).click();
    await flow.getByText('Name this stage.').waitFor();
    const stages = await flow.locator('li').count();
    await flow.getByRole('textbox', { name: new RegExp(`^Stage ${stages}\\b`) }).fill('Chief examiner');
    await flow.getByRole('button', { name: 'Save flow' }).click();
    await page
      .getByText(/was saved\./)
      .first()
      .waitFor();
    await page
      .getByTestId('flows-editor')
      .getByRole('form')
      .first()
      .getByText(/Chief examiner → Approved/)
      .waitFor();
    await expectAccessible(page, 'the flows screen');

    // Taking the stage out again: before saving, how many records stand in it and where they go (0200).
    const edited = page.getByTestId('flows-editor').getByRole('form').first();
    await edited.getByRole('button', { name: 'Remove Chief examiner' }).click();
    await edited.getByRole('button', { name: 'Save flow' }).click();
    const preview = edited.getByRole('region', { name: 'Before you save' });
    await preview.getByText(/in the stages this edit removes/).waitFor();
    await expectAccessible(page, 'the flow edit preview');
    await preview.getByRole('button', { name: 'Save the flow' }).click();
    await page
      .getByText(/Records in removed stages moved: Chief examiner →/)
      .first()
      .waitFor();

    // The workspace menu reaches every slice: export templates (issue 20) is its own screen now,
    // with the three templates the project's seeded template carries.
    await page.getByTestId('workspace-goto').click();
    const menu = page.getByTestId('workspace-goto-menu');
    await menu.getByTestId('goto-exportTemplates').waitFor();
    await expectAccessible(page, 'the workspace menu');
    await menu.getByTestId('goto-exportTemplates').click();
    await page.waitForURL(/\/workspace\/export-templates$/);
    await page.getByRole('heading', { level: 1, name: 'Export templates' }).waitFor();
    await page.getByTestId('export-templates-table').getByText('Result sheet').waitFor();
    expect(await page.getByText('Export templates is not available yet').count()).toBe(0);
    await expectAccessible(page, 'the export templates screen');
    await page.goto('/workspace');
    await page.getByRole('heading', { level: 1, name: 'Workspace of Medical entrance mock E2E 2027' }).waitFor();
    await expectAccessible(page, 'the workspace overview');
    await page.getByTestId('tile-papers').click();
    await page.getByTestId('choose-exam').waitFor();
    // The one refused save is the stale edit above (Chromium logs every 4xx resource); nothing else.
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']);
    errors.length = 0;
  }, 120_000);

  it("should edit an exam's pass rules over a concurrent change, withdraw its results with a reason, and show both histories", async () => {
    const { page, errors } = admin;
    await page.goto('/projects?q=BOARD10');
    await page.getByTestId('projects-table').getByRole('button', { name: 'Class 10 Board Examination 2027', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Exams of Class 10 Board Examination 2027' }).waitFor();

    // A Draft exam: its rules are editable; another tab saves first, this tab keeps its input.
    await page.getByTestId('select-exam-SCI-10').click();
    await page.getByTestId('exam-current-SCI-10').waitFor();
    await page.getByTestId('workspace-goto').click();
    await page.getByTestId('workspace-goto-menu').getByTestId('goto-examDetails').click();
    await page.waitForURL(/\/workspace\/exam$/);
    await page.getByRole('heading', { level: 1, name: 'Exam: Science' }).waitFor();
    const form = page.getByTestId('exam-rules-form');
    await form.getByLabel(/^Pass mark/).fill('40');
    // The demo's lowest band (E) starts at 0: raise it, then add F below it.
    const bands = (await form.locator('[data-testid^="grade-band-"]').count()) + 1;
    await form.getByLabel(new RegExp(`^From \\(%\\) for grade ${bands - 1}\\b`)).fill('21');
    await form.getByRole('button', { name: 'Add a grade band' }).click();
    await form.getByLabel(new RegExp(`^Grade ${bands}\\b`)).fill('F');
    await form.getByLabel(new RegExp(`^From \\(%\\) for grade ${bands}\\b`)).fill('0');
    const other = await page.context().newPage();
    await other.goto('/workspace/exam');
    const otherForm = other.getByTestId('exam-rules-form');
    await otherForm.getByLabel(/^Minimum in every section/).fill('20');
    await otherForm.getByRole('button', { name: 'Save details and rules' }).click();
    await other.getByText('Science saved.').first().waitFor();
    await expectAccessible(other, 'the exam details screen');
    await other.close();

    await form.getByRole('button', { name: 'Save details and rules' }).click();
    const notice = form.getByTestId('stale-edit');
    await notice.getByText(/saved this while you were editing/).waitFor();
    expect(await form.getByLabel(/^Pass mark/).inputValue()).toBe('40');
    await expectAccessible(page, 'the exam rules with a stale-edit notice');
    await notice.getByRole('button', { name: 'Save mine over it' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.getByText('Science saved.').first().waitFor();
    const history = page.getByTestId('exam-history');
    await history.getByRole('row').nth(1).getByText('Changed: pass rules, grade bands').waitFor();

    // An exam with published results, withdrawn again with a reason (the demo's ENG-10 is in Evaluation).
    await page.goto('/exams');
    await page.getByTestId('select-exam-ENG-10').click();
    await page.getByTestId('exam-current-ENG-10').waitFor();
    await page.goto('/workspace/exam');
    await page.getByRole('heading', { level: 1, name: 'Exam: English (withdrawn results)' }).waitFor();
    await page.getByTestId('exam-history').getByText('Answer key error in Q14; re-marking section B').waitFor();
    await page.getByTestId('exam-rules-read-only').getByText('The rules are frozen: the exam is Evaluation.').waitFor();
    await page.getByRole('button', { name: 'Publish results' }).click();
    await page.getByTestId('exam-status-actions').getByRole('button', { name: 'Withdraw results' }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw the results of English (withdrawn results)' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Withdraw results' }).click();
    await dialog.getByText('Give the reason for withdrawing the results.').waitFor();
    // The dialog is what is checked here: the toast of the publication just before may still be
    // entering or leaving behind it while axe runs (a settled toast is audited with the flows screen).
    await expectAccessible(page, 'the withdraw results dialog', { exclude: ['[data-sonner-toaster]'] });
    await dialog.getByLabel(/^Reason/).fill('Grace marks for question 7 after the review');
    await dialog.getByRole('button', { name: 'Withdraw results' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const first = page.getByTestId('exam-history').getByRole('row').nth(1);
    await first.getByText('Grace marks for question 7 after the review').waitFor();
    await first.getByText('Results published → Evaluation').waitFor();
    await screenshot(page, 'exam-details-withdrawn');

    // The project's history: who, when, from → to and why, newest first.
    await page.goto('/workspace/history');
    await page.getByRole('heading', { level: 1, name: 'History of Class 10 Board Examination 2027' }).waitFor();
    await page.getByTestId('project-history').getByText('Revised syllabus published; work resumes').waitFor();
    await expectAccessible(page, 'the project history');
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']);
    errors.length = 0;
  }, 120_000);

  it('should archive a draft, restore an archived project, and draw the project flows on /machines', async () => {
    const { page, errors } = admin;
    await page.goto('/projects?q=2027');
    const table = page.getByTestId('projects-table');
    await table.getByRole('row', { name: /SCHOLAR-2027/ }).waitFor();
    await page.getByTestId('project-actions-SCHOLAR-2027').getByRole('button').click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/was never set up/).waitFor();
    await confirm.getByRole('button', { name: 'Archive' }).click();
    await table.getByRole('row', { name: /SCHOLAR-2027/ }).waitFor({ state: 'detached' });

    await page.goto('/projects?q=OLYMPIAD');
    await page.getByText('Show archived projects').click();
    const olympiad = table.getByRole('row', { name: /OLYMPIAD-2026/ });
    await olympiad.getByText('Archived').waitFor();
    await page.getByTestId('project-actions-OLYMPIAD-2026').getByRole('button').click();
    await page.getByRole('menuitem', { name: 'Restore' }).click();
    await olympiad.getByText('Closed').waitFor();

    await page.goto('/machines');
    const flows = page.getByTestId('project-flows');
    await flows
      .getByRole('link', { name: /^BOARD10-2027 · / })
      .first()
      .click();
    await page.getByRole('img', { name: /^Statechart of flow-\d+$/ }).waitFor({ timeout: 30_000 });
    await page.getByTestId('path-list').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
  }, 120_000);

  it('should show a user on no team whom to ask, and nothing of any project', async () => {
    const anil = await signedInPage(browser, server, { email: 'anil.kumar@demo.exam-portal.local', password: DEMO_PASSWORD });
    try {
      const { page, errors } = anil;
      const failures: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 500) failures.push(`${response.request().method()} ${response.url()} ${response.status()}`);
      });
      await page.goto('/projects');
      await page.getByTestId('no-grant').getByText('You are not on any project team yet').waitFor();
      await page.getByText(/Ask your exam manager or the project's administrator/).waitFor();
      expect(await page.getByRole('button', { name: 'New project' }).count()).toBe(0);
      expect(await page.getByTestId('workspace-bar').count()).toBe(0);
      await expectAccessible(page, 'the projects screen of a user on no team');
      for (const path of ['/workspace', '/workspace/item-types', '/exams', '/projects/team']) {
        await page.goto(path);
        await page.getByTestId('no-project').getByText('No project selected').waitFor();
      }
      await expectAccessible(page, 'a workspace screen with no project');

      // Over HTTP too: the board project exists, yet for this user it is "not found", never forbidden.
      const board = (await (
        await fetch(`${server.url}/api/v1/project/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ keyword: 'BOARD10' }),
        })
      ).json()) as { data: Array<{ projectId: number }> };
      const boardId = board.data[0].projectId;
      for (const path of [`/v1/project/${boardId}`, '/v1/itemtype', '/v1/flow']) {
        const res = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${anil.token}`, ProjectId: String(boardId) } });
        expect(res.status, path).toBe(404);
        expect(JSON.stringify(await res.json())).not.toContain('Class 10 Board');
      }
      expect(failures).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await anil.close();
    }
  }, 90_000);
});

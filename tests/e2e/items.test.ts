import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { expectAccessible } from './support/axe.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInContext } from './support/signed-in-page.ts';

/**
 * Issue 16's item workspace in Chromium on the demo data (docs/decisions/0127–0129): one item of
 * each kind written in English and Hindi, the review flow (request changes, then approve through
 * both stages), an approved item edited into version 2, a package exported and imported again,
 * the .xlsx template filled in and imported with its error file, stored and imported XSS payloads
 * that never run, and axe on the list (its category tree open too) and the editor.
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
/** Calls the server refused (status ≥ 400), for the failure messages. */
const refused: string[] = [];
let token: string;
let projectId: number;

const PROJECT = 'Class 10 Board Examination 2027';

async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/api${url}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, tenant: 'root', ProjectId: String(projectId) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD: 'demo pass phrase 2027 ok' }, startupTimeoutMs: 240_000 }),
    launchBrowser(),
  ]);
  context = await newContext(browser, server.url, { acceptDownloads: true });
  token = await signInContext(context, server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
  page = await context.newPage();
  errors = collectPageErrors(page);
  page.on('response', async (response) => {
    if (response.status() >= 400)
      refused.push(`${response.request().method()} ${response.url()} ${response.status()} ${await response.text().catch(() => '')}`);
  });
  const found = await fetch(`${server.url}/api/v1/project/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, tenant: 'root' },
    body: JSON.stringify({ keyword: 'BOARD10', pageNumber: 1, pageSize: 10 }),
  });
  projectId = ((await found.json()) as { data: Array<{ projectId: number }> }).data[0].projectId;
  // Work in the board project: chosen in the projects list, as a person does.
  await page.goto('/projects?q=BOARD10');
  await page.getByTestId('projects-table').getByRole('button', { name: PROJECT, exact: true }).click();
  await page.getByTestId('workspace-bar').getByText(PROJECT).waitFor();
}, 300_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

/** Chooses an option of an Ark UI Select (by name, or by position with the placeholder first). */
async function choose(testId: string, option: string | number) {
  await page.getByTestId(testId).getByRole('combobox').click();
  const listbox = page.getByRole('listbox');
  await listbox.waitFor();
  await (typeof option === 'number' ? listbox.getByRole('option').nth(option) : listbox.getByRole('option', { name: option, exact: true })).click();
  await listbox.waitFor({ state: 'hidden' });
}

/** Types into a rich text field (Tiptap) at its end. */
async function typeRich(testId: string, text: string) {
  const field = page.getByTestId(testId);
  await field.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(text);
}

const created: Record<string, number> = {};

async function authorItem(kind: string, fill: (lang: 'en' | 'hi') => Promise<void>, setKey?: () => Promise<void>) {
  await page.goto(`/items/new?kind=${kind}`);
  await page.getByRole('heading', { level: 1, name: 'New item' }).waitFor();
  await page.getByTestId(`kind-fields-${kind}`).waitFor();
  await choose('item-category', 1);
  await page.getByTestId('variant-gu').getByTestId('variant-missing-gu').waitFor();
  await page.getByTestId('add-variant-hi').click();
  await page.getByTestId('stem-hi').waitFor();
  await fill('en');
  await fill('hi');
  await setKey?.();
  await page.getByTestId('save-item').click();
  await page.waitForURL(/\/items\/\d+$/, { timeout: 30_000 }).catch(async (error: unknown) => {
    await screenshot(page, `item-${kind}-not-saved`);
    const issues = await page
      .getByTestId('item-issues')
      .textContent()
      .catch(() => '');
    const failed = await page
      .getByTestId('save-error')
      .textContent()
      .catch(() => '');
    throw new Error(`${kind} was not saved: ${issues ?? ''} ${failed ?? ''}`, { cause: error });
  });
  created[kind] = Number(new URL(page.url()).pathname.split('/').pop());
  await page.getByTestId('item-status').getByText('Draft').waitFor();
  // Both languages stored, Gujarati shown as missing.
  await page.getByTestId('variant-gu').getByTestId('variant-missing-gu').waitFor();
  await page.getByTestId('stem-hi').waitFor();
}

const choiceTexts = (ids: string[]) => async (lang: 'en' | 'hi') => {
  await typeRich(`stem-${lang}`, lang === 'en' ? 'Which one is right?' : 'कौन सा सही है?');
  for (const id of ids) await typeRich(`choice-${lang}-${id}`, lang === 'en' ? `Answer ${id}` : `उत्तर ${id}`);
};

describe('the item workspace in Chromium', () => {
  it('should author one item of each kind in English and Hindi', async () => {
    await authorItem('singleChoice', choiceTexts(['A', 'B', 'C', 'D']));
    // Try it: the shared scorer and the server's score endpoint agree.
    await page.getByTestId('preview-option-A').click();
    await page.getByTestId('preview-check').click();
    await page.getByTestId('preview-score-local').getByText('1 of 1').waitFor();
    await page
      .getByTestId('preview-score-server')
      .getByText('1 of 1')
      .waitFor()
      .catch(async (error: unknown) => {
        throw new Error(`no server score: ${await page.getByTestId('item-preview').textContent()}\nrefused: ${refused.join('\n')}`, { cause: error });
      });

    await authorItem('multipleChoice', choiceTexts(['A', 'B', 'C', 'D']), async () => {
      await page.getByTestId('correct-C').click();
      await choose('partial-mode', 'Marks per correct and wrong part');
    });
    await authorItem('trueFalse', async (lang) => typeRich(`stem-${lang}`, lang === 'en' ? 'The sun rises in the east.' : 'सूर्य पूर्व में उगता है।'));
    await authorItem(
      'numeric',
      async (lang) => typeRich(`stem-${lang}`, lang === 'en' ? 'How much is 2 + 2?' : '2 + 2 कितना है?'),
      async () => {
        await page.getByTestId('numeric-answer').fill('4');
        await page.getByTestId('numeric-tolerance').fill('0.5');
      },
    );
    await authorItem(
      'shortText',
      async (lang) => typeRich(`stem-${lang}`, lang === 'en' ? 'The capital of India?' : 'भारत की राजधानी?'),
      async () => {
        await page.getByTestId('short-text-0').fill('New Delhi');
        await page.getByTestId('short-add').click();
        await page.getByTestId('short-text-1').fill('नई दिल्ली');
      },
    );
    await authorItem(
      'fillInBlanks',
      async (lang) => typeRich(`stem-${lang}`, lang === 'en' ? ' is seven.' : ' सात है।'),
      async () => page.getByTestId('gap-G1-text-0').fill('3 + 4'),
    );
    await authorItem('matching', async (lang) => {
      await typeRich(`stem-${lang}`, lang === 'en' ? 'Match the capitals.' : 'राजधानियाँ मिलाइए।');
      for (const id of ['L1', 'L2', 'R1', 'R2']) await typeRich(`choice-${lang}-${id}`, lang === 'en' ? `Entry ${id}` : `प्रविष्टि ${id}`);
    });
    await authorItem('ordering', choiceTexts(['A', 'B', 'C', 'D']));
    await authorItem(
      'essay',
      async (lang) => {
        await typeRich(`stem-${lang}`, lang === 'en' ? 'Describe the water cycle.' : 'जल चक्र का वर्णन कीजिए।');
        await typeRich(`rubric-${lang}`, lang === 'en' ? 'Evaporation, condensation, rain.' : 'वाष्पीकरण, संघनन, वर्षा।');
      },
      async () => page.getByTestId('word-limit').fill('150'),
    );
    expect(Object.keys(created)).toHaveLength(9);

    // What the screens stored: every item has en and hi, and misses gu.
    for (const [kind, itemId] of Object.entries(created)) {
      const item = await api<{ kind: string; languages: string[]; missingLanguages: string[] }>('GET', `/v1/item/${itemId}`);
      expect(item.kind, kind).toBe(kind);
      expect(item.languages.sort(), kind).toEqual(['en', 'hi']);
      expect(item.missingLanguages, kind).toEqual(['gu']);
    }
    const hindi = await api<{ content: { variants: Record<string, { stem: string }> } }>('GET', `/v1/item/${created.essay}`);
    expect(hindi.content.variants.hi.stem).toContain('जल चक्र');

    // The list finds them, with filters in the URL.
    await page.goto('/items?kind=essay');
    await page.getByTestId('items-table').getByText('Describe the water cycle.').waitFor();
    expect(await page.getByTestId('filter-kind').getByRole('combobox').textContent()).toContain('Essay');
    await choose('filter-language', 'Gujarati');
    await choose('filter-variant', 'Missing');
    await page.waitForURL(/languagePresent=missing/);
    await page.getByTestId('items-table').getByText('Describe the water cycle.').waitFor();
    await choose('filter-variant', 'Present');
    await page.waitForURL(/languagePresent=present/);
    await page.getByText('Describe the water cycle.').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  }, 600_000);

  it('should review an item: request changes, then approve through both stages, offering only what the flow allows', async () => {
    await page.goto(`/items/${created.singleChoice}`);
    await page.getByRole('tab', { name: 'Review', exact: true }).click();
    const panel = page.getByTestId('review-panel');
    await panel.getByTestId('review-submit').click();
    await page.getByTestId('item-status').getByText('Peer review').waitFor();
    await expect(panel.getByTestId('review-submit').count()).resolves.toBe(0);

    await panel.getByTestId('review-requestChanges').click();
    await panel.getByText('Write what should change.').waitFor();
    await panel.getByTestId('review-comment-text').fill('Option B reads like a trick; reword it.');
    await panel.getByTestId('review-requestChanges').click();
    await page.getByTestId('item-status').getByText('Draft').waitFor();
    await panel.getByTestId('review-history').getByText('Option B reads like a trick; reword it.').waitFor();

    await panel.getByTestId('review-submit').click();
    await page.getByTestId('item-status').getByText('Peer review').waitFor();
    await panel.getByTestId('review-approve').click();
    await page.getByTestId('item-status').getByText('Approval').waitFor();
    await panel.getByTestId('review-approve').click();
    await page.getByTestId('item-status').getByText('Approved').waitFor();
    // Approved: no more approving or submitting; the content is read-only.
    await expect(panel.getByTestId('review-approve').count()).resolves.toBe(0);
    await expect(panel.getByTestId('review-submit').count()).resolves.toBe(0);
    await page.getByTestId('read-only-note').waitFor();
    await expect(page.getByTestId('save-item').count()).resolves.toBe(0);
    const stored = await api<{ status: string; actions: string[] }>('GET', `/v1/item/${created.singleChoice}`);
    expect(stored.status).toBe('Approved');
    expect(stored.actions).not.toContain('approve');
    expect(errors).toEqual([]);
  }, 300_000);

  it('should make version 2 when an approved item is edited, and show the difference', async () => {
    await page.goto(`/items/${created.singleChoice}`);
    await page.getByTestId('item-version').getByText('Version 1').waitFor();
    await page.getByTestId('edit-new-version').click();
    await typeRich('stem-en', ' (revised)');
    await page.getByTestId('save-item').click();
    await page.getByTestId('item-version').getByText('Version 2').waitFor();
    await page.getByTestId('item-status').getByText('Draft').waitFor();
    await page.getByRole('tab', { name: 'Versions', exact: true }).click();
    await page.getByTestId('version-1').getByText('Approved').waitFor();
    await page.getByTestId('diff-compare').click();
    await page.getByTestId('diff-table').getByText('variants.en.stem').waitFor();
    await page
      .getByTestId('diff-table')
      .getByText(/revised/)
      .waitFor();
    const stored = await api<{ versionNumber: number; approvedVersionId: number | null }>('GET', `/v1/item/${created.singleChoice}`);
    expect(stored.versionNumber).toBe(2);
    expect(stored.approvedVersionId).not.toBeNull();
    expect(errors).toEqual([]);
  }, 300_000);

  it('should export a package, import it again with a report, and export the category', async () => {
    await page.goto(`/items/${created.matching}`);
    const [download] = await Promise.all([
      page.waitForEvent('download').catch((error: unknown) => {
        throw new Error(`no download; refused: ${refused.join('\n')}`, { cause: error });
      }),
      page.getByTestId('export-item').click(),
    ]);
    const zip = await readFile((await download.path())!);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes(Buffer.from('imsmanifest.xml'))).toBe(true);

    await page.goto('/items/import');
    await choose('import-category', 2);
    await page.locator('input[type="file"]').setInputFiles({ name: 'matching-package.zip', mimeType: 'application/zip', buffer: zip });
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-state-matching-package.zip').getByText('Done').waitFor({ timeout: 60_000 });
    await page
      .getByTestId('import-counts-matching-package.zip')
      .getByText(/1 created, 0 refused/)
      .waitFor();

    const [categoryExport] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await choose('export-category', 2);
        await page.getByTestId('export-category-submit').click();
      })(),
    ]);
    const again = await readFile((await categoryExport.path())!);
    expect(again.subarray(0, 2).toString()).toBe('PK');
    expect(again.includes(Buffer.from('qti-match-interaction'))).toBe(false); // compressed entries: names only
    expect(again.includes(Buffer.from('imsmanifest.xml'))).toBe(true);
    expect(errors).toEqual([]);
  }, 300_000);

  it('should import the .xlsx template filled in: the good rows become items, the bad ones come back in an error file', async () => {
    await page.goto('/items/import');
    await page.getByTestId('import-template').waitFor();
    const [templateDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-template').click()]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile((await templateDownload.path())!)) as never);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header).toEqual(expect.arrayContaining(['code', 'kind', 'answer', 'stem_en', 'options_en', 'stem_hi', 'options_hi']));
    // The template's header row, with our rows under it instead of its examples (one per kind).
    const ours = new ExcelJS.Workbook();
    const sheetOfOurs = ours.addWorksheet('Items');
    sheetOfOurs.addRow(header);
    const row = (cells: Record<string, string | number>) => sheetOfOurs.addRow(header.map((title) => cells[title] ?? ''));
    row({ code: 'XL-1', kind: 'singleChoice', answer: 'B', stem_en: 'Which gas do plants take in?', options_en: 'Oxygen\nCarbon dioxide\nNitrogen' });
    row({ code: 'XL-2', kind: 'numeric', answer: 9.8, tolerance: 0.1, stem_en: 'g in m/s²?', stem_hi: 'गुरुत्वीय त्वरण m/s² में?' });
    row({ code: 'XL-3', kind: 'poll', stem_en: 'Not a kind we have' });
    const filled = Buffer.from(await ours.xlsx.writeBuffer());

    await choose('import-category', 1);
    await page.locator('input[type="file"]').setInputFiles({
      name: 'filled-template.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: filled,
    });
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-state-filled-template.xlsx').getByText('Done').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('import-counts-filled-template.xlsx').textContent()).toContain('2 created, 1 refused');
    const [errorFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-errors-filled-template.xlsx').click()]);
    const problems = new ExcelJS.Workbook();
    await problems.xlsx.load((await readFile((await errorFile.path())!)) as never);
    const lines = problems.worksheets[0]!.getSheetValues().slice(2) as unknown[][];
    expect(lines.map((line) => [line[1], line[2]])).toEqual([[4, 'XL-3']]);
    expect(String(lines[0]![4])).toContain('kind "poll" is not one of');

    // The good rows are items with the answers of the sheet.
    const found = await api<{ data: Array<{ code: string; kind: string; languages: string[] }> }>('POST', '/v1/item/search', { keyword: 'XL-', pageSize: 10 });
    expect(found.data.map((item) => [item.code, item.kind, [...item.languages].sort()]).sort()).toEqual([
      ['XL-1', 'singleChoice', ['en']],
      ['XL-2', 'numeric', ['en', 'hi']],
    ]);
    expect(errors).toEqual([]);
  }, 300_000);

  it('should run no script stored in any rich field or brought in by an imported package', async () => {
    const payloads = [
      '<img src="x" onerror="window.__xss=1">',
      '<script>window.__xss=2</script>',
      '<svg onload="window.__xss=3"></svg>',
      '<a href="javascript:window.__xss=4">link</a>',
      '<iframe srcdoc="<script>parent.__xss=5</script>"></iframe>',
      '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=6"></style></mglyph></table></mtext></math>',
      '<details open ontoggle="window.__xss=7"><summary>s</summary></details>',
      '<span data-latex="\\href{javascript:window.__xss=8}{x}"></span>',
      '<p style="background:url(javascript:window.__xss=9)">styled</p>',
    ].join('');
    const categories = await api<Array<{ categoryId: number }>>('GET', '/v1/category');
    const categoryId = categories[1].categoryId;
    const single = await api<{ itemId: number }>('POST', '/v1/item', {
      categoryId,
      difficulty: 'easy',
      content: {
        kind: 'singleChoice',
        marking: { correct: 1, wrong: 0, unanswered: 0 },
        media: [],
        options: [
          { id: 'A', keepLast: false },
          { id: 'B', keepLast: false },
        ],
        correct: 'A',
        shuffle: false,
        variants: { en: { stem: `<p>XSS stem</p>${payloads}`, choices: { A: `<p>A</p>${payloads}`, B: `<p>B</p>${payloads}` } } },
      },
    });
    const essay = await api<{ itemId: number }>('POST', '/v1/item', {
      categoryId,
      difficulty: 'easy',
      content: {
        kind: 'essay',
        marking: { correct: 5, wrong: 0, unanswered: 0 },
        media: [],
        wordLimit: 100,
        variants: { en: { stem: `<p>XSS essay</p>${payloads}`, rubric: `<p>Rubric</p>${payloads}` } },
      },
    });
    const qti = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="xss-import" title="XSS import" adaptive="false" time-dependent="false" xml:lang="en">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>A</qti-value></qti-correct-response></qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <p>Imported XSS stem</p>
    <img src="x" onerror="window.__xss=11"/>
    <script>window.__xss=12</script>
    <a href="javascript:window.__xss=13">link</a>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-simple-choice identifier="A">A <img src="y" onerror="window.__xss=14"/></qti-simple-choice>
      <qti-simple-choice identifier="B">B <iframe src="javascript:window.__xss=15"></iframe></qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;
    await page.goto('/items/import');
    await choose('import-category', 2);
    await page.locator('input[type="file"]').setInputFiles({ name: 'xss-item.xml', mimeType: 'application/xml', buffer: Buffer.from(qti) });
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-state-xss-item.xml').getByText('Done').waitFor({ timeout: 60_000 });
    const jobs = await api<Array<{ fileName: string; createdItemIds: number[] }>>('GET', '/v1/item/import');
    const imported = jobs.find((j) => j.fileName === 'xss-item.xml')?.createdItemIds[0];
    expect(imported).toBeGreaterThan(0);

    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    for (const itemId of [single.itemId, essay.itemId, imported!]) {
      await page.goto(`/items/${itemId}`);
      await page.getByTestId('stem-en').waitFor();
      await page.getByTestId('preview-stem').waitFor();
      // The editor, the preview (light, dark, right to left) and the list all rendered the payloads.
      await page.getByTestId('item-preview').getByText('Dark', { exact: true }).click();
      await page.getByTestId('item-preview').getByText('Right to left', { exact: true }).click();
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(
        await page.locator('script:not([src]):not([type="module"])').evaluateAll((nodes) => nodes.filter((n) => n.textContent?.includes('__xss')).length),
      ).toBe(0);
      expect(await page.locator('[onerror], [onload], [ontoggle], iframe, a[href^="javascript"]').count()).toBe(0);
    }
    await page.goto('/items?q=XSS');
    await page.getByTestId('items-table').waitFor();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  }, 300_000);

  it('should pass axe on the list and the editor', async () => {
    await page.goto('/items');
    await page.getByTestId('items-table').waitFor();
    await page.getByTestId(`choose-${'ITM'}`).count(); // the list has rendered its rows
    await expectAccessible(page, 'item list');
    // The category filter's tree, open: accessible too; a pointer click on a node filters by it.
    await page.getByTestId('filter-category').getByRole('button').click();
    const tree = page.getByRole('tree', { name: 'Category tree' });
    await tree.waitFor();
    await expectAccessible(page, 'item list with the category tree open');
    const first = tree.getByRole('button').first();
    const name = (await first.textContent())!.trim();
    await first.click();
    await page.waitForURL(/categoryId=\d+/);
    await tree.waitFor({ state: 'detached' });
    expect(await page.getByTestId('filter-category').getByRole('button').textContent()).toContain(name);
    await page.goto(`/items/${created.matching}`);
    await page.getByTestId('stem-en').waitFor();
    await page.getByTestId('choice-hi-R2').waitFor();
    await expectAccessible(page, 'item editor (matching)');
    // Each formatting toolbar is one tab stop; the arrow keys move along it.
    const toolbar = page.getByRole('toolbar', { name: 'Formatting of Question (English)' });
    await toolbar.getByRole('button', { name: 'Bold' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Italic');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe("Insert an image from the category's files");
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('stem-en');
    await page.goto('/items/new?kind=multipleChoice');
    await page.getByTestId('stem-en').waitFor();
    await expectAccessible(page, 'new item editor');
    await page.goto('/items/import');
    await page.getByTestId('import-jobs').waitFor();
    await expectAccessible(page, 'item import');
    expect(errors).toEqual([]);
  }, 300_000);
});

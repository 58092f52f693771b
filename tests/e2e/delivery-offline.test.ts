import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_DOMAIN } from '#server/db/demo-data.ts';
import { collectPageErrors, launchBrowser, newContext } from './support/browser.ts';
import { getApi, removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInContext } from './support/signed-in-page.ts';

/**
 * Issue 19's durability in Chromium on the demo data. Kavya Shah sits the online mock test (two
 * sections, questions in Gujarati, Hindi and English): her network drops mid-way, she answers
 * three questions, the screen says "Offline, 3 answers waiting", the network returns and the
 * answers go out; the invigilator's console (over HTTP) counts them. Then the same delivery
 * open on a second device: an older save that arrives last does not overwrite a newer one
 * (last write per question wins by sequence, not by arrival).
 */
const PASSWORD = 'demo pass phrase 2027 ok';
let server: RunningServer;
let browser: Browser;
interface Device {
  context: BrowserContext;
  page: Page;
  errors: string[];
  token: string;
}
let laptop: Device;
let invigilatorToken: string;
let projectId: number;
let deliveryId: number;
let seasonPaperId: number;

async function device(email: string): Promise<Device> {
  const context = await newContext(browser, server.url);
  const token = await signInContext(context, server, { email, password: PASSWORD });
  const page = await context.newPage();
  return { context, page, errors: collectPageErrors(page), token };
}

const api = <T>(token: string, url: string, project?: number) => getApi<T>(server, token, url, project);

/** What the invigilator's console reads for Kavya: her answered count. */
async function answeredOnConsole(): Promise<number> {
  const rows = await api<Array<{ deliveryId: number; answered: number }>>(invigilatorToken, `/v1/delivery?seasonPaperId=${seasonPaperId}`, projectId);
  return rows.find((r) => r.deliveryId === deliveryId)?.answered ?? -1;
}

/** The stored answer of one question, as the candidate's own delivery answers it. */
async function storedAnswer(itemNumber: number) {
  const delivery = await api<{ answers: Array<{ itemNumber: number; response: unknown; sequence: number }> }>(laptop.token, `/v1/delivery/mine/${deliveryId}`);
  return delivery.answers.find((a) => a.itemNumber === itemNumber);
}

const option = (page: Page, n: number, index: number) => page.getByTestId(`question-${n}`).locator('[data-testid^="preview-option-"]').nth(index);
async function optionId(page: Page, n: number, index: number): Promise<string> {
  return (await option(page, n, index).getAttribute('data-testid'))!.replace('preview-option-', '');
}
const indicator = (page: Page) => page.getByTestId('autosave-indicator');

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ env: { DEMO_DATA: '1', DEMO_PASSWORD: PASSWORD }, startupTimeoutMs: 240_000 }), launchBrowser()]);
  laptop = await device(`kavya.shah@${DEMO_EMAIL_DOMAIN}`);
  const staff = await newContext(browser, server.url);
  invigilatorToken = await signInContext(staff, server, { email: `sunita.patel@${DEMO_EMAIL_DOMAIN}`, password: PASSWORD });
  await staff.close();
  const found = await fetch(`${server.url}/api/v1/project/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${invigilatorToken}`, 'content-type': 'application/json', tenant: 'root' },
    body: JSON.stringify({ keyword: 'BOARD10' }),
  });
  projectId = ((await found.json()) as { data: Array<{ projectId: number }> }).data[0].projectId;
}, 300_000);

afterAll(async () => {
  await laptop?.context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

describe('a candidate sits a paper through a dropped network and on two devices', { timeout: 300_000 }, () => {
  it('should queue three answers while offline, say so, and deliver them to the console when the network returns', async () => {
    const { page, context } = laptop;
    await page.goto('/sit');
    await page.locator('[data-testid^="sit-"]').first().click();
    await page.getByTestId('delivery-declaration').click();
    await page.getByTestId('delivery-start').click();
    await page.getByTestId('question-1').waitFor();
    deliveryId = Number(page.url().match(/\/sit\/(\d+)/)![1]);
    seasonPaperId = (await api<{ seasonPaperId: number }>(laptop.token, `/v1/delivery/mine/${deliveryId}`)).seasonPaperId;
    // Bilingual (here trilingual) questions: her medium first, English a toggle away.
    await expect(page.getByTestId('question-1').getAttribute('lang')).resolves.toBe('gu');
    await page.getByTestId('question-language-en').click();
    await expect(page.getByTestId('question-1').getAttribute('lang')).resolves.toBe('en');

    await option(page, 1, 0).click();
    await page.getByTestId('save-next').click();
    await page.locator('[data-testid="autosave-indicator"][data-state="saved"]').waitFor({ timeout: 15_000 });
    await expect.poll(answeredOnConsole, { timeout: 15_000 }).toBe(1);

    // The network drops mid-way: two more in section A, one in section B.
    await context.setOffline(true);
    await page.getByTestId('question-2').waitFor();
    const q2Choice = await optionId(page, 2, 1);
    await option(page, 2, 1).click();
    await page.getByTestId('save-next').click();
    await page.getByTestId('question-3').waitFor();
    await option(page, 3, 0).click();
    await page.getByRole('tab', { name: 'Section B: Triangles' }).click();
    await page.getByTestId('question-5').waitFor();
    await option(page, 5, 0).click();
    await page.getByTestId('palette-6').click();
    await page.getByTestId('question-6').waitFor();
    await expect.poll(() => indicator(page).textContent(), { timeout: 20_000 }).toBe('Offline, 3 answers waiting');
    expect(await indicator(page).getAttribute('data-state')).toBe('offline');
    // The palette shows them answered; the console does not have them yet.
    for (const n of [2, 3, 5]) expect(await page.getByTestId(`palette-${n}`).getAttribute('data-state')).toBe('answered');
    expect(await answeredOnConsole()).toBe(1);

    // Back online: the queue flushes by itself and the console counts all four.
    await context.setOffline(false);
    await page.locator('[data-testid="autosave-indicator"][data-state="saved"]').waitFor({ timeout: 20_000 });
    await expect(indicator(page).textContent()).resolves.toBe('Saved');
    await expect.poll(answeredOnConsole, { timeout: 15_000 }).toBe(4);
    expect((await storedAnswer(2))?.response).toBe(q2Choice);
  });

  it('should keep the newer answer when an older save from a second device arrives last', async () => {
    const { page, context } = laptop;
    const phone = await device(`kavya.shah@${DEMO_EMAIL_DOMAIN}`);
    try {
      await phone.page.goto(`/sit/${deliveryId}`);
      // The second device resumes the same delivery: the same answers, on the same questions.
      await phone.page.getByTestId('question-1').waitFor();
      for (const n of [1, 2, 3, 5]) expect(await phone.page.getByTestId(`palette-${n}`).getAttribute('data-state')).toBe('answered');
      await phone.page.getByTestId('palette-4').click();
      await phone.page.getByTestId('question-4').waitFor();
      await page.getByTestId('palette-4').click();
      await page.getByTestId('question-4').waitFor();

      // The laptop's save of question 4 (sequence 1) is held back by a dropped network…
      await context.setOffline(true);
      const laptopChoice = await optionId(page, 4, 1);
      await option(page, 4, 1).click();
      await expect.poll(() => indicator(page).textContent(), { timeout: 20_000 }).toBe('Offline, 1 answer waiting');
      // …while the phone changes its mind twice (sequences 1 and 2) and is saved first.
      await option(phone.page, 4, 0).click();
      await phone.page.locator('[data-testid="autosave-indicator"][data-state="saved"]').waitFor({ timeout: 15_000 });
      const phoneChoice = await optionId(phone.page, 4, 2);
      await option(phone.page, 4, 2).click();
      await expect.poll(async () => (await storedAnswer(4))?.sequence, { timeout: 15_000 }).toBe(2);
      expect((await storedAnswer(4))?.response).toBe(phoneChoice);

      // The laptop's older save arrives last and is not taken: the phone's answer stays.
      await context.setOffline(false);
      await page.locator('[data-testid="autosave-indicator"][data-state="saved"]').waitFor({ timeout: 20_000 });
      const kept = await storedAnswer(4);
      expect(kept).toMatchObject({ response: phoneChoice, sequence: 2 });
      expect(laptopChoice).not.toBe(phoneChoice);

      // The laptop's next change goes above the phone's sequence and wins; the phone shows it on reload.
      const finalChoice = await optionId(page, 4, 3);
      await option(page, 4, 3).click();
      await expect.poll(async () => (await storedAnswer(4))?.response, { timeout: 15_000 }).toBe(finalChoice);
      expect((await storedAnswer(4))!.sequence).toBeGreaterThan(2);
      await phone.page.reload();
      await phone.page.getByTestId('palette-4').click();
      await expect(option(phone.page, 4, 3).getAttribute('data-state')).resolves.toBe('checked');
      expect(await answeredOnConsole()).toBe(5);

      const unexpected = [...laptop.errors, ...phone.errors].filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e));
      expect(unexpected).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});

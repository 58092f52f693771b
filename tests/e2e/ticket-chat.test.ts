import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '#tests/setup/test-users.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { seededDataDir } from './support/seeded-data-dir.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInInBrowser, signInOverHttp } from './support/sign-in.ts';

/**
 * Issue 8 in two browsers: a candidate and an agent, each in their own Chromium context and
 * signed in through the sign-in screen, on one ticket. The agent's claim reaches the
 * candidate's open list and ticket live; each sees the other's chat messages without a reload;
 * the candidate's network drops and comes back, and nothing is lost or doubled on either side.
 */
const TECHNICAL = 2;

let server: RunningServer;
let browser: Browser;
let people: { candidate: TestUser; agent: TestUser; supportAdmin: TestUser };
let ticketId: number;
const contexts: BrowserContext[] = [];
const errors: string[][] = [];

beforeAll(async () => {
  const prepared = await seededDataDir(async (db) => ({
    candidate: await createUser(db, { roles: ['Candidate'], firstName: 'Meera', lastName: 'Iyer' }),
    agent: await createUser(db, { roles: ['SupportAgent'], firstName: 'Ravi', lastName: 'Kumar', groups: [TECHNICAL], userType: 'staff' }),
    supportAdmin: await createUser(db, { roles: ['SupportAdmin'], firstName: 'Lata', lastName: 'Shah', userType: 'staff' }),
  }));
  people = prepared.value;
  [server, browser] = await Promise.all([startServer({ dataDir: prepared.dataDir }), launchBrowser()]);
  // The ticket is raised over HTTP: raising one through the screens is the tickets e2e test's job.
  const { token } = await signInOverHttp(server.url, people.candidate.email, people.candidate.password);
  const res = await fetch(`${server.url}/api/v1/supportticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', tenant: 'root' },
    body: JSON.stringify({
      title: 'Webcam not detected',
      description: 'The proctoring check cannot find my camera.',
      supportTicketPriorityId: 3,
      supportGroupId: TECHNICAL,
    }),
  });
  expect(res.status).toBe(201);
  ticketId = ((await res.json()) as { ticketId: number }).ticketId;
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

async function signedIn(user: TestUser): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await newContext(browser, server.url);
  contexts.push(context);
  const page = await context.newPage();
  const pageErrors = collectPageErrors(page);
  errors.push(pageErrors);
  await signInInBrowser(page, server.url, user.email, user.password);
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 20_000 });
  return { page, context, errors: pageErrors };
}

const chat = (page: Page) => page.getByTestId('chat-panel');
const composer = (page: Page) => chat(page).getByLabel('Message', { exact: true });
const messageTexts = (page: Page) => chat(page).getByTestId('chat-text').allInnerTexts();

/** Waits until the panel shows exactly these texts, in this order. */
async function expectMessages(page: Page, expected: string[], timeout = 15_000) {
  const deadline = Date.now() + timeout;
  let last: string[] = [];
  while (Date.now() < deadline) {
    last = await messageTexts(page);
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    await page.waitForTimeout(100);
  }
  expect(last).toEqual(expected);
}

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

/** The seq of every message the panel shows, as the server numbered them. */
const seqs = (page: Page) =>
  chat(page)
    .getByTestId('chat-message')
    .evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-seq'))));

describe('ticket chat and live updates between two browsers', () => {
  let candidate: Awaited<ReturnType<typeof signedIn>>;
  let agent: Awaited<ReturnType<typeof signedIn>>;

  it('should update the candidate’s open list live when the agent claims the ticket', async () => {
    [candidate, agent] = await Promise.all([signedIn(people.candidate), signedIn(people.agent)]);
    await candidate.page.goto('/tickets');
    const row = candidate.page.getByTestId('ticket-list').getByRole('row').filter({ hasText: 'Webcam not detected' });
    await row.getByText('Open', { exact: true }).waitFor();

    await agent.page.goto(`/tickets/${ticketId}`);
    await agent.page.locator('[data-testid=ticket-page][data-status=Open]').waitFor();
    await agent.page.getByRole('group', { name: 'Ticket actions' }).getByRole('button', { name: 'Claim', exact: true }).click();
    await agent.page.locator('[data-testid=ticket-page][data-status=InProgress]').waitFor();

    // No reload on the candidate's side: the push reloads the list and its counts.
    await row.getByText('In progress', { exact: true }).waitFor({ timeout: 10_000 });
    // The counts come with their own request after the push: wait for them, do not count at once.
    await candidate.page
      .getByTestId('status-filter')
      .getByRole('button', { name: /In progress\s*1/ })
      .waitFor({ timeout: 10_000 });
  });

  it('should show an unread count in the candidate’s list for the agent’s message', async () => {
    await chat(agent.page).waitFor();
    await send(agent.page, 'Hello Meera, I am looking at your camera problem.');
    await expectMessages(agent.page, ['Hello Meera, I am looking at your camera problem.']);
    const row = candidate.page.getByTestId('ticket-list').getByRole('row').filter({ hasText: 'Webcam not detected' });
    await row.getByTestId('unread-count').filter({ hasText: '1 unread message' }).waitFor({ timeout: 10_000 });
  });

  it('should let each side see the other’s messages live', async () => {
    await candidate.page.getByRole('link', { name: 'Webcam not detected' }).click();
    await candidate.page.locator('[data-testid=ticket-page][data-status=InProgress]').waitFor();
    await expectMessages(candidate.page, ['Hello Meera, I am looking at your camera problem.']);

    await send(candidate.page, 'Thank you! It says no device found.');
    await expectMessages(agent.page, ['Hello Meera, I am looking at your camera problem.', 'Thank you! It says no device found.']);
    await send(agent.page, 'Please allow camera access in the browser settings.\nThen reload the check.');
    await expectMessages(candidate.page, [
      'Hello Meera, I am looking at your camera problem.',
      'Thank you! It says no device found.',
      'Please allow camera access in the browser settings.\nThen reload the check.',
    ]);
    await expect(chat(candidate.page).getByTestId('chat-delivery').allInnerTexts()).resolves.toEqual(['Sent']);
  });

  it('should open conversation-first at 1440×900: the chat on screen without scrolling, Reply to the message box, a draft kept (issue 23)', async () => {
    const page = candidate.page;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await page.locator('[data-testid=ticket-page][data-status=InProgress]').waitFor();
    await expectMessages(page, [
      'Hello Meera, I am looking at your camera problem.',
      'Thank you! It says no device found.',
      'Please allow camera access in the browser settings.\nThen reload the check.',
    ]);
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);
    for (const part of [chat(page).getByTestId('chat-log'), composer(page)]) {
      const box = await part.boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(900);
    }
    // The chat is in the main column, the details beside it.
    const conversation = await page.getByTestId('ticket-conversation').boundingBox();
    const details = await page.getByTestId('ticket-details').boundingBox();
    expect(details!.x).toBeGreaterThan(conversation!.x + conversation!.width - 1);
    await page.getByTestId('ticket-reply').click();
    await expect(composer(page).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    // One timeline (issue 23): the ticket's history between the messages, at its moments —
    // raised before anyone wrote, claimed before the agent's first message.
    const timeline = await chat(page)
      .getByRole('log', { name: 'Messages and ticket changes' })
      .locator('[data-testid=chat-text], [data-testid=timeline-event]')
      .evaluateAll((items) =>
        items.map((el) => (el.getAttribute('data-testid') === 'timeline-event' ? `event: ${el.querySelector('p')?.textContent}` : el.textContent)),
      );
    expect(timeline).toEqual([
      'event: Meera Iyer raised the ticket',
      'event: Ravi Kumar claimed the ticket (Open → In progress)',
      'Hello Meera, I am looking at your camera problem.',
      'Thank you! It says no device found.',
      'Please allow camera access in the browser settings.\nThen reload the check.',
    ]);
    await expect(page.getByRole('region', { name: 'History' }).count()).resolves.toBe(0);
    await screenshot(page, 'ticket-conversation-first');

    // An unsent message survives leaving the page and coming back.
    await composer(page).fill('Trying the other browser');
    await page.getByRole('link', { name: 'My tickets' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'My tickets' }).waitFor();
    await page.goBack();
    await page.locator('[data-testid=ticket-page][data-status=InProgress]').waitFor();
    await expect(composer(page).inputValue()).resolves.toBe('Trying the other browser');
    await composer(page).fill('');
  }, 60_000);

  it('should lose and double nothing when the candidate’s network drops and returns', async () => {
    await candidate.context.setOffline(true);
    // One message for it (issue 23): the offline banner, and no copy of it in the chat panel.
    await candidate.page.getByTestId('connection-banner').filter({ hasText: "Server can't be reached" }).waitFor({ timeout: 10_000 });
    await expect(chat(candidate.page).getByText('Offline', { exact: true }).count()).resolves.toBe(0);

    // While the candidate is away: the agent writes twice, the candidate once (it cannot go out).
    await send(agent.page, 'Did that work?');
    await send(agent.page, 'I will wait for your answer.');
    await send(candidate.page, 'Trying it now.');
    const failed = chat(candidate.page).getByTestId('chat-message').filter({ hasText: 'Trying it now.' });
    await failed.getByTestId('chat-delivery').filter({ hasText: 'Not sent' }).waitFor({ timeout: 15_000 });

    await candidate.context.setOffline(false);
    // The missed messages arrive by themselves; the failed one goes again with its own id.
    await expectMessages(candidate.page, [
      'Hello Meera, I am looking at your camera problem.',
      'Thank you! It says no device found.',
      'Please allow camera access in the browser settings.\nThen reload the check.',
      'Did that work?',
      'I will wait for your answer.',
      'Trying it now.',
    ]);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await failed.getByTestId('chat-delivery').filter({ hasText: 'Sent' }).waitFor({ timeout: 10_000 });
    await send(candidate.page, 'It works now, thanks!');

    const all = [
      'Hello Meera, I am looking at your camera problem.',
      'Thank you! It says no device found.',
      'Please allow camera access in the browser settings.\nThen reload the check.',
      'Did that work?',
      'I will wait for your answer.',
      'Trying it now.',
      'It works now, thanks!',
    ];
    await expectMessages(agent.page, all);
    await expectMessages(candidate.page, all);
    // Both sides agree on the server's numbering: 1…7, no gap, no repeat.
    await expect(seqs(candidate.page)).resolves.toEqual([1, 2, 3, 4, 5, 6, 7]);
    await expect(seqs(agent.page)).resolves.toEqual([1, 2, 3, 4, 5, 6, 7]);
    await screenshot(candidate.page, 'ticket-chat-candidate');

    // And after a reload the stored history is the same: every message stored exactly once.
    await candidate.page.reload();
    await expectMessages(candidate.page, all);
  });

  it('should update the candidate’s open ticket live when the agent releases it', async () => {
    await candidate.page.locator('[data-testid=ticket-page][data-status=InProgress]').waitFor();
    await agent.page.getByRole('group', { name: 'Ticket actions' }).getByRole('button', { name: 'Release', exact: true }).click();
    await agent.page.locator('[data-testid=ticket-page][data-status=Open]').waitFor();
    await candidate.page.locator('[data-testid=ticket-page][data-status=Open]').waitFor({ timeout: 10_000 });
  });

  it('should let the candidate address one of several staff who take part (toUserId), and say whom each message was for', async () => {
    // A support admin joins the conversation (over HTTP): now two staff take part.
    const { token } = await signInOverHttp(server.url, people.supportAdmin.email, people.supportAdmin.password);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', tenant: 'root' };
    const joined = await fetch(`${server.url}/api/supportchat`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ticketId, message: 'Lata from support here; I am following this ticket.' }),
    });
    expect(joined.status).toBe(201);
    const page = candidate.page;
    await chat(page).getByText('Lata from support here; I am following this ticket.').waitFor({ timeout: 10_000 });
    const to = chat(page).getByRole('combobox', { name: 'To' });
    await to.waitFor();
    await to.click();
    await page.getByRole('option', { name: 'Lata Shah' }).click();
    await expect(to.innerText()).resolves.toContain('Lata Shah');
    await send(page, 'Thank you, Lata.');
    const mine = chat(page).getByTestId('chat-message').filter({ hasText: 'Thank you, Lata.' });
    await mine.getByTestId('chat-delivery').filter({ hasText: 'Sent' }).waitFor({ timeout: 10_000 });
    await expect(mine.getByTestId('chat-to').innerText()).resolves.toBe('to Lata Shah');
    await screenshot(page, 'ticket-chat-addressed');
    // Stored addressed to her (spec §3 toUserId).
    const details = await fetch(`${server.url}/api/supportchat/chatdetails`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ supportTicketId: ticketId, pageNumber: 1, pageSize: 1 }),
    });
    const [last] = ((await details.json()) as { data: Array<{ message: string; toUserId: string | null }> }).data;
    expect(last).toEqual(expect.objectContaining({ message: 'Thank you, Lata.', toUserId: people.supportAdmin.id }));
  }, 60_000);

  it('should have raised no page errors in either browser', () => {
    // A send that failed while offline logs the failed request; nothing else may.
    const unexpected = errors.flat().filter((e) => !/Failed to load resource: net::ERR_INTERNET_DISCONNECTED/.test(e));
    expect(unexpected).toEqual([]);
  });
});

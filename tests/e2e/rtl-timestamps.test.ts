import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, type TestUser } from '#tests/setup/test-users.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { seedLayout } from './support/layout.ts';
import { seededDataDir } from './support/seeded-data-dir.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInOverHttp } from './support/sign-in.ts';
import { signInContext } from './support/signed-in-page.ts';

/**
 * Issue 23, "RTL: chat timestamps read 'Nov 2026, 11:31 pm 24'. Isolate them (bidi)." In a
 * right-to-left layout a timestamp such as "24 Nov 2026, 11:31 pm" starts with digits, which take
 * the direction of their paragraph: without isolation the day is drawn at the far end. The test
 * reads where Chromium drew every character of every timestamp on the ticket's timeline (chat and
 * history) and requires them left to right, in the order they are written.
 */
const TECHNICAL = 2;

let server: RunningServer;
let browser: Browser;
let candidate: TestUser;
let ticketId: number;

beforeAll(async () => {
  const prepared = await seededDataDir(async (db) => createUser(db, { roles: ['Candidate'], firstName: 'Noor', lastName: 'Haddad' }));
  candidate = prepared.value;
  [server, browser] = await Promise.all([startServer({ dataDir: prepared.dataDir }), launchBrowser()]);
  const { token } = await signInOverHttp(server.url, candidate.email, candidate.password);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', tenant: 'root' };
  const raised = await fetch(`${server.url}/api/v1/supportticket`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: 'Admit card date', description: 'Which day is my paper?', supportTicketPriorityId: 2, supportGroupId: TECHNICAL }),
  });
  expect(raised.status).toBe(201);
  ticketId = ((await raised.json()) as { ticketId: number }).ticketId;
  const sent = await fetch(`${server.url}/api/supportchat`, { method: 'POST', headers, body: JSON.stringify({ ticketId, message: 'Hello, any news?' }) });
  expect(sent.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

/** Each timestamp's text and the characters Chromium drew out of their written order (left edges). */
function drawnOrder(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLTimeElement>('[data-testid="chat-panel"] time')].map((time) => {
      const text = time.firstChild as Text;
      const lefts: { char: string; left: number }[] = [];
      for (let i = 0; i < text.length; i++) {
        const char = text.data[i];
        if (/\s/.test(char)) continue;
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        lefts.push({ char, left: range.getBoundingClientRect().left });
      }
      const outOfOrder = lefts.filter((c, i) => i > 0 && c.left < lefts[i - 1].left).map((c) => c.char);
      return { text: text.data, outOfOrder, dir: getComputedStyle(time).direction };
    }),
  );
}

it('should draw every timestamp of the ticket timeline left to right, as written, in a right-to-left layout', async () => {
  const context = await newContext(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await seedLayout(context, { themeDirection: 'rtl' });
  await signInContext(context, server, candidate);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  try {
    await page.goto(`/tickets/${ticketId}`);
    await page.getByTestId('chat-message').first().waitFor({ timeout: 20_000 });
    await page.getByTestId('timeline-event').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');

    const stamps = await drawnOrder(page);
    // The chat message's time and the history entry's time at least; each starts with the day.
    expect(stamps.length).toBeGreaterThanOrEqual(2);
    for (const stamp of stamps) {
      expect(stamp.text, 'a timestamp starting with digits is what reorders').toMatch(/^\d/);
      expect(stamp, stamp.text).toMatchObject({ outOfOrder: [], dir: 'ltr' });
    }
    await screenshot(page, 'ticket-timeline-rtl-timestamps');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}, 90_000);

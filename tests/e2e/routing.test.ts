import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';
import { chooseOption } from './support/select.ts';

/**
 * Issue 13 in Chromium: the one route table names every page (document.title), a list keeps
 * its state in the URL across reload, back and forward, and a ticket opened from the support
 * desk stays under the desk (docs/decisions/0080, 0081).
 */
let server: RunningServer;
let browser: Browser;
let admin: SignedInPage;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = await signedInPage(browser, server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
});

afterAll(async () => {
  await admin?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

describe('page titles', () => {
  it('should name every page, translated, after the product', async () => {
    const { page, errors } = admin;
    const pages: Array<[string, string, string]> = [
      ['/', 'Dashboard', 'Dashboard · Exam Portal'],
      ['/tickets', 'My tickets', 'My tickets · Exam Portal'],
      ['/support', 'Support desk', 'Support desk · Exam Portal'],
      ['/users', 'Users', 'Users · Exam Portal'],
      ['/roles', 'Roles', 'Roles · Exam Portal'],
      ['/machines', 'Machines', 'Machines · Exam Portal'],
      ['/no/such/page', 'Page not found', 'Page not found · Exam Portal'],
    ];
    for (const [path, heading, title] of pages) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
      await expect.poll(() => page.title(), { message: path }).toBe(title);
    }
    // A move inside the app renames the page too.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Users' }).click();
    await expect.poll(() => page.title()).toBe('Users · Exam Portal');
    expect(errors).toEqual([]);
  });

  it('should name the sign-in screen for a visitor', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await expect.poll(() => page.title()).toBe('Sign in · Exam Portal');
    await context.close();
  });
});

describe('a list in the URL', () => {
  it('should keep the filters and keyword across a reload, back and forward', async () => {
    const { page, errors } = admin;
    await page.goto('/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await chooseOption(page, page, 'Status', 'Active');
    await page.waitForURL((url) => url.search === '?isActive=true');
    await page.getByRole('searchbox', { name: 'Search users' }).fill('admin');
    await page.waitForURL((url) => url.search === '?isActive=true&q=admin');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await expect.poll(() => page.getByRole('searchbox', { name: 'Search users' }).inputValue()).toBe('admin');
    await expect(page.getByRole('combobox', { name: 'Status' }).innerText()).resolves.toBe('Active');

    // The keyword replaced its history entry: one step back is the plain list.
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/users' && url.search === '');
    await expect.poll(() => page.getByRole('combobox', { name: 'Status' }).innerText()).toBe('Any');
    await expect(page.getByRole('searchbox', { name: 'Search users' }).inputValue()).resolves.toBe('');
    await page.goForward();
    await page.waitForURL((url) => url.search === '?isActive=true&q=admin');
    await expect.poll(() => page.getByRole('searchbox', { name: 'Search users' }).inputValue()).toBe('admin');
    await expect(page.getByRole('combobox', { name: 'Status' }).innerText()).resolves.toBe('Active');
    expect(errors).toEqual([]);
  });

  it('should open a shared link on the same list', async () => {
    const { page } = admin;
    await page.goto('/roles?sort=name+desc');
    await page.getByRole('heading', { level: 1, name: 'Roles' }).waitFor();
    const names = async () => (await page.getByRole('row').allInnerTexts()).slice(1).map((row) => row.split('\t')[0].trim());
    await expect.poll(async () => (await names()).length).toBeGreaterThan(1);
    const shown = await names();
    expect(shown).toEqual([...shown].sort((a, b) => b.localeCompare(a)));
  });
});

describe('a ticket opened from the support desk', () => {
  it('should keep the desk in the drawer and the breadcrumbs', async () => {
    const { page, token, errors } = admin;
    const res = await fetch(`${server.url}/api/v1/supportticket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, tenant: 'root', 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Proctoring camera not found',
        description: 'The camera check fails in the exam player.',
        supportTicketPriorityId: 2,
        supportGroupId: 2,
      }),
    });
    expect(res.status).toBe(201);
    const { ticketId } = (await res.json()) as { ticketId: number };

    await page.goto('/support?tab=all');
    await page.getByRole('link', { name: 'Proctoring camera not found' }).click();
    await page.waitForURL((url) => url.pathname === `/support/tickets/${ticketId}`);
    await page.getByRole('heading', { level: 1, name: /Proctoring camera not found/ }).waitFor();
    const drawer = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(drawer.locator('[aria-current=page]').innerText()).resolves.toBe('Support desk');
    const crumbs = await page.getByTestId('breadcrumbs').innerText();
    expect(crumbs).toContain('Support desk');
    expect(crumbs).not.toContain('My tickets');
    await expect.poll(() => page.title()).toBe('Ticket · Exam Portal');

    // From My tickets, the same ticket belongs to My tickets.
    await page.goto(`/tickets/${ticketId}`);
    await page.getByRole('heading', { level: 1, name: /Proctoring camera not found/ }).waitFor();
    await expect(drawer.locator('[aria-current=page]').innerText()).resolves.toBe('My tickets');
    expect(errors).toEqual([]);
  });
});

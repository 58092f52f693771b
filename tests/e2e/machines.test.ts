import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeCoverage } from '#machines/graph-coverage.ts';
import { ticketLifecycleMachine, ticketStatusNames } from '#machines/ticket-lifecycle.machine.ts';
import { ticketLifecyclePaths } from '#machines/ticket-lifecycle.model.ts';
import { createUser, type TestUser } from '#tests/setup/test-users.ts';
import { collectPageErrors, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { seedLayout } from './support/layout.ts';
import { seededDataDir } from './support/seeded-data-dir.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInInBrowser } from './support/sign-in.ts';
import { signInContext } from './support/signed-in-page.ts';
import { contrastRatio } from '#src/app/settings/color.ts';

/**
 * The /machines audit page in Chromium, signed in as a Tester: the ticket lifecycle with its
 * seven statuses, a test path highlighted, the coverage the test run reported, SVG export,
 * and the live highlight of an actor running in the page.
 */

let server: RunningServer;
let browser: Browser;
let coverageDir: string;
let tester: TestUser;
let candidate: TestUser;
const lifecycleCoverage = computeCoverage(ticketLifecycleMachine, ticketLifecyclePaths());
const independentlyChecked = 5;

beforeAll(async () => {
  coverageDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-e2e-coverage-'));
  // The coverage report a test run leaves, for the ticket lifecycle only.
  await mkdir(coverageDir, { recursive: true });
  await writeFile(path.join(coverageDir, 'ticketLifecycle.json'), JSON.stringify({ ...lifecycleCoverage, generatedAt: new Date().toISOString() }));
  // Two replays of it: one over HTTP checked against an independent table that walked five
  // transitions, and one of the machine against itself that walked them all. Only the first
  // may count on the badge (issue 14).
  await mkdir(path.join(coverageDir, 'replays'), { recursive: true });
  const replay = (system: string, independent: boolean, transitionsExercised: string[]) =>
    JSON.stringify({ machineId: 'ticketLifecycle', system, independent, ranAt: new Date().toISOString(), paths: [], transitionsExercised });
  await writeFile(
    path.join(coverageDir, 'replays', 'ticketLifecycle-http.json'),
    replay('http', true, lifecycleCoverage.transitions.total.slice(0, independentlyChecked)),
  );
  await writeFile(path.join(coverageDir, 'replays', 'ticketLifecycle-machine.json'), replay('machine', false, lifecycleCoverage.transitions.total));
  // A Tester and a Candidate in the server's database before it starts.
  const { dataDir, value } = await seededDataDir(async (db) => ({
    tester: await createUser(db, { roles: ['Tester'] }),
    candidate: await createUser(db, { roles: ['Candidate'] }),
  }));
  ({ tester, candidate } = value);
  [server, browser] = await Promise.all([startServer({ dataDir, env: { MACHINE_COVERAGE_DIR: coverageDir } }), launchBrowser()]);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
  if (coverageDir) await rm(coverageDir, { recursive: true, force: true });
});

async function openAsTester(
  urlPath: string,
  layout: Parameters<typeof seedLayout>[1] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[]; scripts: string[] }> {
  const context = await newContext(browser, server.url, { acceptDownloads: true });
  await seedLayout(context, layout);
  await signInContext(context, server, tester);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const scripts: string[] = [];
  context.on('request', (request) => {
    if (request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(urlPath);
  return { context, page, errors, scripts };
}

describe('/machines in Chromium', () => {
  it('should draw the ticket lifecycle with all seven statuses and the coverage of the test run', async () => {
    const { context, page, errors, scripts } = await openAsTester('/machines');
    await page.getByRole('heading', { level: 1, name: 'Machines' }).waitFor();
    const diagram = page.getByRole('img', { name: 'Statechart of ticketLifecycle' });
    await diagram.waitFor({ timeout: 20_000 });
    for (const status of ticketStatusNames) {
      const state = diagram.locator(`[data-state="ticketLifecycle.${status}"]`);
      await expect(state.locator('text').first().textContent()).resolves.toMatch(new RegExp(`^${status}( |$)`));
      const box = await state.locator('rect').first().boundingBox();
      expect(box && box.width > 0 && box.height > 0, status).toBe(true);
    }
    expect(await diagram.locator('[data-state="ticketLifecycle.Cancelled"]').getAttribute('data-type')).toBe('final');
    const { states, transitions } = lifecycleCoverage;
    await expect(page.getByTestId('coverage-badge').textContent()).resolves.toBe(
      `States ${states.covered.length}/${states.total.length} · transitions checked independently ${independentlyChecked}/${transitions.total.length}`,
    );
    // elkjs lays out in a Web Worker (the worker script and the module naming its URL are
    // both fetched); its in-page build is never fetched.
    expect(new Set(scripts.filter((s) => /^\/assets\/elk-worker\.min-[\w-]+\.js$/.test(s))).size).toBe(2);
    expect(scripts.filter((s) => s.includes('elk.bundled'))).toEqual([]);
    await screenshot(page, 'machines-ticket-lifecycle');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('should highlight the steps of a clicked path and export the diagram as an SVG file', async () => {
    const { context, page, errors } = await openAsTester('/machines/ticketLifecycle');
    const diagram = page.getByRole('img', { name: 'Statechart of ticketLifecycle' });
    await diagram.waitFor({ timeout: 20_000 });
    const pathButton = page.getByRole('button', { name: 'Highlight path 1: ticket.claim → ticket.hold → ticket.resume ⇒ InProgress' });
    await pathButton.click();
    expect(await pathButton.getAttribute('aria-pressed')).toBe('true');
    const onPath = await diagram.locator('[data-state][data-on-path]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-state')));
    expect(onPath).toEqual(['ticketLifecycle.Open', 'ticketLifecycle.InProgress', 'ticketLifecycle.OnHold']);
    // The highlighted label is drawn in the path colour, unlike the others.
    const colours = await diagram
      .locator('text[data-transition]')
      .evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-transition'), getComputedStyle(n).fill]));
    const claim = colours.find(([key]) => key === 'ticketLifecycle.Open --ticket.claim--> ticketLifecycle.InProgress')![1];
    const cancel = colours.find(([key]) => key === 'ticketLifecycle.Open --ticket.cancel--> ticketLifecycle.Cancelled')![1];
    expect(claim).not.toBe(cancel);
    await expect(page.getByTestId('path-steps').locator('li').allTextContents()).resolves.toEqual([
      'xstate.init → Open',
      'ticket.claim → InProgress',
      'ticket.hold → OnHold',
      'ticket.resume → InProgress',
    ]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export SVG' }).click()]);
    expect(download.suggestedFilename()).toBe('ticketLifecycle.svg');
    const svg = await readFile((await download.path())!, 'utf8');
    expect(svg).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg /);
    for (const status of ticketStatusNames) expect(svg).toMatch(new RegExp(`>${status}( \\([a-zA-Z, ]+\\))?</text>`));
    expect(svg).not.toContain('var(--');
    expect(svg).not.toContain('class=');
    // Opened on its own, the file is a valid SVG that draws the same seven states.
    const viewer = await context.newPage();
    await viewer.setContent(svg.replace(/^<\?xml[^>]*>\n/, ''));
    expect(await viewer.locator('svg [data-state]').count()).toBe(8);
    await viewer.close();

    const [mermaid] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Mermaid' }).click()]);
    expect(mermaid.suggestedFilename()).toBe('ticketLifecycle.mmd');
    expect(await readFile((await mermaid.path())!, 'utf8')).toMatch(/^stateDiagram-v2\n/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('should page the notification center’s thousands of paths, find one by its event with the keyboard, and highlight it', async () => {
    const { context, page, errors } = await openAsTester('/machines/notification-center');
    const list = page.getByTestId('path-list');
    await list.locator('button').first().waitFor({ timeout: 30_000 });
    // Fifty at a time, not every path of the actor (9,433 when this was written).
    expect(await list.locator('button').count()).toBe(50);
    const total = Number((await page.getByTestId('paths-panel').locator('p').first().textContent())!.match(/^([\d,]+) paths/)![1].replace(/,/g, ''));
    expect(total).toBeGreaterThan(1000);
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('button', { name: 'Page 2 of' + ` ${Math.ceil(total / 50)}` })
      .click();
    await expect(list.locator('button').first().textContent()).resolves.toMatch(/^51\. /);

    const search = page.getByRole('searchbox', { name: 'Find a path by number or event' });
    await search.focus();
    await page.keyboard.type('item.unarchive');
    await page.getByText(/^[\d,]+ of [\d,]+ paths match\.$/).waitFor();
    const found = await list.locator('button').allTextContents();
    expect(found.length).toBeGreaterThan(0);
    for (const text of found) expect(text).toContain('item.unarchive');
    // Tab to the first path found and choose it with the keyboard: its steps are listed.
    await list.locator('button').first().focus();
    await page.keyboard.press('Enter');
    expect(await list.locator('button').first().getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('path-steps').locator('li').allTextContents()).toContainEqual(expect.stringMatching(/^item\.unarchive → /));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('should zoom with the keyboard and the buttons', async () => {
    const { context, page } = await openAsTester('/machines/ticketLifecycle');
    const diagram = page.getByRole('img', { name: 'Statechart of ticketLifecycle' });
    await diagram.waitFor({ timeout: 20_000 });
    await diagram.focus();
    await page.keyboard.press('+');
    expect(await diagram.getAttribute('data-scale')).toBe('125');
    await page.keyboard.press('0');
    expect(await diagram.getAttribute('data-scale')).toBe('100');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await diagram.getAttribute('data-scale')).toBe('125');
    const before = await diagram.getAttribute('viewBox');
    const box = (await diagram.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 4 });
    await page.mouse.up();
    expect(await diagram.getAttribute('viewBox')).not.toBe(before);
    await context.close();
  });

  it('should highlight the current state of a live actor: the version check, settled on latest', async () => {
    const { context, page, errors } = await openAsTester('/machines/version-check');
    const diagram = page.getByRole('img', { name: 'Statechart of version-check' });
    await diagram.waitFor({ timeout: 20_000 });
    const live = page.getByTestId('live-actor-version-check');
    await live.waitFor({ timeout: 15_000 });
    await expect(live.getByTestId('live-state').textContent()).resolves.toBe('latest');
    await diagram.locator('[data-state="version-check.latest"][data-live]').waitFor();
    expect(await diagram.locator('[data-live]').count()).toBe(1);
    await expect(live.getByTestId('live-events').locator('li').first().textContent()).resolves.toMatch(/^done\(fetchDeployedVersion\)/);
    await screenshot(page, 'machines-live-version-check');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('should highlight signedIn on the auth session diagram after signing in through the sign-in screen', async () => {
    const context = await newContext(browser, server.url);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await signInInBrowser(page, server.url, tester.email, tester.password);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    // Same tab, same running actor: navigate inside the app, not a fresh page load.
    await page.getByRole('link', { name: 'Machines' }).first().click();
    await page
      .getByRole('link', { name: /auth-session/ })
      .first()
      .click();
    const diagram = page.getByRole('img', { name: 'Statechart of auth-session' });
    await diagram.waitFor({ timeout: 20_000 });
    const live = page.getByTestId('live-actor-auth-session');
    await live.waitFor({ timeout: 15_000 });
    await expect(live.getByTestId('live-state').textContent()).resolves.toBe('signedIn');
    await diagram.locator('[data-state="auth-session.signedIn"][data-live]').waitFor();
    expect(await diagram.locator('[data-live]').count()).toBe(1);
    await screenshot(page, 'machines-live-auth-session');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('should copy the Mermaid text, and show the toast queue that said so live with its events', async () => {
    const { context, page, errors } = await openAsTester('/machines/ticketLifecycle');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.getByRole('img', { name: 'Statechart of ticketLifecycle' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Copy Mermaid' }).click();
    await page.getByText('The Mermaid diagram of ticketLifecycle is on the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^stateDiagram-v2\n {2}\[\*\] --> ticketLifecycle_Open\n/);
    // The toast queue started with that toast; its diagram shows where it is now.
    await page.getByRole('navigation', { name: 'Machines' }).getByRole('link', { name: 'toast-queue' }).click();
    const diagram = page.getByRole('img', { name: 'Statechart of toast-queue' });
    await diagram.waitFor({ timeout: 20_000 });
    const live = page.getByTestId('live-actor-toast-queue');
    await expect(live.getByTestId('live-events').locator('li').last().textContent()).resolves.toMatch(/^toast\.push/);
    const state = await live.getByTestId('live-state').textContent();
    expect(['showing', 'empty']).toContain(state);
    await diagram.locator(`[data-state="toast-queue.${state}"][data-live]`).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("should show the last open ticket's view actor with its state and events", async () => {
    const context = await newContext(browser, server.url);
    const token = await signInContext(context, server, tester);
    const raised = await fetch(`${server.url}/api/v1/supportticket`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', tenant: 'root' },
      body: JSON.stringify({ title: 'Diagram audit ticket', description: 'Raised to watch its view actor.', supportTicketPriorityId: 2, supportGroupId: 1 }),
    });
    expect(raised.status).toBe(201);
    const { ticketId } = (await raised.json()) as { ticketId: number };
    const page = await context.newPage();
    await page.goto(`/tickets/${ticketId}`);
    await page.getByRole('heading', { level: 1, name: 'Diagram audit ticket' }).waitFor();
    // Within the app (no reload): the ticket page closes, /machines opens.
    await page.evaluate(() => {
      history.pushState(null, '', '/machines/ticketView');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    const diagram = page.getByRole('img', { name: 'Statechart of ticketView' });
    await diagram.waitFor({ timeout: 20_000 });
    const live = page.getByTestId('live-actor-open-ticket');
    await expect(live.getByTestId('live-state').textContent()).resolves.toBe('ready.idle');
    // Registered once mounted: its events from the ticket's load on (the init came before).
    await expect(live.getByTestId('live-events').locator('li').allTextContents()).resolves.toEqual([expect.stringMatching(/^done\(loadTicket\)/)]);
    expect(await live.textContent()).toContain('Status: stopped');
    const highlighted = await diagram.locator('[data-state][data-live]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-state')));
    expect(highlighted).toEqual(['ticketView.ready', 'ticketView.ready.idle']);
    await context.close();
  });

  for (const mode of ['light', 'dark'] as const) {
    it(`should keep every text of the diagram readable in ${mode} rtl, the diagram itself left to right`, async () => {
      const { context, page } = await openAsTester('/machines/version-check', { mode, themeDirection: 'rtl' });
      const diagram = page.getByRole('img', { name: 'Statechart of version-check' });
      await diagram.waitFor({ timeout: 20_000 });
      await diagram.locator('[data-live]').waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: /^Highlight path 5:/ }).click();
      await diagram.locator('[data-state][data-on-path]').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      expect(await diagram.evaluate((svg) => getComputedStyle(svg).direction)).toBe('ltr');
      const pairs = await diagram.evaluate((svg) => {
        const fill = (el: Element) => getComputedStyle(el).fill;
        const canvas = getComputedStyle(svg).backgroundColor;
        const out: Array<{ what: string; text: string; background: string }> = [];
        for (const state of svg.querySelectorAll('[data-state]')) {
          const rect = state.querySelector('rect')!;
          const background = fill(rect) === 'none' || fill(rect) === 'transparent' || fill(rect) === 'rgba(0, 0, 0, 0)' ? canvas : fill(rect);
          for (const text of state.querySelectorAll(':scope > text')) out.push({ what: text.textContent ?? '', text: fill(text), background });
        }
        for (const label of svg.querySelectorAll('text[data-transition]'))
          out.push({ what: label.getAttribute('data-label') ?? '', text: fill(label), background: fill(label.parentElement!.querySelector('rect')!) });
        return out;
      });
      const hex = (rgb: string) =>
        `#${(rgb.match(/\d+/g) ?? [])
          .slice(0, 3)
          .map((n) => Number(n).toString(16).padStart(2, '0'))
          .join('')}`;
      expect(pairs.length).toBeGreaterThan(10);
      const low = pairs.filter((p) => contrastRatio(hex(p.text), hex(p.background)) < 4.5).map((p) => `${p.what}: ${p.text} on ${p.background}`);
      expect(low).toEqual([]);
      await screenshot(page, `machines-${mode}-rtl`);
      await context.close();
    });
  }

  it('should show no diagram to a signed-in candidate (the route table gates the page; the server refuses with 403)', async () => {
    const context = await newContext(browser, server.url);
    const token = await signInContext(context, server, candidate);
    const page = await context.newPage();
    const coverageCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/machines/coverage')) coverageCalls.push(request.url());
    });
    await page.goto('/machines');
    await page.getByTestId('no-access').getByText('You do not have access to this screen').waitFor();
    expect(await page.getByTestId('statechart').count()).toBe(0);
    // The page never asks; asked anyway, the server says no.
    expect(coverageCalls).toEqual([]);
    const refused = await fetch(`${server.url}/api/machines/coverage`, { headers: { authorization: `Bearer ${token}`, tenant: 'root' } });
    expect(refused.status).toBe(403);
    await context.close();
  });
});

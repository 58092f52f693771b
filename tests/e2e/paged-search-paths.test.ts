import type { Browser, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import { pagedSearchMachine } from '#machines/paged-search.machine.ts';
import { pagedSearchTestPaths } from '#machines/paged-search.model.ts';
import { IndependentExpectation, tableEvent } from '#tests/fixtures/expectations/expectation-table.ts';
import { pagedSearchExpectation, type PagedSearchFacts, type Query } from '#tests/fixtures/expectations/paged-search.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { createUser } from '#tests/setup/test-users.ts';
import { launchBrowser } from './support/browser.ts';
import { seededDataDir } from './support/seeded-data-dir.ts';
import { chooseOption } from './support/select.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';

/**
 * The paged-search machine's model paths walked through the users list in Chromium (issue 14).
 * Each step is taken with the screen's own controls; every users search request is held until
 * the path says the server answered (the request goes on to the real server) or failed (a 503).
 * After every step the state that the hand-written table gives (tests/fixtures/expectations/
 * paged-search.ts, never the machine) is checked on the screen and on the wire: one request per
 * search carrying the query the spec gives, none while a keyword is still being typed, the
 * table busy while a page loads, the page shown once it came, the error with its retry once it
 * failed. Results go to coverage/machines/replays/pagedSearch.chromium.json for /machines.
 */

type Path = ReturnType<typeof pagedSearchTestPaths>[number];

/** What the users screen offers in a state (src/components/ui/paged-table.tsx, pagination.tsx). */
interface ScreenState {
  state: string;
  /** A page arrived once: the table stays drawn (dimmed) while the next one loads. */
  hasPage: boolean;
  query: Query;
  filtersChosen: number;
}

/** Two pages at 10 and at 25 rows for every query the walk makes (the admin makes 31). */
const PEOPLE = 30;
/** The users screen's defaults (src/features/users/users-page.tsx): newest first. */
const screenDefaults = (): Query => ({ keyword: '', pageNumber: 1, pageSize: 10, orderBy: ['createdOn desc'], filters: {} });
/** The filters the walk chooses, in turn, with the option a user picks for each. */
const FILTER_CHOICES = [
  { label: 'Status', option: 'Active', filters: { isActive: 'true' } },
  { label: 'E-mail', option: 'Confirmed', filters: { emailConfirmed: 'true' } },
] as const;

/**
 * The screen's event for a model event, or null where the screen offers no control for it (a
 * page below 1, a reload outside the error state, paging while a page loads). Payloads become
 * the ones the screen's controls send: the e-mail column's sort, the status and e-mail filters.
 */
function screenEvent(event: EventObject, screen: ScreenState): (EventObject & Record<string, unknown>) | null {
  const idle = screen.state === 'ready';
  const table = screen.hasPage && screen.state !== 'failed';
  switch (event.type) {
    case 'search.keyword':
      return { type: 'search.keyword', keyword: screen.query.keyword === 'printer' ? 'print' : 'printer' };
    case 'search.filter': {
      // A filter is two clicks (open the list, pick): slower than the keyword's 300 ms, so from
      // `debouncing` the keyword's own search would go first. Only the jsdom and machine walks
      // (with a fake clock) take that step.
      const choice = FILTER_CHOICES[screen.filtersChosen];
      return choice && screen.state !== 'debouncing' ? { type: 'search.filter', filters: choice.filters } : null;
    }
    case 'search.sort':
      return table ? { type: 'search.sort', orderBy: [screen.query.orderBy?.[0] === 'email asc' ? 'email desc' : 'email asc'] } : null;
    case 'search.page': {
      const wanted = (event as EventObject & { pageNumber: number }).pageNumber;
      return table && idle && wanted >= 1 && wanted !== screen.query.pageNumber ? { type: 'search.page', pageNumber: wanted } : null;
    }
    case 'search.pageSize':
      return table && idle ? { type: 'search.pageSize', pageSize: screen.query.pageSize === 25 ? 10 : 25 } : null;
    case 'search.reload':
      return screen.state === 'failed' ? event : null;
    default:
      // The server answering and the debounce running out: the walk waits or answers for them.
      return event;
  }
}

/** Walks a path through the table and the screen's offer; null when some step has no control. */
function onScreen(path: Path): EventObject[] | null {
  const facts: PagedSearchFacts = { query: screenDefaults(), searches: 0, sent: () => [] };
  const table = new IndependentExpectation(pagedSearchExpectation, facts);
  const screen: ScreenState = { state: table.state, hasPage: false, query: facts.query, filtersChosen: 0 };
  const events: EventObject[] = [];
  for (const step of path.steps.slice(1)) {
    const event = screenEvent(step.event, screen);
    if (!event) return null;
    events.push(event);
    if (event.type === 'search.filter') screen.filtersChosen += 1;
    screen.state = table.next(event);
    screen.query = facts.query;
    if (tableEvent(event) === 'done.fetchPage') screen.hasPage = true;
  }
  return events;
}

/** The fewest paths the screen can walk that still take every (state, event) pair some such path takes. */
export function samplePaths(paths: Path[]): Array<{ path: Path; events: EventObject[] }> {
  const walkable = paths.flatMap((path) => {
    const events = onScreen(path);
    return events ? [{ path, events }] : [];
  });
  const pairsOf = (path: Path) => new Set(path.steps.slice(1).map((step, i) => `${JSON.stringify(path.steps[i].state.value)} ${step.event.type}`));
  const remaining = new Set(walkable.flatMap(({ path }) => [...pairsOf(path)]));
  const chosen: typeof walkable = [];
  while (remaining.size) {
    const best = walkable
      .map((w) => ({ w, news: [...pairsOf(w.path)].filter((pair) => remaining.has(pair)).length }))
      .sort((a, b) => b.news - a.news || a.w.events.length - b.w.events.length)[0];
    chosen.push(best.w);
    for (const pair of pairsOf(best.w.path)) remaining.delete(pair);
  }
  return chosen;
}

/** The users search body for a query, written from docs/decisions/0040 ("Any" filters are left out). */
function expectedBody(query: Query) {
  const flag = (value: unknown) => (value === 'true' ? true : value === 'false' ? false : undefined);
  const body: Record<string, unknown> = {
    keyword: query.keyword.trim() || null,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    orderBy: query.orderBy,
  };
  for (const name of ['isActive', 'emailConfirmed'] as const) if (flag(query.filters[name]) !== undefined) body[name] = flag(query.filters[name]);
  return body;
}

let server: RunningServer;
let browser: Browser;
let admin: SignedInPage;

/** Users search requests the screen sent, in order; each is held until the path answers it. */
const wire: { seen: Array<Record<string, unknown>>; held: Array<{ route: Route; request: Request }> } = { seen: [], held: [] };

beforeAll(async () => {
  const { dataDir } = await seededDataDir(async (db) => {
    for (let n = 1; n <= PEOPLE; n += 1) {
      const two = String(n).padStart(2, '0');
      await createUser(db, { password: null, firstName: 'Mira', lastName: `Printer ${two}`, email: `mira.printer${two}@example.test` });
    }
  });
  [server, browser] = await Promise.all([startServer({ dataDir }), launchBrowser()]);
  admin = await signedInPage(browser, server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
  await admin.page.route('**/api/users/search', async (route, request) => {
    wire.seen.push(request.postDataJSON() as Record<string, unknown>);
    // A newer search makes the one still held stale: it goes on now, and its answer must not show.
    for (const stale of wire.held.splice(0)) await stale.route.continue().catch(() => undefined);
    wire.held.push({ route, request });
  });
});

afterAll(async () => {
  await admin?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const usersTable = (page: Page) => page.getByTestId('users-table');
const errorState = (page: Page) => page.getByTestId('error-state');

/** The screen's control for a screen event. */
async function act(page: Page, event: EventObject) {
  switch (event.type) {
    case 'search.keyword':
      return page
        .getByRole('searchbox', { name: 'Search users' })
        .or(page.getByLabel('Search users'))
        .first()
        .fill((event as EventObject & { keyword: string }).keyword);
    case 'search.filter': {
      const choice = FILTER_CHOICES.find((c) => JSON.stringify(c.filters) === JSON.stringify((event as EventObject & { filters: unknown }).filters))!;
      return chooseOption(page, page, choice.label, choice.option);
    }
    case 'search.sort':
      return usersTable(page).getByRole('button', { name: 'E-mail address' }).click();
    case 'search.page':
      return page.getByRole('button', { name: `Page ${(event as EventObject & { pageNumber: number }).pageNumber} of`, exact: false }).click();
    case 'search.pageSize':
      return chooseOption(page, page, 'Rows per page', String((event as EventObject & { pageSize: number }).pageSize));
    case 'search.reload':
      return errorState(page).getByRole('button', { name: 'Try again' }).click();
    case 'xstate.done.actor.fetchPage':
      return wire.held.shift()!.route.continue();
    case 'xstate.error.actor.fetchPage':
      return wire.held.shift()!.route.fulfill({ status: 503, json: { messages: ['Server unavailable'], statusCode: 503 } });
    default:
      // The debounce running out: nothing to do but wait, which the check of `loading` does.
      return undefined;
  }
}

/** What the table's state must look like on the screen and on the wire (written from the spec, not from the machine). */
async function checkScreen(page: Page, state: string, facts: PagedSearchFacts, trail: string) {
  const searches = facts.searches + 1;
  if (state === 'debouncing') {
    // The keyword is in the box and nothing went to the server yet (300 ms after the last key).
    expect(wire.seen, `${trail}: no search while typing`).toHaveLength(searches);
    return;
  }
  if (state === 'loading') {
    await until(`search ${searches} (${trail})`, () => wire.seen.length >= searches);
    expect(wire.seen, `${trail}: one request per search`).toHaveLength(searches);
    expect(wire.seen.at(-1), `${trail}: the query the spec says`).toEqual(expectedBody(facts.query));
    // The previous page stays, dimmed and marked busy; before any page, the skeleton.
    if (await usersTable(page).count()) expect(await usersTable(page).getAttribute('aria-busy')).toBe('true');
    return;
  }
  if (state === 'ready') {
    await until(`the page of ${trail}`, async () => (await usersTable(page).count()) > 0 && (await usersTable(page).getAttribute('aria-busy')) === null);
    expect(await errorState(page).count()).toBe(0);
    const current = page.getByRole('button', { name: `Page ${facts.query.pageNumber} of`, exact: false });
    expect(await current.getAttribute('aria-current'), `${trail}: page ${facts.query.pageNumber} shown`).toBe('page');
    const rows = await usersTable(page).locator('tbody tr').count();
    expect(rows, `${trail}: a page of at most ${facts.query.pageSize} rows`).toBeGreaterThan(0);
    expect(rows).toBeLessThanOrEqual(facts.query.pageSize);
    expect(wire.seen, `${trail}: no request after the answer`).toHaveLength(searches);
    return;
  }
  if (state === 'failed') {
    await errorState(page).waitFor();
    await errorState(page).getByRole('button', { name: 'Try again' }).waitFor();
    expect(wire.seen, `${trail}: no request after the failure`).toHaveLength(searches);
    return;
  }
  throw new Error(`the table has no state ${state}`);
}

describe('paged search in Chromium (users list)', () => {
  const sample = samplePaths(pagedSearchTestPaths());
  const recorder = replayRecorder(pagedSearchMachine, 'chromium', true);
  afterAll(() => void recorder.write());

  it('should sample paths that send every kind of event the screen has a control for', () => {
    const kinds = new Set(sample.flatMap(({ events }) => events.map((e) => e.type)));
    const offered = ['search.filter', 'search.keyword', 'search.page', 'search.pageSize', 'search.reload', 'search.sort'];
    for (const kind of [...offered, 'xstate.done.actor.fetchPage', 'xstate.error.actor.fetchPage']) expect(kinds.has(kind), kind).toBe(true);
    expect(
      [...kinds].some((kind) => kind.startsWith('xstate.after.')),
      'the debounce running out',
    ).toBe(true);
  });

  /** `search.page 2`, `done.fetchPage`: the walk's steps as the table names them. */
  const named = (events: EventObject[]) =>
    events
      .map((e) => {
        const { type: _type, ...payload } = e as EventObject & Record<string, unknown>;
        const name = tableEvent(e);
        return name.startsWith('search.') && Object.keys(payload).length ? `${name} ${JSON.stringify(Object.values(payload)[0])}` : name;
      })
      .join(' → ');

  it.each(sample.map(({ path, events }) => [named(events), path, events] as const))('should walk %s on the users screen', (_d, path, events) =>
    recorder.run(path, async () => {
      const { page } = admin;
      for (const { route } of wire.held.splice(0)) await route.continue().catch(() => undefined);
      wire.seen.length = 0;
      admin.errors.length = 0;
      const facts: PagedSearchFacts = { query: screenDefaults(), searches: 0, sent: () => [] };
      const table = new IndependentExpectation(pagedSearchExpectation, facts);
      await page.goto('/users');
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await checkScreen(page, table.state, facts, 'start');
      const trail: string[] = [];
      for (const event of events) {
        trail.push(tableEvent(event));
        await act(page, event);
        const state = table.next(event);
        await checkScreen(page, state, facts, trail.join(' → '));
      }
      // The browser logs each refused request; nothing else may go wrong on the page.
      const failures = events.filter((e) => e.type === 'xstate.error.actor.fetchPage').length;
      expect(admin.errors, 'no page errors').toEqual(
        Array(failures).fill('console: Failed to load resource: the server responded with a status of 503 (Service Unavailable)'),
      );
    }),
  );
});

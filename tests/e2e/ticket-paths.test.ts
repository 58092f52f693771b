import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketLifecycleMachine, type TicketStatus } from '#machines/ticket-lifecycle.machine.ts';
import { ticketLifecyclePaths } from '#machines/ticket-lifecycle.model.ts';
import { expectedStatusAfter } from '#tests/fixtures/ticket-transitions.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { eventRequest, type EventFields, type HttpTicketEvent } from '#tests/server/tickets/ticket-events-http.ts';
import { createUser, type TestUser } from '#tests/setup/test-users.ts';
import { launchBrowser } from './support/browser.ts';
import { seededDataDir } from './support/seeded-data-dir.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';
import { chooseOption } from './support/select.ts';

/**
 * Model-based paths of the ticket lifecycle walked through the screens (part (c) of the
 * tickets issue's tests): the smallest greedy sample of the shortest paths that still sends
 * every kind of event, each step taken in the UI by the party the model names, and after every
 * step the status TICKETS.md gives (the hand-written table tests/fixtures/ticket-transitions.ts,
 * never the machine's own prediction) checked on the ticket page and on the server. The results
 * go to coverage/machines/replays/ticket-lifecycle.chromium.json for the /machines page.
 */
const TECHNICAL = 2;
const BOT_TEXT = { title: 'Exam timer stops at zero', description: 'The exam timer stops and the submit button stays disabled.' };

type Path = ReturnType<typeof ticketLifecyclePaths>[number];
type Step = Path['steps'][number];

/** An event kind: reassigning to a group and to a person are different screens. */
const kindOf = (event: Step['event']) =>
  event.type === 'ticket.reassign' ? `${event.type}:${'toSupportUserId' in event && event.toSupportUserId ? 'user' : 'group'}` : event.type;

/** Greedy cover: longest-news-first until every event kind of the model is sent once. */
export function samplePaths(paths: Path[]): Path[] {
  const remaining = new Set(paths.flatMap((p) => p.steps.slice(1).map((s) => kindOf(s.event))));
  const chosen: Path[] = [];
  while (remaining.size) {
    const best = paths
      .map((p) => ({
        p,
        news: new Set(
          p.steps
            .slice(1)
            .map((s) => kindOf(s.event))
            .filter((k) => remaining.has(k)),
        ).size,
      }))
      .sort((a, b) => b.news - a.news)[0];
    chosen.push(best.p);
    for (const s of best.p.steps.slice(1)) remaining.delete(kindOf(s.event));
  }
  return chosen;
}

let server: RunningServer;
let browser: Browser;
let people: { candidate: TestUser; agent: TestUser; secondAgent: TestUser; supportAdmin: TestUser };
const tab: Partial<Record<keyof typeof people, SignedInPage>> = {};

async function api(token: string, method: string, url: string, payload?: unknown) {
  const res = await fetch(`${server.url}/api${url.replace(/^\/api/, '')}`, {
    method,
    headers: { authorization: `Bearer ${token}`, tenant: 'root', ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function httpEvent(who: SignedInPage, type: HttpTicketEvent, ticketId: number, fields?: EventFields) {
  const request = eventRequest(type, ticketId, fields);
  return api(who.token, String(request.method), String(request.url), request.payload);
}

async function raise(who: SignedInPage): Promise<number> {
  const created = (await api(who.token, 'POST', '/v1/supportticket', { ...BOT_TEXT, supportTicketPriorityId: 2, supportGroupId: TECHNICAL })) as {
    ticketId: number;
  };
  return created.ticketId;
}

async function ticketOf(ticketId: number) {
  return (await api(tab.supportAdmin!.token, 'GET', `/v1/supportticket/byadmin?ticketId=${ticketId}`)) as {
    status: TicketStatus;
    assigneeId: string | null;
    children: Array<{ ticketId: number; status: TicketStatus }>;
  };
}

beforeAll(async () => {
  const prepared = await seededDataDir(async (db) => ({
    candidate: await createUser(db, { roles: ['Candidate'], firstName: 'Meera', lastName: 'Iyer' }),
    agent: await createUser(db, { roles: ['SupportAgent'], firstName: 'Ravi', lastName: 'Kumar', groups: [TECHNICAL], userType: 'staff' }),
    secondAgent: await createUser(db, { roles: ['SupportAgent'], firstName: 'Nina', lastName: 'Rao', groups: [TECHNICAL], userType: 'staff' }),
    supportAdmin: await createUser(db, { roles: ['SupportAdmin'], firstName: 'Lata', lastName: 'Shah', userType: 'staff' }),
  }));
  people = prepared.value;
  [server, browser] = await Promise.all([startServer({ dataDir: prepared.dataDir }), launchBrowser()]);
  for (const who of Object.keys(people) as Array<keyof typeof people>) tab[who] = await signedInPage(browser, server, people[who]);
  // A solved ticket the answer bot learns from: every path ticket gets its suggestion.
  const source = await raise(tab.candidate!);
  await httpEvent(tab.agent!, 'ticket.claim', source);
  await httpEvent(tab.agent!, 'ticket.resolve', source);
});

afterAll(async () => {
  for (const t of Object.values(tab)) await t?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

async function openTicket(page: Page, ticketId: number) {
  await page.goto(`/tickets/${ticketId}`);
  await page.getByTestId('ticket-page').waitFor();
}

async function confirmDialog(page: Page, button: string, fill: Record<string, string> = {}, selects: Record<string, string> = {}) {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  for (const [label, value] of Object.entries(fill)) await dialog.getByLabel(label).fill(value);
  for (const [label, option] of Object.entries(selects)) await chooseOption(page, dialog, label, option);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const bar = (page: Page) => page.getByRole('group', { name: 'Ticket actions' });

/** Takes one model step in the UI, as the party the model names; childrenDone is the system's. */
async function takeStep(step: Step, ticketId: number): Promise<Page | null> {
  const before = await ticketOf(ticketId);
  const assignee = before.assigneeId === people.secondAgent.id ? tab.secondAgent! : tab.agent!;
  const event = step.event;
  switch (event.type) {
    case 'ticket.childrenDone': {
      // The system sends it when every child is done: the child's group finishes the children.
      for (const child of before.children.filter((c) => c.status === 'Open')) {
        await httpEvent(tab.supportAdmin!, 'ticket.claim', child.ticketId);
        await httpEvent(tab.supportAdmin!, 'ticket.resolve', child.ticketId);
      }
      return null;
    }
    case 'ticket.claim':
      await openTicket(tab.agent!.page, ticketId);
      await bar(tab.agent!.page).getByRole('button', { name: 'Claim', exact: true }).click();
      return tab.agent!.page;
    case 'ticket.acceptBotAnswer': {
      const page = tab.agent!.page;
      await openTicket(page, ticketId);
      await page.getByTestId('bot-suggestion').getByRole('button', { name: 'Resolve with this answer' }).click();
      await confirmDialog(page, 'Resolve with this answer');
      return page;
    }
    case 'ticket.release':
    case 'ticket.resume': {
      await openTicket(assignee.page, ticketId);
      await bar(assignee.page)
        .getByRole('button', { name: event.type === 'ticket.release' ? 'Release' : 'Resume', exact: true })
        .click();
      return assignee.page;
    }
    case 'ticket.hold':
      await openTicket(assignee.page, ticketId);
      await bar(assignee.page).getByRole('button', { name: 'Put on hold', exact: true }).click();
      await confirmDialog(assignee.page, 'Put on hold', { 'What is the ticket waiting for?': 'Waiting for a screenshot' });
      return assignee.page;
    case 'ticket.resolve':
      await openTicket(assignee.page, ticketId);
      await bar(assignee.page).getByRole('button', { name: 'Resolve', exact: true }).click();
      await confirmDialog(assignee.page, 'Resolve', { Answer: 'Restarted the exam session; the timer runs again.' });
      return assignee.page;
    case 'ticket.escalate':
      await openTicket(assignee.page, ticketId);
      await bar(assignee.page).getByRole('button', { name: 'Escalate', exact: true }).click();
      await confirmDialog(
        assignee.page,
        'Escalate',
        { 'What does the other group need to do?': 'Check the centre clock' },
        { 'Escalate to support group': 'Exam Administration' },
      );
      return assignee.page;
    case 'ticket.reassign': {
      const page = tab.supportAdmin!.page;
      await openTicket(page, ticketId);
      await bar(page).getByRole('button', { name: 'Reassign', exact: true }).click();
      const toUser = 'toSupportUserId' in event && event.toSupportUserId;
      await confirmDialog(page, 'Reassign', {}, toUser ? { 'Hand to agent': 'Nina Rao' } : { 'Move to support group': 'General Support' });
      return page;
    }
    case 'ticket.edit': {
      const page = tab.supportAdmin!.page;
      await openTicket(page, ticketId);
      await bar(page).getByRole('button', { name: 'Edit', exact: true }).click();
      await confirmDialog(page, 'Edit', { Title: `${BOT_TEXT.title} (edited)` });
      return page;
    }
    case 'ticket.close':
    case 'ticket.reopen':
    case 'ticket.cancel': {
      const page = tab.candidate!.page;
      await openTicket(page, ticketId);
      const label = { 'ticket.close': 'Close', 'ticket.reopen': 'Reopen', 'ticket.cancel': 'Cancel ticket' }[event.type];
      await bar(page).getByRole('button', { name: label, exact: true }).click();
      const fill: Record<string, string> =
        event.type === 'ticket.reopen'
          ? { 'Why does the ticket need more work?': 'The timer stopped again' }
          : event.type === 'ticket.cancel'
            ? { 'Why are you withdrawing the ticket?': 'It works after a restart' }
            : {};
      await confirmDialog(page, label, fill);
      return page;
    }
  }
}

describe('ticket lifecycle paths through the screens, in Chromium', () => {
  const sample = samplePaths(ticketLifecyclePaths());
  const recorder = replayRecorder(ticketLifecycleMachine, 'chromium', true);
  afterAll(() => void recorder.write());

  it('should sample paths that send every kind of event and reach every status', () => {
    const kinds = new Set(sample.flatMap((p) => p.steps.slice(1).map((s) => kindOf(s.event))));
    expect(kinds.size).toBe(14);
    const statuses = new Set(sample.flatMap((p) => p.steps.map((s) => String(s.state.value))));
    expect([...statuses].sort()).toEqual(['Cancelled', 'Closed', 'Escalated', 'InProgress', 'OnHold', 'Open', 'Resolved']);
    console.log(`ticket lifecycle: ${sample.length} of ${ticketLifecyclePaths().length} paths walked through the UI`);
  });

  for (const path of sample) {
    const trail = path.steps
      .slice(1)
      .map((s) => kindOf(s.event).replace('ticket.', ''))
      .join(' → ');
    it(`should walk ${trail} and show the status TICKETS.md gives after every step`, () =>
      recorder.run({ ...path, description: trail }, async () => {
        const ticketId = await raise(tab.candidate!);
        let expected: TicketStatus = 'Open';
        for (const step of path.steps.slice(1)) {
          const page = await takeStep(step, ticketId);
          // The hand-written table's status, not the machine's: a wrong machine cannot agree with itself.
          expected = expectedStatusAfter(expected, step.event);
          // The screen of whoever acted shows the new status; the server stored it.
          if (page) await page.locator(`[data-testid=ticket-page][data-status=${expected}]`).waitFor({ timeout: 15_000 });
          await expect.poll(async () => (await ticketOf(ticketId)).status, { message: `${trail}: after ${step.event.type}` }).toBe(expected);
        }
        for (const t of Object.values(tab)) expect(t!.errors, trail).toEqual([]);
      }));
  }
});

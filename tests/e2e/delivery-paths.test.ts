import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryMachine, type DeliveryEvent, type DeliveryStatus } from '#machines/delivery.machine.ts';
import { deliveryTestPaths } from '#machines/delivery.model.ts';
import { buildApp } from '#server/app.ts';
import { deliveryExpectation, deliveryFacts, timeLeft, type DeliveryFacts } from '#tests/fixtures/expectations/delivery.ts';
import { IndependentExpectation, sampleTakingEveryRule } from '#tests/fixtures/expectations/expectation-table.ts';
import { admittedCandidate, SITTING, sittingSeason, type Sitting } from '#tests/server/delivery/delivery-kit.ts';
import { grant, staffUser } from '#tests/server/exams/workspace-kit.ts';
import { seasonWorld } from '#tests/server/seasons/seasons-kit.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { testConfig } from '#tests/setup/test-app.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { launchBrowser } from './support/browser.ts';
import { seededDataDir } from './support/seeded-data-dir.ts';
import { getApi, removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signedInPage, type SignedInPage } from './support/signed-in-page.ts';

/**
 * Model-based paths of the delivery lifecycle (machines/delivery.model.ts) walked through the
 * screens in Chromium (issue 19): a sample of the generated paths that together take every rule
 * of the independent table (tests/fixtures/expectations/delivery.ts), so every state and every
 * invigilator action. Each step is taken as a person takes it: the candidate on their screen
 * (/sit/:id), the invigilator on the console (/invigilate) in a second browser context, and time
 * up by waiting for the time to run out. After every step the table, fed the event as the server
 * recorded it (its history's time, the minutes and reason typed), gives the state; the server's
 * stored status and time left must be the table's, and the candidate's screen must show what
 * that state means. The results go to coverage/machines/replays/delivery.chromium.json for
 * the /machines page.
 *
 * The server runs on the real clock, so the paths sit three papers: the model's sitting in March
 * 2027 for paths that admit early (admitting is only before the start), one that started ten
 * minutes ago for paths that start on time, and one of a single minute for the path to time up.
 */
type Path = ReturnType<typeof deliveryTestPaths>[number];
type SittingKind = 'later' | 'now' | 'short';

const MIN = 60_000;
const types = (path: Path) => path.steps.slice(1).map((s) => (s.event as DeliveryEvent).type);
const sittingOf = (path: Path): SittingKind => (types(path).includes('delivery.admit') ? 'later' : types(path).includes('delivery.timeUp') ? 'short' : 'now');

/**
 * The sample: every table rule some path takes, from the paths a real clock can walk in a few
 * minutes: time up only on a path without an extension or an early admission (the one-minute
 * paper started on time), so the wait for the end stays about a minute.
 */
export function samplePaths(paths: Path[]): Path[] {
  const walkable = paths.filter((p) => !types(p).includes('delivery.timeUp') || !types(p).some((t) => t === 'delivery.extend' || t === 'delivery.admit'));
  return sampleTakingEveryRule(deliveryExpectation, () => deliveryFacts(SITTING.startsAtIso, SITTING.durationMinutes), walkable);
}

/** An instant in the centers' time (IST) as the season schedule takes it: day and HH:MM. */
function centerTime(ms: number) {
  const ist = new Date(ms + 330 * MIN).toISOString();
  return { sitsOn: ist.slice(0, 10), startsAt: ist.slice(11, 16) };
}
/** The scheduled start instant, by the spec's rule (docs/decisions/0241: the centers are at UTC+05:30). */
const startOf = (s: Sitting) => Date.parse(`${s.sitsOn}T${s.startsAt}:00+05:30`);

const tenMinutesAgo = centerTime(Date.now() - 10 * MIN);
const sittings: Record<SittingKind, Sitting & { name: string }> = {
  later: { ...SITTING, name: 'Delivery paths: March sitting' },
  now: { ...tenMinutesAgo, durationMinutes: 60, name: 'Delivery paths: started sitting' },
  short: { ...tenMinutesAgo, durationMinutes: 1, name: 'Delivery paths: one-minute sitting' },
};

const sample = samplePaths(deliveryTestPaths());

interface Seat {
  candidate: TestUser;
  registrationId: number;
  seasonPaperId: number;
  sitting: SittingKind;
}
let server: RunningServer;
let browser: Browser;
/** Per sampled path, a fresh candidate for each attempt (the e2e project retries a failed test once). */
let world: { projectId: number; invigilator: TestUser; seats: Seat[][] };
let desk: SignedInPage;

beforeAll(async () => {
  // The world is built through the API in-process on the data directory the server then opens.
  const prepared = await seededDataDir(async (db, dataDir) => {
    const app = await buildApp({ config: testConfig(dataDir), db, logger: false, runJobs: false });
    try {
      await app.ready();
      const base = await seasonWorld(app, db);
      const invigilator = await staffUser(app, { firstName: 'Hall', lastName: 'Invigilator' });
      await grant(app, base.manager, base.projectId, invigilator, 'Invigilator', base.examId);
      const seasons = {} as Record<SittingKind, { seasonId: number; seasonPaperId: number }>;
      for (const kind of Object.keys(sittings) as SittingKind[]) seasons[kind] = await sittingSeason(app, base, sittings[kind]);
      const seats: Seat[][] = [];
      for (const [i, path] of sample.entries()) {
        const sitting = sittingOf(path);
        seats.push([]);
        for (const attempt of [1, 2]) {
          const { candidate, registrationId } = await admittedCandidate(app, { ...base, invigilator, ...seasons[sitting] }, undefined, {
            firstName: `Path ${i + 1}`,
            lastName: `Candidate ${attempt}`,
          });
          seats[i].push({ candidate, registrationId, seasonPaperId: seasons[sitting].seasonPaperId, sitting });
        }
      }
      return { projectId: base.projectId, invigilator, seats };
    } finally {
      await app.close();
    }
  });
  world = prepared.value;
  [server, browser] = await Promise.all([startServer({ dataDir: prepared.dataDir }), launchBrowser()]);
  desk = await signedInPage(browser, server, world.invigilator);
  // The invigilator works in the project (the console's calls carry it).
  await desk.page.goto('/projects');
  await desk.page.getByTestId('projects-table').getByRole('button', { name: 'Class 10 Board 2027', exact: true }).click();
  await desk.page.getByRole('heading', { level: 1, name: 'Exams of Class 10 Board 2027' }).waitFor();
}, 240_000);

afterAll(async () => {
  await desk?.close().catch(() => undefined);
  await browser?.close();
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

const api = <T>(token: string, url: string, project?: number) => getApi<T>(server, token, url, project);

interface Timing {
  status: DeliveryStatus;
  remainingMs: number;
  deadline: string | null;
  serverNow: string;
  admitted: boolean;
  endedAt: string | null;
}
interface HistoryEntry {
  event: string;
  toStatus: string | null;
  reason: string | null;
  details: { minutes?: number };
  at: string;
}

/** What the server stores: the candidate's view of the delivery (status, time left) and its history (the console's record). */
async function stored(candidate: SignedInPage, deliveryId: number) {
  const [mine, record] = await Promise.all([
    api<{ timing: Timing; answers: unknown[] }>(candidate.token, `/v1/delivery/mine/${deliveryId}`),
    api<{ history: HistoryEntry[] }>(desk.token, `/v1/delivery/${deliveryId}`, world.projectId),
  ]);
  return { timing: mine.timing, answers: mine.answers.length, history: record.history };
}

const row = (deliveryId: number) => desk.page.getByTestId(`console-row-${deliveryId}`);

/** The console on the path's room: season and paper chosen as the invigilator chooses them. */
async function openConsole(seat: Seat, deliveryId: number) {
  const page = desk.page;
  const sitting = sittings[seat.sitting];
  await page.goto('/invigilate');
  await page.getByRole('heading', { level: 1, name: 'Invigilator console' }).waitFor();
  await page.getByRole('combobox', { name: 'Season' }).click();
  await page.getByRole('listbox').getByRole('option', { name: sitting.name, exact: true }).click();
  await page.getByRole('combobox', { name: 'Paper' }).click();
  await page
    .getByRole('listbox')
    .getByRole('option', { name: new RegExp(` · ${sitting.sitsOn} ${sitting.startsAt}$`) })
    .click();
  await row(deliveryId).waitFor();
}

async function consoleAct(deliveryId: number, action: string, fill: Record<string, string> = {}) {
  const page = desk.page;
  // The console follows the room over the hub: the button is there once it knows the state.
  await page.getByTestId(`console-${action}-${deliveryId}`).click({ timeout: 15_000 });
  if (!Object.keys(fill).length) return;
  const dialog = page.getByTestId('console-dialog');
  await dialog.waitFor();
  for (const [label, value] of Object.entries(fill)) await dialog.getByLabel(label).fill(value);
  await page.getByTestId('console-dialog-confirm').click();
  await dialog.waitFor({ state: 'detached' });
}

/** hh:mm:ss of whole seconds left, rounded up: how the exam timer reads (EXAMS.md §4). */
function hms(ms: number) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60].map((n) => String(n).padStart(2, '0')).join(':');
}
const seconds = (text: string | null) => (text ?? '').split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Takes one model step in the UI, as the party the model names; time up is the clock's. */
async function takeStep(event: DeliveryEvent, page: Page, deliveryId: number, answersBefore: number): Promise<number | undefined> {
  switch (event.type) {
    case 'delivery.start':
      await page.getByTestId('delivery-declaration').click();
      await page.getByTestId('delivery-start').click();
      await page.getByTestId('delivery-bar').waitFor();
      return;
    case 'delivery.save': {
      const question = page.locator('article[data-testid^="question-"]');
      await question.locator('[data-testid^="preview-option-"]').first().click();
      await page.getByTestId('save-next').click();
      await page.locator('[data-testid="autosave-indicator"][data-state="saved"]').waitFor({ timeout: 15_000 });
      return answersBefore + 1;
    }
    case 'delivery.submit':
      await page.getByTestId('delivery-submit').click();
      await page.getByTestId('submit-summary').waitFor();
      await page.getByTestId('submit-confirm-yes').click();
      return;
    case 'delivery.timeUp':
      // Nobody acts: the time runs out (a minute's paper), and the screen ends by itself.
      await page.getByTestId('delivery-receipt').waitFor({ timeout: 120_000 });
      return;
    case 'delivery.admit':
    case 'delivery.pause':
    case 'delivery.resume':
      await consoleAct(deliveryId, event.type.replace('delivery.', ''));
      return;
    case 'delivery.extend':
      await consoleAct(deliveryId, 'extend', { Minutes: String(event.minutes), Reason: event.reason });
      return;
    case 'delivery.terminate':
      await consoleAct(deliveryId, 'terminate', { Reason: event.reason });
      return;
  }
}

const statusLabel: Record<DeliveryStatus, string> = {
  Waiting: 'Not started',
  Active: 'In progress',
  Paused: 'Paused',
  Submitted: 'Submitted',
  TimeUp: 'Time up',
  Terminated: 'Terminated',
};

/** What the candidate's screen must show in the state the table expects (EXAMS.md §4, issue 19). */
async function checkScreen(page: Page, deliveryId: number, expected: string, facts: DeliveryFacts, trail: string) {
  const timer = page.getByTestId('delivery-timer');
  const receipt = page.getByTestId('delivery-receipt');
  switch (expected) {
    case 'Waiting': {
      // The instructions and the countdown: start is open once admitted or from the start time on.
      const mayStart = facts.admittedEarly || Date.now() >= facts.startsAtMs;
      await expect
        .poll(() => page.getByTestId('waiting-countdown').textContent(), { message: `${trail}: waiting room`, timeout: 15_000 })
        .toMatch(mayStart ? /^You may start now\.$/ : /^The paper starts in \d+:\d\d:\d\d$/);
      await page.getByTestId('delivery-declaration').waitFor();
      return;
    }
    case 'Active': {
      // The questions and a running timer at the table's time left.
      await page.locator('article[data-testid^="question-"]').waitFor();
      await page.getByTestId('delivery-paused').waitFor({ state: 'detached', timeout: 15_000 });
      await expect
        .poll(async () => Math.abs(seconds(await timer.textContent()) - timeLeft(facts, Date.now()) / 1000), {
          message: `${trail}: the timer reads the time left`,
          timeout: 15_000,
        })
        .toBeLessThanOrEqual(2);
      const first = seconds(await timer.textContent());
      await sleep(1_200);
      expect(seconds(await timer.textContent()), `${trail}: the timer runs`).toBeLessThan(first);
      return;
    }
    case 'Paused': {
      // The paused alert, no question to answer, and a stopped timer at the table's time left.
      await page.getByTestId('delivery-paused').waitFor({ timeout: 15_000 });
      await expect(page.getByTestId('delivery-paused').textContent()).resolves.toBe('The invigilator has paused the exam. Your time is stopped; please wait.');
      const shown = `${hms(timeLeft(facts, Date.now()))} (paused)`;
      await expect.poll(() => timer.textContent(), { message: `${trail}: the stopped timer`, timeout: 15_000 }).toBe(shown);
      await sleep(1_200);
      expect(await timer.textContent(), `${trail}: the timer stands`).toBe(shown);
      // The sitting is inert while paused: no click reaches the questions.
      const inert = page.locator('[inert]').filter({ has: page.locator('article[data-testid^="question-"]') });
      expect(await inert.count(), `${trail}: the questions are inert`).toBe(1);
      return;
    }
    case 'Submitted':
    case 'TimeUp':
    case 'Terminated': {
      // The receipt of this delivery, saying how it ended.
      await receipt.waitFor({ timeout: 15_000 });
      await expect(page.getByTestId('receipt-id').textContent()).resolves.toBe(String(deliveryId));
      const notes = await receipt.getByRole('status').allTextContents();
      expect(notes, `${trail}: what the receipt says`).toEqual(
        expected === 'TimeUp'
          ? ['The time is up: your answers were submitted automatically.']
          : expected === 'Terminated'
            ? ['The invigilator ended this exam.']
            : [],
      );
      await timer.waitFor({ state: 'detached' });
      return;
    }
  }
}

describe('delivery lifecycle paths through the screens, in Chromium', { timeout: 240_000 }, () => {
  const recorder = replayRecorder(deliveryMachine, 'chromium', true);
  afterAll(() => void recorder.write());

  it('should sample paths that take every rule of the table: every event and every state', () => {
    const kinds = new Set(sample.flatMap(types));
    expect([...kinds].sort()).toEqual([
      'delivery.admit',
      'delivery.extend',
      'delivery.pause',
      'delivery.resume',
      'delivery.save',
      'delivery.start',
      'delivery.submit',
      'delivery.terminate',
      'delivery.timeUp',
    ]);
    const states = new Set(sample.flatMap((p) => p.steps.map((s) => String(s.state.value))));
    expect([...states].sort()).toEqual(['Active', 'Paused', 'Submitted', 'Terminated', 'TimeUp', 'Waiting']);
    console.log(
      `delivery: ${sample.length} of ${deliveryTestPaths().length} paths walked through the UI:\n${sample.map((p) => `  ${p.description}`).join('\n')}`,
    );
  });

  for (const [i, path] of sample.entries()) {
    const trail = types(path)
      .map((t) => t.replace('delivery.', ''))
      .join(' → ');
    it(`should walk ${trail} with the state, time left and screen the table gives after every step`, () =>
      recorder.run({ ...path, description: trail }, async () => {
        const seat = world.seats[i].shift()!;
        const sitting = sittings[seat.sitting];
        const candidate = await signedInPage(browser, server, seat.candidate);
        try {
          const page = candidate.page;
          // The candidate opens the paper from their list: the delivery is Waiting.
          await page.goto('/sit');
          await page.getByTestId(`sit-${seat.registrationId}-${seat.seasonPaperId}`).click();
          await page.getByTestId('delivery-screen').waitFor();
          await page.waitForURL(/\/sit\/\d+$/);
          const deliveryId = Number(/\/sit\/(\d+)$/.exec(page.url())![1]);
          await openConsole(seat, deliveryId);

          const facts = deliveryFacts(new Date(startOf(sitting)).toISOString(), sitting.durationMinutes);
          const table = new IndependentExpectation(deliveryExpectation, facts);
          let seen = (await stored(candidate, deliveryId)).history.length;
          let answers = 0;
          await checkScreen(page, deliveryId, 'Waiting', facts, trail);

          for (const step of path.steps.slice(1)) {
            const event = step.event as DeliveryEvent;
            const invigilator = !['delivery.start', 'delivery.save', 'delivery.submit', 'delivery.timeUp'].includes(event.type);
            const saved = await takeStep(event, page, deliveryId, answers);
            // The server's record of the step: one history line of this event (a save is not
            // in the history: its answer is stored instead).
            let now = await stored(candidate, deliveryId);
            if (saved !== undefined) {
              await expect.poll(async () => (now = await stored(candidate, deliveryId)).answers, { message: `${trail}: the answer is stored` }).toBe(saved);
              answers = saved;
            } else {
              await expect
                .poll(async () => (now = await stored(candidate, deliveryId)).history.length, {
                  message: `${trail}: ${event.type} in the history`,
                  timeout: 15_000,
                })
                .toBe(seen + 1);
            }
            const line = now.history[seen];
            if (saved === undefined) {
              expect(line.event, `${trail}: the step recorded`).toBe(event.type);
              seen += 1;
            }
            // The table is fed the event as it happened: the server's time, what was typed.
            const happened = {
              ...event,
              by: event.type === 'delivery.timeUp' ? { system: true } : invigilator ? { invigilator: true } : { candidate: true },
              at: saved === undefined ? line.at : now.timing.serverNow,
              ...(event.type === 'delivery.extend' ? { minutes: line.details.minutes, reason: line.reason ?? '' } : {}),
              ...(event.type === 'delivery.terminate' ? { reason: line.reason ?? '' } : {}),
            } as DeliveryEvent;
            const expected = table.next(happened);
            const message = `${trail}: after ${event.type}`;
            expect(now.timing.status, message).toBe(expected);
            if (saved === undefined) expect(line.toStatus, message).toBe(expected);
            if (['Waiting', 'Active', 'Paused'].includes(expected)) {
              const left = timeLeft(facts, Date.parse(now.timing.serverNow));
              expect(now.timing.remainingMs, `${message}: time left`).toBe(left);
              expect(now.timing.deadline, `${message}: deadline`).toBe(
                expected === 'Active' ? new Date(Date.parse(now.timing.serverNow) + left).toISOString() : null,
              );
              expect(now.timing.admitted, `${message}: admitted`).toBe(facts.admittedEarly);
            } else {
              expect(now.timing.endedAt, `${message}: ended at`).toBe(line.at);
              expect(now.timing.remainingMs).toBe(0);
            }
            // Whoever acted sees it: the invigilator's console row, and the candidate's screen always.
            if (invigilator)
              await expect
                .poll(() => row(deliveryId).locator('td').nth(1).textContent(), { message: `${message}: the console`, timeout: 15_000 })
                .toBe(statusLabel[expected as DeliveryStatus]);
            await checkScreen(page, deliveryId, expected, facts, message);
          }
          expect(candidate.errors, trail).toEqual([]);
          expect(desk.errors, trail).toEqual([]);
        } finally {
          await candidate.close();
        }
      }));
  }
});

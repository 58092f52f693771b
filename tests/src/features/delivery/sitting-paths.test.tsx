import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot, EventObject } from 'xstate';
import { autosaveMachine, type QueuedSave } from '#machines/delivery-autosave.machine.ts';
import { autosaveTestPaths } from '#machines/delivery-autosave.model.ts';
import { countdownMachine } from '#machines/delivery-countdown.machine.ts';
import { COUNTDOWN_BROWSER_NOW, countdownModelInput, countdownTestPaths } from '#machines/delivery-countdown.model.ts';
import { sittingMachine } from '#machines/delivery-sitting.machine.ts';
import { sittingModelInput, sittingTestPaths } from '#machines/delivery-sitting.model.ts';
import { transitionsTakenBy } from '#machines/graph-coverage.ts';
import { allPermissions } from '#machines/permissions.ts';
import { liveActors } from '#src/app/live-actors.ts';
import { publishRealtime } from '#src/app/realtime/realtime-events.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import type { Delivery, Timing } from '#src/features/delivery/api/delivery-api.ts';
import { keepQueue, queuedSaves } from '#src/features/delivery/lib/offline-queue.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { autosaveExpectation, freshAutosaveFacts, type AutosaveFacts } from '#tests/fixtures/expectations/delivery-autosave.ts';
import {
  countdownExpectation,
  sittingExpectation,
  specTimeLeft,
  type CountdownFacts,
  type SittingFacts,
} from '#tests/fixtures/expectations/delivery-sitting.ts';
import {
  IndependentExpectation,
  rulesNoPathTakes,
  sampleTakingEveryRule,
  stepPairs,
  tableEvent,
  type ExpectationTable,
} from '#tests/fixtures/expectations/expectation-table.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { candidateDelivery, DELIVERY_ID, MIN, renderCandidateScreen, serverTiming } from './candidate-fixture.tsx';
import { deliveryApiMock } from './delivery-api-mock.ts';

/**
 * The candidate screen's actors walked through the screen itself (issue 14): generated paths of
 * the autosave queue, the sitting and its clock, each step caused the way a candidate, the
 * browser or the server causes it (a click, a window event, an answer of the mocked HTTP layer,
 * time on a fake clock), and after each step what the screen shows and what its actor is in
 * checked against the tables written from the spec (tests/fixtures/expectations/).
 */
const api = deliveryApiMock;
vi.mock('#src/features/delivery/api/delivery-api.ts', async () => ({ deliveryApi: (await import('./delivery-api-mock.ts')).deliveryApiMock }));
const { default: DeliveryPage } = await import('#src/features/delivery/delivery-page.tsx');

/** The delivery as the server sends it, with this timing. */
const delivery = (timing: Timing): Delivery => candidateDelivery({ timing });

/** A call the replay answers when the path says so. */
interface Held<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}
function held<T>(into: Array<Held<T>>): Promise<T> {
  return new Promise<T>((resolve, reject) => void into.push({ resolve, reject }));
}

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['delivery', 'items', 'ui', 'errors', 'users']);
});
beforeEach(() => {
  act(() => userPermissionsStore.trigger.update({ permissions: [...allPermissions] }));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.resetAllMocks();
});

/** Lets the screen's promises, effects and zero-delay timers run, on the fake clock. */
const settle = () => act(() => vi.advanceTimersByTimeAsync(0));
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** Opens the candidate screen at /sit/41 and returns its running sitting. */
async function openScreen(): Promise<AnyActorRef> {
  renderCandidateScreen(DeliveryPage);
  for (let i = 0; i < 20 && !screen.queryByTestId('question-1'); i++) await settle();
  expect(screen.getByTestId('question-1')).toBeInTheDocument();
  return liveActors().find((a) => a.id === 'delivery-sitting' && !a.stopped)!.actorRef;
}

/** The table's delay a state runs (its rule on `after.<name>`), if any. */
function delayOf<F>(table: ExpectationTable<F>, state: string): string | undefined {
  const rule = table.rules.find((r) => (typeof r.from === 'string' ? r.from === state : r.from.includes(state)) && r.event.startsWith('after.'));
  return rule?.event.slice('after.'.length);
}

// ---- the autosave queue --------------------------------------------------------------------

/** The question an `answer` step changes. */
const questionOf = (event: EventObject) => (event as EventObject & { itemNumber: number }).itemNumber;

/**
 * How the screen takes a path of the queue: a change is a click on an option of the question
 * shown, and every move to another question is a `flush` (the screen saves on navigation). So a
 * path's `flush` is a click on the palette, to the question its next change needs; and where the
 * table says a `flush` changes nothing (no rule takes it: nothing waits, or a call is out, or
 * the queue is held) the replay moves there before the step, unseen by the path. The plan is
 * null for a path the screen cannot take:
 * - a change to a question other than the one shown while a move would send the saves (waiting
 *   or offline), with no earlier moment to move;
 * - a call answered with a higher sequence stored for question 1 when the call did not carry
 *   question 1: the server names stored sequences only of the saves it was sent.
 */
function autosavePlan(path: { steps: ReadonlyArray<{ event: EventObject }> }): Array<{ moveTo: number | null }> | null {
  const walk = new IndependentExpectation(autosaveExpectation, freshAutosaveFacts());
  const flushChangesNothing = (state: string) =>
    !autosaveExpectation.rules.some((r) => r.event === 'flush' && (typeof r.from === 'string' ? r.from === state : r.from.includes(state)));
  const plan: Array<{ moveTo: number | null }> = [];
  let shown = 1;
  for (const [i, { event }] of path.steps.entries()) {
    const nextChange = path.steps.slice(i).find((s) => s.event.type === 'answer')?.event;
    const wanted = nextChange ? questionOf(nextChange) : shown;
    let moveTo: number | null = null;
    if (event.type === 'flush' || (wanted !== shown && flushChangesNothing(walk.state) && event.type !== 'xstate.init')) moveTo = wanted;
    if (moveTo !== null) shown = moveTo;
    if (event.type === 'answer' && questionOf(event) !== shown) return null;
    const stored = (event as EventObject & { output?: { stored?: unknown[] } }).output?.stored;
    if (stored && !(1 in walk.facts.outgoing)) return null;
    plan.push({ moveTo });
    if (event.type !== 'xstate.init') walk.next(event);
  }
  return plan;
}

/** A step as the model names it: the table's event, with the question changed and how a call ended. */
function autosaveStepName(event: EventObject): string {
  const e = event as EventObject & { itemNumber?: number; output?: { stored?: unknown[] }; error?: { status: number | null } };
  if (e.type === 'answer') return `answer ${e.itemNumber}`;
  if (e.output) return e.output.stored ? 'done, a higher sequence stored' : 'done';
  if (e.error) return `error ${e.error.status ?? 'network'}`;
  return tableEvent(e);
}

/**
 * The queue as the table has it: each waiting question, with whether the call under way carries
 * its newest save (`out`), an older one (`changed`), or none (`new`). `1 out, 2 new`.
 */
function queuePicture(facts: AutosaveFacts): string {
  const questions = Object.keys(facts.waiting).map(Number);
  if (!questions.length) return 'none waiting';
  return questions.map((q) => `${q} ${facts.outgoing[q] === undefined ? 'new' : facts.outgoing[q] === facts.waiting[q] ? 'out' : 'changed'}`).join(', ');
}

/**
 * Each step of a path as `<table state> (<queue>):<step name>`, and each two consecutive step
 * names: every kind of step from every state and queue it is taken in, and every step after
 * every step (a higher stored sequence shows only in the change after it).
 */
function autosaveSteps(path: { steps: ReadonlyArray<{ event: EventObject }> }): string[] {
  const walk = new IndependentExpectation(autosaveExpectation, freshAutosaveFacts());
  const named: string[] = [];
  const names: string[] = [];
  for (const { event } of path.steps) {
    if (event.type === 'xstate.init') continue;
    named.push(`${walk.state} (${queuePicture(walk.facts)}):${autosaveStepName(event)}`);
    names.push(autosaveStepName(event));
    walk.next(event);
  }
  return [...named, ...names.slice(1).map((name, i) => `${names[i]} then ${name}`)];
}

const allAutosavePaths = autosaveTestPaths();
const screenAutosavePaths = allAutosavePaths.filter((path) => autosavePlan(path) !== null);
const autosavePaths = sampleTakingEveryRule(
  autosaveExpectation,
  () => freshAutosaveFacts(),
  screenAutosavePaths,
  (path) => [...transitionsTakenBy(autosaveMachine, [path]), ...stepPairs(autosaveExpectation, () => freshAutosaveFacts(), path), ...autosaveSteps(path)],
);

/** The indicator's words for the table's state, from the spec ("saved / saving / offline, N answers waiting"). */
function indicatorText(state: string, facts: AutosaveFacts): string {
  const waiting = Object.keys(facts.waiting).length;
  if (state === 'saved') return 'Saved';
  if (state === 'waiting' || state === 'sending') return 'Saving…';
  return `Offline, ${waiting} ${waiting === 1 ? 'answer' : 'answers'} waiting`;
}

describe('autosave paths through the candidate screen (jsdom)', () => {
  const recorder = replayRecorder(autosaveMachine, 'jsdom', true);
  afterAll(() => void recorder.write());

  it('should sample paths the screen can take, with every rule, transition and pair of steps of all the paths', () => {
    const steps = (paths: typeof allAutosavePaths) => new Set(paths.flatMap(autosaveSteps));
    const pairs = (paths: typeof allAutosavePaths) => new Set(paths.flatMap((path) => stepPairs(autosaveExpectation, () => freshAutosaveFacts(), path)));
    expect(rulesNoPathTakes(autosaveExpectation, () => freshAutosaveFacts(), autosavePaths)).toEqual([]);
    expect(transitionsTakenBy(autosaveMachine, autosavePaths).sort()).toEqual(transitionsTakenBy(autosaveMachine, allAutosavePaths).sort());
    expect(pairs(autosavePaths)).toEqual(pairs(allAutosavePaths));
    expect([...steps(allAutosavePaths)].filter((step) => !steps(autosavePaths).has(step))).toEqual([
      // Two questions wait together on this screen only while a call is out, offline or held: a
      // change to the other question moves there, and the move sends what waits.
      'waiting (1 new, 2 new):answer 1',
      'waiting (1 new, 2 new):answer 2',
      'waiting (1 new, 2 new):flush',
      'waiting (1 new, 2 new):after.debounce',
      // The server names a stored sequence only of a save it was sent: question 1 is not out.
      'sending (2 out):done, a higher sequence stored',
      // Generated paths reach these queues only through the one above, waiting with both.
      'sending (1 out, 2 out):answer 1',
      'sending (1 out, 2 out):answer 2',
      'sending (1 out, 2 out):done',
      'sending (1 out, 2 out):done, a higher sequence stored',
      'sending (1 out, 2 out):error 409',
      'sending (1 out, 2 out):error network',
      // Question 1 not out again.
      'sending (1 new, 2 out):done, a higher sequence stored',
      'sending (2 changed):done, a higher sequence stored',
      // Through waiting with both again.
      'sending (1 changed, 2 out):answer 1',
      'sending (1 changed, 2 out):answer 2',
      'sending (1 changed, 2 out):done',
      'sending (1 changed, 2 out):done, a higher sequence stored',
      'sending (1 changed, 2 out):error 409',
      'sending (1 changed, 2 out):error network',
      // Offline with both waiting and the second shown: a move to the first would send them.
      'offline (1 new, 2 new):answer 1',
    ]);
    expect(autosavePaths.length).toBeLessThan(80);
  });

  // One test per path: the 70 walks take some 18 s together, too close to one test's time limit on a busy machine.
  it.each(autosavePaths.map((path, index) => [index + 1, path] as const))(
    'should walk sample path %i on the screen, each step as issue 19 and decision 0243 say',
    async (_index, path) => {
      await recorder.run(path, async () => {
        vi.useFakeTimers();
        vi.clearAllMocks();
        // A path that ends with saves waiting keeps them for a reload: each path starts with none.
        keepQueue(DELIVERY_ID, []);
        const saveCalls: Array<Held<unknown>> = [];
        const reads: Array<Held<Delivery>> = [];
        api.save.mockImplementation(() => held(saveCalls));
        // The line's heartbeat is never answered: a server answer would tell the screen to resume
        // a held queue at a moment the path does not choose.
        api.telemetry.mockImplementation(() => new Promise(() => undefined));
        api.get.mockResolvedValueOnce(delivery(serverTiming()));
        api.get.mockImplementation(() => held(reads));
        const sitting = await openScreen();
        const autosave = () => (sitting.getSnapshot() as AnyMachineSnapshot).children.autosave as AnyActorRef;
        const sentPairs = () =>
          api.save.mock.calls.map((call) => (call[1] as QueuedSave[]).map((s) => [s.itemNumber, s.sequence] as [number, number]).sort((a, b) => a[0] - b[0]));
        const independent = new IndependentExpectation(autosaveExpectation, freshAutosaveFacts(sentPairs));
        const plan = autosavePlan(path)!;
        const chosen: Record<number, 'a' | 'b'> = {};
        let refusals = 0;
        const trail: string[] = [];
        // The fake clock's time when the running delay started: the quiet spell starts again
        // with every change (debounced), the retry counts from the failure.
        let delayFrom = Date.now();
        const shows = () => ({
          state: autosave().getSnapshot().value as string,
          indicator: screen.getByTestId('autosave-indicator').textContent,
        });

        for (const [i, { event }] of path.steps.entries()) {
          const before = independent.state;
          const delay = delayOf(autosaveExpectation, before);
          const step = tableEvent(event);
          if (event.type !== 'xstate.init') trail.push(step === 'answer' ? `answer ${questionOf(event)}` : step);
          // Some time passes before a step in a state that runs a delay (less than it has left):
          // a delay that started again, or did not, when it should not would run out early.
          if (delay && !step.startsWith('after.') && Date.now() + 300 < delayFrom + independent.delay(delay)! - 1) await wait(300);
          const { moveTo } = plan[i];
          if (moveTo !== null) act(() => void fireEvent.click(screen.getByTestId(`palette-${moveTo}`)));

          if (step === 'answer') {
            const question = questionOf(event);
            chosen[question] = chosen[question] === 'a' ? 'b' : 'a';
            act(() => void fireEvent.click(screen.getByTestId(`preview-option-${chosen[question]}`)));
            await settle();
          } else if (step === 'flush') {
            await settle();
          } else if (step === 'online') {
            act(() => void window.dispatchEvent(new Event('online')));
            await settle();
          } else if (step === 'resume') {
            // The screen read the delivery again on the refusal; the server now says it runs.
            reads.at(-1)!.resolve(delivery(serverTiming()));
            await settle();
          } else if (step === 'done.saveBatch') {
            const stored = (event as EventObject & { output: { stored?: Array<{ itemNumber: number; storedSequence: number }> } }).output.stored ?? [];
            const saves = api.save.mock.calls.at(-1)![1] as QueuedSave[];
            saveCalls.at(-1)!.resolve({
              timing: serverTiming(),
              results: saves.map((s) => {
                const higher = stored.find((x) => x.itemNumber === s.itemNumber);
                return { saveId: s.saveId, itemNumber: s.itemNumber, applied: !higher, storedSequence: higher?.storedSequence ?? s.sequence };
              }),
            });
            await settle();
          } else if (step === 'error.saveBatch') {
            const status = (event as EventObject & { error: { status: number | null } }).error.status;
            saveCalls.at(-1)!.reject(status === null ? new Error('Network Error') : { status, title: 'The delivery is paused' });
            await settle();
          } else if (step.startsWith('after.')) {
            // Until a millisecond before the table's duration nothing moves; then the step.
            const ms = independent.delay(step.slice('after.'.length))!;
            const unmoved = shows();
            await wait(delayFrom + ms - Date.now() - 1);
            expect(shows(), `${trail.join(' → ')}: 1 ms before ${step}`).toEqual(unmoved);
            await wait(1);
          } else if (step !== 'xstate.init') throw new Error(`no way on the screen to cause ${step}`);

          independent.check(event, autosave().getSnapshot(), trail.join(' → '));
          const facts = independent.facts;
          if (independent.state !== before || (step === 'answer' && before === 'waiting')) delayFrom = Date.now();
          if (before !== 'held' && independent.state === 'held') refusals += 1;
          // The screen: the indicator, the saves kept for a reload, and a fresh read of the delivery per refusal.
          const indicator = screen.getByTestId('autosave-indicator');
          expect(indicator.textContent, trail.join(' → ')).toBe(indicatorText(independent.state, facts));
          expect(
            queuedSaves(DELIVERY_ID)
              .map((s) => [s.itemNumber, s.sequence])
              .sort((a, b) => a[0] - b[0]),
            `${trail.join(' → ')}: the saves kept for a reload`,
          ).toEqual(Object.entries(facts.waiting).map(([item, sequence]) => [Number(item), sequence]));
          expect(api.get, `${trail.join(' → ')}: the delivery read on opening and on each refusal`).toHaveBeenCalledTimes(1 + refusals);
        }
        cleanup();
        vi.useRealTimers();
      });
    },
  );
});

// ---- the sitting ---------------------------------------------------------------------------

/** A server answer's time left as the screen shows it: whole seconds rounded up, hh:mm:ss. */
function shownTime(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
}

/** An invigilator's pause, resume or extension reaching the screen over the hub: the screen reads the delivery again. */
let pushCursor = 0;
function pushDeliveryChanged(status: Timing['status']) {
  pushCursor += 1;
  act(() =>
    publishRealtime({
      type: 'event',
      frame: {
        type: 'event',
        cursor: pushCursor,
        kind: 'delivery.changed',
        ticketId: null,
        data: { deliveryId: DELIVERY_ID, event: status === 'Paused' ? 'delivery.pause' : 'delivery.resume', status },
        at: new Date().toISOString(),
      },
    }),
  );
}

/** The timing of a model event as the server sends it now: its clock has moved on with the browser's since `openedAt`. */
function servedNow(event: EventObject, openedAt: number): Timing {
  const { timing } = event as EventObject & { timing: Pick<Timing, 'status' | 'serverNow' | 'deadline' | 'remainingMs'> };
  return serverTiming({ ...timing, serverNow: new Date(Date.parse(timing.serverNow) + Date.now() - openedAt).toISOString() });
}

const sittingPaths = sittingTestPaths();
/** The model's sitting opens online with the clock running. */
const sittingFacts = (): SittingFacts => ({ network: 'online', clock: 'running' });

describe('sitting paths through the candidate screen (jsdom)', () => {
  const recorder = replayRecorder(sittingMachine, 'jsdom', true);
  afterAll(() => void recorder.write());

  it('should walk every generated path on the screen, each step as the sitting’s table says', async () => {
    expect(rulesNoPathTakes(sittingExpectation, sittingFacts, sittingPaths)).toEqual([]);
    for (const path of sittingPaths)
      await recorder.run(path, async () => {
        vi.useFakeTimers();
        vi.setSystemTime(sittingModelInput.receivedAt);
        vi.clearAllMocks();
        // The model's sitting opens with no saves kept from before.
        keepQueue(DELIVERY_ID, []);
        // The line's calls are never answered: their answers would bring timings the path does not choose.
        api.telemetry.mockImplementation(() => new Promise(() => undefined));
        const opened = sittingModelInput.timing;
        api.get.mockResolvedValueOnce(delivery(serverTiming({ ...opened })));
        api.submit.mockResolvedValue({ deliveryId: DELIVERY_ID, status: 'Submitted', endedAt: new Date().toISOString(), answered: 0, total: 2 });
        const openedAt = Date.now();
        const sitting = await openScreen();
        const independent = new IndependentExpectation(sittingExpectation, sittingFacts());
        const trail: string[] = [];
        let lastTiming: Timing = serverTiming({ ...opened });
        for (const { event } of path.steps) {
          if (event.type !== 'xstate.init') trail.push(event.type);
          if (event.type === 'offline' || event.type === 'online') {
            act(() => void window.dispatchEvent(new Event(event.type)));
          } else if (event.type === 'report') {
            // The one report the model sends: the window lost focus. On a line that is up and
            // has sent nothing yet (its calls are never answered here) it goes out at once.
            const first = api.telemetry.mock.calls.length === 0 && independent.facts.network === 'online';
            act(() => void window.dispatchEvent(new Event('blur')));
            if (first) expect(api.telemetry).toHaveBeenCalledWith(DELIVERY_ID, [{ kind: 'focusLost' }]);
          } else if (event.type === 'timing') {
            lastTiming = servedNow(event, openedAt);
            api.get.mockResolvedValueOnce(delivery(lastTiming));
            pushDeliveryChanged(lastTiming.status);
          } else if (event.type === 'end') {
            // The candidate submits (an invigilator's end comes as a timing first, and paused
            // the paper is out of reach: no generated path ends a paused sitting).
            expect(lastTiming.status, 'submitted by the candidate while running').toBe('Active');
            act(() => void fireEvent.click(screen.getByTestId('delivery-submit')));
            act(() => void fireEvent.click(screen.getByTestId('submit-confirm-yes')));
          } else if (event.type !== 'xstate.init') throw new Error(`no way on the screen to cause ${event.type}`);
          await settle();
          await settle();

          independent.check(event, sitting.getSnapshot() as AnyMachineSnapshot, trail.join(' → '));
          if (independent.state === 'ended') {
            expect(screen.getByTestId('delivery-receipt')).toBeInTheDocument();
            // After the end nothing is sent: the browser's signals reach no line.
            const calls = api.telemetry.mock.calls.length + api.save.mock.calls.length;
            act(() => void window.dispatchEvent(new Event('blur')));
            act(() => void window.dispatchEvent(new Event('online')));
            await wait(60_000);
            expect(api.telemetry.mock.calls.length + api.save.mock.calls.length, 'calls after the end').toBe(calls);
          } else if (independent.facts.clock === 'stopped') {
            expect(screen.getByTestId('delivery-paused')).toBeInTheDocument();
            expect(screen.getByTestId('delivery-timer').textContent).toBe(`${shownTime(lastTiming.remainingMs)} (paused)`);
          } else {
            expect(screen.queryByTestId('delivery-paused')).toBeNull();
            expect(screen.getByTestId('delivery-timer').textContent).toBe(shownTime(Date.parse(lastTiming.deadline!) - Date.parse(lastTiming.serverNow)));
          }
        }
        cleanup();
        vi.useRealTimers();
      });
  });
});

// ---- the clock -----------------------------------------------------------------------------

const allCountdownPaths = countdownTestPaths();
const countdownFacts = (): CountdownFacts => ({ last: null, browserNow: () => Date.now() });
// Every rule, transition and pair of consecutive steps: a clock that ran on after a pause, or
// stopped after an extension, shows in the step after it.
const countdownPaths = sampleTakingEveryRule(countdownExpectation, countdownFacts, allCountdownPaths, (path) => [
  ...transitionsTakenBy(countdownMachine, [path]),
  ...stepPairs(countdownExpectation, countdownFacts, path),
]);

describe('clock paths through the candidate screen (jsdom)', () => {
  const recorder = replayRecorder(countdownMachine, 'jsdom', true);
  afterAll(() => void recorder.write());

  it('should sample paths with every rule, transition and pair of steps of all the paths', () => {
    const pairs = (paths: typeof allCountdownPaths) => new Set(paths.flatMap((path) => stepPairs(countdownExpectation, countdownFacts, path)));
    expect(rulesNoPathTakes(countdownExpectation, countdownFacts, countdownPaths)).toEqual([]);
    expect(transitionsTakenBy(countdownMachine, countdownPaths).sort()).toEqual(transitionsTakenBy(countdownMachine, allCountdownPaths).sort());
    expect(pairs(countdownPaths)).toEqual(pairs(allCountdownPaths));
    expect(countdownPaths.length).toBeLessThan(allCountdownPaths.length);
  });

  it('should walk the sample on the screen, each step as the spec’s clock says', async () => {
    for (const path of countdownPaths)
      await recorder.run(path, async () => {
        vi.useFakeTimers();
        // This browser's clock is ten minutes behind the server's (the model's clocks).
        vi.setSystemTime(COUNTDOWN_BROWSER_NOW);
        vi.clearAllMocks();
        keepQueue(DELIVERY_ID, []);
        api.telemetry.mockImplementation(() => new Promise(() => undefined));
        // The screen runs a sitting only once the paper has started: the model's clock, stopped
        // with 60 minutes before the start, is here a sitting opened paused with 60 minutes left
        // (either way the server's time left, not counting).
        const opening = serverTiming({ ...countdownModelInput.timing, status: 'Paused' });
        api.get.mockResolvedValueOnce(delivery(opening));
        // The read the screen makes when the clock runs out is not answered: in these paths an
        // extension or a pause comes first (an answer "time up" would end the sitting).
        api.get.mockImplementation(() => new Promise(() => undefined));
        const openedAt = Date.now();
        const sitting = await openScreen();
        const countdown = () => ((sitting.getSnapshot() as AnyMachineSnapshot).children.countdown as AnyActorRef).getSnapshot() as AnyMachineSnapshot;
        const independent = new IndependentExpectation(countdownExpectation, countdownFacts());
        const trail: string[] = [];
        let last = opening;
        let reads = 1;
        const timer = () => screen.getByTestId('delivery-timer').textContent;

        for (const { event } of path.steps) {
          const before = independent.state;
          let step: EventObject = event;
          if (event.type === 'timing') {
            last = servedNow(event, openedAt);
            trail.push(`timing ${last.status} ${last.remainingMs / MIN} min`);
            api.get.mockResolvedValueOnce(delivery(last));
            pushDeliveryChanged(last.status);
            reads += 1;
            await settle();
            // What reached the clock: the server's answer, received now.
            step = { type: 'timing', timing: last, receivedAt: Date.now() } as EventObject;
          } else if (event.type.startsWith('xstate.after.')) {
            trail.push('a second');
            // Until a millisecond before the table's tick nothing moves; then the step.
            const unmoved = { left: countdown().context.leftMs as number, timer: timer() };
            await wait(independent.delay('tick')! - 1);
            expect({ left: countdown().context.leftMs, timer: timer() }, `${trail.join(' → ')}: 1 ms early`).toEqual(unmoved);
            await wait(1);
          } else if (event.type !== 'xstate.init') throw new Error(`no way on the screen to cause ${event.type}`);

          independent.check(step, countdown(), trail.join(' → '));
          // Out of time, the screen saves what is left and asks the server to settle it: one read each time.
          if (independent.state === 'expired' && before !== 'expired') reads += 1;
          await settle();
          expect(api.get, `${trail.join(' → ')}: the delivery read on opening, on each push and on running out`).toHaveBeenCalledTimes(reads);
          const paused = last.status === 'Paused';
          expect(screen.queryByTestId('delivery-paused') !== null, `${trail.join(' → ')}: the paused notice`).toBe(paused);
          const left =
            independent.state === 'running' ? specTimeLeft(independent.facts.last!, Date.now()) : independent.state === 'expired' ? 0 : last.remainingMs;
          expect(timer(), `${trail.join(' → ')}: the timer`).toBe(paused ? `${shownTime(left)} (paused)` : shownTime(left));
        }
        cleanup();
        vi.useRealTimers();
      });
  });
});

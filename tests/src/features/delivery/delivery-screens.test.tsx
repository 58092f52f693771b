import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allPermissions } from '#machines/permissions.ts';
import { deliveryStore, userPermissionsStore } from '#src/app/stores/slices.ts';
import type { Delivery, Timing } from '#src/features/delivery/api/delivery-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { publishRealtime } from '#src/app/realtime/realtime-events.ts';
import { offlineQueueStore } from '#src/features/delivery/lib/offline-queue.ts';
import { candidateDelivery, choiceItem, MIN, renderCandidateScreen, serverTiming } from './candidate-fixture.tsx';
import { deliveryApiMock } from './delivery-api-mock.ts';

const api = deliveryApiMock;
vi.mock('#src/features/delivery/api/delivery-api.ts', async () => ({ deliveryApi: (await import('./delivery-api-mock.ts')).deliveryApiMock }));
const { default: DeliveryPage } = await import('#src/features/delivery/delivery-page.tsx');

/** The browser's clock is ten minutes behind the server's: the timer must not care. */
const SKEW = 10 * MIN;
const timing = (over: Partial<Timing> = {}): Timing => serverTiming(over, SKEW);
/** Three items in two sections, in English and Hindi, options in the order the server shuffled. */
const item = (n: number, stem: string) => choiceItem(n, { stem, withHindi: true, options: ['b', 'a'], shuffle: true });
function delivery(over: Partial<Delivery> = {}): Delivery {
  return candidateDelivery({
    paper: { code: 'MATH', title: 'Unit test', durationMinutes: 60, totalMarks: 3, calculator: false, navigation: 'free', instructions: { en: 'Answer all.' } },
    languages: ['en', 'hi'],
    setLetter: 'B',
    timing: timing(),
    sections: [
      { sectionId: '1', title: 'Section A', instructions: {}, items: [item(1, 'First'), item(2, 'Second')] },
      { sectionId: '2', title: 'Section B', instructions: {}, items: [item(3, 'Third')] },
    ],
    ...over,
  });
}

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['delivery', 'items', 'ui', 'errors', 'users']);
});
beforeEach(() => {
  act(() => userPermissionsStore.trigger.update({ permissions: [...allPermissions] }));
  api.telemetry.mockImplementation(async () => timing());
});
afterEach(() => vi.clearAllMocks());

function renderDelivery() {
  const user = userEvent.setup();
  renderCandidateScreen(DeliveryPage);
  return { user };
}

describe('the candidate screen', { timeout: 30_000 }, () => {
  it('should tell the server at once when the window loses and regains focus, leaves fullscreen, and reconnects', async () => {
    api.get.mockResolvedValue(delivery());
    renderDelivery();
    await screen.findByTestId('question-1');
    expect(api.telemetry).not.toHaveBeenCalled();
    act(() => void window.dispatchEvent(new Event('blur')));
    await waitFor(() => expect(api.telemetry).toHaveBeenCalledWith(41, [{ kind: 'focusLost' }]));
    act(() => void window.dispatchEvent(new Event('focus')));
    await waitFor(() => expect(api.telemetry).toHaveBeenLastCalledWith(41, [{ kind: 'focusRegained' }]));

    // Leaving fullscreen is reported; entering it is not.
    // jsdom has no Fullscreen API: the document says what a browser would.
    let inFullscreen: Element | null = document.body;
    Object.defineProperty(document, 'fullscreenElement', { configurable: true, get: () => inFullscreen });
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    inFullscreen = null;
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    await waitFor(() => expect(api.telemetry).toHaveBeenLastCalledWith(41, [{ kind: 'fullscreenExited' }]));
    expect(api.telemetry).toHaveBeenCalledTimes(3);

    // Offline, the report waits; back online it goes with the reconnect.
    act(() => void window.dispatchEvent(new Event('offline')));
    act(() => void window.dispatchEvent(new Event('blur')));
    expect(api.telemetry).toHaveBeenCalledTimes(3);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() =>
      expect(api.telemetry).toHaveBeenLastCalledWith(41, [{ kind: 'reconnected', details: { offlineMs: expect.any(Number) } }, { kind: 'focusLost' }]),
    );
    delete (document as { fullscreenElement?: unknown }).fullscreenElement;
  });

  it('should wait for the declaration before starting, and count down to the start on the server clock', async () => {
    api.get.mockResolvedValue(
      delivery({ timing: timing({ status: 'Waiting', deadline: null, startsAt: new Date(Date.now() + SKEW + 2 * MIN).toISOString() }) }),
    );
    api.start.mockResolvedValue(timing());
    const { user } = renderDelivery();
    await screen.findByRole('heading', { name: 'Instructions' });
    // The delivery being sat is the delivery slice (spec §4).
    expect(deliveryStore.getSnapshot().context.selected).toMatchObject({ deliveryId: expect.any(Number), status: 'Waiting' });
    expect(screen.getByTestId('waiting-countdown').textContent).toMatch(/^The paper starts in 00:0[12]:\d\d$/);
    expect(screen.getByTestId('delivery-start')).toBeDisabled();
    await user.click(screen.getByRole('checkbox'));
    // Not yet the start time and not admitted: still closed.
    expect(screen.getByTestId('delivery-start')).toBeDisabled();
  });

  it('should answer, mark and clear with the palette states, autosave the newest save per question, and submit with a summary', async () => {
    api.get.mockResolvedValue(delivery({ answers: [{ itemNumber: 3, sequence: 7, response: 'a', marked: false }] }));
    api.save.mockImplementation(async (_id: number, saves: Array<{ saveId: string }>) => ({
      results: saves.map((s) => ({ saveId: s.saveId, applied: true, storedSequence: 1 })),
      timing: timing(),
    }));
    api.submit.mockResolvedValue({ deliveryId: 41, status: 'Submitted', endedAt: new Date().toISOString(), answered: 2, total: 3 });
    const { user } = renderDelivery();
    await screen.findByTestId('question-1');
    // The timer reads the server's deadline with the offset: 30 minutes, though the browser is 10 minutes slow.
    expect(screen.getByRole('timer', { name: 'Time left' }).textContent).toMatch(/^00:(29|30):\d\d$/);
    // The options in the set's order (b before a), from the item bank's rendering.
    const options = within(screen.getByTestId('question-1')).getAllByRole('radio');
    expect(options.map((o) => o.getAttribute('value'))).toEqual(['b', 'a']);
    expect(screen.getByTestId('palette-1').dataset.state).toBe('notAnswered');
    expect(screen.getByTestId('palette-2').dataset.state).toBe('notVisited');
    expect(screen.getByTestId('palette-3').dataset.state).toBe('answered');

    await user.click(screen.getByRole('button', { name: 'Hindi' }));
    expect(screen.getByTestId('question-1')).toHaveAttribute('lang', 'hi');
    await user.click(screen.getByRole('button', { name: 'English' }));
    await user.click(screen.getByTestId('preview-option-a'));
    expect(screen.getByTestId('autosave-indicator').textContent).toBe('Saving…');
    await user.click(screen.getByRole('button', { name: 'Mark for review & next' }));
    expect(screen.getByTestId('palette-1').dataset.state).toBe('answeredMarked');
    expect(screen.getByTestId('palette-1')).toHaveAccessibleName('Question 1: Answered and marked for review');
    await waitFor(() => expect(screen.getByTestId('autosave-indicator').textContent).toBe('Saved'));
    const sent = api.save.mock.calls.flatMap((call) => call[1] as Array<{ itemNumber: number; sequence: number; response: unknown; marked: boolean }>);
    expect(sent.at(-1)).toMatchObject({ itemNumber: 1, response: 'a', marked: true });
    expect(new Set(sent.map((s) => s.itemNumber))).toEqual(new Set([1]));

    await screen.findByTestId('question-2');
    await user.click(screen.getByTestId('preview-option-b'));
    await user.click(screen.getByRole('button', { name: 'Clear response' }));
    expect(screen.getByTestId('palette-2').dataset.state).toBe('notAnswered');
    // A question answered before keeps its sequence: the next save goes above the stored 7.
    await user.click(screen.getByTestId('palette-3'));
    await user.click(screen.getByTestId('preview-option-b'));
    await user.click(screen.getByRole('button', { name: 'Save & next' }));
    await waitFor(() =>
      expect(api.save.mock.calls.flatMap((call) => call[1] as Array<{ itemNumber: number; sequence: number }>).find((s) => s.itemNumber === 3)).toMatchObject({
        sequence: 8,
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByTestId('summary-answered').textContent).toBe('2');
    expect(within(dialog).getByTestId('summary-not-answered').textContent).toBe('1');
    expect(within(dialog).getByTestId('summary-marked').textContent).toBe('1');
    await user.click(within(dialog).getByRole('button', { name: 'Submit now' }));
    await screen.findByTestId('delivery-receipt');
    expect(screen.getByTestId('receipt-answered').textContent).toBe('2 of 3');
  });

  it('should open at 150 % for an approved large-print accommodation, and let the candidate change the text size', async () => {
    api.get.mockResolvedValue(delivery({ largePrint: true }));
    const { user } = renderDelivery();
    const question = await screen.findByTestId('question-1');
    expect(question.getAttribute('data-text-size')).toBe('150');
    expect(question.style.zoom).toBe('1.5');
    const sizes = within(screen.getByRole('group', { name: 'Text size' }));
    expect(sizes.getByRole('button', { name: '150%' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(sizes.getByRole('button', { name: '200%' }));
    expect(screen.getByTestId('question-1').style.zoom).toBe('2');
    expect(sizes.getByRole('button', { name: '150%' })).toHaveAttribute('aria-pressed', 'false');
    // The size holds from question to question.
    await user.click(screen.getByRole('button', { name: 'Save & next' }));
    expect((await screen.findByTestId('question-2')).style.zoom).toBe('2');
  });

  it('should follow the invigilator in the waiting room (a hub push): admitted early it may start, terminated it shows the end', async () => {
    const waiting = (over: Partial<Timing> = {}) =>
      delivery({ timing: timing({ status: 'Waiting', deadline: null, startsAt: new Date(Date.now() + SKEW + 20 * MIN).toISOString(), ...over }) });
    api.get.mockResolvedValueOnce(waiting());
    const { user } = renderDelivery();
    await screen.findByRole('heading', { name: 'Instructions' });
    await user.click(screen.getByRole('checkbox'));
    expect(screen.getByTestId('delivery-start')).toBeDisabled();
    const push = (event: string, status: string, cursor: number) =>
      act(() =>
        publishRealtime({
          type: 'event',
          frame: { type: 'event', cursor, kind: 'delivery.changed', ticketId: null, data: { deliveryId: 41, event, status }, at: new Date().toISOString() },
        }),
      );
    api.get.mockResolvedValueOnce(waiting({ admitted: true }));
    push('delivery.admit', 'Waiting', 1);
    await waitFor(() => expect(screen.getByTestId('waiting-countdown')).toHaveTextContent('You may start now.'));
    // The declaration given before the push still stands.
    expect(screen.getByTestId('delivery-start')).toBeEnabled();

    api.get.mockResolvedValueOnce(waiting({ status: 'Terminated', admitted: true, remainingMs: 0, endedAt: new Date().toISOString() }));
    api.receipt.mockResolvedValue({ deliveryId: 41, status: 'Terminated', endedAt: new Date().toISOString(), answered: 0, total: 3 });
    push('delivery.terminate', 'Terminated', 2);
    expect(await screen.findByTestId('delivery-receipt')).toHaveTextContent('The invigilator ended this exam.');
  });

  it('should freeze at once when the invigilator pauses (a hub push), and go on when resumed', async () => {
    api.get.mockResolvedValueOnce(delivery());
    renderDelivery();
    await screen.findByTestId('question-1');
    expect(screen.queryByTestId('delivery-paused')).toBeNull();
    const push = (status: string, cursor: number) =>
      act(() =>
        publishRealtime({
          type: 'event',
          frame: {
            type: 'event',
            cursor,
            kind: 'delivery.changed',
            ticketId: null,
            data: { deliveryId: 41, event: 'delivery.pause', status },
            at: new Date().toISOString(),
          },
        }),
      );
    // Another delivery's push changes nothing here.
    api.get.mockResolvedValue(delivery({ timing: timing({ status: 'Paused', deadline: null, remainingMs: 20 * MIN }) }));
    act(() =>
      publishRealtime({
        type: 'event',
        frame: {
          type: 'event',
          cursor: 1,
          kind: 'delivery.changed',
          ticketId: null,
          data: { deliveryId: 99, event: 'delivery.pause', status: 'Paused' },
          at: '',
        },
      }),
    );
    expect(api.get).toHaveBeenCalledTimes(1);
    push('Paused', 2);
    expect(await screen.findByTestId('delivery-paused')).toHaveTextContent('The invigilator has paused the exam.');
    api.get.mockResolvedValue(delivery());
    push('Active', 3);
    await waitFor(() => expect(screen.queryByTestId('delivery-paused')).toBeNull());

    // Terminated: the screen shows the end from the receipt, and does not try to submit it.
    api.get.mockResolvedValue(delivery({ timing: timing({ status: 'Terminated', deadline: null, remainingMs: 0, endedAt: new Date().toISOString() }) }));
    api.receipt.mockResolvedValue({ deliveryId: 41, status: 'Terminated', endedAt: new Date().toISOString(), answered: 0, total: 3 });
    push('Terminated', 4);
    expect(await screen.findByTestId('delivery-receipt')).toHaveTextContent('The invigilator ended this exam.');
    expect(api.submit).not.toHaveBeenCalled();
  });

  it('should keep an answer saved offline over a reload, show it, and send it with its own save id once back', async () => {
    api.get.mockResolvedValue(delivery({ answers: [{ itemNumber: 2, sequence: 4, response: 'a', marked: false }] }));
    api.save.mockRejectedValue(new Error('Network Error'));
    const first = renderDelivery();
    await screen.findByTestId('question-1');
    await first.user.click(screen.getByTestId('preview-option-b'));
    await waitFor(() => expect(screen.getByTestId('autosave-indicator').textContent).toBe('Offline, 1 answer waiting'));
    // Kept in the encrypted client state (persisted with the other slices), not only in memory.
    const kept = offlineQueueStore.getSnapshot().context.queues[41];
    expect(kept).toEqual([{ saveId: expect.any(String), itemNumber: 1, sequence: 1, response: 'b', marked: false }]);

    // The tab reloads while still offline: the same answer is on screen and waits again.
    cleanup();
    renderDelivery();
    await screen.findByTestId('question-1');
    expect(screen.getByTestId('preview-option-b').getAttribute('data-state')).toBe('checked');
    await waitFor(() => expect(screen.getByTestId('autosave-indicator').textContent).toBe('Offline, 1 answer waiting'));

    // Back online: the kept save goes with its own id (a save the server took before answers as before).
    api.save.mockImplementation(async (_id: number, saves: Array<{ saveId: string; itemNumber: number; sequence: number }>) => ({
      timing: timing(),
      results: saves.map((save) => ({ saveId: save.saveId, itemNumber: save.itemNumber, applied: true, storedSequence: save.sequence })),
    }));
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.getByTestId('autosave-indicator').textContent).toBe('Saved'));
    expect(api.save).toHaveBeenLastCalledWith(41, [expect.objectContaining({ saveId: kept[0].saveId, itemNumber: 1, sequence: 1, response: 'b' })]);
    expect(offlineQueueStore.getSnapshot().context.queues[41]).toBeUndefined();
  });

  it('should say offline with the number of answers waiting when saves fail, and submit by itself at time up', async () => {
    // A real clock: the window must outlast the render and two clicks on a loaded machine (1.5 s did not).
    api.get.mockResolvedValueOnce(delivery({ timing: timing({ deadline: new Date(Date.now() + SKEW + 4000).toISOString(), remainingMs: 4000 }) }));
    api.get.mockResolvedValue(delivery({ timing: timing({ status: 'TimeUp', deadline: null, remainingMs: 0 }) }));
    api.save.mockRejectedValue(new Error('Network Error'));
    api.receipt.mockResolvedValue({ deliveryId: 41, status: 'TimeUp', endedAt: new Date().toISOString(), answered: 0, total: 3 });
    const { user } = renderDelivery();
    await screen.findByTestId('question-1');
    await user.click(screen.getByTestId('preview-option-a'));
    await user.click(screen.getByRole('button', { name: 'Save & next' }));
    await waitFor(() => expect(screen.getByTestId('autosave-indicator').textContent).toBe('Offline, 1 answer waiting'));
    await screen.findByTestId('delivery-time-up', {}, { timeout: 10_000 });
    expect(screen.getByTestId('delivery-time-up').textContent).toBe('The time is up: your answers were submitted automatically.');
    expect(api.submit).not.toHaveBeenCalled();
  });
});

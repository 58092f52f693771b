import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { publishRealtime } from '#src/app/realtime/realtime-events.ts';
import type { ConsoleRow } from '#src/features/delivery/api/delivery-api.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';
import { chooseSeason, pickRoom, setUpInvigilatorRoom } from './room-fixture.ts';

const consoleApi = vi.hoisted(() => ({ room: vi.fn(), act: vi.fn(), verify: vi.fn() }));
const seasonsApi = vi.hoisted(() => ({ all: vi.fn(), schedule: vi.fn(), centers: vi.fn() }));
vi.mock('#src/features/delivery/api/delivery-api.ts', () => ({ consoleApi, deliveryApi: {} }));
vi.mock('#src/features/seasons/api/seasons-api.ts', () => ({ seasonsApi, registrationsApi: {}, centersApi: {} }));
const { default: ConsolePage } = await import('#src/features/delivery/console-page.tsx');

const row = (over: Partial<ConsoleRow> = {}): ConsoleRow => ({
  deliveryId: 41,
  registrationId: 3,
  rollNumber: 'MOCK0001',
  candidateName: 'Kavya Shah',
  centerId: 1,
  timing: {
    status: 'Active',
    serverNow: '2027-03-10T05:00:00.000Z',
    startsAt: '2027-03-10T04:30:00.000Z',
    deadline: '2027-03-10T05:30:00.000Z',
    remainingMs: 30 * 60_000,
    allowedMs: 60 * 60_000,
    extensionMs: 0,
    admitted: false,
    declared: true,
    endedAt: null,
  },
  answered: 4,
  lastHeartbeat: '2027-03-10T04:59:30.000Z',
  alerts: 1,
  actions: ['delivery.pause', 'delivery.extend', 'delivery.terminate'],
  ...over,
});

setUpInvigilatorRoom(seasonsApi);
const renderConsole = () => renderAt('/invigilate', { '/invigilate': <ConsolePage /> });

const roomPush = (cursor: number, data: { seasonPaperId: number; centerId: number | null; deliveryId: number; cause: string }) =>
  act(() =>
    publishRealtime({
      type: 'event',
      frame: { type: 'event', cursor, kind: 'delivery.room', ticketId: null, data: { ...data }, at: new Date().toISOString() },
    }),
  );
describe('the invigilator console', { timeout: 30_000 }, () => {
  it('should list a paper’s candidates live and pause, extend with a reason, and terminate with a reason', async () => {
    consoleApi.room.mockResolvedValue([row()]);
    consoleApi.act.mockResolvedValue(row());
    const { user } = renderConsole();
    await screen.findByText('Choose a season and an online paper.');
    await pickRoom(user, 'console', seasonsApi, /MATH-UT-1/);
    const tr = await screen.findByTestId('console-row-41');
    expect(consoleApi.room).toHaveBeenCalledWith(9, undefined);
    expect(
      within(tr)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Kavya ShahMOCK0001', 'In progress', '30 minutes', expect.any(String), '4', '1', 'PauseExtend timeTerminate']);

    await user.click(within(tr).getByRole('button', { name: 'Pause: Kavya Shah' }));
    expect(consoleApi.act).toHaveBeenCalledWith(41, 'delivery.pause');

    await user.click(within(tr).getByRole('button', { name: 'Extend time: Kavya Shah' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('console-dialog-confirm')).toBeDisabled();
    await user.clear(within(dialog).getByLabelText(/Minutes/));
    await user.type(within(dialog).getByLabelText(/Minutes/), '10');
    await user.type(within(dialog).getByLabelText(/Reason/), 'Power cut');
    await user.click(within(dialog).getByTestId('console-dialog-confirm'));
    await waitFor(() => expect(consoleApi.act).toHaveBeenCalledWith(41, 'delivery.extend', { reason: 'Power cut', minutes: 10 }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(screen.getByTestId('console-row-41')).getByRole('button', { name: 'Terminate: Kavya Shah' }));
    const terminate = await screen.findByRole('dialog');
    expect(within(terminate).queryByLabelText(/Minutes/)).toBeNull();
    await user.type(within(terminate).getByLabelText(/Reason/), 'Caught with notes');
    await user.click(within(terminate).getByTestId('console-dialog-confirm'));
    await waitFor(() => expect(consoleApi.act).toHaveBeenCalledWith(41, 'delivery.terminate', { reason: 'Caught with notes' }));
  });

  it('should offer only the papers sat online', async () => {
    consoleApi.room.mockResolvedValue([row()]);
    const { user } = renderConsole();
    await chooseSeason(user, 'console', seasonsApi);
    await user.click(within(screen.getByTestId('console-paper')).getByRole('combobox'));
    // SCI is sat on paper: paper mode keeps its sheet, not the console.
    expect(screen.queryByRole('option', { name: /SCI/ })).toBeNull();
    await user.click(await screen.findByRole('option', { name: /MATH-UT-1/ }));
    await screen.findByTestId('console-row-41');
    expect(consoleApi.room).toHaveBeenCalledWith(9, undefined);
  });

  it('should read the room again at once on a hub push of its center, and not on another room’s', async () => {
    consoleApi.room.mockResolvedValue([row()]);
    const { user } = renderConsole();
    await pickRoom(user, 'console', seasonsApi, /MATH-UT-1/, /AMD01/);
    await waitFor(() => expect(consoleApi.room).toHaveBeenLastCalledWith(9, 1));
    const tr = await screen.findByTestId('console-row-41');
    expect(within(tr).getAllByRole('cell')[4]).toHaveTextContent('4');
    const calls = consoleApi.room.mock.calls.length;

    // Another paper's push, and another center's, change nothing here.
    roomPush(10, { seasonPaperId: 10, centerId: 1, deliveryId: 77, cause: 'delivery.save' });
    roomPush(11, { seasonPaperId: 9, centerId: 2, deliveryId: 78, cause: 'delivery.save' });
    expect(consoleApi.room).toHaveBeenCalledTimes(calls);

    consoleApi.room.mockResolvedValue([
      row({ answered: 5, alerts: 2, timing: { ...row().timing, status: 'Paused', deadline: null }, actions: ['delivery.resume'] }),
    ]);
    roomPush(12, { seasonPaperId: 9, centerId: 1, deliveryId: 41, cause: 'telemetry.focusLost' });
    await waitFor(() => expect(within(screen.getByTestId('console-row-41')).getAllByRole('cell')[4]).toHaveTextContent('5'));
    expect(consoleApi.room).toHaveBeenCalledTimes(calls + 1);
    const cells = within(screen.getByTestId('console-row-41')).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent('Paused');
    expect(cells[5]).toHaveTextContent('2');
  });

  it('should check an admit card’s code for this paper and admit a valid one', async () => {
    consoleApi.room.mockResolvedValue([row({ timing: { ...row().timing, status: 'Waiting', deadline: null }, actions: ['delivery.admit'] })]);
    consoleApi.act.mockResolvedValue(row());
    const { user } = renderConsole();
    await pickRoom(user, 'console', seasonsApi, /MATH-UT-1/);
    await screen.findByTestId('console-row-41');

    consoleApi.verify.mockResolvedValueOnce({ verdict: 'forged', message: 'forged', candidate: null, registrationId: null, delivery: null });
    const code = screen.getByLabelText(/Admit card code/);
    await user.type(code, 'tampered.code{Enter}');
    expect(await within(screen.getByTestId('admit-check-result')).findByText('Not valid: the code is forged or altered')).toBeInTheDocument();
    expect(consoleApi.verify).toHaveBeenLastCalledWith('tampered.code', 9, undefined);
    expect(screen.queryByTestId('admit-check-admit')).toBeNull();

    consoleApi.verify.mockResolvedValueOnce({
      verdict: 'valid',
      message: 'Kavya Shah, roll number MOCK0001.',
      candidate: { name: 'Kavya Shah', rollNumber: 'MOCK0001', examName: 'Maths', center: 'Navrangpura School', seatNumber: 12 },
      registrationId: 3,
      delivery: row({ timing: { ...row().timing, status: 'Waiting', deadline: null }, actions: ['delivery.admit'] }),
    });
    await user.clear(code);
    await user.type(code, 'eyJ0.sig');
    await user.click(screen.getByTestId('admit-check-verify'));
    const result = screen.getByTestId('admit-check-result');
    expect(await within(result).findByText('Valid for this paper')).toBeInTheDocument();
    expect(result).toHaveTextContent('Kavya Shah, roll number MOCK0001, Navrangpura School, seat 12');
    expect(result).toHaveTextContent('Their exam: Not started');
    const calls = consoleApi.room.mock.calls.length;
    await user.click(within(result).getByRole('button', { name: 'Admit Kavya Shah' }));
    expect(consoleApi.act).toHaveBeenCalledWith(41, 'delivery.admit');
    expect(await within(result).findByText('Admitted: the candidate may start now.')).toBeInTheDocument();
    expect(consoleApi.room.mock.calls.length).toBeGreaterThan(calls);
    expect(screen.queryByTestId('admit-check-admit')).toBeNull();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PaperSheet, PaperSheetRow } from '#src/features/delivery/api/delivery-api.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';
import { chooseSeason, pickRoom, setUpInvigilatorRoom } from './room-fixture.ts';

const paperApi = vi.hoisted(() => ({ sheet: vi.fn(), enter: vi.fn() }));
const seasonsApi = vi.hoisted(() => ({ all: vi.fn(), schedule: vi.fn(), centers: vi.fn() }));
const registrationsApi = vi.hoisted(() => ({ transition: vi.fn() }));
vi.mock('#src/features/delivery/api/delivery-api.ts', () => ({ paperApi, consoleApi: {}, deliveryApi: {} }));
vi.mock('#src/features/seasons/api/seasons-api.ts', () => ({ seasonsApi, registrationsApi, centersApi: {} }));
const { default: PaperSittingPage } = await import('#src/features/delivery/paper-sitting-page.tsx');

const candidate = (over: Partial<PaperSheetRow> = {}): PaperSheetRow => ({
  registrationId: 3,
  rollNumber: 'PAPR0001',
  candidateName: 'Kavya Shah',
  centerId: 1,
  attendance: 'AdmitCardIssued',
  registrationVersion: 4,
  setLetter: 'B',
  deliveryId: null,
  marks: {},
  total: null,
  resultStatus: null,
  ...over,
});
const sheet = (rows: PaperSheetRow[]): PaperSheet => ({
  seasonPaperId: 10,
  paperCode: 'SCI',
  sets: {
    B: [
      { number: 1, maxMarks: 2 },
      { number: 2, maxMarks: 4 },
    ],
  },
  candidates: rows,
});

setUpInvigilatorRoom(seasonsApi);
const renderSheet = () => renderAt('/invigilate/paper', { '/invigilate/paper': <PaperSittingPage /> });

describe('the paper sitting sheet', { timeout: 30_000 }, () => {
  it('should mark a candidate present, then enter marks per question within their maximum', async () => {
    paperApi.sheet.mockResolvedValueOnce(sheet([candidate()]));
    registrationsApi.transition.mockResolvedValue({ record: {} });
    const { user } = renderSheet();
    await chooseSeason(user, 'paper', seasonsApi);
    // Only the papers sat on paper are offered.
    await user.click(within(screen.getByTestId('paper-paper')).getByRole('combobox'));
    expect(screen.queryByRole('option', { name: /MATH-UT-1/ })).toBeNull();
    await user.click(await screen.findByRole('option', { name: /SCI/ }));
    const tr = await screen.findByTestId('paper-row-3');
    expect(paperApi.sheet).toHaveBeenCalledWith(10, undefined);
    expect(tr).toHaveTextContent('Not marked');

    paperApi.sheet.mockResolvedValue(sheet([candidate({ attendance: 'Attended', registrationVersion: 5 })]));
    await user.click(within(tr).getByRole('button', { name: 'Present: Kavya Shah' }));
    expect(registrationsApi.transition).toHaveBeenCalledWith(3, 'registration.markAttended', 4);
    await waitFor(() => expect(screen.getByTestId('paper-row-3')).toHaveTextContent('Present'));

    await user.click(within(screen.getByTestId('paper-row-3')).getByRole('button', { name: 'Enter marks: Kavya Shah' }));
    const form = await screen.findByTestId('paper-marks-form');
    expect(within(form).getByRole('heading')).toHaveTextContent('Marks of Kavya Shah (set B)');
    await user.type(within(form).getByLabelText(/Question 2 \(out of 4\)/), '5');
    expect(within(form).getByText('Between 0 and 4.')).toBeInTheDocument();
    expect(within(form).getByTestId('paper-marks-save')).toBeDisabled();
    await user.clear(within(form).getByLabelText(/Question 2/));
    await user.type(within(form).getByLabelText(/Question 2/), '3.5');
    await user.type(within(form).getByLabelText(/Question 1 \(out of 2\)/), '2');
    paperApi.enter.mockResolvedValue(
      candidate({ attendance: 'Attended', marks: { '1': 2, '2': 3.5 }, total: 5.5, resultStatus: 'Provisional', deliveryId: 8 }),
    );
    await user.click(within(form).getByTestId('paper-marks-save'));
    await waitFor(() =>
      expect(paperApi.enter).toHaveBeenCalledWith(10, 3, [
        { itemNumber: 1, marks: 2 },
        { itemNumber: 2, marks: 3.5 },
      ]),
    );
    expect(await within(form).findByText('Saved: the result is scored again.')).toBeInTheDocument();
    expect(within(screen.getByTestId('paper-row-3')).getAllByRole('cell')[3]).toHaveTextContent('5.5');
  });

  it('should mark a candidate absent at one center, and offer no marks for them', async () => {
    // The whole room is read first, then the center chosen.
    paperApi.sheet.mockResolvedValue(sheet([candidate({ registrationId: 4, candidateName: 'Aarav Mehta', registrationVersion: 2 })]));
    registrationsApi.transition.mockResolvedValue({ record: {} });
    const { user } = renderSheet();
    await pickRoom(user, 'paper', seasonsApi, /SCI/, /SRT01/);
    await waitFor(() => expect(paperApi.sheet).toHaveBeenLastCalledWith(10, 2));
    const tr = await screen.findByTestId('paper-row-4');
    paperApi.sheet.mockResolvedValue(sheet([candidate({ registrationId: 4, candidateName: 'Aarav Mehta', attendance: 'Absent', registrationVersion: 3 })]));
    await user.click(within(tr).getByRole('button', { name: 'Absent: Aarav Mehta' }));
    expect(registrationsApi.transition).toHaveBeenCalledWith(4, 'registration.markAbsent', 2);
    await waitFor(() => expect(within(screen.getByTestId('paper-row-4')).getAllByRole('cell')[1]).toHaveTextContent('Absent'));
    expect(within(screen.getByTestId('paper-row-4')).queryByRole('button')).toBeNull();
  });

  it('should show the error of the season’s schedule in place of the sheet, and the ask to pick after a retry', async () => {
    seasonsApi.schedule.mockRejectedValueOnce(new Error('schedule unavailable'));
    const { user } = renderSheet();
    await chooseSeason(user, 'paper', seasonsApi);
    const error = await screen.findByTestId('error-state');
    expect(error).toHaveTextContent('This could not be loaded.');
    expect(within(screen.getByTestId('paper-paper')).getByRole('combobox')).toBeDisabled();
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Choose a season and a paper sat on paper.')).toBeInTheDocument();
    expect(paperApi.sheet).not.toHaveBeenCalled();
  });
});

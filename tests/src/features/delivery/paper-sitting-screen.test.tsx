import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allPermissions } from '#machines/permissions.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { selectProject } from '#src/app/stores/workspace-selection.ts';
import type { PaperSheet, PaperSheetRow } from '#src/features/delivery/api/delivery-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { chooseOption } from '#tests/src/support/select.ts';
import { testRouter } from '#tests/src/support/test-router.tsx';

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

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['delivery', 'ui', 'errors', 'users']);
});
beforeEach(() => {
  act(() => {
    userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
    selectProject({ projectId: 5, code: 'BOARD', name: 'Board 2027', languages: ['en', 'gu'], status: 'Active' });
  });
  seasonsApi.all.mockResolvedValue({ data: [{ seasonId: 7, name: 'Board 2027 main' }] });
  seasonsApi.centers.mockResolvedValue([]);
  seasonsApi.schedule.mockResolvedValue({
    seasonId: 7,
    papers: [
      { seasonPaperId: 9, paperCode: 'MATH', sitsOn: '2027-03-10', startsAt: '10:00', mode: 'online' },
      { seasonPaperId: 10, paperCode: 'SCI', sitsOn: '2027-03-11', startsAt: '10:00', mode: 'offline' },
    ],
    clashes: [],
  });
});
afterEach(() => {
  vi.clearAllMocks();
  act(() => selectProject(null));
});

describe('the paper sitting sheet', { timeout: 30_000 }, () => {
  it('should mark a candidate present, then enter marks per question within their maximum', async () => {
    paperApi.sheet.mockResolvedValueOnce(sheet([candidate()]));
    registrationsApi.transition.mockResolvedValue({ record: {} });
    const location = testRouter('/invigilate/paper');
    const user = userEvent.setup();
    render(
      <I18nextProvider i18n={i18n}>
        <location.Router>
          <Suspense fallback={null}>
            <Routes>
              <Route path="/invigilate/paper" element={<PaperSittingPage />} />
            </Routes>
          </Suspense>
        </location.Router>
      </I18nextProvider>,
    );
    await chooseOption(user, within(await screen.findByTestId('paper-season')).getByRole('combobox'), 'Board 2027 main');
    await waitFor(() => expect(seasonsApi.schedule).toHaveBeenCalledWith(7));
    // Only the papers sat on paper are offered.
    await user.click(within(screen.getByTestId('paper-paper')).getByRole('combobox'));
    expect(screen.queryByRole('option', { name: /MATH/ })).toBeNull();
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
});

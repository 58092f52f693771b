import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allPermissions } from '#machines/permissions.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { initI18n } from '#src/i18n/i18n.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';
import { chooseOption } from '#tests/src/support/select.ts';

const marking = vi.hoisted(() => ({
  exams: vi.fn(),
  queue: vi.fn(),
  mark: vi.fn(),
  progress: vi.fn(),
  results: vi.fn(),
  moderate: vi.fn(),
  publish: vi.fn(),
  saveSettings: vi.fn(),
}));
vi.mock('#src/features/results/api/results-api.ts', () => ({ myResultsApi: {}, markingApi: marking }));

const { default: MyResultsPage } = await import('#src/features/results/results-page.tsx');

const settings = { answerSheet: true, reevaluationDays: 7, doubleMarkPercent: 10, thirdMarkThreshold: 2 };

beforeAll(async () => {
  await initI18n('en-US');
});
beforeEach(() => {
  vi.clearAllMocks();
  userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
  marking.exams.mockResolvedValue([{ examId: 3, code: 'JEE', name: 'JEE Mock' }]);
  marking.results.mockResolvedValue({ examId: 3, counts: {}, results: [], settings });
  marking.progress.mockResolvedValue({ examId: 3, byEvaluator: [], byItem: [], overall: { mean: 0, sd: 0, count: 0 } });
});

async function openSettings() {
  const rendered = renderAt('/results?view=console', { '/results': <MyResultsPage /> });
  await chooseOption(rendered.user, within(await screen.findByTestId('console-exam')).getByRole('combobox'), 'JEE · JEE Mock');
  await rendered.user.click(await screen.findByTestId('result-settings-open'));
  return { ...rendered, dialog: await screen.findByRole('dialog', { name: 'Result settings' }) };
}

describe("The exam's result settings", () => {
  it('should show the stored settings, save the changed ones and say so', async () => {
    const saved = { answerSheet: false, reevaluationDays: 14, doubleMarkPercent: 25, thirdMarkThreshold: 1.5 };
    marking.saveSettings.mockResolvedValue(saved);
    const { user, dialog } = await openSettings();
    const sheet = within(dialog).getByRole('switch', { name: 'Show candidates their answer sheet' });
    expect(sheet).toBeChecked();
    const days = within(dialog).getByLabelText(/Re-evaluation window/);
    expect(days).toHaveValue(7);
    expect(within(dialog).getByRole('link', { name: /Grade bands and the pass mark/ })).toHaveAttribute('href', '/workspace/exam');
    await user.click(sheet);
    await user.clear(days);
    await user.type(days, '14');
    const share = within(dialog).getByLabelText(/Share marked twice/);
    await user.clear(share);
    await user.type(share, '25');
    const threshold = within(dialog).getByLabelText(/Third-marker threshold/);
    await user.clear(threshold);
    await user.type(threshold, '1.5');
    await user.click(within(dialog).getByTestId('result-settings-save'));
    await waitFor(() => expect(marking.saveSettings).toHaveBeenCalledWith(3, saved));
    expect(await screen.findByRole('status')).toHaveTextContent('Result settings saved.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Opened again, the form starts from what the server saved.
    await user.click(screen.getByTestId('result-settings-open'));
    const again = await screen.findByRole('dialog', { name: 'Result settings' });
    expect(within(again).getByLabelText(/Re-evaluation window/)).toHaveValue(14);
    expect(within(again).getByRole('switch', { name: 'Show candidates their answer sheet' })).not.toBeChecked();
  });

  it('should refuse out-of-range and fractional days before sending, naming the field', async () => {
    const { user, dialog } = await openSettings();
    const days = within(dialog).getByLabelText(/Re-evaluation window/);
    await user.clear(days);
    await user.type(days, '2.5');
    const share = within(dialog).getByLabelText(/Share marked twice/);
    await user.clear(share);
    await user.type(share, '150');
    await user.click(within(dialog).getByTestId('result-settings-save'));
    expect(await within(dialog).findByText('Give a whole number of days.')).toBeInTheDocument();
    expect(within(dialog).getByText('Give a number from 0 to 100.')).toBeInTheDocument();
    expect(marking.saveSettings).not.toHaveBeenCalled();
  });

  it("should keep the dialog open with the server's field error when it refuses", async () => {
    marking.saveSettings.mockRejectedValue(
      Object.assign(new Error('One or more validation errors occurred.'), {
        errors: { thirdMarkThreshold: ['Give the threshold to at most two decimals.'] },
      }),
    );
    const { user, dialog } = await openSettings();
    await user.click(within(dialog).getByTestId('result-settings-save'));
    expect(await within(dialog).findByText('Give the threshold to at most two decimals.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Result settings' })).toBeInTheDocument();
  });
});

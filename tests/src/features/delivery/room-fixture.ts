import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, expect, vi, type Mock } from 'vitest';
import { allPermissions } from '#machines/permissions.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { selectProject } from '#src/app/stores/workspace-selection.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { chooseOption } from '#tests/src/support/select.ts';

/**
 * The set-up the invigilator's screens share (the console and paper mode both open with the
 * RoomPicker): a staff member holding every permission on the board project, and one season
 * with a paper sat online (9, MATH-UT-1), one sat on paper (10, SCI) and two centers.
 */
export const SEASON = 'March 2027 sitting';

export interface SeasonsApiMock {
  all: Mock;
  schedule: Mock;
  centers: Mock;
}

/** Registers the hooks of a test file of an invigilator's screen; call it at the file's top level. */
export function setUpInvigilatorRoom(seasonsApi: SeasonsApiMock) {
  beforeAll(async () => {
    await initI18n('en-US');
    await i18n.loadNamespaces(['delivery', 'ui', 'errors', 'users']);
  });
  beforeEach(() => {
    act(() => {
      userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
      selectProject({ projectId: 5, code: 'BOARD', name: 'Board 2027', languages: ['en', 'gu'], status: 'Active' });
    });
    seasonsApi.all.mockResolvedValue({ data: [{ seasonId: 7, name: SEASON }] });
    seasonsApi.schedule.mockResolvedValue({
      seasonId: 7,
      papers: [
        { seasonPaperId: 9, paperCode: 'MATH-UT-1', sitsOn: '2027-03-10', startsAt: '10:00', mode: 'online' },
        { seasonPaperId: 10, paperCode: 'SCI', sitsOn: '2027-03-11', startsAt: '10:00', mode: 'offline' },
      ],
      clashes: [],
    });
    seasonsApi.centers.mockResolvedValue([
      { seasonId: 7, centerId: 1, code: 'AMD01', name: 'Navrangpura School', city: 'Ahmedabad' },
      { seasonId: 7, centerId: 2, code: 'SRT01', name: 'Adajan School', city: 'Surat' },
    ]);
  });
  afterEach(() => {
    vi.clearAllMocks();
    act(() => selectProject(null));
  });
}

/** Chooses the season in the RoomPicker whose test ids start with `prefix`, and waits for its papers and centers. */
export async function chooseSeason(user: UserEvent, prefix: string, seasonsApi: SeasonsApiMock) {
  await chooseOption(user, within(await screen.findByTestId(`${prefix}-season`)).getByRole('combobox'), SEASON);
  await waitFor(() => expect(seasonsApi.schedule).toHaveBeenCalledWith(7));
  await waitFor(() => expect(seasonsApi.centers).toHaveBeenCalledWith(7));
}

/** Chooses the season, then `paper` and, when given, `center` in the RoomPicker whose test ids start with `prefix`. */
export async function pickRoom(user: UserEvent, prefix: string, seasonsApi: SeasonsApiMock, paper: RegExp, center?: RegExp) {
  await chooseSeason(user, prefix, seasonsApi);
  await chooseOption(user, within(screen.getByTestId(`${prefix}-paper`)).getByRole('combobox'), paper);
  if (center) await chooseOption(user, within(screen.getByTestId(`${prefix}-center`)).getByRole('combobox'), center);
}

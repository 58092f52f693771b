import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PagedQuery } from '#machines/paged-search.machine.ts';
import { allPermissions } from '#machines/permissions.ts';
import { seasonCenterStore, seasonStore, userPermissionsStore } from '#src/app/stores/slices.ts';
import { selectExam, selectProject } from '#src/app/stores/workspace-selection.ts';
import type { Center, OpenSeason, Registration, Schedule, Season } from '#src/features/seasons/api/seasons-api.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { chooseMenuItem, openMenu } from '#tests/src/support/menus.ts';
import { chooseOption } from '#tests/src/support/select.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';

const centers = vi.hoisted(() => ({
  search: vi.fn(),
  active: vi.fn(),
  create: vi.fn(),
  edit: vi.fn(),
  template: vi.fn(),
  import: vi.fn(),
  errorFile: vi.fn(),
}));
const seasons = vi.hoisted(() => ({
  search: vi.fn(),
  all: vi.fn(),
  get: vi.fn(),
  create: vi.fn(),
  edit: vi.fn(),
  transition: vi.fn(),
  schedule: vi.fn(),
  addPaper: vi.fn(),
  editPaper: vi.fn(),
  removePaper: vi.fn(),
  liveSets: vi.fn(),
  sections: vi.fn(),
  centers: vi.fn(),
  giveSeats: vi.fn(),
  removeCenter: vi.fn(),
  allocateAll: vi.fn(),
  issueAdmitCards: vi.fn(),
  batches: vi.fn(),
  rollPattern: vi.fn(),
  setRollPattern: vi.fn(),
}));
const registrations = vi.hoisted(() => ({
  open: vi.fn(),
  register: vi.fn(),
  mine: vi.fn(),
  cancelMine: vi.fn(),
  admitCard: vi.fn(),
  admitCardPdf: vi.fn(),
  uploadDocument: vi.fn(),
  verify: vi.fn(),
  search: vi.fn(),
  transition: vi.fn(),
  allocate: vi.fn(),
  move: vi.fn(),
  accommodations: vi.fn(),
  document: vi.fn(),
  staffAdmitCardPdf: vi.fn(),
  uploadTemplate: vi.fn(),
  bulkUpload: vi.fn(),
  uploads: vi.fn(),
  uploadErrors: vi.fn(),
}));
const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() }));
vi.mock('#src/features/seasons/api/seasons-api.ts', () => ({ centersApi: centers, seasonsApi: seasons, registrationsApi: registrations }));
vi.mock('#src/app/notifications/notify.ts', () => ({ notify: toasts }));

const { default: CentersPage } = await import('#src/features/seasons/centers-page.tsx');
const { default: SeasonPage } = await import('#src/features/seasons/season-page.tsx');
const { default: RegisterPage } = await import('#src/features/seasons/register-page.tsx');
const { default: MyRegistrationsPage } = await import('#src/features/seasons/my-registrations-page.tsx');
const { default: RegistrationsPage } = await import('#src/features/seasons/registrations-page.tsx');
const { default: VerifyPage } = await import('#src/features/seasons/verify-page.tsx');
const { WorkspaceBar } = await import('#src/features/projects/workspace-bar.tsx');

const page = <T,>(rows: T[], query: PagedQuery) => ({
  data: rows,
  currentPage: query.pageNumber,
  totalPages: 1,
  totalCount: rows.length,
  pageSize: query.pageSize,
  hasPreviousPage: false,
  hasNextPage: false,
});
const center = (over: Partial<Center> = {}): Center => ({
  centerId: 1,
  code: 'AHM-001',
  name: 'Navrangpura Public School',
  address: '12 University Road',
  city: 'Ahmedabad',
  state: 'Gujarat',
  capacity: 240,
  cbtCapable: true,
  contactName: '',
  contactPhone: '',
  contactEmail: '',
  isActive: true,
  version: 1,
  createdOn: '2026-11-25T09:00:00.000Z',
  updatedOn: '2026-11-25T09:00:00.000Z',
  updatedBy: null,
  ...over,
});
const season = (over: Partial<Season> = {}): Season => ({
  seasonId: 7,
  projectId: 5,
  code: 'MAR27',
  name: 'March 2027 sitting',
  startsOn: '2027-03-01',
  endsOn: '2027-03-31',
  registrationOpensAt: '2026-11-01T00:00:00.000Z',
  registrationClosesAt: '2027-02-15T00:00:00.000Z',
  rollPattern: '{season}{center}{seq:5}',
  status: 'RegistrationOpen',
  paperCount: 2,
  centerCount: 1,
  seats: 200,
  allocated: 1,
  version: 4,
  createdOn: '2026-11-01T00:00:00.000Z',
  updatedOn: '2026-11-01T00:00:00.000Z',
  updatedBy: null,
  actions: ['season.closeRegistration'],
  canConfigure: true,
  ...over,
});
const registration = (over: Partial<Registration> = {}): Registration => ({
  registrationId: 31,
  projectId: 5,
  seasonId: 7,
  seasonName: 'March 2027 sitting',
  examId: 8,
  examName: 'Mathematics',
  candidate: { userId: 'u1', name: 'Neha Joshi', email: 'neha@example.org' },
  papers: [{ seasonPaperId: 3, paperCode: 'MATH-1', paperTitle: 'Paper I', sitsOn: '2027-03-10', startsAt: '10:00' }],
  medium: 'gu',
  preferredCity: 'Surat',
  accommodations: { extraTimePercent: 25, scribe: false, largePrint: true },
  accommodationStatus: 'requested',
  status: 'Submitted',
  reason: null,
  center: null,
  seatNumber: null,
  rollNumber: null,
  document: null,
  admitCardIssuedAt: null,
  version: 1,
  createdOn: '2026-11-25T09:00:00.000Z',
  updatedOn: '2026-11-25T09:00:00.000Z',
  actions: ['registration.approve', 'registration.reject', 'registration.cancel'],
  ...over,
});
const openSeason: OpenSeason = {
  seasonId: 7,
  projectId: 5,
  projectName: 'Board 2027',
  code: 'MAR27',
  name: 'March 2027 sitting',
  startsOn: '2027-03-01',
  endsOn: '2027-03-31',
  registrationOpensAt: '2026-11-01T00:00:00.000Z',
  registrationClosesAt: '2027-02-15T00:00:00.000Z',
  languages: ['en', 'gu'],
  cities: ['Ahmedabad', 'Surat'],
  exams: [
    {
      examId: 8,
      code: 'MATH',
      name: 'Mathematics',
      papers: [
        { seasonPaperId: 3, paperCode: 'MATH-1', paperTitle: 'Paper I', sitsOn: '2027-03-10', startsAt: '10:00', durationMinutes: 90, mode: 'offline' },
        { seasonPaperId: 4, paperCode: 'MATH-2', paperTitle: 'Paper II', sitsOn: '2027-03-12', startsAt: '10:00', durationMinutes: 90, mode: 'offline' },
      ],
    },
  ],
};

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['seasons', 'users', 'ui', 'errors', 'projects', 'papers', 'items']);
});
beforeEach(() => {
  act(() => {
    userPermissionsStore.trigger.update({ permissions: [...allPermissions] });
    selectProject({ projectId: 5, code: 'BOARD', name: 'Board 2027', languages: ['en', 'gu'], status: 'Active' });
  });
});
afterEach(() => {
  vi.clearAllMocks();
  act(() => selectProject(null));
});

describe('exam centers', { timeout: 30_000 }, () => {
  it('should search with filters kept in the URL and create a center from the dialog', async () => {
    centers.search.mockImplementation(async (query: PagedQuery) => page(query.filters.city === 'Surat' ? [] : [center()], query));
    centers.create.mockImplementation(async (body: Center) => center({ ...body, centerId: 2 }));
    const { user, location } = renderAt('/workspace/centers', { '/workspace/centers': <CentersPage /> });
    expect(await within(await screen.findByTestId('centers-table')).findByText('AHM-001')).toBeInTheDocument();
    await user.type(screen.getByTestId('filter-city'), 'Surat');
    await waitFor(() => expect(location.current()).toBe('/workspace/centers?city=Surat'));
    expect(await screen.findByText('No center matches')).toBeInTheDocument();
    expect(centers.search).toHaveBeenLastCalledWith(expect.objectContaining({ filters: expect.objectContaining({ city: 'Surat' }) }));

    await user.click(screen.getByTestId('centers-new'));
    const dialog = await screen.findByTestId('center-form');
    await user.click(within(dialog).getByTestId('center-save'));
    expect(within(dialog).getByText('Letters, digits, _ . - (up to 32).')).toBeInTheDocument();
    expect(centers.create).not.toHaveBeenCalled();
    await user.type(within(dialog).getByTestId('center-code'), 'SUR-002');
    await user.type(within(dialog).getByTestId('center-name'), 'Adajan School');
    await user.type(within(dialog).getByTestId('center-city'), 'Surat');
    await user.clear(within(dialog).getByTestId('center-capacity'));
    await user.type(within(dialog).getByTestId('center-capacity'), '120');
    await user.click(within(dialog).getByTestId('center-save'));
    await waitFor(() =>
      expect(centers.create).toHaveBeenCalledWith(expect.objectContaining({ code: 'SUR-002', name: 'Adajan School', city: 'Surat', capacity: 120 })),
    );
    expect(toasts.success).toHaveBeenCalledWith('Center SUR-002 saved.');
  });
});

describe('a season', { timeout: 30_000 }, () => {
  const schedule: Schedule = {
    seasonId: 7,
    papers: [
      {
        seasonPaperId: 3,
        seasonId: 7,
        paperId: 11,
        paperCode: 'MATH-1',
        paperTitle: 'Paper I',
        paperStatus: 'Locked',
        examId: 8,
        examName: 'Mathematics',
        sitsOn: '2027-03-10',
        startsAt: '10:00',
        endsAt: '11:30',
        durationMinutes: 90,
        mode: 'offline',
        setAssignment: 'perCenter',
        candidateGroup: 'MATH',
        liveSets: ['A'],
        availableSets: ['A', 'B', 'C'],
        sections: [],
        version: 2,
      },
      {
        seasonPaperId: 4,
        seasonId: 7,
        paperId: 12,
        paperCode: 'MATH-2',
        paperTitle: 'Paper II',
        paperStatus: 'Locked',
        examId: 8,
        examName: 'Mathematics',
        sitsOn: '2027-03-10',
        startsAt: '11:00',
        endsAt: '12:00',
        durationMinutes: 60,
        mode: 'offline',
        setAssignment: 'randomPerCandidate',
        candidateGroup: 'MATH',
        liveSets: ['A'],
        availableSets: ['A'],
        sections: [],
        version: 1,
      },
    ],
    clashes: [{ candidateGroup: 'MATH', sitsOn: '2027-03-10', seasonPaperIds: [3, 4], message: 'clash' }],
  };

  it('should store the season on load, warn of a clash, save live sets, and clear the season when loading fails', async () => {
    seasons.get.mockResolvedValue(season());
    seasons.schedule.mockResolvedValue(schedule);
    seasons.liveSets.mockResolvedValue({ record: { ...schedule.papers[0], liveSets: ['A', 'C'] }, clashes: [] });
    const { user } = renderAt('/workspace/seasons/7', { '/workspace/seasons/:seasonId': <SeasonPage /> });
    expect(await screen.findByRole('heading', { level: 1, name: 'March 2027 sitting' })).toBeInTheDocument();
    expect(seasonStore.getSnapshot().context.selected).toMatchObject({ seasonId: 7, code: 'MAR27' });
    expect(screen.getByTestId('schedule-clashes')).toHaveTextContent('MATH on 2027-03-10: MATH-1 and MATH-2 overlap.');
    expect(screen.getByTestId('season-season.closeRegistration')).toHaveTextContent('Close registration');

    await user.click(screen.getByRole('tab', { name: 'Live sets' }));
    await user.click(within(await screen.findByTestId('sets-MATH-1')).getByText('Set C'));
    await user.click(screen.getByTestId('sets-save-MATH-1'));
    await waitFor(() => expect(seasons.liveSets).toHaveBeenCalledWith(7, 3, ['A', 'C'], 2));
  });

  it('should clear the selected season when it cannot be loaded', async () => {
    act(() => seasonStore.trigger.update({ record: { seasonId: 9 } }));
    seasons.get.mockRejectedValue({ statusCode: 404, messages: ['Season not found.'] });
    seasons.schedule.mockResolvedValue(schedule);
    renderAt('/workspace/seasons/9', { '/workspace/seasons/:seasonId': <SeasonPage /> });
    await screen.findByRole('button', { name: /try again|retry/i });
    expect(seasonStore.getSnapshot().context.selected).toBeNull();
  });
});

describe('a candidate registering', { timeout: 40_000 }, () => {
  async function walk(user: ReturnType<typeof userEvent.setup>) {
    await chooseOption(user, await screen.findByRole('combobox', { name: 'Exam and season' }), /Mathematics · March 2027 sitting/);
    await user.click(screen.getByTestId('register-paper-MATH-2'));
    await user.click(screen.getByTestId('register-next'));
    await user.click(await screen.findByText(/Gujarati/));
    await user.click(screen.getByTestId('register-next'));
    await chooseOption(user, await screen.findByRole('combobox', { name: 'Preferred city' }), 'Surat');
    await user.click(screen.getByTestId('register-next'));
    await user.type(screen.getByTestId('register-extra-time'), '25');
    await user.click(screen.getByTestId('register-large-print'));
    await user.click(screen.getByTestId('register-next'));
  }

  it('should pick exam and papers, medium, city and accommodations, review them and submit', async () => {
    registrations.open.mockResolvedValue([openSeason]);
    registrations.register.mockResolvedValue(registration());
    const { user, location } = renderAt('/registrations/register', { '/registrations/register': <RegisterPage />, '/registrations/mine': <p>mine</p> });
    await walk(user);
    const review = await screen.findByTestId('register-review');
    expect(review).toHaveTextContent('MATH-1');
    expect(review).not.toHaveTextContent('MATH-2');
    expect(review).toHaveTextContent('25% extra time, Large-print paper');
    await user.click(screen.getByTestId('register-submit'));
    await waitFor(() =>
      expect(registrations.register).toHaveBeenCalledWith({
        seasonId: 7,
        examId: 8,
        seasonPaperIds: [3],
        medium: 'gu',
        preferredCity: 'Surat',
        accommodations: { extraTimePercent: 25, scribe: false, largePrint: true },
      }),
    );
    await waitFor(() => expect(location.current()).toBe('/registrations/mine'));
  });

  it('should show the window’s dates when the server refuses the registration as outside the window', async () => {
    registrations.open.mockResolvedValue([openSeason]);
    registrations.register.mockRejectedValue({
      statusCode: 409,
      messages: ['Registration for this season is open from 2026-11-01T00:00:00.000Z to 2027-02-15T00:00:00.000Z.'],
      reason: 'outsideWindow',
      registrationOpensAt: '2026-11-01T00:00:00.000Z',
      registrationClosesAt: '2027-02-15T00:00:00.000Z',
    });
    const { user } = renderAt('/registrations/register', { '/registrations/register': <RegisterPage /> });
    await walk(user);
    await user.click(screen.getByTestId('register-submit'));
    const refusal = await screen.findByTestId('register-refusal');
    expect(refusal).toHaveTextContent(/Registration for this season is open only from .*2026.* to .*2027/);
    expect(refusal).toHaveTextContent(/Nov/);
    expect(refusal).toHaveTextContent(/Feb/);
  });

  it('should say so when no season is open', async () => {
    registrations.open.mockResolvedValue([]);
    renderAt('/registrations/register', { '/registrations/register': <RegisterPage /> });
    expect(await screen.findByText('No registration is open now')).toBeInTheDocument();
  });
});

describe('my registrations', { timeout: 30_000 }, () => {
  it('should show each registration’s state, a rejection’s reason, the roll number and the admit card download', async () => {
    registrations.mine.mockResolvedValue([
      registration({ registrationId: 1, status: 'Rejected', reason: 'The fee was not paid.', actions: [], accommodationStatus: 'none' }),
      registration({
        registrationId: 2,
        status: 'AdmitCardIssued',
        accommodationStatus: 'approved',
        center: { centerId: 1, code: 'SUR-001', name: 'Athwa Lines High School', city: 'Surat', address: '7 Athwa Lines' },
        rollNumber: 'MAR27SUR-00100001',
        seatNumber: 1,
        actions: ['registration.cancel'],
      }),
    ]);
    registrations.admitCardPdf.mockResolvedValue({ blob: new Blob(['%PDF-']), filename: 'admit-card.pdf', contentType: 'application/pdf' });
    renderAt('/registrations/mine', { '/registrations/mine': <MyRegistrationsPage /> });
    expect(await screen.findByTestId('my-status-1')).toHaveTextContent('Rejected');
    expect(screen.getByText('Reason: The fee was not paid.')).toBeInTheDocument();
    expect(screen.getByTestId('my-status-2')).toHaveTextContent('Admit card issued');
    expect(screen.getByTestId('my-roll-2')).toHaveTextContent('MAR27SUR-00100001');
    expect(screen.getByTestId('admit-card-2')).toHaveTextContent('Download admit card');
    expect(screen.queryByTestId('admit-card-1')).toBeNull();
  });
});

describe('the registrations queue', { timeout: 30_000 }, () => {
  it('should approve from the row menu and reject with a reason', async () => {
    seasons.all.mockResolvedValue(page([season()], { keyword: '', pageNumber: 1, pageSize: 100, orderBy: null, filters: {} }));
    registrations.search.mockImplementation(async (query: PagedQuery) => page([registration()], query));
    registrations.transition.mockResolvedValue({ record: registration({ status: 'Approved' }) });
    const { user } = renderAt('/workspace/registrations', { '/workspace/registrations': <RegistrationsPage /> });
    expect(await screen.findByTestId('registration-status-31')).toHaveTextContent('Submitted');
    expect(registrations.search).toHaveBeenCalledWith(expect.objectContaining({ filters: expect.objectContaining({ status: 'Submitted' }) }));
    await chooseMenuItem(user, screen.getByRole('button', { name: 'Actions for Neha Joshi' }), 'Approve');
    await waitFor(() => expect(registrations.transition).toHaveBeenCalledWith(31, 'registration.approve', 1));

    await chooseMenuItem(user, screen.getByRole('button', { name: 'Actions for Neha Joshi' }), 'Reject');
    const dialog = await screen.findByTestId('reason-dialog');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(within(dialog).getByText('Give a reason.')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('reason-text'), 'Photo missing');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(registrations.transition).toHaveBeenCalledWith(31, 'registration.reject', 1, 'Photo missing'));
  });
});

describe('the season in the workspace bar (0236)', { timeout: 40_000 }, () => {
  const emptySchedule = (seasonId: number): Schedule => ({ seasonId, papers: [], clashes: [] });
  const june = season({ seasonId: 8, code: 'JUN27', name: 'June 2027 sitting', status: 'Planned', actions: [] });

  it('should show the opened season in the chain, switch it from its menu and clear it when the project changes', async () => {
    seasons.get.mockImplementation(async (id: number) => (id === 8 ? june : season()));
    seasons.schedule.mockImplementation(async (id: number) => emptySchedule(id));
    seasons.all.mockResolvedValue(page([season(), june], { keyword: '', pageNumber: 1, pageSize: 100, orderBy: null, filters: {} }));
    const { user, location } = renderAt('/workspace/seasons/7', {
      '/workspace/seasons/:seasonId': (
        <>
          <WorkspaceBar />
          <SeasonPage />
        </>
      ),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'March 2027 sitting' })).toBeInTheDocument();
    const bar = screen.getByTestId('workspace-bar');
    await waitFor(() => expect(within(bar).getByTestId('workspace-season')).toHaveTextContent('Season: March 2027 sitting'));
    expect(within(bar).getByTestId('workspace-season')).toHaveAccessibleName('Season: March 2027 sitting. Switch');

    // A center of this season chosen, then another season opened from the bar: the center goes.
    act(() => seasonCenterStore.trigger.select({ record: { seasonId: 7, centerId: 1 } }));
    const menu = await openMenu(user, within(bar).getByTestId('workspace-season'));
    const target = await within(menu).findByRole('menuitem', { name: 'JUN27 · June 2027 sitting' });
    for (let step = 0; step < 6 && menu.getAttribute('aria-activedescendant') !== target.id; step += 1) await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location.current()).toBe('/workspace/seasons/8'));
    expect(await screen.findByRole('heading', { level: 1, name: 'June 2027 sitting' })).toBeInTheDocument();
    expect(seasonStore.getSnapshot().context.selected).toMatchObject({ seasonId: 8, code: 'JUN27' });
    expect(seasonCenterStore.getSnapshot().context.selected).toBeNull();
    expect(within(screen.getByTestId('workspace-bar')).getByTestId('workspace-season')).toHaveTextContent('Season: June 2027 sitting');

    // Another exam keeps the season (it schedules papers of every exam of the project) …
    act(() => selectExam({ examId: 9, code: 'SCI', name: 'Science' }));
    expect(within(screen.getByTestId('workspace-bar')).getByTestId('workspace-season')).toHaveTextContent('June 2027 sitting');
    // … another project clears it.
    act(() => selectProject({ projectId: 6, code: 'JEE', name: 'Entrance 2027', status: 'Active' }));
    expect(seasonStore.getSnapshot().context.selected).toBeNull();
    expect(within(screen.getByTestId('workspace-bar')).getByTestId('workspace-season')).toHaveTextContent('Season: none selected');
  });

  it('should leave the season out of the bar on other screens until one is opened', async () => {
    renderAt('/workspace/papers', { '/workspace/papers': <WorkspaceBar /> });
    const bar = await screen.findByTestId('workspace-bar');
    expect(within(bar).queryByTestId('workspace-season')).toBeNull();
    act(() => seasonStore.trigger.update({ record: { seasonId: 7, projectId: 5, code: 'MAR27', name: 'March 2027 sitting' } }));
    expect(within(bar).getByTestId('workspace-season')).toHaveTextContent('March 2027 sitting');
  });

  it('should open the registrations queue on the opened season, and open a season chosen in the queue', async () => {
    act(() => seasonStore.trigger.update({ record: { ...season() } }));
    seasons.all.mockResolvedValue(page([season(), june], { keyword: '', pageNumber: 1, pageSize: 100, orderBy: null, filters: {} }));
    seasons.centers.mockResolvedValue([]);
    registrations.search.mockImplementation(async (query: PagedQuery) => page([registration()], query));
    const { user } = renderAt('/workspace/registrations', { '/workspace/registrations': <RegistrationsPage /> });
    expect(await screen.findByTestId('registration-status-31')).toBeInTheDocument();
    expect(registrations.search).toHaveBeenCalledWith(expect.objectContaining({ filters: expect.objectContaining({ seasonId: 7, status: 'Submitted' }) }));
    await chooseOption(user, await screen.findByRole('combobox', { name: 'Season' }), 'June 2027 sitting');
    await waitFor(() => expect(registrations.search).toHaveBeenLastCalledWith(expect.objectContaining({ filters: expect.objectContaining({ seasonId: 8 }) })));
    expect(seasonStore.getSnapshot().context.selected).toMatchObject({ seasonId: 8 });
  });
});

describe('the admit card verify screen', { timeout: 30_000 }, () => {
  it('should show who a valid card belongs to, and a forged one as forged', async () => {
    registrations.verify.mockImplementation(async (token: string) =>
      token === 'good.token'
        ? {
            verdict: 'valid',
            message: 'ok',
            candidate: { name: 'Isha Trivedi', rollNumber: 'MAR27AHM-00100001', examName: 'Mathematics', center: 'Navrangpura', seatNumber: 1, papers: [] },
          }
        : { verdict: 'forged', message: 'forged', candidate: null },
    );
    const { user } = renderAt('/admitcards/verify', { '/admitcards/verify': <VerifyPage /> });
    await user.type(await screen.findByTestId('verify-token'), 'good.token');
    await user.click(screen.getByTestId('verify-check'));
    const verdict = await screen.findByTestId('verify-verdict');
    expect(verdict).toHaveAttribute('data-verdict', 'valid');
    expect(screen.getByTestId('verify-name')).toHaveTextContent('Isha Trivedi');
    await user.clear(screen.getByTestId('verify-token'));
    await user.type(screen.getByTestId('verify-token'), 'tampered.token');
    await user.click(screen.getByTestId('verify-check'));
    await waitFor(() => expect(screen.getByTestId('verify-verdict')).toHaveAttribute('data-verdict', 'forged'));
    expect(screen.getByTestId('verify-verdict')).toHaveTextContent('Forged or altered');
  });
});

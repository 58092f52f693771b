import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultRolePermissions, type RoleName } from '#machines/permissions.ts';
import { authUserStore, emptyAuthUser } from '#src/app/auth/auth-user-store.ts';
import { projectStore, userPermissionsStore } from '#src/app/stores/slices.ts';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { renderAt } from '#tests/src/support/render-at.tsx';

/**
 * The dashboards of `/` per role (issue 21), against answers shaped like the demo data
 * (scripts/seed-demo.ts): the HTTP layer is mocked by URL, so each card's own call, its
 * skeleton, its error with retry and its link are what is tested.
 */
const http = vi.hoisted(() => ({ answers: new Map<string, () => Promise<unknown>>(), calls: [] as string[] }));
vi.mock('#src/lib/http/api.ts', () => ({
  serviceApi: () => ({
    get: (url: string) => {
      http.calls.push(url);
      const answer = http.answers.get(url);
      return answer ? answer() : Promise.reject(new Error(`unexpected GET ${url}`));
    },
  }),
}));

const { default: DashboardCardsPage } = await import('#src/features/dashboard/dashboard-cards-page.tsx');

const HOUR = 3_600_000;
const inTwoDays = new Date(Date.now() + 2 * 24 * HOUR + 3 * HOUR + 60_000).toISOString();
const answer = (url: string, body: unknown) => http.answers.set(url, () => Promise.resolve(body));

function signIn(role: RoleName, name = 'Kavya') {
  authUserStore.trigger.set({ session: { ...emptyAuthUser, isLoggedIn: true, authenticated: true, token: 't', user: { user_id: 'u1', name } } });
  userPermissionsStore.trigger.update({ permissions: [...defaultRolePermissions[role]] });
}

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['dashboard', 'seasons', 'ui', 'errors', 'items', 'papers']);
});
beforeEach(() => {
  http.answers.clear();
  http.calls.length = 0;
});
afterEach(() => {
  authUserStore.trigger.set({ session: emptyAuthUser });
  userPermissionsStore.trigger.update({ permissions: [] });
  projectStore.trigger.remove();
});

describe('the candidate dashboard', () => {
  beforeEach(() => {
    answer('/v1/delivery/mine', [
      {
        registrationId: 7,
        seasonPaperId: 3,
        seasonName: 'Summer 2027',
        examName: 'Certificate in Accounting',
        paperCode: 'ACC-1',
        paperTitle: 'Accounting basics',
        startsAt: inTwoDays,
        durationMinutes: 90,
        deliveryId: null,
        status: null,
      },
      // Already submitted: nothing to sit.
      {
        registrationId: 7,
        seasonPaperId: 4,
        seasonName: 'Summer 2027',
        examName: 'Certificate in Accounting',
        paperCode: 'ACC-0',
        paperTitle: 'Mock test',
        startsAt: new Date(Date.now() - HOUR).toISOString(),
        durationMinutes: 30,
        deliveryId: 9,
        status: 'Submitted',
      },
    ]);
    answer('/v1/registration/mine', [
      { registrationId: 7, examName: 'Certificate in Accounting', seasonName: 'Summer 2027', status: 'AdmitCardIssued', rollNumber: 'ACC27-0001' },
      { registrationId: 8, examName: 'Diploma in Statistics', seasonName: 'Summer 2027', status: 'Submitted', rollNumber: null },
    ]);
    answer('/v1/dashboard/results/mine', {
      total: 3,
      results: [
        {
          resultId: 17,
          examName: 'Certificate in Accounting',
          paperTitle: 'Accounting basics',
          status: 'Published',
          percent: 72.5,
          grade: 'B',
          passed: true,
          publishedAt: '2026-11-30T10:00:00Z',
        },
        {
          resultId: 12,
          examName: 'Diploma in Statistics',
          paperTitle: 'Probability',
          status: 'Revised',
          percent: 38,
          grade: null,
          passed: false,
          publishedAt: '2026-11-20T10:00:00Z',
        },
      ],
    });
    answer('/v1/dashboard/tickets/mine', {
      openCount: 2,
      unreadTotal: 2,
      tickets: [
        {
          ticketId: 41,
          title: 'Admit card shows the wrong centre',
          statusId: 2,
          supportGroupName: 'Exam Administration',
          createdAt: '2026-12-01T08:00:00Z',
          updatedAt: '2026-12-01T09:00:00Z',
          unreadCount: 2,
        },
        {
          ticketId: 42,
          title: 'Cannot upload my photo',
          statusId: 1,
          supportGroupName: 'Technical Support',
          createdAt: '2026-12-01T10:00:00Z',
          updatedAt: '2026-12-01T10:00:00Z',
          unreadCount: 0,
        },
      ],
    });
  });

  it('should greet the candidate and show upcoming papers with a countdown, registrations and tickets with unread replies', async () => {
    signIn('Candidate');
    renderAt('/', <DashboardCardsPage />);
    expect(await screen.findByTestId('dashboard-greeting')).toHaveTextContent(/Good (morning|afternoon|evening), Kavya/);
    const papers = await screen.findByTestId('card-upcoming-papers-content');
    expect(within(papers).getAllByTestId('upcoming-paper')).toHaveLength(1);
    expect(within(papers).getByText('Accounting basics')).toBeInTheDocument();
    expect(within(papers).getByTestId('paper-countdown')).toHaveTextContent('Starts in 2 d 3 h');
    expect(within(papers).getByRole('link', { name: 'Admit card' })).toHaveAttribute('href', '/registrations/mine');
    const registrations = await screen.findByTestId('card-registrations-content');
    expect(within(registrations).getByTestId('dashboard-status-7')).toHaveTextContent('Admit card issued');
    expect(within(registrations).getByText(/ACC27-0001/)).toBeInTheDocument();
    const tickets = await screen.findByTestId('card-my-tickets-content');
    expect(within(tickets).getByTestId('my-tickets-summary')).toHaveTextContent('2 open tickets, 2 unread replies');
    expect(within(tickets).getByTestId('unread-41')).toHaveTextContent('2 unread replies');
    expect(within(tickets).queryByTestId('unread-42')).toBeNull();
    expect(within(tickets).getByRole('link', { name: /#41 Admit card shows the wrong centre/ })).toHaveAttribute('href', '/tickets/41');
    // Each card links to its full list.
    expect(within(screen.getByTestId('card-my-tickets')).getByRole('link', { name: 'All my tickets' })).toHaveAttribute('href', '/tickets');
    // No desk cards for a candidate.
    expect(screen.queryByTestId('dashboard-support-agent')).toBeNull();
    expect(http.calls).not.toContain('/v1/dashboard/support/queue');
  });

  it('should show her published results with score, grade and outcome, each opening the result, and link to all of them', async () => {
    signIn('Candidate');
    renderAt('/', <DashboardCardsPage />);
    const results = await screen.findByTestId('card-results-content');
    expect(within(results).getByTestId('my-results-summary')).toHaveTextContent('3 published results');
    const rows = within(results).getAllByTestId('my-result');
    expect(rows.map((li) => li.textContent)).toEqual([
      'Accounting basicsCertificate in Accounting72.5 %, grade BPassed',
      'ProbabilityDiploma in Statistics38 %, grade —Not passedRevised',
    ]);
    expect(within(rows[0]).getByRole('link', { name: 'Accounting basics' })).toHaveAttribute('href', '/results?result=17');
    expect(within(screen.getByTestId('card-results')).getByRole('link', { name: 'All my results' })).toHaveAttribute('href', '/results');
  });

  it('should show a skeleton per card while it loads, and an error with a retry on the card that failed only', async () => {
    let failTickets = true;
    let release: () => void = () => {};
    const registrationsLoaded = new Promise<void>((resolve) => (release = resolve));
    const registrationsAnswer = http.answers.get('/v1/registration/mine')!;
    http.answers.set('/v1/registration/mine', () => registrationsLoaded.then(registrationsAnswer));
    const ticketsAnswer = http.answers.get('/v1/dashboard/tickets/mine')!;
    http.answers.set('/v1/dashboard/tickets/mine', () => (failTickets ? Promise.reject(new Error('Network Error')) : ticketsAnswer()));
    signIn('Candidate');
    const { user } = renderAt('/', <DashboardCardsPage />);
    expect(await screen.findByTestId('card-registrations-skeleton')).toHaveAttribute('role', 'status');
    const error = await screen.findByTestId('card-my-tickets-error');
    expect(error).toHaveTextContent('This card could not load.');
    // The other cards are not affected.
    expect(await screen.findByTestId('card-upcoming-papers-content')).toBeInTheDocument();
    await act(async () => release());
    expect(await screen.findByTestId('card-registrations-content')).toBeInTheDocument();
    failTickets = false;
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('card-my-tickets-content')).toHaveTextContent('2 open tickets');
    expect(http.calls.filter((url) => url === '/v1/dashboard/tickets/mine')).toHaveLength(2);
  });

  it('should say so when there is nothing yet', async () => {
    answer('/v1/delivery/mine', []);
    answer('/v1/registration/mine', []);
    answer('/v1/dashboard/tickets/mine', { openCount: 0, unreadTotal: 0, tickets: [] });
    answer('/v1/dashboard/results/mine', { total: 0, results: [] });
    signIn('Candidate');
    renderAt('/', <DashboardCardsPage />);
    expect(await screen.findByText('No paper to sit yet.')).toBeInTheDocument();
    expect(await screen.findByText('No result has been published for you yet.')).toBeInTheDocument();
    expect(await screen.findByText('You have not registered for an exam yet.')).toBeInTheDocument();
    expect(await screen.findByTestId('my-tickets-summary')).toHaveTextContent('0 open tickets, 0 unread replies');
  });
});

describe('the support dashboards', () => {
  beforeEach(() => {
    answer('/v1/dashboard/support/queue', {
      total: 4,
      byStatus: [1, 2, 3, 4, 5, 6, 7].map((statusId) => ({ statusId, count: { 2: 2, 3: 1, 5: 1 }[statusId] ?? 0 })),
    });
    answer('/v1/dashboard/support/waiting', {
      total: 1,
      tickets: [
        {
          ticketId: 41,
          title: 'Admit card shows the wrong centre',
          statusId: 2,
          supportGroupName: 'Exam Administration',
          createdAt: '2026-12-01T08:00:00Z',
          waitingSince: new Date(Date.now() - 3 * HOUR).toISOString(),
        },
      ],
    });
    answer('/v1/dashboard/support/new', {
      total: 2,
      tickets: [
        {
          ticketId: 50,
          title: 'Payment not reflected',
          statusId: 1,
          supportGroupName: 'General Support',
          createdAt: new Date(Date.now() - HOUR).toISOString(),
        },
        {
          ticketId: 49,
          title: 'Password reset mail missing',
          statusId: 1,
          supportGroupName: 'General Support',
          createdAt: new Date(Date.now() - 2 * HOUR).toISOString(),
        },
      ],
    });
    const overview = {
      groups: [
        {
          supportGroupId: 1,
          name: 'General Support',
          total: 5,
          byStatus: [1, 2, 3, 4, 5, 6, 7].map((statusId) => ({ statusId, count: { 1: 3, 2: 2 }[statusId] ?? 0 })),
        },
        {
          supportGroupId: 2,
          name: 'Technical Support',
          total: 1,
          byStatus: [1, 2, 3, 4, 5, 6, 7].map((statusId) => ({ statusId, count: statusId === 4 ? 1 : 0 })),
        },
      ],
      byStatus: [1, 2, 3, 4, 5, 6, 7].map((statusId) => ({ statusId, count: { 1: 3, 2: 2, 4: 1 }[statusId] ?? 0 })),
      oldestOpen: [
        {
          ticketId: 12,
          title: 'Centre changed twice',
          statusId: 4,
          supportGroupName: 'Technical Support',
          createdAt: new Date(Date.now() - 5 * 24 * HOUR).toISOString(),
        },
      ],
    };
    answer('/v1/dashboard/support/overview', overview);
    answer(
      '/v1/dashboard/support/resolved?days=14',
      Array.from({ length: 14 }, (_, i) => ({ day: new Date(Date.now() - (13 - i) * 24 * HOUR).toISOString().slice(0, 10), count: i % 3 })),
    );
  });

  it('should give an agent their queue by status, what waits on them with its age, and what is new in their groups', async () => {
    signIn('SupportAgent', 'Chen');
    renderAt('/', <DashboardCardsPage />);
    const queue = await screen.findByTestId('card-my-queue-content');
    expect(queue).toHaveTextContent('4 tickets assigned to you');
    expect(within(queue).getByTestId('queue-status-InProgress')).toHaveTextContent('In progress2');
    expect(within(queue).getByTestId('queue-status-OnHold')).toHaveTextContent('On hold1');
    const waiting = await screen.findByTestId('card-waiting-on-me-content');
    expect(within(waiting).getByTestId('ticket-row-41')).toHaveTextContent('waiting since 3 hours ago');
    expect(within(waiting).getByRole('link', { name: /#41/ })).toHaveAttribute('href', '/support/tickets/41');
    const fresh = await screen.findByTestId('card-new-in-groups-content');
    expect(fresh).toHaveTextContent('2 tickets no one has taken yet');
    expect(within(fresh).getByTestId('ticket-row-50')).toHaveTextContent('raised 1 hour ago');
    expect(screen.queryByTestId('dashboard-support-admin')).toBeNull();
    expect(screen.queryByTestId('dashboard-candidate')).toBeNull();
  });

  it('should give a support admin the desk by status and group, the oldest open and resolutions per day with a chart', async () => {
    signIn('SupportAdmin', 'Gita');
    renderAt('/', <DashboardCardsPage />);
    const desk = await screen.findByTestId('card-desk-by-status-content');
    expect(within(desk).getByTestId('desk-status-Open')).toHaveTextContent('Open3');
    const table = within(desk).getByTestId('desk-by-group');
    const technical = within(table).getByRole('row', { name: /Technical Support/ });
    expect(
      within(technical)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['0', '0', '0', '1', '0']);
    const oldest = await screen.findByTestId('card-oldest-open-content');
    expect(within(oldest).getByTestId('ticket-row-12')).toHaveTextContent('raised 5 days ago');
    const resolved = await screen.findByTestId('card-resolved-per-day-content');
    const total = Array.from({ length: 14 }, (_, i) => i % 3).reduce((a, b) => a + b, 0);
    expect(within(resolved).getByTestId('resolved-total')).toHaveTextContent(`${total} resolved in the last 14 days`);
    // The chart (lazy) comes with a table of the same figures for screen readers.
    await waitFor(() => expect(within(resolved).getByTestId('resolved-chart')).toBeInTheDocument(), { timeout: 5000 });
    expect(within(resolved).getAllByRole('row')).toHaveLength(15);
    // The agent's own cards are not the admin's.
    expect(screen.queryByTestId('dashboard-support-agent')).toBeNull();
  });

  it('should show nothing to a visitor', async () => {
    renderAt('/', <DashboardCardsPage />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('dashboard-cards')).toBeNull();
    expect(http.calls).toEqual([]);
  });
});

describe('the exam manager dashboard', () => {
  beforeEach(() => {
    answer('/v1/dashboard/exams/items', {
      total: 40,
      byStatus: [
        { status: 'Approved', count: 30 },
        { status: 'Draft', count: 6 },
        { status: 'review', count: 4 },
        { status: 'Retired', count: 2 },
      ],
      languages: [
        { language: 'en', count: 40 },
        { language: 'gu', count: 25 },
      ],
    });
    answer('/v1/dashboard/exams/papers', {
      total: 3,
      byStatus: [
        { status: 'Draft', count: 1 },
        { status: 'Review', count: 0 },
        { status: 'Locked', count: 2 },
        { status: 'Published', count: 0 },
      ],
    });
    answer('/v1/dashboard/exams/centers', [
      { seasonId: 1, seasonName: 'March 2027', centerId: 11, centerName: 'Navrangpura School', city: 'Ahmedabad', capacity: 120, seats: 80, registrations: 2 },
    ]);
    answer('/v1/dashboard/exams/deliveries', [
      { seasonPaperId: 5, seasonName: 'Online mock test', paperTitle: 'Mathematics unit test 1', waiting: 1, active: 3, paused: 1, finished: 2 },
    ]);
    answer('/v1/dashboard/exams/marking', [
      { examId: 3, examName: 'Class 10 Board Examination', scripts: 40, scriptsMarked: 25, tasks: 44, tasksMarked: 29, evaluators: 2 },
      { examId: 4, examName: 'Mathematics unit test', scripts: 1, scriptsMarked: 1, tasks: 0, tasksMarked: 0, evaluators: 0 },
    ]);
  });

  it('should ask for a project when none is selected, and call nothing', async () => {
    signIn('ExamManager', 'Meera');
    renderAt('/', <DashboardCardsPage />);
    expect(await screen.findByTestId('dashboard-exams-choose')).toHaveTextContent('Choose a project');
    expect(http.calls.filter((url) => url.startsWith('/v1/dashboard/exams'))).toEqual([]);
  });

  it("should show the selected project's items by status and language, papers by status, center load and live sittings", async () => {
    signIn('ExamManager', 'Meera');
    projectStore.trigger.select({ record: { projectId: 5, code: 'BOARD10-2027', name: 'Class 10 Board Examination 2027' } });
    renderAt('/', <DashboardCardsPage />);
    const items = await screen.findByTestId('card-items-content');
    expect(within(items).getByTestId('items-status-Approved')).toHaveTextContent('Approved30');
    // A stage of the item flow has no translation: its id shows.
    expect(within(items).getByTestId('items-status-review')).toHaveTextContent('review4');
    const languages = within(items).getByTestId('items-languages');
    expect(
      within(languages)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['English40 of 40', 'Gujarati25 of 40']);
    const papers = await screen.findByTestId('card-papers-content');
    expect(within(papers).getByTestId('papers-status-Locked')).toHaveTextContent('Locked2');
    expect(within(papers).getByTestId('papers-status-Review')).toHaveTextContent('In review0');
    const centers = await screen.findByTestId('card-centers-content');
    expect(within(centers).getByTestId('center-11')).toHaveTextContent('2 of 80 seats (capacity 120) · March 2027');
    const live = await screen.findByTestId('card-deliveries-content');
    expect(within(live).getByTestId('live-5')).toHaveTextContent('Active: 3');
    expect(within(screen.getByTestId('card-deliveries')).getByRole('link', { name: 'Invigilator console' })).toHaveAttribute('href', '/invigilate');
    const marking = await screen.findByTestId('card-marking-content');
    expect(within(marking).getByTestId('marking-3')).toHaveTextContent('Class 10 Board Examination');
    expect(within(marking).getByTestId('marking-3-scripts')).toHaveTextContent('25 of 40 scripts marked');
    expect(within(marking).getByTestId('marking-3')).toHaveTextContent('29 of 44 marking tasks done, 2 evaluators at work');
    expect(within(marking).getByTestId('marking-4-scripts')).toHaveTextContent('1 of 1 script marked');
    expect(within(screen.getByTestId('card-marking')).getByRole('link', { name: 'Marking queue' })).toHaveAttribute('href', '/results?view=marking');
    // No candidate cards for an exam manager.
    expect(screen.queryByTestId('dashboard-candidate')).toBeNull();
  });

  it('should show the marking card failing on its own, and say so when no exam has scripts', async () => {
    http.answers.set('/v1/dashboard/exams/marking', () => Promise.reject(new Error('Network Error')));
    signIn('ExamManager', 'Meera');
    projectStore.trigger.select({ record: { projectId: 5, code: 'BOARD10-2027', name: 'Class 10 Board Examination 2027' } });
    const { user } = renderAt('/', <DashboardCardsPage />);
    const error = await screen.findByTestId('card-marking-error');
    expect(await screen.findByTestId('card-papers-content')).toBeInTheDocument();
    answer('/v1/dashboard/exams/marking', []);
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('card-marking-content')).toHaveTextContent('No exam of this project has scripts yet.');
  });
});

describe('the administrator dashboard', () => {
  beforeEach(() => {
    answer('/v1/dashboard/admin/users', { total: 30, active: 24, awaitingConfirmation: 4, inactive: 2, locked: 1 });
    answer('/v1/dashboard/admin/jobs', {
      byState: [{ state: 'finished', count: 1 }],
      recent: [
        {
          jobId: 'j1',
          fileName: 'march-candidates.xlsx',
          state: 'finished',
          createdAt: '2026-12-01T08:00:00Z',
          createdCount: 48,
          failedCount: 2,
          message: null,
        },
      ],
    });
    answer('/v1/dashboard/admin/directory', { configured: false, directoryUsers: 0, localUsers: 30 });
    answer('/v1/dashboard/admin/sign-in-failures', {
      lastDay: 2,
      recent: [{ email: 'asha.menon@demo.exam-portal.local', reason: 'badPassword', occurredAt: new Date(Date.now() - HOUR).toISOString() }],
    });
    // An administrator also gets the desk's and the project's cards; their calls answer too.
    answer('/v1/dashboard/support/overview', { groups: [], byStatus: [], oldestOpen: [] });
    answer('/v1/dashboard/support/resolved?days=14', []);
  });

  it('should show users by state, bulk uploads, the directory and the recent failed sign-ins', async () => {
    signIn('Admin', 'Ada');
    renderAt('/', <DashboardCardsPage />);
    const users = await screen.findByTestId('card-users-content');
    expect(within(users).getByTestId('users-state-active')).toHaveTextContent('Active24');
    expect(within(users).getByTestId('users-state-awaiting')).toHaveTextContent('Awaiting confirmation4');
    expect(within(users).getByTestId('users-state-locked')).toHaveTextContent('Locked1');
    expect(await screen.findByTestId('card-bulk-jobs-content')).toHaveTextContent(/march-candidates\.xlsxFinished.*48 created, 2 failed/);
    expect(await screen.findByTestId('directory-configured')).toHaveTextContent('No directory configured');
    const failures = await screen.findByTestId('card-sign-in-failures-content');
    expect(within(failures).getByTestId('failures-last-day')).toHaveTextContent('Failed sign-ins in the last 24 hours: 2');
    expect(failures).toHaveTextContent('asha.menon@demo.exam-portal.local');
    expect(within(screen.getByTestId('card-sign-in-failures')).getByRole('link', { name: 'Login history' })).toHaveAttribute('href', '/login-history');
    // No project selected: the project part asks for one.
    expect(screen.getByTestId('dashboard-exams-choose')).toBeInTheDocument();
  });

  it('should hold the users card at its final shape while it loads: the four labelled boxes, grey where the counts go', async () => {
    let release: () => void = () => {};
    const usersLoaded = new Promise<void>((resolve) => (release = resolve));
    const usersAnswer = http.answers.get('/v1/dashboard/admin/users')!;
    http.answers.set('/v1/dashboard/admin/users', () => usersLoaded.then(usersAnswer));
    signIn('Admin', 'Ada');
    renderAt('/', <DashboardCardsPage />);
    const skeleton = await screen.findByTestId('card-users-skeleton');
    expect(skeleton).toHaveAttribute('role', 'status');
    expect(Array.from(skeleton.querySelectorAll('dt'), (dt) => dt.textContent)).toEqual(['Active', 'Awaiting confirmation', 'Locked', 'Inactive']);
    expect(Array.from(skeleton.querySelectorAll('dd'), (dd) => dd.textContent)).toEqual(['', '', '', '']);
    expect(skeleton.querySelectorAll('dd > [aria-hidden="true"]')).toHaveLength(4);
    expect(screen.queryByTestId('users-state-active')).toBeNull();
    await act(async () => release());
    expect(within(await screen.findByTestId('card-users-content')).getByTestId('users-state-active')).toHaveTextContent('Active24');
  });

  it('should not show user administration to a support admin', async () => {
    signIn('SupportAdmin', 'Gita');
    renderAt('/', <DashboardCardsPage />);
    await screen.findByTestId('dashboard-support-admin');
    expect(screen.queryByTestId('dashboard-admin')).toBeNull();
    expect(http.calls.filter((url) => url.startsWith('/v1/dashboard/admin'))).toEqual([]);
  });
});

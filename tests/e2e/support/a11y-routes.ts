import type { Page } from 'playwright-core';
import type { LayoutConfig } from '#src/app/stores/layout-config-store.ts';
import type { AxeCheckOptions } from './axe.ts';
import type { RunningServer } from './server.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { signInContext } from './signed-in-page.ts';
import { chooseOption } from './select.ts';
import { signInInBrowser } from './sign-in.ts';

/**
 * The screens the accessibility audit (tests/e2e/a11y.test.ts) visits, each in light and
 * dark, ltr and rtl. A new screen appends itself here: a path, how to know it is ready, and,
 * when needed, what to do before (sign in, intercept a request) or after loading (open a
 * dialog). Ready checks use roles and the en-IN texts.
 */
export interface AuditedScreen {
  name: string;
  path: string;
  /** Resolves when the screen is drawn and settled. */
  ready: (page: Page) => Promise<void>;
  /** Before the page loads: sign in, route interception … */
  prepare?: (page: Page, server: RunningServer) => Promise<void>;
  /** After ready: open the dialog or menu that is the thing to audit. */
  act?: (page: Page) => Promise<void>;
  viewport?: { width: number; height: number };
  /** Layout settings this screen needs besides the mode and direction under test. */
  layout?: Partial<LayoutConfig>;
  axe?: AxeCheckOptions;
}

const admin = { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD };
const asAdmin = async (page: Page, server: RunningServer) => {
  await signInContext(page.context(), server, admin);
};

const ticketsRaised = new Set<string>();
/** Signs the admin in and makes sure ticket #1 exists (raised once per server). */
const withTicket = async (page: Page, server: RunningServer) => {
  const token = await signInContext(page.context(), server, admin);
  if (ticketsRaised.has(server.url)) return;
  ticketsRaised.add(server.url);
  const res = await fetch(`${server.url}/api/v1/supportticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', tenant: 'root' },
    body: JSON.stringify({ title: 'Audit ticket', description: 'A ticket for the accessibility audit.', supportTicketPriorityId: 3, supportGroupId: 2 }),
  });
  if (res.status !== 201) throw new Error(`raising the audit ticket answered ${res.status}`);
};

const heading =
  (name: string, level = 1) =>
  (page: Page) =>
    page.getByRole('heading', { level, name }).waitFor();

const projectsMade = new Set<string>();
/**
 * Signs the admin in and makes sure two projects exist (once per server): "A11y draft" in Draft
 * (opens the set-up stepper) and "A11y active" made Active, both from the first seeded template.
 */
const withProjects = async (page: Page, server: RunningServer) => {
  const token = await signInContext(page.context(), server, admin);
  if (projectsMade.has(server.url)) return;
  projectsMade.add(server.url);
  const call = async (path: string, body?: unknown, projectId?: number) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(projectId ? { ProjectId: String(projectId) } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown> & Array<Record<string, unknown>>>;
  };
  const [template] = await call('/v1/projecttemplate');
  await call('/v1/project', { code: 'A11Y-DRAFT', name: 'A11y draft', templateId: template.templateId });
  const active = await call('/v1/project', { code: 'A11Y-ACTIVE', name: 'A11y active', templateId: template.templateId });
  const id = active.projectId as number;
  await call(`/v1/project/${id}/status`, { event: 'project.startSetup' }, id);
  await call(`/v1/project/${id}/status`, { event: 'project.activate' }, id);
  const exam = await call('/v1/exam', { code: 'A11Y-EX', name: 'A11y exam' }, id);
  examIds.set(server.url, exam.examId as number);
};
const examIds = new Map<string, number>();

const papersMade = new Set<string>();
/**
 * The projects above, and a Draft paper "A11Y-P1" of the A11y exam (once per server), with
 * instructions in English and Hindi and no section yet: its blueprint warns that the marks do not
 * add up.
 */
const withPaper = async (page: Page, server: RunningServer) => {
  await withProjects(page, server);
  if (papersMade.has(server.url)) return;
  papersMade.add(server.url);
  const token = await signInContext(page.context(), server, admin);
  const res = await fetch(`${server.url}/api/v1/paper`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ExamId: String(examIds.get(server.url)) },
    body: JSON.stringify({
      code: 'A11Y-P1',
      title: 'A11y paper',
      durationMinutes: 60,
      totalMarks: 20,
      instructions: { en: 'Answer every question.', hi: 'सभी प्रश्नों के उत्तर दीजिए।' },
    }),
  });
  if (res.status !== 201) throw new Error(`creating the audit paper answered ${res.status}: ${await res.text()}`);
};
/** Opens the A11y exam's paper A11Y-P1 as a person does: the project, the exam, the papers, the paper. */
const openPaper = (then: (page: Page) => Promise<void>) =>
  openProject('A11y active', async (page) => {
    await heading('Exams of A11y active')(page);
    await page.getByTestId('select-exam-A11Y-EX').click();
    await page.getByTestId('exam-current-A11Y-EX').waitFor();
    await page.goto('/workspace/papers');
    await heading('Papers of A11y exam')(page);
    await page.getByRole('link', { name: 'A11Y-P1' }).click();
    await page.getByRole('heading', { level: 1, name: /A11Y-P1/ }).waitFor();
    await then(page);
  });
const openProject = (name: string, then: (page: Page) => Promise<void>) => async (page: Page) => {
  await page.getByTestId('projects-table').getByRole('button', { name, exact: true }).click();
  await then(page);
};

/** Opens the A11y active project's seasons as a person does. */
const openSeasons = (then: (page: Page) => Promise<void>) =>
  openProject('A11y active', async (page) => {
    await heading('Exams of A11y active')(page);
    await page.goto('/workspace/seasons');
    await page.getByTestId('season-link-A11Y-S').waitFor();
    await then(page);
  });
/** Opens the A11y season from the project's seasons. */
const openSeason = (then: (page: Page) => Promise<void>) =>
  openSeasons(async (page) => {
    await page.getByTestId('season-link-A11Y-S').click();
    await heading('A11y season')(page);
    await then(page);
  });

const seasonsMade = new Set<string>();
/** withProjects, then (once per server) a center and a Planned season "A11y season" of "A11y active" with seats there. */
const withSeason = async (page: Page, server: RunningServer) => {
  await withProjects(page, server);
  const token = await signInContext(page.context(), server, admin);
  if (seasonsMade.has(server.url)) return;
  seasonsMade.add(server.url);
  const call = async (method: string, path: string, body: unknown, projectId?: number) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(projectId ? { ProjectId: String(projectId) } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown> & { data: Array<Record<string, unknown>> }>;
  };
  const projects = await call('POST', '/v1/project/search', { keyword: 'A11Y-ACTIVE' });
  const projectId = projects.data[0].projectId as number;
  const center = await call('POST', '/v1/examcenter', { code: 'A11Y-C1', name: 'A11y school', city: 'Ahmedabad', capacity: 50 });
  const season = await call(
    'POST',
    '/v1/season',
    {
      code: 'A11Y-S',
      name: 'A11y season',
      startsOn: '2027-03-01',
      endsOn: '2027-03-31',
      registrationOpensAt: '2026-11-01T00:00:00.000Z',
      registrationClosesAt: '2027-02-15T00:00:00.000Z',
    },
    projectId,
  );
  await call('PUT', `/v1/season/${season.seasonId as number}/center`, { centerId: center.centerId, seats: 40 }, projectId);
};

export const auditedScreens: AuditedScreen[] = [
  { name: 'dashboard', path: '/', ready: heading('Dashboard') },
  {
    // The administrator's cards of `/` (issue 21): the support desk by status and group, the
    // oldest open, resolutions per day with the chart (loaded after the first content).
    name: 'dashboard cards (administrator)',
    path: '/',
    prepare: asAdmin,
    ready: async (page) => {
      await page.getByTestId('card-desk-by-status-content').waitFor();
      await page.getByTestId('card-oldest-open-content').waitFor();
      // The chart is drawn when it comes near the screen.
      await page.getByTestId('resolved-chart').scrollIntoViewIfNeeded();
      await page.getByTestId('resolved-chart').locator('svg').first().waitFor();
    },
  },
  { name: 'not found', path: '/no/such/page', ready: heading('Page not found') },
  {
    name: 'error screen',
    path: '/broken',
    // The not-found chunk is swapped for a component that throws while rendering.
    prepare: async (page) => {
      await page.route(/\/assets\/not-found-page-[\w-]+\.js$/, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: 'export default function Broken() { throw new Error("audit"); }' }),
      );
    },
    ready: heading('Something Went Wrong!'),
  },
  {
    name: 'theme settings panel',
    path: '/',
    ready: heading('Dashboard'),
    act: async (page) => {
      await page.getByTestId('settings-trigger').click();
      await page.getByRole('dialog', { name: 'Theme settings' }).waitFor();
    },
  },
  {
    name: 'temporary drawer (small screen)',
    path: '/',
    viewport: { width: 800, height: 900 },
    ready: heading('Dashboard'),
    act: async (page) => {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog', { name: 'Main navigation' }).waitFor();
    },
  },
  {
    name: 'machines page (ticket lifecycle, a path highlighted)',
    path: '/machines/ticketLifecycle',
    // The administrator holds Permissions.Machines.View.
    prepare: asAdmin,
    ready: async (page) => {
      await heading('Machines')(page);
      await page.getByRole('img', { name: 'Statechart of ticketLifecycle' }).waitFor({ timeout: 20_000 });
    },
    act: async (page) => {
      await page.getByRole('button', { name: /^Highlight path 1:/ }).click();
    },
  },
  {
    name: 'mini drawer',
    path: '/',
    layout: { miniDrawer: true },
    ready: async (page) => {
      await heading('Dashboard')(page);
      await page.locator('[data-testid=app-drawer][data-variant=mini]').waitFor();
    },
  },
  { name: 'my tickets', path: '/tickets', prepare: asAdmin, ready: heading('My tickets') },
  {
    name: 'raise a ticket dialog',
    path: '/tickets',
    prepare: asAdmin,
    ready: heading('My tickets'),
    act: async (page) => {
      await page.getByRole('button', { name: 'Raise a ticket' }).first().click();
      await page.getByRole('dialog', { name: 'Raise a support ticket' }).waitFor();
    },
  },
  { name: 'ticket page', path: '/tickets/1', prepare: withTicket, ready: heading('Audit ticket') },
  {
    name: 'ticket action dialog',
    path: '/tickets/1',
    prepare: withTicket,
    ready: heading('Audit ticket'),
    act: async (page) => {
      await page.getByRole('group', { name: 'Ticket actions' }).getByRole('button', { name: 'Edit', exact: true }).click();
      await page.getByRole('dialog', { name: 'Edit ticket #1' }).waitFor();
    },
  },
  {
    name: 'ticket conversation (chat and history in one timeline, a message sent)',
    path: '/tickets/1',
    prepare: withTicket,
    ready: async (page) => {
      await heading('Audit ticket')(page);
      await page.getByRole('log', { name: 'Messages and ticket changes' }).getByTestId('timeline-event').first().waitFor();
    },
    act: async (page) => {
      const panel = page.getByTestId('chat-panel');
      await panel.getByLabel('Message', { exact: true }).fill('A message for the accessibility audit.');
      await panel.getByLabel('Message', { exact: true }).press('Enter');
      await panel.getByTestId('chat-delivery').last().filter({ hasText: 'Sent' }).waitFor();
    },
  },
  {
    // Issue 23: on a phone the list's filters fold behind one button; audited opened.
    name: 'my tickets on a phone, filters unfolded',
    path: '/tickets',
    prepare: asAdmin,
    viewport: { width: 390, height: 844 },
    ready: heading('My tickets'),
    act: async (page) => {
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('status-filter').waitFor({ state: 'visible' });
    },
  },
  {
    name: 'support desk',
    path: '/support',
    prepare: asAdmin,
    // The desk once its list has answered: the heading alone can come before the rows and their fade-in.
    ready: async (page) => {
      await heading('Support desk')(page);
      await page.getByTestId('list-skeleton').waitFor({ state: 'detached' });
    },
  },
  { name: 'support groups', path: '/support/groups', prepare: asAdmin, ready: heading('Support groups') },
  // Issue 5: the sign-in and account screens.
  { name: 'sign in', path: '/login', ready: heading('Sign in') },
  {
    name: 'sign-in code step',
    path: '/login',
    ready: heading('Sign in'),
    act: async (page) => {
      await page.getByLabel('E-mail address').fill(TEST_ADMIN_EMAIL);
      await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Continue' }).click();
      await heading('Enter your code')(page);
    },
  },
  { name: 'forgot password', path: '/forgot-password', ready: heading('Forgot your password?') },
  { name: 'reset password', path: '/reset-password?tenant=root&email=a%40example.test&token=t', ready: heading('Choose a new password') },
  { name: 'first-time login', path: '/first-login?tenant=root&email=a%40example.test&token=t', ready: heading('Set your password') },
  { name: 'confirm e-mail (incomplete link)', path: '/confirm-email', ready: heading('Confirm your e-mail address') },
  {
    name: 'registration with errors',
    path: '/register',
    ready: heading('Create an account'),
    act: async (page) => {
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.getByText('Enter your e-mail address.').waitFor();
    },
  },
  {
    name: 'change password',
    path: '/change-password',
    prepare: async (page, server) => {
      await signInInBrowser(page, server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
      await heading('Dashboard')(page);
    },
    ready: heading('Change password'),
  },
  // Issue 6: user administration, roles, login history, bulk upload, the profile.
  { name: 'users', path: '/users', prepare: asAdmin, ready: async (page) => page.getByTestId('users-table').waitFor() },
  {
    name: 'users row actions menu',
    path: '/users',
    prepare: asAdmin,
    ready: async (page) => page.getByTestId('users-table').waitFor(),
    act: async (page) => {
      await page
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click();
      await page.getByRole('menu').waitFor();
    },
  },
  {
    name: 'create user dialog',
    path: '/users',
    prepare: asAdmin,
    ready: async (page) => page.getByTestId('users-table').waitFor(),
    act: async (page) => {
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('dialog', { name: 'Create a user' }).waitFor();
    },
  },
  {
    // Issue 23: the server's verdict on the address (validateemail) shown on the field.
    name: 'create user dialog, the e-mail refused',
    path: '/users',
    prepare: asAdmin,
    ready: async (page) => page.getByTestId('users-table').waitFor(),
    act: async (page) => {
      await page.getByRole('button', { name: 'Create user' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create a user' });
      await dialog.getByRole('textbox', { name: /E-mail address/ }).fill('asha@example');
      await dialog.getByRole('textbox', { name: /User name/ }).focus();
      await dialog.getByText('This is not a valid e-mail address.').waitFor();
    },
  },
  {
    // Issue 23: the roles dialog says what the user holds now (activeroles).
    name: 'roles dialog of a user',
    path: '/users',
    prepare: asAdmin,
    ready: async (page) => page.getByTestId('users-table').waitFor(),
    act: async (page) => {
      const trigger = page.getByRole('button', { name: /^Actions for / }).first();
      await trigger.click();
      await page.getByRole('menuitem', { name: 'Roles', exact: true }).click();
      await page.getByTestId('roles-dialog').getByTestId('active-roles').waitFor();
    },
  },
  { name: 'roles', path: '/roles', prepare: asAdmin, ready: async (page) => page.getByTestId('roles-table').waitFor() },
  { name: 'login history (all)', path: '/login-history', prepare: asAdmin, ready: async (page) => page.getByTestId('login-history-table').waitFor() },
  { name: 'my login history', path: '/account/login-history', prepare: asAdmin, ready: async (page) => page.getByTestId('login-history-table').waitFor() },
  { name: 'bulk upload', path: '/users/bulk-upload', prepare: asAdmin, ready: heading('Bulk upload of users') },
  {
    name: 'my profile',
    path: '/account',
    prepare: asAdmin,
    ready: async (page) => {
      await page.getByText('No languages yet.').or(page.getByTestId('language-list')).waitFor();
      // Issue 21: the profile's details, sessions and sign-ins have loaded too.
      await page.getByTestId('session').first().waitFor();
      await page.getByTestId('sign-in').first().waitFor();
    },
  },
  // Issue 21: the notification center (empty for the admin: the empty state is what axe sees).
  { name: 'notifications', path: '/account?view=notifications', prepare: asAdmin, ready: heading('Notifications') },
  // Issue 15: the exam workspace (projects, exams, the set-up stepper, the team, the workspace bar).
  { name: 'projects', path: '/projects', prepare: withProjects, ready: async (page) => page.getByTestId('projects-table').getByText('A11y draft').waitFor() },
  {
    name: 'new project dialog',
    path: '/projects',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').waitFor(),
    act: async (page) => {
      await page.getByRole('button', { name: 'New project' }).click();
      await page.getByRole('dialog', { name: 'New project' }).waitFor();
    },
  },
  {
    name: 'project set-up stepper',
    path: '/projects?q=A11Y-DRAFT',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y draft').waitFor(),
    act: openProject('A11y draft', async (page) => {
      await heading('Set up A11y draft')(page);
      await page.getByTestId('setup-next').click();
      await page.getByTestId('setup-itemTypes').getByRole('heading').waitFor();
    }),
  },
  {
    name: 'exams of a project, with the workspace bar',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.getByTestId('exams-table').getByText('A11y exam', { exact: true }).waitFor();
      await page.getByTestId('workspace-bar').waitFor();
    }),
  },
  {
    name: 'project team',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/projects/team');
      await heading('Team of A11y active')(page);
      await page.getByTestId('team-table').getByText('Project administrator').waitFor();
    }),
  },
  {
    name: 'workspace overview, with the workspace menu open',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace');
      await heading('Workspace of A11y active')(page);
      await page.getByTestId('workspace-goto').click();
      await page.getByTestId('workspace-goto-menu').getByTestId('goto-papers').waitFor();
    }),
  },
  {
    name: 'review flows editor',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace/flows');
      await heading('Review flows')(page);
      await page.getByTestId('flows-editor').getByRole('form').first().waitFor();
    }),
  },
  {
    name: 'exam details, pass rules and history',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.getByTestId('select-exam-A11Y-EX').click();
      await page.getByTestId('exam-current-A11Y-EX').waitFor();
      await page.goto('/workspace/exam');
      await heading('Exam: A11y exam')(page);
      await page.getByTestId('exam-rules-form').waitFor();
      await page.getByTestId('exam-history').getByRole('row').nth(1).waitFor();
    }),
  },
  {
    name: 'papers of an exam',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withPaper,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.getByTestId('select-exam-A11Y-EX').click();
      await page.getByTestId('exam-current-A11Y-EX').waitFor();
      await page.goto('/workspace/papers');
      await heading('Papers of A11y exam')(page);
      await page.getByTestId('paper-status-A11Y-P1').waitFor();
    }),
  },
  {
    name: 'a draft paper, with the section editor open',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withPaper,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openPaper(async (page) => {
      await page.getByRole('button', { name: 'Add section' }).click();
      await page.getByTestId('section-editor').getByText('No approved item matches.').waitFor();
    }),
  },
  {
    name: 'a draft paper’s blueprint and its warnings',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withPaper,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openPaper(async (page) => {
      await page.getByRole('tab', { name: 'Blueprint' }).click();
      await page.getByTestId('blueprint-warnings').waitFor();
    }),
  },
  {
    name: 'project history',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace/history');
      await heading('History of A11y active')(page);
      await page.getByTestId('project-history').getByRole('row').nth(1).waitFor();
    }),
  },
  {
    name: 'exam centers',
    path: '/workspace/centers',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('centers-table').getByText('A11Y-C1').waitFor(),
  },
  {
    name: 'seasons of a project',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace/seasons');
      await page.getByTestId('season-link-A11Y-S').waitFor();
    }),
  },
  {
    name: 'a season: centers and seats',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace/seasons');
      await page.getByTestId('season-link-A11Y-S').click();
      await heading('A11y season')(page);
      await page.getByRole('tab', { name: 'Centers and seats' }).click();
      await page.getByTestId('season-centers-table').waitFor();
    }),
  },
  {
    name: 'new exam center dialog',
    path: '/workspace/centers',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('centers-table').getByText('A11Y-C1').waitFor(),
    act: async (page) => {
      await page.getByTestId('centers-new').click();
      await page.getByRole('dialog', { name: 'New exam center' }).waitFor();
    },
  },
  {
    name: 'import exam centers dialog',
    path: '/workspace/centers',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('centers-table').getByText('A11Y-C1').waitFor(),
    act: async (page) => {
      await page.getByTestId('centers-import').click();
      await page.getByRole('dialog', { name: 'Import exam centers' }).waitFor();
    },
  },
  {
    name: 'new season dialog',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openSeasons(async (page) => {
      await page.getByTestId('seasons-new').click();
      await page.getByRole('dialog', { name: 'New season' }).waitFor();
    }),
  },
  ...(
    [
      ['schedule (nothing scheduled yet), the season in the workspace bar', 'Schedule', 'No paper is scheduled yet'],
      ['live sets', 'Live sets', 'No paper is scheduled yet'],
      ['section settings', 'Section settings', 'No paper is scheduled yet'],
      ['admit cards', 'Admit cards', 'No admit cards issued in a batch yet.'],
    ] as const
  ).map(([what, tab, ready]): AuditedScreen => ({
    name: `a season: ${what}`,
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openSeason(async (page) => {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel').getByText(ready).waitFor();
      await page.getByTestId('workspace-season').getByText('A11y season').waitFor();
    }),
  })),
  {
    name: 'bulk registration dialog (the queue on the season opened before)',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openSeason(async (page) => {
      await page.getByTestId('workspace-goto').click();
      await page.getByTestId('workspace-goto-menu').getByTestId('goto-registrations').click();
      await heading('Registrations')(page);
      await page.getByTestId('bulk-open').click();
      await page.getByRole('dialog', { name: 'Bulk registration: A11y season' }).waitFor();
    }),
  },
  {
    name: 'roll-number pattern dialog',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace/registrations');
      await heading('Registrations')(page);
      await page.getByTestId('roll-pattern-open').click();
      await page.getByRole('dialog', { name: 'Roll-number pattern' }).waitFor();
    }),
  },
  {
    name: 'registrations queue (empty)',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace/registrations');
      await heading('Registrations')(page);
      await page.getByText('No registration matches').waitFor();
    }),
  },
  {
    // Issue 20: the project was made from the first seeded project template, so it has its three export templates.
    name: 'export templates',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace/export-templates');
      await heading('Export templates')(page);
      await page.getByTestId('export-templates-table').getByText('Result sheet').waitFor();
    }),
  },
  {
    name: 'export template builder',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/workspace/export-templates');
      await page.getByTestId('export-templates-table').getByText('Result sheet').waitFor();
      await page.getByRole('button', { name: 'Edit Result sheet' }).click();
      await page.getByRole('dialog', { name: 'Edit Result sheet' }).waitFor();
      await page.getByTestId('template-column-1').waitFor();
    }),
  },
  // Issue 20's staff screens with no scored delivery (the marking, the console and the candidate's
  // result with data are audited in every theme by tests/e2e/results.test.ts on the demo data).
  {
    name: 'marking queue (no exam chosen)',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/results?view=marking');
      await heading('Marking')(page);
      await page.getByText('Choose an exam to begin.').waitFor();
    }),
  },
  ...([false, true] as const).map((dialog): AuditedScreen => ({
    name: dialog ? 'result settings dialog' : 'results console (an exam without results)',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withProjects,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/results?view=console');
      await heading('Results and moderation')(page);
      await chooseOption(page, page, 'Exam', 'A11Y-EX · A11y exam');
      await page.getByText('No result yet: results appear when candidates submit.').waitFor();
      if (dialog) {
        await page.getByTestId('result-settings-open').click();
        await page.getByRole('dialog', { name: 'Result settings' }).waitFor();
      }
    }),
  })),
  {
    // Issue 19's paper mode with the RoomPicker's season chosen (the season schedules no paper yet);
    // the sheet and the marks form with data are audited in every theme by
    // tests/e2e/delivery-paper.test.ts on the demo data.
    name: 'paper sittings (a season chosen, no paper yet)',
    path: '/projects?q=A11Y-ACTIVE',
    prepare: withSeason,
    ready: async (page) => page.getByTestId('projects-table').getByText('A11y active').waitFor(),
    act: openProject('A11y active', async (page) => {
      await heading('Exams of A11y active')(page);
      await page.goto('/invigilate/paper');
      await heading('Paper sittings')(page);
      await chooseOption(page, page, 'Season', 'A11y season');
      await page.getByText('Choose a season and a paper sat on paper.').waitFor();
    }),
  },
  { name: 'my registrations (none)', path: '/registrations/mine', prepare: asAdmin, ready: heading('My registrations') },
  {
    name: 'register for an exam (none open)',
    path: '/registrations/register',
    prepare: asAdmin,
    ready: async (page) => page.getByText('No registration is open now').waitFor(),
  },
  { name: 'verify an admit card', path: '/admitcards/verify', prepare: asAdmin, ready: heading('Verify an admit card') },
  {
    name: 'my results (none)',
    path: '/results',
    prepare: asAdmin,
    ready: async (page) => page.getByText('No result has been published for you yet.').waitFor(),
  },
];

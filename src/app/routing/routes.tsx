import type { RouteObject } from 'react-router-dom';
import { P } from '#machines/permissions.ts';
import { sliceTitleKey, workspaceSlices } from '#src/features/projects/workspace-slices.ts';
import { DashboardLayout } from '../shell/dashboard-layout.tsx';
import { authRoutes } from './auth-routes.tsx';
import { afterFirstContent } from '../content-rendered.tsx';
import { featurePage, loadPageModules, page, type LazyRouteModule } from './lazy-route.ts';
import type { RouteHandle } from './route-handle.ts';

type Handle = RouteHandle;

/** The workspace's screens (one chunk); a slice without its own screen shows the placeholder. */
type WorkspaceScreen = Exclude<keyof typeof import('#src/features/projects/workspace-pages.tsx'), 'default'>;
const workspaceScreenCache = new Map<string, LazyRouteModule>();
const workspacePage = (name: WorkspaceScreen) => {
  if (!workspaceScreenCache.has(name)) workspaceScreenCache.set(name, featurePage('projects/workspace-pages.tsx', name));
  return workspaceScreenCache.get(name)!;
};
const workspaceScreens: Partial<Record<string, WorkspaceScreen>> = {
  itemTypes: 'ItemTypesPage',
  categories: 'CategoriesPage',
  flows: 'FlowsPage',
  examPermissions: 'MyPermissionsPage',
  templates: 'TemplatesPage',
  examDetails: 'ExamDetailsPage',
  history: 'ProjectHistoryPage',
};

/** Workspace slices with their own routes below (the others map through `workspaceScreens`). */
const ownRoutes = new Set(['papers', 'sections', 'sets', 'seasons', 'registrations', 'centers']);
const sliceHandle = (id: string): Handle => ({
  title: { key: sliceTitleKey({ id }) },
  breadcrumb: { key: sliceTitleKey({ id }) },
  permission: P.Projects.View,
  workspace: true,
});

// The other pages' code table follows the first screen, so moving on does not wait for it.
afterFirstContent(() => void loadPageModules().catch(() => undefined));

/** The dashboard layout and every page inside it: the dashboard and the not-found page load directly, the others through ./page-modules.ts. */
export const dashboardRoute: RouteObject = {
  id: 'dashboard-layout',
  // The shell comes in this chunk, with the dashboard's routes, so the sign-in screens carry neither (docs/decisions/0063, 0180).
  Component: DashboardLayout,
  children: [
    {
      index: true,
      lazy: page(() => import('#src/features/dashboard/dashboard-page.tsx')),
      handle: { title: { key: 'nav.dashboard' }, drawer: { id: 'dashboard', group: 'overview', icon: 'dashboard' } } satisfies Handle,
    },
    {
      path: 'tickets',
      handle: {
        title: { key: 'nav.myTickets' },
        permission: P.SupportTickets.View,
        drawer: { id: 'my-tickets', group: 'support', icon: 'ticket' },
      } satisfies Handle,
      children: [
        { index: true, lazy: featurePage('tickets/my-tickets-page.tsx') },
        {
          path: ':ticketId',
          lazy: featurePage('tickets/ticket-page.tsx'),
          handle: { title: { key: 'page.ticket' } } satisfies Handle,
        },
      ],
    },
    {
      path: 'projects',
      handle: {
        title: { key: 'nav.projects' },
        permission: P.Projects.View,
        drawer: { id: 'projects', group: 'overview', icon: 'dashboard' },
      } satisfies Handle,
      children: [
        { index: true, lazy: featurePage('projects/projects-page.tsx') },
        {
          path: 'setup',
          lazy: featurePage('projects/project-setup-page.tsx'),
          handle: {
            title: { key: 'nav.projectSetup' },
            breadcrumb: { key: 'nav.projectSetup' },
            permission: P.Projects.View,
            workspace: true,
          } satisfies Handle,
        },
        {
          path: 'team',
          lazy: featurePage('projects/team-page.tsx'),
          handle: {
            title: { key: 'nav.projectTeam' },
            breadcrumb: { key: 'nav.projectTeam' },
            permission: P.Projects.View,
            workspace: true,
          } satisfies Handle,
        },
      ],
    },
    {
      path: 'exams',
      lazy: featurePage('projects/exams-page.tsx'),
      handle: {
        title: { key: 'nav.exams' },
        permission: P.Exams.View,
        drawer: { id: 'exams', group: 'overview', icon: 'chart' },
        workspace: true,
      } satisfies Handle,
    },
    {
      path: 'items',
      handle: {
        title: { key: 'nav.items' },
        permission: P.Projects.View,
        drawer: { id: 'items', group: 'overview', icon: 'ticket' },
        workspace: true,
      } satisfies Handle,
      children: [
        { index: true, lazy: featurePage('items/items-page.tsx') },
        {
          path: 'import',
          lazy: featurePage('items/item-import-page.tsx'),
          handle: { title: { key: 'nav.itemImport' }, breadcrumb: { key: 'nav.itemImport' }, permission: P.Projects.View, workspace: true } satisfies Handle,
        },
        {
          path: 'new',
          lazy: featurePage('items/item-editor-page.tsx'),
          handle: { title: { key: 'nav.newItem' }, breadcrumb: { key: 'nav.newItem' }, permission: P.Projects.View, workspace: true } satisfies Handle,
        },
        {
          path: ':itemId',
          lazy: featurePage('items/item-editor-page.tsx'),
          handle: { title: { key: 'nav.item' }, breadcrumb: { key: 'nav.item' }, permission: P.Projects.View, workspace: true } satisfies Handle,
        },
      ],
    },
    {
      // The workspace of the selected project (issue 15): one route per slice of
      // src/features/projects/workspace-slices.ts; slices of later issues show "not yet available".
      path: 'workspace',
      handle: {
        title: { key: 'nav.workspace' },
        permission: P.Projects.View,
        drawer: { id: 'workspace', group: 'overview', icon: 'dashboard' },
        workspace: true,
      } satisfies Handle,
      children: [
        { index: true, lazy: workspacePage('WorkspaceOverviewPage') },
        {
          // The papers of the selected exam (issue 17): the list, one paper (builder, blueprint,
          // flow, sets), and a set's candidate preview.
          path: 'papers',
          handle: {
            title: { key: 'nav.papers' },
            breadcrumb: { key: 'nav.papers' },
            permission: P.Projects.View,
            drawer: { id: 'papers', group: 'overview', icon: 'ticket' },
            workspace: true,
          } satisfies Handle,
          children: [
            { index: true, lazy: featurePage('papers/papers-page.tsx') },
            {
              path: ':paperId',
              handle: { title: { key: 'nav.paper' }, breadcrumb: { key: 'nav.paper' }, permission: P.Projects.View, workspace: true } satisfies Handle,
              children: [
                { index: true, lazy: featurePage('papers/paper-page.tsx') },
                {
                  path: 'sets/:letter',
                  lazy: featurePage('papers/set-preview-page.tsx'),
                  handle: {
                    title: { key: 'nav.setPreview' },
                    breadcrumb: { key: 'nav.setPreview' },
                    permission: P.Projects.View,
                    workspace: true,
                  } satisfies Handle,
                },
              ],
            },
          ],
        },
        { path: 'sections', lazy: featurePage('papers/paper-slices.tsx', 'SectionsSlicePage'), handle: sliceHandle('sections') },
        { path: 'sets', lazy: featurePage('papers/paper-slices.tsx', 'SetsSlicePage'), handle: sliceHandle('sets') },
        // Issue 18: exam centers (tenant-wide), the project's seasons (schedule, live sets, section
        // settings, centers with seats, admit cards) and the registrations' administration.
        { path: 'centers', lazy: featurePage('seasons/centers-page.tsx'), handle: sliceHandle('centers') },
        {
          path: 'seasons',
          handle: sliceHandle('seasons'),
          children: [
            { index: true, lazy: featurePage('seasons/seasons-page.tsx') },
            {
              path: ':seasonId',
              lazy: featurePage('seasons/season-page.tsx'),
              handle: { title: { key: 'nav.season' }, breadcrumb: { key: 'nav.season' }, permission: P.Exams.View, workspace: true } satisfies Handle,
            },
          ],
        },
        { path: 'registrations', lazy: featurePage('seasons/registrations-page.tsx'), handle: sliceHandle('registrations') },
        ...workspaceSlices
          .filter((slice) => slice.path.startsWith('/workspace/') && !ownRoutes.has(slice.id))
          .map((slice) => ({
            path: slice.path.slice('/workspace/'.length),
            lazy: workspacePage(workspaceScreens[slice.id] ?? 'WorkspacePlaceholderPage'),
            handle: {
              title: { key: sliceTitleKey(slice) },
              breadcrumb: { key: sliceTitleKey(slice) },
              permission: P.Projects.View,
              workspace: true,
            } satisfies Handle,
          })),
      ],
    },
    {
      // A candidate's own registrations and admit cards, and registering (issue 18).
      path: 'registrations',
      handle: {
        title: { key: 'nav.myRegistrations' },
        breadcrumb: { key: 'nav.myRegistrations' },
        permission: P.Dashboard.View,
        drawer: { id: 'my-registrations', group: 'overview', icon: 'ticket' },
      } satisfies Handle,
      children: [
        // The drawer's address and the e-mails' /registrations/mine show the same page.
        { index: true, lazy: featurePage('seasons/my-registrations-page.tsx') },
        { path: 'mine', lazy: featurePage('seasons/my-registrations-page.tsx') },
        {
          path: 'register',
          lazy: featurePage('seasons/register-page.tsx'),
          handle: { title: { key: 'nav.registerForExam' }, breadcrumb: { key: 'nav.registerForExam' }, permission: P.Dashboard.View } satisfies Handle,
        },
      ],
    },
    {
      // A candidate sits their papers in the browser (issue 19): the list, then one delivery.
      path: 'sit',
      handle: {
        title: { key: 'nav.sitPaper' },
        breadcrumb: { key: 'nav.sitPaper' },
        permission: P.Dashboard.View,
        drawer: { id: 'sit', group: 'overview', icon: 'ticket' },
      } satisfies Handle,
      children: [
        { index: true, lazy: featurePage('delivery/my-sittings-page.tsx') },
        {
          path: ':deliveryId',
          lazy: featurePage('delivery/delivery-page.tsx'),
          handle: { title: { key: 'nav.sitting' }, breadcrumb: { key: 'nav.sitting' }, permission: P.Dashboard.View } satisfies Handle,
        },
      ],
    },
    {
      // Issue 20, one route for the first-render budget (decision 0254): the candidate's results,
      // ?result= one of them; ?view=marking the evaluators' queue, ?view=console the exam's results.
      path: 'results',
      lazy: featurePage('results/results-page.tsx'),
      handle: { session: true, drawer: { id: 'nav.results', group: 'overview', icon: 'chart' } } satisfies Handle,
    },
    {
      // The invigilator's console of a season paper's deliveries (issue 19).
      path: 'invigilate',
      lazy: featurePage('delivery/console-page.tsx'),
      handle: {
        title: { key: 'nav.invigilate' },
        permission: P.Exams.View,
        workspace: true,
        drawer: { id: 'invigilate', group: 'overview', icon: 'chart' },
      } satisfies Handle,
    },
    {
      // A paper sat on paper: attendance and marks entry per question (issue 19, decision 0249).
      path: 'invigilate/paper',
      lazy: featurePage('delivery/paper-sitting-page.tsx'),
      handle: { title: { key: 'nav.paperSitting' }, permission: P.Exams.View, workspace: true } satisfies Handle,
    },
    {
      // An invigilator checks an admit card's QR code (issue 18).
      path: 'admitcards/verify',
      lazy: featurePage('seasons/verify-page.tsx'),
      handle: {
        title: { key: 'nav.verifyAdmitCard' },
        permission: P.Exams.View,
        drawer: { id: 'verify-admit-card', group: 'overview', icon: 'chart' },
      } satisfies Handle,
    },
    {
      path: 'support',
      handle: {
        title: { key: 'nav.supportDesk' },
        permission: P.SupportTickets.Work,
        drawer: { id: 'support-desk', group: 'support', icon: 'chart' },
      } satisfies Handle,
      children: [
        { index: true, lazy: featurePage('tickets/support-desk-page.tsx') },
        // A ticket opened from the desk stays under the desk: drawer entry and breadcrumbs.
        {
          path: 'tickets/:ticketId',
          lazy: featurePage('tickets/ticket-page.tsx'),
          handle: { title: { key: 'page.ticket' } } satisfies Handle,
        },
        {
          path: 'groups',
          lazy: featurePage('tickets/support-groups-page.tsx'),
          handle: {
            title: { key: 'nav.supportGroups' },
            permission: P.SupportGroups.Manage,
            drawer: { id: 'support-groups', group: 'support', icon: 'users' },
          } satisfies Handle,
        },
      ],
    },
    {
      path: 'users',
      handle: { title: { key: 'nav.users' }, permission: P.Users.Search, drawer: { id: 'users', group: 'administration', icon: 'users' } } satisfies Handle,
      children: [
        { index: true, lazy: featurePage('users/users-page.tsx') },
        {
          path: 'bulk-upload',
          lazy: featurePage('users/bulk-upload-page.tsx'),
          handle: { title: { key: 'page.bulkUpload' }, breadcrumb: { key: 'page.bulkUpload' }, permission: P.Users.Import } satisfies Handle,
        },
        {
          path: ':userId/login-history',
          lazy: featurePage('users/login-history-page.tsx'),
          handle: { title: { key: 'nav.loginHistory' }, breadcrumb: { key: 'nav.loginHistory' }, permission: P.LoginHistory.View } satisfies Handle,
        },
      ],
    },
    {
      path: 'roles',
      lazy: featurePage('users/roles-page.tsx'),
      handle: { title: { key: 'nav.roles' }, permission: P.Roles.View, drawer: { id: 'roles', group: 'administration', icon: 'settings' } } satisfies Handle,
    },
    {
      path: 'login-history',
      lazy: featurePage('users/login-history-page.tsx'),
      handle: {
        title: { key: 'nav.loginHistory' },
        permission: P.LoginHistory.View,
        drawer: { id: 'login-history', group: 'administration', icon: 'chart' },
      } satisfies Handle,
    },
    {
      path: 'change-password',
      lazy: featurePage('auth/change-password-page.tsx'),
      handle: { title: { key: 'change.title', ns: 'auth' }, breadcrumb: { key: 'change.title', ns: 'auth' }, session: true } satisfies Handle,
    },
    {
      path: 'account',
      handle: { title: { key: 'nav.account' }, breadcrumb: { key: 'nav.account' }, session: true } satisfies Handle,
      children: [
        { index: true, lazy: featurePage('users/account-page.tsx') },
        {
          path: 'login-history',
          lazy: featurePage('users/login-history-page.tsx', 'OwnLoginHistoryPage'),
          handle: { title: { key: 'nav.loginHistory' }, breadcrumb: { key: 'nav.loginHistory' } } satisfies Handle,
        },
      ],
    },
    {
      path: 'machines',
      handle: {
        title: { key: 'nav.machines' },
        permission: P.Machines.View,
        drawer: { id: 'machines', group: 'quality', icon: 'machines' },
      } satisfies Handle,
      children: [
        // One route for the list and a chosen machine, so switching machines keeps the page.
        { path: ':machineId?', lazy: featurePage('machines/machines-page.tsx') },
      ],
    },
    { path: '*', lazy: page(() => import('../not-found-page.tsx')), handle: { title: { key: 'notFound.title' } } satisfies Handle },
  ],
};

/**
 * The one route table (docs/decisions/0080, 0180): the sign-in screens, then the dashboard
 * layout with every page inside it. The drawer, the breadcrumbs, `document.title` and the
 * access check read it; nothing else lists pages. The router receives it in two parts
 * (`patchRoutes` in ../app.tsx): the sign-in screens with the main chunk, the dashboard's part
 * (this module's chunk, with the shell) when an address first needs it.
 */
export const routes: RouteObject[] = [...authRoutes, dashboardRoute];

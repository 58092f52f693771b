/**
 * The workspace's slices (issue 15, EXAMS.md §1): every record a project holds, where its screen
 * is, and what must be selected for it. The workspace bar's menu, the workspace overview and the
 * route table (src/app/routing/routes.tsx) all read this one list. Slices whose screens come with
 * later issues route to a "not yet available" page naming the issue; building one means giving
 * it a real page in the route table and `available: true` here.
 */
export type WorkspaceLevel = 'project' | 'exam' | 'paper' | 'tenant';

export interface WorkspaceSlice {
  /** Also the hint's key `sliceHint.<id>` (projects namespace) and the test ids `goto-<id>`, `tile-<id>`. */
  id: string;
  /** The absolute path of its screen. */
  path: string;
  /** What must be selected first: a project, an exam (paper calls), a paper; tenant-wide needs nothing. */
  level: WorkspaceLevel;
  /** Its screen exists; otherwise the route shows the "not yet available" page. */
  available: boolean;
  /** The issue that builds it (for the not-yet-available page). */
  issue?: number;
}

export const workspaceSlices: readonly WorkspaceSlice[] = [
  { id: 'overview', path: '/workspace', level: 'project', available: true },
  { id: 'setup', path: '/projects/setup', level: 'project', available: true },
  { id: 'exams', path: '/exams', level: 'project', available: true },
  { id: 'team', path: '/projects/team', level: 'project', available: true },
  { id: 'itemTypes', path: '/workspace/item-types', level: 'project', available: true },
  { id: 'categories', path: '/workspace/categories', level: 'project', available: true },
  { id: 'flows', path: '/workspace/flows', level: 'project', available: true },
  { id: 'items', path: '/items', level: 'project', available: true },
  { id: 'history', path: '/workspace/history', level: 'project', available: true },
  { id: 'seasons', path: '/workspace/seasons', level: 'project', available: true },
  { id: 'exportTemplates', path: '/workspace/export-templates', level: 'project', available: true },
  { id: 'examDetails', path: '/workspace/exam', level: 'exam', available: true },
  { id: 'examPermissions', path: '/workspace/my-permissions', level: 'exam', available: true },
  { id: 'papers', path: '/workspace/papers', level: 'exam', available: true },
  { id: 'registrations', path: '/workspace/registrations', level: 'project', available: true },
  { id: 'results', path: '/workspace/results', level: 'exam', available: true },
  { id: 'sections', path: '/workspace/sections', level: 'paper', available: true },
  { id: 'sets', path: '/workspace/sets', level: 'paper', available: true },
  { id: 'delivery', path: '/workspace/delivery', level: 'paper', available: true },
  { id: 'templates', path: '/workspace/templates', level: 'tenant', available: true },
  { id: 'centers', path: '/workspace/centers', level: 'tenant', available: true },
];

export const workspaceLevels: readonly WorkspaceLevel[] = ['project', 'exam', 'paper', 'tenant'];

/** The slices of one level, in menu order. */
export const slicesOf = (level: WorkspaceLevel) => workspaceSlices.filter((slice) => slice.level === level);

const navKeys: Record<string, string> = { overview: 'workspace', setup: 'projectSetup', team: 'projectTeam', history: 'projectHistory' };

/** The slice's name: a `nav.*` key of the common namespace (the route title and breadcrumb use it too). */
export const sliceTitleKey = (slice: Pick<WorkspaceSlice, 'id'>) => `nav.${navKeys[slice.id] ?? slice.id}`;

/** The slice a `/workspace/<segment>` route serves. */
export function sliceAt(path: string): WorkspaceSlice | undefined {
  return workspaceSlices.find((slice) => slice.path === path);
}

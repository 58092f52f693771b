/**
 * The permission catalogue shared by the server (which route needs what) and the client
 * (which button or menu entry shows). Strings follow `Permissions.<Resource>.<Action>`.
 * Plain data, no XState: it lives beside the machines because both sides import it.
 */
const resources = {
  Dashboard: ['View'],
  Users: ['View', 'Search', 'Create', 'Update', 'Export', 'Import'],
  UserRoles: ['View', 'Update'],
  Roles: ['View', 'Manage'],
  LoginHistory: ['View'],
  DirectoryUsers: ['Search', 'Import'],
  SupportTickets: ['Create', 'View', 'Work', 'Administer'],
  SupportGroups: ['View', 'Manage'],
  SupportChat: ['Use'],
  Machines: ['View'],
  Projects: ['View', 'Manage'],
  Exams: ['View', 'Manage'],
} as const;

type Resource = keyof typeof resources;
type ActionOf<R extends Resource> = (typeof resources)[R][number];
export type Permission = { [R in Resource]: `Permissions.${R}.${ActionOf<R>}` }[Resource];

export const allPermissions: readonly Permission[] = Object.entries(resources).flatMap(([resource, actions]) =>
  (actions as readonly string[]).map((action) => `Permissions.${resource}.${action}` as Permission),
);

/** `P.Users.Search` → 'Permissions.Users.Search', checked at compile time. */
export const P = Object.fromEntries(
  Object.entries(resources).map(([resource, actions]) => [
    resource,
    Object.fromEntries((actions as readonly string[]).map((action) => [action, `Permissions.${resource}.${action}`])),
  ]),
) as { [R in Resource]: { [A in ActionOf<R>]: `Permissions.${R}.${A}` } };

export const roleNames = ['Admin', 'SupportAdmin', 'SupportAgent', 'ExamManager', 'ExamStaff', 'Tester', 'Candidate'] as const;
export type RoleName = (typeof roleNames)[number];

/** Every signed-in person may raise tickets, read their own and chat on them. */
const everyone: Permission[] = [P.Dashboard.View, P.SupportTickets.Create, P.SupportTickets.View, P.SupportChat.Use];

/** The seeded roles and what each may do. Admins get everything. */
export const defaultRolePermissions: Record<RoleName, readonly Permission[]> = {
  Admin: allPermissions,
  SupportAdmin: [...everyone, P.SupportTickets.Work, P.SupportTickets.Administer, P.SupportGroups.View, P.SupportGroups.Manage, P.Users.View, P.Users.Search],
  SupportAgent: [...everyone, P.SupportTickets.Work, P.SupportGroups.View, P.Users.Search],
  ExamManager: [...everyone, P.Projects.View, P.Projects.Manage, P.Exams.View, P.Exams.Manage],
  // Sees only the projects and exams they hold an exam permission on (examPermissionNames).
  ExamStaff: [...everyone, P.Projects.View, P.Exams.View],
  Tester: [...everyone, P.Machines.View],
  Candidate: everyone,
};

export const roleDescriptions: Record<RoleName, string> = {
  Admin: 'Full access to every area',
  SupportAdmin: 'Runs the support desk: every ticket, groups and agents',
  SupportAgent: 'Works tickets in the queues of their support groups',
  ExamManager: 'Manages projects, exams and their records',
  ExamStaff: 'Works on the projects and exams they are granted: items, papers, marking, invigilation',
  Tester: 'Audits flows from the statechart diagrams',
  Candidate: 'Takes exams and raises support tickets',
};

export function hasPermission(granted: readonly string[] | undefined, needed: Permission): boolean {
  return granted?.includes(needed) ?? false;
}

/**
 * Exam permissions (EXAMS.md §2): object-level grants of a user on a project (then valid on
 * all its exams) or on one exam. Tenant roles say what a user may do at all; these say on
 * which projects and exams. A holder of Projects.Manage / Exams.Manage acts on every project /
 * exam of their scope as a ProjectAdmin would (docs/decisions/0090).
 */
export const examPermissionNames = [
  'ProjectAdmin',
  'ItemAuthor',
  'ItemReviewer',
  'PaperSetter',
  'Moderator',
  'Evaluator',
  'Invigilator',
  'CenterManager',
] as const;
export type ExamPermission = (typeof examPermissionNames)[number];

export const examPermissionDescriptions: Record<ExamPermission, string> = {
  ProjectAdmin: 'Configures the project: item types, categories, flows, exams and the team',
  ItemAuthor: 'Writes items and sends them to review',
  ItemReviewer: 'Reviews items: approve, request changes or retire',
  PaperSetter: 'Builds papers, sections and sets',
  Moderator: 'Moderates marks and publishes results',
  Evaluator: 'Marks answers in the marking queue',
  Invigilator: 'Runs a sitting at a center: admit, pause, extend, terminate',
  CenterManager: 'Manages centers, seats and allocation',
};

export function isExamPermission(value: string): value is ExamPermission {
  return (examPermissionNames as readonly string[]).includes(value);
}

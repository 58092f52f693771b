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

export const roleNames = ['Admin', 'SupportAdmin', 'SupportAgent', 'ExamManager', 'Tester', 'Candidate'] as const;
export type RoleName = (typeof roleNames)[number];

/** Every signed-in person may raise tickets, read their own and chat on them. */
const everyone: Permission[] = [P.Dashboard.View, P.SupportTickets.Create, P.SupportTickets.View, P.SupportChat.Use];

/** The seeded roles and what each may do. Admins get everything. */
export const defaultRolePermissions: Record<RoleName, readonly Permission[]> = {
  Admin: allPermissions,
  SupportAdmin: [
    ...everyone,
    P.SupportTickets.Work,
    P.SupportTickets.Administer,
    P.SupportGroups.View,
    P.SupportGroups.Manage,
    P.Users.View,
    P.Users.Search,
  ],
  SupportAgent: [...everyone, P.SupportTickets.Work, P.SupportGroups.View, P.Users.Search],
  ExamManager: [...everyone, P.Projects.View, P.Projects.Manage, P.Exams.View, P.Exams.Manage],
  Tester: [...everyone, P.Machines.View],
  Candidate: everyone,
};

export const roleDescriptions: Record<RoleName, string> = {
  Admin: 'Full access to every area',
  SupportAdmin: 'Runs the support desk: every ticket, groups and agents',
  SupportAgent: 'Works tickets in the queues of their support groups',
  ExamManager: 'Manages projects, exams and their records',
  Tester: 'Audits flows from the statechart diagrams',
  Candidate: 'Takes exams and raises support tickets',
};

export function hasPermission(granted: readonly string[] | undefined, needed: Permission): boolean {
  return granted?.includes(needed) ?? false;
}

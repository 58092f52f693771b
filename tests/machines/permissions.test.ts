import { describe, expect, it } from 'vitest';
import {
  P,
  allPermissions,
  defaultRolePermissions,
  examPermissionDescriptions,
  examPermissionNames,
  hasPermission,
  isExamPermission,
  roleDescriptions,
  roleNames,
} from '#machines/permissions.ts';

/**
 * The permission catalogue both sides import, pinned as literal text: SECURITY.md's
 * `Permissions.<Resource>.<Action>` names (the server's route matrix and the client's gates
 * compare strings, so a renamed permission silently denies), the seeded roles, and EXAMS.md §2's
 * exam permissions.
 */
describe('permission catalogue', () => {
  it('should name every permission Permissions.<Resource>.<Action>, once', () => {
    expect(allPermissions).toEqual([
      'Permissions.Dashboard.View',
      'Permissions.Users.View',
      'Permissions.Users.Search',
      'Permissions.Users.Create',
      'Permissions.Users.Update',
      'Permissions.Users.Export',
      'Permissions.Users.Import',
      'Permissions.UserRoles.View',
      'Permissions.UserRoles.Update',
      'Permissions.Roles.View',
      'Permissions.Roles.Manage',
      'Permissions.LoginHistory.View',
      'Permissions.DirectoryUsers.Search',
      'Permissions.DirectoryUsers.Import',
      'Permissions.SupportTickets.Create',
      'Permissions.SupportTickets.View',
      'Permissions.SupportTickets.Work',
      'Permissions.SupportTickets.Administer',
      'Permissions.SupportGroups.View',
      'Permissions.SupportGroups.Manage',
      'Permissions.SupportChat.Use',
      'Permissions.Machines.View',
      'Permissions.Projects.View',
      'Permissions.Projects.Manage',
      'Permissions.Exams.View',
      'Permissions.Exams.Manage',
    ]);
    expect(P.SupportTickets.Work).toBe('Permissions.SupportTickets.Work');
    expect(P.Users.Search).toBe('Permissions.Users.Search');
  });

  it('should give each seeded role exactly its permissions (Admin everything)', () => {
    const everyone = ['Permissions.Dashboard.View', 'Permissions.SupportTickets.Create', 'Permissions.SupportTickets.View', 'Permissions.SupportChat.Use'];
    expect(roleNames).toEqual(['Admin', 'SupportAdmin', 'SupportAgent', 'ExamManager', 'ExamStaff', 'Tester', 'Candidate']);
    expect(defaultRolePermissions.Admin).toHaveLength(26);
    expect(defaultRolePermissions.Candidate).toEqual(everyone);
    expect(defaultRolePermissions.Tester).toEqual([...everyone, 'Permissions.Machines.View']);
    expect(defaultRolePermissions.SupportAgent).toEqual([
      ...everyone,
      'Permissions.SupportTickets.Work',
      'Permissions.SupportGroups.View',
      'Permissions.Users.Search',
    ]);
    expect(defaultRolePermissions.SupportAdmin).toEqual([
      ...everyone,
      'Permissions.SupportTickets.Work',
      'Permissions.SupportTickets.Administer',
      'Permissions.SupportGroups.View',
      'Permissions.SupportGroups.Manage',
      'Permissions.Users.View',
      'Permissions.Users.Search',
    ]);
    expect(defaultRolePermissions.ExamManager).toEqual([
      ...everyone,
      'Permissions.Projects.View',
      'Permissions.Projects.Manage',
      'Permissions.Exams.View',
      'Permissions.Exams.Manage',
    ]);
    expect(defaultRolePermissions.ExamStaff).toEqual([...everyone, 'Permissions.Projects.View', 'Permissions.Exams.View']);
    for (const role of roleNames) expect(roleDescriptions[role].length, role).toBeGreaterThan(10);
  });

  it('should grant only what is in the list, and nothing without a list', () => {
    expect(hasPermission(['Permissions.Users.View', 'Permissions.Users.Search'], 'Permissions.Users.Search')).toBe(true);
    expect(hasPermission(['Permissions.Users.View'], 'Permissions.Users.Search')).toBe(false);
    expect(hasPermission([], 'Permissions.Users.View')).toBe(false);
    expect(hasPermission(undefined, 'Permissions.Users.View')).toBe(false);
  });

  it('should know the exam permissions of EXAMS.md §2 and nothing else', () => {
    expect(examPermissionNames).toEqual([
      'ProjectAdmin',
      'ItemAuthor',
      'ItemReviewer',
      'PaperSetter',
      'Moderator',
      'Evaluator',
      'Invigilator',
      'CenterManager',
    ]);
    expect(examPermissionNames.every((name) => isExamPermission(name))).toBe(true);
    expect(isExamPermission('Admin')).toBe(false);
    expect(isExamPermission('evaluator')).toBe(false);
    expect(isExamPermission('')).toBe(false);
    for (const name of examPermissionNames) expect(examPermissionDescriptions[name].length, name).toBeGreaterThan(10);
  });
});

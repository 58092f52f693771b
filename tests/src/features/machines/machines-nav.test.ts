import { describe, expect, it } from 'vitest';
import { defaultRolePermissions } from '#machines/permissions.ts';
import { findNavItem, visibleNavigation } from '#src/app/navigation.ts';

const allowedFor = (role: keyof typeof defaultRolePermissions) => (permission: string) => defaultRolePermissions[role].includes(permission as never);

describe('the machines navigation entry', () => {
  it('should offer /machines under Quality to testers and admins only', () => {
    const entry = (role: keyof typeof defaultRolePermissions) =>
      visibleNavigation(allowedFor(role))
        .flatMap((group) => group.children.map((item) => `${group.id}/${item.id} ${item.url}`))
        .filter((line) => line.includes('machines'));
    expect(entry('Tester')).toEqual(['quality/machines /machines']);
    expect(entry('Admin')).toEqual(['quality/machines /machines']);
    expect(entry('Candidate')).toEqual([]);
    expect(entry('SupportAdmin')).toEqual([]);
  });

  it('should own the machine routes', () => {
    expect(findNavItem('/machines/ticketLifecycle')?.item.id).toBe('machines');
  });
});

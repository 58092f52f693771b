import { describe, expect, it } from 'vitest';
import { findNavItem, visibleNavigation, type NavGroup } from '#src/app/navigation.ts';

const groups: NavGroup[] = [
  { id: 'overview', titleKey: 'nav.groupOverview', children: [{ id: 'dashboard', titleKey: 'nav.dashboard', url: '/', icon: 'dashboard' }] },
  {
    id: 'admin',
    titleKey: 'nav.admin',
    children: [
      { id: 'users', titleKey: 'nav.users', url: '/users', icon: 'users', permission: 'Permissions.Users.Search' },
      { id: 'history', titleKey: 'nav.history', url: '/users/history', icon: 'chart', permission: 'Permissions.LoginHistory.View' },
    ],
  },
];

describe('navigation', () => {
  it('should find the item with the longest matching prefix', () => {
    expect(findNavItem('/', groups)?.item.id).toBe('dashboard');
    expect(findNavItem('/users/42', groups)?.item.id).toBe('users');
    expect(findNavItem('/users/history', groups)?.item.id).toBe('history');
    expect(findNavItem('/usersx', groups)).toBeUndefined();
    expect(findNavItem('/elsewhere', groups)).toBeUndefined();
  });

  it('should hide items the caller may not open and drop empty groups', () => {
    expect(visibleNavigation(() => false, groups).map((g) => g.id)).toEqual(['overview']);
    const some = visibleNavigation((p) => p === 'Permissions.Users.Search', groups);
    expect(some[1].children.map((i) => i.id)).toEqual(['users']);
  });
});

import type { Permission } from '#machines/permissions.ts';
import type { IconName } from '#src/components/ui/icons.tsx';

/** One entry of the side drawer; `permission` hides it from people who may not open it. */
export interface NavItem {
  id: string;
  /** i18n key in `ns` (default 'common'). */
  titleKey: string;
  ns?: string;
  url: string;
  icon: IconName;
  permission?: Permission;
}

export interface NavGroup {
  id: string;
  titleKey: string;
  ns?: string;
  children: NavItem[];
}

export const navigation: NavGroup[] = [
  {
    id: 'overview',
    titleKey: 'nav.groupOverview',
    children: [{ id: 'dashboard', titleKey: 'nav.dashboard', url: '/', icon: 'dashboard' }],
  },
  {
    id: 'support',
    titleKey: 'nav.groupSupport',
    children: [
      { id: 'my-tickets', titleKey: 'nav.myTickets', url: '/tickets', icon: 'ticket', permission: 'Permissions.SupportTickets.View' },
      { id: 'support-desk', titleKey: 'nav.supportDesk', url: '/support', icon: 'chart', permission: 'Permissions.SupportTickets.Work' },
      { id: 'support-groups', titleKey: 'nav.supportGroups', url: '/support/groups', icon: 'users', permission: 'Permissions.SupportGroups.Manage' },
    ],
  },
  {
    id: 'administration',
    titleKey: 'nav.groupAdministration',
    children: [
      { id: 'users', titleKey: 'nav.users', url: '/users', icon: 'users', permission: 'Permissions.Users.Search' },
      { id: 'roles', titleKey: 'nav.roles', url: '/roles', icon: 'settings', permission: 'Permissions.Roles.View' },
      { id: 'login-history', titleKey: 'nav.loginHistory', url: '/login-history', icon: 'chart', permission: 'Permissions.LoginHistory.View' },
    ],
  },
  {
    id: 'quality',
    titleKey: 'nav.groupQuality',
    children: [{ id: 'machines', titleKey: 'nav.machines', url: '/machines', icon: 'machines', permission: 'Permissions.Machines.View' }],
  },
];

/** The navigation item (and its group) that owns a path: exact match first, then the longest prefix. */
export function findNavItem(pathname: string, groups: NavGroup[] = navigation): { group: NavGroup; item: NavItem } | undefined {
  let best: { group: NavGroup; item: NavItem } | undefined;
  for (const group of groups) {
    for (const item of group.children) {
      const matches = item.url === '/' ? pathname === '/' : pathname === item.url || pathname.startsWith(`${item.url}/`);
      if (matches && (!best || item.url.length > best.item.url.length)) best = { group, item };
    }
  }
  return best;
}

/** Only the groups and items the caller may open; empty groups disappear. */
export function visibleNavigation(isAllowed: (permission: Permission) => boolean, groups: NavGroup[] = navigation): NavGroup[] {
  return groups
    .map((group) => ({ ...group, children: group.children.filter((item) => !item.permission || isAllowed(item.permission)) }))
    .filter((group) => group.children.length > 0);
}

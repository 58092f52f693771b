import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { defaultRolePermissions, hasPermission } from '#machines/permissions.ts';
import { accessOf, crumbsOf, currentDrawerEntry, drawerOf, inWorkspace, titleOf, visibleDrawer } from '#src/app/routing/route-handle.ts';
import { routes } from '#src/app/routing/routes.tsx';
import { sliceTitleKey, workspaceSlices } from '#src/features/projects/workspace-slices.ts';

const matchesOf = (pathname: string) => (matchRoutes(routes, pathname) ?? []).map((m) => ({ pathname: m.pathname, handle: m.route.handle as unknown }));
const drawerFor = (role: keyof typeof defaultRolePermissions) =>
  visibleDrawer(drawerOf(routes), (p) => hasPermission(defaultRolePermissions[role], p)).flatMap((g) => g.items.map((i) => `${g.id}/${i.id} ${i.url}`));
const crumbsAt = (pathname: string) => crumbsOf(matchesOf(pathname)).map((c) => `${c.text.key}${c.to ? ` → ${c.to}` : ''}`);

describe('the route table', () => {
  it('should give the drawer every entry, grouped in order, with the full path of its route', () => {
    expect(drawerOf(routes).map((g) => `${g.id}: ${g.items.map((i) => i.url).join(' ')}`)).toEqual([
      'overview: / /projects /exams /items /workspace /workspace/papers /registrations /sit /results /invigilate /admitcards/verify',
      'support: /tickets /support /support/groups',
      'administration: /users /roles /login-history',
      'quality: /machines',
    ]);
  });

  it('should hide entries the caller may not open and drop empty groups', () => {
    expect(drawerFor('Admin')).toEqual(
      expect.arrayContaining(['administration/users /users', 'administration/roles /roles', 'administration/login-history /login-history']),
    );
    expect(drawerFor('SupportAgent')).toContain('administration/users /users');
    expect(drawerFor('SupportAgent')).not.toContain('administration/roles /roles');
    expect(drawerFor('Candidate')).not.toContain('administration/users /users');
    expect(visibleDrawer(drawerOf(routes), () => false).map((g) => g.id)).toEqual(['overview']);
    expect(drawerFor('Tester').filter((line) => line.includes('machines'))).toEqual(['quality/machines /machines']);
    expect(drawerFor('Candidate').filter((line) => line.includes('machines'))).toEqual([]);
  });

  it('should route every slice of the workspace menu, each titled, under the workspace entry and its breadcrumbs', () => {
    for (const slice of workspaceSlices) {
      const matches = matchesOf(slice.path);
      expect(matches.length, slice.path).toBeGreaterThan(0);
      expect(matches.at(-1)!.pathname.replace(/\/$/, ''), slice.path).toBe(slice.path);
      expect(titleOf(matches), slice.path).toEqual({ key: sliceTitleKey(slice) });
      expect(inWorkspace(matches), slice.path).toBe(true);
      expect(accessOf(matches).permissions.length, slice.path).toBeGreaterThan(0);
    }
    expect(currentDrawerEntry(matchesOf('/workspace/papers'))?.id).toBe('papers');
    expect(currentDrawerEntry(matchesOf('/workspace/papers/4/sets/C'))?.id).toBe('papers');
    expect(currentDrawerEntry(matchesOf('/workspace/flows'))?.id).toBe('workspace');
    expect(crumbsAt('/workspace/papers')).toEqual(['nav.groupOverview', 'nav.workspace → /workspace', 'nav.papers → /workspace/papers']);
    expect(titleOf(matchesOf('/workspace/no-such-slice'))).toEqual({ key: 'notFound.title' });
  });

  it('should keep the drawer entry of the nearest route that has one', () => {
    expect(currentDrawerEntry(matchesOf('/'))?.id).toBe('dashboard');
    expect(currentDrawerEntry(matchesOf('/tickets/12'))?.id).toBe('my-tickets');
    expect(currentDrawerEntry(matchesOf('/support/tickets/12'))?.id).toBe('support-desk');
    expect(currentDrawerEntry(matchesOf('/support/groups'))?.id).toBe('support-groups');
    expect(currentDrawerEntry(matchesOf('/users/u-1/login-history'))?.id).toBe('users');
    expect(currentDrawerEntry(matchesOf('/machines/ticketLifecycle'))?.id).toBe('machines');
    expect(currentDrawerEntry(matchesOf('/account'))).toBeUndefined();
    expect(currentDrawerEntry(matchesOf('/login'))).toBeUndefined();
  });

  it('should build the breadcrumbs: group, then each page, a desk ticket under the desk', () => {
    expect(crumbsAt('/')).toEqual(['nav.groupOverview', 'nav.dashboard → /']);
    expect(crumbsAt('/tickets/12')).toEqual(['nav.groupSupport', 'nav.myTickets → /tickets']);
    expect(crumbsAt('/support/tickets/12')).toEqual(['nav.groupSupport', 'nav.supportDesk → /support']);
    expect(crumbsAt('/support/groups')).toEqual(['nav.groupSupport', 'nav.supportDesk → /support', 'nav.supportGroups → /support/groups']);
    expect(crumbsAt('/users/u-1/login-history')).toEqual(['nav.groupAdministration', 'nav.users → /users', 'nav.loginHistory → /users/u-1/login-history']);
    expect(crumbsAt('/account/login-history')).toEqual(['nav.account → /account', 'nav.loginHistory → /account/login-history']);
  });

  it('should name each page for document.title', () => {
    expect(titleOf(matchesOf('/users'))).toEqual({ key: 'nav.users' });
    expect(titleOf(matchesOf('/login'))).toEqual({ key: 'signIn.title', ns: 'auth' });
    expect(titleOf(matchesOf('/support/tickets/3'))).toEqual({ key: 'page.ticket' });
    expect(titleOf(matchesOf('/no/such/page'))).toEqual({ key: 'notFound.title' });
  });

  it('should say which pages need a session and which permissions', () => {
    expect(accessOf(matchesOf('/'))).toEqual({ session: false, permissions: [] });
    expect(accessOf(matchesOf('/login'))).toEqual({ session: false, permissions: [] });
    expect(accessOf(matchesOf('/no/such/page'))).toEqual({ session: false, permissions: [] });
    expect(accessOf(matchesOf('/account'))).toEqual({ session: true, permissions: [] });
    expect(accessOf(matchesOf('/change-password'))).toEqual({ session: true, permissions: [] });
    expect(accessOf(matchesOf('/support/groups'))).toEqual({
      session: true,
      permissions: ['Permissions.SupportTickets.Work', 'Permissions.SupportGroups.Manage'],
    });
    expect(accessOf(matchesOf('/users/bulk-upload'))).toEqual({ session: true, permissions: ['Permissions.Users.Search', 'Permissions.Users.Import'] });
  });
});

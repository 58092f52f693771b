import type { Permission } from '#machines/permissions.ts';
import type { IconName } from '#src/components/ui/icons.tsx';

/** A translated text: a key in a namespace ('common' when none is given). */
export interface TextKey {
  key: string;
  ns?: string;
}

/** The drawer's groups, in the order they are shown. */
export const drawerGroups = [
  { id: 'overview', title: { key: 'nav.groupOverview' } },
  { id: 'support', title: { key: 'nav.groupSupport' } },
  { id: 'administration', title: { key: 'nav.groupAdministration' } },
  { id: 'quality', title: { key: 'nav.groupQuality' } },
] as const satisfies ReadonlyArray<{ id: string; title: TextKey }>;

export type DrawerGroupId = (typeof drawerGroups)[number]['id'];

/**
 * What the route table says about a route (react-router's `handle`): everything the shell
 * needs — the drawer, the breadcrumbs, `document.title` and the access check — comes from
 * here, so there is no second list of pages.
 */
export interface RouteHandle {
  /** The page's name: `document.title` ("Users · Exam Portal") and, by default, its breadcrumb. */
  title?: TextKey;
  /** The breadcrumb this route adds (linked to the route's path); `false` adds none. Defaults to `title` on routes with a drawer entry. */
  breadcrumb?: TextKey | false;
  /** Needs a signed-in user (docs/decisions/0062); implied by `permission`. */
  session?: boolean;
  /** Needs this permission too; also hides the route's drawer entry from people without it. */
  permission?: Permission;
  /** The route's entry in the side drawer; the entry stays current on every route below it. */
  drawer?: { id: string; group: DrawerGroupId; icon: IconName };
  /** A screen of the selected workspace: the breadcrumbs end with the selected project › exam (EXAMS.md §3). */
  workspace?: boolean;
}

/** The part of a route object these helpers read (react-router's RouteObject and its matches fit). */
export interface RouteLike {
  path?: string;
  index?: boolean;
  handle?: unknown;
  children?: RouteLike[];
}

/** The part of a route match these helpers read (react-router's UIMatch fits). */
export interface MatchLike {
  pathname: string;
  handle: unknown;
}

const handleOf = (value: unknown): RouteHandle => (value && typeof value === 'object' ? (value as RouteHandle) : {});

export interface DrawerItem {
  id: string;
  title: TextKey;
  url: string;
  icon: IconName;
  permission?: Permission;
}

export interface DrawerGroup {
  id: DrawerGroupId;
  title: TextKey;
  items: DrawerItem[];
}

function joinPath(base: string, path: string | undefined): string {
  if (!path) return base;
  if (path.startsWith('/')) return path;
  return `${base.replace(/\/$/, '')}/${path}`;
}

/** Every drawer entry of the route table, grouped in drawer order, in table order within a group. */
export function drawerOf(routes: readonly RouteLike[]): DrawerGroup[] {
  const items: Array<DrawerItem & { group: DrawerGroupId }> = [];
  const walk = (list: readonly RouteLike[], base: string) => {
    for (const route of list) {
      const url = joinPath(base, route.path);
      const handle = handleOf(route.handle);
      if (handle.drawer) {
        items.push({
          id: handle.drawer.id,
          group: handle.drawer.group,
          icon: handle.drawer.icon,
          title: handle.title ?? { key: handle.drawer.id },
          url: url || '/',
          permission: handle.permission,
        });
      }
      if (route.children) walk(route.children, url);
    }
  };
  walk(routes, '');
  return drawerGroups
    .map((group) => ({ id: group.id, title: group.title, items: items.filter((item) => item.group === group.id).map(({ group: _group, ...item }) => item) }))
    .filter((group) => group.items.length > 0);
}

/** Only the entries the caller may open; empty groups disappear. */
export function visibleDrawer(groups: DrawerGroup[], isAllowed: (permission: Permission) => boolean): DrawerGroup[] {
  return groups
    .map((group) => ({ ...group, items: group.items.filter((item) => !item.permission || isAllowed(item.permission)) }))
    .filter((group) => group.items.length > 0);
}

/** The drawer entry the current page belongs to: the deepest matched route that has one. */
export function currentDrawerEntry(matches: readonly MatchLike[]): { id: string; group: DrawerGroupId; url: string } | undefined {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const drawer = handleOf(matches[index].handle).drawer;
    if (drawer) return { id: drawer.id, group: drawer.group, url: matches[index].pathname };
  }
  return undefined;
}

export interface Crumb {
  text: TextKey;
  /** Absent: not a link (a group, or the page itself). */
  to?: string;
}

/** The breadcrumbs after Home: the drawer group of the current entry, then every matched route's breadcrumb. */
export function crumbsOf(matches: readonly MatchLike[]): Crumb[] {
  const crumbs: Crumb[] = [];
  const entry = currentDrawerEntry(matches);
  const group = entry && drawerGroups.find((g) => g.id === entry.group);
  if (group) crumbs.push({ text: group.title });
  for (const match of matches) {
    const handle = handleOf(match.handle);
    if (handle.breadcrumb === false) continue;
    const text = handle.breadcrumb ?? (handle.drawer ? handle.title : undefined);
    if (text) crumbs.push({ text, to: match.pathname });
  }
  return crumbs;
}

/** Whether the page works in the selected workspace (a matched route says `workspace`). */
export function inWorkspace(matches: readonly MatchLike[]): boolean {
  return matches.some((match) => handleOf(match.handle).workspace === true);
}

/** The page's title: the deepest matched route that names one. */
export function titleOf(matches: readonly MatchLike[]): TextKey | undefined {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const title = handleOf(matches[index].handle).title;
    if (title) return title;
  }
  return undefined;
}

/** What the current page needs: a session, and which permissions (every matched route's). */
export function accessOf(matches: readonly MatchLike[]): { session: boolean; permissions: Permission[] } {
  const permissions: Permission[] = [];
  let session = false;
  for (const match of matches) {
    const handle = handleOf(match.handle);
    if (handle.permission) permissions.push(handle.permission);
    if (handle.session || handle.permission) session = true;
  }
  return { session, permissions };
}

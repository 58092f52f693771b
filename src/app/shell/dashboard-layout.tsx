import { useStoreValue } from '#src/lib/use-store-value.ts';
import { lazy, Suspense, useLayoutEffect, useRef } from 'react';
import { Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { css, cx } from '#styled-system/css';
import { Spinner } from '#src/components/ui/spinner.tsx';
import { useIsLargeScreen } from '#src/lib/use-media-query.ts';
import { ContentRendered } from '../content-rendered.tsx';
import { RouteAccess } from '../routing/route-access.tsx';
import { drawerOf, visibleDrawer } from '../routing/route-handle.ts';
import { routes } from '../routing/routes.tsx';
import { layoutConfigStore } from '../stores/layout-config-store.ts';
import { menuStore } from '../stores/menu-store.ts';
import { AppHeader } from './header.tsx';
import { DeferredUserMenu } from '../auth/deferred-user-menu.tsx';
import { projectStore, userPermissionsStore } from '../stores/slices.ts';
import { loadChunk } from '#src/lib/lazy-chunk.ts';
import { AppDrawer } from './drawer.tsx';
import { Breadcrumbs } from './breadcrumbs.tsx';

// The workspace bar is its own chunk, loaded once a project is selected (nothing to show before).
const WorkspaceBar = lazy(async () => ({ default: (await loadChunk(() => import('#src/features/projects/workspace-bar.tsx'))).WorkspaceBar }));

const skipLink = css({
  position: 'absolute',
  insetInlineStart: '2',
  top: '-20',
  zIndex: 'skipLink',
  px: '4',
  py: '2',
  bg: 'primary.main',
  color: 'primary.contrast',
  borderRadius: 'md',
  _focus: { top: '2' },
});

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className={css({ display: 'flex', justifyContent: 'center', py: '16' })}>
      <Spinner size="lg" label={t('shell.loading')} />
    </div>
  );
}

/** Every drawer entry of the route table (the table does not change while the app runs); taken on first render, as the table's module imports this one. */
let drawer: ReturnType<typeof drawerOf> | undefined;

/** The dashboard layout of spec §2: header, side drawer, breadcrumbs and the content container around the current page. */
export function DashboardLayout() {
  const { t } = useTranslation();
  const large = useIsLargeScreen();
  const miniDrawer = useStoreValue(layoutConfigStore, (s) => s.context.miniDrawer);
  const hasProject = useStoreValue(projectStore, (s) => s.context.selected !== null);
  const container = useStoreValue(layoutConfigStore, (s) => s.context.container);
  // Permissions arrive with sign-in (the userPermissions slice); entries needing others are hidden.
  const permissions = useStoreValue(userPermissionsStore, (s) => s.context.permissions);
  const groups = visibleDrawer((drawer ??= drawerOf(routes)), (permission) => permissions.includes(permission));

  // From lg up the drawer starts open unless the mini drawer is chosen; below lg it starts closed.
  // The first render sets it before the drawer and the header read it: set in an effect, even a
  // layout effect, the drawer's store subscription (made after paint) saw the change only after
  // the first paint, and the drawer pushed the whole page 260 px sideways, a layout shift of 0.19
  // on every desktop page (issue 22). Later changes (a resized window, the mini drawer chosen in
  // the settings) come through the layout effect, once every reader is subscribed.
  const wantedOpen = large && !miniDrawer;
  const settled = useRef(false);
  if (!settled.current) {
    settled.current = true;
    if (menuStore.getSnapshot().context.drawerOpen !== wantedOpen) menuStore.trigger.openDrawer({ drawerOpen: wantedOpen });
  }
  useLayoutEffect(() => {
    menuStore.trigger.openDrawer({ drawerOpen: wantedOpen });
  }, [wantedOpen]);

  return (
    <div className={css({ display: 'flex', minHeight: '100vh' })}>
      <a href="#main-content" className={skipLink}>
        {t('shell.skipToContent')}
      </a>
      <AppDrawer groups={groups} large={large} miniDrawer={miniDrawer} />
      <div className={css({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' })}>
        <AppHeader end={<DeferredUserMenu />} />
        {hasProject ? (
          <Suspense fallback={null}>
            <WorkspaceBar />
          </Suspense>
        ) : null}
        <main
          id="main-content"
          tabIndex={-1}
          className={cx(css({ flex: 1, p: { base: '3', sm: '5' }, outline: 'none' }), container && css({ maxWidth: '1200px', mx: 'auto', width: '100%' }))}
        >
          <Breadcrumbs />
          <Suspense fallback={<PageLoader />}>
            <ContentRendered>
              <RouteAccess>
                <Outlet />
              </RouteAccess>
            </ContentRendered>
          </Suspense>
        </main>
      </div>
    </div>
  );
}

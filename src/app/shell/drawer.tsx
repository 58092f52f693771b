import { Logo } from './logo.tsx';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { Suspense } from 'react';
import { lazyChunk } from '#src/lib/lazy-chunk.ts';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css, cx } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { currentDrawerEntry, type DrawerGroup } from '../routing/route-handle.ts';
import { useRouteMatches } from '../routing/use-route-matches.ts';
import { menuStore } from '../stores/menu-store.ts';

const TemporaryDrawer = lazyChunk(() => import('./temporary-drawer.tsx'));

const navLink = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  minHeight: '11',
  px: '4',
  mx: '2',
  borderRadius: 'md',
  color: 'fg.default',
  textDecoration: 'none',
  fontSize: 'sm',
  _hover: { bg: 'bg.hover' },
  '&[aria-current=page]': { bg: 'primary.lighter', color: 'primary.dark', fontWeight: 'semibold' },
});

const groupTitle = css({
  px: '6',
  pt: '4',
  pb: '1',
  fontSize: 'xs',
  fontWeight: 'semibold',
  textTransform: 'uppercase',
  letterSpacing: 'wide',
  color: 'fg.muted',
});

/** The list of navigation groups; `mini` shows icons only (60 px drawer). */
export function DrawerNav({ groups, mini, onNavigate }: { groups: DrawerGroup[]; mini: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const current = currentDrawerEntry(useRouteMatches());
  return (
    <nav aria-label={t('shell.mainNavigation')} className={css({ py: '2' })}>
      {groups.map((group) => (
        <div key={group.id} role="group" aria-labelledby={mini ? undefined : `nav-group-${group.id}`}>
          {mini ? null : (
            <div id={`nav-group-${group.id}`} className={groupTitle}>
              {t(group.title.key, { ns: group.title.ns ?? 'common' })}
            </div>
          )}
          <ul className={css({ listStyle: 'none', m: 0, p: 0 })}>
            {group.items.map((item) => {
              const title = t(item.title.key, { ns: item.title.ns ?? 'common' });
              return (
                <li key={item.id}>
                  <Link
                    to={item.url}
                    className={cx(navLink, mini && css({ justifyContent: 'center', px: '0' }))}
                    aria-current={current?.id === item.id ? 'page' : undefined}
                    aria-label={mini ? title : undefined}
                    title={mini ? title : undefined}
                    onClick={() => {
                      menuStore.trigger.activeItem({ openItem: [item.id] });
                      onNavigate?.();
                    }}
                  >
                    <Icon name={item.icon} />
                    {mini ? null : <span>{title}</span>}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

const drawerPanel = css({
  position: 'sticky',
  top: 0,
  height: '100vh',
  flexShrink: 0,
  overflowY: 'auto',
  overflowX: 'hidden',
  bg: 'bg.surface',
  borderInlineEndWidth: '1px',
  borderColor: 'border',
  transitionProperty: 'width',
  transitionDuration: 'enter',
});

const brand = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  minHeight: 'toolbar',
  px: '4',
  fontWeight: 'bold',
  fontSize: 'lg',
  color: 'primary.main',
  borderBottomWidth: '1px',
  borderColor: 'border',
});

export function Brand({ mini }: { mini: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={cx(brand, mini && css({ justifyContent: 'center', px: '0' }))}>
      <Logo />
      {mini ? null : <span>{t('app.name')}</span>}
    </div>
  );
}

/**
 * The side drawer: persistent from lg up (260 px, or 60 px mini when closed with the mini
 * drawer on, hidden when closed otherwise), a temporary modal drawer below lg.
 */
export function AppDrawer({ groups, large, miniDrawer }: { groups: DrawerGroup[]; large: boolean; miniDrawer: boolean }) {
  const drawerOpen = useStoreValue(menuStore, (s) => s.context.drawerOpen);

  if (large) {
    const mini = !drawerOpen && miniDrawer;
    if (!drawerOpen && !miniDrawer) return null;
    return (
      <aside id="app-drawer" data-testid="app-drawer" data-variant={mini ? 'mini' : 'persistent'} className={drawerPanel} style={{ width: mini ? 60 : 260 }}>
        <Brand mini={mini} />
        <DrawerNav groups={groups} mini={mini} />
      </aside>
    );
  }

  // Below lg: a modal sheet, its own chunk (Ark's dialog) loaded when the menu first opens.
  return drawerOpen ? (
    <Suspense fallback={null}>
      <TemporaryDrawer groups={groups} />
    </Suspense>
  ) : null;
}

import { useStoreValue } from '#src/lib/use-store-value.ts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { SettingsTrigger } from '../settings/settings-trigger.tsx';
import { menuStore } from '../stores/menu-store.ts';

const bar = css({
  position: 'sticky',
  top: 0,
  zIndex: 'sticky',
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  minHeight: 'toolbar',
  px: { base: '2', sm: '4' },
  bg: 'bg.surface',
  borderBottomWidth: '1px',
  borderColor: 'border',
});

const iconButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '10',
  height: '10',
  borderRadius: 'md',
  color: 'fg.default',
  bg: 'bg.muted',
  cursor: 'pointer',
  _hover: { bg: 'bg.hover' },
});

/** The top bar (toolbar min height 60): drawer toggle, theme settings, then whatever the shell puts at the end. */
export function AppHeader({ end }: { end?: ReactNode }) {
  const { t } = useTranslation();
  const drawerOpen = useStoreValue(menuStore, (s) => s.context.drawerOpen);
  return (
    <header className={bar} data-testid="app-header">
      <button
        type="button"
        className={iconButton}
        aria-label={drawerOpen ? t('shell.closeMenu') : t('shell.openMenu')}
        aria-expanded={drawerOpen}
        aria-controls="app-drawer"
        onClick={() => menuStore.trigger.openDrawer({ drawerOpen: !drawerOpen })}
      >
        <Icon name={drawerOpen ? 'menuOpen' : 'menu'} className={css({ _rtl: { transform: 'scaleX(-1)' } })} />
      </button>
      <div className={css({ flex: 1 })} />
      <SettingsTrigger />
      {end}
    </header>
  );
}

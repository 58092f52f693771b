import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { Sheet, SheetClose } from '#src/components/ui/sheet.tsx';
import type { DrawerGroup } from '../routing/route-handle.ts';
import { menuStore } from '../stores/menu-store.ts';
import { Brand, DrawerNav } from './drawer.tsx';

/**
 * Below lg: the navigation as a modal sheet from the start edge (Ark UI Dialog, `Sheet`): the
 * page behind is inert, focus stays inside and goes back to the menu button; Escape, a click
 * outside, the close button or following a link close it.
 */
export default function TemporaryDrawer({ groups }: { groups: DrawerGroup[] }) {
  const { t } = useTranslation();
  const close = () => menuStore.trigger.openDrawer({ drawerOpen: false });
  return (
    <Sheet
      id="app-drawer"
      testId="app-drawer"
      side="start"
      width="260px"
      label={t('shell.mainNavigation')}
      onClose={close}
      contentProps={{ 'data-variant': 'temporary' }}
    >
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', pe: '2' })}>
        <Brand mini={false} />
        <SheetClose aria-label={t('shell.closeMenu')} className={css({ p: '2', borderRadius: 'md', cursor: 'pointer', _hover: { bg: 'bg.hover' } })}>
          <Icon name="close" />
        </SheetClose>
      </div>
      <DrawerNav groups={groups} mini={false} onNavigate={close} />
    </Sheet>
  );
}

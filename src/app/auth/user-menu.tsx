import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { Avatar } from '#src/components/ui/avatar.tsx';
import { MenuContent, MenuItem, MenuRoot, MenuTrigger } from '#src/components/ui/menu.tsx';
import { signOut } from './auth-session-loader.ts';
import { authUserStore } from './auth-user-store.ts';
import { useProfilePhoto } from './profile-photo.ts';
import { NotificationBell } from '../shell/notification-bell.tsx';

const trigger = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  minHeight: '10',
  ps: '1.5',
  pe: '3',
  borderRadius: 'md',
  color: 'fg.default',
  bg: 'bg.muted',
  cursor: 'pointer',
  fontSize: 'sm',
  _hover: { bg: 'bg.hover' },
});

/** The header's user menu: who is signed in, Change password, Sign out. */
export function UserMenu() {
  const { t, ready } = useTranslation('auth', { useSuspense: false });
  const user = useStoreValue(authUserStore, (s) => s.context.user);
  const [leaving, setLeaving] = useState(false);
  const photo = useProfilePhoto(user?.user_id);

  if (!ready) return null;
  if (!user) {
    return (
      <Link to="/login" className={trigger} data-testid="sign-in-link">
        {t('menu.signIn')}
      </Link>
    );
  }
  const name = [user.name, user.surname].filter((part) => typeof part === 'string' && part).join(' ') || String(user.emailaddress ?? '');
  return (
    <>
      {/* The notification bell comes with the user menu, after the first content (issue 21: the first render of / is at its budget). */}
      <NotificationBell />
      <MenuRoot lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }}>
        <MenuTrigger className={trigger} data-testid="user-menu">
          <Avatar name={name} src={photo} />
          <span className={css({ maxWidth: '12rem', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{name}</span>
        </MenuTrigger>
        <MenuContent aria-label={name}>
          <MenuItem value="account" asChild>
            <Link to="/account">{t('nav.account', { ns: 'common' })}</Link>
          </MenuItem>
          <MenuItem value="change-password" asChild>
            <Link to="/change-password">{t('menu.changePassword')}</Link>
          </MenuItem>
          <MenuItem
            value="sign-out"
            disabled={leaving}
            onSelect={() => {
              setLeaving(true);
              void signOut().finally(() => setLeaving(false));
            }}
          >
            {t('menu.signOut')}
          </MenuItem>
        </MenuContent>
      </MenuRoot>
    </>
  );
}

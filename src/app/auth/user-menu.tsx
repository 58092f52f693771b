import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { css } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { signOut } from './auth-session-loader.ts';
import { authUserStore } from './auth-user-store.ts';

const trigger = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  minHeight: '10',
  px: '3',
  borderRadius: 'md',
  color: 'fg.default',
  bg: 'bg.muted',
  cursor: 'pointer',
  fontSize: 'sm',
  _hover: { bg: 'bg.hover' },
});

const menu = css({
  position: 'absolute',
  insetInlineEnd: 0,
  top: 'calc(100% + 4px)',
  minWidth: '12rem',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  boxShadow: 'lg',
  py: '1',
  zIndex: 'dropdown',
  display: 'flex',
  flexDirection: 'column',
});

const item = css({
  textAlign: 'start',
  px: '3',
  py: '2',
  fontSize: 'sm',
  color: 'fg.default',
  cursor: 'pointer',
  _hover: { bg: 'bg.hover' },
  _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '-2px' },
});

/** The header's user menu: who is signed in, Change password, Sign out. */
export function UserMenu() {
  const { t, ready } = useTranslation('auth', { useSuspense: false });
  const user = useStoreValue(authUserStore, (s) => s.context.user);
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

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
    <div ref={box} className={css({ position: 'relative' })}>
      <button type="button" className={trigger} aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)} data-testid="user-menu">
        <Icon name="users" size={18} />
        <span className={css({ maxWidth: '12rem', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{name}</span>
      </button>
      {open ? (
        <div id={id} className={menu}>
          <Link to="/account" className={item} onClick={() => setOpen(false)}>
            {t('nav.account', { ns: 'common' })}
          </Link>
          <Link to="/change-password" className={item} onClick={() => setOpen(false)}>
            {t('menu.changePassword')}
          </Link>
          <button
            type="button"
            className={item}
            disabled={leaving}
            onClick={() => {
              setLeaving(true);
              void signOut().finally(() => setLeaving(false));
            }}
          >
            {t('menu.signOut')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

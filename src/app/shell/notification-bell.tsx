import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Link } from '#src/components/ui/link.tsx';
import { useUnreadCount } from '../notifications/unread-count.ts';

/** Material's notifications icon; here, not in the shell's icon set, because the bell loads after the first content. */
const BELL = 'M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6v-5c0-3.07-1.64-5.64-4.5-6.32V4a1.5 1.5 0 0 0-3 0v.68C7.63 5.36 6 7.92 6 11v5l-2 2v1h16v-1z';

const bell = css({
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '10',
  height: '10',
  borderRadius: 'md',
  color: 'fg.default',
  bg: 'bg.muted',
  _hover: { bg: 'bg.hover' },
  _focusVisible: { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '2px' },
});

const badge = css({
  position: 'absolute',
  top: '-1',
  insetEnd: '-1',
  minWidth: '5',
  height: '5',
  px: '1',
  borderRadius: 'full',
  bg: 'error.main',
  color: 'white',
  fontSize: 'xs',
  fontWeight: 'bold',
  lineHeight: '1.25rem',
  textAlign: 'center',
});

/** The header's bell (issue 21): the unread count, live over the hub; opens /account/notifications. The list itself loads there. */
export function NotificationBell() {
  const { t, ready } = useTranslation('notifications', { useSuspense: false });
  const count = useUnreadCount();
  if (!ready) return null;
  const shown = count && count > 0 ? (count > 99 ? '99+' : String(count)) : null;
  return (
    <Link
      to="/account?view=notifications"
      className={bell}
      aria-label={shown ? t('center.bellUnread', { count: count! }) : t('center.bell')}
      data-testid="notification-bell"
    >
      <svg width={20} height={20} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
        <path d={BELL} />
      </svg>
      {shown ? (
        <span className={badge} aria-hidden="true" data-testid="notification-count">
          {shown}
        </span>
      ) : null}
    </Link>
  );
}

import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { useUnreadCount } from '../notifications/unread-count.ts';

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

/** The header's bell (issue 21): the unread count, live over the hub; opens /notifications. The list itself loads there. */
export function NotificationBell() {
  const { t } = useTranslation();
  const count = useUnreadCount();
  const shown = count && count > 0 ? (count > 99 ? '99+' : String(count)) : null;
  return (
    <Link
      to="/notifications"
      className={bell}
      aria-label={shown ? t('shell.notificationsUnread', { count: count! }) : t('shell.notifications')}
      data-testid="notification-bell"
    >
      <Icon name="bell" />
      {shown ? (
        <span className={badge} aria-hidden="true" data-testid="notification-count">
          {shown}
        </span>
      ) : null}
    </Link>
  );
}

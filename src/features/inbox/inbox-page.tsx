import { useSelector } from '@xstate/react';
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { css, cx } from '#styled-system/css';
import type { NotificationDto } from '#machines/notification-center.machine.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { openSnackbar } from '#src/app/notifications/snackbar.ts';
import { Button } from '#src/components/ui/button.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ListSkeleton } from '#src/components/ui/skeleton.tsx';
import { EmptyState, ErrorState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { dayKey, groupByDay, notificationTitle } from './notification-title.ts';
import { inboxActor, startInbox, subscribeInboxActor } from './inbox-runtime.ts';
import type { NotificationCenterActor } from '#machines/notification-center.machine.ts';

const row = css({
  display: 'flex',
  alignItems: 'flex-start',
  gap: '3',
  px: '4',
  py: '3',
  borderTopWidth: '1px',
  borderColor: 'border',
  _first: { borderTopWidth: 0 },
});
const unreadDot = css({ flexShrink: 0, width: '2.5', height: '2.5', mt: '1.5', borderRadius: 'full', bg: 'primary.main' });
const readDot = css({ flexShrink: 0, width: '2.5', height: '2.5', mt: '1.5' });
const titleButton = css({
  textAlign: 'start',
  color: 'fg.default',
  cursor: 'pointer',
  _hover: { textDecoration: 'underline' },
  _focusVisible: { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '2px' },
});

/** /notifications (issue 21): the list grouped by day, mark read, mark all read, open, archive with UNDO. */
export default function NotificationsPage() {
  const actor = useSyncExternalStore(subscribeInboxActor, inboxActor, inboxActor);
  useEffect(() => startInbox(), []);
  return actor ? <NotificationList actor={actor} /> : <ListSkeleton columns={2} testId="notifications-loading" />;
}

export function NotificationList({ actor }: { actor: NotificationCenterActor }) {
  const { t } = useTranslation('notifications');
  const format = useFormat();
  const navigate = useNavigate();
  const state = useSelector(actor, (s) => (s.matches({ list: 'ready' }) ? 'ready' : s.matches({ list: 'failed' }) ? 'failed' : 'loading'));
  const items = useSelector(actor, (s) => s.context.items);
  const unread = useSelector(actor, (s) => s.context.unreadCount ?? 0);
  const hasMore = useSelector(actor, (s) => s.context.hasMore);
  const loadingMore = useSelector(actor, (s) => s.context.loadingMore);
  const error = useSelector(actor, (s) => s.context.error);
  const errorText = useErrorText(state === 'failed' ? error : null);

  useEffect(() => {
    actor.send({ type: 'list.open' });
    const archived = actor.on('archived', ({ id }) => {
      // The spec's snackbar: 'Note archived', bottom right, UNDO, 6000 ms, no close on click-away.
      void openSnackbar({ actionButton: true, onAction: () => actor.send({ type: 'item.unarchive', id }) });
    });
    const failed = actor.on('mutation.failed', ({ error: cause }) => void notify.error(cause));
    return () => {
      archived.unsubscribe();
      failed.unsubscribe();
      actor.send({ type: 'list.close' });
    };
  }, [actor]);

  const today = dayKey(new Date().toISOString(), format.timeZone);
  const yesterday = dayKey(new Date(Date.now() - 86_400_000).toISOString(), format.timeZone);
  const dayLabel = (day: string, sample: string) =>
    day === today ? t('center.today') : day === yesterday ? t('center.yesterday') : format.date(sample, 'full');

  const open = (n: NotificationDto) => {
    actor.send({ type: 'item.read', id: n.id });
    if (n.link) navigate(n.link);
  };

  return (
    <section aria-labelledby="notifications-title" className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <PageHeader
        id="notifications-title"
        title={t('center.title')}
        description={t('center.unread', { count: unread })}
        actions={
          <Button variant="outline" size="sm" disabled={unread === 0 || state !== 'ready'} onClick={() => actor.send({ type: 'item.readAll' })}>
            {t('center.markAllRead')}
          </Button>
        }
      />
      {state === 'loading' ? <ListSkeleton columns={2} label={t('center.loading')} testId="notifications-loading" /> : null}
      {state === 'failed' ? <ErrorState message={errorText ?? t('center.loadFailed')} onRetry={() => actor.send({ type: 'list.reload' })} /> : null}
      {state === 'ready' && items.length === 0 ? <EmptyState title={t('center.empty')}>{t('center.emptyHint')}</EmptyState> : null}
      {state === 'ready'
        ? groupByDay(items, format.timeZone).map((group) => (
            <section key={group.day} aria-labelledby={`day-${group.day}`} className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
              <h2 id={`day-${group.day}`} className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.muted' })}>
                {dayLabel(group.day, group.items[0].createdOn)}
              </h2>
              <ul className={card} data-testid="notification-day">
                {group.items.map((n) => {
                  const title = notificationTitle(t, n);
                  return (
                    <li key={n.id} className={row} data-testid="notification-item" data-unread={n.readOn === null ? 'true' : 'false'}>
                      <span className={n.readOn === null ? unreadDot : readDot} aria-hidden="true" />
                      <div className={css({ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: '1' })}>
                        <button
                          type="button"
                          className={cx(titleButton, css({ fontWeight: n.readOn === null ? 'semibold' : 'normal' }))}
                          onClick={() => open(n)}
                        >
                          {n.readOn === null ? <span className={css({ srOnly: true })}>{t('center.unreadMark')}</span> : null}
                          {n.readOn === null ? ' ' : null}
                          {title}
                        </button>
                        <time dateTime={n.createdOn} className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                          {format.time(n.createdOn)}
                        </time>
                      </div>
                      {n.readOn === null ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => actor.send({ type: 'item.read', id: n.id })}
                          aria-label={t('center.markReadNamed', { title })}
                        >
                          {t('center.markRead')}
                        </Button>
                      ) : null}
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => actor.send({ type: 'item.archive', id: n.id })}
                        aria-label={t('center.archiveNamed', { title })}
                      >
                        {t('center.archive')}
                      </Button>
                    </li>
                  );
                })}
              </ul>
            </section>
          ))
        : null}
      {state === 'ready' && hasMore ? (
        <Button variant="outline" loading={loadingMore} onClick={() => actor.send({ type: 'list.more' })} className={css({ alignSelf: 'center' })}>
          {t('center.more')}
        </Button>
      ) : null}
    </section>
  );
}

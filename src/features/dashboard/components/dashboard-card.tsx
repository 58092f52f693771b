import { useMachine } from '@xstate/react';
import { useDeferredValue, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { createDashboardCardMachine } from '#machines/dashboard-card.machine.ts';
import { Bone } from '#src/components/ui/skeleton.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { registerLiveActor } from '#src/app/live-actors.ts';
import { useRealtime } from '#src/app/realtime/use-realtime.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';

/** Live updates arriving within this window reload a card once. */
export const CARD_LIVE_RELOAD_MS = 300;

export interface DashboardCardProps<T> {
  /** Stable id: the heading's id and the test id (`card-<id>`). */
  id: string;
  title: string;
  /** The full list this card summarises. */
  to: string;
  linkLabel: string;
  load: () => Promise<T>;
  /** Reload on ticket changes pushed by the realtime hub (and after a resumed connection). */
  liveTickets?: boolean;
  /**
   * What the card shows while it loads, when the content's shape is known before its data (a fixed
   * row of figures): the same boxes, so nothing below moves when the data comes (issue 22). Three
   * grey lines otherwise.
   */
  skeleton?: ReactNode;
  /** Nothing is shown (not even the card) once loaded when this says so, e.g. no registrations. */
  hideWhen?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

const box = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  p: '5',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  minWidth: 0,
});

/**
 * One card of a dashboard (issue 21): its own loader actor (machines/dashboard-card.machine.ts),
 * a skeleton while it loads, its own error with a retry, and a link to the full list. A card
 * that follows ticket pushes reloads behind its data.
 */
export function DashboardCard<T>({ id, title, to, linkLabel, load, liveTickets = false, skeleton, hideWhen, children }: DashboardCardProps<T>) {
  const { t } = useTranslation('dashboard');
  const machine = useMemo(() => createDashboardCardMachine<T>(), []);
  const [current, send, actorRef] = useMachine(machine, { input: { load } });
  // Listed in the live mode of /machines, one entry per card.
  useEffect(() => registerLiveActor(`dashboard-card:${id}`, machine, actorRef), [id, machine, actorRef]);
  // The card's content renders in a deferred pass: an actor's change renders at once and in one
  // piece, and a dashboard's cards answering together held a phone's main thread for a quarter
  // of a second each. Deferred, React renders them in slices while the page stays responsive
  // (issue 22); until then the card keeps what it showed (its skeleton).
  const snapshot = useDeferredValue(current);
  const errorText = useErrorText(snapshot.matches('failed') ? snapshot.context.error : null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useRealtime((notice) => {
    if (!liveTickets || timer.current) return;
    const relevant =
      (notice.type === 'event' && notice.frame.kind === 'ticket.changed') ||
      (notice.type === 'event' && notice.frame.kind === 'chat.message') ||
      notice.type === 'resync' ||
      (notice.type === 'connected' && notice.resumed);
    if (!relevant) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      send({ type: 'card.refresh' });
    }, CARD_LIVE_RELOAD_MS);
  });

  const data = snapshot.context.data;
  if (snapshot.matches('ready') && data !== null && hideWhen?.(data)) return null;
  const headingId = `card-${id}-title`;
  return (
    <section aria-labelledby={headingId} data-testid={`card-${id}`} className={box} aria-busy={snapshot.matches('loading') || undefined}>
      <div className={css({ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: '2', flexWrap: 'wrap' })}>
        <h2 id={headingId} className={css({ fontSize: 'md', fontWeight: 'semibold' })}>
          {title}
        </h2>
        <Link to={to} className={css({ fontSize: 'sm', color: 'primary.main', textDecoration: 'underline', textUnderlineOffset: '2px' })}>
          {linkLabel}
        </Link>
      </div>
      {snapshot.matches('loading') ? (
        <div role="status" aria-label={t('card.loading', { title })} data-testid={`card-${id}-skeleton`} className={css({ display: 'grid', gap: '2' })}>
          {skeleton ?? (
            <>
              <Bone width="60%" />
              <Bone width="85%" />
              <Bone width="40%" />
            </>
          )}
        </div>
      ) : snapshot.matches('failed') ? (
        <div role="alert" data-testid={`card-${id}-error`} className={css({ display: 'grid', gap: '2', justifyItems: 'start' })}>
          <p className={css({ color: 'error.main', fontWeight: 'semibold', fontSize: 'sm' })}>{t('card.failed')}</p>
          {errorText ? <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{errorText}</p> : null}
          <Button variant="outline" size="sm" onClick={() => send({ type: 'card.retry' })}>
            {t('card.retry')}
          </Button>
        </div>
      ) : data !== null ? (
        <div data-testid={`card-${id}-content`}>
          {snapshot.context.stale ? <p className={css({ fontSize: 'xs', color: 'fg.muted', mb: '2' })}>{t('card.stale')}</p> : null}
          {children(data)}
        </div>
      ) : null}
    </section>
  );
}

/** A row of label → count figures (statuses, totals); a null value is a grey box the size of a count (the card's skeleton). */
export function Figures({ items, testId }: { items: Array<{ key: string; label: string; value: number | null; to?: string }>; testId?: string }) {
  return (
    <dl data-testid={testId} className={css({ display: 'flex', flexWrap: 'wrap', gap: '3' })}>
      {items.map((item) => (
        <div
          key={item.key}
          className={css({ minWidth: '20', px: '3', py: '2', borderRadius: 'md', bg: 'bg.muted' })}
          data-testid={testId ? `${testId}-${item.key}` : undefined}
        >
          <dt className={css({ fontSize: 'xs', color: 'fg.muted' })}>{item.label}</dt>
          <dd className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
            {item.value === null ? <Bone width="2ch" height="1lh" /> : item.to ? <Link to={item.to}>{item.value}</Link> : item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export const cardList = css({ display: 'grid', gap: '2', listStyle: 'none', p: '0', m: '0' });
export const cardRow = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2', fontSize: 'sm' });
export const muted = css({ color: 'fg.muted', fontSize: 'sm' });
export const cardGrid = css({
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' },
  mt: '4',
});

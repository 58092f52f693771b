import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { useFormat } from '#src/lib/format.ts';
import { ticketsApi, type TicketHistoryEntry } from '../api/tickets-api.ts';

const known = new Set([
  'ticket.created',
  'ticket.edited',
  'ticket.claim',
  'ticket.release',
  'ticket.hold',
  'ticket.resume',
  'ticket.reassign',
  'ticket.escalate',
  'ticket.childrenDone',
  'ticket.resolve',
  'ticket.acceptBotAnswer',
  'ticket.close',
  'ticket.reopen',
  'ticket.cancel',
  'document.added',
  'document.deleted',
  'bot.suggested',
]);

/** A ticket's history, loaded once the ticket is (version not null) and again whenever its version moves; null while loading. */
export function useTicketHistory(ticketId: number, version: number | null): TicketHistoryEntry[] | null {
  const [entries, setEntries] = useState<TicketHistoryEntry[] | null>(null);
  useEffect(() => {
    if (version === null) return;
    let current = true;
    ticketsApi.history(ticketId).then(
      (list) => current && setEntries(list),
      () => current && setEntries([]),
    );
    return () => {
      current = false;
    };
  }, [ticketId, version]);
  return entries;
}

/** One change of the ticket: who, what, from which status to which, why, when. */
export function HistoryEntryText({ entry }: { entry: TicketHistoryEntry }) {
  const { t } = useTranslation('tickets');
  const format = useFormat();
  const actor = entry.actorKind === 'system' ? t('history.system') : (entry.actorName ?? t('someone'));
  const key = known.has(entry.event) ? entry.event.replace('.', '_') : 'other';
  const details = entry.details as { fileName?: string; toSupportGroupName?: string; childTicketId?: number };
  return (
    <>
      <p>
        <strong>{actor}</strong>{' '}
        {t(`history.event.${key}`, { file: details.fileName ?? '', group: details.toSupportGroupName ?? '', child: details.childTicketId ?? '' })}
        {entry.fromStatus && entry.toStatus && entry.fromStatus !== entry.toStatus ? (
          <span className={css({ color: 'fg.muted' })}>
            {' '}
            ({t(`status.${entry.fromStatus}`)} → {t(`status.${entry.toStatus}`)})
          </span>
        ) : null}
      </p>
      {entry.reason ? <p className={css({ color: 'fg.muted', whiteSpace: 'pre-wrap', mt: '0.5' })}>{entry.reason}</p> : null}
      <time dir="auto" dateTime={entry.createdOn} className={css({ fontSize: 'xs', color: 'fg.subtle' })}>
        {format.dateTime(entry.createdOn)}
      </time>
    </>
  );
}

/**
 * Every change of the ticket in order, as its own list: for those who see the ticket without its
 * chat. Beside the chat the same entries are woven into the conversation's one timeline.
 */
export function TicketHistory({ entries }: { entries: readonly TicketHistoryEntry[] | null }) {
  const { t } = useTranslation('tickets');

  return (
    <section aria-labelledby="ticket-history-title">
      <h2 id="ticket-history-title" className={css({ fontSize: 'md', fontWeight: 'bold', mb: '3' })}>
        {t('history.title')}
      </h2>
      {entries === null ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('common.loading')}</p>
      ) : (
        <ol
          className={css({
            listStyle: 'none',
            p: 0,
            m: 0,
            borderInlineStartWidth: '2px',
            borderColor: 'border',
            ps: '4',
            display: 'flex',
            flexDirection: 'column',
            gap: '3',
          })}
          data-testid="ticket-history"
        >
          {entries.map((entry) => (
            <li key={entry.id} className={css({ position: 'relative', fontSize: 'sm' })}>
              <span
                aria-hidden="true"
                className={css({
                  position: 'absolute',
                  insetInlineStart: '-5',
                  top: '1.5',
                  width: '2',
                  height: '2',
                  borderRadius: 'full',
                  bg: 'primary.main',
                })}
              />
              <HistoryEntryText entry={entry} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

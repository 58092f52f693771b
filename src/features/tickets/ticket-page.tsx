import { PageSkeleton } from '#src/components/ui/skeleton.tsx';
import { useMachine, useSelector } from '@xstate/react';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { fromPromise } from 'xstate';
import { P } from '#machines/permissions.ts';
import type { TicketChangedData } from '#machines/realtime-protocol.ts';
import { actionsFor, ticketViewMachine, type TicketViewEvent } from '#machines/ticket-view.machine.ts';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { menuStore } from '#src/app/stores/menu-store.ts';
import { registerLiveActor } from '#src/app/live-actors.ts';
import { userPermissionsStore } from '#src/app/stores/slices.ts';
import { Button } from '#src/components/ui/button.tsx';
import { card } from '#src/components/ui/page-header.tsx';
import { ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { ticketsApi, type TicketDetail } from './api/tickets-api.ts';
import { PriorityBadge, StatusBadge } from './components/ticket-badges.tsx';
import { TicketActionDialog, TicketActionsBar } from './components/ticket-actions.tsx';
import { TicketDocuments } from './components/ticket-documents.tsx';
import { HistoryEntryText, TicketHistory, useTicketHistory } from './components/ticket-history.tsx';
import { useRealtime, useRealtimeUserId } from '#src/app/realtime/use-realtime.ts';
import { ChatPanel } from '#src/features/chat/index.ts';
import { failRecord, storeRecord } from '#src/app/stores/record-slices.ts';

const section = css({ p: { base: '4', sm: '5' } });
const meta = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }, gap: '3', fontSize: 'sm' });

/**
 * Loads a ticket through the desk's view when the caller works tickets and may see it there,
 * otherwise through the requester's own view.
 */
async function loadTicket(ticketId: number, staff: boolean): Promise<{ ticket: TicketDetail; view: 'requester' | 'staff' }> {
  if (staff) {
    try {
      return { ticket: await ticketsApi.get(ticketId, 'staff'), view: 'staff' };
    } catch (error) {
      if ((error as { statusCode?: number })?.statusCode !== 404) throw error;
    }
  }
  return { ticket: await ticketsApi.get(ticketId, 'requester'), view: 'requester' };
}

/**
 * Whether a ticket the viewer had open is still theirs to see after a pushed change: requesters
 * and support admins always; agents while it stays in their group; whoever it is assigned to.
 */
export function stillInReach(ticket: TicketDetail, change: Pick<TicketChangedData, 'supportGroupId' | 'assigneeId'>, userId: string | null): boolean {
  if (ticket.viewer.requester || ticket.viewer.supportAdmin) return true;
  if (ticket.viewer.agent && change.supportGroupId === ticket.supportGroupId) return true;
  return userId !== null && change.assigneeId === userId;
}

/** /tickets/:ticketId, and /support/tickets/:ticketId for a ticket opened from the support desk. */
export default function TicketPage() {
  const { ticketId } = useParams<{ ticketId: string }>();
  // A new ticket id is a new ticket: a fresh actor, not the last ticket's state (a link from a
  // parent to its escalation stays on this route).
  return <TicketView key={ticketId} ticketId={Number(ticketId)} />;
}

/** Links to other tickets stay where this one was opened: under My tickets or under the support desk. */
function useTicketPaths() {
  const { pathname } = useLocation();
  const fromDesk = pathname.startsWith('/support/');
  return { fromDesk, ticketPath: (id: number) => `${fromDesk ? '/support/tickets' : '/tickets'}/${id}`, listPath: fromDesk ? '/support' : '/tickets' };
}

function TicketView({ ticketId }: { ticketId: number }) {
  const paths = useTicketPaths();
  const { t } = useTranslation('tickets');
  const format = useFormat();
  const staff = useSelector(userPermissionsStore, (s) => s.context.permissions.includes(P.SupportTickets.Work));

  const machine = useMemo(
    () =>
      ticketViewMachine.provide({
        actors: {
          loadTicket: fromPromise(async ({ input }) => (await loadTicket(input.ticketId, staff)).ticket),
          performAction: fromPromise(({ input }) => ticketsApi.perform(input.ticketId, input.action, input.fields)),
        },
      }),
    [staff],
  );
  // systemId: the /machines page finds the open ticket's actor for its live view.
  const [snapshot, send, actorRef] = useMachine(machine, { input: { ticketId }, systemId: 'openTicket' });
  // Stays listed as stopped when the page closes, so /machines shows the last ticket's state and events.
  useEffect(() => {
    const release = registerLiveActor('open-ticket', ticketViewMachine, actorRef);
    return () => release({ keep: true });
  }, [actorRef]);
  const ticket = snapshot.context.ticket as TicketDetail | null;
  // The ticket slice holds the ticket open, as last loaded (docs/decisions/0204).
  const loadFailed = snapshot.matches('failed');
  useEffect(() => {
    if (ticket) storeRecord('ticket', { ticketId: ticket.ticketId, title: ticket.title, statusId: ticket.statusId, version: ticket.version });
    else if (loadFailed) failRecord('ticket');
  }, [ticket, loadFailed]);
  const hubUserId = useRealtimeUserId();
  const canChat = useSelector(userPermissionsStore, (s) => s.context.permissions.includes(P.SupportChat.Use));
  // The history, woven into the chat as one timeline (issue 23); reloaded when the ticket changes.
  const history = useTicketHistory(ticketId, ticket?.version ?? null);
  const timeline = useMemo(
    () => (history ?? []).map((entry) => ({ key: String(entry.id), at: entry.createdOn, item: <HistoryEntryText entry={entry} /> })),
    [history],
  );
  const participants = useMemo(
    () =>
      ticket
        ? [
            { userId: ticket.loginUserId, name: ticket.requesterName },
            ...(ticket.assigneeId ? [{ userId: ticket.assigneeId, name: ticket.assigneeName ?? '' }] : []),
          ]
        : [],
    [ticket],
  );

  // Someone else changed this ticket (status, assignment, documents): show it as it is now —
  // unless the change took it out of this viewer's reach (moved to another group or agent): then
  // say so instead of asking for a ticket the server would now refuse. After a lost connection
  // the ticket is reloaded too, since changes may have been missed.
  const [movedAway, setMovedAway] = useState(false);
  useRealtime((notice) => {
    if (notice.type === 'event' && notice.frame.kind === 'ticket.changed' && notice.frame.ticketId === ticketId) {
      if (ticket && !stillInReach(ticket, notice.frame.data as unknown as TicketChangedData, hubUserId)) setMovedAway(true);
      else send({ type: 'ticket.reload' });
    } else if (notice.type === 'resync' || (notice.type === 'connected' && notice.resumed)) send({ type: 'ticket.reload' });
  });
  const view: 'requester' | 'staff' = ticket && (ticket.viewer.agent || ticket.viewer.assignee || ticket.viewer.supportAdmin) ? 'staff' : 'requester';
  const loadErrorText = useErrorText(snapshot.matches('failed') ? snapshot.context.loadError : null);
  const busy = snapshot.hasTag('busy');
  const actions = actionsFor(ticket);

  // The ticket's title as the last breadcrumb.
  const crumbPath = ticket ? paths.ticketPath(ticket.ticketId) : null;
  useEffect(() => {
    if (!ticket || !crumbPath) return;
    menuStore.trigger.setDynamicBreadcrumb({ data: [{ path: crumbPath, title: `#${ticket.ticketId} ${ticket.title}` }], name: 'ticket' });
    return () => menuStore.trigger.setDynamicBreadcrumb({ data: null, name: null });
  }, [ticket?.ticketId, ticket?.title, ticket, crumbPath]);

  // A conflict reloaded the ticket: say what it is now.
  useEffect(() => {
    if (snapshot.context.changedTo) void notify.warning(t('conflict', { status: t(`status.${snapshot.context.changedTo}`) }), { id: 'ticket-conflict' });
  }, [snapshot.context.changedTo, t]);

  // A failed direct action (claim, release, resume) shows why, once per failure.
  const idle = snapshot.matches({ ready: 'idle' });
  const failedAction = snapshot.context.actionError;
  useEffect(() => {
    if (idle && failedAction) void notify.error(failedAction, { id: 'ticket-action-error' });
  }, [idle, failedAction]);

  if (snapshot.matches('loading')) return <PageSkeleton />;
  if (snapshot.matches('failed') || !ticket) {
    return (
      <section aria-labelledby="ticket-missing">
        <h1 id="ticket-missing" className={css({ fontSize: '2xl', fontWeight: 'bold', mb: '2' })}>
          {t('view.unavailable', { id: ticketId })}
        </h1>
        <ErrorState message={loadErrorText} onRetry={() => send({ type: 'ticket.reload' })} />
        <Link to={paths.listPath} className={css({ color: 'primary.dark', textDecoration: 'underline' })}>
          {paths.fromDesk ? t('view.backToDesk') : t('view.backToList')}
        </Link>
      </section>
    );
  }

  const reload = () => send({ type: 'ticket.reload' });
  const canAcceptBot = actions.includes('ticket.acceptBotAnswer') && ticket.botSuggestion && !ticket.botSuggestion.accepted;

  return (
    <article
      aria-labelledby="ticket-title"
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      data-testid="ticket-page"
      data-status={ticket.status}
    >
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', justifyContent: 'space-between', gap: '3' })}>
        <div className={css({ minWidth: 0 })}>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>#{ticket.ticketId}</p>
          <h1 id="ticket-title" className={css({ fontSize: '2xl', fontWeight: 'bold', overflowWrap: 'anywhere' })}>
            {ticket.title}
          </h1>
          <div className={css({ display: 'flex', gap: '2', mt: '2', flexWrap: 'wrap' })}>
            <StatusBadge statusId={ticket.statusId} />
            <PriorityBadge priorityId={ticket.supportTicketPriorityId} />
          </div>
        </div>
        <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2' })}>
          {canChat && !movedAway && ticket.status !== 'Closed' ? (
            // The primary action of a conversation (issue 23): straight to the message box.
            <Button
              data-testid="ticket-reply"
              onClick={() => {
                const composer = document.querySelector<HTMLTextAreaElement>('[data-chat-composer]');
                composer?.scrollIntoView({ block: 'nearest' });
                composer?.focus();
              }}
            >
              {t('view.reply')}
            </Button>
          ) : null}
          <TicketActionsBar actions={actions} busy={busy} send={send as (event: TicketViewEvent) => void} />
        </div>
      </div>

      {movedAway ? (
        <div
          role="status"
          className={css({ display: 'flex', alignItems: 'center', gap: '3', p: '3', borderRadius: 'md', bg: 'warning.lighter', color: 'warning.darker' })}
          data-testid="ticket-moved"
        >
          <span className={css({ flex: 1 })}>{t('live.moved')}</span>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setMovedAway(false);
              send({ type: 'ticket.reload' });
            }}
          >
            {t('live.reload')}
          </Button>
        </div>
      ) : null}

      {snapshot.context.changedTo ? (
        <div
          role="status"
          className={css({ display: 'flex', alignItems: 'center', gap: '3', p: '3', borderRadius: 'md', bg: 'warning.lighter', color: 'warning.darker' })}
        >
          <span className={css({ flex: 1 })}>{t('conflict', { status: t(`status.${snapshot.context.changedTo}`) })}</span>
          <Button size="sm" variant="ghost" onClick={() => send({ type: 'notice.dismiss' })}>
            {t('common.dismiss')}
          </Button>
        </div>
      ) : null}

      {/* Conversation first (issue 23): the chat and the history as one timeline in the main column,
          beside the details; at 1440×900 the chat is on screen without scrolling. Without the
          chat the history is shown on its own. */}
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: 'minmax(0, 3fr) minmax(18rem, 2fr)' }, gap: '4', alignItems: 'start' })}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', minWidth: 0 })} data-testid="ticket-conversation">
          {canChat && !movedAway ? (
            <div className={`${card} ${section}`}>
              <Suspense fallback={<LoadingState />}>
                <ChatPanel
                  key={ticket.ticketId}
                  ticketId={ticket.ticketId}
                  status={ticket.status}
                  userId={hubUserId ?? (ticket.viewer.requester ? ticket.loginUserId : null)}
                  timeline={timeline}
                  participants={participants}
                  defaultRecipientId={ticket.viewer.requester ? ticket.assigneeId : ticket.loginUserId}
                />
              </Suspense>
            </div>
          ) : (
            <div className={`${card} ${section}`}>
              <TicketHistory entries={history} />
            </div>
          )}
        </div>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', minWidth: 0 })} data-testid="ticket-details">
          <div className={card}>
            <dl className={`${section} ${meta}`}>
              {[
                [t('field.requester'), ticket.requesterName],
                [t('field.group'), ticket.supportGroupName],
                [t('field.assignee'), ticket.assigneeName ?? t('unassigned')],
                [t('field.created'), format.dateTime(ticket.createdOn)],
                [t('field.updated'), format.dateTime(ticket.lastModifiedOn)],
                ...(ticket.parentSupportTicketId ? [[t('field.parent'), `#${ticket.parentSupportTicketId}`]] : []),
              ].map(([label, value]) => (
                <div key={label}>
                  <dt className={css({ color: 'fg.muted', fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wide' })}>{label}</dt>
                  <dd className={css({ fontWeight: 'medium', overflowWrap: 'anywhere' })}>{value}</dd>
                </div>
              ))}
            </dl>
            <div className={section} style={{ borderTop: '1px solid var(--colors-border)' }}>
              <h2 className={css({ fontSize: 'md', fontWeight: 'bold', mb: '2' })}>{t('field.description')}</h2>
              <p className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' })}>{ticket.description}</p>
            </div>
          </div>

          {ticket.answer ? (
            <section aria-labelledby="ticket-answer" className={`${card} ${section}`} style={{ borderColor: 'var(--colors-success-main)' }}>
              <h2 id="ticket-answer" className={css({ fontSize: 'md', fontWeight: 'bold', mb: '2' })}>
                {t('view.answer')}
              </h2>
              <p className={css({ whiteSpace: 'pre-wrap' })} data-testid="ticket-answer">
                {ticket.answer}
              </p>
            </section>
          ) : null}

          {ticket.botSuggestion && !ticket.answer ? (
            <section aria-labelledby="ticket-bot" className={`${card} ${section}`} data-testid="bot-suggestion">
              <h2 id="ticket-bot" className={css({ fontSize: 'md', fontWeight: 'bold', mb: '1' })}>
                {t('bot.title')}
              </h2>
              <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '2' })}>
                {t('bot.source', { id: ticket.botSuggestion.sourceTicketId, score: Math.round(ticket.botSuggestion.score * 100) })}
              </p>
              <p className={css({ whiteSpace: 'pre-wrap' })}>{ticket.botSuggestion.answer}</p>
              {canAcceptBot ? (
                <div className={css({ mt: '3' })}>
                  <Button
                    size="sm"
                    onClick={() =>
                      send({ type: 'action.start', action: 'ticket.acceptBotAnswer', fields: { supportTicketBotId: ticket.botSuggestion!.supportTicketBotId } })
                    }
                    disabled={busy}
                  >
                    {t('actions.acceptBotAnswer')}
                  </Button>
                </div>
              ) : null}
            </section>
          ) : null}

          {ticket.children.length ? (
            <section aria-labelledby="ticket-children" className={`${card} ${section}`}>
              <h2 id="ticket-children" className={css({ fontSize: 'md', fontWeight: 'bold', mb: '2' })}>
                {t('view.children')}
              </h2>
              <ul className={css({ listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: '2' })}>
                {ticket.children.map((child) => (
                  <li key={child.ticketId} className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
                    <Link to={paths.ticketPath(child.ticketId)} className={css({ color: 'primary.dark', textDecoration: 'underline' })}>
                      #{child.ticketId}
                    </Link>
                    <span>{child.supportGroupName}</span>
                    <StatusBadge statusId={child.statusId} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <div className={`${card} ${section}`}>
            <TicketDocuments ticket={ticket} view={view} userId={ticket.viewer.requester ? ticket.loginUserId : null} onChanged={reload} />
          </div>
        </div>
      </div>

      {snapshot.context.action &&
      (snapshot.matches({ ready: 'editing' }) ||
        (snapshot.matches({ ready: 'submitting' }) &&
          snapshot.context.action !== 'ticket.claim' &&
          snapshot.context.action !== 'ticket.release' &&
          snapshot.context.action !== 'ticket.resume')) ? (
        <TicketActionDialog
          action={snapshot.context.action}
          ticket={ticket}
          fields={snapshot.context.fields}
          fieldErrors={snapshot.context.fieldErrors}
          actionError={snapshot.context.actionError}
          busy={snapshot.matches({ ready: 'submitting' })}
          send={send as (event: TicketViewEvent) => void}
        />
      ) : null}
    </article>
  );
}

import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessageData, ChatReadData } from '#machines/realtime-protocol.ts';
import { css, cx } from '#styled-system/css';
import { useRealtime, useRealtimeStatus } from '#src/app/realtime/use-realtime.ts';
import { Button } from '#src/components/ui/button.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { Spinner } from '#src/components/ui/spinner.tsx';
import { useFormat } from '#src/lib/format.ts';
import { chatDrafts } from './chat-drafts.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { chatApi, MAX_MESSAGE_LENGTH } from './api/chat-api.ts';
import { createChatStore, newestSeq, oldestSeq, type ChatEntry } from './chat-store.ts';
import { weaveTimeline, type TimelineEvent } from './timeline.ts';

/** Statuses after which a ticket's chat is read-only (TICKETS.md). */
const READ_ONLY_STATUSES = new Set(['Closed', 'Cancelled']);

export interface ChatPanelProps {
  ticketId: number;
  /** The ticket's status as the page shows it: Closed and Cancelled make the chat read-only. */
  status: string;
  /** The signed-in user (their messages are "mine"). */
  userId: string | null;
  userName?: string;
  /**
   * What happened to the ticket (its history), woven into the messages as one timeline (issue 23).
   * Absent: the panel is the chat alone.
   */
  timeline?: readonly TimelineEvent<ReactNode>[];
  /** People of the ticket known before anyone writes (requester, assignee): who a message can be addressed to. */
  participants?: ReadonlyArray<{ userId: string; name: string }>;
  /** Who a message goes to when nobody is chosen: the server's default (the assignee from the requester, else the requester). */
  defaultRecipientId?: string | null;
}

function newMessageId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Not a secure context: a version-4 UUID from getRandomValues.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const log = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  maxHeight: '24rem',
  minHeight: '8rem',
  overflowY: 'auto',
  p: '2',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  bg: 'bg.subtle',
  _focusVisible: { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: '2px' },
});

/** A change of the ticket between the messages: small, centred, not a speech bubble. */
const eventRow = css({
  alignSelf: 'center',
  maxWidth: '90%',
  px: '3',
  py: '1.5',
  borderRadius: 'md',
  borderWidth: '1px',
  borderStyle: 'dashed',
  borderColor: 'border',
  fontSize: 'xs',
  color: 'fg.muted',
  textAlign: 'center',
});

const bubble = css({
  maxWidth: '85%',
  px: '3',
  py: '2',
  borderRadius: 'lg',
  bg: 'bg.default',
  borderWidth: '1px',
  borderColor: 'border',
  alignSelf: 'flex-start',
  '&[data-mine=true]': { alignSelf: 'flex-end', bg: 'primary.lighter', borderColor: 'primary.light' },
  '&[data-delivery=failed]': { borderColor: 'error.main' },
});

/**
 * The chat of one ticket (issue 8): history with infinite scroll upward, the other side's
 * messages live, a composer (Enter sends, Shift+Enter starts a new line) and a delivery mark per
 * own message (sending, sent, not sent + retry). Read-only once the ticket is Closed or Cancelled.
 */
export function ChatPanel({ ticketId, status, userId, userName, timeline, participants = [], defaultRecipientId = null }: ChatPanelProps) {
  const { t } = useTranslation('chat');
  const format = useFormat();
  // One store per ticket (the page keys the panel by ticket); the user may become known later.
  const [store] = useState(() => createChatStore(userId));
  useEffect(() => store.trigger.user({ userId }), [store, userId]);
  const state = useSelector(store, (s) => s.context);
  const connection = useRealtimeStatus();
  const logRef = useRef<HTMLDivElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  // An unsent message survives navigating away and back (issue 23).
  const [draft, setDraftState] = useState(() => chatDrafts.get(userId, ticketId));
  const setDraft = useCallback(
    (text: string) => {
      chatDrafts.set(userId, ticketId, text);
      setDraftState(text);
    },
    [userId, ticketId],
  );
  const [visible, setVisible] = useState(true);
  const headingId = useId();
  const composerId = useId();
  const loadErrorText = useErrorText(state.status === 'failed' ? state.loadError : null);
  const readOnly = state.readOnly || READ_ONLY_STATUSES.has(status);
  const marked = useRef(0);
  /** Where to keep the view after a render: at the bottom, or where it was before older messages were added above. */
  const scrollPlan = useRef<{ kind: 'bottom' } | { kind: 'keep'; fromBottom: number } | null>({ kind: 'bottom' });

  const nearBottom = () => {
    const el = logRef.current;
    return !el || el.scrollHeight - el.scrollTop - el.clientHeight < 48;
  };

  const loadLatest = useCallback(
    async (first: boolean) => {
      if (first) store.trigger.loading();
      try {
        const page = await chatApi.history(ticketId, null);
        if (nearBottom()) scrollPlan.current = { kind: 'bottom' };
        store.trigger.loaded({ page });
      } catch (error) {
        if (first || store.getSnapshot().context.status !== 'ready') store.trigger.loadFailed({ error });
      }
    },
    [store, ticketId],
  );

  useEffect(() => {
    void loadLatest(true);
  }, [loadLatest]);

  const loadOlder = useCallback(async () => {
    const context = store.getSnapshot().context;
    const before = oldestSeq(context);
    if (context.older === 'loading' || !context.hasOlder || before === null) return;
    store.trigger.olderLoading();
    try {
      const page = await chatApi.history(ticketId, before);
      const el = logRef.current;
      scrollPlan.current = el ? { kind: 'keep', fromBottom: el.scrollHeight - el.scrollTop } : null;
      store.trigger.olderLoaded({ page });
    } catch {
      store.trigger.olderFailed();
    }
  }, [store, ticketId]);

  // Infinite scroll upward: reaching the top of the list loads the page before it.
  useEffect(() => {
    const top = topRef.current;
    const root = logRef.current;
    if (!top || !root || typeof IntersectionObserver === 'undefined' || state.status !== 'ready' || !state.hasOlder) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadOlder();
      },
      { root },
    );
    observer.observe(top);
    return () => observer.disconnect();
  }, [loadOlder, state.status, state.hasOlder, state.entries.length]);

  // Keep the reader's place: new messages scroll into view only for a reader at the bottom.
  useLayoutEffect(() => {
    const el = logRef.current;
    const plan = scrollPlan.current;
    if (!el || !plan) return;
    if (plan.kind === 'bottom') el.scrollTop = el.scrollHeight;
    else el.scrollTop = el.scrollHeight - plan.fromBottom;
    scrollPlan.current = null;
  }, [state.entries]);

  // Whether the chat is on screen, for the read marker.
  useEffect(() => {
    const el = logRef.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((entry) => entry.isIntersecting)));
    observer.observe(el);
    return () => observer.disconnect();
  }, [state.status]);

  // Mark read what is shown, once it is visible and the tab is in front.
  const newest = newestSeq(state);
  const unreadOthers = state.entries.some((entry) => !entry.mine && entry.seq !== null && entry.seq > state.lastReadSeq);
  useEffect(() => {
    const check = () => {
      if (!visible || !unreadOthers || newest <= marked.current || (typeof document !== 'undefined' && document.visibilityState === 'hidden')) return;
      marked.current = newest;
      chatApi.markRead(ticketId, newest).then(
        (answer) => store.trigger.read({ lastReadSeq: answer.lastReadSeq }),
        () => {
          marked.current = 0;
        },
      );
    };
    check();
    document.addEventListener('visibilitychange', check);
    return () => document.removeEventListener('visibilitychange', check);
  }, [visible, unreadOthers, newest, ticketId, store]);

  useRealtime((notice) => {
    if (notice.type === 'resync' || (notice.type === 'connected' && notice.resumed)) {
      // Catch up through the history as well (a resync replays nothing).
      void loadLatest(false);
      return;
    }
    if (notice.type !== 'event' || notice.frame.ticketId !== ticketId) return;
    const { kind, data } = notice.frame;
    if (kind === 'chat.message') {
      if (nearBottom()) scrollPlan.current = { kind: 'bottom' };
      store.trigger.received({ message: data as unknown as ChatMessageData });
    } else if (kind === 'chat.read') {
      store.trigger.read({ lastReadSeq: (data as unknown as ChatReadData).lastReadSeq });
    }
    // Ticket changes reach the panel through its `status` (the page reloads the ticket).
  });

  // Everyone a message can be addressed to (spec §3 toUserId): the ticket's people and whoever
  // has written, except oneself. A choice is offered only when there is more than one.
  const people = useMemo(() => {
    const names = new Map<string, string>();
    for (const person of participants) names.set(person.userId, person.name);
    for (const entry of state.entries) if (entry.fromUserId && !names.has(entry.fromUserId)) names.set(entry.fromUserId, entry.fromUserName);
    return names;
  }, [participants, state.entries]);
  const recipients = useMemo(() => [...people].filter(([id]) => id !== userId).map(([value, label]) => ({ value, label })), [people, userId]);
  const addressed = recipients.length > 1;
  const [chosenRecipient, setChosenRecipient] = useState<string | null>(null);
  const recipient = addressed
    ? (recipients.find((r) => r.value === chosenRecipient) ?? recipients.find((r) => r.value === defaultRecipientId) ?? recipients[0]).value
    : null;

  const deliver = useCallback(
    async (messageId: string, text: string, toUserId: string | null) => {
      scrollPlan.current = { kind: 'bottom' };
      store.trigger.sending({ messageId, message: text, at: new Date().toISOString(), userName: userName ?? '', toUserId });
      try {
        const message = toUserId ? await chatApi.send(ticketId, text, messageId, toUserId) : await chatApi.send(ticketId, text, messageId);
        store.trigger.sent({ message });
      } catch (error) {
        store.trigger.sendFailed({ messageId, error });
        // The ticket may have been closed meanwhile: the history says so.
        if ((error as { statusCode?: number })?.statusCode === 409) void loadLatest(false);
      }
    },
    [store, ticketId, userName, loadLatest],
  );

  const submit = () => {
    const text = draft.trim();
    if (!text || readOnly || text.length > MAX_MESSAGE_LENGTH) return;
    setDraft('');
    void deliver(newMessageId(), text, recipient);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const tooLong = draft.trim().length > MAX_MESSAGE_LENGTH;
  const rows = useMemo(() => weaveTimeline(state.entries, timeline ?? [], state.hasOlder), [state.entries, timeline, state.hasOlder]);
  // Offline is said once, by the app's offline banner (issue 23); the panel says only that its
  // live connection is being re-established.
  const reconnecting = connection === 'reconnecting';

  return (
    <section aria-labelledby={headingId} className={css({ display: 'flex', flexDirection: 'column', gap: '3' })} data-testid="chat-panel">
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' })}>
        <h2 id={headingId} className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          {timeline ? t('conversation') : t('title')}
        </h2>
        {reconnecting ? (
          <span role="status" className={css({ fontSize: 'xs', color: 'warning.darker' })} data-testid="chat-connection">
            {t('connection.reconnecting')}
          </span>
        ) : null}
      </div>

      {state.status === 'loading' ? (
        <LoadingState label={t('loading')} />
      ) : state.status === 'failed' ? (
        <ErrorState message={loadErrorText} onRetry={() => void loadLatest(true)} />
      ) : (
        <div
          ref={logRef}
          role="log"
          aria-label={timeline ? t('timeline') : t('messages')}
          aria-live="polite"
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling log must take focus so keyboard users can scroll it (axe: scrollable-region-focusable)
          tabIndex={0}
          className={log}
          data-testid="chat-log"
        >
          <div ref={topRef} />
          {state.hasOlder ? (
            <div className={css({ display: 'flex', justifyContent: 'center' })}>
              {state.older === 'loading' ? (
                <Spinner label={t('loadingOlder')} />
              ) : (
                <Button size="sm" variant="ghost" onClick={() => void loadOlder()}>
                  {state.older === 'failed' ? t('olderFailed') : t('loadOlder')}
                </Button>
              )}
            </div>
          ) : null}
          {rows.length === 0 ? (
            <EmptyState title={t('empty')}>{readOnly ? null : t('emptyHint')}</EmptyState>
          ) : (
            <ol className={css({ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: '2' })}>
              {rows.map((row) =>
                row.kind === 'event' ? (
                  <li key={`event-${row.event.key}`} className={eventRow} data-testid="timeline-event">
                    {row.event.item}
                  </li>
                ) : (
                  <MessageItem
                    key={row.entry.messageId}
                    entry={row.entry}
                    time={format.dateTime(row.entry.createdOn)}
                    to={addressed && row.entry.toUserId ? (row.entry.toUserId === userId ? t('you') : (people.get(row.entry.toUserId) ?? null)) : null}
                    onRetry={() => void deliver(row.entry.messageId, row.entry.message, row.entry.toUserId)}
                  />
                ),
              )}
            </ol>
          )}
        </div>
      )}

      {readOnly ? (
        <p role="note" className={css({ fontSize: 'sm', color: 'fg.muted', p: '3', borderRadius: 'md', bg: 'bg.subtle' })} data-testid="chat-read-only">
          {t('readOnly', { status: t(`status.${status === 'Cancelled' ? 'Cancelled' : 'Closed'}`) })}
        </p>
      ) : state.status === 'ready' ? (
        <form
          className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <label htmlFor={composerId} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
            {t('composer.label')}
          </label>
          {addressed && recipient ? (
            <SelectField
              layout="inline"
              label={t('composer.to')}
              value={recipient}
              options={recipients}
              onValueChange={(value) => setChosenRecipient(value || null)}
              testId="chat-recipient"
            />
          ) : null}
          <textarea
            id={composerId}
            data-chat-composer
            value={draft}
            rows={2}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            aria-describedby={`${composerId}-hint`}
            aria-invalid={tooLong || undefined}
            className={css({
              w: '100%',
              p: '2',
              borderWidth: '1px',
              borderColor: 'border',
              borderRadius: 'md',
              bg: 'bg.default',
              resize: 'vertical',
              _focusVisible: { outline: '2px solid', outlineColor: 'primary.main' },
            })}
          />
          <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' })}>
            <span id={`${composerId}-hint`} className={css({ fontSize: 'xs', color: tooLong ? 'error.main' : 'fg.muted' })}>
              {tooLong ? t('composer.tooLong', { max: MAX_MESSAGE_LENGTH }) : t('composer.hint')}
            </span>
            <Button type="submit" size="sm" disabled={!draft.trim() || tooLong}>
              {t('composer.send')}
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

function MessageItem({ entry, time, to, onRetry }: { entry: ChatEntry; time: string; to: string | null; onRetry: () => void }) {
  const { t } = useTranslation('chat');
  return (
    <li className={bubble} data-mine={entry.mine} data-delivery={entry.delivery} data-seq={entry.seq ?? undefined} data-testid="chat-message">
      <div className={css({ display: 'flex', gap: '2', fontSize: 'xs', color: 'fg.muted', flexWrap: 'wrap' })}>
        <span className={css({ fontWeight: 'semibold', color: 'fg.default' })}>{entry.mine ? t('you') : entry.fromUserName}</span>
        {to ? <span data-testid="chat-to">{t('toName', { name: to })}</span> : null}
        <time dir="auto" dateTime={entry.createdOn}>
          {time}
        </time>
      </div>
      <p className={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' })} data-testid="chat-text">
        {entry.message}
      </p>
      {entry.mine ? (
        <div className={cx(css({ display: 'flex', alignItems: 'center', gap: '2', justifyContent: 'flex-end', fontSize: 'xs' }))}>
          <span className={css({ color: entry.delivery === 'failed' ? 'error.main' : 'fg.muted' })} data-testid="chat-delivery">
            {t(`delivery.${entry.delivery}`)}
          </span>
          {entry.delivery === 'failed' ? (
            <Button size="sm" variant="outline" onClick={onRetry} aria-label={t('retryLabel', { message: entry.message.slice(0, 40) })}>
              {t('retry')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

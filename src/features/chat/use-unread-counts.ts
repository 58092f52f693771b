import { useEffect, useRef, useState } from 'react';
import { useRealtime } from '#src/app/realtime/use-realtime.ts';
import { chatApi } from './api/chat-api.ts';

/** How long pushes are gathered before the counts are asked again (a burst of messages → one call). */
export const UNREAD_REFRESH_MS = 250;

/**
 * Unread chat messages per ticket for the tickets a list shows (POST /supportchat/unreadcounts),
 * kept current by the pushes: a message or a read marker on one of them asks again. Tickets
 * without unread messages are absent. Nothing is shown when the counts cannot be had.
 */
export function useUnreadCounts(ticketIds: readonly number[]): Record<number, number> {
  const [counts, setCounts] = useState<Record<number, number>>({});
  const key = [...ticketIds].sort((a, b) => a - b).join(',');
  const [version, setVersion] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!key) {
      setCounts({});
      return;
    }
    let current = true;
    chatApi.unreadCounts(key.split(',').map(Number)).then(
      (answer) => {
        if (!current) return;
        setCounts(Object.fromEntries(answer.items.filter((item) => item.unreadCount > 0).map((item) => [item.ticketId, item.unreadCount])));
      },
      () => current && setCounts({}),
    );
    return () => {
      current = false;
    };
  }, [key, version]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useRealtime((notice) => {
    const relevant =
      (notice.type === 'event' &&
        (notice.frame.kind === 'chat.message' || notice.frame.kind === 'chat.read') &&
        notice.frame.ticketId !== null &&
        ticketIds.includes(notice.frame.ticketId)) ||
      notice.type === 'resync' ||
      (notice.type === 'connected' && notice.resumed);
    if (!relevant || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setVersion((v) => v + 1);
    }, UNREAD_REFRESH_MS);
  });

  return counts;
}

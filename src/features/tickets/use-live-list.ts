import { useEffect, useRef } from 'react';
import { useRealtime } from '#src/app/realtime/use-realtime.ts';

/** Ticket changes arriving within this window reload a list once. */
export const LIVE_RELOAD_MS = 300;

/**
 * Reloads a ticket list and its counts when another user changes a ticket (issue 8): every
 * `ticket.changed` push reaches only users who may see the ticket (or just could), so any of
 * them may add, move or drop a row. Also after a resumed connection or a resync, when pushes
 * may have been missed.
 */
export function useLiveTicketList(reload: () => void): void {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(reload);
  latest.current = reload;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useRealtime((notice) => {
    const relevant =
      (notice.type === 'event' && notice.frame.kind === 'ticket.changed') || notice.type === 'resync' || (notice.type === 'connected' && notice.resumed);
    if (!relevant || timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current();
    }, LIVE_RELOAD_MS);
  });
}

import type { ChatEntry } from './chat-store.ts';

/** Something that happened to the ticket, shown between the messages at its moment (issue 23). */
export interface TimelineEvent<T = unknown> {
  key: string;
  /** ISO instant. */
  at: string;
  item: T;
}

export type TimelineRow<T = unknown> = { kind: 'message'; entry: ChatEntry } | { kind: 'event'; event: TimelineEvent<T> };

const time = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

/**
 * The chat and the ticket's history as one timeline: messages keep their order (by seq, unsent
 * ones last), and each event goes before the first message that is later than it. While older
 * messages are still to be loaded, events older than the oldest loaded message are left out —
 * they belong to the part of the conversation not shown yet, and come in with it.
 */
export function weaveTimeline<T>(entries: readonly ChatEntry[], events: readonly TimelineEvent<T>[], hasOlder: boolean): TimelineRow<T>[] {
  const sorted = [...events].sort((a, b) => time(a.at) - time(b.at));
  const from = hasOlder && entries.length ? time(entries[0].createdOn) : -Infinity;
  const pending = sorted.filter((event) => time(event.at) >= from);
  const rows: TimelineRow<T>[] = [];
  let next = 0;
  for (const entry of entries) {
    const at = time(entry.createdOn);
    while (next < pending.length && time(pending[next].at) < at) rows.push({ kind: 'event', event: pending[next++] });
    rows.push({ kind: 'message', entry });
  }
  while (next < pending.length) rows.push({ kind: 'event', event: pending[next++] });
  return rows;
}

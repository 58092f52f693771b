import { useSyncExternalStore } from 'react';

/**
 * The bell's unread count (issue 21, docs/decisions/0262): a number in the first render, no
 * XState. The notification-center actor (src/features/inbox/inbox-runtime.ts, loaded after
 * the first content) writes it; null until it is known (the bell then shows no badge).
 */
let count: number | null = null;
const listeners = new Set<() => void>();

export function setUnreadCount(next: number | null): void {
  if (next === count) return;
  count = next;
  for (const listener of [...listeners]) listener();
}

export function unreadCount(): number | null {
  return count;
}

export function subscribeUnreadCount(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUnreadCount(): number | null {
  return useSyncExternalStore(subscribeUnreadCount, unreadCount, unreadCount);
}

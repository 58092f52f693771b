import type { EventFrame } from '#machines/realtime-protocol.ts';

/**
 * What the realtime connection hands to the open screens (docs/decisions/0056). No XState, no
 * React and no socket here (the hooks are in use-realtime.ts): views subscribe from the first render on, the connection itself (the
 * realtime-connection actor, src/app/realtime/realtime-runtime.ts) loads later and publishes.
 *
 * - `event`: a pushed event, each exactly once and in cursor order (the actor drops duplicates).
 * - `connected`: the socket is ready; `resumed` when it replaced a lost one (the hub has
 *   replayed what was missed; lists reload anyway, as decision 0050 asks).
 * - `resync`: more was missed than a replay carries: reload what is shown.
 */
export type RealtimeNotice = { type: 'event'; frame: EventFrame } | { type: 'connected'; resumed: boolean } | { type: 'resync' };

/** The connection as the screens may show it. */
export type RealtimeStatus = 'off' | 'connecting' | 'live' | 'reconnecting' | 'offline';

const listeners = new Set<(notice: RealtimeNotice) => void>();
const statusListeners = new Set<() => void>();
let status: RealtimeStatus = 'off';
let userId: string | null = null;

export function publishRealtime(notice: RealtimeNotice): void {
  for (const listener of [...listeners]) {
    try {
      listener(notice);
    } catch (error) {
      console.error('A realtime listener failed', error);
    }
  }
}

export function subscribeRealtime(listener: (notice: RealtimeNotice) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** For the hooks in use-realtime.ts: status and user changes. */
export function subscribeRealtimeStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

export function realtimeUserId(): string | null {
  return userId;
}

export function setRealtimeStatus(next: RealtimeStatus): void {
  if (next === status) return;
  status = next;
  for (const listener of [...statusListeners]) listener();
}

/** The user the hub authenticated (its `ready` frame), for screens that need to know who "I" am. */
export function setRealtimeUserId(next: string | null): void {
  if (next === userId) return;
  userId = next;
  for (const listener of [...statusListeners]) listener();
}

export function realtimeStatus(): RealtimeStatus {
  return status;
}

/** Ticket ids a notice is about (a ticket change or a chat message), for lists that show them. */
export function ticketOf(notice: RealtimeNotice): number | null {
  return notice.type === 'event' ? notice.frame.ticketId : null;
}

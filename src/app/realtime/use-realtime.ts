import { useEffect, useRef, useSyncExternalStore } from 'react';
import { realtimeStatus, realtimeUserId, subscribeRealtime, subscribeRealtimeStatus, type RealtimeNotice, type RealtimeStatus } from './realtime-events.ts';

/** The realtime notices and status for views (the bus itself, realtime-events.ts, has no React). */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribeRealtimeStatus, realtimeStatus);
}

export function useRealtimeUserId(): string | null {
  return useSyncExternalStore(subscribeRealtimeStatus, realtimeUserId);
}

/** Calls `listener` for every notice while the component is mounted (the latest listener, without resubscribing). */
export function useRealtime(listener: (notice: RealtimeNotice) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => subscribeRealtime((notice) => latest.current(notice)), []);
}

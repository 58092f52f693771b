import type { RealtimeSession } from './realtime-session.ts';

/**
 * Opens the realtime connection once someone is signed in: the connection's code (XState, the
 * machine, the socket) loads then. Called from a chunk that itself loads after the first
 * content (src/app/realtime/realtime-boot.ts), so nothing of it is in the first render of / or
 * /login (docs/decisions/0006, 0056). Once started, the runtime follows the session itself: it
 * closes on sign-out and reopens on the next sign-in.
 */
export function startRealtimeWhenSignedIn(
  session: RealtimeSession,
  options: { setPermissions?: (permissions: string[]) => void; load?: () => Promise<typeof import('./realtime-runtime.ts')> } = {},
): Promise<ReturnType<(typeof import('./realtime-runtime.ts'))['startRealtimeRuntime']>> {
  const load = options.load ?? (() => import('./realtime-runtime.ts'));
  return new Promise((resolve, reject) => {
    let started = false;
    let unsubscribe: (() => void) | null = null;
    const check = () => {
      if (started || !session.active()) return;
      started = true;
      unsubscribe?.();
      load().then(
        ({ startRealtimeRuntime }) => resolve(startRealtimeRuntime({ session, setPermissions: options.setPermissions })),
        (error: unknown) => {
          console.warn('The realtime connection could not start', error);
          reject(error);
        },
      );
    };
    unsubscribe = session.subscribe(check);
    check();
    if (started) unsubscribe();
  });
}

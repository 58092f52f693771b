import { afterFirstContent } from '../content-rendered.tsx';
import type { RealtimeSession } from './realtime-session.ts';

/**
 * Opens the realtime connection once someone is signed in and the first content is on screen:
 * the connection's code (XState, the machine, the socket) is loaded then, never in the first
 * render of / or /login (docs/decisions/0006, 0056). After that the runtime follows the session
 * itself: it closes on sign-out and reopens on the next sign-in.
 */
export function startRealtimeWhenSignedIn(session: RealtimeSession, options: { setPermissions?: (permissions: string[]) => void } = {}): void {
  let started = false;
  afterFirstContent(() => {
    let unsubscribe: (() => void) | null = null;
    const check = () => {
      if (started || !session.active()) return;
      started = true;
      unsubscribe?.();
      import('./realtime-runtime.ts')
        .then(({ startRealtimeRuntime }) => startRealtimeRuntime({ session, setPermissions: options.setPermissions }))
        .catch((error: unknown) => {
          started = false;
          console.warn('The realtime connection could not start', error);
        });
    };
    unsubscribe = session.subscribe(check);
    check();
  });
}

import { userPermissionsStore } from '../stores/slices.ts';
import { authRealtimeSession } from './auth-session-source.ts';
import { startRealtimeWhenSignedIn } from './start-realtime.ts';

/**
 * Loaded after the first content (src/main.tsx): waits for a session, then opens the realtime
 * connection; permission changes it is told about go to the userPermissions slice.
 */
export function bootRealtime() {
  // The notification center follows the hub's user: the bell's count and its live pushes (issue 21).
  void import('#src/features/inbox/inbox-runtime.ts').then(
    ({ startInbox }) => startInbox(),
    (error: unknown) => console.warn('The notification center could not start', error),
  );
  return startRealtimeWhenSignedIn(authRealtimeSession, { setPermissions: (permissions) => userPermissionsStore.trigger.update({ permissions }) });
}

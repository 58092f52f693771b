import { userPermissionsStore } from '../stores/slices.ts';
import { authRealtimeSession } from './auth-session-source.ts';
import { startRealtimeWhenSignedIn } from './start-realtime.ts';

/**
 * Loaded after the first content (src/main.tsx): waits for a session, then opens the realtime
 * connection; permission changes it is told about go to the userPermissions slice.
 */
export function bootRealtime() {
  return startRealtimeWhenSignedIn(authRealtimeSession, { setPermissions: (permissions) => userPermissionsStore.trigger.update({ permissions }) });
}

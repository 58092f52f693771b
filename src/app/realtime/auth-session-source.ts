import { authUserStore, hasSession } from '../auth/auth-user-store.ts';
import type { RealtimeSession } from './realtime-session.ts';

/**
 * The auth session as the realtime connection sees it (docs/decisions/0056): the token and
 * whether a session exists come from the persisted authUser slice (no XState); a refresh and
 * pushed data go to the auth-session actor, loaded on demand (docs/decisions/0060). The loader is imported dynamically: it is already in the app chunk,
 * and a static import from here would split it (and React) into chunks of their own.
 */
const loader = () => import('../auth/auth-session-loader.ts');

export const authRealtimeSession: RealtimeSession = {
  token: () => {
    const session = authUserStore.getSnapshot().context;
    return session.isLoggedIn ? session.token : null;
  },
  active: () => hasSession(authUserStore.getSnapshot().context),
  subscribe: (listener) => {
    const subscription = authUserStore.subscribe(listener);
    return () => subscription.unsubscribe();
  },
  refresh: async () => (await (await loader()).loadAuthSession()).refreshSession(),
  mergeSignalRData: (data) => void loader().then(({ loadedAuthSession }) => loadedAuthSession()?.authSession.send({ type: 'signalr.data', data })),
};
